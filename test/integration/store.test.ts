// The organisation store on a real PostgreSQL (Debian's postgresql-15, a cluster of this test's own
// on a private socket: test/helpers/postgres.ts). The store's SQL answers are compared with the
// file queries on the same graphs: rxjs's graph for one repository (every query, a seeded sample
// of ids), and every golden fixture graph pushed as a repository of its own for the union across
// repositories. Then the faults: a graph that fails the doctor, SQL metacharacters in ids and
// labels, two pushes of one repository racing, the server killed in the middle of a push, a
// connection cut in the middle of a query, a store that is not there or not migrated.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from 'pg';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { corpus } from '../../bench/corpus';
import {
  answerQuery,
  compareStrings,
  fileId,
  loadGraphFile,
  moduleId,
  parseId,
  runDoctor,
  serializeGraph,
  type Graph,
  type GraphLoad,
  type QueryRequest,
} from '../../src/graph';
import { answerFromStore, connectStore, otherRepositoryCallers, pushGraph, qualify } from '../../src/graph/store';
import { random } from '../helpers/equivalence';
import { CLI, removeTempDirs, SNAPSHOTS, tempDir } from '../helpers/fixtures';
import { greeterRepositories } from '../helpers/packages';
import { graphOf, type EdgeSpec } from '../helpers/graphs';
import { startPostgres, type TestServer } from '../helpers/postgres';
import { SEED } from '../helpers/seed';
import { unionAnswer } from '../helpers/store-union';

let pg: TestServer;
let client: Client;

function kg(args: string[], opts: { cwd?: string; store?: string } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? process.cwd(),
    encoding: 'utf8',
    env: { ...process.env, KG_STORE: opts.store ?? pg.url },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function kgAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, KG_STORE: pg.url } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function loaded(file: string): GraphLoad & { ok: true } {
  const load = loadGraphFile(file);
  assert.ok(load.ok, `${file} does not load`);
  return load;
}

/** graphOf with every symbol's file and module as nodes that contain it: a graph the doctor passes. */
function cleanGraphOf(edges: readonly EdgeSpec[]): Graph {
  const contains: EdgeSpec[] = [];
  for (const [s, t] of edges)
    for (const id of [s, t]) {
      const p = parseId(id);
      if (p?.prefix !== 'sym') continue;
      contains.push([fileId(p.path), id, 'contains'], [moduleId(path.posix.dirname(p.path)), fileId(p.path), 'contains']);
    }
  const graph = graphOf([...edges, ...new Map(contains.map((e) => [`${e[0]} ${e[1]}`, e])).values()]);
  assert.ok(runDoctor(graph).ok, 'a clean test graph');
  return graph;
}

function writeGraph(graph: Graph): string {
  const file = path.join(tempDir('kg-store-graph-'), 'graph.json');
  fs.writeFileSync(file, serializeGraph(graph));
  return file;
}

/** Every (kind of) question about `ids`, and paths between pairs of them. */
function requests(ids: string[], rand: () => number, extra: string[]): QueryRequest[] {
  const out: QueryRequest[] = [];
  for (const id of [...ids, ...extra]) {
    out.push({ query: 'callers', id }, { query: 'affected', id }, { query: 'impact', id }, { query: 'why', id });
    out.push({ query: 'neighbors', id }, { query: 'neighbors', id, budget: 1 + Math.floor(rand() * 120) });
  }
  for (let i = 0; i + 1 < ids.length; i += 2) out.push({ query: 'path', from: ids[i], to: ids[i + 1] });
  out.push({ query: 'god-nodes' }, { query: 'god-nodes', top: 37 }, { query: 'query', text: '' }, { query: 'query', text: 'Sub' });
  return out;
}

/** An answer as text to compare: every field, the dispatch tier (ADR 151) included. */
const json = (x: unknown) => JSON.stringify(x);

function sample<T>(xs: readonly T[], n: number, rand: () => number): T[] {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
  return out;
}

/** The repository as the store holds it: every node and edge row, in key order. */
async function contents(repository: string): Promise<string> {
  const nodes = await client.query('SELECT id, doc FROM kg_nodes WHERE repository = $1 ORDER BY id', [repository]);
  const edges = await client.query(
    'SELECT source, target, relation, doc FROM kg_edges WHERE repository = $1 ORDER BY source, target, relation',
    [repository],
  );
  const repo = await client.query('SELECT graph_signature, node_count, edge_count FROM kg_repositories WHERE repository = $1', [
    repository,
  ]);
  return json({
    repo: repo.rows,
    nodes: nodes.rows.map((r: { doc: unknown }) => r.doc),
    edges: edges.rows.map((r: { doc: unknown }) => r.doc),
  });
}

/** What the store must hold for a graph: its nodes and edges, and the counts. */
function expectedContents(graph: Graph): string {
  return json({
    repo: [{ graph_signature: graph.graphSignature, node_count: graph.nodes.length, edge_count: graph.edges.length }],
    nodes: graph.nodes,
    edges: graph.edges,
  });
}

let rxjsGraph: string;

describe('kg store on a real PostgreSQL', () => {
  before(async () => {
    pg = startPostgres();
    const m = kg(['store', 'migrate']);
    assert.equal(m.code, 0, m.stderr);
    assert.deepEqual(JSON.parse(m.stdout), { from: 0, to: 4, applied: [1, 2, 3, 4] });
    client = await connectStore(pg.url);
    const root = corpus('rxjs', tempDir('kg-store-rxjs-')).root;
    const b = kg(['build', '--apply', '--root', root]);
    assert.equal(b.code, 0, b.stderr);
    rxjsGraph = path.join(root, '.knowledge-graph', 'graph.json');
  });
  after(async () => {
    await client?.end().catch(() => undefined);
    pg?.stop();
    removeTempDirs();
  });

  it('migrates once: a second migrate applies nothing, and the versions are recorded', async () => {
    const again = kg(['store', 'migrate']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { from: 4, to: 4, applied: [] });
    const rows = await client.query('SELECT version FROM kg_migrations ORDER BY version');
    assert.deepEqual(
      rows.rows.map((r: { version: number }) => r.version),
      [1, 2, 3, 4],
    );
  });

  it("answers every question on rxjs's graph exactly as the file queries do", async () => {
    const t0 = performance.now();
    const push = kg(['store', 'push', '--graph', rxjsGraph, '--repo', 'rxjs']);
    const pushMs = performance.now() - t0;
    assert.equal(push.code, 0, push.stderr);
    const summary = JSON.parse(push.stdout) as { nodes: number; edges: number; filesWritten: number; replaced: boolean };
    const load = loaded(rxjsGraph);
    assert.equal(summary.nodes, load.graph.graph.nodes.length);
    assert.equal(summary.edges, load.graph.graph.edges.length);
    assert.equal(summary.replaced, false);
    process.stderr.write(`store: pushed rxjs (${summary.nodes} nodes, ${summary.edges} edges) in ${Math.round(pushMs)} ms (kg process)\n`);
    assert.equal(await contents('rxjs'), expectedContents(load.graph.graph));

    const g = load.graph;
    const rand = random(SEED);
    const syms = g.ids.slice(0, g.nodeCount).filter((id) => id.startsWith('sym:'));
    const hubs = [...g.byDegree.slice(0, 5)].map((r) => g.ids[r]);
    const files = sample(
      g.ids.filter((id) => id.startsWith('file:')),
      5,
      rand,
    );
    const unresolved = g.ids.slice(g.nodeCount, g.nodeCount + 3);
    const ids = [...sample(syms, 25, rand), ...hubs, ...files, ...unresolved];
    // Two overriding members, whose callers and impact carry the dispatch tier (ADR 151).
    const dispatching = [
      'sym:src/internal/BehaviorSubject.ts#BehaviorSubject.next',
      'sym:src/internal/AsyncSubject.ts#AsyncSubject.complete',
    ];
    const extra = ['sym:nowhere.ts#nothing', 'map', 'sym:src/internal/operators/map.ts%23map', '', ...dispatching];
    let compared = 0;
    let withDispatch = 0;
    for (const request of requests(ids, rand, extra)) {
      const expected = answerQuery(load, request);
      const actual = await answerFromStore(client, request, 'rxjs');
      assert.equal(json(actual), json(expected), `${json(request)}`);
      compared++;
      if ('dispatched' in expected) withDispatch++;
    }
    assert.ok(compared > 200);
    assert.ok(withDispatch >= 4, `${withDispatch} answers with a dispatch tier compared`);
    // Call chains (ADR 161): the ends of two and three proven calls in a row, asked both ways and
    // undirected — the store walks the chain as the file query does, and falls back the same way.
    const calls = g.graph.edges.filter((e) => e.relation === 'calls' && e.confidence === 'EXACT' && e.source !== e.target);
    const callees = new Map<string, string[]>();
    for (const e of calls) callees.set(e.source, [...(callees.get(e.source) ?? []), e.target]);
    let directed = 0;
    for (const e of sample(calls, 40, rand)) {
      const next = callees.get(e.target)?.find((t) => t !== e.source);
      if (next === undefined) continue;
      const further = callees.get(next)?.[0];
      for (const [from, to] of [[e.source, next], [next, e.source], ...(further ? [[e.source, further]] : [])])
        for (const undirected of [false, true]) {
          const request: QueryRequest = { query: 'path', from, to, ...(undirected ? { undirected } : {}) };
          const expected = answerQuery(load, request);
          assert.equal(json(await answerFromStore(client, request, 'rxjs')), json(expected), json(request));
          if ('directed' in expected && expected.directed && expected.path.length > 2) directed++;
        }
    }
    assert.ok(directed >= 10, `${directed} call chains compared`);
    // Pushed again unchanged: nothing is withdrawn, and the answers stay.
    const again = JSON.parse(kg(['store', 'push', '--graph', rxjsGraph, '--repo', 'rxjs']).stdout) as {
      filesWritten: number;
      replaced: boolean;
    };
    assert.equal(again.filesWritten, 0);
    assert.equal(again.replaced, true);
    assert.equal(await contents('rxjs'), expectedContents(g.graph));
  });

  it('answers for the organisation: the union over every fixture graph, ids qualified by repository', async () => {
    // Snapshot folders that hold a graph (diff-comment holds the diff's golden comment).
    const names = fs
      .readdirSync(SNAPSHOTS)
      .filter((n) => fs.existsSync(path.join(SNAPSHOTS, n, 'graph.json')))
      .sort(compareStrings);
    const loads = new Map<string, GraphLoad & { ok: true }>();
    for (const name of names) {
      const load = loaded(path.join(SNAPSHOTS, name, 'graph.json'));
      await pushGraph(client, `fixtures/${name}`, load.graph);
      loads.set(`fixtures/${name}`, load);
    }
    loads.set('rxjs', loaded(rxjsGraph));
    const rand = random(SEED + 1);
    // Ids several fixtures share (file:src/main.ts …) and ids of one.
    const count = new Map<string, number>();
    for (const l of loads.values()) for (const id of l.graph.ids.slice(0, l.graph.nodeCount)) count.set(id, (count.get(id) ?? 0) + 1);
    const shared = [...count].filter(([, n]) => n > 1).map(([id]) => id);
    // And what the answers cannot see (ADR 153): a function used only from .astro and .mdx files,
    // a method an `any` receiver's call may reach, a file several fixtures hold.
    const holes = ['sym:src/cart.ts#addToCart', 'sym:src/engines.ts#Engine1.stop', 'file:src/main.ts', 'file:src/cart.ts'];
    const ids = [...sample(shared, 30, rand), ...sample([...count.keys()], 30, rand), 'sym:nowhere.ts#x', ...holes];
    assert.ok(shared.length > 10, 'the fixtures share ids');
    let compared = 0;
    const named = { unanalysed: 0, unresolvedNamed: 0 };
    for (const id of ids) {
      for (const query of ['callers', 'affected', 'impact', 'why'] as const) {
        const expected = unionAnswer(loads, { query, id });
        const actual = await answerFromStore(client, { query, id });
        if ('degrade' in expected) assert.equal(actual.available ? 'answered' : actual.code, expected.degrade, `${query} ${id}`);
        else assert.equal(json(actual), json(expected), `${query} ${id}`);
        compared++;
        if ('unanalysed' in actual) named.unanalysed++;
        if ('unresolvedNamed' in actual) named.unresolvedNamed++;
      }
    }
    assert.ok(named.unanalysed >= 3 && named.unresolvedNamed >= 3, JSON.stringify(named));
    for (const request of [
      { query: 'god-nodes' },
      { query: 'god-nodes', top: 200 },
      { query: 'query', text: 'main' },
      { query: 'query', text: '' },
    ] as QueryRequest[]) {
      assert.equal(json(await answerFromStore(client, request)), json(unionAnswer(loads, request)), json(request));
      compared++;
    }
    // Walks stay in one repository: a qualified id names it; an id in several repositories without one is a usage error.
    for (const [repo, l] of loads) {
      const some = sample(l.graph.ids, 4, rand);
      const requests: QueryRequest[] = [
        { query: 'neighbors', id: qualify(repo, some[0]) },
        { query: 'path', from: qualify(repo, some[1]), to: qualify(repo, some[2]) },
        { query: 'path', from: qualify(repo, some[3]), to: qualify(repo, some[0]) },
      ];
      for (const request of requests) {
        assert.equal(json(await answerFromStore(client, request)), json(unionAnswer(loads, request)), `${repo} ${json(request)}`);
        compared++;
      }
    }
    await assert.rejects(answerFromStore(client, { query: 'neighbors', id: shared[0] }), /repositories/);
    const cli = kg(['store', 'neighbors', shared[0]]);
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(cli.stderr, /name one with --repo, or qualify the id/);
    process.stderr.write(`store: ${compared} organisation answers compared over ${loads.size} repositories\n`);
  });

  it("joins a call into a published package to the publisher's symbol: callers across repositories (ADR 122)", async () => {
    // The publisher: a workspace whose packages/greeter publishes @acme/greeter with declaration maps.
    // A package.json outside the workspaces it declares (a fixture) publishes nothing.
    const { acme, consumer } = greeterRepositories(tempDir('kg-store-pkgs-'), {
      'test/fixtures/decoy/package.json': JSON.stringify({ name: 'consumer-app' }),
    });
    for (const root of [acme, consumer]) {
      const b = kg(['build', '--apply', '--root', root]);
      assert.equal(b.code, 0, b.stderr);
    }
    const pushed = (root: string, extra: string[] = []) => {
      const r = kg(['store', 'push', ...extra], { cwd: root });
      assert.equal(r.code, 0, r.stderr);
      return { out: JSON.parse(r.stdout) as Record<string, unknown>, stderr: r.stderr };
    };
    const a = pushed(acme);
    assert.equal(a.out.repository, 'acme-monorepo');
    assert.deepEqual(a.out.packages, [
      { name: '@acme/greeter', root: 'packages/greeter' },
      { name: 'acme-monorepo', root: '' },
    ]);
    assert.deepEqual(a.out.packagesHeldElsewhere, []);
    assert.deepEqual(pushed(consumer).out.packages, [{ name: 'consumer-app', root: '' }]);

    const greet = 'sym:packages/greeter/src/greeter.ts#greet';
    const ask = async (request: QueryRequest, repo?: string) =>
      JSON.parse(json(await answerFromStore(client, request, repo))) as Record<string, unknown>;
    // The organisation: the publisher's own caller, and the consumer's two, proven through the map.
    const org = await ask({ query: 'callers', id: qualify('acme-monorepo', greet) });
    assert.deepEqual(org.callers, [
      'acme-monorepo/sym:packages/greeter/src/greeter.ts#Greeter.hello',
      'consumer-app/sym:src/main.ts#main',
      'consumer-app/sym:src/main.ts#twice',
    ]);
    assert.deepEqual(org.candidates, []);
    const create = await ask({ query: 'impact', id: qualify('acme-monorepo', 'sym:packages/greeter/src/greeter.ts#Greeter.create') });
    assert.deepEqual(create.callers, ['consumer-app/sym:src/main.ts#main']);
    assert.equal(create.blastRadius, 1);
    // One repository: the answer its graph.json gives, nothing from the others.
    const acmeLoad = loaded(path.join(acme, '.knowledge-graph', 'graph.json'));
    const consumerLoad = loaded(path.join(consumer, '.knowledge-graph', 'graph.json'));
    assert.equal(
      json(await answerFromStore(client, { query: 'callers', id: greet }, 'acme-monorepo')),
      json(answerQuery(acmeLoad, { query: 'callers', id: greet })),
    );
    // The consumer's package-qualified target is asked like a node, as the file queries do (ADR 109).
    const target = 'pkg:%40acme/greeter@1.2.0:src/greeter.ts#greet';
    for (const query of ['callers', 'affected', 'impact'] as const) {
      const file = answerQuery(consumerLoad, { query, id: target });
      assert.ok(file.available, `${query} ${target} on the file`);
      assert.equal(json(await answerFromStore(client, { query, id: target }, 'consumer-app')), json(file), `${query} ${target}`);
    }
    // What the editor's lens adds: the same callers, counted per symbol.
    const counts = await otherRepositoryCallers(client, 'acme-monorepo', [
      greet,
      'sym:packages/greeter/src/greeter.ts#Greeter.hello',
      'sym:packages/greeter/src/greeter.ts#Greeter.create',
    ]);
    assert.deepEqual(counts && Object.fromEntries(counts), {
      [greet]: { callers: 2, candidates: 0, repositories: 1 },
      'sym:packages/greeter/src/greeter.ts#Greeter.hello': { callers: 1, candidates: 0, repositories: 1 },
      'sym:packages/greeter/src/greeter.ts#Greeter.create': { callers: 1, candidates: 0, repositories: 1 },
    });
    assert.equal(await otherRepositoryCallers(client, 'nobody/here', [greet]), undefined);
    // A second repository naming the same package keeps none of it: the first publisher's callers stay its own.
    const fork = pushed(acme, ['--repo', 'acme-fork']);
    assert.deepEqual(fork.out.packagesHeldElsewhere, [
      { name: '@acme/greeter', repository: 'acme-monorepo' },
      { name: 'acme-monorepo', repository: 'acme-monorepo' },
    ]);
    assert.match(fork.stderr, /package @acme\/greeter is published by repository acme-monorepo/);
    assert.deepEqual((await ask({ query: 'callers', id: qualify('acme-fork', greet) })).callers, [
      'acme-fork/sym:packages/greeter/src/greeter.ts#Greeter.hello',
    ]);
    assert.deepEqual((await ask({ query: 'callers', id: qualify('acme-monorepo', greet) })).callers, org.callers);
  });

  it('kg mcp with scope "organisation" answers what kg store answers, every page; without a store it says how to get one', async () => {
    const cwd = tempDir('kg-store-mcp-');
    const connect = async (store: string | undefined) => {
      const env: Record<string, string> = { ...(process.env as Record<string, string>), KG_SERVER: 'off' };
      if (store === undefined) delete env.KG_STORE;
      else env.KG_STORE = store;
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--all-tools'],
        cwd,
        env,
        stderr: 'pipe',
      });
      const mcp = new McpClient({ name: 'kg-store-test', version: '1.0.0' });
      await mcp.connect(transport);
      return mcp;
    };
    const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;
    const mcp = await connect(pg.url);
    try {
      const tools = (await mcp.listTools()).tools;
      const scoped = tools.filter((t) => 'scope' in ((t.inputSchema.properties ?? {}) as object)).map((t) => t.name);
      // Every query tool that can ask the store, the entry point among them (ADR 164): never check or build.
      assert.deepEqual(scoped.sort(), ['affected', 'callers', 'explore_code', 'find', 'god-nodes', 'impact', 'neighbors', 'path', 'why']);
      const call = async (name: string, args: Record<string, unknown>) => (await mcp.callTool({ name, arguments: args })) as CallToolResult;

      // Who calls rxjs's busiest function, anywhere: every page, in order, is kg store's list.
      const proven = new Map<string, number>();
      for (const e of loaded(rxjsGraph).graph.graph.edges)
        if (e.relation === 'calls' && e.confidence === 'EXACT') proven.set(e.target, (proven.get(e.target) ?? 0) + 1);
      const [id] = [...proven].sort((x, y) => y[1] - x[1] || compareStrings(x[0], y[0]))[0];
      const cli = JSON.parse(kg(['store', 'callers', id]).stdout) as { callers: string[]; candidates: string[] };
      assert.ok(cli.callers.length > 10, 'a list long enough to page');
      const pages: string[] = [];
      for (let offset = 0; offset < cli.callers.length; offset += 10) {
        const page = await call('callers', { id, scope: 'organisation', offset, limit: 10 });
        assert.ok(!page.isError, text(page));
        pages.push(...((page.structuredContent as { callers: string[] }).callers ?? []));
      }
      assert.deepEqual(pages, cli.callers);
      assert.ok(
        pages.every((c) => c.startsWith('rxjs/')),
        'ids qualified by repository',
      );

      // The other questions, whole where they fit: the store's JSON itself.
      const shared = 'file:src/main.ts';
      for (const [tool, args, cliArgs] of [
        ['god-nodes', { top: 5 }, ['god-nodes', '--top', '5']],
        ['find', { text: 'main' }, ['query', 'main']],
        ['why', { id: shared }, ['why', shared]],
        ['impact', { id: `rxjs/${id}` }, ['impact', `rxjs/${id}`]],
        ['neighbors', { id: `rxjs/${id}`, budget: 5 }, ['neighbors', `rxjs/${id}`, '--budget', '5']],
      ] as Array<[string, Record<string, unknown>, string[]]>) {
        const paged = ['why', 'impact', 'neighbors'].includes(tool);
        const r = await call(tool, { ...args, scope: 'organisation', ...(paged ? { limit: 1000 } : {}) });
        assert.ok(!r.isError, `${tool}: ${text(r)}`);
        const expected = JSON.parse(kg(['store', ...cliArgs]).stdout) as Record<string, unknown>;
        const actual = { ...(r.structuredContent as Record<string, unknown>) };
        if (JSON.stringify(actual.omitted ?? {}) === '{}') delete actual.omitted;
        assert.deepEqual(actual, expected, tool);
      }
      // scope "repository" is the default: the same answer as no scope.
      assert.deepEqual((await call('god-nodes', { top: 3, scope: 'repository' })).content, (await call('god-nodes', { top: 3 })).content);

      // A walk from an id several repositories hold: a tool error that says to qualify it.
      const ambiguous = await call('neighbors', { id: shared, scope: 'organisation' });
      assert.ok(ambiguous.isError);
      assert.match(text(ambiguous), /qualify the id/);
      // No such node in any repository: an error that says how ids are written, never an empty answer.
      const unknown = await call('callers', { id: 'sym:nowhere.ts#x', scope: 'organisation' });
      assert.ok(unknown.isError);
      assert.match(text(unknown), /qualified by repository/);
      // symbol is a question of one repository's graph: scope is not one of its arguments.
      const symbol = await call('symbol', { id, scope: 'organisation' });
      assert.ok(symbol.isError);
      assert.match(text(symbol), /unknown argument "scope"/);
      const bad = await call('callers', { id, scope: 'world' });
      assert.ok(bad.isError);
      assert.match(text(bad), /"scope" must be "repository" or "organisation"/);
    } finally {
      await mcp.close();
    }

    // No store configured, or one that is not there: a tool error naming what to do.
    for (const store of [undefined, 'postgresql://kg@/nowhere?host=/nonexistent-socket-dir']) {
      const without = await connect(store);
      try {
        const r = (await without.callTool({ name: 'callers', arguments: { id: 'sym:a.ts#a', scope: 'organisation' } })) as CallToolResult;
        assert.ok(r.isError);
        assert.match(text(r), store === undefined ? /--store URL or set KG_STORE/ : /organisation store cannot answer/);
      } finally {
        await without.close();
      }
    }
  });

  it('the CLI prints the same JSON and exit codes as the file queries', () => {
    const id = 'sym:src/internal/operators/map.ts#map';
    // A copy outside .knowledge-graph: no manifest beside it, so the file answers say nothing of staleness either.
    const copy = writeGraph(loaded(rxjsGraph).graph.graph);
    for (const args of [
      ['callers', id],
      ['impact', id],
      ['neighbors', id, '--budget', '7'],
      ['callers', 'sym:nope.ts#x'],
      ['god-nodes', '--top', '3'],
    ]) {
      const file = kg([...args, '--graph', copy]);
      const store = kg(['store', ...args, '--repo', 'rxjs']);
      assert.equal(store.stdout, file.stdout, args.join(' '));
      assert.equal(store.code, file.code, args.join(' '));
    }
    const usage = kg(['store', 'neighbors', id, '--budget', '0', '--repo', 'rxjs']);
    assert.equal(usage.code, 2);
    const unknownRepo = kg(['store', 'callers', id, '--repo', 'acme/none']);
    assert.equal(unknownRepo.code, 3);
    assert.equal(JSON.parse(unknownRepo.stdout).code, 'NO_GRAPH');
    const noStore = spawnSync(process.execPath, [CLI, 'store', 'callers', id], { encoding: 'utf8', env: { ...process.env, KG_STORE: '' } });
    assert.equal(noStore.status, 2);
    assert.match(noStore.stderr, /no store: pass --store URL or set KG_STORE/);
  });

  it('refuses a graph that fails the doctor before a row is written', async () => {
    const bad = graphOf([['sym:src/a.ts#f', 'sym:src/b.ts#g']]);
    // An EXACT edge whose evidence names a file that is not in the graph: missing_evidence_file.
    bad.edges[0] = { ...bad.edges[0], evidence: { file: 'src/elsewhere.ts', line: 1, column: 1 } };
    const before = await client.query('SELECT (SELECT count(*) FROM kg_nodes) AS n, (SELECT count(*) FROM kg_edges) AS e');
    const r = kg(['store', 'push', '--graph', writeGraph(bad), '--repo', 'acme/bad']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /fails the doctor; nothing was written/);
    const after = await client.query('SELECT (SELECT count(*) FROM kg_nodes) AS n, (SELECT count(*) FROM kg_edges) AS e');
    assert.deepEqual(after.rows, before.rows);
    const repo = await client.query("SELECT 1 FROM kg_repositories WHERE repository = 'acme/bad'");
    assert.equal(repo.rowCount, 0);
  });

  it('keeps SQL metacharacters in ids and labels as data (parameters only)', async () => {
    const evil = "sym:src/q'uote.ts#f'%3B%20DROP%20TABLE%20kg_nodes%3B--";
    const like = 'sym:src/100%25_off.ts#a_b';
    const dollar = 'sym:src/$1.ts#$$x';
    const graph = cleanGraphOf([
      [evil, like],
      [dollar, like],
      [like, evil, 'calls', 'CANDIDATE'],
      [dollar, 'unresolved:x\'"\\'],
    ]);
    graph.nodes = graph.nodes.map((n) => ({ ...n, label: `${n.label} ' " \\ % _ $1 ;--` }));
    const file = writeGraph(graph);
    const r = kg(['store', 'push', '--graph', file, '--repo', 'acme/evil']);
    assert.equal(r.code, 0, r.stderr);
    const load = loaded(file);
    const asks: QueryRequest[] = [
      ...[evil, like, dollar, 'unresolved:x\'"\\', "sym:src/q'uote.ts#f';"].flatMap((id) =>
        (['callers', 'impact', 'why', 'neighbors'] as const).map((query) => ({ query, id }) as QueryRequest),
      ),
      { query: 'path', from: evil, to: dollar },
      { query: 'query', text: '%' },
      { query: 'query', text: '_' },
      { query: 'query', text: "'" },
      { query: 'god-nodes' },
    ];
    for (const request of asks)
      assert.equal(json(await answerFromStore(client, request, 'acme/evil')), json(answerQuery(load, request)), json(request));
    const tables = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'kg%'");
    assert.equal(tables.rows[0].n, 7);
  });

  it('two pushes of one repository racing: both finish, the store holds one of the two graphs whole', async () => {
    const a = cleanGraphOf([
      ['sym:src/a.ts#f', 'sym:src/b.ts#g'],
      ['sym:src/b.ts#g', 'sym:src/c.ts#h'],
    ]);
    const edges: Array<[string, string]> = [];
    for (let i = 0; i < 1500; i++) edges.push([`sym:src/m${i % 150}.ts#f${i}`, `sym:src/m${(i * 7) % 150}.ts#f${(i * 13) % 1500}`]);
    const b = cleanGraphOf(edges);
    const [fa, fb] = [writeGraph(a), writeGraph(b)];
    for (let round = 0; round < 2; round++) {
      const [ra, rb, other] = await Promise.all([
        kgAsync(['store', 'push', '--graph', fa, '--repo', 'acme/race']),
        kgAsync(['store', 'push', '--graph', fb, '--repo', 'acme/race']),
        kgAsync(['store', 'push', '--graph', fa, '--repo', `acme/other${round}`]),
      ]);
      assert.equal(ra.code, 0, ra.stderr);
      assert.equal(rb.code, 0, rb.stderr);
      assert.equal(other.code, 0, other.stderr);
      const held = await contents('acme/race');
      assert.ok(held === expectedContents(a) || held === expectedContents(b), `round ${round}: the store holds neither graph whole`);
      assert.equal(await contents(`acme/other${round}`), expectedContents(a));
    }
    const pushes = await client.query("SELECT pushes::int AS n FROM kg_repositories WHERE repository = 'acme/race'");
    assert.equal(pushes.rows[0].n, 4, 'no push was lost');
  });

  it('the server killed during a push: after recovery the store holds the old repository, never half', async () => {
    const small = cleanGraphOf([['sym:src/a.ts#f', 'sym:src/b.ts#g']]);
    assert.equal(kg(['store', 'push', '--graph', writeGraph(small), '--repo', 'acme/crash']).code, 0);
    const big = loaded(rxjsGraph).graph.graph;
    const file = writeGraph(big);
    const pushing = kgAsync(['store', 'push', '--graph', file, '--repo', 'acme/crash']);
    // Wait until the push has written rows inside its transaction, then kill the server.
    const watcher = await connectStore(pg.url);
    let seen = false;
    for (let i = 0; i < 400 && !seen; i++) {
      const r = await watcher.query(
        "SELECT 1 FROM pg_stat_activity WHERE application_name = 'kg' AND query LIKE 'INSERT INTO kg_%' AND state = 'active'",
      );
      seen = (r.rowCount ?? 0) > 0;
      if (!seen) await new Promise((res) => setTimeout(res, 5));
    }
    await watcher.end().catch(() => undefined);
    await client.end().catch(() => undefined);
    pg.crash();
    const result = await pushing;
    assert.ok(seen, 'the push was never seen writing');
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /the store could not be used while pushing acme\/crash/);
    pg.start();
    client = await connectStore(pg.url);
    assert.equal(await contents('acme/crash'), expectedContents(small));
    // And the push, run again, completes.
    assert.equal(kg(['store', 'push', '--graph', file, '--repo', 'acme/crash']).code, 0);
    assert.equal(await contents('acme/crash'), expectedContents(big));
  });

  it('a connection cut during a query is an unavailable answer that says so (exit 3)', async () => {
    // Hold a lock the query must wait for, then terminate the query's backend while it waits.
    const holder = await connectStore(pg.url);
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE kg_edges IN ACCESS EXCLUSIVE MODE');
    const asking = kgAsync(['store', 'callers', 'sym:src/internal/operators/map.ts#map', '--repo', 'rxjs']);
    let killed = false;
    for (let i = 0; i < 400 && !killed; i++) {
      const r = await client.query(
        "SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE application_name = 'kg' AND wait_event_type = 'Lock'",
      );
      killed = r.rows.some((x: { t: boolean }) => x.t);
      if (!killed) await new Promise((res) => setTimeout(res, 10));
    }
    const result = await asking;
    await holder.query('ROLLBACK');
    await holder.end();
    assert.ok(killed, 'the query was never seen waiting');
    assert.equal(result.code, 3, result.stderr);
    const answer = JSON.parse(result.stdout) as { available: boolean; code: string; reason: string };
    assert.equal(answer.available, false);
    assert.equal(answer.code, 'STORE_UNAVAILABLE');
    assert.match(answer.reason, /the store could not be used while answering callers: terminating connection/);
  });

  it('a store that is not there, or not migrated, is reported, never answered', async () => {
    const nowhere = `postgresql://postgres@/postgres?host=${encodeURIComponent(path.join(pg.dir, 'no-such-socket-dir'))}`;
    const q = kg(['store', 'callers', 'sym:a.ts#f'], { store: nowhere });
    assert.equal(q.code, 3);
    assert.equal(JSON.parse(q.stdout).code, 'STORE_UNAVAILABLE');
    const p = kg(['store', 'push', '--graph', rxjsGraph, '--repo', 'x'], { store: nowhere });
    assert.equal(p.code, 1);
    assert.match(p.stderr, /could not be used while connecting/);
    await client.query('CREATE DATABASE unmigrated');
    const empty = pg.url.replace('/postgres?', '/unmigrated?');
    const u = kg(['store', 'callers', 'sym:a.ts#f'], { store: empty });
    assert.equal(u.code, 3);
    assert.match(JSON.parse(u.stdout).reason, /run "kg store migrate"/);
    const up = kg(['store', 'push', '--graph', rxjsGraph, '--repo', 'x'], { store: empty });
    assert.equal(up.code, 1);
    assert.match(up.stderr, /run "kg store migrate"/);
  });
});
