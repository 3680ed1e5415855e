// The shapes every query returns. The original query contract's shapes are a subset of these: each answer is
// `{available: true, …, evidenceClass: "GRAPH_DERIVED"}`, and a degrade is
// `{available: false, reason, evidenceClass}` — never an empty answer. Additions (ADR 20):
// proof and guesses in separate lists, `breaks`, and `stale`/`changedFiles` when the caller
// knows whether the graph is older than the working tree.

import type { Evidence, NodeKind } from '../model';
import type { UnanalysedReferrers, UnresolvedNamed } from './unanalysed';

/**
 * What the graph cannot see of a node's referrers (ADR 153), beside every "what breaks" answer:
 * files of types it does not read that may use the node, and calls nothing placed that carry its
 * name. Absent when there is nothing to say; never counted among callers or consumers.
 */
interface Holes {
  unanalysed?: UnanalysedReferrers;
  unresolvedNamed?: UnresolvedNamed;
}

/** Whether the graph is older than the working tree, as the caller found out (the manifest knows). */
export interface Staleness {
  stale: boolean;
  /** Repo-relative paths changed since the graph was built, sorted. */
  changedFiles: string[];
}

export interface QueryOptions {
  /** When given, every result (answers and degrades) carries `stale` and `changedFiles`. */
  staleness?: Staleness;
}

/**
 * Why a query could not answer. The `reason` text is for people (and keeps the query contract's exact
 * wording); `code` is for programs, so nothing has to match message text.
 */
export type DegradeCode =
  | 'NO_GRAPH'
  | 'UNREADABLE'
  | 'TOO_LARGE'
  | 'UNPARSABLE'
  | 'MISSING_ARRAYS'
  | 'UNSUPPORTED_VERSION'
  | 'INVALID'
  | 'LAYER_MISSING'
  | 'UNKNOWN_NODE'
  /** `kg store` only: the store cannot be reached, lost the connection, or is at another schema version. */
  | 'STORE_UNAVAILABLE';

export const REASONS = {
  noGraph: 'no committed graph projection',
  missingArrays: 'projection missing nodes/edges arrays',
  unparsable: (detail: string) => `projection unparsable: ${detail}`,
  unsupportedVersion: (found: string) => `unsupported schemaVersion: ${found} (this kg reads schemaVersion 1)`,
  callsLayerMissing: 'calls layer not built in this projection',
  referencesLayerMissing:
    'references layer not built in this projection: consumers that use the symbol without calling it are unknown (rebuild with this kg)',
  unknownNode: (id: string) => `unknown node: ${id}`,
  notANode: (id: string) =>
    `not a node: ${id} is an unresolved call target (a name the resolver could not place); "neighbors" lists the symbols that call it`,
} as const;

const UNPARSABLE_PREFIX = REASONS.unparsable('');

/**
 * A degrade in the words a person reads (the editor's banners and messages, the CLI's stderr).
 * The JSON `reason` stays the machine text, a contract scripts match on, and `code` stays the
 * code; only what people read changes (docs/adr/0091-god-nodes-rows-proof-first-call-sites.md).
 * `file` is how the graph file is named to the reader (its base name by default).
 */
export function describeUnavailable(u: { code?: DegradeCode; reason: string }, file = 'graph.json'): string {
  // The detail is the text this module put after its own prefix (REASONS.unparsable).
  const detail = u.reason.startsWith(UNPARSABLE_PREFIX) ? u.reason.slice(UNPARSABLE_PREFIX.length) : u.reason;
  switch (u.code) {
    case 'UNPARSABLE':
      return detail === 'the file is not UTF-8 text' ? `${file} is not UTF-8 text` : `${file} is not valid JSON (${detail})`;
    case 'INVALID':
      return `${file} does not match the graph format (${detail})`;
    case 'UNREADABLE':
      return `${file} cannot be read (${detail})`;
    case 'TOO_LARGE':
      return `${file} is too large to load (${detail})`;
    case 'MISSING_ARRAYS':
      return `${file} has no "nodes" and "edges" arrays`;
    default:
      return u.reason;
  }
}

export interface Unavailable {
  available: false;
  reason: string;
  code: DegradeCode;
  /** For UNKNOWN_NODE: node ids that look like what was asked for (same label, or containing it). */
  suggestions?: string[];
  evidenceClass: 'GRAPH_DERIVED';
  stale?: boolean;
  changedFiles?: string[];
}

interface Answered {
  available: true;
  evidenceClass: 'GRAPH_DERIVED';
  stale?: boolean;
  changedFiles?: string[];
}

/** One edge as queries report it: enough to draw and label it. */
export interface EdgeRef {
  source: string;
  target: string;
  relation: string;
  confidence: string;
}

interface CallersAnswer extends Answered, Holes {
  /** Proven callers: sources of EXACT `calls` edges (the node itself when it is recursive). */
  callers: string[];
  /** Guessed callers: sources of CANDIDATE `calls` edges that are not proven callers. */
  candidates: string[];
  /** When the node implements or overrides members: the proven callers of each, a tier of their own. */
  dispatched?: DispatchedCallers[];
}

/** The proven callers of a member the node implements (`implements`) or overrides (`overrides`), ADR 151. */
export interface DispatchedCallers {
  via: string;
  relation: string;
  callers: string[];
}

interface AffectedAnswer extends Answered, Holes {
  /** Proven consumers: sources of EXACT consumer edges, the node itself excluded. */
  consumers: string[];
  /**
   * True when some consumer depends through an EXACT edge: changing or removing the node breaks it.
   * False says only that no proven consumer does: `unanalysed` and `unresolvedNamed`, when present,
   * say what the graph could not see (ADR 153).
   */
  breaks: boolean;
  /** Guessed consumers (CANDIDATE edges only), not among the proven ones. */
  candidates: string[];
}

interface ImpactAnswer extends Answered, Holes {
  callers: string[];
  consumers: string[];
  /** |callers ∪ consumers|: proof only. */
  blastRadius: number;
  /** Guessed callers and consumers, not among the proven ones. */
  candidates: string[];
  /** |candidates|: kept apart from `blastRadius`. */
  candidateRadius: number;
  /** As `callers`' field: callers through the members the node implements or overrides, never in `blastRadius`. */
  dispatched?: DispatchedCallers[];
}

export interface NeighborsAnswer extends Answered {
  /** The start node first, then breadth-first order, neighbours of each node in sorted id order. */
  nodes: string[];
  /** Reached nodes whose degree is over the hub threshold: listed, never expanded, sorted. */
  excludedHubs: string[];
  /** The degree above which a node is a hub: max(50, 99th-percentile degree). */
  hubThreshold: number;
  /** Every edge between two of `nodes`, sorted by source, target, relation. */
  edges: EdgeRef[];
}

export interface PathAnswer extends Answered {
  /** A chain of proven calls, else a shortest path on the undirected view, from first to last; [] when not connected. */
  path: string[];
  /** The edge taken for each hop (in its real direction), one fewer than `path`. */
  edges: EdgeRef[];
  /** Whether `path` is a chain of proven calls from its first node to its last (ADR 161). */
  directed: boolean;
  /** When it is not: what it is instead. */
  note?: string;
}

interface GodNodesAnswer extends Answered {
  godNodes: Array<{ id: string; degree: number }>;
}

interface QueryIdsAnswer extends Answered {
  /** Node ids containing the substring, sorted, at most 50. */
  matches: string[];
  /** True when more than `matches.length` ids matched. */
  truncated: boolean;
}

/** A node as `why` lists it: enough to show and open it. */
export interface WhyEntry {
  id: string;
  label: string;
  file?: string;
  line?: number;
  column?: number;
}

/** A stamped note as `why` lists it (ADR 88). */
export interface WhyNote extends WhyEntry {
  area: string;
  stamp: string;
  text: string;
  /** True when the note is written on this node (its SYNTAX edge); false when it only names it. */
  sitsOn: boolean;
}

interface WhyAnswer extends Answered {
  id: string;
  /** Stamped notes citing the node, sorted by id. */
  notes: WhyNote[];
  /** Decision records citing the node, sorted by id. */
  records: WhyEntry[];
  /** Decision records the node cites (its comments name them), sorted by id. */
  cited: WhyEntry[];
  /** For a node inside a file: the notes and records citing that file ([] for files and modules). */
  fileNotes: WhyNote[];
  fileRecords: WhyEntry[];
}

/** One caller or callee as a surface lists it: the other end, and where the call was seen. */
export interface CallSite {
  /** The node on the other end (the caller for `callers`, the callee for `callees`). */
  id: string;
  confidence: 'EXACT' | 'CANDIDATE' | 'UNRESOLVED';
  evidence?: Evidence;
  /** For UNRESOLVED: the name and the reason the resolver gave (`any-receiver`, `external`, …). */
  name?: string;
  reason?: string;
}

/** `symbol`: one node's whole picture; each list cut at the limit asked, `totals` counting all. */
interface SymbolAnswer extends Answered {
  id: string;
  kind: NodeKind;
  label: string;
  /** `path:line:column` of the declaration's name (or the path, for a node without a position). */
  location?: string;
  exported?: boolean;
  /** The declared-signature hash (ADR 71): equal hashes, same declared signature. */
  signatureHash?: string;
  /** In + out degree over all relations. */
  degree: number;
  /** Proven callers (EXACT), with the call site. */
  callers: CallSite[];
  /** Guessed callers (CANDIDATE: a name match, not a fact), not among the proven ones. */
  candidates: CallSite[];
  /** What it calls, proven. */
  callees: CallSite[];
  /** What it may call, guessed by name. */
  calleeCandidates: CallSite[];
  /** Calls nobody could place: the name and the reason (`external`, `any-receiver`, …). */
  unresolved: CallSite[];
  totals: { callers: number; candidates: number; callees: number; calleeCandidates: number; unresolved: number };
  /** As `why` lists them. */
  notes: WhyNote[];
  records: WhyEntry[];
  cited: WhyEntry[];
}

/** A symbol as `unused` lists it (ADR 157). */
export interface UnusedSymbol {
  id: string;
  kind: NodeKind;
  label: string;
  /** `path:line:column` of the declaration's name. */
  location?: string;
}

/** Why a symbol no proven edge reaches may still be used: a guess or a hole, never proof (ADR 157). */
export interface PossibleUse {
  reason:
    'candidate' | 'unresolved-named' | 'unanalysed' | 'dynamic-access' | 'entry-unplaced' | 'alias' | 'module-object' | 'object-value';
  /** One line for people. */
  summary: string;
  /**
   * The guessed consumers (`candidate`), the unread files whose text imports its file
   * (`unanalysed`), the symbols and files that use its module object whole (`module-object`), or
   * those that use the object literal a function belongs to (`object-value`).
   */
  via?: string[];
}

/** `unused`: symbols no proven edge reaches, those nothing could reach apart from the rest (ADR 157). */
interface UnusedAnswer extends Answered {
  /** The scope asked about, in the graph's form ('' for the whole repository). */
  path: string;
  /** Nothing reaches them, and nothing the graph cannot see could: removing one breaks no code the graph reads. */
  unused: UnusedSymbol[];
  /** Nothing proven reaches them, but a guess or a hole may: each with its reasons. */
  possiblyUsed: Array<UnusedSymbol & { reasons: PossibleUse[] }>;
  /** Symbols in scope, ways in (never listed), reached, and the lengths of both lists before the page. */
  totals: { symbols: number; entry: number; reached: number; unused: number; possiblyUsed: number };
  /** What the answer could not rely on, in words. */
  notes: string[];
}

export type UnusedResult = UnusedAnswer | Unavailable;
export type SymbolResult = SymbolAnswer | Unavailable;
export type CallersResult = CallersAnswer | Unavailable;
export type AffectedResult = AffectedAnswer | Unavailable;
export type ImpactResult = ImpactAnswer | Unavailable;
export type NeighborsResult = NeighborsAnswer | Unavailable;
export type PathResult = PathAnswer | Unavailable;
export type GodNodesResult = GodNodesAnswer | Unavailable;
export type QueryIdsResult = QueryIdsAnswer | Unavailable;
export type WhyResult = WhyAnswer | Unavailable;
export type QueryResult =
  | CallersResult
  | AffectedResult
  | ImpactResult
  | NeighborsResult
  | PathResult
  | GodNodesResult
  | QueryIdsResult
  | WhyResult
  | SymbolResult
  | UnusedResult;

/** The result with `stale`/`changedFiles` added when the caller knows them. */
export function withStaleness<T extends object>(result: T, opts: QueryOptions | undefined): T {
  if (!opts?.staleness) return result;
  return { ...result, stale: opts.staleness.stale, changedFiles: [...opts.staleness.changedFiles] };
}

export function unavailable(code: DegradeCode, reason: string, opts?: QueryOptions, suggestions?: string[]): Unavailable {
  const u: Unavailable = { available: false, reason, code, ...(suggestions ? { suggestions } : {}), evidenceClass: 'GRAPH_DERIVED' };
  return withStaleness(u, opts);
}

/** An answer in contract order (docs/cli.md): `available` first, the fields, then `evidenceClass` (and staleness). */
export function answered<T extends object>(fields: T, opts?: QueryOptions): T & Answered {
  return withStaleness({ available: true as const, ...fields, evidenceClass: 'GRAPH_DERIVED' as const }, opts);
}
