// The picture in the pull-request comment (ADR 156): the symbols a change removed, renamed or
// re-signed, and the code that uses them — each proven consumer the change breaks (a solid arrow)
// and each guessed one (dashed). Drawn only when it is small enough to read: at most
// DIFF_PICTURE_MAX_NODES nodes; past that the comment says how many there would be instead.

import { describeNode, plural, type Picture, type PictureEdge, type PictureNode } from '../picture/picture';
import { breaks } from './consumed';
import type { Consumers, DiffReport, SymbolRef } from './report-shape';

export const DIFF_PICTURE_MAX_NODES = 15;

export interface DiffPicture {
  /** Absent when nothing changed that has a symbol to draw, or when there are too many nodes. */
  picture?: Picture;
  nodes: number;
}

export function diffPicture(report: DiffReport): DiffPicture {
  const sy = report.symbols;
  const nodes = new Map<string, PictureNode>();
  const edges: PictureEdge[] = [];
  let notDrawn = 0;
  const changed = (s: SymbolRef, what: string, c: Consumers, label = s.label, at: SymbolRef = s) => {
    nodes.set(s.id, { id: s.id, label, detail: `${s.kind} · ${what} · ${at.file}:${at.line}`, role: 'focus' });
    for (const x of c.proven) {
      if (!breaks(x)) {
        notDrawn++;
        continue;
      }
      edges.push({ source: x.id, target: s.id, relation: x.relation, confidence: 'EXACT' });
    }
    for (const x of c.guessed)
      edges.push({ source: x.id, target: s.id, relation: x.relation, confidence: x.confidence === 'EXACT' ? 'CANDIDATE' : x.confidence });
  };
  for (const r of sy.removed) changed(r, 'removed', r);
  for (const r of sy.signatureChanged) changed(r, 'signature changed', r);
  for (const r of sy.renamed)
    changed(
      r.from,
      r.from.label === r.to.label ? 'moved' : 'renamed',
      r,
      r.from.label === r.to.label ? r.from.label : `${r.from.label} → ${r.to.label}`,
      r.to,
    );
  if (nodes.size === 0) return { nodes: 0 };
  for (const e of edges) if (!nodes.has(e.source)) nodes.set(e.source, describeNode(e.source, undefined));
  if (nodes.size > DIFF_PICTURE_MAX_NODES) return { nodes: nodes.size };
  const notes = [
    `${plural(sy.removed.length + sy.signatureChanged.length + sy.renamed.length, 'changed symbol')} (heavy boxes) and the code that uses them`,
  ];
  if (notDrawn > 0)
    notes.push(`${plural(notDrawn, 'proven use')} not drawn: they follow the rename or are gone in head, nothing breaks there`);
  return { picture: { nodes: [...nodes.values()], edges, notes }, nodes: nodes.size };
}
