// How a path's proof is said in one phrase, the same in the explorer and the path finder: a path
// that rests on a name-match guess (a CANDIDATE edge) must say so where its length is said, not
// only on the hop that guesses (docs/adr/0020-query-answers-keep-proof-and-guesses-apart.md).

import type { EdgeView } from '../../src/protocol/messages';

/** "3 hops, all proven" or "3 hops, 1 of them a guess (CANDIDATE)". */
export function hopsPhrase(edges: readonly EdgeView[]): string {
  const n = edges.length;
  const hops = `${n} hop${n === 1 ? '' : 's'}`;
  const guesses = edges.filter((e) => e.confidence !== 'EXACT').length;
  if (guesses === 0) return `${hops}, all proven`;
  return `${hops}, ${guesses === n ? (n === 1 ? 'a guess' : 'all guesses') : `${guesses} of them ${guesses === 1 ? 'a guess' : 'guesses'}`} (CANDIDATE)`;
}

/** A hop's edge under its node: "↓ calls · EXACT", or "↑ contains · EXACT (against the arrow)" when the path walks it backwards. */
export function hopEdgeText(edge: EdgeView, fromNode: string): string {
  const forward = edge.source === fromNode;
  return `${forward ? '↓' : '↑'} ${edge.relation} · ${edge.confidence}${forward ? '' : ' (against the arrow)'}`;
}
