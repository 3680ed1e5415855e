// `callers <id>`: who calls this symbol. Proven callers (EXACT `calls` edges, placed by the type
// checker) and guesses (CANDIDATE, matched by name) come back in separate lists; a caller that is
// both proven and guessed is proven. UNRESOLVED calls never point at a node (their target is an
// `unresolved:` name), so there is no third list. Without a `calls` layer the answer is unknown,
// not zero: the query degrades.

import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';
import { callsLayerDegrade, rankOrDegrade } from './lookup';
import { answered, type CallersResult, type QueryOptions } from './shapes';

/** Sources of `relations` edges into rank `r`, split by confidence, each sorted and distinct. */
export function inbound(
  g: IndexedGraph,
  r: number,
  relations: ReadonlySet<string>,
  includeSelf: boolean,
): { proven: number[]; guessed: number[] } {
  const proven: number[] = [];
  const guessed: number[] = [];
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    if (!relations.has(g.edgeRelation[e])) continue;
    const s = g.edgeSource[e];
    if (s === r && !includeSelf) continue;
    const c = g.edgeConfidence[e];
    // In-rows are sorted by source rank, so a repeat can only follow its twin.
    if (c === CONFIDENCE_CODE.EXACT) {
      if (proven[proven.length - 1] !== s) proven.push(s);
    } else if (c === CONFIDENCE_CODE.CANDIDATE) {
      if (guessed[guessed.length - 1] !== s) guessed.push(s);
    }
  }
  const provenSet = new Set(proven);
  return { proven, guessed: guessed.filter((s) => !provenSet.has(s)) };
}

const CALLS: ReadonlySet<string> = new Set(['calls']);

export function queryCallers(g: IndexedGraph, id: string, opts?: QueryOptions): CallersResult {
  const r = rankOrDegrade(g, id, opts, false);
  if (typeof r !== 'number') return r;
  const noLayer = callsLayerDegrade(g, opts);
  if (noLayer) return noLayer;
  const { proven, guessed } = inbound(g, r, CALLS, true);
  return answered({ callers: proven.map((s) => g.ids[s]), candidates: guessed.map((s) => g.ids[s]) }, opts);
}
