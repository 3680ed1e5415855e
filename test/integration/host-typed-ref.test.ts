// src/host/typed-ref.ts: "Compare With…" takes any ref git takes for a commit, checked as `kg diff`
// checks it (issue 55, item 9), in a real repository with two commits and a tag.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { typedRef } from '../../src/host/typed-ref';
import { removeTempDirs, tempDir } from '../helpers/fixtures';

describe('a ref typed into Compare With…', () => {
  let root: string;
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  before(() => {
    root = tempDir();
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 1;\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    git('tag', 'v1');
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 2;\n');
    git('commit', '-qam', 'two');
  });
  after(removeTempDirs);

  it('HEAD~1, a tag, a full and a short SHA name the commit they name for git', () => {
    const first = git('rev-parse', 'HEAD~1');
    for (const ref of ['HEAD~1', 'v1', first, first.slice(0, 8), ' main^ ']) {
      assert.deepEqual(typedRef(root, ref), { ok: true, ref: ref.trim(), commit: first }, ref);
    }
  });

  it('a name git does not know, an option, and blank text are not refs', () => {
    const unknown = typedRef(root, 'no-such-branch');
    assert.ok(unknown && !unknown.ok && /^unknown ref: "no-such-branch"/.test(unknown.reason), JSON.stringify(unknown));
    const option = typedRef(root, '--output=/tmp/x');
    assert.ok(option && !option.ok && /^not a ref/.test(option.reason), JSON.stringify(option));
    assert.equal(typedRef(root, '   '), undefined);
  });
});
