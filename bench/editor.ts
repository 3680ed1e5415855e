// The editor section of `npm run bench`: what the extension host pays for the graph, measured
// through the same worker and client the extension uses (dist/graph-worker.js,
// src/host/graph-worker-client.ts), in one plain Node process standing in for the host.
// - Lens titles for one file on a 100,000-edge graph: the round trips a file's lenses make (the
//   file's declarations, then their caller counts in one batch), p50/p99 over many files; bar
//   p99 ≤ 2 ms.
// - A reload with 1,000,000 edges: a fresh worker loads the graph while the host's event loop is
//   watched (monitorEventLoopDelay, and the largest gap between 1 ms timers); bar: no block over
//   50 ms, counting the time the host's own thread ran during a gap (its event-loop utilisation),
//   not the time it waited for a core on a busy machine (reported beside it). Also the time from the reload's start until a file's lenses are answered from the new
//   graph (no bar: it is the loader's time, off the host's thread).
//
// usage: node --import tsx bench/editor.ts   (after `npm run build`)

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GraphWorkerClient } from '../src/host/graph-worker-client';
import { benchGraph } from './queries';

const WORKER = path.join(__dirname, '..', 'dist', 'graph-worker.js');
const LENS_P99_BAR_MS = 2;
const BLOCK_BAR_MS = 50;

function graphOf(edges: number): string {
  const file = path.join(os.tmpdir(), 'kg-bench', `graph-${edges}-v1.json`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'generate-graph.ts'), `${file}.partial`, String(edges)],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(r.stderr);
    fs.renameSync(`${file}.partial`, file);
  }
  return file;
}

/** Source files of the graph that hold declarations, read from the file itself. */
function sourceFiles(file: string, limit: number): string[] {
  const g = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Array<{ kind: string; sourceFile?: string }> };
  const files = new Set<string>();
  for (const n of g.nodes) if ((n.kind === 'function' || n.kind === 'method') && n.sourceFile) files.add(n.sourceFile);
  return [...files].slice(0, limit);
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

/** One file's lenses, as the provider asks for them: positions, then the counts in one batch. */
async function lensRoundTrip(w: GraphWorkerClient, file: string): Promise<number> {
  const syms = await w.request('fileSymbols', { file });
  const counts = await w.request('counts', { ids: syms.map((s) => s.id) });
  return counts.length;
}

async function lensTitles(): Promise<{ p50: number; p99: number; files: number; lensesPerFile: number; pass: boolean }> {
  const file = graphOf(100_000);
  const w = new GraphWorkerClient(WORKER);
  const info = await w.request('load', { file });
  if (!info.ok) throw new Error(info.reason);
  const files = sourceFiles(file, 500);
  const times: number[] = [];
  let lenses = 0;
  for (let round = 0; round < 4; round++) {
    for (const f of files) {
      const t0 = performance.now();
      lenses += await lensRoundTrip(w, f);
      times.push(performance.now() - t0);
    }
  }
  await w.terminate();
  const p99 = quantile(times, 0.99);
  return { p50: quantile(times, 0.5), p99, files: times.length, lensesPerFile: lenses / times.length, pass: p99 <= LENS_P99_BAR_MS };
}

async function reload(): Promise<{
  longestBlockMs: number;
  longestWallGapMs: number;
  loadAvg: number;
  eventLoopP99Ms: number;
  untilLensesMs: number;
  loadMs: number;
  gaps: Array<{ atMs: number; ms: number; busyMs: number }>;
  pass: boolean;
}> {
  const file = benchGraph();
  const t0 = performance.now();
  const probe = sourceFiles(graphOf(100_000), 1)[0]; // the generator names files the same way at every size
  const h = monitorEventLoopDelay({ resolution: 5 });
  let last = performance.now();
  let longest = 0;
  let elu = performance.eventLoopUtilization();
  const gaps: Array<{ atMs: number; ms: number; busyMs: number }> = [];
  const tick = setInterval(() => {
    const now = performance.now();
    const next = performance.eventLoopUtilization();
    if (now - last > 20)
      gaps.push({
        atMs: Math.round(last - t0),
        ms: Math.round(now - last),
        busyMs: Math.round(performance.eventLoopUtilization(next, elu).active),
      });
    elu = next;
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  h.enable();
  const w = new GraphWorkerClient(WORKER);
  const info = await w.request('load', { file });
  if (!info.ok) throw new Error(info.reason);
  await lensRoundTrip(w, probe);
  const untilLenses = performance.now() - t0;
  h.disable();
  clearInterval(tick);
  await w.terminate();
  // The 1 ms timer fires late by up to a timer slice even when nothing blocks: the gap minus 1 ms.
  const wall = Math.max(longest - 1, h.max / 1e6);
  // On a shared machine a gap is also time the host's thread waited for a core while the worker
  // (and everyone else) ran: the bar applies to the part the host's own thread was running
  // (event-loop utilisation over the gap), the wall-clock gap is reported beside it.
  const block = gaps.length > 0 ? Math.max(...gaps.map((g) => g.busyMs)) : Math.min(wall, 20);
  return {
    longestBlockMs: block,
    longestWallGapMs: wall,
    loadAvg: os.loadavg()[0],
    eventLoopP99Ms: h.percentile(99) / 1e6,
    untilLensesMs: untilLenses,
    loadMs: info.loadMs,
    gaps,
    pass: block <= BLOCK_BAR_MS,
  };
}

export async function editorBench(): Promise<{
  lenses: Awaited<ReturnType<typeof lensTitles>>;
  reload: Awaited<ReturnType<typeof reload>>;
  pass: boolean;
}> {
  const lenses = await lensTitles();
  console.log(
    `editor: lens titles of one file, 100,000-edge graph: p50 ${lenses.p50.toFixed(3)} ms, p99 ${lenses.p99.toFixed(3)} ms (bar ≤ ${LENS_P99_BAR_MS}) over ${lenses.files} files, ${lenses.lensesPerFile.toFixed(1)} lenses each  ${lenses.pass ? 'PASS' : 'FAIL'}`,
  );
  const r = await reload();
  console.log(
    `editor: reload of the 1,000,000-edge graph: host's longest event-loop block ${r.longestBlockMs.toFixed(1)} ms (bar ≤ ${BLOCK_BAR_MS}; longest wall-clock gap ${r.longestWallGapMs.toFixed(1)} ms at load average ${r.loadAvg.toFixed(1)}), p99 delay ${r.eventLoopP99Ms.toFixed(1)} ms; lenses answered from the new graph after ${(r.untilLensesMs / 1000).toFixed(2)} s (load in the worker ${(r.loadMs / 1000).toFixed(2)} s)  ${r.pass ? 'PASS' : 'FAIL'}`,
  );
  // busyMs: how much of a gap the host's own thread was running (the rest it waited for a core).
  console.log(`editor: gaps over 20 ms (at, length, busy): ${r.gaps.map((g) => `${g.atMs}:${g.ms}/${g.busyMs}`).join(' ') || 'none'}`);
  return { lenses, reload: r, pass: lenses.pass && r.pass };
}

if (require.main === module) {
  editorBench().then(
    (r) => {
      fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
      fs.writeFileSync(path.join(__dirname, 'results', 'editor.json'), JSON.stringify(r, null, 2) + '\n');
      process.exitCode = r.pass ? 0 : 1;
    },
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
