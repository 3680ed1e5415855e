// src/host/graph-path.ts: the knowledgeGraph.graphPath setting resolves inside the workspace folder
// or is refused with a reason — never followed outside it.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_GRAPH_PATH, fileInsideFolder, resolveGraphPath } from '../../src/host/graph-path';
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

describe('fileInsideFolder: what the editor opens for a graph (issue 22)', () => {
  after(removeTempDirs);

  function repo(): string {
    const folder = tempDir();
    fs.mkdirSync(path.join(folder, 'src', 'real'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'src', 'a.ts'), 'export {};\n');
    fs.writeFileSync(path.join(folder, 'src', 'real', 'b.ts'), 'export {};\n');
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'secret'), 'root:x:0:0\n');
    // What a pull request can commit: links named like sources, leading out of the folder.
    fs.symlinkSync('/etc/passwd', path.join(folder, 'src', 'passwd.ts'));
    fs.symlinkSync(outside, path.join(folder, 'src', 'out'));
    fs.symlinkSync(path.join(folder, 'src', 'real'), path.join(folder, 'src', 'alias'));
    return folder;
  }

  it('refuses a file that is a symbolic link out of the folder, and one under a linked directory', () => {
    const folder = repo();
    const passwd = fileInsideFolder(folder, 'src/passwd.ts');
    assert.equal(passwd.ok, false);
    assert.match(passwd.ok ? '' : passwd.reason, /leads outside the workspace folder through a symbolic link/);
    assert.equal(fileInsideFolder(folder, 'src/out/secret').ok, false);
  });

  it('refuses .. and absolute paths', () => {
    const folder = repo();
    for (const p of ['../x.ts', 'src/../../x.ts', '/etc/passwd', 'C:/x.ts']) assert.equal(fileInsideFolder(folder, p).ok, false, p);
  });

  it('opens files inside, a link that stays inside, and a file not written yet', () => {
    const folder = repo();
    assert.deepEqual(fileInsideFolder(folder, 'src/a.ts'), { ok: true, path: path.join(folder, 'src', 'a.ts') });
    assert.equal(fileInsideFolder(folder, 'src/alias/b.ts').ok, true);
    assert.equal(fileInsideFolder(folder, 'src/new.ts').ok, true);
  });
});
