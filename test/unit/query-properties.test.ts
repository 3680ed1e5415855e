// Properties over many random graphs (fast-check), each checked against a reference written here
// from the definitions — plain Sets and Maps of ids, nothing shared with the engine's indexes:
// - `path` is empty exactly when the ends are not connected, and otherwise a valid shortest path,
//   the first in sorted id order (built greedily from distances to the target);
// - `neighbors` respects the budget, never expands through a hub or an unresolved target, and
//   visits breadth-first in sorted id order;
// - the hub threshold is the nearest-rank 99th percentile of node degrees, floored at 50;
// - `query` finds exactly the ids that contain the text, sorted, capped.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryIds, queryNeighbors, queryPath, type Graph } from '../../src/graph';
import { graphOf, indexed, ok, type EdgeSpec } from '../helpers/graphs';
import { fc } from '../helpers/seed';

const RUNS = 200;

/** Node i's id: names chosen so that sorted order differs from creation order. */
const nodeId = (i: number) => `sym:src/${'xyz'[i % 3]}.ts#${String.fromCharCode(97 + ((i * 7) % 26))}${i}`;
const unresolvedId = (k: number) => `unresolved:${'pq'[k % 2]}${k}`;

function dedupe(edges: EdgeSpec[]): EdgeSpec[] {
  const seen = new Set<string>();
  return edges.filter(([s, t, r]) => {
    const k = `${s}\u0000${t}\u0000${r}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Small graphs: up to 24 nodes, a few unresolved names, self-loops and cycles allowed. */
const smallGraph = fc.integer({ min: 2, max: 24 }).chain((n) =>
  fc
    .array(
      fc.tuple(
        fc.nat(n - 1),
        fc.nat(n + 2), // n.. are unresolved targets
        fc.constantFrom('calls', 'imports', 'references') as fc.Arbitrary<EdgeSpec[2]>,
        fc.constantFrom('EXACT', 'CANDIDATE') as fc.Arbitrary<EdgeSpec[3]>,
      ),
      { maxLength: 70 },
    )
    .map((raw) => {
      const edges = dedupe(raw.map(([s, t, r, c]) => [nodeId(s), t < n ? nodeId(t) : unresolvedId(t - n), r, c] as EdgeSpec));
      return graphOf(edges, { nodes: Array.from({ length: n }, (_, i) => nodeId(i)) });
    }),
);

/** Graphs with hubs: 100–140 nodes, one to three nodes joined to 40–90 others, sparse edges besides. */
const hubbyGraph = fc.integer({ min: 100, max: 140 }).chain((n) =>
  fc
    .tuple(
      fc.array(fc.tuple(fc.nat(n - 1), fc.integer({ min: 40, max: 90 }), fc.nat(1000)), { minLength: 1, maxLength: 3 }),
      fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n + 1)), { maxLength: 150 }),
    )
    .map(([hubs, raw]) => {
      const edges: EdgeSpec[] = [];
      for (const [h, spokes, offset] of hubs) {
        for (let k = 0; k < spokes; k++) {
          const other = (h + 1 + ((offset + k * 7) % (n - 1))) % n;
          edges.push(k % 2 ? [nodeId(other), nodeId(h)] : [nodeId(h), nodeId(other)]);
        }
      }
      for (const [s, t] of raw) edges.push([nodeId(s), t < n ? nodeId(t) : unresolvedId(t - n)]);
      return graphOf(dedupe(edges), { nodes: Array.from({ length: n }, (_, i) => nodeId(i)) });
    }),
);

/** The reference model of a graph: undirected adjacency (sorted, no self), degrees, hubs. */
function model(graph: Graph) {
  const adj = new Map<string, Set<string>>();
  const degree = new Map<string, number>();
  const link = (a: string, b: string) => {
    if (!adj.has(a)) adj.set(a, new Set());
    if (a !== b) adj.get(a)!.add(b);
  };
  for (const n of graph.nodes) {
    adj.set(n.id, new Set());
    degree.set(n.id, 0);
  }
  for (const e of graph.edges) {
    link(e.source, e.target);
    link(e.target, e.source);
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  const nodeDegrees = graph.nodes.map((n) => degree.get(n.id)!).sort((a, b) => a - b);
  const p99 = nodeDegrees.length ? nodeDegrees[Math.ceil(0.99 * nodeDegrees.length) - 1] : 0;
  const threshold = Math.max(50, p99);
  const neighbours = (id: string) => [...(adj.get(id) ?? [])].sort();
  const isUnresolved = (id: string) => id.startsWith('unresolved:');
  const isHub = (id: string) => degree.get(id)! > threshold;
  const all = [...adj.keys()];
  return { neighbours, isUnresolved, isHub, threshold, all };
}

/** Distances to `to`, never walking through an unresolved name (it may only be an end). */
function distancesTo(m: ReturnType<typeof model>, to: string): Map<string, number> {
  const dist = new Map([[to, 0]]);
  const queue = [to];
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i];
    if (u !== to && m.isUnresolved(u)) continue;
    for (const v of m.neighbours(u)) {
      if (!dist.has(v)) {
        dist.set(v, dist.get(u)! + 1);
        queue.push(v);
      }
    }
  }
  return dist;
}

/** The first shortest path in sorted id order: from `from`, always the smallest neighbour one step closer. */
function expectedPath(m: ReturnType<typeof model>, from: string, to: string): string[] {
  if (from === to) return [from];
  const dist = distancesTo(m, to);
  if (!dist.has(from)) return [];
  const path = [from];
  let u = from;
  while (u !== to) {
    u = m.neighbours(u).find((v) => dist.get(v) === dist.get(u)! - 1 && (v === to || !m.isUnresolved(v)))!;
    path.push(u);
  }
  return path;
}

function expectedNeighbors(m: ReturnType<typeof model>, start: string, budget: number): string[] {
  const order = [start];
  const seen = new Set(order);
  for (let i = 0; i < order.length && order.length < budget; i++) {
    const u = order[i];
    if (u !== start && (m.isHub(u) || m.isUnresolved(u))) continue;
    for (const v of m.neighbours(u)) {
      if (order.length >= budget) break;
      if (!seen.has(v)) {
        seen.add(v);
        order.push(v);
      }
    }
  }
  return order;
}

/** The first shortest chain of EXACT calls from `from` to `to` in sorted id order (ADR 161), [] when none. */
function expectedChain(graph: Graph, from: string, to: string): string[] {
  if (from === to) return [from];
  const callers = new Map<string, string[]>();
  const callees = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (e.relation !== 'calls' || e.confidence !== 'EXACT') continue;
    callers.set(e.target, [...(callers.get(e.target) ?? []), e.source]);
    callees.set(e.source, [...(callees.get(e.source) ?? []), e.target]);
  }
  const dist = new Map([[to, 0]]);
  const queue = [to];
  for (let i = 0; i < queue.length; i++)
    for (const u of callers.get(queue[i]) ?? [])
      if (!dist.has(u)) {
        dist.set(u, dist.get(queue[i])! + 1);
        queue.push(u);
      }
  if (!dist.has(from)) return [];
  const path = [from];
  for (let u = from; u !== to; path.push(u)) u = [...(callees.get(u) ?? [])].sort().find((v) => dist.get(v) === dist.get(u)! - 1)!;
  return path;
}

const pick = (graph: Graph, k: number) => model(graph).all[k % model(graph).all.length];

describe('path (property)', () => {
  for (const [name, arb] of [
    ['small graphs', smallGraph],
    ['graphs with hubs', hubbyGraph],
  ] as const) {
    it(`is the first shortest call chain, else a valid shortest path in either direction, the first in sorted order, or empty when not connected — ${name}`, () => {
      fc.assert(
        fc.property(arb, fc.nat(), fc.nat(), (graph, i, j) => {
          const m = model(graph);
          const g = indexed(graph);
          const from = pick(graph, i);
          const to = pick(graph, j);
          // The default answer: the chain of proven calls when there is one (ADR 161).
          const chain = expectedChain(graph, from, to);
          const directedAnswer = ok(queryPath(g, from, to));
          if (chain.length > 0) assert.deepEqual([directedAnswer.path, directedAnswer.directed], [chain, true]);
          else assert.deepEqual([directedAnswer.path, directedAnswer.directed], [expectedPath(m, from, to), false]);
          // Undirected: the connection in either direction, always.
          const r = ok(queryPath(g, from, to, true));
          assert.equal(r.directed, false);
          const expected = expectedPath(m, from, to);
          if (expected.length === 0) {
            assert.deepEqual([r.path, r.edges], [[], []]);
            return;
          }
          // Valid: the right ends, each hop an edge (either direction), no node twice.
          assert.equal(r.path[0], from);
          assert.equal(r.path[r.path.length - 1], to);
          assert.equal(new Set(r.path).size, r.path.length);
          for (let k = 1; k < r.path.length; k++) {
            assert.ok(m.neighbours(r.path[k - 1]).includes(r.path[k]), `hop ${r.path[k - 1]} – ${r.path[k]} is not an edge`);
            const e = r.edges[k - 1];
            assert.deepEqual([e.source, e.target].sort(), [r.path[k - 1], r.path[k]].sort());
          }
          // Shortest, and the first of the shortest in sorted order.
          assert.deepEqual(r.path, expected);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('neighbors (property)', () => {
  for (const [name, arb] of [
    ['small graphs', smallGraph],
    ['graphs with hubs', hubbyGraph],
  ] as const) {
    it(`respects the budget, never expands through a hub, breadth-first in sorted order — ${name}`, () => {
      fc.assert(
        fc.property(arb, fc.nat(), fc.integer({ min: 1, max: 60 }), (graph, i, budget) => {
          const m = model(graph);
          const g = indexed(graph);
          assert.equal(g.hubThreshold, m.threshold);
          const start = pick(graph, i);
          const r = ok(queryNeighbors(g, start, budget));
          assert.ok(r.nodes.length <= budget);
          assert.equal(r.nodes[0], start);
          assert.equal(new Set(r.nodes).size, r.nodes.length);
          // Every node after the start was reached from an earlier node that may be expanded.
          for (let k = 1; k < r.nodes.length; k++) {
            const v = r.nodes[k];
            const via = r.nodes
              .slice(0, k)
              .filter((u) => (u === start || (!m.isHub(u) && !m.isUnresolved(u))) && m.neighbours(u).includes(v));
            assert.ok(via.length > 0, `${v} was reached only through a hub or an unresolved name`);
          }
          // Under budget, nothing reachable through an expandable node was left out.
          if (r.nodes.length < budget) {
            const inSet = new Set(r.nodes);
            for (const u of r.nodes) {
              if (u !== start && (m.isHub(u) || m.isUnresolved(u))) continue;
              for (const v of m.neighbours(u)) assert.ok(inSet.has(v), `${v} next to ${u} is missing`);
            }
          }
          assert.deepEqual(r.excludedHubs, r.nodes.filter((v) => v !== start && m.isHub(v)).sort());
          assert.deepEqual(r.nodes, expectedNeighbors(m, start, budget));
          // The edges are exactly those of the graph between returned nodes.
          const inSet = new Set(r.nodes);
          const between = graph.edges
            .filter((e) => inSet.has(e.source) && inSet.has(e.target))
            .map((e) => `${e.source}>${e.target}>${e.relation}`);
          assert.deepEqual(
            r.edges.map((e) => `${e.source}>${e.target}>${e.relation}`),
            between,
          );
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('the hub graphs do exercise hubs', () => {
    // Guard against a generator that never produces a hub, which would make the property vacuous.
    let withHubs = 0;
    fc.assert(
      fc.property(hubbyGraph, (graph) => {
        const m = model(graph);
        if (m.all.some((id) => m.isHub(id))) withHubs++;
      }),
      { numRuns: 50 },
    );
    assert.ok(withHubs >= 25, `only ${withHubs} of 50 graphs had a hub`);
  });
});

describe('query (property)', () => {
  it('finds exactly the node ids containing the text (a # also as %23), sorted, at most 50', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', '.', '/', '#', 'é', '😀'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 1, maxLength: 120 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', '.', '/', '#', 'é', '😀'), maxLength: 5 }),
        (names, text) => {
          const ids = names.map((w) => `sym:src/f.ts#${encodeURIComponent(w)}`);
          const graph = graphOf([], { nodes: ids });
          const r = ok(queryIds(indexed(graph), text));
          // A typed # may be an escaped one (%23) in the name: every one, or all but the first (ADR 164).
          const first = text.indexOf('#');
          const spellings =
            first < 0 ? [text] : [text, text.replace(/#/g, '%23'), text.slice(0, first + 1) + text.slice(first + 1).replace(/#/g, '%23')];
          const all = graph.nodes.map((n) => n.id).filter((id) => spellings.some((t) => id.includes(t)));
          assert.deepEqual(r.matches, all.slice(0, 50));
          assert.equal(r.truncated, all.length > 50);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
