// The engine's one public facade: the CLI and the extension host import from here only.

export * from './model';
export * from './ids';
export { GraphError, isGraphError, type GraphErrorCode } from './errors';
export { buildGraph, type BuildOptions, type BuildResult, type BuildSink, type BuildStats } from './build/builder';
export { nodeFileHost, memoryFileHost, type FileHost, type MemoryTree } from './build/host';
export { serializeGraph } from './io/canonical';
export { graphSignature } from './io/signature';
export { writeFileAtomic } from './io/atomic';
export { loadGraphFile, parseGraphText, checkGraph, defaultMaxBytes, MAX_GRAPH_BYTES, type LoadOptions } from './io/load';
export { indexGraph, nodeOf, type IndexedGraph, type GraphLoad } from './query/indexed';
export { answerQuery, QUERY_NAMES, type QueryName, type QueryRequest } from './query/answer';
export { queryCallers } from './query/callers';
export { queryAffected, CONSUMER_RELATIONS } from './query/affected';
export { queryImpact } from './query/impact';
export { queryNeighbors, DEFAULT_BUDGET } from './query/neighbors';
export { queryPath } from './query/shortest-path';
export { queryGodNodes, DEFAULT_TOP } from './query/god-nodes';
export { queryIds, QUERY_LIMIT } from './query/query';
export type * from './query/result';
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
export {
  BuildSession,
  buildTracked,
  fingerprintTree,
  graphStatus,
  type BuildDelta,
  type GraphStatus,
  type PreviousBuild,
  type TrackedBuildOptions,
  type TrackedBuildResult,
} from './build/incremental';
export { KG_VERSION, compareFingerprints, parseManifest, serializeManifest, staleness, type Manifest, type StalenessReport } from './build/manifest';
export { commitGeneration, manifestPathFor, readPrevious, rejectedPathFor, sweepStaleTemps, type CommitResult } from './io/generations';
export { acquireBuildLock, describeHolder, lockPathFor, type BuildLock, type LockHolder, type LockOptions } from './io/lock';
