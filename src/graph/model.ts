// The graph's types and closed vocabularies. This file imports nothing, so the engine, the CLI,
// the extension host and the webview (in the browser) can all share it.

export const SCHEMA_VERSION = 1;

/** Kinds of declarations that live under a `sym:` id. */
const SYMBOL_KINDS = ['function', 'class', 'method', 'property', 'interface', 'enum', 'type', 'variable', 'namespace'] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** @public The closed vocabulary of node kinds, for surfaces that list or validate them. */
export const NODE_KINDS = ['module', 'file', ...SYMBOL_KINDS, 'rationale', 'doc-concept'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** A decision record's status: the first word of its `Status:` line (ADR 160). */
export const RECORD_STATUSES = ['accepted', 'proposed', 'amended', 'superseded', 'deprecated', 'rejected'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/**
 * What a record's status line says of another record, carried as the `context` of its `cites`
 * edge to it: this record amends it, supersedes it, is amended by it, is superseded by it (ADR 160).
 */
export type StatusRelation = 'amends' | 'supersedes' | 'amended-by' | 'superseded-by';

export const RELATIONS = [
  'contains',
  'imports',
  're-exports',
  'calls',
  'extends',
  'implements',
  'inherits',
  'overrides',
  'references',
  'cites',
] as const;
export type Relation = (typeof RELATIONS)[number];

export const CONFIDENCES = ['EXACT', 'CANDIDATE', 'UNRESOLVED'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

/**
 * How an edge was established. Closed vocabulary; the doctor rejects anything else.
 * - SYNTAX: read off the parse tree (containment, declarations).
 * - FILE_SYSTEM: derived from the discovered file set (module containment).
 * - MODULE_RESOLUTION: the compiler's module resolver placed an import on a file.
 * - TYPESCRIPT_CHECKER: the type checker resolved the symbol to its declaration (in a package: and
 *   the package's own declaration map placed that declaration in its source, EXACT_TYPECHECKED).
 * - TYPESCRIPT_PROJECT_REFERENCE: the checker resolved the symbol to a declaration file of a
 *   package, and the package's build configuration (package.json types/exports and the tsconfig
 *   that emitted them) maps that file back to a source file (EXACT_PACKAGE_MAPPED; ADR 107).
 * - DECISION_RECORD: a decision record names a path or symbol that exists, or source names a record.
 * - NAME_MATCH: a guess by name (never exact).
 * - NONE: nothing placed the reference (only on UNRESOLVED edges).
 */
export const PROVENANCES = [
  'SYNTAX',
  'FILE_SYSTEM',
  'MODULE_RESOLUTION',
  'TYPESCRIPT_CHECKER',
  'TYPESCRIPT_PROJECT_REFERENCE',
  'DECISION_RECORD',
  'NAME_MATCH',
  'NONE',
] as const;
export type Provenance = (typeof PROVENANCES)[number];

/** Provenances strong enough to back an EXACT edge. */
export const EXACT_PROVENANCES: readonly Provenance[] = [
  'SYNTAX',
  'FILE_SYSTEM',
  'MODULE_RESOLUTION',
  'TYPESCRIPT_CHECKER',
  'TYPESCRIPT_PROJECT_REFERENCE',
  'DECISION_RECORD',
];

/**
 * How the step from a package's declaration file to its source was proven, on edges that took it
 * (ADR 107): by the package's own declaration map (EXACT_TYPECHECKED, with TYPESCRIPT_CHECKER) or
 * by its build configuration (EXACT_PACKAGE_MAPPED, with TYPESCRIPT_PROJECT_REFERENCE).
 */
export const RESOLUTION_CLASSES = ['EXACT_TYPECHECKED', 'EXACT_PACKAGE_MAPPED'] as const;
export type ResolutionClass = (typeof RESOLUTION_CLASSES)[number];

/** The provenance each resolution class goes with. */
export const PROVENANCE_OF_CLASS: Readonly<Record<ResolutionClass, Provenance>> = {
  EXACT_TYPECHECKED: 'TYPESCRIPT_CHECKER',
  EXACT_PACKAGE_MAPPED: 'TYPESCRIPT_PROJECT_REFERENCE',
};

export const RESOLUTIONS = ['EXTRACTED', 'AMBIGUOUS'] as const;
type Resolution = (typeof RESOLUTIONS)[number];

export const EVIDENCE_CLASSES = ['DETERMINISTIC', 'GRAPH_DERIVED', 'HEURISTIC'] as const;
type EvidenceClass = (typeof EVIDENCE_CLASSES)[number];

/** @public The closed vocabulary of layers, for surfaces that list or validate them. */
export const LAYERS = ['calls', 'docs', 'inheritance', 'rationale', 'references', 'structural'] as const;
export type Layer = (typeof LAYERS)[number];

export const LAYER_OF_RELATION: Readonly<Record<Relation, Layer>> = {
  contains: 'structural',
  imports: 'structural',
  're-exports': 'structural',
  references: 'references',
  calls: 'calls',
  extends: 'inheritance',
  implements: 'inheritance',
  inherits: 'inheritance',
  overrides: 'inheritance',
  cites: 'rationale',
};

/**
 * Why a reference stayed unresolved.
 * - any-receiver: the callee's receiver is typed `any`/unknown, so the checker has no member to name.
 * - dynamic-access: the callee is reached by a computed key (`obj[key]()`).
 * - no-declaration: the checker found no declaration for the callee's symbol.
 * - indirect: the callee is a value (parameter, local, field, call result) holding a function the checker cannot name.
 * - local: the checker placed it on a declaration the graph has no node for (inside a function body, an object literal).
 * - external: the declaration lives outside the repository (node_modules, the standard library).
 * - not-found: a relative or aliased import, or a cited path, that resolves to nothing.
 * - excluded: it resolves to a repository file the build does not include (gitignored, skipped).
 * - not-source: it resolves to a repository file that is not source (JSON, CSS, …).
 * - unknown-record: a comment names a decision record that does not exist.
 */
export const UNRESOLVED_REASONS = [
  'any-receiver',
  'dynamic-access',
  'no-declaration',
  'indirect',
  'local',
  'external',
  'not-found',
  'excluded',
  'not-source',
  'unknown-record',
] as const;
export type UnresolvedReason = (typeof UNRESOLVED_REASONS)[number];

export const UNRESOLVED_PREFIX = 'unresolved:';

/** Package-qualified symbols: declared in an installed package, never a node of this graph (ADR 107). */
export const PACKAGE_PREFIX = 'pkg:';

/** A position in a repository file: 1-based line, 1-based UTF-16 column. */
export interface Evidence {
  file: string;
  line: number;
  column: number;
}

export interface GraphNode {
  id: string;
  kind: NodeKind;
  label: string;
  /** Repo-relative POSIX path of the owning file. Absent on `mod:` nodes. */
  sourceFile?: string;
  line?: number;
  column?: number;
  /** Set when several declarations of one name in one file collapsed into this node. */
  declarationCount?: number;
  /** The distinct kinds of the collapsed declarations, sorted, when they differ. */
  symbolKinds?: SymbolKind[];
  /** The lines of the collapsed declarations' names, ascending, when they are on more than one line. */
  declarationLines?: number[];
  /** True for declarations exported from their file. */
  exported?: boolean;
  /** True for a class's static members: they override and implement only static members (ADR 151). */
  static?: boolean;
  /**
   * True for a declaration written with decorators (`@Component class …`, `@Get() list()`): a
   * framework may reach it by convention, so `kg unused` never calls it unused (ADR 157).
   */
  decorated?: boolean;
  /**
   * On `sym:` nodes: 12 hex characters hashing the declared signature (parameters and their
   * types, return type, type parameters, export; never the body), so a later edit can tell a
   * signature change from an implementation change without the old text (docs/graph-format.md).
   */
  signature?: string;
  /**
   * On stamped notes (`rationale:` nodes, ADR 88): the note's text, comment decoration removed,
   * lines joined with `\n`, at most 2000 UTF-16 units (a longer note ends with `…`).
   */
  text?: string;
  /**
   * On decision records (`adr:` nodes): the first word of the record's `Status:` line when it is
   * one of the statuses ADR 160 lists; absent otherwise.
   */
  status?: RecordStatus;
}

export interface GraphEdge {
  source: string;
  target: string;
  relation: Relation;
  confidence: Confidence;
  provenance: Provenance;
  resolution: Resolution;
  evidenceClass: EvidenceClass;
  confidenceScore: number | null;
  /** `ast` on edges read off a parse tree; absent otherwise. */
  tier?: 'ast';
  evidence?: Evidence;
  /** Why an UNRESOLVED edge could not be placed. */
  reason?: UnresolvedReason;
  /** Short extraction context, e.g. `type-only`, `dynamic`, `new`, `jsx`. */
  context?: string;
  /** On edges that stepped from a package's declaration file to its source: how (ADR 107). */
  resolutionClass?: ResolutionClass;
}

/** An installed package that package-qualified targets belong to (ADR 107). */
export interface PackageRef {
  name: string;
  version: string;
}

/** A file or path the build passed over, with why. */
export interface BuildDiagnostic {
  path: string;
  reason: string;
}

/** Counts of unresolved references by relation and reason, including those not listed as edges. */
export type UnresolvedSummary = Partial<Record<Relation, Partial<Record<UnresolvedReason, number>>>>;

/**
 * A repository file of a type the graph does not read (`.vue`, `.svelte`, `.astro`, `.html`,
 * `.htm`, `.mdx`) but which may use its code (ADR 153). `imports`: the graph's files its text
 * names in an import, a `require`, a dynamic import or a `<script src>`, as the module resolver
 * places them — a text scan, a guess: never an edge, never a caller. Sorted, absent when none.
 */
export interface UnanalysedFile {
  path: string;
  imports?: string[];
}

/**
 * A file something outside the code names as a way in (ADR 157): a package.json's `main`,
 * `module`, `browser`, `types`, `exports` or `bin`, a tsconfig's `files`, or a pattern of the
 * repository config's `entries`. `path` is the graph's source file it was placed on; when it could
 * not be placed on one (`unplaced`), `path` is the target as written, resolved against the file
 * that names it. `from` names that file and `field` the key.
 */
export interface EntryFile {
  path: string;
  from: string;
  field: string;
  unplaced?: true;
}

export interface Graph {
  schemaVersion: number;
  graphSignature: string;
  layers: Layer[];
  grammarVersions: Record<string, string>;
  /** The repository this graph describes: its configured name or its package name, never a path (ADR 108). */
  repository?: string;
  /** The packages of the package-qualified targets, sorted by name then version (ADR 107). */
  packages?: PackageRef[];
  unresolved?: UnresolvedSummary;
  diagnostics?: BuildDiagnostic[];
  /** Files of types the graph does not read that may use its code, sorted by path (ADR 153). */
  unanalysed?: UnanalysedFile[];
  /** Files named as ways in, sorted by path, from, field (ADR 157). */
  entries?: EntryFile[];
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** The fixed key order of serialized objects; keys not listed sort after, alphabetically. */
export const GRAPH_KEY_ORDER = [
  'schemaVersion',
  'graphSignature',
  'layers',
  'grammarVersions',
  'repository',
  'packages',
  'unresolved',
  'diagnostics',
  'unanalysed',
  'entries',
  'nodes',
  'edges',
] as const;
export const NODE_KEY_ORDER = [
  'id',
  'kind',
  'label',
  'sourceFile',
  'line',
  'column',
  'declarationCount',
  'symbolKinds',
  'declarationLines',
  'exported',
  'static',
  'decorated',
  'signature',
  'text',
  'status',
] as const;
export const EDGE_KEY_ORDER = [
  'source',
  'target',
  'relation',
  'confidence',
  'provenance',
  'resolution',
  'evidenceClass',
  'confidenceScore',
  'tier',
  'evidence',
  'reason',
  'context',
  'resolutionClass',
] as const;

export const EVIDENCE_KEY_ORDER = ['file', 'line', 'column'] as const;

/** Ordinal string comparison: independent of locale, stable everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return compareStrings(a.source, b.source) || compareStrings(a.target, b.target) || compareStrings(a.relation, b.relation);
}

/** The identity of an edge: one edge per (source, target, relation). NUL cannot occur in an id. */
export function edgeKey(e: Pick<GraphEdge, 'source' | 'target' | 'relation'>): string {
  return `${e.source}\u0000${e.target}\u0000${e.relation}`;
}

export function isUnresolvedId(id: string): boolean {
  return id.startsWith(UNRESOLVED_PREFIX);
}

export function isPackageId(id: string): boolean {
  return id.startsWith(PACKAGE_PREFIX);
}

// ---------------------------------------------------------------------------------------------
// A JavaScript file's CommonJS exports as `kg tests` reads them from its text (ADR 196): the
// compiler room reads them (indexer/compiler/commonjs-exports.ts), the walk uses them.

/** A top-level statement that puts a value under `module.exports`. */
export interface CommonJsBinding {
  /** The exported name's path: [] for `module.exports` itself, [x] for `module.exports.x`. */
  path: string[];
  /** `function`: a function or arrow written there; `identifier`: a name; `require`: `require('…')`. */
  value: 'function' | 'identifier' | 'require' | 'other';
  /** The identifier's name (`identifier`). */
  name?: string;
  /** The required specifier (`require`, or an identifier a top-level `var x = require('…')` binds). */
  specifier?: string;
  /** The statement, 1-based [line, column] of its first and last character. */
  from: [number, number];
  to: [number, number];
}

export interface CommonJsExports {
  bindings: CommonJsBinding[];
  /**
   * Each name (identifier or string literal) the file's own code holds (outside every declaration
   * the graph has a node for), with where: 1-based line and column, and the index of the binding
   * statement it is in (-1: elsewhere; -2: the object a binding adds to, `a` of `a.x = …`).
   */
  uses: Record<string, Array<[line: number, column: number, binding: number]>>;
  /**
   * Every `require('…')` call's (and ES import's) specifier, and whether it is recognized: a
   * binding's value, or a top-level `var x = require('…')` whose `x` is used only as `x.member`
   * (not `call`, `apply` or `bind`) or `x(…)`; `name`, that `x`; `membersOnly` when never as
   * `x(…)` either.
   */
  requires: Array<{ specifier: string; recognized: boolean; name?: string; membersOnly?: true }>;
  /** A declaration file's `export = Name`. */
  exportAssigned?: string;
}
