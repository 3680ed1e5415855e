// One measurement in a fresh process: `node --import tsx bench/worker.ts <task> <root>`.
// Prints {"ms": wall time of the measured part, "maxRssKb": the process's peak RSS}.

import * as fs from 'node:fs';
import * as ts from 'typescript';
import { buildGraph, loadGraphFile, serializeGraph } from '../src/graph';
import { discover } from '../src/graph/build/discover';
import { parseSource } from '../src/graph/build/extract';
import { nodeFileHost } from '../src/graph/build/host';

type Task = (root: string) => () => void;

/** The parse floor: read + createSourceFile over exactly the files the build reads, nothing else. */
const parseFloor: Task = (root) => {
  const files = discover(nodeFileHost, fs.realpathSync(root)).sourceFiles.map((f) => `${fs.realpathSync(root)}/${f}`);
  return () => {
    for (const f of files) parseSource(f, fs.readFileSync(f, 'utf8'), ts.ModuleKind.ESNext);
  };
};

const extractOnly: Task = (root) => () => {
  serializeGraph(buildGraph({ root, extractOnly: true }).graph);
};

/** The floor for loading a graph (`root` is the graph file): read it and JSON.parse it, nothing else. */
const graphParseFloor: Task = (file) => () => {
  JSON.parse(fs.readFileSync(file, 'utf8'));
};

/** What every query command does first: read, check UTF-8, parse, validate against the schema, index. */
const graphLoad: Task = (file) => () => {
  const load = loadGraphFile(file);
  if (!load.ok) throw new Error(load.unavailable.reason);
};

export const TASKS: Record<string, Task> = {
  'parse-floor': parseFloor,
  extract: extractOnly,
  'graph-parse-floor': graphParseFloor,
  'graph-load': graphLoad,
};

function main(): void {
  const [task, root] = process.argv.slice(2);
  const make = TASKS[task];
  if (!make || !root) {
    process.stderr.write(`usage: worker.ts <${Object.keys(TASKS).join('|')}> <root>\n`);
    process.exit(2);
  }
  const run = make(root);
  const t0 = performance.now();
  run();
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS }) + '\n');
}

main();
