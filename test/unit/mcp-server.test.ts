// The MCP server's own behaviour, through the SDK's client on an in-memory transport (no child
// process): the budget on a symbol with 500 proven callers, paging that loses nothing, and the
// degrades as tool errors that say what to do. The stdio server on real code is
// test/integration/mcp.test.ts.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serializeGraph, type Layer } from '../../src/graph';
import { createMcpServer } from '../../src/mcp/stdio-server';
import { removeTempDirs, tempDir } from '../helpers/fixtures';
import { graphOf, type EdgeSpec } from '../helpers/graphs';

const TARGET = 'sym:src/core.ts#target';
const caller = (i: number) => `sym:src/callers/c${String(i).padStart(3, '0')}.ts#call${i}`;

async function serve(root: string, allTools = true): Promise<Client> {
  const { server } = createMcpServer({
    allTools,
    defaultRoot: root,
    cwd: root,
    findRoot: (dir) => dir,
    kg: { execPath: process.execPath, script: '/nonexistent/cli.js' },
    log: () => undefined,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(b);
  return client;
}

function repo(edges: EdgeSpec[], layers?: Layer[]): string {
  const root = tempDir('kg-mcp-unit-');
  fs.mkdirSync(path.join(root, '.knowledge-graph'));
  fs.writeFileSync(path.join(root, '.knowledge-graph', 'graph.json'), serializeGraph(graphOf(edges, { layers })));
  return root;
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('kg mcp answers', () => {
  after(removeTempDirs);
  // 500 proven callers, 30 guesses.
  const edges: EdgeSpec[] = [
    ...Array.from({ length: 500 }, (_, i): EdgeSpec => [caller(i), TARGET]),
    ...Array.from({ length: 30 }, (_, i): EdgeSpec => [caller(500 + i), TARGET, 'calls', 'CANDIDATE']),
  ];

  it('a symbol with 500 callers answers in under 12,000 bytes, counts all of them, and says how to get the rest', async () => {
    const client = await serve(repo(edges));
    const r = (await client.callTool({ name: 'symbol', arguments: { id: 'target' } })) as CallToolResult;
    assert.notEqual(r.isError, true, text(r));
    assert.ok(Buffer.byteLength(text(r)) < 12_000, `${Buffer.byteLength(text(r))} bytes`);
    const v = r.structuredContent as {
      totals: { callers: number; candidates: number };
      callers: unknown[];
      omitted: Record<string, number>;
      more: string;
    };
    assert.equal(v.totals.callers, 500);
    assert.equal(v.totals.candidates, 30);
    assert.ok(v.callers.length > 0 && v.callers.length < 500);
    assert.match(v.more, /call callers with id sym:src\/core\.ts#target and offset \d+/);
  });

  it('callers pages, in order, are every caller once, proof and guesses apart', async () => {
    const client = await serve(repo(edges));
    const seen: string[] = [];
    const guesses = new Set<string>();
    for (let offset = 0; ; offset += 100) {
      const r = (await client.callTool({ name: 'callers', arguments: { id: TARGET, offset, limit: 100 } })) as CallToolResult;
      const v = r.structuredContent as { callers: string[]; candidates: string[] };
      seen.push(...v.callers);
      for (const c of v.candidates) guesses.add(c);
      if (v.callers.length === 0) break;
    }
    assert.deepEqual(seen, Array.from({ length: 500 }, (_, i) => caller(i)).sort());
    assert.deepEqual([...guesses].sort(), Array.from({ length: 30 }, (_, i) => caller(500 + i)).sort());
  });

  it('a client that pages until "omitted" leaves the list out stops, having read every caller once (issue 48)', async () => {
    const client = await serve(repo(edges));
    const seen: string[] = [];
    let calls = 0;
    for (let offset = 0; calls < 20; calls++) {
      const r = (await client.callTool({ name: 'callers', arguments: { id: TARGET, offset, limit: 100 } })) as CallToolResult;
      const v = r.structuredContent as { callers: string[]; omitted?: Record<string, number> };
      seen.push(...v.callers);
      offset += v.callers.length;
      // What is after this page, never what came before it.
      assert.equal(v.omitted?.callers ?? 0, 500 - offset, `offset ${offset}`);
      if (!v.omitted?.callers) break;
    }
    assert.ok(calls < 20, 'paging ended');
    assert.deepEqual(seen, Array.from({ length: 500 }, (_, i) => caller(i)).sort());
  });

  it('an absolute path inside the repository names its node; one outside is refused with the reason (issue 48)', async () => {
    const root = repo([['file:src/core.ts', TARGET, 'contains']]);
    const client = await serve(root);
    const inside = (await client.callTool({ name: 'why', arguments: { id: path.join(root, 'src', 'core.ts') } })) as CallToolResult;
    assert.notEqual(inside.isError, true, text(inside));
    assert.equal((inside.structuredContent as { id: string }).id, 'file:src/core.ts');
    const outside = (await client.callTool({ name: 'why', arguments: { id: '/elsewhere/src/core.ts:3' } })) as CallToolResult;
    assert.equal(outside.isError, true);
    assert.match(text(outside), /\/elsewhere\/src\/core\.ts:3 is outside the repository/);
  });

  it('a bad argument is named once, a missing one is called missing, and find "" is refused (issue 48)', async () => {
    const client = await serve(repo(edges));
    const missing = (await client.callTool({ name: 'callers', arguments: {} })) as CallToolResult;
    assert.equal(missing.isError, true);
    assert.equal(text(missing), `callers: "id" is missing. See the tool's input schema.`);
    const wrong = (await client.callTool({ name: 'callers', arguments: { id: 7 } })) as CallToolResult;
    assert.equal(text(wrong), `callers: "id" must be a string. See the tool's input schema.`);
    const empty = (await client.callTool({ name: 'find', arguments: { text: '' } })) as CallToolResult;
    assert.equal(empty.isError, true);
    assert.match(text(empty), /^find: "text" is empty: every id would match/);
  });

  it('no graph, or one without call edges, is a tool error that says what to run', async () => {
    const empty = tempDir('kg-mcp-unit-');
    const none = (await (await serve(empty)).callTool({ name: 'callers', arguments: { id: 'x' } })) as CallToolResult;
    assert.equal(none.isError, true);
    assert.match(text(none), /kg build --apply/);
    const extractOnly = repo([['file:src/a.ts', 'sym:src/a.ts#f', 'contains']], ['structural']);
    const r = (await (await serve(extractOnly)).callTool({ name: 'callers', arguments: { id: 'f' } })) as CallToolResult;
    assert.equal(r.isError, true);
    assert.match(text(r), /without call edges.*full: true/);
  });

  it('explore_code: its arguments are named in its own words, pages point back to it, and ambiguous names list the callers of each (ADR 164)', async () => {
    const client = await serve(repo([...edges, [caller(0), 'sym:src/other.ts#Box.target']]), false);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names, ['explore_code', 'check', 'build']);
    const ask = async (args: Record<string, unknown>) =>
      (await client.callTool({ name: 'explore_code', arguments: args })) as CallToolResult;
    assert.equal(
      text(await ask({ target: 'x' })),
      `explore_code: "ask" is missing: the question, one of symbol, callers, impact, path, find, why. See the tool's input schema.`,
    );
    assert.match(text(await ask({ ask: 'callers' })), /^explore_code: "target" is missing: the symbol asked about/);
    assert.match(text(await ask({ ask: 'symbol', target: TARGET, offset: 5 })), /"offset" is only for ask callers, impact or why/);
    assert.match(text(await ask({ ask: 'path', target: TARGET })), /"to" is missing: with ask "path"/);
    assert.match(text(await ask({ ask: 'callers', target: TARGET, to: TARGET })), /"to" is only for ask "path"/);
    // `target` names both a function with 500 callers and a method with one: ambiguous, the busiest first.
    const both = text(await ask({ ask: 'callers', target: 'target' }));
    assert.match(both, /^"target" \(target\) is ambiguous: 2 symbols are named target \(1 top-level, 1 member\)/);
    assert.ok(
      both.indexOf(`${TARGET} (function, src/core.ts, 500 proven callers)`) <
        both.indexOf('sym:src/other.ts#Box.target (function, src/other.ts, 1 proven caller)'),
      both,
    );
    const page = await ask({ ask: 'callers', target: TARGET, limit: 10 });
    assert.match((page.structuredContent as { more: string }).more, /call explore_code again with the same ask and target, and offset 10/);
    const sym = await ask({ ask: 'symbol', target: TARGET });
    assert.match(
      (sym.structuredContent as { more: string }).more,
      /call explore_code with ask "callers", target sym:src\/core\.ts#target and offset \d+/,
    );
    // Single-purpose tools are not listed, so not callable either.
    await assert.rejects(client.callTool({ name: 'callers', arguments: { id: TARGET } }), /unknown tool "callers".*--all-tools/);
  });
});
