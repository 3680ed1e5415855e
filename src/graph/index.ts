// The engine's one public facade: the CLI and the extension host import from here only.

export * from './model';
export * from './ids';
export { GraphError, isGraphError, type GraphErrorCode } from './errors';
export type { BuildOptions, BuildResult, BuildSink } from './indexer/compiler/builder';
export type { ComponentCodeStore } from './indexer/components/stored-code';
export { nodeFileHost, memoryFileHost, type FileHost } from './indexer/files/file-host';
export { CONFIG_FILE } from './indexer/files/repository-config';
export { serializeGraph } from './io/canonical';
export { graphSignature } from './io/signature';
export { neo4jExport } from './io/formats/neo4j';
export { neighborhoodPicture, pathPicture, type Picture } from './picture/picture';
export { mermaidPicture } from './picture/mermaid';
export { dotPicture } from './picture/dot';
export { svgPicture } from './picture/svg';
export { DEFAULT_GRAPH_PATH, GRAPH_DIR, defaultGraphFile, repositoryOfGraph } from './io/graph-location';
export { loadGraphFile, parseGraphText, checkGraph, graphOutsideItsRepository, MAX_GRAPH_BYTES } from './io/load';
export { jsonForPeople, previewJson, redactCredentials, visible } from './io/display';
export { parseVersionedJson } from './io/versioned-json';
export { indexGraph, nodeOf, type IndexedGraph, type GraphLoad } from './query/indexed';
export {
  answerOn,
  answerQuery,
  CATALOGUE,
  CATALOGUE_NAMES,
  checkArgs,
  MAX_TEXT_PARAM,
  namesFor,
  paramsOf,
  QUERY_NAMES,
  type ArgsOf,
  type CatalogueName,
  type EditorQueryName,
  type ParamSpec,
  type QueryName,
  type QueryRequest,
  type ResultOf,
} from './query/catalogue';
export { RESULT_SCHEMAS, UNAVAILABLE_SCHEMA } from './query/result-schemas';
export type { CallerCounts, NeighbourGroup, NodeDetails } from './query/node-details';
export type { FileSymbol } from './query/file-symbols';
export { packageFileSymbols } from './query/file-symbols';
export { queryCallers } from './query/callers';
export { queryAffected } from './query/affected';
export { queryImpact } from './query/impact';
export { modulesUsedWhole, queryUnused } from './query/unused';
export { selectTests, testFileRule, type SelectedTest, type TestConfig, type TestSelection } from './query/affected-tests';
export { queryNeighbors } from './query/neighbors';
export { queryPath } from './query/shortest-path';
export { queryNeighborhood } from './query/neighborhood';
export { queryGodNodes } from './query/god-nodes';
export { queryIds, QUERY_LIMIT } from './query/search-ids';
export { searchNodes, type NodeSearch } from './query/search-ranked';
export { symbolAt } from './query/why';
export { resolveTarget, type Target } from './query/resolve-name';
export type { JsonSchema } from './query/result-schemas';
export type * from './query/shapes';
export { describeUnavailable } from './query/shapes';
export { answerHoles, unanalysedImporters } from './query/unanalysed';
export {
  examineGraph,
  runDoctor,
  formatDoctorReport,
  LOADER_CHECKS,
  DOCTOR_RULES,
  DOCTOR_SAMPLE_LIMIT,
  type DoctorRule,
} from './doctor/rules';
export { MODES, modeRank, readGraphConfig, resolveGraphConfig, type GraphConfigReport, type Mode } from './governance/config';
export type { DeclaredSymbol } from './indexer/compiler/declared-signature';
export {
  breakingFromReport,
  headFromDeclared,
  buildGuardIndex,
  consumerCount,
  guardedFiles,
  type BreakingChange,
  type Guarded,
  type GuardIndex,
} from './governance/breaking';
export { formatBreakingChange, guardDiagnostics, GUARD_CODE, GUARD_SOURCE, type GuardDiagnostic } from './governance/diagnostics';
export { EditorGuard } from './governance/editor-guard';
export { diffReport, DIFF_REPORT_VERSION } from './diff/report';
export type { DiffReport, DiffSide } from './diff/report-shape';
export { diffMarkdown, MARKDOWN_LIMIT } from './diff/pr-comment';
export { AUTO_INDEX_DELAY_MS, BuildScheduler, type SchedulerTimers } from './governance/build-scheduler';
export type { CheckerChoice, PreviousBuild, TrackedBuildOptions, TrackedBuildResult } from './indexer/compiler/incremental';
// The checker seam (ADR 8): a second backend is a CheckerProvider passed as BuildOptions.checker.
export type { CheckerBackend, CheckerProvider, CheckerReport, ProjectCheck } from './indexer/compiler/checker';
export { KG_VERSION, compareFingerprints, parseManifest, staleness, type Manifest } from './indexer/files/manifest';
export { fingerprintTree, graphStatus, manifestOfGraph } from './status';
export { StampedStaleness } from './tree-stamps';
export { commitGeneration, GenerationMemo, manifestPathFor, readPrevious, sweepStaleTemps } from './commit/generations';
export { DoctorMemo } from './doctor/memo';
export { unsafeDirReason, userStateBase, userStateDir } from './io/user-dir';
export { acquireBuildLock, describeHolder, lockHolder, lockPathFor, processAlive, tryLockFile } from './commit/lock';

import type * as Engine from './indexer/compiler/engine';
import type { BuildOptions, BuildResult, BuildSink } from './indexer/compiler/builder';
import type { PreviousBuild, TrackedBuildOptions, TrackedBuildResult } from './indexer/compiler/incremental';
import type { DeclaredSymbol } from './indexer/compiler/declared-signature';
import type { CommonJsExports } from './model';
import { breakingChanges, type BreakingChange, type GuardIndex } from './governance/breaking';
import { EditorGuard } from './governance/editor-guard';

let engine: typeof Engine | undefined;

/**
 * The builder, and the TypeScript compiler it carries, load on first use: reading, querying,
 * checking a graph and telling whether it is stale never pay for them. The bundles keep the
 * builder in a file of its own (esbuild.mjs).
 */
function loadEngine(): typeof Engine {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazy load esbuild.mjs splits into dist/engine-build.js
  engine ??= require('./indexer/compiler/engine') as typeof Engine;
  return engine;
}

/**
 * One file's symbols with their declared-signature hashes, computed from `text` with the parser
 * alone (no checker): what the editor's guard compares with graph.json on each edit. Loads the
 * compiler bundle on first use (about 0.3 s once); after that, a 2,000-line file takes a few
 * milliseconds (npm run bench).
 */
export function declaredSymbols(relPath: string, text: string): DeclaredSymbol[] {
  return loadEngine().declaredSymbols(relPath, text);
}

/**
 * One file's code hashed by the symbol it belongs to (and the file's own top-level code under its
 * file id), from its text with the parser alone: what `kg tests` compares between two sides to
 * find the symbols a change touched (ADR 165). Loads the compiler bundle on first use.
 */
export function codeHashes(relPath: string, text: string): Record<string, string> {
  return loadEngine().codeHashes(relPath, text);
}

/**
 * A JavaScript file's CommonJS export statements (or a declaration file's `export = Name`), from
 * its text with the parser alone: what `kg tests` gives the walk to step per exported name (ADR
 * 196). Undefined when the file's code reads what it exports otherwise. Loads the compiler bundle.
 */
export function commonJsExports(relPath: string, text: string): CommonJsExports | undefined {
  return loadEngine().commonJsExports(relPath, text);
}

/** The exported functions a change of a JavaScript file touched, when only they changed (ADR 196). */
export function changedExports(relPath: string, before: string, after: string): string[][] | undefined {
  return loadEngine().changedExports(relPath, before, after);
}

/**
 * The guard on one edited file: what its current text (the unsaved buffer) breaks, against the
 * graph indexed by buildGuardIndex. Parser only; a file with no guarded symbol returns [] without
 * parsing at all.
 */
export function guardEdit(index: GuardIndex, relPath: string, text: string): BreakingChange[] {
  if (!index.guarded.has(relPath)) return [];
  return breakingChanges(index, relPath, declaredSymbols(relPath, text));
}

/** The guard the extension host keeps per workspace folder, parsing with declaredSymbols (ADR-73). */
export function createEditorGuard(): EditorGuard {
  return new EditorGuard(declaredSymbols);
}

export function buildGraph(options: BuildOptions): BuildResult {
  return loadEngine().buildGraph(options);
}

/** A build, incremental when `options.previous` holds a graph and a manifest that describes it. */
export function buildTracked(options: TrackedBuildOptions): TrackedBuildResult {
  return loadEngine().buildTracked(options);
}

/** A build kept alive between rebuilds, with its programs warm (see indexer/compiler/incremental.ts). */
export class BuildSession {
  private readonly inner: Engine.CompilerSession;
  constructor(options: ConstructorParameters<typeof Engine.CompilerSession>[0]) {
    this.inner = new (loadEngine().CompilerSession)(options);
  }
  rebuild(opts?: { full?: boolean; sink?: BuildSink }): TrackedBuildResult {
    return this.inner.rebuild(opts);
  }
  warm(): TrackedBuildResult {
    return this.inner.warm();
  }
  sync(onDisk: PreviousBuild): void {
    this.inner.sync(onDisk);
  }
  /** Ends TypeScript 7's process when the session kept one (`backend: 'native'`). */
  close(): void {
    this.inner.close();
  }
}
