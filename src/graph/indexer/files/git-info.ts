// Where git keeps a repository's `info/exclude` and `info/attributes` for a worktree (ADR 166). In
// the main checkout `.git` is a folder and they are under it; in a linked worktree (`git worktree
// add`) `.git` is a file naming the worktree's git folder, and git reads both from the repository's
// common folder (named by that folder's `commondir`). Read the same way here, a worktree's build has
// the inputs of the main checkout's, so one's graph can start the other's build.

import * as path from 'node:path';
import type { FileHost } from './file-host';

const GIT_INFO = new Set(['.git/info/exclude', '.git/info/attributes']);

/** The file `rel` names under `root`: `.git/info/…` resolved through a worktree's `.git` file. */
export function inputFile(host: FileHost, root: string, rel: string): string {
  const plain = root + '/' + rel;
  if (!GIT_INFO.has(rel) || host.stat(root + '/.git')?.type !== 'file') return plain;
  const decode = (f: string) => new TextDecoder().decode(host.readFile(f));
  try {
    const m = /^gitdir:[ \t]*(.+?)[ \t\r]*$/m.exec(decode(root + '/.git'));
    if (!m) return plain;
    const gitDir = path.resolve(root, m[1]);
    let common = gitDir;
    try {
      common = path.resolve(gitDir, decode(gitDir + '/commondir').trim());
    } catch {
      // a git folder of its own (a separate git dir), not a linked worktree
    }
    return common.split(path.sep).join('/') + '/' + rel.slice('.git/'.length);
  } catch {
    return plain;
  }
}
