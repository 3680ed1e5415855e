// The incremental build (SPEC §8, seed 000's merge, seed 002's deltas). It runs the one build
// pipeline of builder.ts and only changes where each file's facts come from: a file whose bytes
// and owning project are unchanged since the manifest was written has its facts carried forward
// from the previous graph.json; every other file is parsed and extracted again; a deleted file's
// facts are simply not carried. What every build recomputes anyway — discovery, module
// structure, the resolution of every file's import references (kept in the manifest, so no
// unchanged importer is parsed), diagnostics — stays recomputed. Because both paths share the
// pipeline and extraction is a function of one file's text, the result is the full build's, byte
// for byte; the equivalence property test holds it to that.
//
// It throws rather than shrink: a changed file that had symbols and now yields nothing readable
// is a suspected parse failure, not a deletion.

import { GraphError } from '../errors';
import { fileOfId } from '../ids';
import { compareStrings, type Graph, type GraphEdge, type GraphNode } from '../model';
import { serializeGraph } from '../io/canonical';
import { DEFAULT_MAX_FILE_BYTES, buildGraph, readSources, type BuildOptions, type BuildResult, type CarriedFacts, type FactReuse, type SourceInput } from './builder';
import { discover, type Discovery } from './discover';
import { parseSource } from './extract';
import { nodeFileHost, type FileHost } from './host';
import {
  MANIFEST_VERSION,
  UNREADABLE,
  buildInputPaths,
  compareFingerprints,
  engineOf,
  fromManifestImports,
  hashInputs,
  manifestMismatch,
  parseManifest,
  serializeManifest,
  sha256Hex,
  staleness,
  toManifestImports,
  type Manifest,
  type ManifestOptions,
  type StalenessReport,
} from './manifest';

/** What is on disk from the last build: raw texts, absent when the file does not exist. */
export interface PreviousBuild {
  graphText?: string;
  manifestText?: string;
}

export interface TrackedBuildOptions extends BuildOptions {
  /** The last build's graph.json and manifest; without them the build is a full one. */
  previous?: PreviousBuild;
  /** Force a full build even when a valid manifest exists. */
  full?: boolean;
}

export interface BuildDelta {
  changed: string[];
  added: string[];
  deleted: string[];
  /** Files parsed and extracted by this build. */
  extracted: number;
  /** Files whose facts were carried forward. */
  carried: number;
}

export interface TrackedBuildResult extends BuildResult {
  /** graph.json's bytes. */
  text: string;
  manifest: Manifest;
  manifestText: string;
  mode: 'full' | 'incremental';
  /** For a full build, why it was not incremental (undefined when there was never a graph). */
  fullReason?: string;
  delta: BuildDelta;
}

/** Edges every build derives again rather than carrying: imports (re-resolved) and module structure. */
function rederived(e: GraphEdge): boolean {
  return e.relation === 'imports' || e.relation === 're-exports' || e.source.startsWith('mod:');
}

interface PreviousFacts {
  manifest: Manifest;
  nodesByFile: Map<string, GraphNode[]>;
  edgesByFile: Map<string, GraphEdge[]>;
}

/** The previous build's facts by owning file, or why they cannot be used. */
function loadPrevious(prev: PreviousBuild | undefined, options: ManifestOptions): PreviousFacts | { problem?: string } {
  if (prev?.graphText === undefined) return {};
  if (prev.manifestText === undefined) return { problem: 'no manifest beside graph.json' };
  const parsed = parseManifest(prev.manifestText);
  if ('problem' in parsed) return { problem: parsed.problem };
  const mismatch = manifestMismatch(parsed.manifest, prev.graphText, options);
  if (mismatch) return { problem: mismatch };
  let graph: Graph;
  try {
    graph = JSON.parse(prev.graphText) as Graph;
  } catch {
    return { problem: 'graph.json is not valid JSON' };
  }
  if (!Array.isArray(graph?.nodes) || !Array.isArray(graph?.edges)) return { problem: 'graph.json has no node or edge list' };
  const nodesByFile = new Map<string, GraphNode[]>();
  const ownerOf = new Map<string, string>();
  for (const n of graph.nodes) {
    if (n.sourceFile === undefined) continue;
    ownerOf.set(n.id, n.sourceFile);
    const list = nodesByFile.get(n.sourceFile) ?? [];
    list.push(n);
    nodesByFile.set(n.sourceFile, list);
  }
  const edgesByFile = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) {
    if (rederived(e)) continue;
    const owner = ownerOf.get(e.source) ?? fileOfId(e.source);
    if (owner === undefined) return { problem: `graph.json has an edge no file owns (${e.source} --${e.relation}--> ${e.target})` };
    const list = edgesByFile.get(owner) ?? [];
    list.push(e);
    edgesByFile.set(owner, list);
  }
  const graphFiles = graph.nodes.filter((n) => n.kind === 'file').map((n) => n.sourceFile as string).sort(compareStrings);
  const manifestFiles = Object.keys(parsed.manifest.files).sort(compareStrings);
  if (graphFiles.length !== manifestFiles.length || graphFiles.some((f, i) => f !== manifestFiles[i])) {
    return { problem: 'the manifest and graph.json list different files' };
  }
  return { manifest: parsed.manifest, nodesByFile, edgesByFile };
}

const symbolCount = (nodes: readonly GraphNode[] | undefined) => (nodes ?? []).filter((n) => n.kind !== 'file').length;

/** True when the parser reported syntax errors for the text (internal field of the pinned compiler). */
function hasSyntaxErrors(input: SourceInput, root: string): boolean {
  const sf = parseSource(root + '/' + input.path, input.text, undefined);
  const diags = (sf as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics;
  return Array.isArray(diags) && diags.length > 0;
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
  let reuseOn = prev !== undefined;
  const reuse: FactReuse = {
    begin(d, read) {
      discovery = d;
      inputs = read;
      inputPaths = buildInputPaths(host, d);
      inputHashes = hashInputs(host, d.root, inputPaths);
      if (!prev) return;
      const moved = compareFingerprints(prev.manifest.inputs, inputHashes).changedFiles;
      if (moved.length > 0) {
        reuseOn = false;
        fullReason = `${moved.slice(0, 3).join(', ')}${moved.length > 3 ? ` and ${moved.length - 3} more` : ''} changed`;
      }
    },
    carry(input): CarriedFacts | undefined {
      if (!reuseOn || !prev) return undefined;
      const before = prev.manifest.files[input.path];
      if (!before || before.sha256 !== input.sha256 || before.project !== input.project.configPath) return undefined;
      return {
        nodes: prev.nodesByFile.get(input.path) ?? [],
        edges: prev.edgesByFile.get(input.path) ?? [],
        imports: fromManifestImports(input.path, before.imports),
      };
    },
  };
  const result = buildGraph({ ...options, reuse });
  const d = discovery as Discovery;

  // Throw rather than shrink: a file that is still there, had symbols, and now yields none.
  if (prev && reuseOn) {
    const present = new Set(d.sourceFiles);
    const read = new Map(inputs.map((i) => [i.path, i]));
    const nowSymbols = new Map<string, number>();
    for (const n of result.graph.nodes) if (n.kind !== 'file' && n.sourceFile !== undefined) nowSymbols.set(n.sourceFile, (nowSymbols.get(n.sourceFile) ?? 0) + 1);
    for (const f of Object.keys(prev.manifest.files).sort(compareStrings)) {
      const had = symbolCount(prev.nodesByFile.get(f));
      if (had === 0 || !present.has(f)) continue;
      const input = read.get(f);
      if (!input) {
        const why = result.graph.diagnostics?.find((x) => x.path === f)?.reason ?? 'it was not read';
        throw new GraphError('SUSPECTED_PARSE_FAILURE', `${f} had ${had} symbol${had === 1 ? '' : 's'} and now yields none (${why}); the graph is left as it was — fix the file, or run a full build (--full) to accept the loss`);
      }
      if ((nowSymbols.get(f) ?? 0) > 0 || input.sha256 === prev.manifest.files[f].sha256) continue;
      const blank = input.text.trim() === '';
      if (blank || hasSyntaxErrors(input, d.root)) {
        throw new GraphError(
          'SUSPECTED_PARSE_FAILURE',
          `${f} had ${had} symbol${had === 1 ? '' : 's'} and now yields none (${blank ? 'the file is empty' : 'it has syntax errors'}); suspected parse failure, not a deletion — the graph is left as it was. Fix the file, or run a full build (--full) to accept it`,
        );
      }
    }
  }

  // An input that changed while the build read it is recorded as unreadable, so the next build is full.
  const after = hashInputs(host, d.root, inputPaths);
  for (const p of inputPaths) if (after[p] !== inputHashes[p]) inputHashes[p] = UNREADABLE;

  const text = serializeGraph(result.graph);
  const files: Manifest['files'] = {};
  for (const f of result.files) files[f.path] = { sha256: f.sha256, project: f.project, imports: toManifestImports(f.imports) };
  const manifest: Manifest = {
    manifestVersion: MANIFEST_VERSION,
    engine: engineOf(),
    options: manifestOptions,
    graphSha256: sha256Hex(text),
    inputs: inputHashes,
    files,
  };
  const before: Record<string, string> = {};
  for (const [f, e] of Object.entries(prev?.manifest.files ?? {})) before[f] = e.sha256;
  const now: Record<string, string> = {};
  for (const f of result.files) now[f.path] = f.sha256;
  const diff = compareFingerprints(before, now);
  const carried = result.files.filter((f) => f.carried).length;
  return {
    ...result,
    text,
    manifest,
    manifestText: serializeManifest(manifest),
    mode: prev && reuseOn ? 'incremental' : 'full',
    fullReason: prev && reuseOn ? undefined : fullReason,
    delta: { changed: diff.changed, added: diff.added, deleted: diff.deleted, extracted: result.files.length - carried, carried },
  };
}

/** The working tree's fingerprints, as a manifest would record them: source files and other inputs. */
export function fingerprintTree(root: string, host: FileHost = nodeFileHost): Record<string, string> {
  const real = host.realpath(root).replace(/\/+$/, '') || '/';
  const d = discover(host, real);
  const out = hashInputs(host, real, buildInputPaths(host, d));
  for (const input of readSources(host, d, DEFAULT_MAX_FILE_BYTES, [])) out[input.path] = input.sha256;
  return out;
}

export type GraphStatus =
  | ({ available: true } & StalenessReport)
  | { available: false; reason: string };

/** What changed in the working tree since the graph described by `previous` was built. */
export function graphStatus(root: string, previous: PreviousBuild, host: FileHost = nodeFileHost): GraphStatus {
  if (previous.graphText === undefined) return { available: false, reason: 'there is no graph.json; build one with kg build --apply' };
  if (previous.manifestText === undefined) return { available: false, reason: 'there is no manifest beside graph.json, so what it was built from is unknown; rebuild with kg build --apply' };
  const parsed = parseManifest(previous.manifestText);
  if ('problem' in parsed) return { available: false, reason: parsed.problem };
  if (parsed.manifest.graphSha256 !== sha256Hex(previous.graphText)) {
    return { available: false, reason: 'the manifest does not describe the current graph.json (an interrupted build, or an edited graph); rebuild with kg build --apply' };
  }
  const st = host.stat(root);
  if (!st || st.type !== 'directory') throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${root}`);
  return { available: true, ...staleness(parsed.manifest, fingerprintTree(root, host)) };
}

/**
 * A build kept alive between rebuilds (the extension's build on save): it remembers the last
 * graph and manifest in memory, so a rebuild neither reads nor re-validates them from disk.
 */
export class BuildSession {
  private previous: PreviousBuild | undefined;
  constructor(private readonly options: Omit<TrackedBuildOptions, 'full'>) {
    this.previous = options.previous;
  }

  /** Builds incrementally from the last result (or from `options.previous` the first time). */
  rebuild(opts: { full?: boolean } = {}): TrackedBuildResult {
    const result = buildTracked({ ...this.options, previous: this.previous, full: opts.full });
    this.previous = { graphText: result.text, manifestText: result.manifestText };
    return result;
  }
}
