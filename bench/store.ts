// `npm run bench:store`: the organisation store at scale (docs/organisation.md, "Scale"). Starts a
// PostgreSQL of its own (test/helpers/postgres.ts), pushes synthetic repositories (bench/generate-
// graph.ts, a different seed each, plus calls into the other repositories' packages, proven as a
// declaration map proves them, ADR 107), and at each size reports ingest throughput and the p50/p99
// latency of callers, impact and path (one repository), of callers over the whole organisation of
// an id every repository holds, and of a published function's callers across repositories (the
// join of ADR 122). Then rxjs's real graph: its push time and the same questions against the file
// queries, in-process on the same graph.
//
// usage: node --import tsx bench/store.ts [sizes=10,100] [edges=20000]   (KG_BENCH_NO_RXJS=1 skips rxjs)

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  answerQuery,
  compareEdges,
  compareStrings,
  graphSignature,
  indexGraph,
  loadGraphFile,
  packageSymbolId,
  parseId,
  type Graph,
  type IndexedGraph,
  type QueryRequest,
} from '../src/graph';
import { exactEdge } from '../src/graph/indexer/edges';
import { answerFromStore, connectStore, migrate, pushGraph } from '../src/graph/store';
import { startPostgres } from '../test/helpers/postgres';
import { corpus } from './corpus';
import { generateGraph, rng } from './generate-graph';

const [sizesArg = '10,100', edgesArg = '20000'] = process.argv.slice(2);
const SIZES = sizesArg.split(',').map(Number);
const EDGES = Number(edgesArg);
const SAMPLES = 200;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

const ms = (x: number) => x.toFixed(x < 10 ? 2 : 1);

/** Repository i of the organisation: a generated graph, with calls into other repositories' packages. */
function repository(i: number, total: number): { graph: Graph; symbols: string[] } {
  const { graph, symbols } = generateGraph(EDGES, 1000 + i);
  const rand = rng(7000 + i);
  const edges = [...graph.edges];
  const sources = graph.nodes.filter((n) => n.kind === 'function');
  // About 5% more edges: calls into packages the other repositories publish, proven through each
  // package's declaration map (ADR 107), naming functions every generated repository has (its
  // first ten packages' first forty files hold fn0..fn2), so the store's join lands (ADR 122).
  for (let k = 0; k < EDGES / 20; k++) {
    const s = sources[Math.floor(rand() * sources.length)];
    const other = Math.floor(rand() * total);
    const file = `packages/pkg${Math.floor(rand() * 10)}/src/area0/module${Math.floor(rand() * 40)}.ts`;
    const target = packageSymbolId(publishedName(other), '1.0.0', file, `fn${Math.floor(rand() * 3)}`);
    const e = exactEdge(s.id, target, 'calls', 'TYPESCRIPT_CHECKER', {
      ast: true,
      evidence: { file: s.sourceFile as string, line: 1 + k, column: 3 },
    });
    e.resolutionClass = 'EXACT_TYPECHECKED';
    edges.push(e);
  }
  const seen = new Set<string>();
  const unique = edges.filter((e) => {
    const key = `${e.source}\u0000${e.target}\u0000${e.relation}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort(compareEdges);
  const packages = [...new Set(unique.filter((e) => e.target.startsWith('pkg:')).map((e) => (parseId(e.target) as { pkg: string }).pkg))]
    .sort(compareStrings)
    .map((name) => ({ name, version: '1.0.0' }));
  return { graph: { ...graph, graphSignature: graphSignature(graph.nodes, unique), edges: unique, packages }, symbols };
}

/** The package repository i publishes, from its root. */
const publishedName = (i: number) => `@org/repo${i}`;

function indexed(graph: Graph): IndexedGraph {
  const load = indexGraph(graph);
  if (!load.ok) throw new Error(load.unavailable.reason);
  return load.graph;
}

async function timeAll(requests: Array<() => Promise<unknown> | unknown>): Promise<number[]> {
  const out: number[] = [];
  for (const r of requests) {
    const t = performance.now();
    await r();
    out.push(performance.now() - t);
  }
  return out;
}

async function main(): Promise<void> {
  const pg = startPostgres();
  // Stopped (and its folder removed) however the run ends: a Ctrl-C or a kill included.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      pg.stop();
      process.exit(130);
    });
  const client = await connectStore(pg.url);
  try {
    await migrate(client);
    const rand = rng(42);
    const rows: string[] = [
      '| repositories | edges in store | push (s, median) | ingest (edges/s) | callers p50 / p99 (ms) | impact p50 / p99 | path p50 / p99 | org callers p50 / p99 | library fn callers p50 / p99 |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ];
    let pushed = 0;
    let totalEdges = 0;
    const symbolsOf: string[][] = [];
    const total = SIZES[SIZES.length - 1];
    for (const size of SIZES) {
      const pushMs: number[] = [];
      let stageEdges = 0;
      for (; pushed < size; pushed++) {
        const { graph, symbols } = repository(pushed, total);
        const g = indexed(graph);
        const t = performance.now();
        await pushGraph(client, `org/repo${pushed}`, g, [{ name: publishedName(pushed), root: '' }]);
        pushMs.push(performance.now() - t);
        stageEdges += graph.edges.length;
        totalEdges += graph.edges.length;
        symbolsOf.push(symbols);
      }
      await client.query('ANALYZE');
      const ask = () => {
        const r = Math.floor(rand() * pushed);
        const syms = symbolsOf[r];
        return { repo: `org/repo${r}`, id: syms[Math.floor(rand() * syms.length)], other: syms[Math.floor(rand() * syms.length)] };
      };
      const callers = await timeAll(
        Array.from({ length: SAMPLES }, () => {
          const a = ask();
          return () => answerFromStore(client, { query: 'callers', id: a.id }, a.repo);
        }),
      );
      const impact = await timeAll(
        Array.from({ length: SAMPLES }, () => {
          const a = ask();
          return () => answerFromStore(client, { query: 'impact', id: a.id }, a.repo);
        }),
      );
      const paths = await timeAll(
        Array.from({ length: SAMPLES / 4 }, () => {
          const a = ask();
          return () => answerFromStore(client, { query: 'path', from: a.id, to: a.other }, a.repo);
        }),
      );
      const org = await timeAll(
        Array.from({ length: SAMPLES / 4 }, () => {
          const a = ask();
          return () => answerFromStore(client, { query: 'callers', id: a.id });
        }),
      );
      // A library function's callers anywhere: a function every repository's package publishes,
      // asked of its publisher, answered with the callers the other repositories' calls give it.
      const published = await timeAll(
        Array.from({ length: SAMPLES / 4 }, () => {
          const r = Math.floor(rand() * pushed);
          const id = `sym:packages/pkg${Math.floor(rand() * 10)}/src/area0/module${Math.floor(rand() * 40)}.ts#fn${Math.floor(rand() * 3)}`;
          return () => answerFromStore(client, { query: 'callers', id: `org/repo${r}/${id}` });
        }),
      );
      // The join lands: callers from other repositories per library function asked, on average.
      let elsewhere = 0;
      for (let k = 0; k < 20; k++) {
        const r = Math.floor(rand() * pushed);
        const id = `sym:packages/pkg${Math.floor(rand() * 10)}/src/area0/module${Math.floor(rand() * 40)}.ts#fn${Math.floor(rand() * 3)}`;
        const a = await answerFromStore(client, { query: 'callers', id: `org/repo${r}/${id}` });
        if (a.available && 'callers' in a) elsewhere += (a.callers as string[]).filter((c) => !c.startsWith(`org/repo${r}/`)).length;
      }
      process.stderr.write(
        `${pushed} repositories: a library function has ${(elsewhere / 20).toFixed(1)} callers in other repositories on average\n`,
      );
      const pushTotal = pushMs.reduce((s, x) => s + x, 0);
      const pair = (xs: number[]) => `${ms(percentile(xs, 0.5))} / ${ms(percentile(xs, 0.99))}`;
      rows.push(
        `| ${pushed} | ${totalEdges.toLocaleString('en-US')} | ${(percentile(pushMs, 0.5) / 1000).toFixed(2)} | ${Math.round(stageEdges / (pushTotal / 1000)).toLocaleString('en-US')} | ${pair(callers)} | ${pair(impact)} | ${pair(paths)} | ${pair(org)} | ${pair(published)} |`,
      );
      process.stderr.write(`${rows[rows.length - 1]}\n`);
    }
    const size = await client.query<{ s: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS s');
    console.log(
      `\nSynthetic organisation (${EDGES.toLocaleString('en-US')} edges per repository + 5% cross-repository calls; ${SAMPLES} samples a size):\n`,
    );
    console.log(rows.join('\n'));
    console.log(`\nstore size on disk: ${size.rows[0].s}`);

    if (process.env.KG_BENCH_NO_RXJS) return;
    const root = corpus('rxjs', fs.mkdtempSync(path.join(os.tmpdir(), 'kg-bench-store-rxjs-'))).root;
    const b = spawnSync(process.execPath, [path.join(__dirname, '..', 'dist', 'cli.js'), 'build', '--apply', '--root', root], {
      encoding: 'utf8',
    });
    if (b.status !== 0) throw new Error(b.stderr);
    const load = loadGraphFile(path.join(root, '.knowledge-graph', 'graph.json'));
    if (!load.ok) throw new Error(load.unavailable.reason);
    const pushes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await pushGraph(client, `rxjs${i}`, load.graph);
      pushes.push(performance.now() - t);
    }
    const g = load.graph;
    const syms = g.ids.slice(0, g.nodeCount).filter((id) => id.startsWith('sym:'));
    const pick = () => syms[Math.floor(rand() * syms.length)];
    const requests: Array<[string, () => QueryRequest]> = [
      ['callers', () => ({ query: 'callers', id: pick() })],
      ['impact', () => ({ query: 'impact', id: pick() })],
      ['path', () => ({ query: 'path', from: pick(), to: pick() })],
      ['neighbors', () => ({ query: 'neighbors', id: pick() })],
    ];
    const out = ['| question | file p50 / p99 (ms) | store p50 / p99 (ms) |', '|---|---:|---:|'];
    for (const [name, make] of requests) {
      const asks = Array.from({ length: SAMPLES }, make);
      const file = await timeAll(asks.map((r) => () => answerQuery(load, r)));
      const store = await timeAll(asks.map((r) => () => answerFromStore(client, r, 'rxjs0')));
      out.push(
        `| ${name} | ${ms(percentile(file, 0.5))} / ${ms(percentile(file, 0.99))} | ${ms(percentile(store, 0.5))} / ${ms(percentile(store, 0.99))} |`,
      );
    }
    console.log(
      `\nrxjs (${g.graph.nodes.length} nodes, ${g.graph.edges.length} edges): push ${ms(percentile(pushes, 0.5))} ms (median of 5 pushes as a new repository), in-process\n`,
    );
    console.log(out.join('\n'));
    fs.rmSync(root, { recursive: true, force: true });
  } finally {
    await client.end().catch(() => undefined);
    pg.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
