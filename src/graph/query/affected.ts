// `affected <id>`: what depends on this node directly — the sources of inbound `calls`,
// `imports`, `references` (the query contract, docs/cli.md), and also `re-exports`, heritage and
// dispatch (a file that re-exports a module, a class that extends another and a method that
// implements or overrides another break with them; ADR-20, ADR 151). The relations are
// src/graph/consumers.ts's, the one definition every face shares. Proven consumers and guesses are kept apart; `breaks` is true when a consumer depends
// through an EXACT edge. The node itself is never its own consumer.
//
// A symbol's consumers are mostly its callers, so for a `sym:` id the query needs the calls layer
// and degrades without it. A file's consumers are its importers, which the structural layer
// holds, so files, modules and records answer from any graph.

import { CONSUMER_RELATIONS } from '../consumers';
import { inbound } from './callers';
import type { IndexedGraph } from './indexed';
import { rankOrDegrade, referencesLayerDegrade } from './lookup';
import { holesOf } from './unanalysed';
import { answered, type AffectedResult, type QueryOptions, type Unavailable } from './shapes';

/** The consumers of `id` (proven and guessed, ranks), or why they cannot be known. */
export function consumersOf(
  g: IndexedGraph,
  id: string,
  opts: QueryOptions | undefined,
): { r: number; proven: number[]; guessed: number[] } | Unavailable {
  const r = rankOrDegrade(g, id, opts, false);
  if (typeof r !== 'number') return r;
  if (id.startsWith('sym:') || id.startsWith('pkg:')) {
    const noLayer = referencesLayerDegrade(g, opts);
    if (noLayer) return noLayer;
  }
  return { r, ...inbound(g, r, CONSUMER_RELATIONS, false) };
}

export function queryAffected(g: IndexedGraph, id: string, opts?: QueryOptions): AffectedResult {
  const c = consumersOf(g, id, opts);
  if ('available' in c) return c;
  return answered(
    {
      consumers: c.proven.map((s) => g.ids[s]),
      breaks: c.proven.length > 0,
      candidates: c.guessed.map((s) => g.ids[s]),
      ...holesOf(g, c.r),
    },
    opts,
  );
}
