// The full build: discover → read → parse → extract → resolve imports → compose. The two tiers
// that extract (and resolve) the files are tiers.ts (the extraction tier, and what both share) and
// resolution-tier.ts; a second checker's backend is opened in provided-backend.ts.
// Nothing here writes to the console or the disk; progress goes through the injected sink.

import * as path from 'node:path';
import * as ts from 'typescript';
import { GraphError } from '../../errors';
import type { BuildDiagnostic, Graph, GraphEdge, GraphNode, UnresolvedSummary } from '../../model';
import { dispatchEdges } from '../dispatch';
import type { CommentCitation } from '../rationale/comments';
import type { CheckerProvider, CheckerReport } from './checker';
import { compose, moduleStructure } from './compose';
import { discover, type Discovery, type Project } from './discover';
import type { ImportRef } from './extract';
import { nodeFileHost, type FileHost } from '../files/file-host';
import { ModuleResolver, workspacePackages, type ImportOutcome, type ResolutionMemo } from './imports';
import { DEFAULT_MAX_FILE_BYTES, type ReadCache } from '../files/read';
import { mergeSkips, type SkipCounts } from '../files/skips';
import { readSources, type SourceInput } from './sources';
import { programScreenParser, type ProgramStore } from './program';
import type { Residue } from './resolve';
import type { FileShape } from './file-shape';
import { RationaleLayer } from '../rationale/rationale';
import type { SourceNote } from '../rationale/notes';
import { screenSources, type ScreenVerdict } from './screen';
import { missingConfigFiles } from './missing-files';
import { repositoryName } from '../files/repository-name';
import { unanalysedFiles } from './unanalysed-files';
import { componentTools } from '../components/kinds';
import type { ComponentCodeStore } from '../components/stored-code';
import { entryFiles } from './entries';
import { checkCancelled, extractionTier, type TierContext } from './tiers';
import { resolutionTier } from './resolution-tier';

export interface BuildSink {
  /** A phase's progress: `done` of `total` units. */
  progress?(phase: string, done: number, total: number): void;
  log?(level: 'info' | 'warn', message: string): void;
  /** Polled between files; a true answer stops the build with a CANCELLED error. */
  isCancelled?(): boolean;
}

export interface BuildOptions {
  /** Absolute path of the repository root. */
  root: string;
  host?: FileHost;
  /** Build the extraction tier only (no resolved `calls` layer). */
  extractOnly?: boolean;
  /** List calls and imports into node_modules / the standard library as edges, not just counts. */
  listExternal?: boolean;
  sink?: BuildSink;
  /** Files larger than this are skipped and reported. */
  maxFileBytes?: number;
  /** Facts carried forward from a previous build (the incremental build); absent for a full build. */
  reuse?: FactReuse;
  /**
   * Programs and parsed files kept from the previous build of a long-lived session: each project's
   * program is then built over all its files with the last one as `oldProgram`, so the compiler
   * reuses everything unchanged. Updated in place.
   */
  programs?: ProgramStore;
  /** What a long-lived session read before: unchanged files (by stamp) are not read again (ADR 120). */
  reads?: ReadCache;
  /** Where components' generated code is kept between builds (ADR 182); absent, it is generated every cold build. */
  componentCode?: ComponentCodeStore;
  /** Import outcomes a long-lived session keeps between builds, taken while nothing they were decided on changed (ADR 134). */
  resolutions?: ResolutionMemo;
  /** The screen's verdict on files already on record (an incremental build's unchanged files). */
  screened?: (input: SourceInput) => ScreenVerdict | undefined;
  /**
   * A second checker behind the seam (ADR 8, 113): it serves the projects it can and the
   * JavaScript backend serves the rest, each fallback with its reason in `BuildResult.checker`.
   * Absent: the JavaScript backend serves every project.
   */
  checker?: CheckerProvider;
}

/** A file's facts taken from a previous build instead of parsing and resolving it again. */
export interface CarriedFacts {
  nodes: GraphNode[];
  /**
   * The file's own edges that are not derived again every build: containment, and the proven
   * (EXACT) calls and heritage. Imports are resolved again, cites and the rest replayed.
   */
  edges: GraphEdge[];
  imports: ImportRef[];
  cites: CommentCitation[];
  /** Its stamped notes (ADR 88), emitted and resolved by the rationale layer every build. */
  notes: SourceNote[];
  residue: Residue;
  shape: FileShape;
}

/** How the incremental build plugs into the pipeline without a second copy of it. */
export interface FactReuse {
  /** Called once, after discovery and reading, before any file is parsed. */
  begin?(d: Discovery, inputs: readonly SourceInput[], resolver: ModuleResolver): void;
  /** The carried facts of a file that needs neither parsing nor resolving, or undefined. */
  carry(input: SourceInput): CarriedFacts | undefined;
  /**
   * Files a project's program must hold besides the ones it resolves, when it does not resolve
   * them all: those that declare into the global scope, which every file of the project sees.
   */
  extraRoots?(project: Project): string[];
  /**
   * For a file it carries, the bodies a program that holds the file only for its types may read
   * as blanks (`FileShape.blank`, ADR 129); undefined for a file it parses.
   */
  blankable?(input: SourceInput): readonly number[] | undefined;
  /** The last graph this build may take the signature of, when its ids and tuples are the same (ADR 127). */
  lastGraph?: Pick<Graph, 'nodes' | 'edges' | 'graphSignature'>;
}

/** What the manifest records about each file in the graph. */
export interface FileRecord {
  path: string;
  sha256: string;
  /** The owning project's config path ('' for files outside every config). */
  project: string;
  imports: ImportRef[];
  /** Where each import reference led, in order. */
  outcomes: ImportOutcome[];
  cites: CommentCitation[];
  notes: SourceNote[];
  residue: Residue;
  /** The file's shape (resolution tier only; empty for the extraction tier). */
  shape: FileShape;
  /** True when the facts were carried forward rather than extracted. */
  carried: boolean;
}

interface BuildStats {
  files: number;
  projects: number;
  skipped: number;
  /** The skipped files counted by short reason ("generated, by .gitattributes": 148); they add up to `skipped`. */
  skippedBy: SkipCounts;
}

export interface BuildResult {
  graph: Graph;
  stats: BuildStats;
  /** One record per source file in the graph, in path order. */
  files: FileRecord[];
  discovery: Discovery;
  /** Which backend resolved the calls (the build's report; graph.json is the same bytes either way). */
  checker: CheckerReport;
  /** Carried files the programs read without their bodies (ADR 129; the build's report). */
  blanked: number;
}

export { type SourceInput } from './sources';

/** Strips the root from messages that quote absolute paths, so the graph never holds one. */
function relativize(message: string, root: string): string {
  return message
    .split(root + '/')
    .join('')
    .split(root)
    .join('.');
}

/** The error of a build with nothing to read, saying when .gitignore is why: a rule such as `*` hides every file, and nothing else would tell. */
function noSources(root: string, d: Discovery): GraphError {
  const n = d.ignoredByGitignore;
  const hidden = n > 0 ? ` (.gitignore rules hide ${n} source file${n === 1 ? '' : 's'} or folder${n === 1 ? '' : 's'}: check them)` : '';
  return new GraphError('NO_SOURCES', `no TypeScript or JavaScript sources found under ${root}${hidden}`);
}

export function buildGraph(options: BuildOptions): BuildResult {
  const host = options.host ?? nodeFileHost;
  const sink = options.sink;
  const st = host.stat(options.root);
  if (!st || st.type !== 'directory') {
    throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${options.root}`);
  }
  const root = host.realpath(options.root).replace(/\/+$/, '') || '/';

  const d = discover(host, root);
  const diagnostics: BuildDiagnostic[] = [];
  const unreadBy: SkipCounts = {};
  const read = readSources(
    host,
    d,
    options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    diagnostics,
    unreadBy,
    options.reads,
    options.componentCode,
  );
  const unread = diagnostics.length;
  // The files in the graph, filled once the screen has passed them; the resolver only keeps the set.
  const graphFiles = new Set<string>();
  const resolver = new ModuleResolver(
    host,
    root,
    graphFiles,
    workspacePackages(host, root, d.packageJsonFiles),
    d.listed,
    options.resolutions,
  );
  // Before any program sees them: too deep for the compiler → skipped; syntax errors → named (ADR 75).
  // With programs to come, each file is parsed as its project's program parses it, and that tree
  // goes on to the program and the builder: one parse of each file, not two (ADR 137).
  const screened = screenSources(
    read,
    diagnostics,
    options.screened,
    options.extractOnly ? undefined : programScreenParser(root, resolver),
  );
  const inputs = screened.accepted;
  for (const i of inputs) graphFiles.add(i.path);
  resolver.settle();
  const skipped = d.skippedFiles + unread + screened.skipped;
  const skippedBy = mergeSkips(d.skippedBy, unreadBy, screened.skipped > 0 ? { 'too deeply nested': screened.skipped } : {});
  // Files of types the graph does not read, with what their text imports (ADR 153).
  const unanalysed = unanalysedFiles(host, d, resolver);
  for (const x of [...d.diagnostics, ...d.configDiagnostics, ...missingConfigFiles(host, d)])
    diagnostics.push({ path: x.path, reason: relativize(x.reason, root) });
  sink?.log?.(
    'info',
    `discovered ${d.sourceFiles.length} source files in ${d.projects.length} project${d.projects.length === 1 ? '' : 's'}`,
  );
  checkCancelled(sink);
  if (inputs.length === 0) throw noSources(options.root, d);
  const summary: UnresolvedSummary = {};
  const listExternal = !!options.listExternal;
  const rationale = RationaleLayer.start({
    host,
    root,
    walk: d,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    diagnostics,
    summary,
  });

  options.reuse?.begin?.(d, inputs, resolver);
  const ctx: TierContext = {
    root,
    host,
    inputs,
    discovery: d,
    resolver,
    summary,
    listExternal,
    rationale,
    sink,
    reuse: options.reuse,
    programs: options.programs,
    checker: options.extractOnly ? undefined : options.checker,
    report: {
      requested: options.extractOnly ? 'js' : (options.checker?.name ?? 'js'),
      ...(options.checker?.version ? { version: options.checker.version } : {}),
      served: [],
      fallbacks: [],
    },
    files: [],
    blanked: 0,
    screenedTrees: screened.trees,
  };
  const tier = options.extractOnly ? extractionTier(ctx) : resolutionTier(ctx);
  if (!options.extractOnly) tier.edges.push(...dispatchEdges(tier.nodes, tier.edges));

  // A dependency's package.json too deep for the compiler, read bounded (issue 55): say which.
  for (const [p, reason] of resolver.notes) diagnostics.push({ path: path.posix.relative(root, p), reason });
  const notes = rationale.finish(tier.nodes);
  const modules = moduleStructure([...graphFiles, ...notes.files]);
  const graph = compose({
    nodeLayers: [tier.nodes, notes.nodes, modules.nodes],
    edges: [...tier.edges, ...notes.edges, ...modules.edges],
    // The language tools that wrote a component's code, when the graph holds one (ADR 169).
    grammarVersions: { typescript: ts.version, ...componentTools(graphFiles) },
    built: options.extractOnly ? [] : ['calls', 'references'],
    repository: repositoryName(host, root, diagnostics),
    unresolved: summary,
    diagnostics,
    unanalysed,
    entries: entryFiles(host, d, graphFiles, diagnostics),
    last: options.reuse?.lastGraph,
  });
  return {
    graph,
    stats: { files: inputs.length, projects: d.projects.length, skipped, skippedBy },
    files: ctx.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    discovery: d,
    checker: ctx.report,
    blanked: ctx.blanked,
  };
}
