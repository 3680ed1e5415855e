// Runs `kg build --apply --progress json` for the editor and turns its event lines into one
// outcome: on the repository's warm build server when one answers (ADR 119: the editor talks to
// its socket itself, without a `kg` process in between), else with the bundled CLI in a child
// process, which also starts a server for the next build. No `vscode` here: the tests drive it
// with the real dist/cli.js. Why a child process and how it is started:
// docs/adr/0031-build-runs-the-cli-in-a-child-process.md.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildOnServer, serverDirProblem, serverListening, serverOff, serverPaths } from '../build-server/client';
import { parseBuildEvent, type BuildEvent } from '../protocol/build-events';

/** What `kg build --progress json` reports, line by line (docs/cli.md). */
export type CliEvent = BuildEvent;

export interface BuildSummary {
  out: string;
  nodes: number;
  edges: number;
  layers: string[];
  files: number;
  skipped: number;
  /** The skipped files by short reason, when the `kg` that built says them. */
  skippedBy?: Record<string, number>;
  seconds: number;
}

export type CliBuildResult =
  /** `via`: who built, the repository's warm build server or a `kg` process started for this build. */
  | { kind: 'built'; summary: BuildSummary; via: 'server' | 'process' }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'cancelled' };

export interface CliBuildOptions {
  /** Absolute path of the bundled dist/cli.js. */
  cli: string;
  /** Absolute path of the folder to build. */
  root: string;
  /** Absolute path the graph is written to. */
  out: string;
  /** Rebuild everything even when an incremental build is possible (`kg build --full`). */
  full?: boolean;
  /** The checker that proves the calls (`kg build --checker`; setting knowledgeGraph.checker, ADR 113). */
  checker?: 'js' | 'native';
  /** The program that runs cli.js: the editor's own runtime (see ADR 31). */
  execPath?: string;
  onEvent?(e: CliEvent): void;
  /** Lines on stderr that are not events (a usage error, a crash's stack). */
  onText?(line: string): void;
  signal?: AbortSignal;
  /** After SIGTERM, how long to wait before SIGKILL. */
  killGraceMs?: number;
  /** The environment of the build (the child's, and KG_SERVER, CI, KG_SERVER_DIR for the server); process.env by default. */
  env?: NodeJS.ProcessEnv;
}

/** Splits a stream's chunks into lines; the last partial line is kept until the next chunk. */
function lineSplitter(onLine: (line: string) => void): { push(chunk: string): void; end(): void } {
  let rest = '';
  return {
    push(chunk) {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p.trim() !== '') onLine(p.replace(/\r$/, ''));
    },
    end() {
      if (rest.trim() !== '') onLine(rest);
      rest = '';
    },
  };
}

/** The arguments of `kg build` (after the word build) the editor asks for. */
function buildArgs(options: CliBuildOptions): string[] {
  return [
    '--apply',
    '--progress',
    'json',
    '--root',
    options.root,
    '--out',
    options.out,
    ...(options.full ? ['--full'] : []),
    ...(options.checker === 'native' ? ['--checker', 'native'] : []),
  ];
}

/** Reads a build's stderr, line by line, into its events; says at the end what the build came to. */
function outcomeReader(options: CliBuildOptions, started: number) {
  let done: Extract<CliEvent, { event: 'done' }> | undefined;
  let error: Extract<CliEvent, { event: 'error' }> | undefined;
  const text: string[] = [];
  const lines = lineSplitter((line) => {
    const e = parseBuildEvent(line);
    if (!e) {
      // run() repeats an error event as a "kg: error:" line for people; report it once
      if (error && line === `kg: error: ${error.message}`) return;
      text.push(line);
      if (text.length > 40) text.shift();
      options.onText?.(line);
      return;
    }
    if (e.event === 'done') done = e;
    if (e.event === 'error') error = e;
    options.onEvent?.(e);
  });
  return {
    push: (chunk: string) => lines.push(chunk),
    /** What the build came to, given its exit code (or the signal that stopped it). */
    outcome(code: number | null, signal: string | null, cancelled: boolean, via: 'server' | 'process'): CliBuildResult {
      lines.end();
      const built = code === 0 && done !== undefined && done.out !== null;
      // A cancel that arrives after the graph was written is too late: report what happened.
      if (cancelled && !built) return { kind: 'cancelled' };
      if (built && done?.out) {
        const { event: _event, out, ...rest } = done;
        return { kind: 'built', summary: { ...rest, out, seconds: (Date.now() - started) / 1000 }, via };
      }
      if (error) return { kind: 'failed', code: error.code, message: error.message };
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      const last = text.filter((l) => l.startsWith('kg:')).pop() ?? text[text.length - 1];
      return {
        kind: 'failed',
        code: 'CLI_FAILED',
        message: `the build process ${how}${last ? `: ${last.replace(/^kg: (error: )?/, '')}` : ''}`,
      };
    },
  };
}

/**
 * The build on the repository's warm server, or undefined when none takes it (none running, builds
 * may not use one, or it stopped before answering): then a child process builds. The socket is the
 * one `kg build` in a child would reach: the same CLI script, runtime, root and KG_SERVER_DIR.
 */
async function onServer(options: CliBuildOptions, started: number): Promise<CliBuildResult | undefined> {
  const env = options.env ?? process.env;
  if (serverOff(env) !== undefined) return undefined;
  let script: string;
  let root: string;
  try {
    script = fs.realpathSync(options.cli);
    root = fs.realpathSync(options.root);
  } catch {
    return undefined; // the child says what is missing
  }
  const dir = env.KG_SERVER_DIR ? path.resolve(options.root, env.KG_SERVER_DIR) : undefined;
  const paths = serverPaths({ execPath: options.execPath ?? process.execPath, script, dir }, root);
  // A folder others can enter: the child warns and builds without one.
  if (serverDirProblem(path.dirname(paths.lockFile)) !== undefined) return undefined;
  // A server that is starting (the one the last child started) warms with a full build before it
  // listens. A child started now would build cold beside it, on the same cores, and not on the
  // server: the first save after the editor's first build took a cold build's time (issue 55,
  // item 3). Waiting for it is shorter, since it began first; with no server at all, a child.
  if (process.platform !== 'win32' && !fs.existsSync(paths.socket)) {
    const pid = await serverListening(paths, options.signal, (starting) =>
      options.onEvent?.({ event: 'log', level: 'info', message: `waiting for the build server (pid ${starting}) to finish warming` }),
    );
    if (options.signal?.aborted) return { kind: 'cancelled' };
    if (pid === undefined) return undefined;
  }
  const reader = outcomeReader(options, started);
  const code = await buildOnServer(
    paths,
    buildArgs(options),
    { stdout: { write: () => true }, stderr: { write: (t: string) => reader.push(t) }, cwd: options.root },
    options.signal,
  );
  if (code === undefined) return undefined;
  if (code === 'cancelled') return { kind: 'cancelled' };
  return reader.outcome(code, null, false, 'server');
}

export async function runCliBuild(options: CliBuildOptions): Promise<CliBuildResult> {
  const started = Date.now();
  if (options.signal?.aborted) return { kind: 'cancelled' };
  const served = await onServer(options, started);
  if (served) return served;
  return inChild(options, started);
}

function inChild(options: CliBuildOptions, started: number): Promise<CliBuildResult> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ kind: 'cancelled' });
    // ELECTRON_RUN_AS_NODE makes a desktop editor's Electron binary behave as plain Node; under
    // code-server or plain Node it is ignored. An empty execArgv keeps the extension host's
    // inspector flags from leaking into the child.
    const child = spawn(options.execPath ?? process.execPath, [options.cli, 'build', ...buildArgs(options)], {
      cwd: options.root,
      env: { ...(options.env ?? process.env), ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const reader = outcomeReader(options, started);
    let cancelled = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    child.stderr.setEncoding('utf8').on('data', (c: string) => reader.push(c));
    // stdout carries the one summary line of --apply; the done event says the same in JSON.
    child.stdout.resume();

    const onAbort = () => {
      cancelled = true;
      child.kill('SIGTERM');
      // The CLI installs no signal handler, so SIGTERM ends it at once; SIGKILL is the backstop.
      // Either way the graph is safe: it is replaced by an atomic rename or not at all.
      killTimer = setTimeout(() => child.kill('SIGKILL'), options.killGraceMs ?? 2000);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    let settled = false;
    const finish = (r: CliBuildResult) => {
      if (settled) return;
      settled = true;
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    child.on('error', (e) =>
      finish({ kind: 'failed', code: 'SPAWN_FAILED', message: `cannot start ${options.execPath ?? process.execPath}: ${e.message}` }),
    );
    child.on('close', (code, signal) => finish(reader.outcome(code, signal, cancelled, 'process')));
  });
}
