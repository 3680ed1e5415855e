// The shape of the diff report (ADR 104): what `kg diff` writes as JSON, `kg check` and the
// pull-request comment read, and the engine's parts (src/graph/diff/*.ts) fill. Types only.

import type { Confidence, Graph, Relation } from '../model';
import type { IndexedGraph } from '../graph-index';
import type { Reach } from '../reach';

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

export interface Consumers {
  /** EXACT consumers: these break. */
  proven: Consumer[];
  /** CANDIDATE consumers: name-match guesses, which may break. */
  guessed: Consumer[];
  /** How far the change reaches, transitively (src/graph/reach.ts; ADR 179: not `impact`'s `blastRadius`). */
  reach: Reach;
}

export interface RemovedSymbol extends SymbolRef, Consumers {
  exported: boolean;
  /** Members removed with it (a class's methods), folded into this entry with their consumers. */
  members?: string[];
}

export interface AddedSymbol extends SymbolRef {
  exported: boolean;
}

export type SymbolMatch = 'identical-content' | 'same-declarations' | 'same-name-and-signature';

export interface RenamedSymbol extends Consumers {
  from: SymbolRef;
  to: SymbolRef;
  matchedBy: SymbolMatch;
  members?: string[];
}

export interface RenameCandidate {
  from: string;
  to: string;
  /** Why it might be a rename: all that agrees (never enough to call it one). */
  evidence: 'same-file-kind-and-signature';
  /** Of the old symbol's proven consumers, how many have an EXACT edge to the new one in head. */
  consumersFollowed: number;
  consumers: number;
}

export interface MovedSymbol {
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

export interface FileRename {
  from: string;
  to: string;
  matchedBy: 'identical-content' | 'same-declarations';
}

export interface EdgeEntry {
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

export interface ConfidenceChange {
  source: string;
  target: string;
  relation: Relation;
  before: Confidence;
  after: Confidence;
}

export interface NewCallers extends SymbolRef {
  callers: Array<{ id: string; confidence: Confidence; file: string; line: number; column: number }>;
}

export interface NewUnresolved {
  source: string;
  name: string;
  reason: string;
  file?: string;
  line?: number;
  column?: number;
}

export interface RationaleEntry {
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
  /** The sides as their loader already indexed them (src/graph/graph-index.ts), so the diff does not index them again. */
  indexed?: { base?: IndexedGraph; head?: IndexedGraph };
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
