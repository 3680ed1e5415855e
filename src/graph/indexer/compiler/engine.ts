// The part of the engine that carries the TypeScript compiler: building, incremental building and
// the warm session. The facade (src/graph/index.ts) loads it on first use, and the Node bundles
// keep it in a file of its own (esbuild.mjs → dist/engine-build.js), so reading, querying,
// checking (doctor) and staleness never load the compiler.

export { buildGraph } from './builder';
export { CompilerSession, buildTracked } from './incremental';
export { codeHashes, declaredSymbols } from './declared-symbols';
export { changedExports, commonJsExports } from './commonjs-exports';
