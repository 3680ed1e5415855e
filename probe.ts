import * as fs from 'node:fs';
import { corpus } from './bench/corpus';
import { buildTracked, readPrevious, commitGeneration } from './src/graph';
const root = corpus('rxjs', '/tmp/kgprobe-rx').root;
const out = root + '/.knowledge-graph/graph.json';
let t = performance.now();
const r0 = buildTracked({ root });
console.log('full', (performance.now() - t).toFixed(0));
commitGeneration(out, r0.text, r0.manifestText);
fs.appendFileSync(root + '/src/internal/util/isFunction.ts', '\n// one line\n');
for (let i = 0; i < 3; i++) {
  t = performance.now();
  const prev = readPrevious(out);
  const t1 = performance.now();
  const r = buildTracked({ root, previous: prev });
  const t2 = performance.now();
  const c = commitGeneration(out + '.x.json', r.text, r.manifestText);
  const t3 = performance.now();
  console.log(r.mode, 'read', (t1 - t).toFixed(0), 'build', (t2 - t1).toFixed(0), 'commit', (t3 - t2).toFixed(0));
}
