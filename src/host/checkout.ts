// Which commit the editor's graph is for (issue 50, ADR 184, docs/worktrees.md): the
// status bar names the checkout a fresh graph describes — the commit checked out, its branch, and
// how many paths of the working tree differ from it (the graph was built from the files on disk,
// so it includes them). Asked of git after a build, off the build's path, with the options under
// which a repository's own configuration starts no program (src/git/plumbing.ts, ADR 143): the
// working tree is compared with every filter driver emptied, as the graph cache compares it.

import { CONFIG_FILE, GRAPH_DIR } from '../graph';
import { FILTER_CONFIG_ARGS, filtersOffFrom } from '../git/plumbing';
import { git } from './compare-git';

export interface Checkout {
  /** The commit checked out (full id). */
  commit: string;
  /** The branch checked out, or undefined on a detached HEAD. */
  branch?: string;
  /** Paths under the folder that differ from the commit (tracked changes and untracked files), kg's own outputs left out. */
  changed: number;
}

/** kg's own files are outputs, not inputs (its config is an input). */
const isOwnOutput = (p: string) => p.startsWith(`${GRAPH_DIR}/`) && p !== CONFIG_FILE;

function paths(out: string): string[] {
  return out.split('\0').filter((p) => p !== '');
}

/** The checkout of the git work tree `folder` is in, or undefined when it is in none or has no commit. */
export async function readCheckout(folder: string): Promise<Checkout | undefined> {
  const head = await git(folder, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  const commit = head.stdout.trim();
  if (head.code !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  const [branch, config, untracked] = await Promise.all([
    git(folder, ['symbolic-ref', '--quiet', '--short', 'HEAD']),
    git(folder, [...FILTER_CONFIG_ARGS]),
    // Relative to the folder (ls-files' default), so a folder below the top counts its own paths.
    git(folder, ['ls-files', '-z', '--others', '--exclude-standard', '--', '.']),
  ]);
  const tracked = await git(folder, [
    ...(config.code === 0 ? filtersOffFrom(config.stdout) : []),
    'diff-index',
    '-z',
    '--name-only',
    '--relative',
    '--no-renames',
    '--no-textconv',
    '--no-ext-diff',
    commit,
    '--',
    '.',
  ]);
  if (tracked.code !== 0 || untracked.code !== 0) return undefined;
  const changed = new Set([...paths(tracked.stdout), ...paths(untracked.stdout)].filter((p) => !isOwnOutput(p)));
  return { commit, branch: branch.code === 0 && branch.stdout.trim() !== '' ? branch.stdout.trim() : undefined, changed: changed.size };
}
