// A running `kg mcp` tells a stale graph from stamps (ADR 168): the built dist/cli.js in a child
// process, the MCP SDK's client over stdio. The tree is left still until its stamps are trusted
// (a path changed within the last two seconds is looked at again on every call, which would make
// the test pass whatever the stamps said), the server answers twice from an unchanged tree, then
// files are edited, added and removed while it runs: each next answer says `stale` with exactly
// the files changed, as a fresh `kg status` does.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, copyFixture, removeTempDirs } from '../helpers/fixtures';

const ENV = { ...(process.env as Record<string, string>), KG_SERVER: 'off' };

/** The latest change (modification or status) of anything under `dir`, itself included, in ms. */
function lastChange(dir: string): number {
  let latest = 0;
  const visit = (p: string) => {
    const st = fs.lstatSync(p);
    latest = Math.max(latest, st.mtimeMs, st.ctimeMs);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) visit(path.join(p, e));
  };
  visit(dir);
  return latest;
}

describe('kg mcp: a file edited while the server runs makes the next answer stale (ADR 168)', () => {
  after(removeTempDirs);

  it('unchanged: not stale, twice; edited in place (same size), added, removed: stale with those files', async () => {
    const root = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(root, '.git'));
    const build = spawnSync(process.execPath, [CLI, 'build', '--apply'], { cwd: root, env: ENV, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    // Still for longer than a stamp's racy window (RACY_MS, 2 s), so the first look is trusted.
    const still = lastChange(root) + 2_500;
    while (Date.now() < still) await new Promise((r) => setTimeout(r, still - Date.now()));

    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: root, env: ENV, stderr: 'pipe' });
    const client = new Client({ name: 'kg-stale-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const ask = async () => {
        const r = (await client.callTool({ name: 'explore_code', arguments: { ask: 'callers', target: 'add' } })) as CallToolResult;
        assert.notEqual(r.isError, true, JSON.stringify(r.content).slice(0, 500));
        return r.structuredContent as { stale: boolean; changedFiles?: string[]; callers: string[] };
      };
      const status = () =>
        JSON.parse(spawnSync(process.execPath, [CLI, 'status'], { cwd: root, env: ENV, encoding: 'utf8' }).stdout) as {
          changedFiles: string[];
        };
      for (let i = 0; i < 2; i++) {
        const a = await ask();
        assert.equal(a.stale, false);
        assert.deepEqual(a.callers, ['sym:src/app.ts#run', 'sym:src/lib.ts#total']);
      }

      const lib = path.join(root, 'src', 'lib.ts');
      const text = fs.readFileSync(lib, 'utf8');
      fs.writeFileSync(lib, text.replace('return a + b;', 'return b + a;'));
      assert.equal(fs.statSync(lib).size, Buffer.byteLength(text), 'the same size: only the times tell');
      const edited = await ask();
      assert.equal(edited.stale, true);
      assert.deepEqual(edited.changedFiles, ['src/lib.ts']);
      assert.deepEqual(edited.changedFiles, status().changedFiles);

      fs.writeFileSync(path.join(root, 'src', 'late.ts'), "import { add } from './lib';\nexport const three = add(1, 2);\n");
      const added = await ask();
      assert.deepEqual(added.changedFiles, ['src/late.ts', 'src/lib.ts']);
      assert.deepEqual(added.changedFiles, status().changedFiles);

      fs.writeFileSync(lib, text);
      fs.rmSync(path.join(root, 'src', 'late.ts'));
      const back = await ask();
      assert.equal(back.stale, false, 'the tree as built again: fresh');
    } finally {
      await client.close();
    }
  });
});
