// The facts a build keeps per file, as plain types: what the compiler side extracts (imports as
// written and where they led, what call sites left besides proven edges) and what the rationale
// side finds (comment citations of decision records, stamped notes). The manifest
// (files/manifest.ts) persists them so an incremental build can carry an unchanged file's facts;
// it sits below the compiler, so the types it stores live here, at the floor both sides stand on
// (docs/architecture.md, "The compiler boundary"). No compiler, no I/O.

import type { Evidence, GraphEdge, UnresolvedReason, UnresolvedSummary } from '../model';

export type ImportKind = 'import' | 're-export';

/** An import or re-export as written in a file, before module resolution. */
export interface ImportRef {
  specifier: string;
  kind: ImportKind;
  /** `type-only`, `dynamic`, `require`, `import-equals`, `import-type`, `*`, `* as name`. */
  context?: string;
  evidence: Evidence;
  /** How it is written, which decides the resolver's mode (ESM import vs CommonJS require). */
  syntax: ImportSyntax;
}

export type ImportSyntax = 'static' | 'dynamic' | 'require';

/**
 * Where an import led. `absent` marks a package import the resolver found nothing for (not
 * installed): still `external` to the graph, but calls through it have no declaration, so an
 * incremental build must tell it from an installed one (a worktree without `node_modules`).
 */
export type ImportOutcome = { kind: 'file'; path: string } | { kind: 'unresolved'; reason: UnresolvedReason; absent?: true };

/**
 * What a file's sites left besides EXACT edges, kept so an incremental build can replay it for a
 * file it does not resolve again: references only counted, UNRESOLVED sites, and sites waiting
 * for the name index (matched again every build, since names anywhere can change the answer).
 */
export interface Residue {
  counted: UnresolvedSummary;
  sites: ResidueSite[];
}

export interface ResidueSite {
  relation: GraphEdge['relation'];
  source: string;
  name: string;
  member: boolean;
  reason: UnresolvedReason;
  line: number;
  column: number;
  context?: string;
  /** Waiting for the name index rather than UNRESOLVED already. */
  pending?: true;
}

/** A record mention in a comment: the record number, who mentions it, where. */
export interface CommentCitation {
  num: number;
  source: string;
  evidence: Evidence;
}

/** A path-like mention: a link (or link reference definition) destination, or a code span's content. */
export interface MdPathRef {
  kind: 'link' | 'code';
  target: string;
  line: number;
  column: number;
}

/** A note as a file's facts: where it is, what it says, whom it sits on, what it names. */
export interface SourceNote {
  area: string;
  stamp: string;
  /** How many earlier notes of the file have the same area and stamp (the `~index` of the id). */
  index: number;
  /** The symbol (or heading, or record) it sits in or directly above, or its file. */
  anchor: string;
  /** The position of the header's `W`. */
  line: number;
  column: number;
  label: string;
  /** The note's lines, joined with `\n`, bounded by NOTE_TEXT_LIMIT (rationale/notes.ts). */
  text: string;
  /** Link destinations and code spans of the note's text, at their positions in the file. */
  refs: MdPathRef[];
  /** Decision-record mentions in the note's text, at their positions in the file. */
  mentions: Array<{ num: number; line: number; column: number }>;
}

/**
 * What a TypeScript module lets other files see, name by name (ADR 118): the input of the
 * name-level invalidation of an incremental build. Absent for a file whose exports cannot be
 * told apart this way (JavaScript, `export =`, `export as namespace`); such a file falls back to
 * the file-level rule (ADR 55).
 */
export interface FileSurface {
  /**
   * Each name the file exports itself (not through `export *`) → a hash of what an importer can
   * see of it: the declarations it is made of, the local declarations and imports they mention
   * (transitively), and the file's statements that declare nothing (they can change any type).
   * `*` holds the hash of the file's `export *` specifiers: when that changes, every name may.
   * `declare global` holds its global augmentations (`declare global`, `declare module "…"`): when
   * that changes, every file may see something new.
   */
  exports: Record<string, string>;
  /** The names the file takes from its imports, and which of its exported names each reaches. */
  uses: SurfaceUse[];
}

export interface SurfaceUse {
  /** The import, as its index in the file's import references (collectImports order). */
  ref: number;
  /** The imported name (`default` for a default import), or `*` for the whole module. */
  name: string;
  /** The exported names whose hash takes this import in (`*`: every one). */
  reaches: string[] | '*';
  /** An `export *`: the module's changed names pass through, except those the file exports itself. */
  star?: true;
}
