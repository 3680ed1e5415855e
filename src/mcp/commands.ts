// The two tools that are commands, not graph questions: `check` runs `kg check` and `build` runs
// `kg build --apply`, each as a child process of the very kg that serves (so they answer exactly
// what the CLI answers, and a build goes through the repository's build server, ADR 57). The
// child's output never reaches the MCP stream: it is read here and turned into the tool's answer.
// A cancelled call (or a client that went away) kills its child; an interrupted build leaves the
// current graph untouched (the atomic write of ADR 51).

import { spawn } from 'node:child_process';
import { DEFAULT_MAX_BYTES, fitAnswer } from './budget';
import { fail, type Shared, type ToolAnswer } from './answer';
import type { CommandTool } from './tools';

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

const CHECK_TIMEOUT_MS = 120_000;
const BUILD_TIMEOUT_MS = 30 * 60_000;

const lastLines = (s: string, n: number) => s.trim().split('\n').slice(-n).join('\n');

/** `check` in a process of the very kg that serves: what `kg check --root <root>` prints, fitted to the budget. */
export async function answerCheckTool(shared: Shared, kg: KgProcess, signal: AbortSignal, base?: string): Promise<ToolAnswer> {
  const r = await runKg(kg, ['check', '--root', shared.root, ...(base ? ['--base', base] : [])], shared.root, signal, CHECK_TIMEOUT_MS);
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
): Promise<ToolAnswer> {
  if (tool.kind === 'check') return answerCheckTool(shared, kg, signal);
  const full = args.full;
  if (full !== undefined && typeof full !== 'boolean') return fail('"full" must be true or false');
  const r = await runKg(
    kg,
    ['build', '--apply', '--root', shared.root, '--progress', 'json', ...(full ? ['--full'] : [])],
    shared.root,
    signal,
    BUILD_TIMEOUT_MS,
  );
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
