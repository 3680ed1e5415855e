// src/host/checkout.ts and the status bar's words for it: which commit a fresh graph is of, read
// from a real git repository — the branch or a detached HEAD, the working tree's changed and
// untracked paths (kg's own outputs left out, a folder below the top counting its own), no
// repository at all — and a filter driver the repository names is never run.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readCheckout } from '../../src/host/checkout';
import type { FolderGraphState } from '../../src/host/graph-access';
import { statusText, statusTooltip } from '../../src/host/graph-text';

const state: FolderGraphState = {
  folder: 'file:///w',
  folderName: 'w',
  graphPath: '/w/.knowledge-graph/graph.json',
  kind: 'ready',
  nodes: 12,
  edges: 34,
  callsLayer: true,
  staleFiles: [],
};

describe('the checkout a fresh graph is of', () => {
  let root: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-checkout-'));
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.invalid');
    git('config', 'user.name', 't');
    write('src/a.ts', 'export const a = 1;\n');
    write('lib/b.ts', 'export const b = 1;\n');
    write('.knowledge-graph/graph.json', '{}\n');
    git('add', '-A');
    git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'one');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a clean checkout: the commit and its branch, nothing changed', async () => {
    assert.deepEqual(await readCheckout(root), { commit: git('rev-parse', 'HEAD'), branch: 'main', changed: 0 });
  });

  it('changed and untracked paths count, kg`s outputs do not; a folder below the top counts its own', async () => {
    write('src/a.ts', 'export const a = 2;\n');
    write('src/new.ts', 'export const n = 1;\n');
    write('lib/b.ts', 'export const b = 2;\n');
    write('.knowledge-graph/graph.json', '{"changed": true}\n');
    write('.knowledge-graph/manifest.json', '{}\n');
    assert.equal((await readCheckout(root))?.changed, 3);
    assert.equal((await readCheckout(path.join(root, 'src')))?.changed, 2);
    // kg's config is an input, not an output.
    write('.knowledge-graph/config.json', '{}\n');
    assert.equal((await readCheckout(root))?.changed, 4);
  });

  it('a detached HEAD has no branch', async () => {
    git('checkout', '-q', '--detach');
    const c = await readCheckout(root);
    assert.equal(c?.branch, undefined);
    assert.equal(c?.commit, git('rev-parse', 'HEAD'));
    git('checkout', '-q', 'main');
  });

  it('runs no filter driver the repository names', async () => {
    const marker = path.join(root, '..', `${path.basename(root)}-filter-ran`);
    // Staged in the same second it was written, the entry is racily clean: comparing the working
    // tree must read the file, through the repository's clean filter unless every filter is emptied.
    write('src/a.ts', 'export const a = 3;\n');
    git('add', 'src/a.ts');
    write('.gitattributes', '*.ts filter=evil\n');
    git('config', 'filter.evil.clean', `touch ${marker}; cat`);
    await readCheckout(root);
    assert.equal(fs.existsSync(marker), false, 'git ran the repository`s clean filter');
  });

  it('no repository, or a repository without a commit: nothing to name', async () => {
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-checkout-none-'));
    try {
      assert.equal(await readCheckout(plain), undefined);
      execFileSync('git', ['init', '-q'], { cwd: plain });
      assert.equal(await readCheckout(plain), undefined);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });

  it('the status bar names it for a fresh graph only', () => {
    const c = { commit: '3f2a9c1d0b7e00000000000000000000000000aa', branch: 'main', changed: 0 };
    assert.equal(statusText(state, c).text, '$(type-hierarchy) 12 nodes · 34 edges · $(git-commit) 3f2a9c1');
    assert.equal(statusText(state, { ...c, changed: 2 }).text, '$(type-hierarchy) 12 nodes · 34 edges · $(git-commit) 3f2a9c1 +2');
    assert.match(
      statusTooltip(state, undefined, { ...c, changed: 2 }),
      /The graph is of commit `3f2a9c1`, branch `main` with 2 paths of the working tree changed from it/,
    );
    assert.match(statusTooltip(state, undefined, { ...c, branch: undefined }), /commit `3f2a9c1`, a detached HEAD\./);
    // Stale, building, failed: the files are not the commit's, or not yet; no commit is named.
    assert.equal(statusText({ ...state, staleFiles: ['a.ts'] }, c).text, '$(warning) KG: stale: 1 file');
    assert.equal(statusText({ ...state, building: { phase: 'extract', done: 1, total: 2 } }, c).text, '$(sync~spin) KG: building 1/2');
    assert.doesNotMatch(statusTooltip({ ...state, staleFiles: ['a.ts'] }, undefined, c), /commit/);
    assert.doesNotMatch(statusTooltip({ ...state, buildFailure: 'boom' }, undefined, c), /The graph is of commit/);
  });
});
