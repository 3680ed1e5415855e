// What `kg mcp` leaves behind and what it offers first, driven by the MCP SDK's own Client over
// stdio against the built dist/cli.js (issue 48): the build server a session's build started ends
// with the session; one that ran before it is left alone.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, copyFixture, removeTempDirs, tempDir } from '../helpers/fixtures';

/** A build server may run (KG_SERVER=on overrides CI), in a folder of this test's own. */
function serverEnv(): Record<string, string> {
  const dir = tempDir('kg-mcp-servers-');
  fs.chmodSync(dir, 0o700);
  return { ...(process.env as Record<string, string>), KG_SERVER: 'on', KG_SERVER_DIR: dir };
}

function kg(args: string[], cwd: string, env: Record<string, string>) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const serverRunning = (root: string, env: Record<string, string>): boolean =>
  (JSON.parse(kg(['server', 'status', '--root', root], root, env).stdout) as { running: boolean }).running;

async function until(what: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (what()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return what();
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function session(root: string, env: Record<string, string>, args: string[] = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], cwd: root, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'kg-session-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid as number, stderr: () => stderr };
}

const built = (r: CallToolResult) => {
  assert.notEqual(r.isError, true, JSON.stringify(r.content).slice(0, 500));
  return (r.structuredContent as { built: boolean }).built;
};

describe('kg mcp: the build server of a session', () => {
  const envs: Array<[string, Record<string, string>]> = [];
  after(() => {
    for (const [root, env] of envs) kg(['server', 'stop', '--all'], root, env);
    removeTempDirs();
  });

  it("a build server the session's build started ends when the client closes the session", async () => {
    const root = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(root, '.git'));
    const env = serverEnv();
    envs.push([root, env]);
    assert.equal(serverRunning(root, env), false, 'no server before the session');
    const s = await session(root, env);
    assert.equal(built((await s.client.callTool({ name: 'build', arguments: {} })) as CallToolResult), true);
    assert.ok(await until(() => serverRunning(root, env), 20_000), 'the build started a build server');
    await s.client.close();
    assert.ok(await until(() => !alive(s.pid), 10_000), 'kg mcp exited');
    assert.ok(await until(() => !serverRunning(root, env), 10_000), `the build server ended with the session: ${s.stderr()}`);
  });

  it('a build server that ran before the session is left running', async () => {
    const root = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(root, '.git'));
    const env = serverEnv();
    envs.push([root, env]);
    assert.equal(kg(['build', '--apply'], root, env).code, 0);
    assert.ok(await until(() => serverRunning(root, env), 20_000), 'kg build started a build server');
    const s = await session(root, env);
    assert.equal(built((await s.client.callTool({ name: 'build', arguments: {} })) as CallToolResult), true);
    await s.client.close();
    assert.ok(await until(() => !alive(s.pid), 10_000), 'kg mcp exited');
    assert.equal(serverRunning(root, env), true, 'the user’s build server still runs');
  });
});
