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

import { CONSUMER_RELATIONS, RADIUS_RELATIONS } from '../consumers';
import { fileId, fileOfId, unescapeIdPart } from '../ids';
import {
  compareEdges,
  compareStrings,
  UNRESOLVED_PREFIX,
  type Confidence,
  type Graph,
  type GraphEdge,
  type GraphNode,
  type Relation,
} from '../model';

const DIFF_REPORT_VERSION = 1;

/** A traversal past this many nodes, or this many edges looked at, stops and says so (`capped`). */
const RADIUS_CAP = 2_000;
const RADIUS_EDGES = 5_000;

interface Position {
  line: number;
  column: number;
}

export interface SymbolRef {
  id: string;
  kind: string;
  label: string;
  file: string;
  line: number;
  column: number;
}

export interface Consumer {
  id: string;
  relation: string;
  confidence: Confidence;
  /** Where it uses the symbol (the call site, the `extends` clause), repository-relative. */
  file: string;
  line: number;
  column: number;
  /** True when the consuming node itself is gone in the head graph (it cannot break). */
  gone?: true;
  /**
   * For a renamed symbol: the consumer has an EXACT edge of the same relation to the new id in the
   * head graph — proof that it follows the move, so it does not break.
   */
  updated?: true;
}

interface BlastRadius {
  /** Nodes that depend on the symbol through EXACT edges only, transitively. */
  proven: number;
  /** Distinct files of those nodes. */
  files: number;
  /** Nodes reached only through at least one CANDIDATE edge (guesses, never in `proven`). */
  guessed: number;
  /** True when a traversal stopped at RADIUS_CAP nodes (the counts are lower bounds). */
  capped?: true;
}

export interface Consumers {
  /** EXACT consumers: these break. */
  proven: Consumer[];
  /** CANDIDATE consumers: name-match guesses, which may break. */
  guessed: Consumer[];
  blastRadius: BlastRadius;
}

export interface RemovedSymbol extends SymbolRef, Consumers {
  exported: boolean;
  /** Members removed with it (a class's methods), folded into this entry with their consumers. */
  members?: string[];
}

interface AddedSymbol extends SymbolRef {
  exported: boolean;
}

type SymbolMatch = 'identical-content' | 'same-declarations' | 'same-name-and-signature';

export interface RenamedSymbol extends Consumers {
  from: SymbolRef;
  to: SymbolRef;
  matchedBy: SymbolMatch;
  members?: string[];
}

interface RenameCandidate {
  from: string;
  to: string;
  /** Why it might be a rename: all that agrees (never enough to call it one). */
  evidence: 'same-file-kind-and-signature';
  /** Of the old symbol's proven consumers, how many have an EXACT edge to the new one in head. */
  consumersFollowed: number;
  consumers: number;
}

interface MovedSymbol {
  id: string;
  kind: string;
  label: string;
  file: string;
  from: Position;
  to: Position;
}

export interface SignatureChange extends SymbolRef, Consumers {
  /** The head's position. */
  now: Position;
  before: string;
  after: string;
  exported: { before: boolean; after: boolean };
}

interface FileRename {
  from: string;
  to: string;
  matchedBy: 'identical-content' | 'same-declarations';
}

interface EdgeEntry {
  source: string;
  target: string;
  relation: Relation;
  confidence: Confidence;
  file?: string;
  line?: number;
  column?: number;
  reason?: string;
}

/** relation → confidence → count. */
export type EdgeCounts = Record<string, Partial<Record<Confidence, number>>>;

interface ConfidenceChange {
  source: string;
  target: string;
  relation: Relation;
  before: Confidence;
  after: Confidence;
}

interface NewCallers extends SymbolRef {
  callers: Array<{ id: string; confidence: Confidence; file: string; line: number; column: number }>;
}

interface NewUnresolved {
  source: string;
  name: string;
  reason: string;
  file?: string;
  line?: number;
  column?: number;
}

interface RationaleEntry {
  /** The record, stamped note or documentation heading. */
  record: string;
  recordLabel: string;
  recordFile?: string;
  /** The changed symbol or file it is linked to by a `cites` edge. */
  cites: string;
  /** What happened to that symbol or file. */
  change: 'added' | 'removed' | 'renamed' | 'signature-changed' | 'unchanged';
  /** The link itself: new in head, gone from base, or in both. */
  link: 'added' | 'removed' | 'kept';
  /** `record-cites`: the record names it; `comment-cites`: its comments name the record. */
  direction: 'record-cites' | 'comment-cites';
}

export interface DiffInput {
  base: Graph;
  head: Graph;
  /** File moves proven by content (git found the same bytes under another path). */
  identicalMoves?: ReadonlyArray<{ from: string; to: string }>;
}

export interface DiffBody {
  summary: DiffSummary;
  files: { added: string[]; removed: string[]; renamed: FileRename[] };
  symbols: {
    added: AddedSymbol[];
    removed: RemovedSymbol[];
    renamed: RenamedSymbol[];
    renameCandidates: RenameCandidate[];
    moved: MovedSymbol[];
    signatureChanged: SignatureChange[];
  };
  records: { added: SymbolRef[]; removed: SymbolRef[] };
  edges: {
    added: { counts: EdgeCounts; entries: EdgeEntry[] };
    removed: { counts: EdgeCounts; entries: EdgeEntry[] };
    confidenceChanged: ConfidenceChange[];
  };
  newCallers: NewCallers[];
  newUnresolved: NewUnresolved[];
  /** relation → reason → head count minus base count (the graph's `unresolved` summary), non-zero only. */
  unresolvedDelta: Record<string, Record<string, number>>;
  rationale: RationaleEntry[];
}

interface DiffSummary {
  files: { added: number; removed: number; renamed: number };
  symbols: { added: number; removed: number; renamed: number; renameCandidates: number; moved: number; signatureChanged: number };
  edges: { added: number; removed: number; confidenceChanged: number };
  /** Removed, renamed and re-signed symbols with proven consumers, and those consumers (distinct ids). */
  breaking: { symbols: number; provenConsumers: number; guessedConsumers: number };
  newCallers: number;
  newUnresolved: number;
  rationale: number;
}

interface Sym {
  node: GraphNode;
  file: string;
  /** The part of the id after `#` (escaped as in the id): `f`, `Class.method`. */
  name: string;
  parent?: string;
}

function symbolsOf(g: Graph): Map<string, Sym> {
  const out = new Map<string, Sym>();
  for (const n of g.nodes) {
    if (!n.id.startsWith('sym:') || n.sourceFile === undefined) continue;
    out.set(n.id, { node: n, file: n.sourceFile, name: n.id.slice(n.id.indexOf('#') + 1) });
  }
  for (const e of g.edges) {
    if (e.relation !== 'contains' || !e.source.startsWith('sym:')) continue;
    const s = out.get(e.target);
    if (s) s.parent = e.source;
  }
  return out;
}

function filesOf(g: Graph): Set<string> {
  const out = new Set<string>();
  for (const n of g.nodes) if (n.kind === 'file' && n.sourceFile !== undefined) out.add(n.sourceFile);
  return out;
}

const ref = (s: Sym): SymbolRef => ({
  id: s.node.id,
  kind: s.node.kind,
  label: s.node.label,
  file: s.file,
  line: s.node.line ?? 1,
  column: s.node.column ?? 1,
});

const sorted = (xs: Iterable<string>): string[] => [...xs].sort(compareStrings);

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** Groups items by key; keeps only keys held by exactly one item on each side. */
function uniquePairs<T>(
  left: Iterable<T>,
  right: Iterable<T>,
  keyLeft: (t: T) => string | undefined,
  keyRight: (t: T) => string | undefined = keyLeft,
): Array<[T, T]> {
  const l = new Map<string, T[]>();
  const r = new Map<string, T[]>();
  for (const x of left) {
    const k = keyLeft(x);
    if (k !== undefined) push(l, k, x);
  }
  for (const x of right) {
    const k = keyRight(x);
    if (k !== undefined) push(r, k, x);
  }
  const out: Array<[T, T]> = [];
  for (const k of sorted(l.keys())) {
    const a = l.get(k) as T[];
    const b = r.get(k);
    if (a.length === 1 && b?.length === 1) out.push([a[0], b[0]]);
  }
  return out;
}

/** The reverse adjacency of the base graph, built once when some entry needs consumers. */
class Consumed {
  private readonly into = new Map<string, GraphEdge[]>();
  constructor(
    base: Graph,
    private readonly headIds: { has(id: string): boolean },
    private readonly headExact: (source: string, target: string, relation: string) => boolean,
  ) {
    for (const e of base.edges) {
      if (!CONSUMER_RELATIONS.has(e.relation) || e.confidence === 'UNRESOLVED') continue;
      const list = this.into.get(e.target);
      if (list) list.push(e);
      else this.into.set(e.target, [e]);
    }
  }

  /**
   * Consumers of `id` (and of its folded members) outside the symbol itself, with the blast radius.
   * `renamedTo` maps the symbol and its members to their new ids, to tell consumers that followed.
   */
  of(id: string, members: readonly string[] = [], renamedTo?: (old: string) => string | undefined): Consumers {
    const inside = new Set([id, ...members]);
    const proven = new Map<string, Consumer>();
    const guessed = new Map<string, Consumer>();
    for (const t of [id, ...members]) {
      for (const e of this.into.get(t) ?? []) {
        if (inside.has(e.source) || e.source.startsWith(`${id}.`) || e.source.startsWith('mod:')) continue;
        const c: Consumer = {
          id: e.source,
          relation: e.relation,
          confidence: e.confidence,
          file: e.evidence?.file ?? this.fileOf(e.source),
          line: e.evidence?.line ?? 1,
          column: e.evidence?.column ?? 1,
        };
        if (!this.headIds.has(e.source)) c.gone = true;
        const now = renamedTo?.(t);
        if (e.confidence === 'EXACT' && now !== undefined && this.headExact(e.source, now, e.relation)) c.updated = true;
        const k = `${c.id}\u0000${c.relation}\u0000${t}`;
        (e.confidence === 'EXACT' ? proven : guessed).set(k, c);
      }
    }
    const order = (m: Map<string, Consumer>) => [...m.values()].sort(compareConsumers);
    return { proven: order(proven), guessed: order(guessed), blastRadius: this.radius(inside) };
  }

  private readonly files = new Map<string, string>();
  private fileOf(id: string): string {
    let f = this.files.get(id);
    if (f === undefined) this.files.set(id, (f = fileOfId(id) ?? ''));
    return f;
  }

  // The same reverse adjacency by number, for the blast radius walks (built at the first walk):
  // every id that is an edge's end has an index; the edges into index t are srcs[at[t]..at[t+1]),
  // in the order of `into`, with RADIUS and EXACT bits. A walk marks what it saw with its own stamp,
  // so thousands of walks allocate nothing but their queue.
  private numbered?: {
    index: Map<string, number>;
    ids: string[];
    at: Int32Array;
    srcs: Int32Array;
    bits: Uint8Array;
    marks: Uint32Array;
    starts: Uint32Array;
    /** Each id's file number, -1 until it is needed; and a stamp per file number (no more files than ids). */
    fileNo: Int32Array;
    fileMarks: Uint32Array;
  };
  private stamp = 0;
  private readonly fileIndex = new Map<string, number>();

  private numbering(): NonNullable<Consumed['numbered']> {
    if (this.numbered) return this.numbered;
    const index = new Map<string, number>();
    const ids: string[] = [];
    const id = (x: string) => {
      let i = index.get(x);
      if (i === undefined) {
        index.set(x, (i = ids.length));
        ids.push(x);
      }
      return i;
    };
    let m = 0;
    for (const [target, list] of this.into) {
      id(target);
      for (const e of list) id(e.source);
      m += list.length;
    }
    const at = new Int32Array(ids.length + 1);
    for (const [target, list] of this.into) at[(index.get(target) as number) + 1] = list.length;
    for (let i = 0; i < ids.length; i++) at[i + 1] += at[i];
    const srcs = new Int32Array(m);
    const bits = new Uint8Array(m);
    for (const [target, list] of this.into) {
      let k = at[index.get(target) as number];
      for (const e of list) {
        srcs[k] = index.get(e.source) as number;
        bits[k] = (RADIUS_RELATIONS.has(e.relation) ? 1 : 0) | (e.confidence === 'EXACT' ? 2 : 0);
        k++;
      }
    }
    const n = ids.length;
    this.numbered = {
      index,
      ids,
      at,
      srcs,
      bits,
      marks: new Uint32Array(n),
      starts: new Uint32Array(n),
      fileNo: new Int32Array(n).fill(-1),
      fileMarks: new Uint32Array(n),
    };
    return this.numbered;
  }

  private radius(start: ReadonlySet<string>): BlastRadius {
    const { index, ids, at, srcs, bits, marks, starts, fileNo, fileMarks } = this.numbering();
    const startIdx: number[] = [];
    const startStamp = ++this.stamp;
    for (const x of start) {
      const i = index.get(x);
      if (i === undefined) continue; // nothing consumes it, and it consumes nothing in the radius
      starts[i] = startStamp;
      startIdx.push(i);
    }
    // Each walk looks at no more than RADIUS_EDGES edges: a diff lists thousands of symbols, and
    // an unbounded walk from each would make the report quadratic in the graph's size.
    const walk = (from: readonly number[], exactOnly: boolean, mark: number, seen: number[]): boolean => {
      const queue = [...from];
      let looked = 0;
      for (let q = 0; q < queue.length; q++) {
        const t = queue[q];
        for (let k = at[t]; k < at[t + 1]; k++) {
          if (++looked > RADIUS_EDGES) return true;
          if ((bits[k] & 1) === 0 || (exactOnly && (bits[k] & 2) === 0)) continue;
          const src = srcs[k];
          if (marks[src] === mark || starts[src] === startStamp) continue;
          if (seen.length >= RADIUS_CAP) return true;
          marks[src] = mark;
          seen.push(src);
          queue.push(src);
        }
      }
      return false;
    };
    const proven: number[] = [];
    let capped = walk(startIdx, true, ++this.stamp, proven);
    const any = [...proven];
    const anyMark = ++this.stamp;
    for (const i of proven) marks[i] = anyMark;
    capped = walk([...startIdx, ...proven], false, anyMark, any) || capped;
    // Distinct files of the proven consumers, by each id's file number, found once per id.
    const fileStamp = ++this.stamp;
    let fileCount = 0;
    for (const i of proven) {
      let f = fileNo[i];
      if (f < 0) {
        const name = this.fileOf(ids[i]);
        let n = this.fileIndex.get(name);
        if (n === undefined) this.fileIndex.set(name, (n = this.fileIndex.size));
        fileNo[i] = f = n;
      }
      if (fileMarks[f] !== fileStamp) {
        fileMarks[f] = fileStamp;
        fileCount++;
      }
    }
    const r: BlastRadius = { proven: proven.length, files: fileCount, guessed: any.length - proven.length };
    if (capped) r.capped = true;
    return r;
  }
}

/** A proven consumer that breaks: it is still there and did not follow a rename. */
export const breaks = (c: Consumer): boolean => c.gone !== true && c.updated !== true;

/** Use sites in reading order: file, line, column, then the consumer and the relation. */
export function compareConsumers(a: Omit<Consumer, 'confidence'>, b: Omit<Consumer, 'confidence'>): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.id, b.id) ||
    compareStrings(a.relation, b.relation)
  );
}

function edgeEntry(e: GraphEdge): EdgeEntry {
  const out: EdgeEntry = { source: e.source, target: e.target, relation: e.relation, confidence: e.confidence };
  if (e.evidence) {
    out.file = e.evidence.file;
    out.line = e.evidence.line;
    out.column = e.evidence.column;
  }
  if (e.reason !== undefined) out.reason = e.reason;
  return out;
}

function count(counts: EdgeCounts, e: GraphEdge): void {
  const r = (counts[e.relation] ??= {});
  r[e.confidence] = (r[e.confidence] ?? 0) + 1;
}

function sortCounts(counts: EdgeCounts): EdgeCounts {
  const out: EdgeCounts = {};
  for (const rel of sorted(Object.keys(counts))) {
    const c = counts[rel];
    out[rel] = {};
    for (const k of ['EXACT', 'CANDIDATE', 'UNRESOLVED'] as const) if (c[k] !== undefined) out[rel][k] = c[k];
  }
  return out;
}

/** Members of `id` (by the `contains` tree of one side) that are in `pool`. */
function foldMembers(ids: readonly string[], syms: ReadonlyMap<string, Sym>): Map<string, string[]> {
  // A member folds into its nearest ancestor that is in `ids` too.
  const set = new Set(ids);
  const folded = new Map<string, string[]>();
  for (const id of ids) {
    let up = syms.get(id)?.parent;
    let into: string | undefined;
    while (up !== undefined) {
      if (set.has(up)) into = up;
      up = syms.get(up)?.parent;
    }
    if (into !== undefined) push(folded, into, id);
  }
  return folded;
}

/** The edges in graph.json's order: the list itself when it is (a graph kg wrote), else a sorted copy. */
function inOrder(edges: readonly GraphEdge[]): readonly GraphEdge[] {
  for (let i = 1; i < edges.length; i++) if (compareEdges(edges[i - 1], edges[i]) >= 0) return [...edges].sort(compareEdges);
  return edges;
}

function diffGraphs(input: DiffInput): DiffBody {
  const { base, head } = input;
  const baseEdges = inOrder(base.edges);
  const headEdges = inOrder(head.edges);
  const baseSyms = symbolsOf(base);
  const headSyms = symbolsOf(head);
  const baseFiles = filesOf(base);
  const headFiles = filesOf(head);
  const baseById = new Map(base.nodes.map((n) => [n.id, n]));
  const headById = new Map(head.nodes.map((n) => [n.id, n]));

  // Files.
  const removedFiles = sorted([...baseFiles].filter((f) => !headFiles.has(f)));
  const addedFiles = sorted([...headFiles].filter((f) => !baseFiles.has(f)));
  const fileRenames: FileRename[] = [];
  const renamedFile = new Map<string, FileRename>();
  const claim = (r: FileRename) => {
    fileRenames.push(r);
    renamedFile.set(r.from, r);
  };
  const removedSet = new Set(removedFiles);
  const addedSet = new Set(addedFiles);
  const taken = new Set<string>();
  for (const m of [...(input.identicalMoves ?? [])].sort((a, b) => compareStrings(a.from, b.from) || compareStrings(a.to, b.to))) {
    if (!removedSet.has(m.from) || !addedSet.has(m.to) || renamedFile.has(m.from) || taken.has(m.to)) continue;
    taken.add(m.to);
    claim({ from: m.from, to: m.to, matchedBy: 'identical-content' });
  }
  const declarationsOf = (syms: ReadonlyMap<string, Sym>) => {
    const byFile = new Map<string, string[]>();
    for (const s of syms.values()) push(byFile, s.file, `${s.name}\t${s.node.kind}\t${s.node.signature ?? '-'}`);
    return byFile;
  };
  const baseDecl = declarationsOf(baseSyms);
  const headDecl = declarationsOf(headSyms);
  const declKey = (decl: Map<string, string[]>) => (f: string) => {
    const d = decl.get(f);
    return d === undefined ? undefined : d.sort(compareStrings).join('\n');
  };
  const fromKey = declKey(baseDecl);
  const toKey = declKey(headDecl);
  const pairs = uniquePairs(
    removedFiles.filter((f) => !renamedFile.has(f)).map((f) => ({ f, k: fromKey(f) })),
    addedFiles.filter((f) => !taken.has(f)).map((f) => ({ f, k: toKey(f) })),
    (x) => x.k,
  );
  for (const [a, b] of pairs) {
    taken.add(b.f);
    claim({ from: a.f, to: b.f, matchedBy: 'same-declarations' });
  }
  fileRenames.sort((a, b) => compareStrings(a.from, b.from));

  // Symbols.
  const removedIds = sorted([...baseSyms.keys()].filter((id) => !headSyms.has(id)));
  const addedIds = sorted([...headSyms.keys()].filter((id) => !baseSyms.has(id)));
  const renamedTo = new Map<string, { to: string; matchedBy: SymbolMatch }>();
  const matchedHead = new Set<string>();
  const addedByFileName = new Map<string, string>();
  for (const id of addedIds) {
    const s = headSyms.get(id) as Sym;
    addedByFileName.set(`${s.file}\u0000${s.name}`, id);
  }
  for (const id of removedIds) {
    const s = baseSyms.get(id) as Sym;
    const fr = renamedFile.get(s.file);
    if (!fr) continue;
    const to = addedByFileName.get(`${fr.to}\u0000${s.name}`);
    if (to === undefined) continue;
    renamedTo.set(id, { to, matchedBy: fr.matchedBy });
    matchedHead.add(to);
  }
  const signed = (s: Sym) => (s.node.signature === undefined ? undefined : `${s.name}\t${s.node.kind}\t${s.node.signature}`);
  for (const [a, b] of uniquePairs(
    removedIds.filter((id) => !renamedTo.has(id)).map((id) => baseSyms.get(id) as Sym),
    addedIds.filter((id) => !matchedHead.has(id)).map((id) => headSyms.get(id) as Sym),
    signed,
  )) {
    if (a.file === b.file) continue; // same file, same name: same id — cannot happen; guard anyway
    renamedTo.set(a.node.id, { to: b.node.id, matchedBy: 'same-name-and-signature' });
    matchedHead.add(b.node.id);
  }
  // Candidates: same file (or its renamed path), same kind and signature, unique there.
  const candidates: RenameCandidate[] = [];
  const headFileOf = (file: string) => renamedFile.get(file)?.to ?? file;
  const parentKey = (p: string | undefined, side: 'base' | 'head') =>
    p === undefined ? '' : side === 'base' ? (renamedTo.get(p)?.to ?? p) : p;
  for (const [a, b] of uniquePairs(
    removedIds.filter((id) => !renamedTo.has(id)).map((id) => baseSyms.get(id) as Sym),
    addedIds.filter((id) => !matchedHead.has(id)).map((id) => headSyms.get(id) as Sym),
    (s) =>
      s.node.signature === undefined
        ? undefined
        : `${headFileOf(s.file)}\t${s.node.kind}\t${s.node.signature}\t${parentKey(s.parent, 'base')}`,
    (s) => (s.node.signature === undefined ? undefined : `${s.file}\t${s.node.kind}\t${s.node.signature}\t${parentKey(s.parent, 'head')}`),
  ))
    candidates.push({ from: a.node.id, to: b.node.id, evidence: 'same-file-kind-and-signature', consumersFollowed: 0, consumers: 0 });
  candidates.sort((a, b) => compareStrings(a.from, b.from));

  // Is there a proven consumer edge in the head? A binary search of its sorted edges.
  const headExact = (source: string, target: string, relation: string): boolean => {
    const probe = { source, target, relation } as GraphEdge;
    let lo = 0;
    let hi = headEdges.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareEdges(headEdges[mid], probe) < 0) lo = mid + 1;
      else hi = mid;
    }
    const e = headEdges[lo];
    return e !== undefined && compareEdges(e, probe) === 0 && e.confidence === 'EXACT' && CONSUMER_RELATIONS.has(e.relation);
  };
  const consumed = new Consumed(base, headById, headExact);
  for (const c of candidates) {
    const proven = consumed.of(c.from).proven;
    c.consumers = new Set(proven.map((x) => x.id)).size;
    c.consumersFollowed = new Set(proven.filter((x) => headExact(x.id, c.to, x.relation)).map((x) => x.id)).size;
  }
  const plainRemoved = removedIds.filter((id) => !renamedTo.has(id));
  const removedFold = foldMembers(plainRemoved, baseSyms);
  const foldedAway = new Set([...removedFold.values()].flat());
  const removed: RemovedSymbol[] = plainRemoved
    .filter((id) => !foldedAway.has(id))
    .map((id) => {
      const s = baseSyms.get(id) as Sym;
      const members = removedFold.get(id);
      const entry: RemovedSymbol = { ...ref(s), exported: s.node.exported === true, ...consumed.of(id, members) };
      if (members) entry.members = sorted(members);
      return entry;
    });
  const renamedIds = sorted(renamedTo.keys());
  const renamedFold = foldMembers(renamedIds, baseSyms);
  const renamedAway = new Set([...renamedFold.values()].flat());
  const renamed: RenamedSymbol[] = renamedIds
    .filter((id) => !renamedAway.has(id))
    .map((id) => {
      const m = renamedTo.get(id) as { to: string; matchedBy: SymbolMatch };
      const members = renamedFold.get(id);
      const entry: RenamedSymbol = {
        from: ref(baseSyms.get(id) as Sym),
        to: ref(headSyms.get(m.to) as Sym),
        matchedBy: m.matchedBy,
        ...consumed.of(id, members, (old) => renamedTo.get(old)?.to),
      };
      if (members) entry.members = sorted(members);
      return entry;
    });
  const added: AddedSymbol[] = addedIds
    .filter((id) => !matchedHead.has(id))
    .map((id) => {
      const s = headSyms.get(id) as Sym;
      return { ...ref(s), exported: s.node.exported === true };
    });
  const moved: MovedSymbol[] = [];
  const signatureChanged: SignatureChange[] = [];
  for (const id of sorted([...baseSyms.keys()].filter((k) => headSyms.has(k)))) {
    const a = baseSyms.get(id) as Sym;
    const b = headSyms.get(id) as Sym;
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

  // Records, notes and documentation headings that came or went.
  const isRecord = (n: GraphNode) => n.kind === 'rationale' || n.kind === 'doc-concept';
  const nodeRef = (n: GraphNode): SymbolRef => ({
    id: n.id,
    kind: n.kind,
    label: n.label,
    file: n.sourceFile ?? '',
    line: n.line ?? 1,
    column: n.column ?? 1,
  });
  const recordsAdded = head.nodes.filter((n) => isRecord(n) && !baseById.has(n.id)).map(nodeRef);
  const recordsRemoved = base.nodes.filter((n) => isRecord(n) && !headById.has(n.id)).map(nodeRef);

  // Edges: one merge of the two lists in (source, target, relation) order, graph.json's own.
  const addedEdges: GraphEdge[] = [];
  const removedEdges: GraphEdge[] = [];
  const confidenceChanged: ConfidenceChange[] = [];
  const keptCites: GraphEdge[] = [];
  {
    let i = 0;
    let j = 0;
    while (i < baseEdges.length || j < headEdges.length) {
      const a = baseEdges[i];
      const b = headEdges[j];
      const order = a === undefined ? 1 : b === undefined ? -1 : compareEdges(a, b);
      if (order < 0) {
        removedEdges.push(a);
        i++;
      } else if (order > 0) {
        addedEdges.push(b);
        j++;
      } else {
        if (a.confidence !== b.confidence)
          confidenceChanged.push({ source: b.source, target: b.target, relation: b.relation, before: a.confidence, after: b.confidence });
        if (a.relation === 'cites') keptCites.push(a);
        i++;
        j++;
      }
    }
  }
  const addedCounts: EdgeCounts = {};
  const removedCounts: EdgeCounts = {};
  for (const e of addedEdges) count(addedCounts, e);
  for (const e of removedEdges) count(removedCounts, e);

  // New callers of symbols that exist on both sides; new unresolved calls.
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
    if (!target || !baseSyms.has(e.target) || !headById.has(e.source)) continue;
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

  const unresolvedDelta: Record<string, Record<string, number>> = {};
  const ub = base.unresolved ?? {};
  const uh = head.unresolved ?? {};
  for (const rel of sorted(new Set([...Object.keys(ub), ...Object.keys(uh)]))) {
    const a = (ub as Record<string, Record<string, number>>)[rel] ?? {};
    const b = (uh as Record<string, Record<string, number>>)[rel] ?? {};
    for (const reason of sorted(new Set([...Object.keys(a), ...Object.keys(b)]))) {
      const d = (b[reason] ?? 0) - (a[reason] ?? 0);
      if (d !== 0) (unresolvedDelta[rel] ??= {})[reason] = d;
    }
  }

  // Rationale: every `cites` link that touches something that changed, on the side where it is.
  const change = new Map<string, RationaleEntry['change']>();
  for (const r of removed) {
    change.set(r.id, 'removed');
    for (const m of r.members ?? []) change.set(m, 'removed');
  }
  for (const r of renamed) {
    change.set(r.from.id, 'renamed');
    change.set(r.to.id, 'renamed');
  }
  for (const s of signatureChanged) change.set(s.id, 'signature-changed');
  for (const a of added) change.set(a.id, 'added');
  for (const f of removedFiles) change.set(fileId(f), renamedFile.has(f) ? 'renamed' : 'removed');
  for (const f of addedFiles) change.set(fileId(f), taken.has(f) ? 'renamed' : 'added');
  const nodeIn = (g: 'base' | 'head', id: string) => (g === 'base' ? baseById : headById).get(id);
  const rationale = new Map<string, RationaleEntry>();
  const visit = (e: GraphEdge, side: 'base' | 'head', link: RationaleEntry['link']) => {
    if (e.relation !== 'cites') return;
    const src = nodeIn(side, e.source);
    const tgt = nodeIn(side, e.target);
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
  for (const e of addedEdges) visit(e, 'head', 'added');
  for (const e of removedEdges) visit(e, 'base', 'removed');
  for (const e of keptCites) visit(e, 'base', 'kept');
  const rationaleList = sorted(rationale.keys()).map((k) => rationale.get(k) as RationaleEntry);

  const breakingEntries: Consumers[] = [...removed, ...renamed, ...signatureChanged];
  const provenIds = new Set<string>();
  const guessedIds = new Set<string>();
  let breakingSymbols = 0;
  for (const b of breakingEntries) {
    const live = b.proven.filter(breaks);
    if (live.length > 0) breakingSymbols++;
    for (const c of live) provenIds.add(c.id);
    for (const c of b.guessed) if (c.gone !== true) guessedIds.add(c.id);
  }

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
        renameCandidates: candidates.length,
        moved: moved.length,
        signatureChanged: signatureChanged.length,
      },
      edges: { added: addedEdges.length, removed: removedEdges.length, confidenceChanged: confidenceChanged.length },
      breaking: { symbols: breakingSymbols, provenConsumers: provenIds.size, guessedConsumers: guessedIds.size },
      newCallers: newCallers.length,
      newUnresolved: newUnresolved.length,
      rationale: rationaleList.length,
    },
    files: {
      added: addedFiles.filter((f) => !taken.has(f)),
      removed: removedFiles.filter((f) => !renamedFile.has(f)),
      renamed: fileRenames,
    },
    symbols: { added, removed, renamed, renameCandidates: candidates, moved, signatureChanged },
    records: { added: recordsAdded, removed: recordsRemoved },
    edges: {
      added: { counts: sortCounts(addedCounts), entries: addedEdges.map(edgeEntry) },
      removed: { counts: sortCounts(removedCounts), entries: removedEdges.map(edgeEntry) },
      confidenceChanged,
    },
    newCallers,
    newUnresolved,
    unresolvedDelta,
    rationale: rationaleList,
  };
}

/** How one side of a diff was given and what it resolved to (set by the caller; no absolute paths). */
export interface DiffSide {
  /** What the user passed (a ref, a graph path as given), or `working tree`. */
  spec: string;
  kind: 'graph' | 'ref' | 'worktree';
  commit?: string;
  tree?: string;
  graphSignature: string;
}

export interface DiffReport extends DiffBody {
  reportVersion: number;
  base: DiffSide;
  head: DiffSide;
  /** What the report cannot see (a side without the calls layer, signatures not recorded), for people. */
  problems: string[];
  evidenceClass: 'GRAPH_DERIVED';
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
