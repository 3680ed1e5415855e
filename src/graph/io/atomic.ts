// Atomic replacement: write a temp file in the target's directory, fsync it, rename it over the
// target, fsync the directory. A reader (or a kill at any moment) sees the old file or the new
// one, never a torn one.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GraphError } from '../errors';

export const TEMP_MARKER = '.kg-tmp-';

export function writeFileAtomic(target: string, data: string | Uint8Array): void {
  const dir = path.dirname(target);
  const tmp = path.join(dir, `${path.basename(target)}${TEMP_MARKER}${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(tmp, 'w', 0o644);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // best effort: the temp file is named so a later build can sweep it
    }
    throw new GraphError('WRITE_FAILED', `cannot write ${target}: ${(e as Error).message}`);
  }
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
