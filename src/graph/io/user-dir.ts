// Per-user state (build locks, build-server sockets) lives in a folder only this user can enter
// (ADR 77): $XDG_RUNTIME_DIR/knowledge-graph when the session has one, else
// <temp>/knowledge-graph-<uid>. A folder shared by every user (the old <temp>/knowledge-graph-locks)
// was created 0755 by whoever built first, so every other user got EACCES, and anyone could create
// it first, or plant files or links in it. So each folder is created 0700 and then verified: a
// real folder (not a link), owned by this user, open to no one else. One that is not is refused
// with a message, never used.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GraphError } from '../errors';

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/** Why `dir` is not private to this user, or undefined when it is. `dir` must exist. */
export function unsafeDirReason(dir: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (e) {
    return `cannot inspect it (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  if (st.isSymbolicLink()) return 'it is a symbolic link';
  if (!st.isDirectory()) return 'it is not a folder';
  if (process.platform === 'win32') return undefined;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `it belongs to another user (uid ${st.uid}, not ${me})`;
  if ((st.mode & 0o077) !== 0) return `others may enter it (mode ${(st.mode & 0o777).toString(8)}; it must be 700)`;
  return undefined;
}

/** Creates `dir` (0700) unless it exists, then verifies it; throws a GraphError naming the problem. */
function ensurePrivateDir(dir: string): string {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new GraphError(
        'WRITE_FAILED',
        `cannot create ${dir} for this user's build state: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      );
    }
  }
  const why = unsafeDirReason(dir);
  if (why)
    throw new GraphError(
      'WRITE_FAILED',
      `${dir} is not a folder only this user can enter (${why}); remove it, or set XDG_RUNTIME_DIR to a private folder`,
    );
  return dir;
}

/** This user's private base folder, before it is verified. */
export function userStateBase(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg) && unsafeDirReason(xdg) === undefined) return path.join(xdg, 'knowledge-graph');
  return path.join(os.tmpdir(), `knowledge-graph-${uid() ?? os.userInfo().username}`);
}

/** `<this user's private folder>/<name>`, created and verified (both levels). */
export function userStateDir(name: string): string {
  const base = ensurePrivateDir(userStateBase());
  return ensurePrivateDir(path.join(base, name));
}
