// `kg build`: a dry run prints the projection; --apply writes it through a checked generation
// and prints one line. Incremental when a valid manifest sits beside the graph, full otherwise.

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  GraphError,
  acquireBuildLock,
  defaultGraphFile,
  buildTracked,
  commitGeneration,
  describeHolder,
  formatDoctorReport,
  isGraphError,
  readPrevious,
  sweepStaleTemps,
  type BuildResult,
  type BuildSink,
  type CheckerChoice,
  type DoctorMemo,
  type TrackedBuildResult,
  visible,
} from '../graph';
import { buildEventLine, skippedText, type BuildEvent } from '../protocol/build-events';
import { BuildCache } from './build-cache';
import { componentCodeStore } from './component-code-cache';
import { checkBuildPaths } from './build-paths';
import { findRepositoryRoot } from './find-root';
import { startServerInBackground, type BuildContext, type ServerContext } from './server';
import { buildOnServer, serverDirProblem, serverPaths } from '../build-server/client';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError } from './usage';

export const BUILD_HELP = `Usage: kg build [--apply] [--full] [--extract-only] [--root DIR] [--out FILE] [--list-external]
                [--checker js|native] [--no-wait] [--no-server] [--progress text|json]

Builds the knowledge graph of the TypeScript/JavaScript repository at --root.

Without --apply this is a dry run: the graph is printed to stdout and nothing is written.

When a manifest from the last build sits beside the graph (graph.manifest.json) and still
describes it, the build is incremental: only changed files, and the files that take a name a
change altered (docs/adr/0118-invalidation-by-name.md), are parsed and resolved again, and the
result is identical to a full build. With nothing changed, --apply writes nothing. Otherwise (no
manifest, a torn or mismatched one, a changed tsconfig, package.json or .gitignore) the build is
a full one, and stderr says why.

Options:
  --apply           Write the graph and print one summary line. The new graph is written
                    beside the current one, checked by the doctor, and only then replaces it;
                    a candidate that fails is kept as <name>.rejected.json.
  --full            Build everything from scratch even when an incremental build is possible.
  --extract-only    Build the extraction tier only (files, symbols, imports; no calls layer).
${optionLines([COMMON_OPTIONS.root, COMMON_OPTIONS.out], 18)}
  --list-external   List imports and calls into node_modules or the standard library as
                    UNRESOLVED edges with reason "external" (by default they are only counted
                    in the graph's "unresolved" summary).
  --checker NAME    Which type checker proves the calls: "js" (default; TypeScript 6.0, in
                    this process) or "native" (TypeScript 7's Go checker in a child process,
                    faster). A project the native checker cannot serve (an option TypeScript 7
                    removed, no binary for this platform, a crash) falls back to "js" with a
                    note; stderr says which checker served each project. Same graph.json.
                    TypeScript 7.1 by default; KG_NATIVE_TS=7.0 runs 7.0.2 instead.
  --no-wait         With --apply, refuse at once when another build is writing the same graph
                    (by default this build waits for it to finish).
  --no-server       Build in this process: neither use nor start the repository's build server
                    (kg server --help). Also KG_SERVER=off, and always when CI is set.
  --progress FORMAT How stderr reports: "text" (default, for people) or "json" (one JSON object
                    per line: log, progress, note, done and error events, for tools such as the
                    editor extension; see docs/cli.md).
  -h, --help        Show this help.

Progress and diagnostics go to stderr. Exit codes: 0 built, 1 failed (a write failed, a
suspected parse failure, a candidate the doctor rejected, another build holds the lock with
--no-wait, a cancelled build) — the current graph is untouched; 2 bad usage or bad input
(missing root, no sources, unparsable tsconfig) — nothing written.

A build server for the repository, when one runs, does the build and this command streams its
output; the graph is the same bytes (kg server --help).
`;

/**
 * Which checker proved the calls: one line, and one note per project the native checker did not
 * serve (ADR 114). graph.json is the same bytes either way, so this is said here and nowhere else.
 */
function reportChecker(r: TrackedBuildResult, report: Reporter): void {
  const c = r.checker;
  if (c.requested === 'js') {
    report.log('info', `calls proven by the JavaScript checker (TypeScript ${r.graph.grammarVersions.typescript ?? ''})`);
    return;
  }
  const asked = c.served.length + c.fallbacks.length;
  const native = `the native checker (TypeScript ${c.version ?? '7'})`;
  report.log(
    'info',
    c.fallbacks.length === 0
      ? `calls proven by ${native} in ${asked === 0 ? 'no project (nothing to resolve)' : `all ${asked} project${asked === 1 ? '' : 's'}`}`
      : `calls proven by ${native} in ${c.served.length} of ${asked} projects, by the JavaScript checker in the rest`,
  );
  for (const a of c.adjusted ?? [])
    report.note(a.project || '(files outside every tsconfig)', `the native checker served this project with ${a.note}`);
  for (const f of c.fallbacks)
    report.note(f.project || '(files outside every tsconfig)', `the JavaScript checker served this project: ${f.reason}`);
}

/** A build after a checkout rather than a save: full, or more than 20 files changed, added or deleted. */
function looksLikeCheckout(r: TrackedBuildResult): boolean {
  if (r.mode !== 'incremental') return true;
  return r.delta.changed.length + r.delta.added.length + r.delta.deleted.length > 20;
}

/** One line saying whether the build was incremental (and what it did) or full (and why). */
function describeMode(r: TrackedBuildResult): string {
  if (r.mode === 'incremental') {
    const d = r.delta;
    const byFile = d.invalidation?.byFile ?? [];
    const rule =
      byFile.length === 0
        ? 'importers chosen by name'
        : `importers chosen by name, by file for ${byFile.slice(0, 2).join(', ')}${byFile.length > 2 ? ` and ${byFile.length - 2} more` : ''} (no per-name surface)`;
    return `incremental build: ${d.changed.length} changed, ${d.added.length} added, ${d.deleted.length} deleted; ${d.extracted} file${d.extracted === 1 ? '' : 's'} parsed, ${d.carried} carried forward${r.blanked > 0 ? ` (${r.blanked} read for their types with bodies blank)` : ''}; ${rule}`;
  }
  return r.fullReason ? `full build: ${r.fullReason}` : 'full build: no graph yet';
}

/**
 * `kg build`. `ctx` is set when a build server runs this build for a client (warm sessions, the
 * client's cancel); `server` when this process is the kg command and may hand the build to one.
 */
export async function runBuild(args: string[], io: CliIo, ctx: BuildContext = {}, server?: ServerContext): Promise<number> {
  const { values } = parseCommandArgs(args, {
    apply: { type: 'boolean', default: false },
    full: { type: 'boolean', default: false },
    'extract-only': { type: 'boolean', default: false },
    root: { type: 'string' },
    out: { type: 'string' },
    'list-external': { type: 'boolean', default: false },
    checker: { type: 'string', default: 'js' },
    'no-wait': { type: 'boolean', default: false },
    'no-server': { type: 'boolean', default: false },
    progress: { type: 'string', default: 'text' },
  });
  if (values.progress !== 'text' && values.progress !== 'json') {
    throw new UsageError(`--progress must be "text" or "json", not "${values.progress}"`);
  }
  if (values.checker !== 'js' && values.checker !== 'native') {
    throw new UsageError(`--checker must be "js" or "native", not "${values.checker}"`);
  }
  // No --root: the repository around the working directory, as git finds it (ADR 79).
  const found = values.root === undefined ? findRepositoryRoot(io.cwd) : undefined;
  if (found) values.root = found.root;
  checkBuildPaths(io.cwd, values.root, values.out);
  const useServer = server !== undefined && server.off === undefined && !values['no-server'] && ctx.session === undefined;
  let realRoot: string | undefined;
  if (useServer) {
    try {
      realRoot = fs.realpathSync(path.resolve(io.cwd, values.root ?? '.'));
    } catch {
      // no such root: building here says so
    }
  }
  let paths = useServer && realRoot !== undefined ? serverPaths(server, realRoot) : undefined;
  const dirProblem = paths ? serverDirProblem(path.dirname(paths.lockFile)) : undefined;
  if (paths && dirProblem) {
    // Loudly, and no server anywhere else: one the user's kg server status|stop cannot see must not run (ADR 77).
    const where = server?.dir !== undefined ? `KG_SERVER_DIR=${server.dir}` : path.dirname(paths.lockFile);
    io.stderr.write(`kg: warning: ${where} is not a folder only this user can enter (${dirProblem}); building without a build server\n`);
    paths = undefined;
  }
  if (paths) {
    const code = await buildOnServer(paths, args, io);
    if (typeof code === 'number') return code; // no signal here: never 'cancelled'
  }
  const report = values.progress === 'json' ? jsonReporter(io) : textReporter(io);
  if (found && found.root !== path.resolve(io.cwd))
    report.log('info', `repository root: ${found.root} (${found.why}; --root chooses another)`);
  let code: number;
  try {
    code = await buildAndReport(values, io, report, ctx);
  } catch (e) {
    report.error(e);
    throw e;
  }
  if (paths && server)
    startServerInBackground(server, paths, [
      // The graph it writes, so the server reads it once warm (ADR 135).
      ...(values.out !== undefined ? ['--out', path.resolve(io.cwd, values.out)] : []),
      ...(values['extract-only'] ? ['--extract-only'] : []),
      ...(values['list-external'] ? ['--list-external'] : []),
      ...(values.checker === 'native' ? ['--checker', 'native'] : []),
    ]);
  return code;
}

async function buildAndReport(values: BuildValues, io: CliIo, report: Reporter, ctx: BuildContext): Promise<number> {
  const root = path.resolve(io.cwd, values.root ?? '.');
  const out = path.resolve(io.cwd, values.out ?? defaultGraphFile(root));
  const shown = path.relative(io.cwd, out) || out;
  const started = performance.now();
  const sink: BuildSink = { log: report.log, progress: report.progress, isCancelled: ctx.cancelled };
  // What graph.json and its manifest held when the build read them (under the lock with --apply).
  let onDisk: ReturnType<typeof readPrevious> = {};
  // The repository's graph cache (ADR 166): only for a graph written with --apply. A build server
  // builds at every save, and asking git about the worktree costs a warm build a tenth of its time:
  // it leaves the cache alone unless its build looked like a checkout (below).
  const openCache = () =>
    BuildCache.open({
      root,
      extractOnly: values['extract-only'],
      listExternal: values['list-external'],
      env: io.env ?? {},
      log: report.log,
    });
  const backend = values.checker as CheckerChoice;
  // A server's first build of a worktree (ADR 187) starts from the cache as a one-shot build does.
  const fresh = ctx.session !== undefined && ctx.fresh?.(root, values['extract-only'], values['list-external'], backend) === true;
  const cache = values.apply && (ctx.session === undefined || fresh) ? openCache() : undefined;
  const build = (): TrackedBuildResult => {
    const session = ctx.session?.(root, values['extract-only'], values['list-external'], backend);
    let result: TrackedBuildResult;
    onDisk = session && ctx.generations ? ctx.generations.read(out) : readPrevious(out);
    // A warm server looks for an entry of this very content only: it is asked at every save.
    const previous = cache && !values.full ? cache.seed(onDisk) : onDisk;
    if (session) {
      session.sync(previous);
      result = session.rebuild({ full: values.full, sink });
      if (ctx.by) report.log('info', `built by ${ctx.by}, whose programs stay warm between builds (--no-server builds here)`);
    } else {
      // Components' generated code from earlier builds of this repository (ADR 182).
      const components = componentCodeStore(root, io.env ?? {}, cache?.state.commonDir);
      result = buildTracked({
        root,
        extractOnly: values['extract-only'],
        listExternal: values['list-external'],
        sink,
        full: values.full,
        previous,
        backend,
        componentCode: components,
      });
      const used = components?.counts();
      if (used && used.kept + used.generated > 0)
        report.log('info', `components' code: ${used.kept} kept from earlier builds (graph cache), ${used.generated} generated`);
    }
    report.log('info', describeMode(result));
    if (!values['extract-only']) reportChecker(result, report);
    for (const d of result.graph.diagnostics ?? []) report.note(d.path, d.reason);
    return result;
  };

  if (!values.apply) {
    const result = build();
    io.stdout.write(result.text);
    report.done(null, result);
    return EXIT.OK;
  }

  const { result, written } = await applyBuild({
    out,
    shown,
    wait: !values['no-wait'],
    log: report.log,
    cwd: io.cwd,
    build,
    cancelled: ctx.cancelled,
    unchanged: (r) => onDisk.graphText === r.text && onDisk.manifestText === r.manifestText,
    written: (r) => ctx.generations?.wrote(out, { graphText: r.text, manifestText: r.manifestText }),
    doctor: ctx.generations?.doctor(out),
  });
  if (cache) cache.store(result);
  else if (values.apply && ctx.session !== undefined && looksLikeCheckout(result)) openCache()?.store(result);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const g = result.graph;
  io.stdout.write(
    `kg: ${written ? 'wrote' : 'unchanged (nothing to write)'} ${shown}: ${g.nodes.length} nodes, ${g.edges.length} edges, layers ${g.layers.join('+') || '(none)'}, ` +
      `${skippedText(result.stats.skipped, result.stats.skippedBy)}, ${seconds} s\n`,
  );
  report.done(out, result);
  return EXIT.OK;
}

/**
 * `--apply`: under the graph's lock, sweep what killed builds left, build, and make the result
 * current only if the doctor passes it (a rejected candidate is an error naming where it is kept;
 * the doctor's report is logged).
 */
async function applyBuild(a: {
  out: string;
  shown: string;
  wait: boolean;
  cwd: string;
  log: (level: 'info' | 'warn', message: string) => void;
  build: () => TrackedBuildResult;
  /** Asked once the graph is built, before it is written: true stops with CANCELLED. */
  cancelled?: () => boolean;
  /** True when graph.json and its manifest already hold the result's bytes. */
  unchanged: (r: TrackedBuildResult) => boolean;
  /** Told, still holding the lock, that the result is now graph.json and its manifest. */
  written?: (r: TrackedBuildResult) => void;
  /** The doctor a build server keeps for this graph (ADR 132); a one-shot build examines in full. */
  doctor?: DoctorMemo;
}): Promise<{ result: TrackedBuildResult; written: boolean }> {
  const { out, shown, log } = a;
  const lock = await acquireBuildLock(out, {
    wait: a.wait,
    onWait: (holder) => log('info', `another build is writing ${shown} (${describeHolder(holder)}); waiting for it to finish`),
  });
  try {
    const swept = sweepStaleTemps(out);
    if (swept.length > 0) log('info', `removed ${swept.length} temp file${swept.length === 1 ? '' : 's'} left by an interrupted build`);
    const result = a.build();
    if (a.cancelled) {
      // Let a client's hang-up be heard: the build ran inside one turn of the event loop, so the
      // next turn's poll reads what arrived meanwhile, and the turn after that sees it handled.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (a.cancelled()) throw new GraphError('CANCELLED', `build cancelled; ${shown} is untouched`);
    }
    // A build that changed nothing writes nothing: graph.json and its manifest already hold these
    // bytes (the doctor passed them when they were written), and their times stay, so watchers
    // (the editor's, a CI cache) see no change (docs/cli.md).
    if (a.unchanged(result)) return { result, written: false };
    const commit = commitGeneration(out, result.text, result.manifestText, undefined, a.doctor, result.bytes);
    if (commit.status === 'rejected') {
      const kept = path.relative(a.cwd, commit.rejectedPath) || commit.rejectedPath;
      if (commit.report) for (const line of formatDoctorReport(commit.report, kept).trimEnd().split('\n')) log('warn', line);
      throw new GraphError(
        'GRAPH_INVALID',
        `the new graph failed the doctor${commit.problem ? ` (${commit.problem})` : ''}; it is kept at ${kept} and ${shown} is untouched`,
      );
    }
    a.written?.(result);
    return { result, written: true };
  } finally {
    lock.release();
  }
}

type BuildValues = {
  apply: boolean;
  full: boolean;
  'extract-only': boolean;
  root?: string;
  out?: string;
  'list-external': boolean;
  checker: string;
  'no-wait': boolean;
};

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
    log: (level, message) => io.stderr.write(`kg: ${level === 'warn' ? 'warning: ' : ''}${visible(message)}\n`),
    progress: (phase, done, total) => io.stderr.write(`kg: ${phase} ${done}/${total}\n`),
    note: (p, reason) => io.stderr.write(`kg: note: ${visible(p)}: ${visible(reason)}\n`),
    done: () => {}, // the summary line on stdout says it
    error: () => {}, // run() prints the error and picks the exit code
  };
}

// The machine-readable twin of the text: a tool (the editor extension runs this CLI in a child
// process) reads events instead of parsing prose. An error is an event and is still rethrown,
// so the exit code and run()'s text line do not depend on the format.
function jsonReporter(io: CliIo): Reporter {
  const emit = (e: BuildEvent) => io.stderr.write(buildEventLine(e));
  return {
    log: (level, message) => emit({ event: 'log', level, message }),
    progress: (phase, done, total) => emit({ event: 'progress', phase, done, total }),
    note: (p, reason) => emit({ event: 'note', path: p, reason }),
    done: (out, { graph, stats }) =>
      emit({
        event: 'done',
        out,
        nodes: graph.nodes.length,
        edges: graph.edges.length,
        layers: [...graph.layers],
        files: stats.files,
        skipped: stats.skipped,
        skippedBy: stats.skippedBy,
      }),
    error: (e) => emit({ event: 'error', code: isGraphError(e) ? e.code : 'INTERNAL', message: (e as Error)?.message ?? String(e) }),
  };
}
