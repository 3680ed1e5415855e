// Edge factories, so every edge carries the full vocabulary and the two vocabularies line up:
// EXACT ⇔ EXTRACTED + DETERMINISTIC; CANDIDATE ⇔ HEURISTIC (AMBIGUOUS when several);
// UNRESOLVED ⇔ a target `unresolved:<name>`.

import type { Evidence, GraphEdge, Provenance, Relation, UnresolvedReason } from '../model';

export interface EdgeOptions {
  evidence?: Evidence;
  context?: string;
  /** True when the edge was read off a parse tree (sets `tier: "ast"`). */
  ast?: boolean;
}

type Vocabulary = Pick<GraphEdge, 'confidence' | 'provenance' | 'resolution' | 'evidenceClass'>;

function make(
  source: string,
  target: string,
  relation: Relation,
  vocabulary: Vocabulary,
  opts: EdgeOptions,
  reason?: UnresolvedReason,
): GraphEdge {
  const edge: GraphEdge = { source, target, relation, ...vocabulary, confidenceScore: null };
  if (opts.ast) edge.tier = 'ast';
  if (opts.evidence) edge.evidence = opts.evidence;
  if (reason) edge.reason = reason;
  if (opts.context) edge.context = opts.context;
  return edge;
}

export function exactEdge(
  source: string,
  target: string,
  relation: Relation,
  provenance: Exclude<Provenance, 'NAME_MATCH' | 'NONE'>,
  opts: EdgeOptions = {},
): GraphEdge {
  return make(source, target, relation, { confidence: 'EXACT', provenance, resolution: 'EXTRACTED', evidenceClass: 'DETERMINISTIC' }, opts);
}

export function candidateEdge(source: string, target: string, relation: Relation, ambiguous: boolean, opts: EdgeOptions = {}): GraphEdge {
  const resolution = ambiguous ? 'AMBIGUOUS' : 'EXTRACTED';
  return make(
    source,
    target,
    relation,
    { confidence: 'CANDIDATE', provenance: 'NAME_MATCH', resolution, evidenceClass: 'HEURISTIC' },
    opts,
  );
}

export function unresolvedEdge(
  source: string,
  target: string,
  relation: Relation,
  reason: UnresolvedReason,
  opts: EdgeOptions = {},
): GraphEdge {
  return make(
    source,
    target,
    relation,
    { confidence: 'UNRESOLVED', provenance: 'NONE', resolution: 'EXTRACTED', evidenceClass: 'HEURISTIC' },
    opts,
    reason,
  );
}
