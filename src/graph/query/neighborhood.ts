// The neighbourhood a picture draws (`kg export --format mermaid --node <id>`, ADR 156): the walk of
// `neighbors` (ADR-22: breadth-first on the undirected view, neighbours in sorted id order, hubs
// and `unresolved:` names reached but never expanded, the start always expanded), bounded by a
// depth as well as a number of nodes. A picture never cuts silently, so the walk goes on past the
// limit, within the depth, only to count what it leaves out.

import { GraphError } from '../errors';
import { compareStrings } from '../model';
import { isHub, isUnresolvedRank, type IndexedGraph } from './indexed';
import { rankOrDegrade } from './lookup';
import { edgesAmong } from './neighbors';
import type { EdgeRef, Unavailable } from './shapes';

export interface Neighborhood {
  available: true;
  /** The nodes drawn: the start first, then in the order the walk reached them. */
  nodes: string[];
  /** Every edge between two drawn nodes, by source, target, relation. */
  edges: EdgeRef[];
  /** Nodes within the depth the limit left out. */
  leftOut: number;
  /** Drawn hubs (degree over the threshold) the walk did not expand, sorted. */
  hubs: string[];
  hubThreshold: number;
}

export function queryNeighborhood(g: IndexedGraph, id: string, depth: number, limit: number): Neighborhood | Unavailable {
  for (const [name, v] of [
    ['depth', depth],
    ['limit', limit],
  ] as const)
    if (!Number.isSafeInteger(v) || v < 1)
      throw new GraphError('INVALID_ARGUMENT', `${name} must be a whole number, at least 1 (got ${v})`);
  const start = rankOrDegrade(g, id, undefined, true);
  if (typeof start !== 'number') return start;
  const order: number[] = [start];
  const dist = new Map<number, number>([[start, 0]]);
  const expanded = (u: number) => u === start || !(isUnresolvedRank(g, u) || isHub(g, u));
  for (let head = 0; head < order.length; head++) {
    const u = order[head];
    const d = dist.get(u) as number;
    if (d >= depth || !expanded(u)) continue;
    for (let k = g.adjStart[u]; k < g.adjStart[u + 1]; k++) {
      const v = g.adj[k];
      if (dist.has(v)) continue;
      dist.set(v, d + 1);
      order.push(v);
    }
  }
  // `order` holds everything within the depth, in the walk's order; the first `limit` are drawn.
  const drawn = order.slice(0, limit);
  const leftOut = order.length - drawn.length;
  const hubs = drawn.filter((r) => r !== start && isHub(g, r) && (dist.get(r) as number) < depth);
  return {
    available: true,
    nodes: drawn.map((r) => g.ids[r]),
    edges: edgesAmong(g, drawn),
    leftOut,
    hubs: hubs.map((r) => g.ids[r]).sort(compareStrings),
    hubThreshold: g.hubThreshold,
  };
}
