// compose keeps one edge per (source, target, relation) (ADR 3): the strongest confidence, then the
// earliest evidence (an edge with evidence before one without), then the smaller JSON text. Random
// edges, many of them on the same tuples, in random orders: the kept edge of each tuple is the one
// this rule, written out here on its own, picks; the edges are sorted by tuple; and the order of the
// input changes nothing. Given the last graph, an edge equal to its edge of the same tuple is that
// edge's object, and the graph is the same.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareEdges, compareStrings, type Confidence, type GraphEdge } from '../../src/graph';
import { compose } from '../../src/graph/indexer/compiler/compose';
import { fc } from '../helpers/seed';

const RANK: Record<Confidence, number> = { EXACT: 0, CANDIDATE: 1, UNRESOLVED: 2 };

/** Negative when `a` is the edge ADR 3 keeps over `b`. */
function preferred(a: GraphEdge, b: GraphEdge): number {
  const rank = RANK[a.confidence] - RANK[b.confidence];
  if (rank !== 0) return rank;
  if (a.evidence && b.evidence)
    return (
      compareStrings(a.evidence.file, b.evidence.file) ||
      a.evidence.line - b.evidence.line ||
      a.evidence.column - b.evidence.column ||
      compareStrings(JSON.stringify(a), JSON.stringify(b))
    );
  if (a.evidence || b.evidence) return a.evidence ? -1 : 1;
  return compareStrings(JSON.stringify(a), JSON.stringify(b));
}

const edge = fc.record({
  source: fc.constantFrom('sym:a.ts#f', 'sym:a.ts#g', 'sym:b.ts#h'),
  target: fc.constantFrom('sym:b.ts#h', 'sym:c.ts#k', 'unresolved:x'),
  relation: fc.constantFrom('calls' as const, 'references' as const),
  confidence: fc.constantFrom<Confidence>('EXACT', 'CANDIDATE', 'UNRESOLVED'),
  evidence: fc.option(fc.record({ file: fc.constantFrom('a.ts', 'b.ts'), line: fc.nat({ max: 3 }), column: fc.nat({ max: 2 }) }), {
    nil: undefined,
  }),
  context: fc.option(fc.constantFrom('new', 'dynamic'), { nil: undefined }),
});

function composed(edges: GraphEdge[], last?: GraphEdge[]): GraphEdge[] {
  return compose({ nodeLayers: [], edges, grammarVersions: {}, ...(last ? { last: { nodes: [], edges: last, graphSignature: 'x' } } : {}) })
    .edges;
}

describe('compose: one edge per tuple (ADR 3)', () => {
  it('keeps the preferred edge of each tuple, sorted, whatever the input order', () => {
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 40 }), fc.nat(), (raw, seed) => {
        // Plain objects (JSON drops the absent fields): two edges with the same text are alike.
        const edges = raw.map(
          (r) =>
            JSON.parse(
              JSON.stringify({ ...r, provenance: 'compiler', resolution: 'checker', evidenceClass: 'direct', confidenceScore: null }),
            ) as GraphEdge,
        );
        const out = composed(edges);
        const expected = new Map<string, GraphEdge>();
        for (const e of edges) {
          const k = `${e.source} ${e.target} ${e.relation}`;
          const cur = expected.get(k);
          if (!cur || preferred(e, cur) < 0) expected.set(k, e);
        }
        assert.deepStrictEqual(out, [...expected.values()].sort(compareEdges));
        for (let i = 1; i < out.length; i++) assert.ok(compareEdges(out[i - 1], out[i]) < 0);
        // Another order of the same edges: the same graph.
        const shuffled = [...edges];
        for (let i = shuffled.length - 1, s = seed; i > 0; i--) {
          s = (s * 1103515245 + 12345) % 2147483648;
          const j = s % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        assert.deepStrictEqual(composed(shuffled), out);
        // The last graph: some of the same edges as copies, some changed, some missing.
        const last = composed(
          out.flatMap((e, i) =>
            i % 3 === 0 ? [] : i % 3 === 1 ? [JSON.parse(JSON.stringify(e)) as GraphEdge] : [{ ...e, confidenceScore: 0.5 }],
          ),
        );
        const withLast = composed(edges, last);
        assert.deepStrictEqual(withLast, out);
        const lastText = new Map(last.map((e) => [`${e.source} ${e.target} ${e.relation}`, e]));
        for (const e of withLast) {
          const l = lastText.get(`${e.source} ${e.target} ${e.relation}`);
          assert.equal(e === l, l !== undefined && JSON.stringify(e) === JSON.stringify(l));
        }
      }),
      { numRuns: 300 },
    );
  });
});
