// Query latency in a fresh process: `node --import tsx bench/query-latency.ts <graph.json>`.
// Loads the graph once, then times each query on inputs drawn by a seeded generator (so every run
// asks the same questions): ids of every kind for the node queries, pairs for `path`, substrings of
// real ids (and a few that match nothing) for `query`. A short warm-up per query lets the JIT
// settle; then every call is timed on its own, twice over: the CPU time the process spent in it
// (what the code costs, and what the bars apply to) and the wall time (which, on a shared machine,
// also counts the time the process waited for a core). Prints {query: {n, cpu, wall}} as JSON.

import { answerQuery, loadGraphFile, type QueryRequest } from '../src/graph';
import { rng } from './generate-graph';

const WARMUP = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

function main(): void {
  const file = process.argv[2];
  const load = loadGraphFile(file);
  if (!load.ok) throw new Error(`cannot load ${file}: ${load.unavailable.reason}`);
  const g = load.graph;
  const rand = rng(7);
  const anyId = () => g.ids[Math.floor(rand() * g.nodeCount)];
  const substring = () => {
    if (rand() < 0.1) return `absent${Math.floor(rand() * 1e6)}`;
    const id = anyId();
    const len = 3 + Math.floor(rand() * 10);
    const at = Math.floor(rand() * Math.max(1, id.length - len));
    return id.slice(at, at + len);
  };
  const plan: Array<[string, number, () => QueryRequest]> = [
    ['callers', 1000, () => ({ query: 'callers', id: anyId() })],
    ['affected', 1000, () => ({ query: 'affected', id: anyId() })],
    ['impact', 1000, () => ({ query: 'impact', id: anyId() })],
    ['neighbors', 1000, () => ({ query: 'neighbors', id: anyId() })],
    ['path', 200, () => ({ query: 'path', from: anyId(), to: anyId() })],
    ['god-nodes', 200, () => ({ query: 'god-nodes' })],
    ['query', 1000, () => ({ query: 'query', text: substring() })],
  ];
  const stats = (xs: number[]) => {
    xs.sort((x, y) => x - y);
    return { p50: percentile(xs, 0.5), p99: percentile(xs, 0.99), max: xs[xs.length - 1] };
  };
  const out: Record<string, { n: number; cpu: ReturnType<typeof stats>; wall: ReturnType<typeof stats> }> = {};
  for (const [name, n, make] of plan) {
    for (let i = 0; i < WARMUP; i++) answerQuery(load, make());
    const requests = Array.from({ length: n }, make);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (const r of requests) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const result = answerQuery(load, r);
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      if (!result.available && result.code !== 'UNKNOWN_NODE') throw new Error(`${name}: ${result.reason}`);
    }
    out[name] = { n, cpu: stats(cpu), wall: stats(wall) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main();
