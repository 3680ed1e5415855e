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
// Which files a change can affect (resolution tier): resolution-plan.ts. The previous build's
// facts, by owning file: previous-facts.ts.
//
// It throws rather than shrink: a changed file that had symbols and now yields nothing readable
// is a suspected parse failure, not a deletion.

import { GraphError } from '../../errors';
import { compareStrings, type Graph } from '../../model';
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
import { nodeFileHost, type FileHost } from '../files/file-host';
import type { ReadCache } from '../files/read';
import { ResolutionMemo } from './imports';
import {
  MANIFEST_VERSION,
  UNREADABLE,
  compareFingerprints,
  fromManifestCites,
  fromManifestImports,
  hashInputs,
  sameJson,
  serializeManifest,
  sha256Hex,
  toManifestCites,
  toManifestImports,
  type Manifest,
  type ManifestOptions,
} from '../files/manifest';
import { buildInputPaths, engineOf } from './inputs';
import { ReusedBytes } from '../../commit/reused-bytes';
import { isSyntaxErrorReason } from './screen';
import { lastFiles, loadPrevious, NOTE_PREFIX, symbolCount, type PreviousFacts } from './previous-facts';
import { planResolution, reachedGlobals, type ResolutionPlan } from './resolution-plan';

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

/** What the reuse hooks learn while the build runs, and what they decided. */
interface ReuseState {
  discovery?: Discovery;
  inputs: readonly SourceInput[];
  inputHashes: Record<string, string>;
  inputPaths: string[];
  documents: Record<string, string>;
  reuseOn: boolean;
  plan?: ResolutionPlan;
  fullReason?: string;
}

/** The hooks by which the one pipeline takes a carried file's facts from `prev` (ADR 54). */
function factReuse(
  options: TrackedBuildOptions,
  host: FileHost,
  manifestOptions: ManifestOptions,
  prev: PreviousFacts | undefined,
  state: ReuseState,
): FactReuse {
  return {
    // Only a graph this process composed: its signature was hashed, not read from a file (ADR 127).
    lastGraph: prev ? options.previous?.parsed?.graph : undefined,
    begin(d, read, resolver) {
      state.discovery = d;
      state.inputs = read;
      state.inputPaths = buildInputPaths(host, d);
      state.inputHashes = hashInputs(host, d.root, state.inputPaths);
      // Markdown, and the files the graph does not read but scans for what they import (ADR 153).
      state.documents = hashInputs(host, d.root, [...d.markdownFiles, ...d.unanalysedFiles].sort(compareStrings));
      if (!prev) return;
      const moved = compareFingerprints(prev.manifest.inputs, state.inputHashes).changedFiles;
      if (moved.length > 0) {
        state.reuseOn = false;
        state.fullReason = `${moved.slice(0, 3).join(', ')}${moved.length > 3 ? ` and ${moved.length - 3} more` : ''} changed`;
        return;
      }
      const dirty = new Set<string>();
      for (const i of read) {
        const before = prev.manifest.files[i.path];
        if (!before || before.sha256 !== i.sha256 || before.project !== i.project.configPath) dirty.add(i.path);
      }
      state.plan = manifestOptions.extractOnly
        ? { resolve: dirty, shapes: new Map(), byFile: [], targets: new Map() }
        : planResolution(prev, read, resolver, d.root, dirty, options.invalidation !== 'files');
      if (state.plan.everything) {
        state.reuseOn = false;
        state.fullReason = state.plan.everything;
      }
    },
    carry(input): CarriedFacts | undefined {
      if (!state.reuseOn || !prev || !state.plan || state.plan.resolve.has(input.path)) return undefined;
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
      if (!state.reuseOn || !prev || !state.plan || state.plan.resolve.has(input.path)) return undefined;
      const before = prev.manifest.files[input.path];
      return before && before.sha256 === input.sha256 && before.project === input.project.configPath ? before.blank : undefined;
    },
    extraRoots(project: Project): string[] {
      // The global files a full build's program of the project holds: its own, and those its
      // files reach through imports (a script imported from elsewhere declares into every file).
      const present = new Set(state.inputs.map((i) => i.path));
      return reachedGlobals(
        project.files.filter((f) => present.has(f)),
        (f) => (state.plan?.targets.get(f) ?? []).filter((t) => present.has(t)),
        (f) => (state.plan?.shapes.get(f) ?? { global: !!prev?.manifest.files[f]?.global }).global,
      );
    },
  };
}

/**
 * Throw rather than shrink: a file that is still there, had symbols, and now yields none —
 * whenever there is a trusted previous graph, even if something else made this build full.
 */
function refuseShrinking(prev: PreviousFacts, d: Discovery, inputs: readonly SourceInput[], result: BuildResult): void {
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

/** The manifest's record of each file the build read; a record equal to the last build's is that record. */
function manifestFiles(result: BuildResult, prev: PreviousFacts | undefined): Manifest['files'] {
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
  return files;
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
  const state: ReuseState = {
    inputs: [],
    inputHashes: {},
    inputPaths: [],
    documents: {},
    reuseOn: prev !== undefined,
    fullReason: 'problem' in loaded ? loaded.problem : undefined,
  };
  const reuse = factReuse(options, host, manifestOptions, prev, state);
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
  const d = state.discovery as Discovery;
  const { inputHashes, inputPaths, reuseOn, plan } = state;

  if (prev) refuseShrinking(prev, d, state.inputs, result);

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
  const files = manifestFiles(result, prev);
  const manifest: Manifest = {
    manifestVersion: MANIFEST_VERSION,
    engine: engineOf(),
    options: manifestOptions,
    // The same bytes as the last graph, whose manifest was trusted: its hash is known (a build with
    // nothing changed would otherwise hash the whole graph again).
    graphSha256: sameGraph && prev ? prev.manifest.graphSha256 : sha256Hex(bytes ?? text),
    inputs: inputHashes,
    documents: state.documents,
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
    fullReason: prev && reuseOn ? undefined : state.fullReason,
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
