// Git objects no porcelain command makes, for the tests of what `kg diff` refuses to write (issue 55,
// ADR 143): a tree with one name twice, a name containing `/`, `..` or `.git`, written with
// `git hash-object --literally` and committed with `git commit-tree`.

import { spawnSync } from 'node:child_process';
import { gitTestEnv } from './diff-repo';

/** Runs git in `repo` (never through a shell); its stdout, trimmed. Throws with git's stderr when it fails. */
export function gitRun(repo: string, args: string[], input?: Buffer | string): string {
  const r = spawnSync('git', args, { cwd: repo, input, env: gitTestEnv() });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr.toString('utf8')}`);
  return r.stdout.toString('utf8').trim();
}

/** An entry of a raw tree: git's octal mode (`100644`, `120000`, `40000`), a name (any bytes but NUL), an object id. */
export type RawEntry = [mode: string, name: string, sha: string];

/** Writes a tree object holding exactly `entries`, in the order given, unchecked; its id. */
export function rawTree(repo: string, entries: RawEntry[]): string {
  const bytes = Buffer.concat(
    entries.map(([mode, name, sha]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`, 'utf8'), Buffer.from(sha, 'hex')])),
  );
  return gitRun(repo, ['hash-object', '-t', 'tree', '-w', '--literally', '--stdin'], bytes);
}

/** A blob holding `text`; its id. */
export function blob(repo: string, text: string): string {
  return gitRun(repo, ['hash-object', '-w', '--stdin'], text);
}

/** Commits `tree` on top of `parent` as branch `name`. */
export function branchAt(repo: string, name: string, tree: string, parent: string): void {
  const commit = gitRun(repo, ['commit-tree', tree, '-p', parent, '-m', name]);
  gitRun(repo, ['branch', '--force', name, commit]);
}
