// TypeScript 7's process: deadlines for its answers, and how it ended (ADR 145). The 7.0 API is synchronous: a request blocks this
// thread in readSync/writeSync until the Go process answers, so a process that never answers (a
// stopped one, a Go deadlock) would hang the build forever and no timer of this thread could fire.
// A watchdog thread reads, from memory shared with this one, when the request waiting now must be
// answered by, and kills the process when that passes: the blocked read then ends (end of file),
// the request fails, and the builder serves the project with the JavaScript checker (ADR 114).

import * as fs from 'node:fs';
import * as os from 'node:os';
import { Worker } from 'node:worker_threads';

/** How long TypeScript 7 may take, in milliseconds. */
export interface NativeDeadlines {
  /** One message of an answer: a response, or one of the file reads it asks for meanwhile. */
  requestMs: number;
  /** Everything asked about one project, from its opening. */
  projectMs: number;
}

/** Defaults: far above what a message or a project took in the measurements of ADR 130 (seconds), well below "forever". */
const DEFAULT_REQUEST_MS = 120_000;
const DEFAULT_PROJECT_MS = 30 * 60_000;

function positiveMs(text: string | undefined, fallback: number): number {
  if (text === undefined || !/^\d+$/.test(text.trim())) return fallback;
  const n = Number(text);
  return n >= 1 && Number.isSafeInteger(n) ? n : fallback;
}

/** The deadlines, from KG_NATIVE_REQUEST_TIMEOUT_MS and KG_NATIVE_PROJECT_TIMEOUT_MS when they hold a positive whole number. */
export function nativeDeadlines(env: NodeJS.ProcessEnv = process.env): NativeDeadlines {
  return {
    requestMs: positiveMs(env.KG_NATIVE_REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_MS),
    projectMs: positiveMs(env.KG_NATIVE_PROJECT_TIMEOUT_MS, DEFAULT_PROJECT_MS),
  };
}

// The shared slots (BigInt64): the pid to kill, the request's deadline and the project's (epoch
// milliseconds, 0 = none), what fired (0 nothing, 1 the request's, 2 the project's), and 1 to end
// the watchdog. A request is killed only while one waits: a project overdue between requests
// fails at its next request, and an idle process (a session's, between builds) is never killed.
const PID = 0;
const REQUEST = 1;
const PROJECT = 2;
const FIRED = 3;
const END = 4;

const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const s = new BigInt64Array(workerData);
const nap = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  if (Atomics.load(s, ${END}) !== 0n) break;
  const request = Atomics.load(s, ${REQUEST});
  if (request !== 0n) {
    const now = BigInt(Date.now());
    const project = Atomics.load(s, ${PROJECT});
    const fired = now >= request ? 1n : project !== 0n && now >= project ? 2n : 0n;
    if (fired !== 0n) {
      Atomics.store(s, ${FIRED}, fired);
      try { process.kill(Number(Atomics.load(s, ${PID})), 'SIGKILL'); } catch {}
      break;
    }
  }
  Atomics.wait(nap, 0, 0, 25);
}
`;

/** One process's watchdog. `waiting` brackets a blocking read or write; `project` sets or clears the project's deadline. */
export class NativeWatchdog {
  private readonly slots = new BigInt64Array(new SharedArrayBuffer(8 * 5));
  private readonly worker: Worker;
  private depth = 0;

  constructor(
    pid: number,
    readonly deadlines: NativeDeadlines,
  ) {
    Atomics.store(this.slots, PID, BigInt(pid));
    this.worker = new Worker(WATCHDOG, { eval: true, workerData: this.slots.buffer });
    // The watchdog never keeps kg alive, and an error of its own is not the build's.
    this.worker.unref();
    this.worker.on('error', () => undefined);
  }

  /** Why the process was killed, or undefined when it was not. */
  get fired(): string | undefined {
    const f = Atomics.load(this.slots, FIRED);
    if (f === 1n)
      return `TypeScript 7 did not answer within ${this.deadlines.requestMs} ms (KG_NATIVE_REQUEST_TIMEOUT_MS), so its process was ended`;
    if (f === 2n)
      return `TypeScript 7 did not finish the project within ${this.deadlines.projectMs} ms (KG_NATIVE_PROJECT_TIMEOUT_MS), so its process was ended`;
    return undefined;
  }

  /** Runs `io` (a blocking read or write to the process) under the request's deadline; `ended` says how the process went when it fails. */
  waiting<T>(io: () => T, ended: () => string | undefined): T {
    if (this.depth++ === 0) Atomics.store(this.slots, REQUEST, BigInt(Date.now() + this.deadlines.requestMs));
    try {
      return io();
    } catch (e) {
      const why = this.fired;
      if (why !== undefined) throw new Error(why);
      // A failed read or write of a process that is gone: how it went, after what failed.
      const end = ended();
      throw end !== undefined && e instanceof Error ? new Error(`${e.message}: ${end}`) : e;
    } finally {
      if (--this.depth === 0) Atomics.store(this.slots, REQUEST, 0n);
    }
  }

  /** Starts the project's deadline (`on`), or clears it. */
  project(on: boolean): void {
    Atomics.store(this.slots, PROJECT, on ? BigInt(Date.now() + this.deadlines.projectMs) : 0n);
  }

  close(): void {
    Atomics.store(this.slots, END, 1n);
    void this.worker.terminate().catch(() => undefined);
  }
}

/**
 * What became of TypeScript 7's process, read from Linux's /proc without waiting for it (the build
 * is synchronous: Node's exit event would come only after it). A failed write says only "EPIPE":
 * the process was gone before the request was written, and this says how it went (issue 55's
 * item 12: the note named the pipe, not the cause). Undefined where it cannot be told.
 */
export function processEnd(pid: number | undefined): string | undefined {
  if (pid === undefined) return "TypeScript 7's process did not start";
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command's closing parenthesis: the state is the third field, the exit status
  // (waitpid's encoding, Linux 3.5 and later) the fifty-second.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'T' || state === 't') return "TypeScript 7's process is stopped";
  if (state !== 'Z' && state !== 'X') return undefined;
  const status = Number(fields[49]);
  if (!Number.isInteger(status)) return "TypeScript 7's process ended";
  const signal = status & 0x7f;
  if (signal !== 0) {
    const name = Object.entries(os.constants.signals).find(([, n]) => n === signal)?.[0] ?? `signal ${signal}`;
    return `TypeScript 7's process was killed by ${name}${name === 'SIGKILL' ? ' (on Linux, often the out-of-memory killer)' : ''}`;
  }
  const code = (status >> 8) & 0xff;
  return `TypeScript 7's process exited with code ${code}${code === 2 ? ' (a Go panic: its message is on the stderr of the process that built)' : ''}`;
}
