// `kg build`: a dry run prints the projection; --apply writes it atomically and prints one line.

import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { buildGraph, serializeGraph, writeFileAtomic, type BuildSink } from '../graph';
import { EXIT, type CliIo } from './streams';

export const BUILD_HELP = `Usage: kg build [--apply] [--extract-only] [--root DIR] [--out FILE] [--list-external]

Builds the knowledge graph of the TypeScript/JavaScript repository at --root.

Without --apply this is a dry run: the graph is printed to stdout and nothing is written.

Options:
  --apply           Write the graph atomically to --out and print one summary line.
  --extract-only    Build the extraction tier only (files, symbols, imports; no calls layer).
  --root DIR        Repository root (default: the current directory).
  --out FILE        Where --apply writes (default: <root>/.knowledge-graph/graph.json).
  --list-external   List imports and calls into node_modules or the standard library as
                    UNRESOLVED edges with reason "external" (by default they are only counted
                    in the graph's "unresolved" summary).
  -h, --help        Show this help.

Progress and diagnostics go to stderr. Exit codes: 0 built, 1 failed while writing,
2 bad usage or bad input (missing root, no sources, unparsable tsconfig) — nothing written.
`;

export function runBuild(args: string[], io: CliIo): number {
  const { values } = parseArgs({
    args,
    options: {
      apply: { type: 'boolean', default: false },
      'extract-only': { type: 'boolean', default: false },
      root: { type: 'string' },
      out: { type: 'string' },
      'list-external': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.stdout.write(BUILD_HELP);
    return EXIT.OK;
  }
  const root = path.resolve(io.cwd, values.root ?? '.');
  const out = path.resolve(io.cwd, values.out ?? path.join(root, '.knowledge-graph', 'graph.json'));
  const started = performance.now();
  const sink: BuildSink = {
    log: (level, message) => io.stderr.write(`kg: ${level === 'warn' ? 'warning: ' : ''}${message}\n`),
    progress: (phase, done, total) => io.stderr.write(`kg: ${phase} ${done}/${total}\n`),
  };
  const result = buildGraph({ root, extractOnly: values['extract-only'], listExternal: values['list-external'], sink });
  const text = serializeGraph(result.graph);
  for (const d of result.graph.diagnostics ?? []) io.stderr.write(`kg: note: ${d.path}: ${d.reason}\n`);
  if (!values.apply) {
    io.stdout.write(text);
    return EXIT.OK;
  }
  writeFileAtomic(out, text);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const g = result.graph;
  const shown = path.relative(io.cwd, out) || out;
  io.stdout.write(
    `kg: wrote ${shown}: ${g.nodes.length} nodes, ${g.edges.length} edges, layers ${g.layers.join('+') || '(none)'}, ` +
      `${result.stats.skipped} file${result.stats.skipped === 1 ? '' : 's'} skipped, ${seconds} s\n`,
  );
  return EXIT.OK;
}
