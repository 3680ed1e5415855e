// One entry point for every surface (CLI, extension): a loaded graph (or the degrade that says why
// there is none) and a request in, a result out. A load failure is answered as the degrade it is,
// whatever was asked.

import { queryAffected } from './affected';
import { queryCallers } from './callers';
import { queryGodNodes } from './god-nodes';
import { queryImpact } from './impact';
import type { GraphLoad } from './indexed';
import { queryNeighbors } from './neighbors';
import { queryPath } from './shortest-path';
import { queryIds } from './search-ids';
import { queryWhy } from './why';
import { withStaleness, type QueryOptions, type QueryResult } from './shapes';

export const QUERY_NAMES = ['callers', 'affected', 'impact', 'neighbors', 'path', 'god-nodes', 'query', 'why'] as const;
export type QueryName = (typeof QUERY_NAMES)[number];

export type QueryRequest =
  | { query: 'callers'; id: string }
  | { query: 'affected'; id: string }
  | { query: 'impact'; id: string }
  | { query: 'neighbors'; id: string; budget?: number }
  | { query: 'path'; from: string; to: string }
  | { query: 'god-nodes'; top?: number }
  | { query: 'query'; text: string }
  | { query: 'why'; id: string };

export function answerQuery(load: GraphLoad, request: QueryRequest, opts?: QueryOptions): QueryResult {
  if (!load.ok) return withStaleness(load.unavailable, opts);
  const g = load.graph;
  switch (request.query) {
    case 'callers':
      return queryCallers(g, request.id, opts);
    case 'affected':
      return queryAffected(g, request.id, opts);
    case 'impact':
      return queryImpact(g, request.id, opts);
    case 'neighbors':
      return queryNeighbors(g, request.id, request.budget, opts);
    case 'path':
      return queryPath(g, request.from, request.to, opts);
    case 'god-nodes':
      return queryGodNodes(g, request.top, opts);
    case 'query':
      return queryIds(g, request.text, opts);
    case 'why':
      return queryWhy(g, request.id, opts);
  }
}
