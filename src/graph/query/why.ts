// `why <id>`: the rationale around one node (ADR 89) — the stamped notes that cite it (ADR 88),
// the decision records that cite it, the records it cites itself (ADR 41), and for a node inside
// a file the notes and records that cite the file. Only EXACT `cites` edges count: an UNRESOLVED
// citation points at a name, not a node. No layer is needed: without `cites` edges the lists are
// empty, and that is the answer (records and notes are read by every build).

import { fileId, fileOfId, parseId } from '../ids';
import type { GraphNode } from '../model';
import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';
import { rankOrDegrade } from './lookup';
import { answered, type QueryOptions, type WhyEntry, type WhyNote, type WhyResult } from './shapes';

const NOTE = 'rationale:';
const RECORD = 'adr:';

function entry(g: IndexedGraph, r: number): WhyEntry {
  const n = g.nodeAt[r];
  const out: WhyEntry = { id: g.ids[r], label: n?.label ?? g.ids[r] };
  if (n?.sourceFile !== undefined) out.file = n.sourceFile;
  if (n?.line !== undefined && n.column !== undefined) {
    out.line = n.line;
    out.column = n.column;
  }
  return out;
}

function note(g: IndexedGraph, r: number, sitsOn: boolean): WhyNote {
  const p = parseId(g.ids[r]);
  const base = entry(g, r);
  return {
    ...base,
    area: p?.prefix === 'rationale' ? p.area : '',
    stamp: p?.prefix === 'rationale' ? p.stamp : '',
    text: g.nodeAt[r]?.text ?? base.label,
    sitsOn,
  };
}

/** The notes and records with an EXACT `cites` edge into rank `r`, each once, in id order. */
function citing(g: IndexedGraph, r: number): { notes: WhyNote[]; records: WhyEntry[] } {
  const notes = new Map<number, boolean>();
  const records = new Set<number>();
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] !== 'cites' || g.edgeConfidence[e] !== CONFIDENCE_CODE.EXACT) continue;
    const s = g.edgeSource[e];
    const id = g.ids[s];
    if (id.startsWith(NOTE)) notes.set(s, (notes.get(s) ?? false) || g.graph.edges[e].provenance === 'SYNTAX');
    else if (id.startsWith(RECORD)) records.add(s);
  }
  // In-rows are sorted by source rank, and rank order is id order.
  return { notes: [...notes].map(([s, sitsOn]) => note(g, s, sitsOn)), records: [...records].map((s) => entry(g, s)) };
}

/** The records rank `r` cites through EXACT edges, in id order. */
function cited(g: IndexedGraph, r: number): WhyEntry[] {
  const out: number[] = [];
  for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
    const e = g.outEdges[k];
    if (g.edgeRelation[e] !== 'cites' || g.edgeConfidence[e] !== CONFIDENCE_CODE.EXACT) continue;
    const t = g.edgeTarget[e];
    if (g.ids[t].startsWith(RECORD) && out[out.length - 1] !== t) out.push(t);
  }
  return out.map((t) => entry(g, t));
}

export function queryWhy(g: IndexedGraph, id: string, opts?: QueryOptions): WhyResult {
  const r = rankOrDegrade(g, id, opts, false);
  if (typeof r !== 'number') return r;
  const own = citing(g, r);
  const file = fileOfId(id);
  const fr = file !== undefined && !id.startsWith('file:') ? g.rankOf.get(fileId(file)) : undefined;
  const ofFile = fr !== undefined ? citing(g, fr) : { notes: [], records: [] };
  return answered(
    { id, notes: own.notes, records: own.records, cited: cited(g, r), fileNotes: ofFile.notes, fileRecords: ofFile.records },
    opts,
  );
}

/**
 * The symbol among `nodes` (one file's `sym:` nodes) whose declared name spans a 1-based line and
 * UTF-16 column: the name starts at the node's position and is as long as the last part of its
 * dotted name. What an editor's hover on a declaration asks about.
 */
export function symbolAt(nodes: readonly GraphNode[], line: number, column: number): GraphNode | undefined {
  return nodes.find((n) => {
    if (n.line !== line || n.column === undefined) return false;
    const p = parseId(n.id);
    if (p?.prefix !== 'sym') return false;
    const name = p.name.slice(p.name.lastIndexOf('.') + 1);
    return column >= n.column && column <= n.column + Math.max(1, name.length);
  });
}
