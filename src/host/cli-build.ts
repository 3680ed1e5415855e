// Runs the bundled CLI (`kg build --apply --progress json`) in a child process and turns its event
// lines into one outcome. No `vscode` here: the unit tests drive it with the real dist/cli.js.
// Why a child process and how it is started: docs/adr/0031-build-runs-the-cli-in-a-child-process.md.

import { spawn } from 'node:child_process';
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
  seconds: number;
}

export type CliBuildResult =
  { kind: 'built'; summary: BuildSummary } | { kind: 'failed'; code: string; message: string } | { kind: 'cancelled' };

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

export function runCliBuild(options: CliBuildOptions): Promise<CliBuildResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ kind: 'cancelled' });
    const args = [
      options.cli,
      'build',
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
    // ELECTRON_RUN_AS_NODE makes a desktop editor's Electron binary behave as plain Node; under
    // code-server or plain Node it is ignored. An empty execArgv keeps the extension host's
    // inspector flags from leaking into the child.
    const child = spawn(options.execPath ?? process.execPath, args, {
      cwd: options.root,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let done: Extract<CliEvent, { event: 'done' }> | undefined;
    let error: Extract<CliEvent, { event: 'error' }> | undefined;
    const text: string[] = [];
    let cancelled = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;

    const err = lineSplitter((line) => {
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
    child.stderr.setEncoding('utf8').on('data', (c: string) => err.push(c));
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
    child.on('close', (code, signal) => {
      err.end();
      const built = code === 0 && done !== undefined && done.out !== null;
      // A cancel that arrives after the graph was written is too late: report what happened.
      if (cancelled && !built) return finish({ kind: 'cancelled' });
      if (built && done?.out) {
        const { event: _event, out, ...rest } = done;
        return finish({ kind: 'built', summary: { ...rest, out, seconds: (Date.now() - started) / 1000 } });
      }
      if (error) return finish({ kind: 'failed', code: error.code, message: error.message });
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      const last = text.filter((l) => l.startsWith('kg:')).pop() ?? text[text.length - 1];
      finish({
        kind: 'failed',
        code: 'CLI_FAILED',
        message: `the build process ${how}${last ? `: ${last.replace(/^kg: (error: )?/, '')}` : ''}`,
      });
    });
  });
}
