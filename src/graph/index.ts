// The engine's one public facade: the CLI and the extension host import from here only.

export * from './model';
export * from './ids';
export { GraphError, isGraphError, type GraphErrorCode } from './errors';
export { buildGraph, type BuildOptions, type BuildResult, type BuildSink, type BuildStats } from './build/builder';
export { nodeFileHost, memoryFileHost, type FileHost, type MemoryTree } from './build/host';
export { serializeGraph } from './io/canonical';
export { graphSignature } from './io/signature';
export { writeFileAtomic } from './io/atomic';
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
