// `impact <id>`: callers and consumers together, and the blast radius — how many distinct nodes
// consume it directly (one hop, ADR 20). The radius counts proof only; guesses are listed and
// counted apart, so a number a reviewer gates on is never inflated by a name match. Same layer
// rule as `affected`. The transitive walk is another quantity with its own name: `kg diff`'s
// `reach` (src/graph/reach.ts, ADR 179).

import { consumersOf } from './affected';
import { CALLS, dispatchedCallers, inbound } from './callers';
import type { IndexedGraph } from './indexed';
import { holesOf } from './unanalysed';
import { answered, type ImpactResult, type QueryOptions } from './shapes';

export function queryImpact(g: IndexedGraph, id: string, opts?: QueryOptions): ImpactResult {
  const c = consumersOf(g, id, opts);
  if ('available' in c) return c;
  const calls = inbound(g, c.r, CALLS, false);
  const proven = new Set([...calls.proven, ...c.proven]);
  const guessed = new Set([...calls.guessed, ...c.guessed].filter((s) => !proven.has(s)));
  const dispatched = dispatchedCallers(g, c.r);
  const sortedIds = (ranks: Iterable<number>) => [...ranks].sort((a, b) => a - b).map((s) => g.ids[s]);
  return answered(
    {
      callers: calls.proven.map((s) => g.ids[s]),
      consumers: c.proven.map((s) => g.ids[s]),
      blastRadius: proven.size,
      candidates: sortedIds(guessed),
      candidateRadius: guessed.size,
      ...(dispatched.length > 0 ? { dispatched } : {}),
      ...holesOf(g, c.r),
    },
    opts,
  );
}
