// The two tools that are commands, not graph questions: `check` runs `kg check` and `build` runs
// `kg build --apply`, each as a child process of the very kg that serves (so they answer exactly
// what the CLI answers, and a build goes through the repository's build server, ADR 57). The
// child's output never reaches the MCP stream: it is read here and turned into the tool's answer.
// A cancelled call (or a client that went away) kills its child; an interrupted build leaves the
// current graph untouched (the atomic write of ADR 51).
//
// One kg process per tool and repository at a time (issue 55, item 18: 40 concurrent build calls
// started 40 processes, 2.9 GB, and every call timed out). A call that comes while one runs is
// queued, not refused: it waits for the running one, then one more run starts for every call that
// queued meanwhile, and they all get its answer. Queued rather than refused because a refused
// agent can only call again, and a model has no way to wait before it does; joined rather than run
// once each because the one run that starts after a call covers every edit made before it, which
// is all the call asks (docs/adr/0146-an-agent-s-server-answers-only-about-its-repositories.md).

import { spawn } from 'node:child_process';
import { DEFAULT_MAX_BYTES, fitAnswer } from './budget';
import { fail, type Shared, type ToolAnswer } from './answer';
import type { CommandTool } from './tool-definitions';

/** How this server runs its own kg. */
export interface KgProcess {
  execPath: string;
  script: string;
  env?: NodeJS.ProcessEnv;
}

interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

/** At most this much of a child's output is kept (a check report is small; a build prints one line). */
const MAX_OUTPUT = 8 * 1024 * 1024;

function runKg(kg: KgProcess, args: string[], cwd: string, signal: AbortSignal, timeoutMs: number): Promise<ChildResult> {
  if (signal.aborted) return Promise.resolve({ code: null, stdout: '', stderr: '', killed: true });
  return new Promise((resolve) => {
    const child = spawn(kg.execPath, [kg.script, ...args], { cwd, env: kg.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const kill = () => {
      killed = true;
      child.kill('SIGTERM');
    };
    const timer = setTimeout(kill, timeoutMs);
    signal.addEventListener('abort', kill, { once: true });
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += s;
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += s;
    });
    child.on('error', (e) => {
      stderr += String(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', kill);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

/** One run shared by the calls that joined it; cancelled when every one of them was. */
interface Run {
  promise: Promise<ChildResult>;
  abort: AbortController;
  waiters: number;
}

/** At most one run per key (a tool and a repository), and at most one queued behind it that every later call joins. */
export class OneAtATime {
  private readonly lanes = new Map<string, { running?: Run; queued?: Run }>();

  /** How many runs are running or queued (for the tests). */
  get size(): number {
    let n = 0;
    for (const l of this.lanes.values()) n += (l.running ? 1 : 0) + (l.queued ? 1 : 0);
    return n;
  }

  run(
    key: string,
    signal: AbortSignal,
    work: (signal: AbortSignal) => Promise<ChildResult>,
    log?: (line: string) => void,
  ): Promise<ChildResult> {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = {}));
    const l = lane;
    let run = l.queued;
    if (run) log?.(`joined the ${key} queued behind the one running`);
    else if (l.running) {
      const before = l.running.promise;
      const abort = new AbortController();
      const queued: Run = {
        abort,
        waiters: 0,
        promise: before.then(() => {
          l.running = queued;
          l.queued = undefined;
          return work(abort.signal);
        }),
      };
      l.queued = run = queued;
      log?.(`queued the ${key} behind the one running`);
    } else {
      const abort = new AbortController();
      const running: Run = { abort, waiters: 0, promise: work(abort.signal) };
      l.running = run = running;
    }
    const mine = run;
    mine.waiters++;
    const leave = () => {
      if (--mine.waiters === 0) mine.abort.abort();
    };
    if (signal.aborted) leave();
    else signal.addEventListener('abort', leave, { once: true });
    void mine.promise.finally(() => {
      signal.removeEventListener('abort', leave);
      if (l.running === mine) l.running = undefined;
      if (!l.running && !l.queued) this.lanes.delete(key);
    });
    return mine.promise;
  }
}

const CHECK_TIMEOUT_MS = 120_000;
const BUILD_TIMEOUT_MS = 30 * 60_000;

const lastLines = (s: string, n: number) => s.trim().split('\n').slice(-n).join('\n');

/** `check` in a process of the very kg that serves: what `kg check --root <root>` prints, fitted to the budget. */
export async function answerCheckTool(
  shared: Shared,
  kg: KgProcess,
  signal: AbortSignal,
  base?: string,
  runs?: OneAtATime,
  log?: (line: string) => void,
): Promise<ToolAnswer> {
  const args = ['check', '--root', shared.root, ...(base ? ['--base', base] : [])];
  const work = (s: AbortSignal) => runKg(kg, args, shared.root, s, CHECK_TIMEOUT_MS);
  const r = await (runs ? runs.run(`check of ${shared.root}${base ? ` against ${base}` : ''}`, signal, work, log) : work(signal));
  if (r.killed) return fail('kg check was stopped before it finished (cancelled, or it took longer than two minutes).');
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    return fail(`kg check failed (exit ${r.code}): ${lastLines(r.stderr, 5)}`);
  }
  if (report.available !== true) {
    const reason = typeof report.reason === 'string' ? report.reason : 'unavailable';
    return fail(
      report.code === 'NO_GRAPH'
        ? `No graph to check against in ${shared.root}: call the build tool (or run \`kg build --apply\`) on the unedited tree first, then edit and check.`
        : `kg check cannot compare: ${reason}. Call the build tool with full: true, then check again.`,
    );
  }
  const fitted = fitAnswer(
    report,
    { offset: shared.offset, limit: shared.limit, maxBytes: DEFAULT_MAX_BYTES },
    () => undefined,
    (_f, next) => `call check again with offset ${next}`,
  );
  return { ok: true, value: fitted.answer };
}

export async function answerCommandTool(
  tool: CommandTool,
  args: Record<string, unknown>,
  shared: Shared,
  kg: KgProcess,
  signal: AbortSignal,
  runs?: OneAtATime,
  log?: (line: string) => void,
): Promise<ToolAnswer> {
  if (tool.kind === 'check') return answerCheckTool(shared, kg, signal, undefined, runs, log);
  const full = args.full;
  if (full !== undefined && typeof full !== 'boolean') return fail('"full" must be true or false');
  const argv = ['build', '--apply', '--root', shared.root, '--progress', 'json', ...(full ? ['--full'] : [])];
  const work = (s: AbortSignal) => runKg(kg, argv, shared.root, s, BUILD_TIMEOUT_MS);
  // A full build and an incremental one are different runs: a call for one never gets the other's answer.
  const r = await (runs ? runs.run(`${full ? 'full ' : ''}build of ${shared.root}`, signal, work, log) : work(signal));
  if (r.killed) return fail('The build was stopped before it finished (cancelled, or over 30 minutes); the graph is unchanged.');
  let done: { nodes?: number; edges?: number } | undefined;
  let error: string | undefined;
  for (const line of r.stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const e = JSON.parse(line) as { event?: string; nodes?: number; edges?: number; message?: string };
      if (e.event === 'done') done = e;
      if (e.event === 'error') error = e.message;
    } catch {
      // Not an event line.
    }
  }
  if (r.code !== 0)
    return fail(
      `kg build --apply failed in ${shared.root} (exit ${r.code}): ${error ?? lastLines(r.stderr, 5)}. The previous graph, if any, is unchanged.`,
    );
  return {
    ok: true,
    value: {
      built: true,
      root: shared.root,
      summary: lastLines(r.stdout, 1),
      ...(done?.nodes !== undefined ? { nodes: done.nodes } : {}),
      ...(done?.edges !== undefined ? { edges: done.edges } : {}),
    },
  };
}
