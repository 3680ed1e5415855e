// The engine's one public facade: the CLI and the extension host import from here only.

export * from './model';
export * from './ids';
export { GraphError, isGraphError, type GraphErrorCode } from './errors';
export { buildGraph, type BuildOptions, type BuildResult, type BuildSink, type BuildStats } from './build/builder';
export { nodeFileHost, memoryFileHost, type FileHost, type MemoryTree } from './build/host';
export { serializeGraph } from './io/canonical';
export { graphSignature } from './io/signature';
export { writeFileAtomic } from './io/atomic';
