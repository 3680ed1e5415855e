// src/host/graph-path.ts: the knowledgeGraph.graphPath setting resolves inside the workspace folder
// or is refused with a reason — never followed outside it.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_GRAPH_PATH, resolveGraphPath } from '../../src/host/graph-path';
import { removeTempDirs, tempDir } from '../helpers/fixtures';

describe('resolveGraphPath', () => {
  after(removeTempDirs);

  it('defaults to .knowledge-graph/graph.json in the folder (also for an empty setting)', () => {
    const folder = tempDir();
    const expected = { ok: true, path: path.join(folder, '.knowledge-graph', 'graph.json') };
    assert.equal(DEFAULT_GRAPH_PATH, '.knowledge-graph/graph.json');
    assert.deepEqual(resolveGraphPath(folder, undefined), expected);
    assert.deepEqual(resolveGraphPath(folder, '  '), expected);
  });

  it('resolves a relative setting against the folder, also through directories that do not exist yet', () => {
    const folder = tempDir();
    assert.deepEqual(resolveGraphPath(folder, 'out/kg/g.json'), { ok: true, path: path.join(folder, 'out', 'kg', 'g.json') });
    assert.deepEqual(resolveGraphPath(folder, './a/../g.json'), { ok: true, path: path.join(folder, 'g.json') });
  });

  for (const [what, setting, reason] of [
    ['an absolute path', '/etc/graph.json', /must be relative/],
    ['a path that climbs out', '../elsewhere/graph.json', /outside the workspace folder/],
    ['the folder itself', '.', /outside the workspace folder/],
  ] as const) {
    it(`refuses ${what}`, () => {
      const r = resolveGraphPath(tempDir(), setting);
      assert.equal(r.ok, false);
      assert.match((r as { reason: string }).reason, reason);
    });
  }

  it('refuses a path that leaves the folder through a symbolic link', () => {
    const folder = tempDir();
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(folder, 'link'));
    const r = resolveGraphPath(folder, 'link/graph.json');
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /symbolic link/);
  });

  it('accepts a symbolic link that stays inside the folder', () => {
    const folder = tempDir();
    fs.mkdirSync(path.join(folder, 'real'));
    fs.symlinkSync(path.join(folder, 'real'), path.join(folder, 'alias'));
    assert.deepEqual(resolveGraphPath(folder, 'alias/graph.json'), { ok: true, path: path.join(folder, 'alias', 'graph.json') });
  });
});
