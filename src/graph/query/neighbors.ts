// `neighbors <id> [--budget N]`: the neighbourhood of a node, breadth-first on the undirected view,
// at most `budget` nodes (the start included). Neighbours are visited in sorted id order, so the
// same graph always gives the same answer. A hub (degree over the threshold) can be reached but is
// never expanded through — otherwise one `log()` called from everywhere would make every node a
// neighbour of every other; hubs reached are listed in `excludedHubs`. The start is always
// expanded: it is what was asked about. An `unresolved:` target is a name, not a thing (every
// unplaced call to `foo` shares `unresolved:foo`), so it is reached but never walked through.
// The rules are ADR-22's.

import { GraphError } from '../errors';
import { compareStrings } from '../model';
import { edgeRef, isHub, isUnresolvedRank, type IndexedGraph } from './indexed';
import { rankOrDegrade } from './lookup';
import { answered, type EdgeRef, type NeighborsResult, type QueryOptions } from './shapes';

export const DEFAULT_BUDGET = 40;

export function queryNeighbors(g: IndexedGraph, id: string, budget = DEFAULT_BUDGET, opts?: QueryOptions): NeighborsResult {
  if (!Number.isSafeInteger(budget) || budget < 1)
    throw new GraphError('INVALID_ARGUMENT', `budget must be a whole number of nodes, at least 1 (got ${budget})`);
  const start = rankOrDegrade(g, id, opts, true);
  if (typeof start !== 'number') return start;
  const order: number[] = [start];
  const seen = new Set<number>(order);
  const hubs: number[] = [];
  for (let head = 0; head < order.length && order.length < budget; head++) {
    const u = order[head];
    if (u !== start && (isUnresolvedRank(g, u) || isHub(g, u))) continue;
    for (let k = g.adjStart[u]; k < g.adjStart[u + 1] && order.length < budget; k++) {
      const v = g.adj[k];
      if (seen.has(v)) continue;
      seen.add(v);
      order.push(v);
    }
  }
  for (const r of order) if (r !== start && isHub(g, r)) hubs.push(r);
  return answered(
    {
      nodes: order.map((r) => g.ids[r]),
      excludedHubs: hubs.map((r) => g.ids[r]).sort(compareStrings),
      hubThreshold: g.hubThreshold,
      edges: edgesAmong(g, order),
    },
    opts,
  );
}

/** Every edge whose two ends are in `ranks`, sorted by source, target, relation. */
export function edgesAmong(g: IndexedGraph, ranks: readonly number[]): EdgeRef[] {
  const inSet = new Set(ranks);
  const found: number[] = [];
  for (const r of ranks) {
    for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
      const e = g.outEdges[k];
      if (inSet.has(g.edgeTarget[e])) found.push(e);
    }
  }
  found.sort(
    (a, b) =>
      g.edgeSource[a] - g.edgeSource[b] || g.edgeTarget[a] - g.edgeTarget[b] || compareStrings(g.edgeRelation[a], g.edgeRelation[b]),
  );
  return found.map((e) => edgeRef(g, e));
}
