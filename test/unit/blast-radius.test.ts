// One name per meaning (ADR 179), on a graph the real compiler built: `impact`'s `blastRadius` is
// the number of distinct proven direct consumers, and it is the same number as the proven
// consumers `kg diff` lists when the symbol is removed; the report's transitive `reach` is the
// reach walk's over the same indexed graph, and it is not that number (hence its own name).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildGraph, diffReport, indexGraph, memoryFileHost, queryImpact, type Graph, type IndexedGraph } from '../../src/graph';
import { fileOfId } from '../../src/graph/ids';
import { ReachWalker } from '../../src/graph/reach';

const LIB = 'export function add(a: number, b: number): number {\n  return a + b;\n}\nexport function keep(): void {}\n';
const TREE = {
  'tsconfig.json': '{"include": ["src"]}',
  'src/lib.ts': LIB,
  'src/a.ts': 'import { add } from "./lib";\nexport function one() {\n  return add(1, 2);\n}\n',
  'src/b.ts':
    'import { add } from "./lib";\nexport function two() {\n  return add(3, 4);\n}\nexport function three() {\n  return two() + 1;\n}\nexport const apply = (f: typeof add) => f(5, 6);\nexport function four() {\n  return apply(add);\n}\n',
  'src/c.ts': 'import { three } from "./b";\nexport function five() {\n  return three();\n}\n',
};
const ADD = 'sym:src/lib.ts#add';

const build = (tree: Record<string, string>): Graph => buildGraph({ root: '/r', host: memoryFileHost('/r', tree) }).graph;
const indexOf = (g: Graph): IndexedGraph => {
  const load = indexGraph(g);
  assert.ok(load.ok);
  return load.graph;
};
const side = { spec: 'x', kind: 'graph' as const, graphSignature: 'x' };

describe('blastRadius and reach: one name per meaning (ADR 179)', () => {
  const base = build(TREE);
  const head = build({ ...TREE, 'src/lib.ts': 'export function keep(): void {}\n' });
  const g = indexOf(base);
  const impact = queryImpact(g, ADD);
  assert.ok(!('available' in impact && impact.available === false) && 'blastRadius' in impact);
  const report = diffReport({ base, head, indexed: { base: g } }, { base: side, head: side });
  const removed = report.symbols.removed.find((r) => r.id === ADD);
  assert.ok(removed, 'the diff lists add as removed');

  it("impact's blastRadius counts the consumers kg diff lists for the removed symbol: the same ids, the same number", () => {
    const listed = [...new Set(removed.proven.map((c) => c.id))].sort();
    assert.deepEqual(listed, [...impact.consumers].sort());
    assert.equal(impact.blastRadius, listed.length);
    assert.equal(impact.blastRadius, 4, 'two callers, and two that name it as a value');
  });

  it("the report's reach is the reach walk over the indexed base, and it goes further than the direct consumers", () => {
    const walked = new ReachWalker(g, (id) => fileOfId(id) ?? '').of([ADD]);
    assert.deepEqual(removed.reach, walked);
    // five calls three, which calls two, which calls add: reached, never a direct consumer.
    assert.ok(!impact.consumers.includes('sym:src/c.ts#five'));
    assert.deepEqual(removed.reach, { proven: 6, files: 3, guessed: 0 });
    assert.equal(report.reportVersion, 2);
    assert.equal('blastRadius' in removed, false, 'the report no longer names its transitive walk blastRadius');
  });
});
