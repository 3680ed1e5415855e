// The records a change concerns (ADR 104): every `cites` link between a record (an ADR, a stamped
// note, a documentation heading) and something that changed, on the side where the link is, and
// the records that came or went.

import { nodeOf, type IndexedGraph } from '../graph-index';
import { fileId } from '../ids';
import type { GraphEdge, GraphNode } from '../model';
import type { AddedSymbol, RationaleEntry, RemovedSymbol, RenamedSymbol, SignatureChange, SymbolRef } from './report-shape';
import { sorted } from './symbols';

const isRecord = (n: GraphNode) => n.kind === 'rationale' || n.kind === 'doc-concept';

/** Records, notes and documentation headings that came or went. */
export function recordChanges(base: IndexedGraph, head: IndexedGraph): { added: SymbolRef[]; removed: SymbolRef[] } {
  const nodeRef = (n: GraphNode): SymbolRef => ({
    id: n.id,
    kind: n.kind,
    label: n.label,
    file: n.sourceFile ?? '',
    line: n.line ?? 1,
    column: n.column ?? 1,
  });
  return {
    added: head.graph.nodes.filter((n) => isRecord(n) && nodeOf(base, n.id) === undefined).map(nodeRef),
    removed: base.graph.nodes.filter((n) => isRecord(n) && nodeOf(head, n.id) === undefined).map(nodeRef),
  };
}

/** What changed, by id: the symbols and files the report lists. */
export interface Changed {
  removed: readonly RemovedSymbol[];
  renamed: readonly RenamedSymbol[];
  signatureChanged: readonly SignatureChange[];
  added: readonly AddedSymbol[];
  removedFiles: readonly string[];
  addedFiles: readonly string[];
  renamedFile: ReadonlyMap<string, unknown>;
  taken: ReadonlySet<string>;
}

/** Every `cites` link that touches something that changed, on the side where it is; sorted by record and cited id. */
export function rationaleOf(
  sides: { base: IndexedGraph; head: IndexedGraph },
  edges: { added: readonly GraphEdge[]; removed: readonly GraphEdge[]; keptCites: readonly GraphEdge[] },
  changed: Changed,
): RationaleEntry[] {
  const change = new Map<string, RationaleEntry['change']>();
  for (const r of changed.removed) {
    change.set(r.id, 'removed');
    for (const m of r.members ?? []) change.set(m, 'removed');
  }
  for (const r of changed.renamed) {
    change.set(r.from.id, 'renamed');
    change.set(r.to.id, 'renamed');
  }
  for (const s of changed.signatureChanged) change.set(s.id, 'signature-changed');
  for (const a of changed.added) change.set(a.id, 'added');
  for (const f of changed.removedFiles) change.set(fileId(f), changed.renamedFile.has(f) ? 'renamed' : 'removed');
  for (const f of changed.addedFiles) change.set(fileId(f), changed.taken.has(f) ? 'renamed' : 'added');
  const rationale = new Map<string, RationaleEntry>();
  const visit = (e: GraphEdge, side: 'base' | 'head', link: RationaleEntry['link']) => {
    if (e.relation !== 'cites') return;
    const src = nodeOf(sides[side], e.source);
    const tgt = nodeOf(sides[side], e.target);
    if (!src || !tgt) return;
    const recordCites = isRecord(src);
    const record = recordCites ? src : tgt;
    const other = recordCites ? tgt : src;
    if (!isRecord(record)) return;
    const c = change.get(other.id) ?? (link !== 'kept' ? 'unchanged' : undefined);
    if (c === undefined) return;
    const k = `${record.id}\u0000${other.id}`;
    if (rationale.has(k) && link === 'kept') return;
    const entry: RationaleEntry = {
      record: record.id,
      recordLabel: record.label,
      cites: other.id,
      change: c,
      link,
      direction: recordCites ? 'record-cites' : 'comment-cites',
    };
    if (record.sourceFile !== undefined) entry.recordFile = record.sourceFile;
    rationale.set(k, entry);
  };
  for (const e of edges.added) visit(e, 'head', 'added');
  for (const e of edges.removed) visit(e, 'base', 'removed');
  for (const e of edges.keptCites) visit(e, 'base', 'kept');
  return sorted(rationale.keys()).map((k) => rationale.get(k) as RationaleEntry);
}
