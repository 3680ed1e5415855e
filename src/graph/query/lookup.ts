// The checks every query makes before it answers: is the id in the graph, and was the layer the
// question needs built? Each failure is a degrade that says what is wrong — never an empty list
// that pretends to be an answer (ADR-21).

import { isPackageRank, isUnresolvedRank, type IndexedGraph } from './indexed';
import { matchIds } from './search-ids';
import { REASONS, unavailable, type QueryOptions, type Unavailable } from './shapes';

const MAX_SUGGESTIONS = 10;

/** Node ids a person may have meant: same label first (`helper` → `sym:src/util.ts#helper`), else ids containing the text. */
function suggestionsFor(g: IndexedGraph, asked: string): string[] {
  // An id that differs from a real one only by escaping (`#` typed where the id has `%23`, or
  // `%2f` for `/`) means that one: it comes first.
  const folded = foldEscapes(asked);
  const sameUnescaped: string[] = [];
  for (let r = 0; r < g.nodeCount && sameUnescaped.length < MAX_SUGGESTIONS; r++) {
    if (g.ids[r] !== asked && foldEscapes(g.ids[r]) === folded) sameUnescaped.push(g.ids[r]);
  }
  if (sameUnescaped.length > 0) return sameUnescaped;
  const sameLabel: string[] = [];
  for (let r = 0; r < g.nodeCount && sameLabel.length < MAX_SUGGESTIONS; r++) {
    if (g.nodeAt[r]?.label === asked) sameLabel.push(g.ids[r]);
  }
  if (sameLabel.length > 0) return sameLabel;
  return asked === '' ? [] : matchIds(g, asked, MAX_SUGGESTIONS).matches;
}

/** An id with every `%XX` escape decoded (either case), for comparing ids that differ only by escaping. */
function foldEscapes(id: string): string {
  return id.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The rank of `id`, or the degrade that explains why there is none. `unresolved:` targets are
 * names, not nodes: only the queries that walk the edge set (neighbors, path) accept them. A
 * `pkg:` target is a symbol of another repository: every query accepts it and answers from this
 * graph's own references to it (ADR 107).
 */
export function rankOrDegrade(
  g: IndexedGraph,
  id: string,
  opts: QueryOptions | undefined,
  acceptUnresolved: boolean,
): number | Unavailable {
  const r = g.rankOf.get(id);
  if (r === undefined) return unavailable('UNKNOWN_NODE', REASONS.unknownNode(id), opts, suggestionsFor(g, id));
  if (!acceptUnresolved && isUnresolvedRank(g, r) && !isPackageRank(g, r)) return unavailable('UNKNOWN_NODE', REASONS.notANode(id), opts);
  return r;
}

/** The degrade for a question that needs call edges asked of a graph built without them. */
export function callsLayerDegrade(g: IndexedGraph, opts: QueryOptions | undefined): Unavailable | undefined {
  return g.layers.has('calls') ? undefined : unavailable('LAYER_MISSING', REASONS.callsLayerMissing, opts);
}

/**
 * The degrade for "what breaks" asked of a graph without the references layer (ADR 151): its
 * consumers would be only the callers, and a zero there is no answer.
 */
export function referencesLayerDegrade(g: IndexedGraph, opts: QueryOptions | undefined): Unavailable | undefined {
  return (
    callsLayerDegrade(g, opts) ??
    (g.layers.has('references') ? undefined : unavailable('LAYER_MISSING', REASONS.referencesLayerMissing, opts))
  );
}
