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

function finish(edge: GraphEdge, opts: EdgeOptions): GraphEdge {
  if (opts.ast) edge.tier = 'ast';
  if (opts.evidence) edge.evidence = opts.evidence;
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
  return finish(
    {
      source,
      target,
      relation,
      confidence: 'EXACT',
      provenance,
      resolution: 'EXTRACTED',
      evidenceClass: 'DETERMINISTIC',
      confidenceScore: null,
    },
    opts,
  );
}

export function candidateEdge(
  source: string,
  target: string,
  relation: Relation,
  ambiguous: boolean,
  opts: EdgeOptions = {},
): GraphEdge {
  return finish(
    {
      source,
      target,
      relation,
      confidence: 'CANDIDATE',
      provenance: 'NAME_MATCH',
      resolution: ambiguous ? 'AMBIGUOUS' : 'EXTRACTED',
      evidenceClass: 'HEURISTIC',
      confidenceScore: null,
    },
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
  const edge = finish(
    {
      source,
      target,
      relation,
      confidence: 'UNRESOLVED',
      provenance: 'NONE',
      resolution: 'EXTRACTED',
      evidenceClass: 'HEURISTIC',
      confidenceScore: null,
    },
    opts,
  );
  edge.reason = reason;
  return edge;
}
