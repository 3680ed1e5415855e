// `god-nodes [--top N]`: the most connected nodes, by in + out degree, ties by id. `unresolved:`
// targets are names, not nodes, and are never ranked (though edges to them count toward the
// degree of the node that has them: a function with forty unplaced calls is still busy).

import { GraphError } from '../errors';
import type { IndexedGraph } from './indexed';
import { answered, type GodNodesResult, type QueryOptions } from './shapes';

export const DEFAULT_TOP = 10;

export function queryGodNodes(g: IndexedGraph, top = DEFAULT_TOP, opts?: QueryOptions): GodNodesResult {
  if (!Number.isSafeInteger(top) || top < 1)
    throw new GraphError('INVALID_ARGUMENT', `top must be a whole number, at least 1 (got ${top})`);
  const godNodes: Array<{ id: string; degree: number }> = [];
  const n = Math.min(top, g.byDegree.length);
  for (let i = 0; i < n; i++) {
    const r = g.byDegree[i];
    godNodes.push({ id: g.ids[r], degree: g.degree[r] });
  }
  return answered({ godNodes }, opts);
}
