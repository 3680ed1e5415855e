// `kg mcp` driven the way agents drive it: the built dist/cli.js in a child process, the MCP SDK's
// own Client over stdio, on a copy of rxjs's sources with its graph built by `kg build --apply`.
// Lists the tools, calls each, validates every answer against the output schema the server
// declared (the SDK client does it too), and compares it with what the CLI prints for the same
// question. Then hostile use: unknown tools, wrong arguments, a megabyte id, 100 concurrent calls,
// graph.json rewritten mid-call, a client that goes away mid-call — protocol errors or tool
// errors, the server stays up, and nothing on disk changes.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import { corpus } from '../../bench/corpus';
import { CLI, copyFixture, removeTempDirs, tempDir } from '../helpers/fixtures';
import { buildProcessesOf, kgProcessesOf } from '../helpers/processes';
import type { Graph } from '../../src/graph/model';

const ENV = { ...(process.env as Record<string, string>), KG_SERVER: 'off' };

function kg(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: ENV, maxBuffer: 256 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const kgJson = (args: string[], cwd: string) => JSON.parse(kg(args, cwd).stdout) as Record<string, unknown>;

async function connect(
  cwd: string,
  args: string[] = [],
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  // Every single-purpose tool (the default lists the entry point, check and build: mcp-session.test.ts).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--all-tools', ...args],
    cwd,
    env: ENV,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'kg-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** Every file under a folder with its hash: what "nothing written" is checked against. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

/** A field of an MCP answer is the CLI's: equal, or for a list cut to the budget, its first entries with the rest counted in `omitted`. */
function sameField(tool: string, f: string, v: Record<string, unknown>, cli: Record<string, unknown>): void {
  const mine = v[f];
  const theirs = cli[f];
  if (!Array.isArray(mine) || !Array.isArray(theirs)) return assert.deepEqual(mine, theirs, `${tool}.${f}`);
  assert.deepEqual(mine, theirs.slice(0, mine.length), `${tool}.${f}: the first entries`);
  const omitted = (v.omitted as Record<string, number> | undefined)?.[f] ?? 0;
  assert.equal(mine.length + omitted, theirs.length, `${tool}.${f}: shown + omitted = all`);
}

const structured = (r: CallToolResult) => {
  assert.notEqual(r.isError, true, JSON.stringify(r.content).slice(0, 500));
  return r.structuredContent as Record<string, unknown>;
};
const errorText = (r: CallToolResult) => {
  assert.equal(r.isError, true, 'a tool error');
  return (r.content[0] as { text: string }).text;
};

/** A client that writes raw lines to `kg mcp` and reads its answers by id: what the SDK's client never sends. */
function rawServer(cwd: string) {
  const child = spawn(process.execPath, [CLI, 'mcp', '--all-tools'], { cwd, env: ENV, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const answers = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } });
  return {
    child,
    stderr: () => err,
    write: (line: string | Buffer) => new Promise<void>((resolve) => child.stdin.write(line, () => resolve())),
    /** The answer with this id, within five seconds (undefined: none came). */
    async answer(id: unknown, nth = 0) {
      const until = Date.now() + 5000;
      while (Date.now() < until) {
        const found = answers().filter((a) => a.id === id);
        if (found.length > nth) return found[nth];
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      return undefined;
    },
  };
}

describe('kg mcp reads what a client should not send, answers it, and carries on (issue 55, item 21)', () => {
  after(removeTempDirs);

  it('"params": null, mistyped arguments, a line that is not JSON, a 17 MB line: each answered in one line, then the next request too', async () => {
    const root = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(root, '.git'));
    const s = rawServer(root);
    try {
      const json = (o: unknown) => JSON.stringify(o) + '\n';
      await s.write(
        json({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      );
      assert.ok(await s.answer(1), 'initialized');
      await s.write(json({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      await s.write(json({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: null }));
      const list = await s.answer(2);
      assert.ok(list?.result, `tools/list with "params": null is answered: ${JSON.stringify(list)}`);
      for (const [id, params, field] of [
        [3, { name: 'callers', arguments: 'x' }, /"params\.arguments" must be an object \(got a string\)/],
        [4, { name: 42, arguments: {} }, /"params\.name" must be a tool's name, a string \(got a number\)/],
        [5, [1, 2], /"params" must be an object \(got an array\)/],
      ] as const) {
        await s.write(json({ jsonrpc: '2.0', id, method: 'tools/call', params }));
        const a = await s.answer(id);
        assert.equal(a?.error?.code, -32602, JSON.stringify(a));
        assert.match(a.error.message, field);
        assert.doesNotMatch(a.error.message, /\n|invalid_type|expected/, 'one line, no schema report');
      }
      // Raw control characters in what arrives must not reach the log as they are.
      await s.write('{"jsonrpc": \u001b[31m\u0000 nope\n');
      assert.equal((await s.answer(null))?.error?.code, -32700);
      const big = Buffer.alloc(17 * 1024 * 1024, 0x61);
      await s.write(
        Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"x":"'), big, Buffer.from('"}}\n')]),
      );
      const refused = await s.answer(null, 1);
      assert.equal(refused?.error?.code, -32600, JSON.stringify(refused)?.slice(0, 300));
      assert.match(refused.error.message, /refused: the limit is 16777216 bytes/);
      await s.write(json({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
      assert.ok((await s.answer(7))?.result, 'still serving after the oversized message');
      assert.equal(s.child.exitCode, null, 'the server is still running');
      // eslint-disable-next-line no-control-regex -- the point: no raw control character but the line ends
      assert.doesNotMatch(s.stderr(), /[\u0000-\u0009\u000b-\u001f]/, JSON.stringify(s.stderr()).slice(0, 500));
      assert.doesNotMatch(s.stderr(), /invalid_union|"code": "invalid_type"/, 'no schema report in the log');
    } finally {
      s.child.stdin.end();
      s.child.kill();
    }
  });
});

describe('kg mcp over stdio on rxjs', () => {
  let root: string;
  let graph: Graph;
  let client: Client;
  let tools: Tool[];
  const ajv = new Ajv({ strict: false, allErrors: true });
  /** A method with many EXACT callers, a function, and a path between two symbols, found in the graph itself. */
  let busy: string;
  let busyCallers: number;
  /** A second repository the server is started for (kg mcp --root … --root …). */
  let other: string;

  before(async () => {
    root = corpus('rxjs', tempDir('kg-mcp-rxjs-')).root;
    fs.mkdirSync(path.join(root, '.git'));
    const b = kg(['build', '--apply', '--no-server'], root);
    assert.equal(b.code, 0, b.stderr);
    graph = JSON.parse(fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8')) as Graph;
    const exactCallers = new Map<string, Set<string>>();
    for (const e of graph.edges)
      if (e.relation === 'calls' && e.confidence === 'EXACT' && e.target.startsWith('sym:'))
        (exactCallers.get(e.target) ?? exactCallers.set(e.target, new Set()).get(e.target))?.add(e.source);
    [busy, busyCallers] = [...exactCallers]
      .map(([id, s]) => [id, s.size] as [string, number])
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    // A small repository beside rxjs (the build and the guard are the CLI's; this is about the
    // tools around them): add(a, b) has an EXACT caller in another file.
    other = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(other, '.git'));
    assert.equal(kg(['build', '--apply', '--no-server'], other).code, 0);
    ({ client } = await connect(root, ['--root', root, '--root', other]));
    tools = (await client.listTools()).tools;
  });

  after(async () => {
    await client?.close();
    removeTempDirs();
  });

  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const validate = (name: string, value: unknown) => {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool?.outputSchema, `${name} declares an output schema`);
    const ok = ajv.validate(tool.outputSchema, value);
    assert.ok(ok, `${name}: ${ajv.errorsText()}`);
  };

  it('lists one tool per agent question of the catalogue, plus check and build, each described for a model', () => {
    const names = tools.map((t) => t.name);
    for (const n of ['symbol', 'callers', 'affected', 'impact', 'neighbors', 'path', 'god-nodes', 'find', 'why', 'check', 'build'])
      assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    assert.deepEqual(names.slice(0, 2), ['explore_code', 'symbol'], 'the entry point, then the first tool an agent should call');
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.ok(t.outputSchema, `${t.name} has an output schema`);
      if (t.name !== 'build') assert.match(t.description ?? '', /EXACT/, `${t.name} says what the tiers mean`);
      ajv.compile(t.outputSchema);
    }
  });

  it('callers: by name, by id and by path:line, equal to kg callers, every page of a long list', async () => {
    // The busiest method in rxjs by proven callers.
    const n = graph.nodes.find((x) => x.id === busy);
    assert.ok(n?.line !== undefined);
    const cli = kgJson(['callers', busy], root) as { callers: string[]; candidates: string[] };
    assert.equal(cli.callers.length, busyCallers);
    const byLocation = structured(await call('callers', { id: `${n.sourceFile}:${n.line}`, limit: 1000 }));
    assert.deepEqual((byLocation.resolved as Record<string, { id: string }>).id.id, busy);
    validate('callers', byLocation);
    const pages: string[] = [];
    for (let offset = 0; offset < busyCallers; offset += 25) {
      const page = structured(await call('callers', { id: busy, offset, limit: 25 }));
      validate('callers', page);
      pages.push(...(page.callers as string[]));
    }
    assert.deepEqual(pages, cli.callers, 'the pages, in order, are the CLI answer');
    const first = structured(await call('callers', { id: busy, limit: 10 }));
    if (busyCallers > 10) {
      assert.equal((first.omitted as Record<string, number>).callers, busyCallers - 10);
      assert.match(first.more as string, /offset 10/);
    }
    for (const id of first.callers as string[]) assert.match((first.locations as Record<string, string>)[id], /^[^:]+:\d+:\d+$/);
  });

  it('symbol: the busiest method answers in a context window, proof and guesses apart, equal to kg symbol', async () => {
    const r = await call('symbol', { id: busy });
    const v = structured(r);
    validate('symbol', v);
    const text = (r.content[0] as { text: string }).text;
    assert.ok(Buffer.byteLength(text) <= 12_000, `${Buffer.byteLength(text)} bytes`);
    const cli = kgJson(['symbol', busy], root) as { callers: Array<{ id: string }>; totals: { callers: number } };
    assert.equal((v.totals as { callers: number }).callers, cli.totals.callers);
    const shown = (v.callers as Array<{ id: string }>).map((c) => c.id);
    assert.deepEqual(
      shown,
      cli.callers.slice(0, shown.length).map((c) => c.id),
    );
    for (const c of v.callers as Array<{ confidence: string }>) assert.equal(c.confidence, 'EXACT');
    for (const c of v.candidates as Array<{ confidence: string }>) assert.equal(c.confidence, 'CANDIDATE');
    assert.match(String(v.location), /^src\/.+:\d+:\d+$/);
  });

  it('every other question equals the CLI answer', async () => {
    const fn = 'sym:src/internal/operators/map.ts#map';
    assert.ok(
      graph.nodes.some((x) => x.id === fn),
      'rxjs declares map',
    );
    const byName = structured(await call('impact', { id: 'map', limit: 1000 }));
    assert.equal((byName.resolved as Record<string, { id: string }>).id.id, fn, '"map" names the operator');
    const cases: Array<[string, Record<string, unknown>, string[], string[]]> = [
      ['impact', { id: fn, limit: 1000 }, ['impact', fn], ['callers', 'consumers', 'blastRadius', 'candidates', 'candidateRadius']],
      ['affected', { id: fn, limit: 1000 }, ['affected', fn], ['consumers', 'breaks', 'candidates']],
      ['neighbors', { id: fn, budget: 15, limit: 1000 }, ['neighbors', fn, '--budget', '15'], ['nodes', 'excludedHubs', 'hubThreshold']],
      ['path', { from: fn, to: busy }, ['path', fn, busy], ['path', 'edges']],
      ['god-nodes', { top: 5 }, ['god-nodes', '--top', '5'], ['godNodes']],
      ['find', { text: 'operators/map' }, ['query', 'operators/map'], ['matches', 'truncated']],
      ['why', { id: fn }, ['why', fn], ['notes', 'records', 'cited']],
    ];
    for (const [tool, args, cliArgs, fields] of cases) {
      const v = structured(await call(tool, args));
      validate(tool, v);
      const cli = kgJson(cliArgs, root);
      for (const f of fields) sameField(tool, f, v, cli);
      assert.equal(v.stale, cli.stale, `${tool}: the same staleness`);
    }
  });

  it('an ambiguous name is answered with the candidates, an unknown one with what to do', async () => {
    const next = errorText(await call('callers', { id: 'next' }));
    assert.match(next, /ambiguous/);
    assert.match(next, /sym:src\/internal\/Subscriber\.ts#Subscriber\.next/);
    assert.match(errorText(await call('symbol', { id: 'noSuchThingAnywhere' })), /find tool/);
  });

  it('hostile calls: protocol errors for unknown tools, tool errors for bad arguments, the server stays up and writes nothing', async () => {
    const before = snapshot(root);
    await assert.rejects(call('no-such-tool', {}), (e: unknown) => e instanceof McpError && e.code === -32602);
    assert.match(errorText(await call('callers', { id: 42 })), /"id" must be a string/);
    assert.match(errorText(await call('callers', {})), /"id"/);
    assert.match(errorText(await call('callers', { id: busy, bogus: true })), /unknown argument "bogus"/);
    assert.match(errorText(await call('callers', { id: busy, limit: -1 })), /"limit"/);
    assert.match(errorText(await call('god-nodes', { offset: 3 })), /unknown argument "offset"/);
    assert.match(errorText(await call('callers', { id: busy, root: '/no/such/folder' })), /not a folder/);
    const t0 = performance.now();
    assert.match(errorText(await call('callers', { id: 'x'.repeat(1 << 20) })), /longer than/);
    assert.ok(performance.now() - t0 < 5000, 'a megabyte id is refused quickly');

    const cli = kgJson(['callers', busy], root) as { callers: string[] };
    const page = cli.callers.slice(0, 20);
    const many = await Promise.all(Array.from({ length: 100 }, () => call('callers', { id: busy, limit: 20 })));
    for (const r of many) assert.deepEqual(structured(r).callers, page);

    // graph.json rewritten while calls are in flight: each call answers from one whole version or
    // fails as a tool error — never a protocol failure — and the next call sees the file as it is.
    const file = path.join(root, '.knowledge-graph', 'graph.json');
    const text = fs.readFileSync(file, 'utf8');
    const inFlight = Array.from({ length: 20 }, (_, i) => call(i % 2 ? 'callers' : 'symbol', { id: busy }));
    fs.writeFileSync(file, text.slice(0, text.length >> 1));
    fs.writeFileSync(file, text);
    for (const r of await Promise.all(inFlight)) if (r.isError) assert.match(errorText(r), /cannot be used|No graph/);
    fs.writeFileSync(file, '{"torn":');
    assert.match(errorText(await call('callers', { id: busy })), /cannot be used: .*build/);
    fs.writeFileSync(file, text);
    assert.deepEqual(structured(await call('callers', { id: busy, limit: 20 })).callers, page, 'reloaded once whole again');
    assert.deepEqual(snapshot(root), before, 'nothing written');
  });

  it('a client that goes away mid-call: the server exits and leaves no kg check behind', async () => {
    const c = await connect(root);
    const pid = c.transport.pid;
    assert.ok(pid);
    void c.client.callTool({ name: 'check', arguments: {} }).catch(() => undefined);
    void c.client.callTool({ name: 'symbol', arguments: { id: busy } }).catch(() => undefined);
    await c.client.close();
    const deadline = Date.now() + 10_000;
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(alive(), false, 'the server exited');
    // The suite's own server (started with --root) names the root too: only kg check children count.
    const checks = () => buildProcessesOf(root).filter((p) => !p.includes(' mcp '));
    while (checks().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(checks(), [], 'its kg check child was stopped with it');
  });

  it('a root outside the repositories the server was started for is refused, and nothing is written there (issue 55, item 19)', async () => {
    const outside = tempDir('kg-mcp-outside-');
    fs.mkdirSync(path.join(outside, '.git'));
    fs.mkdirSync(path.join(outside, 'src'));
    fs.writeFileSync(path.join(outside, 'src', 'secret.ts'), 'export function secretThing() { return 1; }\n');
    const before = snapshot(outside);
    // The folder itself, a folder inside it, and a link inside a served root that leads to it.
    fs.symlinkSync(outside, path.join(other, 'escape'));
    try {
      for (const r of [outside, path.join(outside, 'src'), path.join(other, 'escape')]) {
        for (const [tool, args] of [
          ['build', {}],
          ['find', { text: 'secret' }],
          ['why', { id: 'secretThing' }],
          ['check', {}],
        ] as const) {
          const text = errorText(await call(tool, { ...args, root: r }));
          assert.match(text, /"root" .* is outside the repositories this server answers about/, `${tool} ${r}`);
          assert.doesNotMatch(text, /secretThing/);
        }
      }
    } finally {
      fs.unlinkSync(path.join(other, 'escape'));
    }
    assert.deepEqual(snapshot(outside), before, 'nothing written outside (no .knowledge-graph)');
    assert.equal(fs.existsSync(path.join(outside, '.knowledge-graph')), false);
    // A folder inside a served repository is that repository.
    const inside = structured(await call('callers', { id: 'add', root: path.join(other, 'src') }));
    assert.deepEqual(inside.callers, ['sym:src/app.ts#run', 'sym:src/lib.ts#total']);
  });

  it('concurrent build and check calls run one kg process per repository at a time, and every call is answered (issue 55, item 18)', async () => {
    let most = { build: 0, check: 0 };
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const running = kgProcessesOf(other);
        const count = (cmd: string) => running.filter((p) => p.includes(` ${cmd} --`)).length;
        most = { build: Math.max(most.build, count('build')), check: Math.max(most.check, count('check')) };
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const calls = [
      ...Array.from({ length: 12 }, () => call('build', { root: other })),
      ...Array.from({ length: 12 }, () => call('check', { root: other })),
    ];
    const answers = await Promise.all(calls);
    watching = false;
    await watcher;
    for (const r of answers.slice(0, 12)) assert.equal(structured(r).built, true);
    for (const r of answers.slice(12)) assert.equal(structured(r).available, true);
    assert.ok(most.build >= 1 && most.check >= 1, `seen running: ${JSON.stringify(most)}`);
    assert.deepEqual(most, { build: 1, check: 1 }, 'one process per tool and repository at a time');
  });

  it('another root, by argument: stale after an edit, check equal to kg check, build, fresh again', async () => {
    const before = structured(await call('callers', { id: 'add', root: other }));
    assert.deepEqual(before.callers, ['sym:src/app.ts#run', 'sym:src/lib.ts#total']);
    assert.equal(before.stale, false);
    const lib = path.join(other, 'src', 'lib.ts');
    fs.writeFileSync(lib, fs.readFileSync(lib, 'utf8').replace('add(a: number, b: number)', 'add(a: number, b: string)'));
    const stale = structured(await call('callers', { id: 'add', root: other }));
    assert.equal(stale.stale, true);
    assert.deepEqual(stale.changedFiles, ['src/lib.ts']);
    const check = structured(await call('check', { root: other }));
    validate('check', check);
    const cliCheck = kgJson(['check'], other);
    assert.equal(check.breaks, true, 'the signature change breaks run');
    assert.deepEqual(check.breakingChanges, cliCheck.breakingChanges);
    const built = structured(await call('build', { root: other }));
    validate('build', built);
    assert.equal(built.built, true);
    const fresh = structured(await call('callers', { id: 'add', root: other }));
    assert.equal(fresh.stale, false, 'the rebuilt graph is read on the next call');
    assert.deepEqual(fresh.callers, before.callers);
  });
});
