// `kg diff` on a real git repository (test/helpers/diff-repo.ts): the workflow recipe's commands
// from docs/ci.md, run as written; the cache; the same bytes from two clones in two folders; the
// working tree as HEAD, left untouched; hostile refs, which never reach a shell; a shallow clone.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { git, makeDiffRepo } from '../helpers/diff-repo';

function kg(args: string[], cwd: string, state: string) {
  const r = spawnSync(process.execPath, [CLI, 'diff', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, XDG_RUNTIME_DIR: state, CI: 'true' },
    maxBuffer: 1 << 26,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The `run:` block of a named step of the first workflow in docs/ci.md that has it. */
function stepScript(name: string): string {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'ci.md'), 'utf8');
  const lines = doc.split('\n');
  const at = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  assert.ok(at >= 0, `docs/ci.md has no step "${name}"`);
  const run = lines.findIndex((l, i) => i > at && l.trim() === 'run: |');
  const indent = (lines[run + 1].match(/^ */) as RegExpMatchArray)[0].length;
  const body: string[] = [];
  for (const l of lines.slice(run + 1)) {
    if (l.trim() !== '' && (l.match(/^ */) as RegExpMatchArray)[0].length < indent) break;
    body.push(l.slice(indent));
  }
  return body.join('\n');
}

describe('kg diff on a git repository', () => {
  let repo: string;
  let commits: { base: string; head: string };
  let state: string;
  before(() => {
    repo = tempDir('kg-diff-repo-');
    commits = makeDiffRepo(repo);
    state = tempDir('kg-diff-state-');
  });
  after(removeTempDirs);

  it("docs/ci.md's Structural diff step, as written, on a clone: JSON, then a markdown comment from the cache", () => {
    const clone = tempDir('kg-diff-clone-');
    git(clone, 'clone', '--quiet', '--branch', 'feature', repo, '.');
    const temp = tempDir('kg-diff-runner-');
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', stepScript('Structural diff')], {
      cwd: clone,
      encoding: 'utf8',
      env: {
        ...process.env,
        KG: `${process.execPath} ${CLI}`,
        GITHUB_BASE_REF: 'main',
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_REPOSITORY: 'team/app',
        RUNNER_TEMP: temp,
        XDG_RUNTIME_DIR: state,
        CI: 'true', // as every GitHub Actions runner sets it: no build server
      },
    });
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(fs.readFileSync(path.join(temp, 'kg-diff.json'), 'utf8'));
    assert.equal(report.base.commit, commits.base);
    assert.equal(report.head.commit, commits.head);
    assert.deepEqual(report.summary.symbols, { added: 2, removed: 2, renamed: 2, renameCandidates: 1, moved: 1, signatureChanged: 2 });
    // git proved the file move (same blob), which the CLI hands to the engine.
    assert.deepEqual(report.files.renamed, [{ from: 'src/strings.ts', to: 'src/text/strings.ts', matchedBy: 'identical-content' }]);
    const md = fs.readFileSync(path.join(temp, 'kg-diff.md'), 'utf8');
    assert.ok(md.startsWith('<!-- knowledge-graph:diff -->\n'));
    assert.ok(md.includes(`(https://github.example/team/app/blob/${commits.base}/src/shapes.ts#L1)`), 'removed symbols link to the base');
    assert.ok(md.includes(`(https://github.example/team/app/blob/${commits.head}/src/calc.ts#L2)`), 'changed ones to the head');
    // The first kg diff built both sides; the second read both from the cache.
    assert.equal(r.stderr.match(/exported and built/g)?.length, 2, r.stderr);
    assert.equal(r.stderr.match(/read from the cache/g)?.length, 2, r.stderr);
    assert.match(r.stderr, /HEAD \(\w+\): .*incremental/, 'the second side is built from the first one');
  });

  it('two clones in two folders with two caches give the same bytes; a cached run too', () => {
    const other = tempDir('kg-diff-other-name-');
    makeDiffRepo(other);
    const otherState = tempDir('kg-diff-state-');
    for (const format of ['json', 'markdown']) {
      const a = kg(['main', 'feature', '--format', format], repo, state);
      const b = kg(['main', 'feature', '--format', format], other, otherState);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      assert.equal(a.stdout, b.stdout, format);
    }
  });

  it('no sides: the merge base with main against the working tree, which is left as it was', () => {
    writeTree(repo, { 'src/util.ts': 'export function keep(): void {}\n\nexport function extra(): number {\n  return 1;\n}\n' });
    try {
      const r = kg([], repo, state);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout);
      assert.equal(report.base.spec, 'merge-base(main, HEAD)');
      assert.equal(report.base.commit, commits.base);
      assert.equal(report.head.kind, 'worktree');
      assert.ok(report.symbols.added.some((s: { id: string }) => s.id === 'sym:src/util.ts#extra'));
      assert.equal(git(repo, 'status', '--porcelain'), 'M src/util.ts');
      assert.equal(fs.existsSync(path.join(repo, '.knowledge-graph')), false);
    } finally {
      git(repo, 'checkout', '--quiet', '--', 'src/util.ts');
    }
  });

  it('hostile refs: a clear message and exit 2; nothing reaches a shell', () => {
    const canary = path.join(tempDir('kg-diff-canary-'), 'touched');
    const cases = ['no-such-branch', `main; touch ${canary}`, `$(touch ${canary})`, `main\`touch ${canary}\``, `--output=${canary}`];
    for (const ref of cases) {
      const r = kg(['--', ref, 'feature'], repo, state);
      assert.equal(r.code, 2, `${ref}: ${r.stderr}`);
      assert.match(r.stderr, /kg: diff: (unknown ref|not a ref)/, ref);
      assert.equal(r.stdout, '');
    }
    assert.equal(fs.existsSync(canary), false);
  });

  it('a shallow clone: no merge base (exit 3), a base it does not hold (exit 2), each saying why', () => {
    const shallow = tempDir('kg-diff-shallow-');
    git(shallow, 'clone', '--quiet', '--depth', '1', '--no-single-branch', '--branch', 'feature', `file://${repo}`, '.');
    git(shallow, 'remote', 'set-head', 'origin', 'main'); // as on a forge: origin's HEAD is the default branch
    const none = kg([], shallow, state);
    assert.equal(none.code, 3, none.stderr);
    assert.match(none.stderr, /shallow/);
    assert.equal(JSON.parse(none.stdout).available, false);
    const missing = kg([git(repo, 'rev-parse', 'feature~2'), 'HEAD'], shallow, state);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /unknown ref: .*shallow/);
  });

  it('graph files as sides: the same graph twice is an empty diff; a missing one is unavailable', () => {
    const dir = tempDir('kg-diff-graphs-');
    // A graph the earlier runs built and cached (this user's state folder, ADR 77).
    const cache = path.join(state, 'knowledge-graph', 'diff-cache');
    const cached = fs
      .readdirSync(cache)
      .filter((f) => f.endsWith('.graph.json'))
      .sort()[0];
    const out = path.join(dir, 'graph.json');
    fs.copyFileSync(path.join(cache, cached), out);
    const same = kg([out, out], dir, state);
    assert.equal(same.code, 0, same.stderr);
    const report = JSON.parse(same.stdout);
    assert.deepEqual(report.summary.edges, { added: 0, removed: 0, confidenceChanged: 0 });
    assert.equal(report.base.kind, 'graph');
    const gone = kg([path.join(dir, 'none.json'), out], dir, state);
    assert.equal(gone.code, 3, gone.stderr);
    assert.equal(JSON.parse(gone.stdout).available, false);
  });
});
