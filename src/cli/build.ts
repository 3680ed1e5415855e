// `kg build`: a dry run prints the projection; --apply writes it through a checked generation
// and prints one line. Incremental when a valid manifest sits beside the graph, full otherwise.

import * as path from 'node:path';
import { parseArgs } from 'node:util';
import {
  GraphError,
  acquireBuildLock,
  buildTracked,
  commitGeneration,
  describeHolder,
  formatDoctorReport,
  readPrevious,
  sweepStaleTemps,
  type BuildSink,
  type TrackedBuildResult,
} from '../graph';
import { EXIT, type CliIo } from './streams';

export const BUILD_HELP = `Usage: kg build [--apply] [--full] [--extract-only] [--root DIR] [--out FILE] [--list-external] [--no-wait]

Builds the knowledge graph of the TypeScript/JavaScript repository at --root.

Without --apply this is a dry run: the graph is printed to stdout and nothing is written.

When a manifest from the last build sits beside the graph (graph.manifest.json) and still
describes it, the build is incremental: only changed files are parsed again, and the result is
identical to a full build. Otherwise (no manifest, a torn or mismatched one, a changed tsconfig,
package.json or .gitignore) the build is a full one, and stderr says why.

Options:
  --apply           Write the graph and print one summary line. The new graph is written
                    beside the current one, checked by the doctor, and only then replaces it;
                    a candidate that fails is kept as <name>.rejected.json.
  --full            Build everything from scratch even when an incremental build is possible.
  --extract-only    Build the extraction tier only (files, symbols, imports; no calls layer).
  --root DIR        Repository root (default: the current directory).
  --out FILE        Where the graph lives (default: <root>/.knowledge-graph/graph.json); the
                    manifest is written beside it.
  --list-external   List imports and calls into node_modules or the standard library as
                    UNRESOLVED edges with reason "external" (by default they are only counted
                    in the graph's "unresolved" summary).
  --no-wait         With --apply, refuse at once when another build is writing the same graph
                    (by default this build waits for it to finish).
  -h, --help        Show this help.

Progress and diagnostics go to stderr. Exit codes: 0 built, 1 failed (a write failed, a
suspected parse failure, a candidate the doctor rejected, another build holds the lock with
--no-wait) — the current graph is untouched; 2 bad usage or bad input (missing root, no
sources, unparsable tsconfig) — nothing written.
`;

export function describeMode(r: TrackedBuildResult): string {
  if (r.mode === 'incremental') {
    const d = r.delta;
    return `kg: incremental build: ${d.changed.length} changed, ${d.added.length} added, ${d.deleted.length} deleted; ${d.extracted} file${d.extracted === 1 ? '' : 's'} parsed, ${d.carried} carried forward\n`;
  }
  return r.fullReason ? `kg: full build: ${r.fullReason}\n` : 'kg: full build: no graph yet\n';
}

export async function runBuild(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      apply: { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      'extract-only': { type: 'boolean', default: false },
      root: { type: 'string' },
      out: { type: 'string' },
      'list-external': { type: 'boolean', default: false },
      'no-wait': { type: 'boolean', default: false },
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
  const shown = path.relative(io.cwd, out) || out;
  const started = performance.now();
  const sink: BuildSink = {
    log: (level, message) => io.stderr.write(`kg: ${level === 'warn' ? 'warning: ' : ''}${message}\n`),
    progress: (phase, done, total) => io.stderr.write(`kg: ${phase} ${done}/${total}\n`),
  };
  const build = (): TrackedBuildResult => {
    const result = buildTracked({
      root,
      extractOnly: values['extract-only'],
      listExternal: values['list-external'],
      sink,
      full: values.full,
      previous: readPrevious(out),
    });
    io.stderr.write(describeMode(result));
    for (const d of result.graph.diagnostics ?? []) io.stderr.write(`kg: note: ${d.path}: ${d.reason}\n`);
    return result;
  };

  if (!values.apply) {
    io.stdout.write(build().text);
    return EXIT.OK;
  }

  const result = await applyBuild({ out, shown, wait: !values['no-wait'], io, build });
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const g = result.graph;
  io.stdout.write(
    `kg: wrote ${shown}: ${g.nodes.length} nodes, ${g.edges.length} edges, layers ${g.layers.join('+') || '(none)'}, ` +
      `${result.stats.skipped} file${result.stats.skipped === 1 ? '' : 's'} skipped, ${seconds} s\n`,
  );
  return EXIT.OK;
}

/**
 * `--apply`: under the graph's lock, sweep what killed builds left, build, and make the result
 * current only if the doctor passes it (a rejected candidate is an error naming where it is kept).
 */
export async function applyBuild(a: { out: string; shown: string; wait: boolean; io: CliIo; build: () => TrackedBuildResult }): Promise<TrackedBuildResult> {
  const { out, shown, io } = a;
  const lock = await acquireBuildLock(out, {
    wait: a.wait,
    onWait: (holder) => io.stderr.write(`kg: another build is writing ${shown} (${describeHolder(holder)}); waiting for it to finish\n`),
  });
  try {
    const swept = sweepStaleTemps(out);
    if (swept.length > 0) io.stderr.write(`kg: removed ${swept.length} temp file${swept.length === 1 ? '' : 's'} left by an interrupted build\n`);
    const result = a.build();
    const commit = commitGeneration(out, result.text, result.manifestText);
    if (commit.status === 'rejected') {
      const kept = path.relative(io.cwd, commit.rejectedPath) || commit.rejectedPath;
      if (commit.report) io.stderr.write(formatDoctorReport(commit.report, kept));
      throw new GraphError('GRAPH_INVALID', `the new graph failed the doctor${commit.problem ? ` (${commit.problem})` : ''}; it is kept at ${kept} and ${shown} is untouched`);
    }
    return result;
  } finally {
    lock.release();
  }
}
