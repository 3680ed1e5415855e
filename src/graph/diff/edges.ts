// The edges a change added and removed (compared by identity: source, target, relation — ADR 3),
// counted by relation and confidence, the confidences that changed, the callers it gave symbols on
// both sides, the calls it left unresolved, and the change of the graph's unresolved summary.

import { unescapeIdPart } from '../ids';
import { compareEdges, compareStrings, UNRESOLVED_PREFIX, type Graph, type GraphEdge } from '../model';
import type { ConfidenceChange, EdgeCounts, EdgeEntry, NewCallers, NewUnresolved } from './report-shape';
import { ref, sorted, type Sym } from './symbols';

/** The edges in graph.json's order: the list itself when it is (a graph kg wrote), else a sorted copy. */
export function inOrder(edges: readonly GraphEdge[]): readonly GraphEdge[] {
  for (let i = 1; i < edges.length; i++) if (compareEdges(edges[i - 1], edges[i]) >= 0) return [...edges].sort(compareEdges);
  return edges;
}

export interface EdgeChanges {
  added: GraphEdge[];
  removed: GraphEdge[];
  confidenceChanged: ConfidenceChange[];
  /** `cites` edges on both sides (the rationale reads them). */
  keptCites: GraphEdge[];
}

/** One merge of the two lists in (source, target, relation) order, graph.json's own. */
export function mergeEdges(baseEdges: readonly GraphEdge[], headEdges: readonly GraphEdge[]): EdgeChanges {
  const added: GraphEdge[] = [];
  const removed: GraphEdge[] = [];
  const confidenceChanged: ConfidenceChange[] = [];
  const keptCites: GraphEdge[] = [];
  let i = 0;
  let j = 0;
  while (i < baseEdges.length || j < headEdges.length) {
    const a = baseEdges[i];
    const b = headEdges[j];
    const order = a === undefined ? 1 : b === undefined ? -1 : compareEdges(a, b);
    if (order < 0) {
      removed.push(a);
      i++;
    } else if (order > 0) {
      added.push(b);
      j++;
    } else {
      if (a.confidence !== b.confidence)
        confidenceChanged.push({ source: b.source, target: b.target, relation: b.relation, before: a.confidence, after: b.confidence });
      if (a.relation === 'cites') keptCites.push(a);
      i++;
      j++;
    }
  }
  return { added, removed, confidenceChanged, keptCites };
}

/** New callers of symbols that exist on both sides; new unresolved calls. */
export function newCalls(
  addedEdges: readonly GraphEdge[],
  baseSyms: ReadonlyMap<string, Sym>,
  headSyms: ReadonlyMap<string, Sym>,
  inHead: (id: string) => boolean,
): { newCallers: NewCallers[]; newUnresolved: NewUnresolved[] } {
  const callers = new Map<string, NewCallers>();
  const newUnresolved: NewUnresolved[] = [];
  for (const e of addedEdges) {
    if (e.relation !== 'calls') continue;
    if (e.confidence === 'UNRESOLVED') {
      const u: NewUnresolved = {
        source: e.source,
        name: unescapeIdPart(e.target.slice(UNRESOLVED_PREFIX.length)),
        reason: e.reason ?? 'no-declaration',
      };
      if (e.evidence) Object.assign(u, { file: e.evidence.file, line: e.evidence.line, column: e.evidence.column });
      newUnresolved.push(u);
      continue;
    }
    const target = headSyms.get(e.target);
    if (!target || !baseSyms.has(e.target) || !inHead(e.source)) continue;
    let entry = callers.get(e.target);
    if (!entry) callers.set(e.target, (entry = { ...ref(target), callers: [] }));
    entry.callers.push({
      id: e.source,
      confidence: e.confidence,
      file: e.evidence?.file ?? headSyms.get(e.source)?.file ?? '',
      line: e.evidence?.line ?? 1,
      column: e.evidence?.column ?? 1,
    });
  }
  const newCallers = sorted(callers.keys()).map((k) => {
    const c = callers.get(k) as NewCallers;
    c.callers.sort((a, b) => compareStrings(a.file, b.file) || a.line - b.line || a.column - b.column || compareStrings(a.id, b.id));
    return c;
  });
  return { newCallers, newUnresolved };
}

/** relation → reason → head count minus base count (the graphs' `unresolved` summaries), non-zero only. */
export function unresolvedDelta(base: Graph, head: Graph): Record<string, Record<string, number>> {
  const delta: Record<string, Record<string, number>> = {};
  const ub = base.unresolved ?? {};
  const uh = head.unresolved ?? {};
  for (const rel of sorted(new Set([...Object.keys(ub), ...Object.keys(uh)]))) {
    const a = (ub as Record<string, Record<string, number>>)[rel] ?? {};
    const b = (uh as Record<string, Record<string, number>>)[rel] ?? {};
    for (const reason of sorted(new Set([...Object.keys(a), ...Object.keys(b)]))) {
      const d = (b[reason] ?? 0) - (a[reason] ?? 0);
      if (d !== 0) (delta[rel] ??= {})[reason] = d;
    }
  }
  return delta;
}

export function edgeEntry(e: GraphEdge): EdgeEntry {
  const out: EdgeEntry = { source: e.source, target: e.target, relation: e.relation, confidence: e.confidence };
  if (e.evidence) {
    out.file = e.evidence.file;
    out.line = e.evidence.line;
    out.column = e.evidence.column;
  }
  if (e.reason !== undefined) out.reason = e.reason;
  return out;
}

/** relation → confidence → count, relations sorted, confidences in their order. */
export function edgeCounts(edges: readonly GraphEdge[]): EdgeCounts {
  const counts: EdgeCounts = {};
  for (const e of edges) {
    const r = (counts[e.relation] ??= {});
    r[e.confidence] = (r[e.confidence] ?? 0) + 1;
  }
  const out: EdgeCounts = {};
  for (const rel of sorted(Object.keys(counts))) {
    const c = counts[rel];
    out[rel] = {};
    for (const k of ['EXACT', 'CANDIDATE', 'UNRESOLVED'] as const) if (c[k] !== undefined) out[rel][k] = c[k];
  }
  return out;
}
