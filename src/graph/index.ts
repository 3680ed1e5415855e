// The engine's one public facade: the CLI and the extension host import from here only.

export * from './model';
export * from './ids';
export { GraphError, isGraphError, type GraphErrorCode } from './errors';
export type { BuildOptions, BuildResult, BuildSink, BuildStats } from './indexer/compiler/builder';
export { nodeFileHost, memoryFileHost, type FileHost, type MemoryTree } from './indexer/files/file-host';
export { serializeGraph } from './io/canonical';
export { graphSignature } from './io/signature';
export { writeFileAtomic } from './io/atomic';
export { loadGraphFile, parseGraphText, checkGraph, defaultMaxBytes, MAX_GRAPH_BYTES, SCHEMA_SAMPLE_LIMIT, schemaViolations, type LoadOptions, type SchemaViolations } from './io/load';
export { indexGraph, nodeOf, type IndexedGraph, type GraphLoad } from './query/indexed';
export { answerQuery, QUERY_NAMES, type QueryName, type QueryRequest } from './query/dispatch';
export { queryCallers } from './query/callers';
export { queryAffected, CONSUMER_RELATIONS } from './query/affected';
export { queryImpact } from './query/impact';
export { queryNeighbors, DEFAULT_BUDGET } from './query/neighbors';
export { queryPath } from './query/shortest-path';
export { queryGodNodes, DEFAULT_TOP } from './query/god-nodes';
export { queryIds, QUERY_LIMIT } from './query/search-ids';
export type * from './query/shapes';
export {
  runDoctor,
  formatDoctorReport,
  DOCTOR_RULES,
  DOCTOR_RULE_DESCRIPTIONS,
  DOCTOR_SAMPLE_LIMIT,
  type DoctorReport,
  type DoctorRule,
  type DoctorRuleResult,
  type DoctorSample,
} from './doctor';
export type { BuildDelta, PreviousBuild, TrackedBuildOptions, TrackedBuildResult } from './indexer/compiler/incremental';
export { KG_VERSION, compareFingerprints, parseManifest, serializeManifest, staleness, type Manifest, type StalenessReport } from './indexer/files/manifest';
export { fingerprintTree, graphStatus, type GraphStatus } from './status';
export { commitGeneration, manifestPathFor, readPrevious, rejectedPathFor, sweepStaleTemps, type CommitResult } from './io/generations';
export { ensurePrivateDir, unsafeDirReason, userStateBase, userStateDir } from './io/user-dir';
export { acquireBuildLock, describeHolder, lockHolder, lockPathFor, processAlive, tryLockFile, type BuildLock, type LockHolder, type LockOptions } from './io/lock';

import type * as Engine from './indexer/compiler/engine';
import type { BuildOptions, BuildResult, BuildSink } from './indexer/compiler/builder';
import type { PreviousBuild, TrackedBuildOptions, TrackedBuildResult } from './indexer/compiler/incremental';

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

export function buildGraph(options: BuildOptions): BuildResult {
  return loadEngine().buildGraph(options);
}

/** A build, incremental when `options.previous` holds a graph and a manifest that describes it. */
export function buildTracked(options: TrackedBuildOptions): TrackedBuildResult {
  return loadEngine().buildTracked(options);
}

/** A build kept alive between rebuilds, with its programs warm (see indexer/compiler/incremental.ts). */
export class BuildSession {
  private readonly inner: Engine.BuildSession;
  constructor(options: ConstructorParameters<typeof Engine.BuildSession>[0]) {
    this.inner = new (loadEngine().BuildSession)(options);
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
}
