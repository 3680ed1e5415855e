// What "Compare With…" (compare.ts, ADR 117) asks git, in plain Node so it is tested without an
// editor: the refs and recent commits to pick from, and a file's content at a commit. git runs as
// `kg diff` runs it (src/git/plumbing.ts, ADR 143): without a shell, refs as arguments, and with the
// options and environment under which a repository's own configuration starts no program — here
// also no signature check (`log.showSignature` runs `gpg.program`) and no textconv driver.

import { execFile } from 'node:child_process';
import { SAFE_GIT_OPTIONS, safeGitEnv } from '../git/plumbing';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** git with kg's safe options and environment, in `root`; never rejects (a failure is a non-zero code). */
export function git(root: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFE_GIT_OPTIONS, ...args],
      { cwd: root, env: safeGitEnv(process.env), maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Branches, remote branches and tags, one short name a line. */
export function listRefs(root: string): Promise<GitResult> {
  return git(root, ['for-each-ref', '--format=%(refname:short)', 'refs/heads', 'refs/remotes', 'refs/tags']);
}

/** The last 30 commits, `<short id>\t<subject>` a line. */
export function recentCommits(root: string): Promise<GitResult> {
  return git(root, ['log', '--no-show-signature', '-n', '30', '--format=%h%x09%s']);
}

/** A file's bytes at a commit, as git holds them (no textconv, no filter). */
export function fileAtCommit(root: string, commit: string, file: string): Promise<GitResult> {
  return git(root, ['show', '--no-textconv', `${commit}:${file}`]);
}
