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

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // best effort: the temp file is named so a later build can sweep it
  }
}

/** Writes `data` to a fresh temp file beside `target` and fsyncs it; returns the temp path. */
export function writeTemp(target: string, data: string | Uint8Array): string {
  const dir = path.dirname(target);
  const tmp = tempPathFor(target);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(tmp, 'w', 0o644);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    removeQuietly(tmp);
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
export function promote(tmp: string, target: string): void {
  try {
    fs.renameSync(tmp, target);
  } catch (e) {
    removeQuietly(tmp);
    throw new GraphError('WRITE_FAILED', `cannot write ${target}: ${(e as Error).message}`);
  }
  fsyncDir(path.dirname(target));
}

export function writeFileAtomic(target: string, data: string | Uint8Array): void {
  promote(writeTemp(target, data), target);
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
