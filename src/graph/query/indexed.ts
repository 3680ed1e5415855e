// The indexed graph as the queries take it (src/graph/graph-index.ts builds it, ADR-23, ADR 179):
// a refusal to index becomes the queries' degrade, and an edge becomes an answer's reference.

import { indexEdges, type IndexedGraph } from '../graph-index';
import type { Graph } from '../model';
import { REASONS, unavailable, type EdgeRef, type Unavailable } from './shapes';

export { CONFIDENCE_CODE, gramBucket, isHub, isPackageRank, isUnresolvedRank, nodeOf, type IndexedGraph } from '../graph-index';

export type GraphLoad = { ok: true; graph: IndexedGraph } | { ok: false; unavailable: Unavailable };

/**
 * Indexes a graph that already matches the schema. Refuses what the schema cannot express but a
 * query depends on: one node per id, and every edge endpoint a node (or an `unresolved:` target).
 */
export function indexGraph(graph: Graph): GraphLoad {
  const r = indexEdges(graph);
  return r.ok ? r : { ok: false, unavailable: unavailable('INVALID', REASONS.unparsable(r.detail)) };
}

export function edgeRef(g: IndexedGraph, e: number): EdgeRef {
  const edge = g.graph.edges[e];
  return { source: edge.source, target: edge.target, relation: edge.relation, confidence: edge.confidence };
}
