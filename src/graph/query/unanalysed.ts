// What the graph cannot see of a node's referrers (ADR 153), so that "0 callers" or "breaks: false"
// is never a silent zero. Two holes are named, with their counts and reasons, beside the proven
// and guessed lists and never inside them:
//
// - files of types the graph does not read (`.vue`, `.svelte`, `.astro`, `.html`, `.htm`, `.mdx`;
//   graph.json's `unanalysed`): those whose text imports the node's file, directly or through
//   files that re-export from it, when a scan of their text finds any; else how many there are;
// - calls the checker could not place that carry the symbol's name (an `any` receiver, a name with
//   no declaration, beyond the ten guesses a site may list, ADR 6): how many, and why.
//
// A symbol no other file can name (not exported, not a member) gets neither: another file cannot
// reach it by its name.

import { fileId, unresolvedId } from '../ids';
import type { Graph, GraphNode } from '../model';
import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';

/** Files the graph does not read that may use a node (ADR 153). */
export interface UnanalysedReferrers {
  /** The node's file, whose importers were looked for. */
  file: string;
  /**
   * Unanalysed files whose text imports `file`, or a file that re-exports from it: a text scan,
   * a guess — never callers, never proof. Sorted; [] when the scan found none.
   */
  importers: string[];
  /** How many unanalysed files of each type the repository holds, by extension (`.vue`: 2). */
  total: Record<string, number>;
  /** One line for people: "2 .vue files import src/cart.ts, not analysed", or "3 .vue files not analysed". */
  summary: string;
  /** Why this is said, for a tooltip or an agent. */
  reason: string;
}

/** Calls carrying the symbol's name that nothing placed (ADR 153). */
export interface UnresolvedNamed {
  name: string;
  /** UNRESOLVED `calls` edges to `unresolved:<name>`: one per calling symbol. */
  sites: number;
  /** The same, by the reason the resolver gave. */
  reasons: Record<string, number>;
  /** One line for people: "+2 unresolved calls named `stop` (any-receiver)". */
  summary: string;
}

/** Reasons a call may still reach a symbol of its name: a member through `any`, a name with no declaration. */
const MEMBER_REASONS: ReadonlySet<string> = new Set(['any-receiver']);
const NAME_REASONS: ReadonlySet<string> = new Set(['any-receiver', 'no-declaration']);
const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'property']);

interface UnanalysedIndex {
  /** Repository file → the unanalysed files whose text imports it directly. */
  direct: Map<string, string[]>;
  total: Record<string, number>;
  /** Memo: file → importers through re-exports. */
  reach: Map<string, string[]>;
}

const indexes = new WeakMap<IndexedGraph, UnanalysedIndex | null>();

function extensionOf(file: string): string {
  const slash = file.lastIndexOf('/');
  const dot = file.lastIndexOf('.');
  return dot > slash + 1 ? file.slice(dot).toLowerCase() : file.slice(slash + 1);
}

function indexOf(g: IndexedGraph): UnanalysedIndex | null {
  let ix = indexes.get(g);
  if (ix !== undefined) return ix;
  const files = g.graph.unanalysed ?? [];
  if (files.length === 0) ix = null;
  else {
    const direct = new Map<string, string[]>();
    const total: Record<string, number> = {};
    for (const f of files) {
      const ext = extensionOf(f.path);
      total[ext] = (total[ext] ?? 0) + 1;
      for (const to of f.imports ?? []) {
        const list = direct.get(to);
        if (list) list.push(f.path);
        else direct.set(to, [f.path]);
      }
    }
    ix = { direct, total: sortedRecord(total), reach: new Map() };
  }
  indexes.set(g, ix);
  return ix;
}

function sortedRecord(r: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(r).sort()) out[k] = r[k];
  return out;
}

/** The files that re-export from `file`, up the chain (`export *`, `export { x } from`), `file` first. */
function reexporters(g: IndexedGraph, file: string): string[] {
  const out = [file];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    const r = g.rankOf.get(fileId(out[i]));
    if (r === undefined) continue;
    for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
      const e = g.inEdges[k];
      if (g.edgeRelation[e] !== 're-exports') continue;
      const source = g.nodeAt[g.edgeSource[e]]?.sourceFile;
      if (source !== undefined && !seen.has(source)) {
        seen.add(source);
        out.push(source);
      }
    }
  }
  return out;
}

/** "2 .vue files", "1 .svelte file and 2 .vue files". */
function countPhrase(byExt: Record<string, number>): string {
  const parts = Object.entries(byExt)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([ext, n]) => `${n} ${ext} file${n === 1 ? '' : 's'}`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** What the holes need of a node: the graph's node, or the store's row of it. */
export type HoleNode = Pick<GraphNode, 'id' | 'kind' | 'label' | 'sourceFile' | 'exported'>;

/** The file a node's referrers would import, or undefined when no other file can name the node. */
export function fileToImport(n: HoleNode | undefined): string | undefined {
  if (!n || n.sourceFile === undefined) return undefined;
  if (n.kind === 'file') return n.sourceFile;
  if (!n.id.startsWith('sym:')) return undefined;
  if (n.exported !== true && !MEMBER_KINDS.has(n.kind)) return undefined;
  return n.sourceFile;
}

/** What of `r`'s possible referrers lies in files the graph does not read, or undefined when none may. */
function unanalysedReferrers(g: IndexedGraph, r: number): UnanalysedReferrers | undefined {
  const ix = indexOf(g);
  if (ix === null) return undefined;
  const file = fileToImport(g.nodeAt[r]);
  if (file === undefined) return undefined;
  let importers = ix.reach.get(file);
  if (importers === undefined) {
    const set = new Set<string>();
    for (const f of reexporters(g, file)) for (const u of ix.direct.get(f) ?? []) set.add(u);
    importers = [...set].sort();
    ix.reach.set(file, importers);
  }
  return referrersOf(file, importers, ix.total);
}

/** The unanalysed files of a graph (graph.json's `unanalysed`), by extension, in key order. */
export function totalsOf(files: ReadonlyArray<{ path: string }>): Record<string, number> {
  const total: Record<string, number> = {};
  for (const f of files) total[extensionOf(f.path)] = (total[extensionOf(f.path)] ?? 0) + 1;
  return sortedRecord(total);
}

/**
 * The hole of a node in `file`: the unanalysed files whose text imports it (`importers`, sorted)
 * out of all of them (`total`, by extension, not empty).
 */
export function referrersOf(file: string, importers: readonly string[], total: Record<string, number>): UnanalysedReferrers {
  if (importers.length > 0) {
    const byExt: Record<string, number> = {};
    for (const f of importers) byExt[extensionOf(f)] = (byExt[extensionOf(f)] ?? 0) + 1;
    return {
      file,
      importers: [...importers],
      total: { ...total },
      summary: `${countPhrase(byExt)} ${importers.length === 1 ? 'imports' : 'import'} ${file}, not analysed`,
      reason: `The graph does not read ${Object.keys(byExt).sort().join(', ')} files. A scan of their text finds an import of ${file} (or of a file that re-exports from it) in ${importers.join(', ')}: they may use it. A text scan is a guess, so they are not counted as callers, and no count here includes them.`,
    };
  }
  const count = Object.values(total).reduce((a, b) => a + b, 0);
  return {
    file,
    importers: [],
    total: { ...total },
    summary: `${countPhrase(total)} not analysed`,
    reason: `The graph does not read ${Object.keys(total).join(', ')} files, and the repository holds ${count}. A scan of their text finds no import of ${file}, but a text scan is a guess: they may still use it, and no count here includes them.`,
  };
}

/** The `unresolved:` target whose calls may reach symbol `n`, or undefined for a node that is no symbol. */
export function unresolvedTargetOf(n: HoleNode | undefined): string | undefined {
  if (!n || !n.id.startsWith('sym:')) return undefined;
  return unresolvedId(n.label.slice(n.label.lastIndexOf('.') + 1));
}

/** The UNRESOLVED calls carrying the name of symbol `r`, or undefined when there are none. */
function unresolvedNamed(g: IndexedGraph, r: number): UnresolvedNamed | undefined {
  const n = g.nodeAt[r];
  const target = unresolvedTargetOf(n);
  const t = target === undefined ? undefined : g.rankOf.get(target);
  if (t === undefined) return undefined;
  const reasons: string[] = [];
  for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] !== 'calls' || g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED) continue;
    const reason = g.graph.edges[e].reason;
    if (reason !== undefined) reasons.push(reason);
  }
  return unresolvedNamedOf(n as HoleNode, reasons);
}

/**
 * The sources of the UNRESOLVED calls that may reach symbol rank `r` (those `unresolvedNamed`
 * counts: a name or a member reached through the reasons it allows), in source rank order.
 */
export function unresolvedNamedSources(g: IndexedGraph, r: number): number[] {
  const n = g.nodeAt[r];
  const target = unresolvedTargetOf(n);
  const t = target === undefined ? undefined : g.rankOf.get(target);
  if (t === undefined || n === undefined) return [];
  const allowed = MEMBER_KINDS.has(n.kind) ? MEMBER_REASONS : NAME_REASONS;
  const out: number[] = [];
  for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] !== 'calls' || g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED) continue;
    const reason = g.graph.edges[e].reason;
    if (reason !== undefined && allowed.has(reason) && out[out.length - 1] !== g.edgeSource[e]) out.push(g.edgeSource[e]);
  }
  return out;
}

/**
 * The unplaced calls that may reach symbol `n`, from the reasons of the UNRESOLVED `calls` edges
 * into its name's `unresolved:` target: those a member or a name can be reached through.
 */
export function unresolvedNamedOf(n: HoleNode, edgeReasons: readonly string[]): UnresolvedNamed | undefined {
  const name = n.label.slice(n.label.lastIndexOf('.') + 1);
  const allowed = MEMBER_KINDS.has(n.kind) ? MEMBER_REASONS : NAME_REASONS;
  const reasons: Record<string, number> = {};
  let sites = 0;
  for (const reason of edgeReasons) {
    if (!allowed.has(reason)) continue;
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    sites++;
  }
  if (sites === 0) return undefined;
  const why = Object.keys(reasons).sort().join(', ');
  return {
    name,
    sites,
    reasons: sortedRecord(reasons),
    summary: `+${sites} unresolved call${sites === 1 ? '' : 's'} named \`${name}\` (${why})`,
  };
}

/**
 * The few words a callers lens adds (ADR 153): "2 .vue files not analysed" — the importers when the
 * scan found any, else every unanalysed file. The reason says which.
 */
export function shortUnanalysed(u: UnanalysedReferrers): string {
  if (u.importers.length === 0) return `${countPhrase(u.total)} not analysed`;
  const byExt: Record<string, number> = {};
  for (const f of u.importers) byExt[extensionOf(f)] = (byExt[extensionOf(f)] ?? 0) + 1;
  return `${countPhrase(byExt)} not analysed`;
}

/**
 * A "what breaks" answer's count with what it cannot see, for people (ADR 153): "0 proven · 2 .vue
 * files import src/cart.ts, not analysed · +1 unresolved call named `stop` (any-receiver)";
 * undefined when the answer has no hole to name.
 */
function provenWithHoles(
  proven: number,
  holes: { unanalysed?: UnanalysedReferrers; unresolvedNamed?: UnresolvedNamed },
): string | undefined {
  if (!holes.unanalysed && !holes.unresolvedNamed) return undefined;
  return [`${proven} proven`, holes.unanalysed?.summary, holes.unresolvedNamed?.summary].filter((x) => x !== undefined).join(' · ');
}

/** Both holes as optional answer fields, present only when there is something to say. */
export function holesOf(g: IndexedGraph, r: number): { unanalysed?: UnanalysedReferrers; unresolvedNamed?: UnresolvedNamed } {
  const unanalysed = unanalysedReferrers(g, r);
  const named = unresolvedNamed(g, r);
  return { ...(unanalysed ? { unanalysed } : {}), ...(named ? { unresolvedNamed: named } : {}) };
}

/**
 * The line a face prints beside a `callers`, `affected` or `impact` answer (ADR 153): its proven
 * count with what it cannot see; undefined for other answers and answers without a hole.
 */
export function answerHoles(result: object): string | undefined {
  const r = result as {
    available?: boolean;
    unanalysed?: UnanalysedReferrers;
    unresolvedNamed?: UnresolvedNamed;
    callers?: unknown;
    consumers?: unknown;
    blastRadius?: unknown;
  };
  if (r.available !== true || (!r.unanalysed && !r.unresolvedNamed)) return undefined;
  const proven =
    typeof r.blastRadius === 'number'
      ? r.blastRadius
      : Array.isArray(r.consumers)
        ? r.consumers.length
        : Array.isArray(r.callers)
          ? r.callers.length
          : undefined;
  return proven === undefined ? undefined : provenWithHoles(proven, r);
}

/**
 * File → the unanalysed files whose text imports it, directly or through files that re-export
 * from it (the `importers` of `unanalysedReferrers`), for every file of a plain graph: what
 * `kg check` asks of the files a change touched (ADR 153). Files no scan reached are absent.
 */
export function unanalysedImporters(graph: Graph): Map<string, string[]> {
  const direct = new Map<string, Set<string>>();
  for (const f of graph.unanalysed ?? []) {
    for (const to of f.imports ?? []) {
      const set = direct.get(to) ?? new Set<string>();
      set.add(f.path);
      direct.set(to, set);
    }
  }
  if (direct.size === 0) return new Map();
  // Who re-exports from whom, file to file.
  const reexportedBy = new Map<string, Set<string>>();
  const files = new Map<string, string>();
  for (const n of graph.nodes) if (n.kind === 'file' && n.sourceFile !== undefined) files.set(n.id, n.sourceFile);
  for (const e of graph.edges) {
    if (e.relation !== 're-exports') continue;
    const from = files.get(e.source);
    const to = files.get(e.target);
    if (from === undefined || to === undefined) continue;
    const set = reexportedBy.get(to) ?? new Set<string>();
    set.add(from);
    reexportedBy.set(to, set);
  }
  const out = new Map<string, string[]>();
  for (const file of files.values()) {
    const seen = new Set([file]);
    const queue = [file];
    const importers = new Set<string>();
    while (queue.length > 0) {
      const f = queue.shift() as string;
      for (const u of direct.get(f) ?? []) importers.add(u);
      for (const r of reexportedBy.get(f) ?? []) {
        if (!seen.has(r)) {
          seen.add(r);
          queue.push(r);
        }
      }
    }
    if (importers.size > 0) out.set(file, [...importers].sort());
  }
  return out;
}
