// graphSignature: the content address of the graph's shape — sorted node ids and sorted
// `source target relation` tuples, nothing else — so a line move or a confidence change does
// not move it.

import { createHash } from 'node:crypto';
import { compareStrings, type GraphEdge, type GraphNode } from '../model';

export function graphSignature(
  nodes: readonly Pick<GraphNode, 'id'>[],
  edges: readonly Pick<GraphEdge, 'source' | 'target' | 'relation'>[],
): string {
  const ids = nodes.map((n) => n.id).sort(compareStrings);
  const tuples = edges
    .map((e) => [e.source, e.target, e.relation])
    .sort((a, b) => compareStrings(a[0], b[0]) || compareStrings(a[1], b[1]) || compareStrings(a[2], b[2]));
  return createHash('sha256')
    .update(JSON.stringify([ids, tuples]))
    .digest('hex')
    .slice(0, 12);
}
