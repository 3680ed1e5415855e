// A graph that breaks its schema everywhere is refused in time linear in its size, with the count
// and the first violations, and `kg doctor` gives the same verdict as every query (ADR 76).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadGraphFile } from '../../src/graph';
import { run } from '../../src/cli/run';
import { removeTempDirs, tempDir } from '../helpers/fixtures';

/** A graph of `edges` edges, each with one field the format does not define. */
function badGraph(edges: number): string {
  const files = Math.ceil(edges / 10);
  const nodes: string[] = [];
  for (let f = 0; f < files; f++)
    nodes.push(JSON.stringify({ id: `file:src/f${f}.ts`, kind: 'file', label: `f${f}.ts`, sourceFile: `src/f${f}.ts` }));
  const es: string[] = [];
  for (let i = 0; i < edges; i++) {
    es.push(
      JSON.stringify({
        source: `file:src/f${i % files}.ts`,
        target: `file:src/f${(i + 1) % files}.ts`,
        relation: 'imports',
        confidence: 'EXACT',
        resolution: 'EXTRACTED',
        provenance: 'MODULE_RESOLUTION',
        bogus: i,
      }),
    );
  }
  return `{"schemaVersion":1,"graphSignature":"000000000000","layers":["structural"],"grammarVersions":{},"nodes":[\n${nodes.join(',\n')}],\n"edges":[\n${es.join(',\n')}]}\n`;
}

function timeLoad(file: string): { ms: number; reason: string } {
  const t0 = performance.now();
  const load = loadGraphFile(file);
  const ms = performance.now() - t0;
  assert.equal(load.ok, false);
  return { ms, reason: load.ok ? '' : load.unavailable.reason };
}

describe('an invalid graph', () => {
  after(removeTempDirs);

  it('is refused in linear time, with the count of violations', () => {
    const dir = tempDir();
    const small = path.join(dir, 'small.json');
    const big = path.join(dir, 'big.json');
    fs.writeFileSync(small, badGraph(15_000));
    fs.writeFileSync(big, badGraph(60_000)); // about 9 MB
    timeLoad(small); // compile the validators once
    const a = timeLoad(small);
    const b = timeLoad(big);
    assert.match(b.reason, /\/edges\/0 \(edge .*\) .* \(and 59999 more schema violations/);
    console.log(
      `# invalid graph refused: ${(fs.statSync(small).size / 1e6).toFixed(1)} MB in ${Math.round(a.ms)} ms, ${(fs.statSync(big).size / 1e6).toFixed(1)} MB in ${Math.round(b.ms)} ms`,
    );
    // Four times the violations: linear is ~4x; quadratic was 16x (2.3 s at 9 MB before ADR 76).
    assert.ok(b.ms < Math.max(8 * a.ms, 1500), `4x the graph took ${Math.round(b.ms)} ms against ${Math.round(a.ms)} ms`);
  });

  it('fails kg doctor as it fails every query: the schema first, the count, at most 20 listed', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'graph.json');
    fs.writeFileSync(file, badGraph(100));
    let out = '';
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => {} }, cwd: dir };
    assert.equal(await run(['doctor', '--graph', file], io), 1);
    // The schema's line, with the count, up to 20 violations and the rest counted (ADR 97).
    assert.match(out, /^FAIL schema +100$/m);
    assert.equal(out.split('\n').filter((l) => l.startsWith('    /edges/')).length, 20);
    assert.match(out, /^ {4}… 80 more$/m);
    assert.match(out, /does not match its schema \(schema\/graph\.schema\.json: 100 violations/);
    out = '';
    assert.equal(await run(['doctor', '--graph', file, '--json'], io), 1);
    const report = JSON.parse(out) as { ok: boolean; schema: { count: number; samples: string[] } };
    assert.equal(report.ok, false);
    assert.equal(report.schema.count, 100);
    assert.equal(report.schema.samples.length, 20);
  });
});
