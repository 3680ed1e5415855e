// A linked worktree's build reads git's info/exclude from the repository's common folder, as git
// does (ADR 166): on a real repository and a real `git worktree add`, a file the main checkout's
// .git/info/exclude names is left out of the walk in both, and both name the same input.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { hashInputs, walkInputPaths } from '../../src/graph/indexer/files/manifest';
import { walk } from '../../src/graph/indexer/files/walk';
import { nodeFileHost } from '../../src/graph/indexer/files/file-host';
import { git } from '../helpers/diff-repo';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

after(removeTempDirs);

describe('info/exclude in a linked worktree', () => {
  it('is the common folder’s, as git reads it', () => {
    const home = tempDir('kg-wt-info-');
    const main = path.join(home, 'main');
    fs.mkdirSync(main);
    git(main, 'init', '-q', '-b', 'main');
    writeTree(main, { 'src/a.ts': 'export const a = 1;\n', 'src/local.ts': 'export const local = 2;\n' });
    git(main, 'add', '-A');
    git(main, 'commit', '-q', '-m', 'base');
    fs.writeFileSync(path.join(main, '.git', 'info', 'exclude'), 'src/local.ts\n');
    const wt = path.join(home, 'wt');
    git(main, 'worktree', 'add', '-q', wt, '-b', 'side');
    // git itself ignores it in the worktree; untracked there, so only the exclude keeps it out.
    git(main, 'rm', '-q', '--cached', 'src/local.ts');
    fs.copyFileSync(path.join(main, 'src', 'local.ts'), path.join(wt, 'src', 'local.ts'));
    assert.equal(git(wt, 'status', '--porcelain', '--untracked-files=all'), '');
    for (const root of [main, wt]) {
      const w = walk(nodeFileHost, fs.realpathSync(root));
      assert.deepEqual(w.sourceFiles, ['src/a.ts'], root);
      const inputs = walkInputPaths(nodeFileHost, w);
      assert.ok(inputs.has('.git/info/exclude'), root);
      assert.equal(
        hashInputs(nodeFileHost, w.root, ['.git/info/exclude'])['.git/info/exclude'],
        hashInputs(nodeFileHost, fs.realpathSync(main), ['.git/info/exclude'])['.git/info/exclude'],
      );
    }
  });
});
