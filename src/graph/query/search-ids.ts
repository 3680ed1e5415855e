// `query <substring>`: node ids containing the text, sorted, at most 50. Exact, case-sensitive
// substring over the ids as stored (escaped: `#` inside a name is `%23`) — no fuzzy or semantic
// matching, so the same text always finds the same ids. `unresolved:` targets are not nodes and
// are not searched.

import { gramBucket, type IndexedGraph } from './indexed';
import { answered, type QueryIdsResult, type QueryOptions } from './shapes';

export const QUERY_LIMIT = 50;

/** The first `limit` node ids (in sorted order) that contain `text`, and whether there were more. */
export function matchIds(g: IndexedGraph, text: string, limit: number): { matches: string[]; truncated: boolean } {
  const matches: string[] = [];
  const take = (r: number): boolean => {
    if (!g.ids[r].includes(text)) return true;
    if (matches.length === limit) return false;
    matches.push(g.ids[r]);
    return true;
  };
  // Ranks are sorted id order, and both walks go by ascending rank: the first matches are the first in sorted order.
  const candidates = text.length >= 3 ? rarestTrigramRow(g, text) : undefined;
  if (candidates) {
    for (let k = candidates.start; k < candidates.end; k++) if (!take(g.gramRanks[k])) return { matches, truncated: true };
  } else {
    for (let r = 0; r < g.nodeCount; r++) if (!take(r)) return { matches, truncated: true };
  }
  return { matches, truncated: false };
}

/** The shortest posting row among the text's trigrams: every id containing the text is in it. */
function rarestTrigramRow(g: IndexedGraph, text: string): { start: number; end: number } {
  let start = 0;
  let end = -1;
  for (let k = 2; k < text.length; k++) {
    const h = gramBucket(text.charCodeAt(k - 2), text.charCodeAt(k - 1), text.charCodeAt(k), g.gramBits);
    const s = g.gramStart[h];
    const e = g.gramStart[h + 1];
    if (end === -1 || e - s < end - start) {
      start = s;
      end = e;
    }
  }
  return { start, end };
}

export function queryIds(g: IndexedGraph, text: string, opts?: QueryOptions): QueryIdsResult {
  const { matches, truncated } = matchIds(g, text, QUERY_LIMIT);
  return answered({ matches, truncated }, opts);
}
