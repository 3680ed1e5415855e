// A store's password in its connection string, and a connection string that is wrong (issue 55,
// items 20 and 21; ADR 146), against a real PostgreSQL that asks for a password
// (test/helpers/postgres.ts): the password never reaches stdout, stderr or what an agent is sent,
// a refused login is an unavailable store (exit 3 for a question), never "internal error", and a
// connection string that cannot be read says so.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, copyFixture, removeTempDirs } from '../helpers/fixtures';
import { startPostgres, type TestServer } from '../helpers/postgres';

const SECRET = 'hunter2-sesame';

function kg(args: string[], store: string, cwd = process.cwd()) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, KG_STORE: store, KG_SERVER: 'off' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a store password in the connection string, and a wrong one', () => {
  let pg: TestServer;
  let host: string;
  /** The store with its right password, and wrong ones written both ways a URL can hold one. */
  let right: string;
  let wrongs: string[];

  before(() => {
    pg = startPostgres({ password: 'right-one' });
    host = encodeURIComponent(pg.dir);
    right = `postgresql://postgres:right-one@/postgres?host=${host}`;
    wrongs = [`postgresql://postgres:${SECRET}@/postgres?host=${host}`, `postgresql://postgres@/postgres?host=${host}&password=${SECRET}`];
  });
  after(() => {
    pg?.stop();
    removeTempDirs();
  });

  it('the server is real: the right password migrates', () => {
    const m = kg(['store', 'migrate'], right);
    assert.equal(m.code, 0, m.stderr);
    assert.doesNotMatch(m.stdout + m.stderr, /right-one/);
  });

  it('a wrong password: a question exits 3 with STORE_UNAVAILABLE, migrate exits 1, the password nowhere', () => {
    for (const url of wrongs) {
      const q = kg(['store', 'callers', 'sym:a.ts#f'], url);
      assert.equal(q.code, 3, q.stderr);
      assert.equal((JSON.parse(q.stdout) as { code: string }).code, 'STORE_UNAVAILABLE');
      assert.match(q.stderr, /password authentication failed for user "postgres" \(28P01\)/);
      const m = kg(['store', 'migrate'], url);
      assert.equal(m.code, 1, m.stderr);
      assert.match(
        m.stderr,
        /^kg: error: the store could not be used while connecting to postgresql:\/\/postgres(:\*\*\*)?@\/postgres\?host=/,
      );
      for (const r of [q, m]) {
        assert.doesNotMatch(r.stdout + r.stderr, new RegExp(SECRET), 'the password is redacted');
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, 'no stack trace');
      }
    }
  });

  it('a store that cannot be reached, its password in the query string: redacted too', () => {
    const q = kg(['store', 'callers', 'sym:a.ts#f'], `postgresql://u@127.0.0.1:1/db?sslmode=disable&password=${SECRET}`);
    assert.equal(q.code, 3);
    assert.match(q.stderr, /password=\*\*\*/);
    assert.doesNotMatch(q.stdout + q.stderr, new RegExp(SECRET));
  });

  it('a connection string that cannot be read: a clear message, no TypeError', () => {
    for (const url of [`postgresql://u:${SECRET}@[bad/db`, `postgresql://u:${SECRET}@host:99999/db`]) {
      const q = kg(['store', 'callers', 'sym:a.ts#f'], url);
      assert.equal(q.code, 3, q.stderr);
      assert.match(q.stderr, /the store's connection string cannot be read \(Invalid URL\): postgresql:\/\/u:\*\*\*@/);
      assert.doesNotMatch(q.stdout + q.stderr, new RegExp(`${SECRET}|TypeError|internal error`));
    }
  });

  it('kg mcp: a wrong password is a tool error that says the store cannot answer, with no password in it or in the log', async () => {
    const root = copyFixture('guard-consumers');
    for (const url of wrongs) {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--all-tools', '--root', root, '--store', url],
        cwd: root,
        env: { ...(process.env as Record<string, string>), KG_SERVER: 'off' },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new McpClient({ name: 'kg-test', version: '1' });
      await client.connect(transport);
      try {
        const r = (await client.callTool({
          name: 'callers',
          arguments: { id: 'sym:src/lib.ts#add', scope: 'organisation' },
        })) as CallToolResult;
        assert.equal(r.isError, true);
        const text = (r.content[0] as { text: string }).text;
        assert.match(text, /^The organisation store cannot answer: .*password authentication failed/);
        assert.doesNotMatch(text, /bug in kg/);
        assert.doesNotMatch(text + stderr, new RegExp(SECRET));
      } finally {
        await client.close();
      }
    }
  });
});
