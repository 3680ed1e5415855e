import * as fs from 'node:fs';
import { parseId, symbolId } from '../src/graph/ids';
import { extractFile, parseSource } from '../src/graph/indexer/compiler/extract';
const [graphFile, pkgRoot] = process.argv.slice(2);
const g = JSON.parse(fs.readFileSync(graphFile, 'utf8'));
const cache = new Map<string, Set<string>>();
let ok = 0, bad = 0, missingFile = 0;
for (const t of new Set<string>(g.edges.filter((e: any) => e.target.startsWith('pkg:')).map((e: any) => e.target))) {
  const p = parseId(t)!; if (p.prefix !== 'pkg') throw new Error(t);
  const abs = pkgRoot + '/' + p.path;
  if (!fs.existsSync(abs)) { missingFile++; continue; }
  let ids = cache.get(abs);
  if (!ids) { ids = new Set(extractFile(parseSource(abs, fs.readFileSync(abs, 'utf8'), undefined), p.path).nodes.map((n) => n.id)); cache.set(abs, ids); }
  if (ids.has(symbolId(p.path, p.name))) ok++; else { bad++; if (bad < 10) console.log('no such symbol in source:', t); }
}
console.log({ ok, bad, missingFile });
