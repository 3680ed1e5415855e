// The incremental build (ADR 54: one pipeline; ADR 55: what a change can affect). It runs the one build
// pipeline of builder.ts and only changes where each file's facts come from. A file whose bytes
// and owning project are unchanged since the manifest was written, and which no change can
// affect, has its facts carried forward: its nodes and proven edges from the previous graph.json,
// its import references, comment citations and unresolved residue from the manifest (replayed, so
// names and records elsewhere still decide their answer). Every other file is parsed and, in the
// resolution tier, resolved again by the checker. What every build derives again stays derived:
// discovery, modules, every import's resolution, rationale from markdown, name matches,
// diagnostics. The result is the full build's, byte for byte; the equivalence property test holds
// it to that.
//
// Which files a change can affect (resolution tier): a file's call sites resolve through what the
// files it imports let it see. A changed file is resolved again; when its shape — what other files
// can see of it (shape.ts) — changed, its surface (surface.ts) says which exported names did, and
// only the files that take one of those names (or the whole module: a namespace import, `export *`,
// a dynamic import) are resolved again, going on to their importers only with the names of their
// own that the changed ones reach (ADR 118). A file without a surface (JavaScript, `export =`) is
// judged by the file-level rule of ADR 55: every name it exports may have changed. A deleted file,
// or one whose imports now lead elsewhere, changes every name. A change to a file that declares
// globals makes every file resolve again.
//
// It throws rather than shrink: a changed file that had symbols and now yields nothing readable
// is a suspected parse failure, not a deletion.

import { GraphError } from '../../errors';
import { fileOfId } from '../../ids';
import { compareStrings, type Graph, type GraphEdge, type GraphNode } from '../../model';
import { serializeGraph } from '../../io/canonical';
import {
  buildGraph,
  type BuildOptions,
  type BuildResult,
  type BuildSink,
  type CarriedFacts,
  type FactReuse,
  type SourceInput,
} from './builder';
import type { Discovery, Project } from './discover';
import type { ProgramStore } from './program';
import { NativeChecker } from './native-checker';
import { collectImports, parseSource, type ImportRef } from './extract';
import { nodeFileHost } from '../files/file-host';
import type { ReadCache } from '../files/read';
import { ResolutionMemo, type ImportOutcome, type ModuleResolver } from './imports';
import {
  MANIFEST_VERSION,
  UNREADABLE,
  compareFingerprints,
  fromManifestCites,
  fromManifestImports,
  hashInputs,
  importTarget,
  manifestMismatch,
  parseManifest,
  sameJson,
  serializeManifest,
  sha256Hex,
  toManifestCites,
  toManifestImports,
  type Manifest,
  type ManifestOptions,
} from '../files/manifest';
import { buildInputPaths, engineOf } from './inputs';
import { ReusedBytes } from '../../io/reused-bytes';
import { isSyntaxErrorReason } from './screen';
import type { FileShape } from './shape';
import { GLOBAL_PART, shapeAndSurface } from './surface';
import type { FileSurface } from '../facts';

/** What is on disk from the last build: raw texts, absent when the file does not exist. */
export interface PreviousBuild {
  graphText?: string;
  manifestText?: string;
  /**
   * The same graph and manifest already parsed, from the build that wrote those texts (a session
   * keeps them): neither is parsed again, nor the manifest's hash of the graph checked again.
   */
  parsed?: { graph: Graph; manifest: Manifest };
  /**
   * SHA-256 of the bytes `graphText` was decoded from, when the reader hashed them and checked they
   * are UTF-8 (so the text encodes back to them): hashing a large text means encoding it again.
   */
  graphSha256?: string;
}

export interface TrackedBuildOptions extends BuildOptions {
  /** The last build's graph.json and manifest; without them the build is a full one. */
  previous?: PreviousBuild;
  /** Force a full build even when a valid manifest exists. */
  full?: boolean;
  /**
   * Serialized lines of node and edge objects, and of manifest file records, from earlier builds
   * (see `serializeGraph` and `serializeManifest`).
   */
  lines?: WeakMap<object, string>;
  /**
   * Where the graph's bytes are encoded (a build session keeps one buffer from build to build, ADR
   * 133); `bytes` is then a view of it, valid until the encoder's next build. Without it, a new buffer.
   */
  encoder?: ReusedBytes;
  /**
   * Which checker resolves calls when no `checker` provider is given: `js` (the default) or
   * `native` (TypeScript 7, started for this build and ended after it; ADR 113).
   */
  backend?: CheckerChoice;
  /**
   * How importers of a changed file are chosen: `names` (the default, ADR 118) or `files`, the
   * file-level rule of ADR 55 for every file — what the benchmark compares against.
   */
  invalidation?: 'names' | 'files';
}

export type CheckerChoice = 'js' | 'native';

interface BuildDelta {
  changed: string[];
  added: string[];
  deleted: string[];
  /** Files parsed (and, in the resolution tier, resolved) by this build. */
  extracted: number;
  /** Files whose facts were carried forward. */
  carried: number;
  /**
   * For an incremental build, how it chose the files to resolve again (ADR 118): name by name,
   * and the changed or reached files the file-level rule judged instead (no surface), sorted.
   */
  invalidation?: { byFile: string[] };
}

export interface TrackedBuildResult extends BuildResult {
  /** graph.json's bytes. */
  text: string;
  /**
   * `Buffer.from(text)`, when the text is new: encoded once, for the manifest's hash and for the
   * caller that writes it (commitGeneration, the diff cache). Encoding 12 MB costs more than hashing it.
   * With `encoder`, a view of its buffer that the next build with the same encoder overwrites.
   */
  bytes?: Buffer;
  manifest: Manifest;
  manifestText: string;
  mode: 'full' | 'incremental';
  /** For a full build, why it was not incremental (undefined when there was never a graph). */
  fullReason?: string;
  delta: BuildDelta;
}

/**
 * Edges a carried file keeps from the previous graph: containment, and the proven (EXACT) calls,
 * references and heritage. Imports are resolved again; cites and the unresolved rest are replayed from the
 * manifest; module edges are derived from the file set.
 */
function carriedEdge(e: GraphEdge): boolean {
  if (e.source.startsWith('mod:')) return false;
  // Stamped notes are emitted by the rationale layer from the manifest every build (ADR 88).
  if (e.source.startsWith(NOTE_PREFIX) || e.target.startsWith(NOTE_PREFIX)) return false;
  switch (e.relation) {
    case 'imports':
    case 're-exports':
    case 'cites':
      return false;
    case 'calls':
    case 'extends':
    case 'references':
      return e.confidence === 'EXACT';
    case 'implements':
      // A member's `implements` is derived again from the heritage every build (ADR 151); a
      // class's own, read off its heritage clause, is carried.
      return e.confidence === 'EXACT' && e.tier === 'ast';
    case 'overrides':
      return false;
    default:
      return true;
  }
}

interface PreviousFacts {
  manifest: Manifest;
  nodesByFile: Map<string, GraphNode[]>;
  edgesByFile: Map<string, GraphEdge[]>;
  /** The screen's syntax-error reason of each file that had one (ADR 75). */
  syntaxByFile: Map<string, string>;
}

/** The previous build's facts by owning file, or why they cannot be used. */
function loadPrevious(prev: PreviousBuild | undefined, options: ManifestOptions): PreviousFacts | { problem?: string } {
  if (prev?.graphText === undefined) return {};
  if (prev.manifestText === undefined) return { problem: 'no manifest beside graph.json' };
  const parsed = prev.parsed ? { manifest: prev.parsed.manifest } : parseManifest(prev.manifestText);
  if ('problem' in parsed) return { problem: parsed.problem };
  const described = prev.parsed ? undefined : prev.graphSha256 !== undefined ? { sha256: prev.graphSha256 } : prev.graphText;
  const mismatch = manifestMismatch(parsed.manifest, described, options, engineOf());
  if (mismatch) return { problem: mismatch };
  let graph: Graph;
  try {
    graph = prev.parsed?.graph ?? (JSON.parse(prev.graphText) as Graph);
  } catch {
    return { problem: 'graph.json is not valid JSON' };
  }
  if (!Array.isArray(graph?.nodes) || !Array.isArray(graph?.edges)) return { problem: 'graph.json has no node or edge list' };
  const files = parsed.manifest.files;
  const nodesByFile = new Map<string, GraphNode[]>();
  const ownerOf = new Map<string, string>();
  for (const n of graph.nodes) {
    if (n.sourceFile === undefined) continue;
    ownerOf.set(n.id, n.sourceFile);
    if (files[n.sourceFile] === undefined || n.id.startsWith(NOTE_PREFIX)) continue;
    const list = nodesByFile.get(n.sourceFile) ?? [];
    list.push(n);
    nodesByFile.set(n.sourceFile, list);
  }
  const edgesByFile = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) {
    if (!carriedEdge(e)) continue;
    const owner = ownerOf.get(e.source) ?? fileOfId(e.source);
    if (owner === undefined) return { problem: `graph.json has an edge no file owns (${e.source} --${e.relation}--> ${e.target})` };
    if (files[owner] === undefined) continue;
    const list = edgesByFile.get(owner) ?? [];
    list.push(e);
    edgesByFile.set(owner, list);
  }
  for (const f of Object.keys(files)) {
    if (!nodesByFile.get(f)?.some((n) => n.kind === 'file')) return { problem: `the manifest lists ${f}, which graph.json does not hold` };
  }
  const syntaxByFile = new Map<string, string>();
  for (const x of graph.diagnostics ?? []) if (isSyntaxErrorReason(x.reason)) syntaxByFile.set(x.path, x.reason);
  return { manifest: parsed.manifest, nodesByFile, edgesByFile, syntaxByFile };
}

/** The files the last build's manifest lists, when it can be read at all. */
function lastFiles(p: PreviousBuild | undefined): Manifest['files'] {
  if (p?.parsed) return p.parsed.manifest.files;
  if (p?.manifestText === undefined) return {};
  const r = parseManifest(p.manifestText);
  return 'manifest' in r ? r.manifest.files : {};
}

/** The id prefix of stamped notes (ADR 88): facts of a file, but not its symbols. */
const NOTE_PREFIX = 'rationale:';
const symbolCount = (nodes: readonly GraphNode[] | undefined) => (nodes ?? []).filter((n) => n.kind !== 'file').length;

const outcomeKey = (o: ImportOutcome): string => (o.kind === 'file' ? o.path : '!' + o.reason);

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** What the resolution tier must do again: the files to resolve, or why everything must be. */
interface ResolutionPlan {
  resolve: Set<string>;
  /** New shapes of changed files (the others keep the manifest's). */
  shapes: Map<string, FileShape>;
  everything?: string;
  /** Files whose change the file-level rule judged (no surface: JavaScript, `export =`, …), sorted. */
  byFile: string[];
  /** Where each file's imports lead now, by reference index (`!reason` for none). */
  targets: Map<string, string[]>;
}

/** Which exported names of a file changed: some, or every one. */
type Changed = Set<string> | 'all';

/** The exported names whose hash differs between two surfaces; `all` when the `export *` set changed. */
function changedNames(was: FileSurface, now: FileSurface): Changed {
  const a = was.exports;
  const b = now.exports;
  if (a['*'] !== b['*']) return 'all';
  const out = new Set<string>();
  for (const k of Object.keys(a)) if (!Object.hasOwn(b, k) || a[k] !== b[k]) out.add(k);
  for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) out.add(k);
  return out;
}

/** An import as the resolver sees it: the same key in two versions of a file is the same request. */
const requestKey = (r: { specifier: string; kind: string; context?: string; syntax: string }) =>
  `${r.kind}|${r.syntax}|${r.context ?? ''}|${r.specifier}`;

/** The global files a program of `files` holds: those files and what they reach through imports, if global. */
function reachedGlobals(files: readonly string[], targetsOf: (f: string) => readonly string[], isGlobal: (f: string) => boolean): string[] {
  const reached = new Set(files);
  const queue = [...files];
  while (queue.length > 0) {
    for (const t of targetsOf(queue.pop() as string)) {
      if (t.startsWith('!') || reached.has(t)) continue;
      reached.add(t);
      queue.push(t);
    }
  }
  return [...reached].filter(isGlobal).sort(compareStrings);
}

function planResolution(
  prev: PreviousFacts,
  inputs: readonly SourceInput[],
  resolver: ModuleResolver,
  root: string,
  dirty: ReadonlySet<string>,
  byName: boolean,
): ResolutionPlan {
  const old = prev.manifest.files;
  const present = new Set(inputs.map((i) => i.path));
  const deleted = Object.keys(old).filter((f) => !present.has(f));
  const shapes = new Map<string, FileShape>();
  const refs = new Map<string, ImportRef[]>();
  for (const input of inputs) {
    if (!dirty.has(input.path)) continue;
    const abs = root + '/' + input.path;
    const sf = parseSource(abs, input.text, resolver.impliedFormat(input.project, abs));
    const mine = collectImports(sf, input.path);
    refs.set(input.path, mine);
    shapes.set(input.path, shapeAndSurface(sf, mine));
  }
  // Where every file's imports lead now (by reference index), against where they led.
  const targets = new Map<string, string[]>();
  const importers = new Map<string, Set<string>>();
  const link = (from: string, to: string) => {
    if (to.startsWith('!')) return;
    const set = importers.get(to) ?? new Set<string>();
    set.add(from);
    importers.set(to, set);
  };
  for (const [f, e] of Object.entries(old)) for (const m of e.imports) link(f, importTarget(m));
  const redirected: string[] = [];
  /** Files whose imports now lead elsewhere: every name they export may mean something else. */
  const moved = new Set<string>();
  for (const input of inputs) {
    const mine = refs.get(input.path) ?? fromManifestImports(input.path, old[input.path].imports);
    const now = mine.map((r) => outcomeKey(resolver.resolve(input.project, input.path, r)));
    targets.set(input.path, now);
    for (const t of now) link(input.path, t);
    const before = old[input.path];
    if (!before) continue;
    if (!dirty.has(input.path)) {
      if (!sameList(now, before.imports.map(importTarget))) {
        redirected.push(input.path);
        moved.add(input.path);
      }
      continue;
    }
    // A changed file: an import it still makes, as it made it, that leads elsewhere now.
    const was = new Map(before.imports.map((m) => [requestKey(m), importTarget(m)]));
    if (mine.some((r, i) => was.has(requestKey(r)) && was.get(requestKey(r)) !== now[i])) moved.add(input.path);
  }
  // What other files may now see differently.
  const seeds = new Set<string>([...deleted, ...redirected]);
  for (const f of dirty) if (old[f]?.shape !== shapes.get(f)?.shape) seeds.add(f);
  const resolve = new Set<string>([...dirty, ...redirected]);
  const everything = (f: string, why = 'declares globals and changed'): ResolutionPlan => ({
    resolve,
    shapes,
    everything: `${f} ${why}`,
    byFile: [],
    targets,
  });
  // The global files each project's program holds, before and now: one that comes or goes
  // reaches every file of the project, whether or not it changed.
  const projects = new Map<string, string[]>();
  for (const input of inputs) if (!projects.has(input.project.configPath)) projects.set(input.project.configPath, input.project.files);
  for (const [config, files] of [...projects].sort((a, b) => compareStrings(a[0], b[0]))) {
    const was = reachedGlobals(
      files.filter((f) => old[f] !== undefined),
      (f) => old[f]?.imports.map(importTarget) ?? [],
      (f) => !!old[f]?.global,
    );
    const now = reachedGlobals(
      files.filter((f) => present.has(f)),
      (f) => (targets.get(f) ?? []).filter((t) => present.has(t)),
      (f) => (shapes.get(f) ?? { global: !!old[f]?.global }).global,
    );
    const where = config || 'the files outside every tsconfig';
    const came = now.find((f) => !was.includes(f));
    if (came) return everything(came, `declares globals and is now in the program of ${where}`);
    const went = was.find((f) => !now.includes(f));
    if (went) return everything(went, `declares globals and is no longer in the program of ${where}`);
  }
  for (const f of [...seeds].sort(compareStrings)) {
    if (!old[f]?.global && !shapes.get(f)?.global) continue;
    // A module with global augmentations, both before and after: its surface says whether they changed.
    if (byName && dirty.has(f) && old[f]?.surface && shapes.get(f)?.surface) continue;
    return everything(f);
  }

  // Which exported names changed where, spread name by name to the files that take them (ADR 118).
  const changed = new Map<string, Changed>();
  const byFile = new Set<string>();
  const queue: string[] = [];
  const grow = (f: string, names: Iterable<string> | 'all') => {
    const cur = changed.get(f);
    if (cur === 'all') return;
    if (names === 'all') {
      changed.set(f, 'all');
      queue.push(f);
      return;
    }
    const set = cur ?? new Set<string>();
    let grew = false;
    for (const n of names) {
      if (set.has(n)) continue;
      set.add(n);
      grew = true;
    }
    if (!grew) return;
    changed.set(f, set);
    queue.push(f);
  };
  const surfaceOf = (f: string): FileSurface | undefined => (!byName ? undefined : dirty.has(f) ? shapes.get(f)?.surface : old[f]?.surface);
  for (const f of [...deleted, ...moved]) grow(f, 'all');
  for (const f of dirty) {
    const was = old[f];
    const now = shapes.get(f);
    // A new file: no file took a name from it before (one that does now has been redirected).
    if (!was || !now || was.shape === now.shape) continue;
    if (byName && was.surface && now.surface) grow(f, changedNames(was.surface, now.surface));
    else {
      byFile.add(f);
      grow(f, 'all');
    }
  }
  while (queue.length > 0) {
    const f = queue.pop() as string;
    const names = changed.get(f) as Changed;
    for (const g of importers.get(f) ?? []) {
      const to = targets.get(g);
      if (!to) continue;
      const surface = surfaceOf(g);
      if (!surface) {
        // The file-level rule: it resolves again, and every name it exports may have changed.
        if (!to.includes(f)) continue;
        resolve.add(g);
        byFile.add(g);
        grow(g, 'all');
        continue;
      }
      for (const u of surface.uses) {
        if (to[u.ref] !== f) continue;
        if (u.star) {
          // `export *` passes on what it does not shadow, never a default.
          const pass = names === 'all' ? 'all' : [...names].filter((n) => n !== 'default' && !Object.hasOwn(surface.exports, n));
          if (pass === 'all' || pass.length > 0) {
            resolve.add(g);
            grow(g, pass);
          }
        } else if (names === 'all' || u.name === '*' || names.has(u.name)) {
          resolve.add(g);
          grow(g, u.reaches);
        }
      }
    }
  }
  for (const [f, names] of [...changed].sort((a, b) => compareStrings(a[0], b[0]))) {
    const global = old[f]?.global || shapes.get(f)?.global;
    if (global && (names === 'all' || names.has(GLOBAL_PART))) return everything(f);
  }
  return { resolve, shapes, byFile: [...byFile].sort(compareStrings), targets };
}

/**
 * Builds the graph, incrementally when `previous` holds a graph and a manifest that describes
 * it, fully otherwise, and returns the graph's bytes and its manifest.
 */
export function buildTracked(options: TrackedBuildOptions): TrackedBuildResult {
  const host = options.host ?? nodeFileHost;
  const manifestOptions: ManifestOptions = { extractOnly: !!options.extractOnly, listExternal: !!options.listExternal };
  const loaded = options.full ? { problem: 'a full build was asked for (--full)' } : loadPrevious(options.previous, manifestOptions);
  const prev = 'manifest' in loaded ? loaded : undefined;
  let fullReason = 'problem' in loaded ? loaded.problem : undefined;

  let discovery: Discovery | undefined;
  let inputs: readonly SourceInput[] = [];
  let inputHashes: Record<string, string> = {};
  let inputPaths: string[] = [];
  let documents: Record<string, string> = {};
  let reuseOn = prev !== undefined;
  let plan: ResolutionPlan | undefined;
  const reuse: FactReuse = {
    // Only a graph this process composed: its signature was hashed, not read from a file (ADR 127).
    lastGraph: prev ? options.previous?.parsed?.graph : undefined,
    begin(d, read, resolver) {
      discovery = d;
      inputs = read;
      inputPaths = buildInputPaths(host, d);
      inputHashes = hashInputs(host, d.root, inputPaths);
      // Markdown, and the files the graph does not read but scans for what they import (ADR 153).
      documents = hashInputs(host, d.root, [...d.markdownFiles, ...d.unanalysedFiles].sort(compareStrings));
      if (!prev) return;
      const moved = compareFingerprints(prev.manifest.inputs, inputHashes).changedFiles;
      if (moved.length > 0) {
        reuseOn = false;
        fullReason = `${moved.slice(0, 3).join(', ')}${moved.length > 3 ? ` and ${moved.length - 3} more` : ''} changed`;
        return;
      }
      const dirty = new Set<string>();
      for (const i of read) {
        const before = prev.manifest.files[i.path];
        if (!before || before.sha256 !== i.sha256 || before.project !== i.project.configPath) dirty.add(i.path);
      }
      plan = manifestOptions.extractOnly
        ? { resolve: dirty, shapes: new Map(), byFile: [], targets: new Map() }
        : planResolution(prev, read, resolver, d.root, dirty, options.invalidation !== 'files');
      if (plan.everything) {
        reuseOn = false;
        fullReason = plan.everything;
      }
    },
    carry(input): CarriedFacts | undefined {
      if (!reuseOn || !prev || !plan || plan.resolve.has(input.path)) return undefined;
      const before = prev.manifest.files[input.path];
      if (!before || before.sha256 !== input.sha256 || before.project !== input.project.configPath) return undefined;
      return {
        nodes: prev.nodesByFile.get(input.path) ?? [],
        edges: prev.edgesByFile.get(input.path) ?? [],
        imports: fromManifestImports(input.path, before.imports),
        cites: fromManifestCites(input.path, before.cites),
        notes: before.notes ?? [],
        residue: before.residue,
        shape: {
          shape: before.shape,
          global: !!before.global,
          ...(before.surface ? { surface: before.surface } : {}),
          ...(before.blank ? { blank: before.blank } : {}),
        },
      };
    },
    blankable(input): readonly number[] | undefined {
      // A carried file's recorded bodies, for its bytes as they were recorded (ADR 129).
      if (!reuseOn || !prev || !plan || plan.resolve.has(input.path)) return undefined;
      const before = prev.manifest.files[input.path];
      return before && before.sha256 === input.sha256 && before.project === input.project.configPath ? before.blank : undefined;
    },
    extraRoots(project: Project): string[] {
      // The global files a full build's program of the project holds: its own, and those its
      // files reach through imports (a script imported from elsewhere declares into every file).
      const present = new Set(inputs.map((i) => i.path));
      return reachedGlobals(
        project.files.filter((f) => present.has(f)),
        (f) => (plan?.targets.get(f) ?? []).filter((t) => present.has(t)),
        (f) => (plan?.shapes.get(f) ?? { global: !!prev?.manifest.files[f]?.global }).global,
      );
    },
  };
  // An unchanged file's screen verdict is on record: it was accepted, with the syntax errors the
  // last graph lists for it (ADR 75). The verdict depends on the text alone, so it still holds.
  const screened = (input: SourceInput) =>
    prev && prev.manifest.files[input.path]?.sha256 === input.sha256 ? { syntax: prev.syntaxByFile.get(input.path) } : undefined;
  const native = !options.checker && options.backend === 'native' && !options.extractOnly ? new NativeChecker() : undefined;
  let result: BuildResult;
  try {
    result = buildGraph({ ...options, checker: options.checker ?? native, reuse, screened });
  } finally {
    native?.close();
  }
  const d = discovery as Discovery;

  // Throw rather than shrink: a file that is still there, had symbols, and now yields none —
  // whenever there is a trusted previous graph, even if something else made this build full.
  if (prev) {
    const present = new Set(d.sourceFiles);
    const read = new Map(inputs.map((i) => [i.path, i]));
    const nowSymbols = new Map<string, number>();
    for (const n of result.graph.nodes)
      if (n.kind !== 'file' && n.sourceFile !== undefined && !n.id.startsWith(NOTE_PREFIX))
        nowSymbols.set(n.sourceFile, (nowSymbols.get(n.sourceFile) ?? 0) + 1);
    for (const f of Object.keys(prev.manifest.files).sort(compareStrings)) {
      const had = symbolCount(prev.nodesByFile.get(f));
      if (had === 0 || !present.has(f)) continue;
      const input = read.get(f);
      if (!input) {
        const why = result.graph.diagnostics?.find((x) => x.path === f)?.reason ?? 'it was not read';
        throw new GraphError(
          'SUSPECTED_PARSE_FAILURE',
          `${f} had ${had} symbol${had === 1 ? '' : 's'} and now yields none (${why}); the graph is left as it was — fix the file, or run a full build (--full) to accept the loss`,
        );
      }
      if (input.sha256 === prev.manifest.files[f].sha256) continue;
      const now = nowSymbols.get(f) ?? 0;
      if (now >= had) continue;
      // Fewer symbols is an edit — unless the file no longer parses: then the parser may have
      // swallowed them, and the loss is a suspected parse failure (ADR 75).
      const syntax = result.graph.diagnostics?.find((x) => x.path === f && isSyntaxErrorReason(x.reason))?.reason;
      const blank = now === 0 && input.text.trim() === '';
      if (blank || syntax) {
        throw new GraphError(
          'SUSPECTED_PARSE_FAILURE',
          `${f} had ${had} symbol${had === 1 ? '' : 's'} and now yields ${now === 0 ? 'none' : now} (${blank ? 'the file is empty' : `it has ${syntax}`}); suspected parse failure, not a deletion — the graph is left as it was. Fix the file, or run a full build (--full) to accept it`,
        );
      }
    }
  }

  // An input that changed while the build read it is recorded as unreadable, so the next build is full.
  const after = hashInputs(host, d.root, inputPaths);
  for (const p of inputPaths) if (after[p] !== inputHashes[p]) inputHashes[p] = UNREADABLE;

  // The session's own last graph was serialized by this function, so a graph that serializes part
  // for part as it does is those bytes; and bytes equal to the last graph's are kept as that string,
  // so the caller's comparisons with what it read are by identity (ADR 127).
  const last = options.previous;
  const own =
    prev && last?.parsed && last.graphText !== undefined && last.manifestText !== undefined
      ? { parsed: last.parsed, graphText: last.graphText, manifestText: last.manifestText }
      : undefined;
  const serialized = serializeGraph(result.graph, options.lines, own && { graph: own.parsed.graph, text: own.graphText });
  const sameGraph = prev !== undefined && serialized === last?.graphText;
  const text = sameGraph ? (last?.graphText as string) : serialized;
  // Encoded once, for the hash and for a caller that writes them (a large text costs more to encode than to hash).
  const bytes = sameGraph ? undefined : options.encoder ? options.encoder.encode(text) : Buffer.from(text, 'utf8');
  const files: Manifest['files'] = {};
  for (const f of result.files) {
    const entry: Manifest['files'][string] = {
      sha256: f.sha256,
      project: f.project,
      shape: f.shape.shape,
      ...(f.shape.global ? { global: true as const } : {}),
      ...(f.shape.surface ? { surface: f.shape.surface } : {}),
      ...(f.shape.blank ? { blank: f.shape.blank } : {}),
      imports: toManifestImports(f.imports, f.outcomes),
      cites: toManifestCites(f.cites),
      ...(f.notes.length > 0 ? { notes: f.notes } : {}),
      residue: f.residue,
    };
    // A record equal to the last build's is that record: a carried file's surface, notes and
    // residue are the last record's own objects, so the comparison is mostly by identity, and the
    // serialized record is found in `lines` (serializeManifest).
    const before = prev?.manifest.files[f.path];
    files[f.path] = before !== undefined && before.sha256 === entry.sha256 && sameJson(before, entry) ? before : entry;
  }
  const manifest: Manifest = {
    manifestVersion: MANIFEST_VERSION,
    engine: engineOf(),
    options: manifestOptions,
    // The same bytes as the last graph, whose manifest was trusted: its hash is known (a build with
    // nothing changed would otherwise hash the whole graph again).
    graphSha256: sameGraph && prev ? prev.manifest.graphSha256 : sha256Hex(bytes ?? text),
    inputs: inputHashes,
    documents,
    skipped: d.sourceFiles.filter((f) => files[f] === undefined),
    outputDirs: d.outputDirs,
    files,
  };
  const manifestBytes = serializeManifest(manifest, own && { manifest: own.parsed.manifest, text: own.manifestText }, options.lines);
  // A new graph text has a new hash in its manifest: the texts differ without comparing 6 MB.
  const manifestText = prev && sameGraph && manifestBytes === last?.manifestText ? last.manifestText : manifestBytes;
  // The delta is against the last build whenever its manifest can be read, even for a full build.
  const before: Record<string, string> = {};
  for (const [f, e] of Object.entries(prev?.manifest.files ?? lastFiles(options.previous))) before[f] = e.sha256;
  const now: Record<string, string> = {};
  for (const f of result.files) now[f.path] = f.sha256;
  const diff = compareFingerprints(before, now);
  const carried = result.files.filter((f) => f.carried).length;
  return {
    ...result,
    text,
    ...(bytes ? { bytes } : {}),
    manifest,
    manifestText,
    mode: prev && reuseOn ? 'incremental' : 'full',
    fullReason: prev && reuseOn ? undefined : fullReason,
    delta: {
      changed: diff.changed,
      added: diff.added,
      deleted: diff.deleted,
      extracted: result.files.length - carried,
      carried,
      ...(prev && reuseOn && plan ? { invalidation: { byFile: plan.byFile } } : {}),
    },
  };
}

/**
 * A build kept alive between rebuilds (the extension's build on save). It keeps the last graph and
 * manifest in memory, and every project's program with its parsed files, so a rebuild after an
 * edit neither reads the graph back nor parses or binds unchanged files: the compiler reuses them.
 * Outside the engine it is the facade's BuildSession (src/graph/index.ts), which loads this side lazily.
 */
export class CompilerSession {
  private previous: PreviousBuild | undefined;
  private readonly store: ProgramStore = { programs: new Map(), files: new Map() };
  private readonly lines = new WeakMap<object, string>();
  /** graph.json's bytes are encoded into one buffer from build to build (ADR 133). */
  private readonly encoder = new ReusedBytes();
  /** The text and hash of every file as last read, by stamp, so an unchanged file is not read again (ADR 120). */
  private readonly reads: ReadCache = new Map();
  /** Import outcomes, taken by the next build while nothing they were decided on changed (ADR 134). */
  private readonly resolutions = new ResolutionMemo();
  /** TypeScript 7's process and snapshot, kept between rebuilds like the programs (ADR 115). */
  private readonly native: NativeChecker | undefined;

  constructor(private readonly options: Omit<TrackedBuildOptions, 'full' | 'programs' | 'reads'>) {
    this.previous = options.previous;
    this.native = options.backend === 'native' && !options.extractOnly && !options.checker ? new NativeChecker({ keep: true }) : undefined;
  }

  /** Ends what the session keeps outside this process (TypeScript 7's checker). */
  close(): void {
    this.native?.close();
  }

  /**
   * Builds incrementally from the last result (or from `options.previous` the first time). `sink`
   * replaces the session's own for this build (a build server reports to each request's client).
   */
  rebuild(opts: { full?: boolean; sink?: BuildSink } = {}): TrackedBuildResult {
    const result = buildTracked({
      ...this.options,
      sink: opts.sink ?? this.options.sink,
      previous: this.previous,
      full: opts.full,
      programs: this.store,
      reads: this.reads,
      lines: this.lines,
      encoder: this.encoder,
      resolutions: this.resolutions,
      checker: this.options.checker ?? this.native,
    });
    this.previous = {
      graphText: result.text,
      manifestText: result.manifestText,
      parsed: { graph: result.graph, manifest: result.manifest },
    };
    return result;
  }

  /**
   * Takes what is on disk as the previous build unless it is what this session last built (another
   * process may have written the graph since); programs and parsed files stay either way.
   */
  sync(onDisk: PreviousBuild): void {
    if (onDisk.graphText !== this.previous?.graphText || onDisk.manifestText !== this.previous?.manifestText) this.previous = onDisk;
  }

  /** A full build that leaves every project's program in the session, so later rebuilds are warm. */
  warm(): TrackedBuildResult {
    return this.rebuild({ full: true });
  }
}
