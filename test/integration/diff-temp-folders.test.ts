// The one-shot route of `kg diff` (--no-server, CI) exports each ref into a private temporary
// folder holding a full copy of its sources. An interrupted run leaves it (issue 55); the next run
// removes the folders whose owner is gone, and never one a live run owns, another name, or one
// without an owner that may be being made (ADR 144). Real kg processes on a real git repository,
// with their own TMPDIR.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeDiffRepo } from '../helpers/diff-repo';
import { CLI, removeTempDirs, tempDir } from '../helpers/fixtures';

describe('kg diff --no-server: temporary folders an interrupted run left', () => {
  let repo: string;
  let tmp: string;
  let state: string;
  const env = () => ({ ...process.env, TMPDIR: tmp, XDG_RUNTIME_DIR: state, CI: 'true', KG_SERVER: 'off' });
  const ours = () => fs.readdirSync(tmp).filter((n) => /^kg-diff-[A-Za-z0-9]{6}$/.test(n));

  before(() => {
    repo = tempDir('kg-temps-repo-');
    makeDiffRepo(repo);
    tmp = tempDir('kg-temps-tmp-');
    state = tempDir('kg-temps-state-');
  });
  after(removeTempDirs);

  /** A folder as a run makes it, owned by `pid` (or by nobody). */
  function plant(name: string, pid: number | undefined): string {
    const dir = path.join(tmp, name);
    fs.mkdirSync(path.join(dir, 'tree', 'src'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'tree', 'src', 'a.ts'), 'export const a = 1;\n');
    if (pid !== undefined)
      fs.writeFileSync(
        path.join(dir, 'owner'),
        JSON.stringify({ pid, hostname: os.hostname(), token: `t${pid}`, started: new Date().toISOString() }) + '\n',
      );
    return dir;
  }

  it('a run interrupted by SIGINT leaves its folder; the next run removes it, and keeps what is not stale', async () => {
    const child = spawn(process.execPath, [CLI, 'diff', 'main', 'feature', '--no-server'], { cwd: repo, env: env(), stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until it has exported a tree into a folder of its own, then interrupt it.
    const deadline = Date.now() + 60_000;
    let left: string | undefined;
    while (left === undefined) {
      assert.ok(Date.now() < deadline, 'kg diff made no temporary folder');
      left = ours().find(
        (n) => fs.existsSync(path.join(tmp, n, 'tree', 'tsconfig.json')) || fs.existsSync(path.join(tmp, n, 'tsconfig.json')),
      );
      if (left === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGINT');
    await exited;
    assert.equal(fs.existsSync(path.join(tmp, left)), true, 'the interrupted run left its folder (what the next run must clean)');

    const dead = spawnSync('true').pid as number; // a process that has exited
    const deadOwned = plant('kg-diff-dead01', dead);
    const liveOwned = plant('kg-diff-live01', process.pid);
    const ownerless = plant('kg-diff-fresh1', undefined);
    const otherName = plant('kg-diff-repo-keep', dead);

    const r = spawnSync(process.execPath, [CLI, 'diff', 'main', 'feature', '--no-server'], { cwd: repo, env: env(), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.existsSync(path.join(tmp, left)), false, 'the interrupted run’s folder is still there');
    assert.equal(fs.existsSync(deadOwned), false, 'a folder whose owner is gone is still there');
    assert.equal(fs.existsSync(liveOwned), true, 'a folder a live process owns was removed');
    assert.equal(fs.existsSync(ownerless), true, 'a fresh folder without an owner (one being made) was removed');
    assert.equal(fs.existsSync(otherName), true, 'a folder of another name was removed');
    assert.deepEqual(ours().sort(), ['kg-diff-fresh1', 'kg-diff-live01'], 'the run left its own folder behind');
  });
});
