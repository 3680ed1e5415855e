// The structural diff of two graphs (ADR 104): what a change added, removed, renamed, moved and
// re-signed, which consumers in the base graph each removal or signature change breaks (proof and
// guesses apart), the edges it added and removed, the callers it gave existing symbols, the calls
// it left unresolved, and the records that cite what changed. Pure: two parsed graphs in (and the
// file moves git proved, when the sides are commits), one plain report out, sorted at every
// boundary so the same two graphs always give the same bytes. No file system, no compiler.
//
// Matching (ADR 104): a match needs evidence, never a coincidence alone. A file is renamed when git
// found the same bytes under a new path (`identical-content`), or when every declaration it holds
// kept its name, kind and declared signature (`same-declarations`, ADR 71's hash) and no other file
// pair shares that list. A symbol is renamed (moved to another file) when its file was, or when it
// kept its name, kind and signature and is the only one on both sides with them
// (`same-name-and-signature`). A symbol that disappeared while another of the same kind and
// signature appeared in the same file is only a *candidate* rename: both stay listed as removed and
// added, and its consumers still break.

import { indexEdges, nodeOf, type IndexedGraph } from '../graph-index';
import type { Graph } from '../model';
import { breaks, Consumed } from './consumed';
import { edgeCounts, edgeEntry, inOrder, mergeEdges, newCalls, unresolvedDelta, type EdgeChanges } from './edges';
import { matchFiles, matchSymbols, type FileMatch, type SymbolMatches } from './matching';
import { rationaleOf, recordChanges } from './rationale';
import type {
  AddedSymbol,
  Consumers,
  DiffBody,
  DiffInput,
  DiffReport,
  DiffSide,
  MovedSymbol,
  RemovedSymbol,
  RenamedSymbol,
  SignatureChange,
  SymbolMatch,
} from './report-shape';
import { filesOf, foldMembers, ref, sorted, symbolsOf, type Sym } from './symbols';

/**
 * The version `kg diff`'s JSON carries (`reportVersion`); readers refuse another
 * (src/protocol/diff-report.ts). 2: each entry's transitive `blastRadius` became `reach` (ADR 179).
 */
export const DIFF_REPORT_VERSION = 2;

/** A side's indexed graph: the one its loader indexed, or indexed here (a graph kg wrote or built is always indexable). */
function indexed(graph: Graph, given: IndexedGraph | undefined, side: string): IndexedGraph {
  if (given !== undefined && given.graph === graph) return given;
  const r = indexEdges(graph);
  if (!r.ok) throw new Error(`the ${side} graph cannot be indexed: ${r.detail}`);
  return r.graph;
}

interface Side {
  g: IndexedGraph;
  syms: Map<string, Sym>;
}

/** Removed and renamed symbols (members folded into their class) with their consumers, and the added ones. */
function symbolEntries(
  base: Side,
  head: Side,
  m: SymbolMatches,
  consumed: Consumed,
): { removed: RemovedSymbol[]; renamed: RenamedSymbol[]; added: AddedSymbol[] } {
  const plainRemoved = m.removedIds.filter((id) => !m.renamedTo.has(id));
  const removedFold = foldMembers(plainRemoved, base.syms);
  const foldedAway = new Set([...removedFold.values()].flat());
  const removed: RemovedSymbol[] = plainRemoved
    .filter((id) => !foldedAway.has(id))
    .map((id) => {
      const s = base.syms.get(id) as Sym;
      const members = removedFold.get(id);
      const entry: RemovedSymbol = { ...ref(s), exported: s.node.exported === true, ...consumed.of(id, members) };
      if (members) entry.members = sorted(members);
      return entry;
    });
  const renamedIds = sorted(m.renamedTo.keys());
  const renamedFold = foldMembers(renamedIds, base.syms);
  const renamedAway = new Set([...renamedFold.values()].flat());
  const renamed: RenamedSymbol[] = renamedIds
    .filter((id) => !renamedAway.has(id))
    .map((id) => {
      const to = m.renamedTo.get(id) as { to: string; matchedBy: SymbolMatch };
      const members = renamedFold.get(id);
      const entry: RenamedSymbol = {
        from: ref(base.syms.get(id) as Sym),
        to: ref(head.syms.get(to.to) as Sym),
        matchedBy: to.matchedBy,
        ...consumed.of(id, members, (old) => m.renamedTo.get(old)?.to),
      };
      if (members) entry.members = sorted(members);
      return entry;
    });
  const added: AddedSymbol[] = m.addedIds
    .filter((id) => !m.matchedHead.has(id))
    .map((id) => {
      const s = head.syms.get(id) as Sym;
      return { ...ref(s), exported: s.node.exported === true };
    });
  return { removed, renamed, added };
}

/** Symbols on both sides: re-signed (or unexported), with their consumers, or only moved within their file. */
function keptSymbols(base: Side, head: Side, consumed: Consumed): { moved: MovedSymbol[]; signatureChanged: SignatureChange[] } {
  const moved: MovedSymbol[] = [];
  const signatureChanged: SignatureChange[] = [];
  for (const id of sorted([...base.syms.keys()].filter((k) => head.syms.has(k)))) {
    const a = base.syms.get(id) as Sym;
    const b = head.syms.get(id) as Sym;
    const from = { line: a.node.line ?? 1, column: a.node.column ?? 1 };
    const to = { line: b.node.line ?? 1, column: b.node.column ?? 1 };
    const resigned = a.node.signature !== undefined && b.node.signature !== undefined && a.node.signature !== b.node.signature;
    // An export dropped is a change of signature (ADR 71 hashes it), seen even when a graph records no hashes.
    if (resigned || (a.node.exported === true) !== (b.node.exported === true)) {
      signatureChanged.push({
        ...ref(a),
        now: to,
        before: a.node.signature ?? '',
        after: b.node.signature ?? '',
        exported: { before: a.node.exported === true, after: b.node.exported === true },
        ...consumed.of(id),
      });
    } else if (from.line !== to.line || from.column !== to.column) {
      moved.push({ id, kind: a.node.kind, label: a.node.label, file: a.file, from, to });
    }
  }
  return { moved, signatureChanged };
}

/** Removed, renamed and re-signed symbols with proven consumers that break, and those consumers (distinct ids). */
function breaking(entries: readonly Consumers[]): DiffBody['summary']['breaking'] {
  const provenIds = new Set<string>();
  const guessedIds = new Set<string>();
  let symbols = 0;
  for (const b of entries) {
    const live = b.proven.filter(breaks);
    if (live.length > 0) symbols++;
    for (const c of live) provenIds.add(c.id);
    for (const c of b.guessed) if (c.gone !== true) guessedIds.add(c.id);
  }
  return { symbols, provenConsumers: provenIds.size, guessedConsumers: guessedIds.size };
}

function diffGraphs(input: DiffInput): DiffBody {
  const bg = indexed(input.base, input.indexed?.base, 'base');
  const hg = indexed(input.head, input.indexed?.head, 'head');
  const base: Side = { g: bg, syms: symbolsOf(bg) };
  const head: Side = { g: hg, syms: symbolsOf(hg) };
  const files: FileMatch = matchFiles(
    input.identicalMoves,
    { files: filesOf(bg), syms: base.syms },
    { files: filesOf(hg), syms: head.syms },
  );
  const matches = matchSymbols(base.syms, head.syms, files.renamedFile);
  const consumed = new Consumed(bg, hg);
  for (const c of matches.candidates) {
    const proven = consumed.of(c.from).proven;
    c.consumers = new Set(proven.map((x) => x.id)).size;
    c.consumersFollowed = new Set(proven.filter((x) => consumed.headExact(x.id, c.to, x.relation)).map((x) => x.id)).size;
  }
  const { removed, renamed, added } = symbolEntries(base, head, matches, consumed);
  const { moved, signatureChanged } = keptSymbols(base, head, consumed);
  const records = recordChanges(bg, hg);
  const edges: EdgeChanges = mergeEdges(inOrder(input.base.edges), inOrder(input.head.edges));
  const { newCallers, newUnresolved } = newCalls(edges.added, base.syms, head.syms, (id) => nodeOf(hg, id) !== undefined);
  const rationale = rationaleOf({ base: bg, head: hg }, edges, { removed, renamed, signatureChanged, added, ...files });
  const { fileRenames, addedFiles, removedFiles, renamedFile, taken } = files;
  return {
    summary: {
      files: {
        added: addedFiles.length - fileRenames.length,
        removed: removedFiles.length - fileRenames.length,
        renamed: fileRenames.length,
      },
      symbols: {
        added: added.length,
        removed: removed.length,
        renamed: renamed.length,
        renameCandidates: matches.candidates.length,
        moved: moved.length,
        signatureChanged: signatureChanged.length,
      },
      edges: { added: edges.added.length, removed: edges.removed.length, confidenceChanged: edges.confidenceChanged.length },
      breaking: breaking([...removed, ...renamed, ...signatureChanged]),
      newCallers: newCallers.length,
      newUnresolved: newUnresolved.length,
      rationale: rationale.length,
    },
    files: {
      added: addedFiles.filter((f) => !taken.has(f)),
      removed: removedFiles.filter((f) => !renamedFile.has(f)),
      renamed: fileRenames,
    },
    symbols: { added, removed, renamed, renameCandidates: matches.candidates, moved, signatureChanged },
    records,
    edges: {
      added: { counts: edgeCounts(edges.added), entries: edges.added.map(edgeEntry) },
      removed: { counts: edgeCounts(edges.removed), entries: edges.removed.map(edgeEntry) },
      confidenceChanged: edges.confidenceChanged,
    },
    newCallers,
    newUnresolved,
    unresolvedDelta: unresolvedDelta(input.base, input.head),
    rationale,
  };
}

/** The whole report, keys in the documented order (docs/cli.md, kg diff). */
export function diffReport(input: DiffInput, sides: { base: DiffSide; head: DiffSide }): DiffReport {
  const body = diffGraphs(input);
  const problems: string[] = [];
  for (const [name, g] of [
    ['base', input.base],
    ['head', input.head],
  ] as const) {
    if (!g.layers.includes('calls'))
      problems.push(`the ${name} graph has no calls layer (built with --extract-only): callers and consumers are missing`);
    if (g.nodes.some((n) => n.id.startsWith('sym:')) && !g.nodes.some((n) => n.signature !== undefined))
      problems.push(`the ${name} graph records no signatures (built by an older kg): signature changes are not seen`);
  }
  return { reportVersion: DIFF_REPORT_VERSION, base: sides.base, head: sides.head, ...body, problems, evidenceClass: 'GRAPH_DERIVED' };
}
