// git for the benches' own repositories: a fixed author, committer and date, so every run makes
// the same commits (and the same tree and commit ids) from the same edits.

import { execFileSync } from 'node:child_process';

export function benchGit(root: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'kg-bench',
      GIT_AUTHOR_EMAIL: 'bench@knowledge-graph.invalid',
      GIT_COMMITTER_NAME: 'kg-bench',
      GIT_COMMITTER_EMAIL: 'bench@knowledge-graph.invalid',
      GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
    },
  }).trim();
}
