// Atomic replacement: write a temp file in the target's directory, fsync it, rename it over the
// target, fsync the directory. A reader (or a kill at any moment) sees the old file or the new
// one, never a torn one. The two halves are separate so a build can check the written candidate
// before it becomes current (see generations.ts).

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GraphError } from '../errors';

const TEMP_MARKER = '.kg-tmp-';

/** A fresh temp name beside `target`: `<name>.kg-tmp-<pid>-<random>`, so a sweep can tell whose it is. */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `${path.basename(target)}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * The file operations a replacement makes, injectable so a test can fail each one in turn
 * (test/unit/generations-failures.test.ts); `NODE_FS` is the real file system.
 */
export interface AtomicFs {
  /** Creates `file` (mode 0644) holding `data`, fsynced before it returns. */
  writeSynced(file: string, data: string | Uint8Array): void;
  rename(from: string, to: string): void;
  /** A second name for an existing file (a hard link). */
  link(existing: string, alias: string): void;
  remove(file: string): void;
}

export const NODE_FS: AtomicFs = {
  writeSynced(file, data) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const fd = fs.openSync(file, 'w', 0o644);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
  rename: (from, to) => fs.renameSync(from, to),
  link: (existing, alias) => fs.linkSync(existing, alias),
  remove: (file) => fs.rmSync(file, { force: true }),
};

/** Removes a file, best effort: a temp file is named so a later build can sweep it. */
export function removeQuietly(file: string, ops: AtomicFs = NODE_FS): void {
  try {
    ops.remove(file);
  } catch {
    // left for the next sweep
  }
}

/** Writes `data` to a fresh temp file beside `target` and fsyncs it; returns the temp path. */
export function writeTemp(target: string, data: string | Uint8Array, ops: AtomicFs = NODE_FS): string {
  const tmp = tempPathFor(target);
  try {
    ops.writeSynced(tmp, data);
  } catch (e) {
    removeQuietly(tmp, ops);
    throw new GraphError('WRITE_FAILED', `cannot write ${target}: ${(e as Error).message}`);
  }
  return tmp;
}

function fsyncDir(dir: string): void {
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is already atomic.
  }
}

/** Renames a written temp file over `target` (atomically) and makes the rename durable. */
export function promote(tmp: string, target: string, ops: AtomicFs = NODE_FS): void {
  try {
    ops.rename(tmp, target);
  } catch (e) {
    removeQuietly(tmp, ops);
    throw new GraphError('WRITE_FAILED', `cannot write ${target}: ${(e as Error).message}`);
  }
  fsyncDir(path.dirname(target));
}

/**
 * Removes temp files in `dir` whose name starts with one of `prefixes` and that `stale` says were
 * left behind (by the pid in their name). Returns the names removed.
 */
export function sweepTemps(dir: string, prefixes: ReadonlySet<string>, stale: (pid: number) => boolean): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    const at = name.indexOf(TEMP_MARKER);
    if (at < 0) continue;
    if (!prefixes.has(name.slice(0, at))) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(at + TEMP_MARKER.length))?.[1]);
    if (!Number.isInteger(pid) || !stale(pid)) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // left for the next sweep
    }
  }
  return removed;
}
