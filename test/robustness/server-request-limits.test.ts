// A build server bounds what a client may send (ADR 99): a request line longer than the cap, or
// none within the timeout, is refused and the connection dropped; the server's memory does not
// grow with what a client sends, and it stays up and builds for the next client. Before, a client
// sending 100 MB without a newline grew the server by about 200 MB, and 700 MB crashed it
// (readline's `Invalid string length`), leaving a stale socket.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { after, describe, it } from 'node:test';
import { rssBytesOf } from '../../src/build-server/limits';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('what a client may send a build server', () => {
  after(removeTempDirs);
  const sockets = tempDir('kg-limits-servers-');
  fs.chmodSync(sockets, 0o700);
  const env = { ...process.env, KG_SERVER: 'on', KG_SERVER_DIR: sockets };
  const kg = (args: string[], cwd: string) => spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  const status = (root: string) =>
    JSON.parse(kg(['server', 'status', '--root', root], sockets).stdout) as { running: boolean; pid?: number; socket: string; log: string };
  after(() => kg(['server', 'stop', '--all'], sockets));

  /** Sends `bytes` without a newline, in 1 MiB chunks, until the server hangs up; returns what it answered. */
  function flood(socket: string, bytes: number): Promise<{ answer: string; sent: number }> {
    return new Promise((resolve) => {
      const conn = net.createConnection(socket);
      let answer = '';
      let sent = 0;
      const chunk = Buffer.alloc(1 << 20, 'a');
      const pump = () => {
        while (sent < bytes && !conn.destroyed) {
          sent += chunk.length;
          if (!conn.write(chunk)) return void conn.once('drain', pump);
        }
        // All sent and no hang-up: give the server a moment to answer, then go.
        setTimeout(() => conn.destroy(), 3_000).unref();
      };
      conn.on('connect', pump);
      conn.on('data', (d) => (answer += String(d)));
      conn.on('error', () => {});
      conn.on('close', () => resolve({ answer, sent }));
    });
  }

  it('refuses a line over the cap and a silent client, holds no more memory, and builds for the next client', async () => {
    const root = tempDir('kg-limits-repo-');
    writeTree(root, { 'src/a.ts': 'export function a() {}\nexport function b() { a(); }\n' });
    assert.equal(kg(['build', '--apply'], root).status, 0);
    let s = status(root);
    for (let waited = 0; !(s.running && fs.existsSync(s.socket)) && waited < 60_000; waited += 200) {
      await sleep(200);
      s = status(root);
    }
    assert.ok(s.running && s.pid, 'a server started');
    const pid = s.pid;
    const before = rssBytesOf(pid) ?? 0;

    const flooded = await flood(s.socket, 100 << 20);
    assert.match(flooded.answer, /"reason":"a request line over \d+ characters"/);
    assert.ok(flooded.sent < 100 << 20, `the server hung up before 100 MB arrived (${flooded.sent} bytes sent)`);
    const grown = (rssBytesOf(pid) ?? 0) - before;
    assert.ok(grown < 50 << 20, `the server grew by ${Math.round(grown / 1048576)} MB`);

    // A client that connects and says nothing is refused after the timeout.
    const silent = await new Promise<string>((resolve) => {
      const conn = net.createConnection(s.socket);
      setTimeout(() => conn.destroy(), 15_000).unref();
      let answer = '';
      conn.on('data', (d) => (answer += String(d)));
      conn.on('error', () => {});
      conn.on('close', () => resolve(answer));
    });
    assert.match(silent, /"reason":"no request line within \d+ s"/);

    // Still up, same process, and it builds.
    assert.doesNotThrow(() => process.kill(pid, 0));
    const build = kg(['build', '--apply'], root);
    assert.equal(build.status, 0, build.stderr);
    assert.match(build.stderr, new RegExp(`built by the build server \\(pid ${pid}\\)`));
  });
});
