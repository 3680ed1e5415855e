// A committed `.knowledge-graph/graph.json` that is a symbolic link to another file of the user's
// (issue 55): the CLI and the MCP server read it and showed its first bytes in the parse error,
// where the editor refuses it (src/host/graph-path.ts). Every face now refuses a repository's graph
// whose real path leaves the repository, unread (exit 3, an unusable graph, as docs/cli.md says);
// a link that stays inside the repository is followed, as the editor follows it. Real kg
// processes, a real MCP client.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, copyFixture, removeTempDirs, tempDir } from '../helpers/fixtures';

const ENV = { ...(process.env as Record<string, string>), KG_SERVER: 'off' };
const SECRET = 'KG-TEST-SECRET the first bytes of a private file';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: ENV });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('a graph.json linked out of its repository is refused by the CLI and the MCP server, unread', () => {
  let repo: string;
  let graphFile: string;
  before(() => {
    repo = copyFixture('calls-callers');
    const built = kg(['build', '--apply', '--root', repo], repo);
    assert.equal(built.code, 0, built.out);
    graphFile = path.join(repo, '.knowledge-graph', 'graph.json');
    const secret = path.join(tempDir('kg-link-secret-'), 'id_private');
    fs.writeFileSync(secret, SECRET + '\n');
    fs.renameSync(graphFile, path.join(repo, 'kept-graph.json'));
    fs.symlinkSync(secret, graphFile);
  });
  after(removeTempDirs);

  it('queries, doctor, export and diff: exit 3, the reason says why, no byte of the file shown', () => {
    const runs = [
      ['callers', 'sym:app.ts#a'],
      ['god-nodes'],
      ['doctor'],
      ['export', '--format', 'neo4j', '--out', path.join(tempDir('kg-link-export-'), 'out')],
      ['diff', graphFile, graphFile],
    ];
    for (const args of runs) {
      const r = kg(args, repo);
      assert.equal(r.code, 3, `kg ${args[0]}: ${r.out}`);
      assert.match(r.out, /leads outside its repository through a symbolic link/, `kg ${args[0]}`);
      assert.equal(r.out.includes('KG-TEST-SECRET'), false, `kg ${args[0]} showed the linked file: ${r.out}`);
    }
  });

  it('the MCP server: a tool error that says why, no byte of the file sent to the agent', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--all-tools'],
      cwd: repo,
      env: ENV,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'kg-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'callers', arguments: { id: 'sym:app.ts#a' } })) as CallToolResult;
      const text = JSON.stringify(r.content);
      assert.equal(r.isError, true, text);
      assert.match(text, /leads outside its repository through a symbolic link/);
      assert.equal(text.includes('KG-TEST-SECRET') || stderr.includes('KG-TEST-SECRET'), false, text);
    } finally {
      await client.close();
    }
  });

  it('a link that stays inside the repository is followed, as the editor follows it', () => {
    fs.rmSync(graphFile);
    fs.symlinkSync(path.join('..', 'kept-graph.json'), graphFile);
    const r = kg(['god-nodes'], repo);
    assert.equal(r.code, 0, r.out);
  });
});
