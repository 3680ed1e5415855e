// `kg build`: a dry run prints the projection; --apply writes it atomically and prints one line.

import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { buildGraph, isGraphError, serializeGraph, writeFileAtomic, type BuildResult, type BuildSink } from '../graph';
import type { BuildEvent } from './events';
import { EXIT, type CliIo } from './streams';

export const BUILD_HELP = `Usage: kg build [--apply] [--extract-only] [--root DIR] [--out FILE] [--list-external]
                [--progress text|json]

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
  --progress FORMAT How stderr reports: "text" (default, for people) or "json" (one JSON object
                    per line: log, progress, note, done and error events, for tools such as the
                    editor extension; see docs/cli.md).
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
      progress: { type: 'string', default: 'text' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.stdout.write(BUILD_HELP);
    return EXIT.OK;
  }
  if (values.progress !== 'text' && values.progress !== 'json') {
    throw Object.assign(new Error(`--progress must be "text" or "json", not "${values.progress}"`), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
  }
  const report = values.progress === 'json' ? jsonReporter(io) : textReporter(io);
  try {
    return buildAndReport(values, io, report);
  } catch (e) {
    report.error(e);
    throw e;
  }
}

function buildAndReport(values: BuildValues, io: CliIo, report: Reporter): number {
  const root = path.resolve(io.cwd, values.root ?? '.');
  const out = path.resolve(io.cwd, values.out ?? path.join(root, '.knowledge-graph', 'graph.json'));
  const started = performance.now();
  const sink: BuildSink = { log: report.log, progress: report.progress };
  const result = buildGraph({ root, extractOnly: values['extract-only'], listExternal: values['list-external'], sink });
  const text = serializeGraph(result.graph);
  for (const d of result.graph.diagnostics ?? []) report.note(d.path, d.reason);
  if (!values.apply) {
    io.stdout.write(text);
    report.done(null, result);
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
  report.done(out, result);
  return EXIT.OK;
}

type BuildValues = { apply: boolean; 'extract-only': boolean; root?: string; out?: string; 'list-external': boolean };

/** How a build reports on stderr: prose for people, or JSON lines for tools. */
interface Reporter {
  log(level: 'info' | 'warn', message: string): void;
  progress(phase: string, done: number, total: number): void;
  note(path: string, reason: string): void;
  done(out: string | null, result: BuildResult): void;
  error(e: unknown): void;
}

function textReporter(io: CliIo): Reporter {
  return {
    log: (level, message) => io.stderr.write(`kg: ${level === 'warn' ? 'warning: ' : ''}${message}\n`),
    progress: (phase, done, total) => io.stderr.write(`kg: ${phase} ${done}/${total}\n`),
    note: (p, reason) => io.stderr.write(`kg: note: ${p}: ${reason}\n`),
    done: () => {}, // the summary line on stdout says it
    error: () => {}, // run() prints the error and picks the exit code
  };
}

// The machine-readable twin of the text: a tool (the editor extension runs this CLI in a child
// process) reads events instead of parsing prose. An error is an event and is still rethrown,
// so the exit code and run()'s text line do not depend on the format.
function jsonReporter(io: CliIo): Reporter {
  const emit = (e: BuildEvent) => io.stderr.write(JSON.stringify(e) + '\n');
  return {
    log: (level, message) => emit({ event: 'log', level, message }),
    progress: (phase, done, total) => emit({ event: 'progress', phase, done, total }),
    note: (p, reason) => emit({ event: 'note', path: p, reason }),
    done: (out, { graph, stats }) =>
      emit({ event: 'done', out, nodes: graph.nodes.length, edges: graph.edges.length, layers: [...graph.layers], files: stats.files, skipped: stats.skipped }),
    error: (e) => emit({ event: 'error', code: isGraphError(e) ? e.code : 'INTERNAL', message: (e as Error)?.message ?? String(e) }),
  };
}
