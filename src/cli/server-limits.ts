// What a build server may hold, and the housekeeping of the server folder (ADR 78). A server keeps
// a full build's programs warm: about 1.3 GB after an 880-file repository, one server per
// repository, for ten idle minutes. Past a memory budget it releases its programs after a build
// (the next build is cold, and the same bytes) and waits a shorter idle time before exiting.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** The RSS above which a server releases its programs: KG_SERVER_MAX_MB, default 1024 MB. */
export function memoryBudgetBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.KG_SERVER_MAX_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : 1024) * 1024 * 1024;
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

/** Removes the `<id>.log` files of servers no longer running (their lock gone or dead). */
export function removeStaleLogs(dir: string, running: (lockFile: string) => boolean): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.endsWith('.log')) continue;
    const lockFile = path.join(dir, name.slice(0, -'.log'.length) + '.lock');
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
