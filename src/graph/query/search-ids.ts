// `query <substring>`: node ids containing the text, sorted, at most 50. Exact, case-sensitive
// substring over the ids as stored — no fuzzy or semantic matching, so the same text always finds
// the same ids. Ids escape a `#` inside a name as `%23` (a private `#retry`); text typed with the
// `#` as written matches those ids too (issue 48). `unresolved:` targets are not nodes and are not
// searched.

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

/**
 * The ways an id may spell what was typed: as typed, and with each `#` that could be part of a
 * name escaped as ids write it — every one (`#retry`, `Ky.#retry`), or all but the first, which
 * may be the `#` between path and name (`ky.ts#Ky.#retry`).
 */
function spellings(text: string): string[] {
  const first = text.indexOf('#');
  if (first < 0) return [text];
  const all = text.replace(/#/g, '%23');
  const afterFirst = text.slice(0, first + 1) + text.slice(first + 1).replace(/#/g, '%23');
  return [...new Set([text, all, afterFirst])];
}

export function queryIds(g: IndexedGraph, text: string, opts?: QueryOptions): QueryIdsResult {
  const variants = spellings(text);
  if (variants.length === 1) return answered(matchIds(g, text, QUERY_LIMIT), opts);
  // Each spelling's first QUERY_LIMIT matches in id order hold the union's first QUERY_LIMIT.
  const found = new Set<string>();
  let cut = false;
  for (const v of variants) {
    const m = matchIds(g, v, QUERY_LIMIT);
    cut ||= m.truncated;
    for (const id of m.matches) found.add(id);
  }
  const sorted = [...found].sort((a, b) => (g.rankOf.get(a) ?? 0) - (g.rankOf.get(b) ?? 0));
  return answered({ matches: sorted.slice(0, QUERY_LIMIT), truncated: cut || sorted.length > QUERY_LIMIT }, opts);
}
