// What a build server may hold, and the housekeeping of the server folder (ADR 78, 125). A server
// keeps a full build's programs warm, about what a full build peaks at, one server per
// repository, for ten idle minutes. Past a memory budget, judged after a collection, it releases its
// programs after a build (the next build is cold, and the same bytes) and waits a shorter idle time
// before exiting.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** The default memory budget of a server, in MB (ADR 125). */
export const DEFAULT_BUDGET_MB = 3072;

/**
 * What a server may hold after a collection before it releases its programs: KG_SERVER_MAX_MB,
 * default 3072 MB — what VS Code lets its own TypeScript server take by default (ADR 125).
 */
export function memoryBudgetBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.KG_SERVER_MAX_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_BUDGET_MB) * 1024 * 1024;
}

let collector: (() => void) | undefined | null = null;

/**
 * What the process holds (ADR 125): its live heap and the memory outside the heap that live objects
 * own, after a full garbage collection. Right after a build the resident figure is mostly the
 * build's garbage — each build's checker, the graph's texts — and it stays high after a collection
 * too, until the system takes the pages back; judged by it, a server drops programs it could keep.
 * Where the runtime will not collect on request, the resident figure, which is never less.
 */
export function heldBytes(): number {
  if (collector === null) {
    try {
      v8.setFlagsFromString('--expose-gc');
      collector = vm.runInNewContext('gc') as () => void;
    } catch {
      collector = undefined;
    }
  }
  if (!collector) return process.memoryUsage().rss;
  collector();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * The longest request line a server reads (one build's argv and working directory, ADR 99): past
 * it the client is refused. Far above any real request, far below what would strain the server.
 */
export const MAX_REQUEST_CHARS = 256 * 1024;

/** How long a connection may take to send its request line before it is refused (ADR 99). */
export const REQUEST_TIMEOUT_MS = 5_000;

/** How long a server over its budget waits without a request before exiting. */
export const HIGH_MEMORY_IDLE_MS = 60_000;

/** The resident memory of process `pid` in bytes, where the process table says (Linux). */
export function rssBytesOf(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the `<id>.log` and `<id>.worktrees` files of servers no longer running (their lock gone or dead). */
export function removeStaleLogs(dir: string, running: (lockFile: string) => boolean): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    // A server's log, and the worktrees it held (which a killed server leaves).
    const suffix = ['.log', '.worktrees'].find((s) => name.endsWith(s));
    if (suffix === undefined) continue;
    const lockFile = path.join(dir, name.slice(0, -suffix.length) + '.lock');
    if (running(lockFile)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed++;
    } catch {
      // another process's business now
    }
  }
  return removed;
}

/** The lock files in the server folder: one per server that runs or ran. */
export function serverLockFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.lock'))
      .sort()
      .map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}
