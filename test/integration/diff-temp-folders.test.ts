// The one-shot route of `kg diff` (--no-server, CI) exports each ref into a private temporary
// folder holding a full copy of its sources. A run ended by a signal leaves nothing (ADR 177); a
// folder left all the same is removed by the next run, which never removes one a live run owns,
// another name, or one without an owner that may be being made (ADR 144). Real kg processes on a
// real git repository, with their own TMPDIR.

import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
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

  /** Starts `kg diff --no-server` and resolves once it has exported a tree into a folder of its own. */
  async function runUntilExported(): Promise<{ child: ChildProcess; exited: Promise<unknown>; folder: string }> {
    const child = spawn(process.execPath, [CLI, 'diff', 'main', 'feature', '--no-server'], { cwd: repo, env: env(), stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const deadline = Date.now() + 60_000;
    for (;;) {
      assert.ok(Date.now() < deadline, 'kg diff made no temporary folder');
      const folder = ours().find(
        (n) => fs.existsSync(path.join(tmp, n, 'tree', 'tsconfig.json')) || fs.existsSync(path.join(tmp, n, 'tsconfig.json')),
      );
      if (folder !== undefined) return { child, exited, folder };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Whether `dir` is gone within a few seconds (the folder is removed by a process of its own, after kg's end). */
  async function goneSoon(dir: string): Promise<boolean> {
    const deadline = Date.now() + 10_000;
    while (fs.existsSync(dir)) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return true;
  }

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
    it(`a run ended by ${signal} while its tree is on disk leaves no folder`, async () => {
      const { child, exited, folder } = await runUntilExported();
      child.kill(signal);
      await exited;
      assert.equal(await goneSoon(path.join(tmp, folder)), true, `the run ended by ${signal} left ${folder} with a copy of the sources`);
    });
  }

  it('a folder left all the same (its cleanup could not run) is removed by the next run, which keeps what is not stale', async () => {
    // A machine that stopped: kg and the process that would remove its folder both end at once.
    const { child, exited, folder: left } = await runUntilExported();
    const dir = path.join(tmp, left);
    const cleanup = fs
      .readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .filter((n) => {
        try {
          return fs.readFileSync(`/proc/${n}/cmdline`, 'utf8').split('\0').includes(dir);
        } catch {
          return false;
        }
      });
    assert.equal(cleanup.length, 1, 'one process waits to remove the folder');
    process.kill(Number(cleanup[0]), 'SIGKILL');
    child.kill('SIGKILL');
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(fs.existsSync(dir), true, 'the folder is left (what the next run must clean)');

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
