// One writer per graph: a lock file per graph, created atomically (a complete file hard-linked
// into place, so no reader ever sees a half-written lock). It lives in this user's private state
// folder (user-dir.ts, ADR 77), named by a hash of the graph's real path, not beside the graph: a build that is killed cannot
// remove its lock, and a stale lock must not sit in a folder that may be committed. The lock names its
// holder's pid and host; a lock whose holder died (a killed build) is stale and is broken — under
// a second, short-lived `.break` lock, so two builds that find the same stale lock cannot both
// take it. A live holder makes the next build wait (or, asked not to wait, refuse), saying who
// holds it.

import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GraphError } from '../errors';
import { sweepTemps, tempPathFor } from './atomic';
import { userStateDir } from '../io/user-dir';

export interface LockHolder {
  pid: number;
  hostname: string;
  token: string;
  /** When the holder took the lock (ISO time); only for messages, never for decisions. */
  started: string;
}

export interface BuildLock {
  path: string;
  holder: LockHolder;
  release(): void;
}

export interface LockOptions {
  /** Wait for a live holder to finish (default), or refuse at once. */
  wait?: boolean;
  /** Give up waiting after this long (default: never). */
  timeoutMs?: number;
  pollMs?: number;
  /** Told once when the lock is held by a live build and this one starts waiting. */
  onWait?(holder: LockHolder | undefined, lockPath: string): void;
  isCancelled?(): boolean;
}

/** The real path of `p`, through the nearest ancestor that exists (so it is the same before and after the folders are made). */
function realPathOf(p: string): string {
  const rest: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(cur), ...rest.reverse());
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return path.resolve(p);
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}

/**
 * Where the lock of a graph lives: `<this user's state folder>/locks/<hash of its real path>.lock`
 * (ADR 77). Creates and verifies the folder; throws a GraphError when it is not private.
 */
export function lockPathFor(graphPath: string): string {
  const key = createHash('sha256').update(realPathOf(graphPath)).digest('hex').slice(0, 32);
  return path.join(userStateDir('locks'), `${key}.lock`);
}

/** A lock whose content cannot be read is treated as live until it is this old. */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

function readHolder(lockPath: string): LockHolder | undefined | 'gone' {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    return typeof h.pid === 'number' && typeof h.hostname === 'string' && typeof h.token === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote a lock (or a temp file) may still be running. */
export function processAlive(pid: number, hostname = os.hostname()): boolean {
  if (hostname !== os.hostname()) return true; // another machine's process cannot be checked: assume it lives
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

/**
 * Whether `pid` has exited but not yet been reaped by its parent (state Z on Linux): it runs
 * nothing and holds nothing, though signal 0 still reaches it. A parent busy in synchronous work
 * (a test's spawnSync, an editor's extension host) leaves its children so for a while (ADR 92).
 */
function zombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
  } catch {
    return false; // no /proc (not Linux), or it just went: signal 0 said it was there
  }
}

/** Places `content` at `target` only if nothing is there; false when something is. */
function createExclusive(target: string, content: string): boolean {
  const tmp = tempPathFor(target);
  fs.writeFileSync(tmp, content);
  try {
    fs.linkSync(tmp, target);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw e;
    // No hard links on this file system: an exclusive create (a kill between create and write
    // leaves an empty lock, which the grace period turns stale).
    try {
      fs.writeFileSync(target, content, { flag: 'wx' });
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Whether a holder still holds: its process may be running (the default), or a stricter test. */
type HolderAlive = (holder: LockHolder) => boolean;
const holderProcessAlive: HolderAlive = (h) => processAlive(h.pid, h.hostname);

function isStale(lockPath: string, holder: LockHolder | undefined, alive: HolderAlive = holderProcessAlive): boolean {
  if (holder) return !alive(holder);
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs > UNREADABLE_LOCK_GRACE_MS;
  } catch {
    return false;
  }
}

/** Removes a stale lock, unless another build broke it first or a live one replaced it. */
function breakStale(lockPath: string, seen: LockHolder | undefined, me: LockHolder): void {
  const breaker = lockPath + '.break';
  if (!createExclusive(breaker, JSON.stringify(me))) {
    const other = readHolder(breaker);
    if (other !== 'gone' && isStale(breaker, other)) fs.rmSync(breaker, { force: true });
    return;
  }
  try {
    const now = readHolder(lockPath);
    const same = now !== 'gone' && (seen === undefined ? now === undefined : now?.token === seen.token);
    if (same) fs.rmSync(lockPath, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function describeHolder(h: LockHolder | undefined): string {
  return h ? `pid ${h.pid} on ${h.hostname}, since ${h.started}` : 'a holder that could not be identified';
}

function newHolder(): LockHolder {
  return { pid: process.pid, hostname: os.hostname(), token: randomBytes(8).toString('hex'), started: new Date().toISOString() };
}

/**
 * One attempt, never waiting: takes the lock file at `lockPath` for `me` — breaking it first when
 * its holder is gone — or answers who holds it. `alive` decides whether a holder still holds.
 */
function claim(lockPath: string, me: LockHolder, alive?: HolderAlive): BuildLock | { heldBy: LockHolder | undefined } {
  const content = JSON.stringify(me) + '\n';
  for (;;) {
    if (createExclusive(lockPath, content)) {
      return {
        path: lockPath,
        holder: me,
        release() {
          const now = readHolder(lockPath);
          if (now !== 'gone' && now?.token === me.token) fs.rmSync(lockPath, { force: true });
        },
      };
    }
    const holder = readHolder(lockPath);
    if (holder === 'gone') continue;
    if (!isStale(lockPath, holder, alive)) return { heldBy: holder };
    breakStale(lockPath, holder, me);
  }
}

/**
 * Takes the lock file at `lockPath` (its folder must exist) unless a live holder has it, in which
 * case the answer names that holder. For locks other than a graph's: the build server's (ADR 57).
 */
export function tryLockFile(lockPath: string, alive?: HolderAlive): BuildLock | { heldBy: LockHolder | undefined } {
  return claim(lockPath, newHolder(), alive);
}

/** Who holds the lock file at `lockPath`, if it names anyone (alive or not). */
export function lockHolder(lockPath: string): LockHolder | undefined {
  const h = readHolder(lockPath);
  return h === 'gone' ? undefined : h;
}

/** Takes the build lock of `graphPath`, waiting for (or refusing) a live holder. */
export async function acquireBuildLock(graphPath: string, options: LockOptions = {}): Promise<BuildLock> {
  const lockPath = lockPathFor(graphPath);
  const me = newHolder();
  const started = Date.now();
  let told = false;
  // Temp files of lock attempts a killed build left (the lock itself is broken below when stale).
  const base = path.basename(lockPath);
  sweepTemps(path.dirname(lockPath), new Set([base, base + '.break']), (pid) => !processAlive(pid));
  for (;;) {
    const got = claim(lockPath, me);
    if (!('heldBy' in got)) return got;
    const holder = got.heldBy;
    if (options.wait === false) {
      throw new GraphError(
        'BUILD_LOCKED',
        `another build is writing this graph (${describeHolder(holder)}); lock file ${lockPath}. Wait for it, or if no build is running, delete the lock file`,
      );
    }
    if (options.timeoutMs !== undefined && Date.now() - started > options.timeoutMs) {
      throw new GraphError(
        'BUILD_LOCKED',
        `gave up after ${Math.round(options.timeoutMs / 1000)} s waiting for another build (${describeHolder(holder)}); lock file ${lockPath}`,
      );
    }
    if (options.isCancelled?.()) throw new GraphError('CANCELLED', 'build cancelled while waiting for another build');
    if (!told) {
      told = true;
      options.onWait?.(holder, lockPath);
    }
    await sleep(options.pollMs ?? 100);
  }
}
