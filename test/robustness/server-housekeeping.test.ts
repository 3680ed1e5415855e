// What a build server may hold and how it goes away (ADR 78): status reports its memory, a server
// over its budget releases its programs, one whose repository was deleted exits by itself, stale
// logs are removed, and `kg server stop --all` stops every server of this user.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { processAlive } from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('build server housekeeping', () => {
  after(removeTempDirs);
  const sockets = tempDir('kg-house-servers-');
  fs.chmodSync(sockets, 0o700);
  const env = { ...process.env, KG_SERVER: 'on', KG_SERVER_DIR: sockets, KG_SERVER_MAX_MB: '1' };
  const kg = (args: string[], cwd: string) => spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  const status = (root: string) =>
    JSON.parse(kg(['server', 'status', '--root', root], sockets).stdout) as { running: boolean; pid?: number; rssMB?: number; log: string };
  async function serverOf(root: string): Promise<number> {
    writeTree(root, { 'src/a.ts': 'export function a() {}\nexport function b() { a(); }\n' });
    assert.equal(kg(['build', '--apply'], root).status, 0);
    for (let waited = 0; waited < 60_000; waited += 200) {
      const s = status(root);
      if (s.running && s.pid && fs.readFileSync(s.log, 'utf8').includes('listening')) return s.pid;
      await sleep(200);
    }
    throw new Error('no server started');
  }
  after(() => kg(['server', 'stop', '--all'], sockets));

  it('reports RSS, releases programs over its budget, and stop --all stops every server', async () => {
    const one = tempDir('kg-house-1-');
    const two = tempDir('kg-house-2-');
    const pids = [await serverOf(one), await serverOf(two)];
    const s = status(one);
    assert.ok(typeof s.rssMB === 'number' && s.rssMB > 0, JSON.stringify(s));
    // A build through the server, over the 1 MB budget: it says it released its programs.
    // The server judges what it holds after answering (a collection first, ADR 125): the line may follow the client's exit.
    assert.equal(kg(['build', '--apply'], one).status, 0);
    const released = /released its programs: \d+ MB held after a collection, over the 1 MB budget/;
    for (let waited = 0; waited < 20_000 && !released.test(fs.readFileSync(s.log, 'utf8')); waited += 100) await sleep(100);
    assert.match(fs.readFileSync(s.log, 'utf8'), released);
    const r = kg(['server', 'stop', '--all'], sockets);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /stopped 2 build servers/);
    // Gone, reaped or not: where nothing reaps orphans an exited server stays a zombie, which
    // kill(pid, 0) still finds; processAlive reads its state as kg does (ADR 92).
    for (const pid of pids) assert.equal(processAlive(pid), false, `server ${pid} is still running`);
  });

  it('exits when its repository is deleted, and its stale log goes with the next server', async () => {
    const gone = tempDir('kg-house-gone-');
    const pid = await serverOf(gone);
    const log = status(gone).log;
    fs.rmSync(gone, { recursive: true, force: true });
    let alive = true;
    for (let waited = 0; waited < 20_000 && alive; waited += 250) {
      await sleep(250);
      alive = processAlive(pid);
    }
    assert.equal(alive, false, 'the server of a deleted repository exits');
    assert.ok(fs.existsSync(log));
    const next = tempDir('kg-house-next-');
    await serverOf(next);
    assert.ok(!fs.existsSync(log), 'the stale log is removed when a server starts');
    assert.ok(fs.readdirSync(sockets).every((n) => !n.endsWith('.log') || path.join(sockets, n) === status(next).log));
  });
});
