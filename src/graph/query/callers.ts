// `callers <id>`: who calls this symbol. Proven callers (EXACT `calls` edges, placed by the type
// checker) and guesses (CANDIDATE, matched by name) come back in separate lists; a caller that is
// both proven and guessed is proven. UNRESOLVED calls never point at a node (their target is an
// `unresolved:` name), so there is no third list. Without a `calls` layer the answer is unknown,
// not zero: the query degrades.
//
// `inboundEdges` is the one place that decides who counts as a caller: the `callers` query, the
// editor's lens counts and details pane (node-details.ts) and the agents' `symbol` all ask it.

import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';
import { callsLayerDegrade, rankOrDegrade } from './lookup';
import { DISPATCH_RELATIONS } from '../consumers';
import type { Relation } from '../model';
import { holesOf } from './unanalysed';
import { answered, type CallersResult, type DispatchedCallers, type QueryOptions } from './shapes';

/**
 * The first `relations` edge into rank `r` from each distinct source, split by confidence: proven
 * (EXACT) and guessed (CANDIDATE, from sources with no EXACT edge). In-rows are sorted by source
 * rank, so both lists come out in source id order. Edge indices, so a surface can show where
 * each call was seen.
 */
function inboundEdges(
  g: IndexedGraph,
  r: number,
  relations: ReadonlySet<string>,
  includeSelf: boolean,
): { proven: number[]; guessed: number[] } {
  const proven: number[] = [];
  const guessed: number[] = [];
  let lastProven = -1;
  let lastGuessed = -1;
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    if (!relations.has(g.edgeRelation[e])) continue;
    const s = g.edgeSource[e];
    if (s === r && !includeSelf) continue;
    const c = g.edgeConfidence[e];
    // A repeat of a source can only follow its twin in the row.
    if (c === CONFIDENCE_CODE.EXACT && lastProven !== s) {
      proven.push(e);
      lastProven = s;
    } else if (c === CONFIDENCE_CODE.CANDIDATE && lastGuessed !== s) {
      guessed.push(e);
      lastGuessed = s;
    }
  }
  const provenSources = new Set(proven.map((e) => g.edgeSource[e]));
  return { proven, guessed: guessed.filter((e) => !provenSources.has(g.edgeSource[e])) };
}

/** Sources of `relations` edges into rank `r`, split by confidence, each sorted and distinct. */
export function inbound(
  g: IndexedGraph,
  r: number,
  relations: ReadonlySet<string>,
  includeSelf: boolean,
): { proven: number[]; guessed: number[] } {
  const { proven, guessed } = inboundEdges(g, r, relations, includeSelf);
  return { proven: proven.map((e) => g.edgeSource[e]), guessed: guessed.map((e) => g.edgeSource[e]) };
}

export const CALLS: ReadonlySet<string> = new Set(['calls']);

/** The proven and guessed callers' edges of rank `r`, exactly as `callers` lists them (a recursive symbol calls itself). */
export function callerEdges(g: IndexedGraph, r: number): { proven: number[]; guessed: number[] } {
  return inboundEdges(g, r, CALLS, true);
}

/**
 * The members `r` implements or overrides, up the chain (a method overriding one that implements
 * an interface's member reaches both), each with its proven callers: who may run `r` through
 * dispatch. Kept apart from `r`'s own callers (ADR 151). In id order of the member.
 */
export function dispatchedCallers(g: IndexedGraph, r: number): DispatchedCallers[] {
  return dispatchVias(g, r).map(({ rank, relation }) => ({
    via: g.ids[rank],
    relation,
    callers: inbound(g, rank, CALLS, true).proven.map((s) => g.ids[s]),
  }));
}

/** The members rank `r` implements or overrides, up the chain, by EXACT edges: in id order. */
export function dispatchVias(g: IndexedGraph, r: number): Array<{ rank: number; relation: string }> {
  const out: Array<{ rank: number; relation: string }> = [];
  const seen = new Set<number>([r]);
  const queue: Array<{ rank: number; relation: string }> = [];
  const up = (from: number) => {
    for (let k = g.outStart[from]; k < g.outStart[from + 1]; k++) {
      const e = g.outEdges[k];
      const relation = g.edgeRelation[e];
      if (!DISPATCH_RELATIONS.has(relation as Relation) || g.edgeConfidence[e] !== CONFIDENCE_CODE.EXACT) continue;
      const t = g.edgeTarget[e];
      if (seen.has(t)) continue;
      seen.add(t);
      queue.push({ rank: t, relation });
    }
  };
  up(r);
  while (queue.length > 0) {
    const next = queue.shift() as { rank: number; relation: string };
    out.push(next);
    up(next.rank);
  }
  // Ranks follow id order.
  return out.sort((a, b) => a.rank - b.rank);
}

export function queryCallers(g: IndexedGraph, id: string, opts?: QueryOptions): CallersResult {
  const r = rankOrDegrade(g, id, opts, false);
  if (typeof r !== 'number') return r;
  const noLayer = callsLayerDegrade(g, opts);
  if (noLayer) return noLayer;
  const { proven, guessed } = callerEdges(g, r);
  const source = (e: number) => g.ids[g.edgeSource[e]];
  const dispatched = dispatchedCallers(g, r);
  return answered(
    {
      callers: proven.map(source),
      candidates: guessed.map(source),
      ...(dispatched.length > 0 ? { dispatched } : {}),
      ...holesOf(g, r),
    },
    opts,
  );
}
