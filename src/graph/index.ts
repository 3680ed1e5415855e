// The engine's one public facade: the CLI and the extension host import from here only.

export * from './model';
export * from './ids';
export { GraphError, isGraphError, type GraphErrorCode } from './errors';
export type { BuildOptions, BuildResult, BuildSink, BuildStats } from './build/builder';
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

import type * as Builder from './build/builder';

let builder: typeof Builder | undefined;

/**
 * The builder, and the TypeScript compiler it carries, load on first use: reading and querying a
 * graph never pays for them. The bundles keep the builder in a file of its own (esbuild.mjs).
 */
function loadBuilder(): typeof Builder {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazy load esbuild.mjs splits into dist/engine-build.js
  builder ??= require('./build/builder') as typeof Builder;
  return builder;
}

export function buildGraph(options: Builder.BuildOptions): Builder.BuildResult {
  return loadBuilder().buildGraph(options);
}
