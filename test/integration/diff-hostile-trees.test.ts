// `kg diff` on trees that try to make it write outside the folder it exports a ref into (issue 55,
// ADR 143). Tree `main` commits `src` as a symbolic link to a victim folder; the other refs add
// `src/evil.ts` three ways — `src` made a real folder (a plain commit), `src` twice in one tree
// (the link and a folder), and one entry named `src/evil.ts` — and two more hold an entry named
// `..` or `.git`. On real git repositories, with real kg processes, by both routes: the kept
// folder a build server builds in (ADR 135) and the one-shot temporary folder. The victim folder
// must stay empty, and a tree kg will not write is a side that is unavailable (exit 3).

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportTree, resolveRef, updateTree } from '../../src/git/plumbing';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { blob, branchAt, gitRun, rawTree, type RawEntry } from '../helpers/hostile-git';

describe('kg diff never writes through a link a tree holds', () => {
  let repo: string;
  let victim: string;
  let state: string;
  let servers: string;
  const env = (server: boolean) => ({
    ...process.env,
    XDG_RUNTIME_DIR: state,
    KG_SERVER: server ? 'on' : 'off',
    KG_SERVER_DIR: servers,
    CI: '',
  });
  const kg = (args: string[], server: boolean) => {
    const r = spawnSync(process.execPath, [CLI, 'diff', ...args], { cwd: repo, encoding: 'utf8', env: env(server), maxBuffer: 1 << 26 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const victimHolds = () => fs.readdirSync(victim);

  before(() => {
    repo = tempDir('kg-hostile-repo-');
    victim = tempDir('kg-hostile-victim-');
    state = tempDir('kg-hostile-state-');
    servers = path.join(tempDir('kg-hostile-servers-'), 'servers');
    fs.mkdirSync(servers, { mode: 0o700 });
    gitRun(repo, ['init', '--quiet', '--initial-branch=main']);
    writeTree(repo, {
      'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src", "lib"] }\n',
      'lib/a.ts': 'export function a(): number {\n  return 1;\n}\n',
    });
    gitRun(repo, ['add', '-A']);
    gitRun(repo, ['commit', '--quiet', '-m', 'without src']);
    gitRun(repo, ['branch', 'bare']);
    fs.symlinkSync(victim, path.join(repo, 'src'));
    gitRun(repo, ['add', '-A']);
    gitRun(repo, ['commit', '--quiet', '-m', 'src is a link to the victim']);
    const main = gitRun(repo, ['rev-parse', 'main']);
    const lib = gitRun(repo, ['rev-parse', 'main:lib']);
    const link = gitRun(repo, ['rev-parse', 'main:src']);
    const tsconfig = gitRun(repo, ['rev-parse', 'main:tsconfig.json']);
    const evil = blob(repo, 'export function evil(): number {\n  return 666;\n}\n');
    const evilFolder = rawTree(repo, [['100644', 'evil.ts', evil]]);
    const crafted: Record<string, RawEntry[]> = {
      dup: [
        ['40000', 'lib', lib],
        ['120000', 'src', link],
        ['40000', 'src', evilFolder],
        ['100644', 'tsconfig.json', tsconfig],
      ],
      slash: [
        ['40000', 'lib', lib],
        ['120000', 'src', link],
        ['100644', 'src/evil.ts', evil],
        ['100644', 'tsconfig.json', tsconfig],
      ],
      dotdot: [
        ['40000', '..', evilFolder],
        ['40000', 'lib', lib],
        ['100644', 'tsconfig.json', tsconfig],
      ],
      dotgit: [
        ['40000', '.git', rawTree(repo, [['100644', 'config', blob(repo, '[core]\n\tfsmonitor = touch owned\n')]])],
        ['40000', 'lib', lib],
        ['100644', 'tsconfig.json', tsconfig],
      ],
    };
    for (const [name, entries] of Object.entries(crafted)) branchAt(repo, name, rawTree(repo, entries), main);
    // The plain shape, as git itself commits it: the link replaced by a folder.
    gitRun(repo, ['checkout', '--quiet', '-b', 'plain']);
    fs.rmSync(path.join(repo, 'src'));
    writeTree(repo, { 'src/evil.ts': 'export function evil(): number {\n  return 666;\n}\n' });
    gitRun(repo, ['add', '-A']);
    gitRun(repo, ['commit', '--quiet', '-m', 'src is a folder']);
    gitRun(repo, ['checkout', '--quiet', 'main']);
  });
  after(() => {
    spawnSync(process.execPath, [CLI, 'server', 'stop', '--all'], { env: env(true), encoding: 'utf8' });
    removeTempDirs();
  });

  it('the kept folder (a build server may run): refuses the crafted trees, builds the plain one, writes nothing into the victim', () => {
    const first = kg(['bare', 'main'], true);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /in the kept folder/);
    assert.deepEqual(victimHolds(), []);
    for (const ref of ['dup', 'slash', 'dotdot', 'dotgit']) {
      const r = kg(['main', ref], true);
      assert.deepEqual(victimHolds(), [], `${ref}: wrote into the victim folder`);
      assert.equal(r.code, 3, `${ref}: ${r.stderr}`);
      const out = JSON.parse(r.stdout) as { available: boolean; reason: string };
      assert.equal(out.available, false);
      assert.match(out.reason, /kg will not write it/, ref);
    }
    // The kept folder still holds main's tree (the refusals touched nothing): the plain ref is
    // written over it by difference, the link removed before the folder is made.
    const plain = kg(['main', 'plain'], true);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stderr, /paths? changed in the kept folder/);
    assert.deepEqual(victimHolds(), []);
    const keptTree = path.join(
      state,
      'knowledge-graph',
      'diff-trees',
      createHash('sha256').update(fs.realpathSync(repo)).digest('hex').slice(0, 20),
      'tree',
    );
    assert.equal(fs.lstatSync(path.join(keptTree, 'src')).isDirectory(), true);
    assert.match(plain.stdout, /sym:src\/evil\.ts#evil/);
  });

  it('the one-shot temporary folder: the same trees refused with exit 3, the victim empty', () => {
    for (const ref of ['dup', 'slash', 'dotdot', 'dotgit']) {
      const r = kg(['main', ref, '--no-server'], false);
      assert.deepEqual(victimHolds(), [], `${ref}: wrote into the victim folder`);
      assert.equal(r.code, 3, `${ref}: ${r.stderr}`);
      assert.match((JSON.parse(r.stdout) as { reason: string }).reason, /kg will not write it/, ref);
    }
  });

  it('a link left in the folder where the new tree needs a folder is removed, never followed (writing and removing)', () => {
    const bare = resolveRef(repo, 'bare').tree;
    const plain = resolveRef(repo, 'plain').tree;
    const kept = tempDir('kg-hostile-kept-');
    exportTree(repo, bare, kept);
    // What an older kg, or anything else, may have left where `src` goes.
    fs.symlinkSync(victim, path.join(kept, 'src'));
    updateTree(repo, bare, plain, kept);
    assert.deepEqual(victimHolds(), []);
    assert.equal(fs.lstatSync(path.join(kept, 'src')).isDirectory(), true);
    assert.equal(fs.readFileSync(path.join(kept, 'src', 'evil.ts'), 'utf8').includes('666'), true);
    // Removing: `lib` replaced by a link to a folder holding an a.ts; the tree that drops lib/a.ts
    // must not remove the one the link reaches.
    const other = tempDir('kg-hostile-other-');
    fs.writeFileSync(path.join(other, 'a.ts'), 'keep me\n');
    fs.rmSync(path.join(kept, 'lib'), { recursive: true });
    fs.symlinkSync(other, path.join(kept, 'lib'));
    const withoutLib = rawTree(repo, [['100644', 'tsconfig.json', gitRun(repo, ['rev-parse', 'main:tsconfig.json'])]]);
    updateTree(repo, plain, withoutLib, kept);
    assert.equal(fs.readFileSync(path.join(other, 'a.ts'), 'utf8'), 'keep me\n');
  });
});
