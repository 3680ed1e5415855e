// A repository's own .git/config can name programs for git to run. `kg diff` reads refs with git,
// the editor's "Compare With…" lists refs and reads files with it, `kg build` asks it which tree the
// working tree stands on (the graph cache, ADR 166), `kg tests` which files changed, and `kg cache`
// where the cache lives; none may start any of them (issue 55, ADR 143). One test per key: the key
// set in a real repository's .git/config to a script that leaves a marker, the kg commands that run
// git run (in real kg processes; the editor's git commands through src/host/compare-git.ts), and the
// marker must not be there. The index is made racy first (older than every file), so that git
// compares the working tree's files by content — through a filter, were one allowed to run.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileAtCommit, listRefs, recentCommits } from '../../src/host/compare-git';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { gitRun } from '../helpers/hostile-git';

/** Every hook git knows: a hooks folder holding each runs the marker whatever git does. */
const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'fsmonitor-watchman',
  'post-index-change',
];

describe("kg diff, kg build, kg tests, kg cache and Compare With… start no program a repository's .git/config names", () => {
  let work: string;
  let origin: string;
  let bin: string;

  /** A script that records that it ran (the key it stands for) in `marker`, then fails. */
  const script = (name: string, marker: string) => {
    const file = path.join(bin, `${name}-${path.basename(marker)}`);
    fs.writeFileSync(file, `#!/bin/sh\necho ${name} >> '${marker}'\nexit 1\n`, { mode: 0o755 });
    return file;
  };

  before(() => {
    bin = tempDir('kg-gitcfg-bin-');
    work = tempDir('kg-gitcfg-work-');
    gitRun(work, ['init', '--quiet', '--initial-branch=main']);
    writeTree(work, {
      '.gitattributes': '* filter=kgevil diff=kgevil merge=kgevil\n',
      'tsconfig.json': '{ "include": ["src"] }\n',
      'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
    });
    gitRun(work, ['add', '-A']);
    gitRun(work, ['commit', '--quiet', '-m', 'base']);
    gitRun(work, ['checkout', '--quiet', '-b', 'feature']);
    writeTree(work, { 'src/b.ts': "import { a } from './a';\nexport function b(): number {\n  return a() + 1;\n}\n" });
    gitRun(work, ['add', '-A']);
    gitRun(work, ['commit', '--quiet', '-m', 'b calls a']);
    gitRun(work, ['checkout', '--quiet', 'main']);
    // A commit that carries a signature, so a signature check (log.showSignature) has one to check.
    const tree = gitRun(work, ['rev-parse', 'main^{tree}']);
    const parent = gitRun(work, ['rev-parse', 'main']);
    const signed = gitRun(
      work,
      ['hash-object', '-t', 'commit', '-w', '--literally', '--stdin'],
      `tree ${tree}\nparent ${parent}\nauthor kg-test <kg-test@knowledge-graph.invalid> 1767225600 +0000\n` +
        `committer kg-test <kg-test@knowledge-graph.invalid> 1767225600 +0000\n` +
        'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n',
    );
    gitRun(work, ['update-ref', 'refs/heads/main', signed]);
    origin = path.join(tempDir('kg-gitcfg-origin-'), 'origin.git');
    gitRun(work, ['clone', '--quiet', '--bare', work, origin]);
    gitRun(origin, ['config', 'uploadpack.allowFilter', 'true']);
    gitRun(origin, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
  });
  after(removeTempDirs);

  /** A copy of the work repository (checked out), or a partial clone of origin holding no blob. */
  function repository(kind: 'full' | 'partial'): string {
    const dir = tempDir('kg-gitcfg-repo-');
    if (kind === 'full') {
      fs.cpSync(work, dir, { recursive: true, verbatimSymlinks: true });
      // The copy's files have new stat data: record it, so that git, seeing them unchanged but
      // racy, compares their content rather than calling them changed by their stat alone.
      gitRun(dir, ['update-index', '-q', '--refresh']);
    } else gitRun(dir, ['clone', '--quiet', '--filter=blob:none', '--no-checkout', `file://${origin}`, '.']);
    return dir;
  }

  function kg(repo: string, args: string[]) {
    // Racy: an index older than the files it lists makes git read them to compare.
    const old = new Date('2020-01-01T00:00:00Z');
    if (fs.existsSync(path.join(repo, '.git', 'index'))) fs.utimesSync(path.join(repo, '.git', 'index'), old, old);
    const r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: repo,
      encoding: 'utf8',
      // A fresh state folder: nothing cached, so every ref is read from git.
      env: { ...process.env, XDG_RUNTIME_DIR: tempDir('kg-gitcfg-state-'), KG_SERVER: 'off', CI: 'true' },
      maxBuffer: 1 << 26,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  const markerIn = (repo: string) => path.join(repo, '..', `${path.basename(repo)}.marker`);
  const ran = (marker: string) => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').trim() : '');

  /**
   * kg diff on refs, then on a ref and the working tree; kg build (the graph cache reads the working
   * tree's state), kg tests against the working tree, kg cache status: each answers, and nothing ran.
   */
  async function diffsStartNothing(repo: string, marker: string): Promise<void> {
    const refs = kg(repo, ['diff', 'main', 'feature']);
    assert.equal(refs.code, 0, refs.stderr);
    assert.match(refs.stdout, /sym:src\/b\.ts#b/);
    const worktree = kg(repo, ['diff', 'feature']);
    assert.equal(worktree.code, 0, worktree.stderr);
    // A file changed in the working tree, so the cache and kg tests have a change to read.
    fs.appendFileSync(path.join(repo, 'src', 'a.ts'), 'export const changed = 1;\n');
    const build = kg(repo, ['build', '--apply']);
    assert.equal(build.code, 0, build.stderr);
    // The cache read the working tree's state from git (the changed file is named by it).
    assert.match(build.stderr, /with 1 path changed in the working tree/);
    assert.equal(ran(marker), '', `kg build: git ran a program the repository's config names: ${ran(marker)}`);
    const tests = kg(repo, ['tests', 'main']);
    assert.equal(tests.code, 0, tests.stderr);
    assert.match(tests.stdout, /"spec":"working tree"/);
    const cache = kg(repo, ['cache', 'status']);
    assert.equal(cache.code, 0, cache.stderr);
    // And the editor's commands, on the same repository.
    assert.equal((await listRefs(repo)).stdout.includes('feature'), true);
    assert.match((await recentCommits(repo)).stdout, /\tsigned$/m);
    assert.match((await fileAtCommit(repo, 'main', 'src/a.ts')).stdout, /return 1/);
    assert.equal(ran(marker), '', `git ran a program the repository's config names: ${ran(marker)}`);
  }

  /** A partial clone: reading a ref would fetch its blobs; kg refuses the side instead, and nothing ran. */
  function partialStartsNothing(repo: string, marker: string): void {
    const r = kg(repo, ['diff', 'main', 'origin/feature']);
    assert.equal(ran(marker), '', `git ran a program the repository's config names: ${ran(marker)}`);
    assert.equal(r.code, 3, r.stderr);
    assert.match((JSON.parse(r.stdout) as { reason: string }).reason, /not in this clone.*partial clone/);
  }

  it('remote.origin.uploadpack: a partial clone fetches a missing blob by running it', () => {
    const repo = repository('partial');
    const marker = markerIn(repo);
    gitRun(repo, ['config', 'remote.origin.uploadpack', `${script('uploadpack', marker)}; git-upload-pack`]);
    partialStartsNothing(repo, marker);
  });

  it('core.sshCommand: a partial clone whose remote is reached over ssh runs it to fetch', () => {
    const repo = repository('partial');
    const marker = markerIn(repo);
    gitRun(repo, ['config', 'remote.origin.url', 'ssh://kg-test.invalid/origin.git']);
    gitRun(repo, ['config', 'core.sshCommand', script('ssh', marker)]);
    partialStartsNothing(repo, marker);
  });

  it('core.fsmonitor', async () => {
    const repo = repository('full');
    const marker = markerIn(repo);
    gitRun(repo, ['config', 'core.fsmonitor', script('fsmonitor', marker)]);
    await diffsStartNothing(repo, marker);
  });

  it('core.hooksPath (and .git/hooks): every hook git knows', async () => {
    const repo = repository('full');
    const marker = markerIn(repo);
    const hooks = tempDir('kg-gitcfg-hooks-');
    const hook = script('hook', marker);
    for (const name of HOOKS) {
      fs.copyFileSync(hook, path.join(hooks, name));
      fs.copyFileSync(hook, path.join(repo, '.git', 'hooks', name));
      fs.chmodSync(path.join(hooks, name), 0o755);
      fs.chmodSync(path.join(repo, '.git', 'hooks', name), 0o755);
    }
    gitRun(repo, ['config', 'core.hooksPath', hooks]);
    await diffsStartNothing(repo, marker);
  });

  it('filters named by .gitattributes: filter.X.smudge, clean and process', async () => {
    const repo = repository('full');
    const marker = markerIn(repo);
    gitRun(repo, ['config', 'filter.kgevil.smudge', script('smudge', marker)]);
    gitRun(repo, ['config', 'filter.kgevil.clean', script('clean', marker)]);
    gitRun(repo, ['config', 'filter.kgevil.process', script('process', marker)]);
    gitRun(repo, ['config', 'filter.kgevil.required', 'true']);
    await diffsStartNothing(repo, marker);
  });

  it('diff drivers: diff.X.textconv, diff.X.command and diff.external', async () => {
    const repo = repository('full');
    const marker = markerIn(repo);
    gitRun(repo, ['config', 'diff.kgevil.textconv', script('textconv', marker)]);
    gitRun(repo, ['config', 'diff.kgevil.command', script('diffcommand', marker)]);
    gitRun(repo, ['config', 'diff.external', script('external', marker)]);
    await diffsStartNothing(repo, marker);
  });

  it('core.pager and pager.<command>', async () => {
    const repo = repository('full');
    const marker = markerIn(repo);
    const pager = script('pager', marker);
    gitRun(repo, ['config', 'core.pager', pager]);
    for (const command of ['log', 'show', 'diff-tree', 'cat-file', 'ls-tree', 'for-each-ref'])
      gitRun(repo, ['config', `pager.${command}`, pager]);
    await diffsStartNothing(repo, marker);
  });

  it('gpg.program with log.showSignature (the editor lists recent commits)', async () => {
    const repo = repository('full');
    const marker = markerIn(repo);
    gitRun(repo, ['config', 'log.showSignature', 'true']);
    gitRun(repo, ['config', 'gpg.program', script('gpg', marker)]);
    await diffsStartNothing(repo, marker);
  });
});
