// The full build: discover → read → parse → extract → resolve imports → compose.
// Nothing here writes to the console or the disk; progress goes through the injected sink.

import * as path from 'node:path';
import * as ts from 'typescript';
import { GraphError } from '../../errors';
import { fileId, packageSymbolId, symbolId, unresolvedId } from '../../ids';
import type { BuildDiagnostic, Graph, GraphEdge, GraphNode, Relation, UnresolvedReason, UnresolvedSummary } from '../../model';
import { collectSites, type Site } from './calls';
import { dispatchEdges } from '../dispatch';
import { commentCitations, type CommentCitation } from '../rationale/comments';
import { TsCheckerBackend, type CheckerBackend, type CheckerProvider, type CheckerReport, type SymbolAnswer } from './checker';
import { compose, moduleStructure } from './compose';
import { discover, type Discovery, type Project } from './discover';
import { exactEdge, unresolvedEdge } from '../edges';
import { extractFile, parseSource, type FileExtraction, type ImportRef } from './extract';
import { nodeFileHost, type FileHost } from '../files/file-host';
import { ModuleResolver, workspacePackages, type ImportOutcome, type ResolutionMemo } from './imports';
import { DEFAULT_MAX_FILE_BYTES, type ReadCache } from '../files/read';
import { mergeSkips, type SkipCounts } from '../files/skips';
import { readSources, type SourceInput } from './sources';
import {
  createProjectProgram,
  parseAsProgram,
  programScreenParser,
  SourceFileCache,
  takeScreenedTrees,
  type ProgramStore,
} from './program';
import { ResolutionSink, type DeclarationLookup, type ProvenTarget, type Residue } from './resolve';
import { PackageSymbols } from './packages';
import { blankBodies, type FileShape } from './shape';
import { shapeAndSurface } from './surface';
import { RationaleLayer } from '../rationale/rationale';
import { sourceNotes, type SourceNote } from '../rationale/notes';
import { screenSources, type ScreenVerdict } from './screen';
import { missingConfigFiles } from './missing-files';
import { repositoryName } from '../files/repository-name';
import { unanalysedFiles } from './unanalysed-files';
import { componentKind, componentTools } from '../components/kinds';
import type { ComponentCodeStore } from '../components/stored-code';
import { entryFiles } from './entries';

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
interface FileRecord {
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

function checkCancelled(sink: BuildSink | undefined): void {
  if (sink?.isCancelled?.()) throw new GraphError('CANCELLED', 'build cancelled');
}

function count(summary: UnresolvedSummary, relation: Relation, reason: UnresolvedReason): void {
  const byReason = (summary[relation] ??= {});
  byReason[reason] = (byReason[reason] ?? 0) + 1;
}

/** Turns a file's import references into edges through the module resolver. */
function importEdges(
  resolver: ModuleResolver,
  input: SourceInput,
  extraction: Pick<FileExtraction, 'imports'>,
  summary: UnresolvedSummary,
  listExternal: boolean,
  outcomes?: ImportOutcome[],
): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const from = fileId(input.path);
  for (const ref of extraction.imports) {
    const relation: Relation = ref.kind === 're-export' ? 're-exports' : 'imports';
    const outcome = resolver.resolve(input.project, input.path, ref);
    outcomes?.push(outcome);
    const opts = { evidence: ref.evidence, context: ref.context, ast: true };
    if (outcome.kind === 'file') {
      edges.push(exactEdge(from, fileId(outcome.path), relation, 'MODULE_RESOLUTION', opts));
      continue;
    }
    count(summary, relation, outcome.reason);
    if (outcome.reason === 'external' && !listExternal) continue;
    edges.push(unresolvedEdge(from, unresolvedId(ref.specifier), relation, outcome.reason, opts));
  }
  return edges;
}

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
    report: { requested: options.extractOnly ? 'js' : (options.checker?.name ?? 'js'), served: [], fallbacks: [] },
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

interface TierOutput {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** What both tiers work from. */
interface TierContext {
  root: string;
  host: FileHost;
  inputs: readonly SourceInput[];
  discovery: Discovery;
  resolver: ModuleResolver;
  summary: UnresolvedSummary;
  listExternal: boolean;
  rationale: RationaleLayer;
  sink: BuildSink | undefined;
  reuse: FactReuse | undefined;
  programs: ProgramStore | undefined;
  checker: CheckerProvider | undefined;
  /** Filled by the resolution tier: which backend served each project. */
  report: CheckerReport;
  /** Filled by the tier: what the manifest records of each file. */
  files: FileRecord[];
  /** Filled by the resolution tier: carried files its programs read with their bodies blank (ADR 129). */
  blanked: number;
  /** The screen's trees by path, parsed as the programs parse (ADR 137); the resolution tier takes them and empties the map. */
  screenedTrees: Map<string, ts.SourceFile>;
}

const NO_SHAPE: FileShape = { shape: '', global: false };

/** Emits a carried file's facts, replaying what is derived again, and records it. */
function emitCarried(ctx: TierContext, out: TierOutput, input: SourceInput, c: CarriedFacts, resolution?: ResolutionSink): void {
  const outcomes: ImportOutcome[] = [];
  out.nodes.push(...c.nodes);
  out.edges.push(
    ...c.edges,
    ...importEdges(ctx.resolver, input, c, ctx.summary, ctx.listExternal, outcomes),
    ...ctx.rationale.cite(c.cites),
  );
  ctx.rationale.addNotes(input.path, c.notes);
  resolution?.replay(input.path, c.residue);
  ctx.files.push({
    path: input.path,
    sha256: input.sha256,
    project: input.project.configPath,
    imports: c.imports,
    outcomes,
    cites: c.cites,
    notes: c.notes,
    residue: c.residue,
    shape: c.shape,
    carried: true,
  });
}

/** Extraction only: parse each file on its own, no programs, no checker. */
function extractionTier(ctx: TierContext): TierOutput {
  const { root, inputs, resolver, summary, listExternal, rationale, sink } = ctx;
  const out: TierOutput = { nodes: [], edges: [] };
  let done = 0;
  for (const input of inputs) {
    const carried = ctx.reuse?.carry(input);
    if (carried) {
      emitCarried(ctx, out, input, carried);
    } else {
      const abs = root + '/' + input.path;
      const sf = parseSource(abs, input.text, resolver.impliedFormat(input.project, abs));
      const extraction = extractFile(sf, input.path);
      const outcomes: ImportOutcome[] = [];
      const cites = commentCitations(sf, input.path, extraction.declarations);
      const notes = sourceNotes(sf, input.path, extraction.declarations);
      rationale.addNotes(input.path, notes);
      out.nodes.push(...extraction.nodes);
      out.edges.push(
        ...extraction.edges,
        ...importEdges(resolver, input, extraction, summary, listExternal, outcomes),
        ...rationale.cite(cites),
      );
      ctx.files.push({
        path: input.path,
        sha256: input.sha256,
        project: input.project.configPath,
        imports: extraction.imports,
        outcomes,
        cites,
        notes,
        residue: { counted: {}, sites: [] },
        shape: NO_SHAPE,
        carried: false,
      });
    }
    done++;
    if (done % 200 === 0 || done === inputs.length) {
      sink?.progress?.('extract', done, inputs.length);
      checkCancelled(sink);
    }
  }
  return out;
}

/**
 * The declarations' positions extracted from a parse, by that parse (see `declarationsOf` in
 * resolutionTier). Held only as long as the parse is.
 */
const DECLARATIONS_BY_TREE = new WeakMap<ts.SourceFile, { rel: string; declarations: Map<number, string> }>();

/**
 * Extraction plus resolution: one program per project (parsed files shared between programs),
 * each file's call sites and heritage clauses answered by the checker behind its seam.
 */
function resolutionTier(ctx: TierContext): TierOutput {
  const { root, host, inputs, discovery: d, resolver, summary, listExternal, rationale, sink, reuse, programs: store } = ctx;
  const out: TierOutput = { nodes: [], edges: [] };
  const texts = new Map(inputs.map((i) => [root + '/' + i.path, i.text]));
  // A one-shot build's programs hold a carried file only for its types: its recorded bodies are
  // read as blanks (ADR 129). A session keeps its programs for later builds, which may resolve
  // any file, and another checker reads the files itself: both read every byte.
  const blanked = new Set<string>();
  if (!store && !ctx.checker && reuse?.blankable) {
    for (const i of inputs) {
      // A component's code is read whole: its map is for that text, and it stands for the component (ADR 169).
      const blank = componentKind(i.path) === undefined ? reuse.blankable(i) : undefined;
      if (!blank) continue;
      texts.set(root + '/' + i.path, blankBodies(i.text, blank));
      blanked.add(root + '/' + i.path);
    }
  }
  const read = new Set<string>();
  const byPath = new Map(inputs.map((i) => [i.path, i]));
  const cache = new SourceFileCache(texts, host, store?.files);
  // The screen's trees: held from here by the cache alone, so they go when this tier's cache goes.
  takeScreenedTrees(cache, ctx.screenedTrees, byPath, root, resolver);
  const extractions = new Map<string, FileExtraction>();
  const resolution = new ResolutionSink(summary, listExternal);
  const packages = new PackageSymbols(host, root, (rel) => byPath.has(rel));
  // A declaration file outside the graph (a package's .d.ts), parsed once, for a provider's backend
  // that has no JavaScript program: its declarations' positions, and the package placement (ADR 107).
  const parseDeclarationFile = (abs: string): ts.SourceFile | undefined =>
    /\.d\.[cm]?ts$/.test(abs) && !cache.isDefaultLib(abs)
      ? cache.get(abs, { languageVersion: ts.ScriptTarget.Latest }, 'declaration')
      : undefined;

  const extractionOf = (rel: string, sf: ts.SourceFile): FileExtraction => {
    let e = extractions.get(rel);
    if (!e) {
      e = extractFile(sf, rel);
      extractions.set(rel, e);
      DECLARATIONS_BY_TREE.set(sf, { rel, declarations: e.declarations });
    }
    return e;
  };
  // Where a checker's answer lands: a declaration's node, by its file's parse. A session's rebuild
  // keeps the parse of every file that did not change, so the files its calls reach are not
  // extracted again at each build (ADR 139).
  const declarationsOf = (rel: string, sf: ts.SourceFile): Map<number, string> => {
    const kept = extractions.has(rel) ? undefined : DECLARATIONS_BY_TREE.get(sf);
    return kept && kept.rel === rel ? kept.declarations : extractionOf(rel, sf).declarations;
  };

  let done = 0;
  for (const project of d.projects) {
    const owned = project.files.filter((f) => byPath.has(f));
    if (owned.length === 0) continue;
    // Files an incremental build carries need no program; the others get one whose roots are
    // them and the project's files that declare globals (what the rest imports comes along).
    const fresh: string[] = [];
    const carriedHere: Array<[SourceInput, CarriedFacts]> = [];
    for (const rel of owned) {
      const input = byPath.get(rel) as SourceInput;
      const carried = reuse?.carry(input);
      if (carried) carriedHere.push([input, carried]);
      else fresh.push(rel);
    }
    const emitAllCarried = () => {
      for (const [input, carried] of carriedHere) emitCarried(ctx, out, input, carried, resolution);
      done += carriedHere.length;
    };
    if (fresh.length === 0) {
      emitAllCarried();
      continue;
    }
    // A session keeps whole programs, which the compiler reuses from one build to the next.
    const roots = store || fresh.length === owned.length ? owned : [...new Set([...fresh, ...(reuse?.extraRoots?.(project) ?? [])])].sort();
    const parsed = new Map<string, ts.SourceFile>();
    // A provider's backend parses nothing here: the builder's own parse of each file, shared by the cache.
    const parseOwn = (rel: string): ts.SourceFile => {
      let sf = parsed.get(rel);
      if (!sf) {
        const abs = root + '/' + rel;
        const input = byPath.get(rel) as SourceInput;
        const format = resolver.impliedFormat(input.project, abs);
        sf = parseAsProgram(cache, project, abs, format) ?? parseSource(abs, input.text, format);
        parsed.set(rel, sf);
      }
      return sf;
    };
    const opened = ctx.checker ? openProvided(ctx, project, roots, parseOwn, parseDeclarationFile) : undefined;
    // A file's questions: its sites, and the first of each set that denote the same declarations.
    const questionsOf = (rel: string, sf: ts.SourceFile) => {
      const extraction = extractionOf(rel, sf);
      const sites = collectSites(sf, extraction);
      // Sites that share a key denote the same declarations: ask about the first of each.
      const asked: Site[] = [];
      const firstWithKey = new Map<string, Site>();
      for (const s of sites) {
        if (s.position === undefined) continue;
        if (s.shareKey !== undefined) {
          if (firstWithKey.has(s.shareKey)) continue;
          firstWithKey.set(s.shareKey, s);
        }
        asked.push(s);
      }
      return { extraction, sites, asked, firstWithKey };
    };
    const sendEarly = (rel: string, asked: readonly Site[]) =>
      opened?.prefetch?.(
        root + '/' + rel,
        asked.map((s) => ({ position: s.position as number, hint: s.hint })),
      );
    // A rebuild's few changed files go to a checker in another process before the carried files
    // are emitted, so it checks them while this process does that (ADR 139). The order of what is
    // emitted does not change.
    const sentEarly = new Map<string, ReturnType<typeof questionsOf>>();
    if (carriedHere.length > 0 && opened?.prefetch) {
      for (const rel of fresh) {
        const q = questionsOf(rel, parseOwn(rel));
        sendEarly(rel, q.asked);
        sentEarly.set(rel, q);
      }
    }
    emitAllCarried();
    let program: ts.Program | undefined;
    const jsBackend = (): CheckerBackend => {
      program = createProjectProgram(
        root,
        project,
        roots.map((f) => root + '/' + f),
        cache,
        resolver,
        store?.programs.get(project.configPath),
      );
      store?.programs.set(project.configPath, program);
      if (blanked.size > 0) for (const sf of program.getSourceFiles()) if (blanked.has(sf.fileName)) read.add(sf.fileName);
      return new TsCheckerBackend(program);
    };
    const backend = opened ?? jsBackend();
    const sourceFileOf = (rel: string): ts.SourceFile => {
      const abs = root + '/' + rel;
      return program?.getSourceFile(abs) ?? parseOwn(rel);
    };
    const lookup: DeclarationLookup = {
      classify: (file) => {
        if (!file.startsWith(root + '/') || cache.isDefaultLib(file)) return { kind: 'outside', reason: 'external' };
        const rel = file.slice(root.length + 1);
        if (rel.split('/').includes('node_modules')) return { kind: 'outside', reason: 'external' };
        return byPath.has(rel) ? { kind: 'graph', path: rel } : { kind: 'outside', reason: 'excluded' };
      },
      nodeAt: (rel, nameStart) => declarationsOf(rel, sourceFileOf(rel)).get(nameStart),
      throughDeclarationFile: (decl) => {
        // Under the native checker there is no JavaScript program: the declaration file is parsed
        // here (parser only, cached), so a package's call is placed the same way (ADR 107, ADR 114).
        const dsf = cache.isDefaultLib(decl.file)
          ? undefined
          : program
            ? program.getSourceFile(decl.file)
            : parseDeclarationFile(decl.file);
        const p = dsf && packages.place(dsf, decl.nameStart);
        if (!p) return undefined;
        const byMap = p.proof === 'map';
        if (p.kind === 'package') {
          return {
            target: packageSymbolId(p.pkg, p.version, p.path, p.name),
            provenance: byMap ? 'TYPESCRIPT_CHECKER' : 'TYPESCRIPT_PROJECT_REFERENCE',
            resolutionClass: byMap ? 'EXACT_TYPECHECKED' : 'EXACT_PACKAGE_MAPPED',
          };
        }
        // A workspace package's built declarations: the node of its source, as a direct call gets.
        const sf = sourceFileOf(p.path);
        const extraction = extractionOf(p.path, sf);
        let id: string | undefined;
        if (p.position && p.position.line < sf.getLineStarts().length) {
          id = extraction.declarations.get(sf.getLineStarts()[p.position.line] + p.position.character);
        }
        const named = symbolId(p.path, p.name);
        if (id === undefined && extraction.nodes.some((n) => n.id === named)) id = named;
        if (id === undefined) return undefined;
        const proven: ProvenTarget = byMap
          ? { target: id, provenance: 'TYPESCRIPT_CHECKER' }
          : { target: id, provenance: 'TYPESCRIPT_PROJECT_REFERENCE', resolutionClass: 'EXACT_PACKAGE_MAPPED' };
        return proven;
      },
    };
    // Every file's facts that need no checker first, and its questions; then the checker answers
    // them all, so a backend that fails part-way is replaced for the whole project (ADR 114).
    const asking: {
      rel: string;
      input: SourceInput;
      sf: ts.SourceFile;
      sites: Site[];
      asked: Site[];
      firstWithKey: Map<string, Site>;
      record: FileRecord;
    }[] = [];
    for (const rel of fresh) {
      const input = byPath.get(rel) as SourceInput;
      const sf = sourceFileOf(rel);
      const early = sentEarly.get(rel);
      const { extraction, sites, asked, firstWithKey } = early ?? questionsOf(rel, sf);
      const outcomes: ImportOutcome[] = [];
      const cites = commentCitations(sf, rel, extraction.declarations);
      const notes = sourceNotes(sf, rel, extraction.declarations);
      rationale.addNotes(rel, notes);
      out.nodes.push(...extraction.nodes);
      out.edges.push(...extraction.edges, ...importEdges(resolver, input, extraction, summary, listExternal, outcomes));
      out.edges.push(...rationale.cite(cites));
      // A checker in another process may start on this file's questions while the rest are gathered.
      if (!early) sendEarly(rel, asked);
      const record: FileRecord = {
        path: rel,
        sha256: input.sha256,
        project: project.configPath,
        imports: extraction.imports,
        outcomes,
        cites,
        notes,
        residue: { counted: {}, sites: [] },
        shape: shapeAndSurface(sf, extraction.imports),
        carried: false,
      };
      asking.push({ rel, input, sf, sites, asked, firstWithKey, record });
    }
    // Hints are nodes of the parse the sites came from; a program made after them (a fallback)
    // may hold its own parse of a file, so it is asked by position alone.
    const ask = (b: CheckerBackend, hints: boolean): SymbolAnswer[][] =>
      asking.map((f) =>
        b.declarationsAt(
          root + '/' + f.rel,
          f.asked.map((s) => ({ position: s.position as number, hint: hints ? s.hint : undefined })),
        ),
      );
    let answers: SymbolAnswer[][];
    if (opened) {
      try {
        answers = ask(opened, true);
        ctx.report.served.push(project.configPath);
      } catch (e) {
        ctx.report.fallbacks.push({ project: project.configPath, reason: `the ${ctx.checker?.name} checker failed (${firstLine(e)})` });
        answers = ask(jsBackend(), false);
      } finally {
        ctx.checker?.release(opened);
      }
    } else {
      answers = ask(backend, true);
    }
    asking.forEach((f, i) => {
      const answerOf = new Map(f.asked.map((s, j) => [s, answers[i][j]]));
      const from = resolution.edges.length;
      for (const site of f.sites) {
        const representative = site.shareKey !== undefined ? (f.firstWithKey.get(site.shareKey) as Site) : site;
        resolution.accept(f.sf, f.rel, site, answerOf.get(representative), lookup);
      }
      resolution.settle(from);
      f.record.residue = resolution.residues.get(f.rel) ?? { counted: {}, sites: [] };
      ctx.files.push(f.record);
      done++;
      if (done % 100 === 0 || done === inputs.length) {
        sink?.progress?.('resolve', done, inputs.length);
        checkCancelled(sink);
      }
    });
  }
  resolution.matchNames(out.nodes);
  out.edges.push(...resolution.edges);
  ctx.blanked = read.size;
  return out;
}

function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n', 1)[0].slice(0, 300);
}

/** The provider's backend for a project, or undefined (the JavaScript backend serves it) with the reason recorded. */
function openProvided(
  ctx: TierContext,
  project: Project,
  roots: readonly string[],
  parseOwn: (rel: string) => ts.SourceFile,
  parseDeclarationFile: (abs: string) => ts.SourceFile | undefined,
): CheckerBackend | undefined {
  const provider = ctx.checker as CheckerProvider;
  const { root, resolver } = ctx;
  const graph = new Map(ctx.inputs.map((i) => [i.path, i]));
  const rh = resolver.resolutionHost;
  const relOf = (abs: string): string | undefined => (abs.startsWith(root + '/') ? abs.slice(root.length + 1) : undefined);
  const cacheFs = {
    fileExists: (f: string) => rh.fileExists(f),
    directoryExists: (d: string) => rh.directoryExists?.(d) ?? false,
    readFile: (f: string) => {
      const rel = relOf(f);
      const input = rel !== undefined ? graph.get(rel) : undefined;
      return input ? input.text : rh.readFile(f);
    },
    realpath: (f: string) => rh.realpath?.(f) ?? f,
    entries: (d: string) => {
      try {
        const files: string[] = [];
        const directories: string[] = [];
        for (const e of ctx.host.readDir(d)) {
          const type = e.type === 'symlink' ? ctx.host.stat(`${d}/${e.name}`)?.type : e.type;
          if (type === 'directory') directories.push(e.name);
          else if (type === 'file') files.push(e.name);
        }
        return { files, directories };
      } catch {
        return undefined;
      }
    },
  };
  let opened: ReturnType<CheckerProvider['open']>;
  try {
    opened = provider.open({
      root,
      project,
      roots: roots.map((f) => root + '/' + f),
      sourceFile: (abs) => {
        const rel = relOf(abs);
        return rel !== undefined && graph.has(rel) ? parseOwn(rel) : parseDeclarationFile(abs);
      },
      host: cacheFs,
      resolveImport: (fromAbs, specifier) => {
        const rel = relOf(fromAbs);
        if (rel === undefined) return undefined;
        const outcome = resolver.resolve(project, rel, {
          specifier,
          kind: 'import',
          syntax: 'static',
          evidence: { file: rel, line: 1, column: 1 },
        });
        return outcome.kind === 'file' ? root + '/' + outcome.path : undefined;
      },
    });
  } catch (e) {
    opened = { declined: `the ${provider.name} checker could not start (${firstLine(e)})` };
  }
  if ('declined' in opened) {
    ctx.report.fallbacks.push({ project: project.configPath, reason: opened.declined });
    return undefined;
  }
  return opened;
}
