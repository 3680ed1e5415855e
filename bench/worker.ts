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

/**
 * The type-check floor: for each project the build would create, `createProgram` (TypeScript's
 * own compiler host) + `getTypeChecker` + `getResolvedSignature` on every call-like expression of
 * the project's files. Nothing else: no extraction, no graph, no output.
 */
const typecheckFloor: Task = (root) => {
  const real = fs.realpathSync(root);
  const d = discover(nodeFileHost, real);
  const projects = d.projects.map((p) => ({ options: { ...p.options, noEmit: true }, files: p.files.map((f) => `${real}/${f}`) }));
  return () => {
    let resolved = 0;
    for (const p of projects) {
      if (p.files.length === 0) continue;
      const program = ts.createProgram(p.files, p.options, ts.createCompilerHost(p.options));
      const checker = program.getTypeChecker();
      for (const f of p.files) {
        const sf = program.getSourceFile(f);
        if (!sf) continue;
        const visit = (n: ts.Node): void => {
          if (ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n) || ts.isDecorator(n) || ts.isJsxOpeningLikeElement(n)) {
            if (checker.getResolvedSignature(n)) resolved++;
          }
          ts.forEachChild(n, visit);
        };
        visit(sf);
      }
    }
    if (resolved === 0) throw new Error('the floor resolved no call');
  };
};

const fullBuild: Task = (root) => () => {
  serializeGraph(buildGraph({ root }).graph);
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
  'typecheck-floor': typecheckFloor,
  full: fullBuild,
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
