// The served part of `npm run bench:agents` (issue 48, item 3; ADR 168): `kg mcp` as an agent
// runs it — a child process on a real repository's graph, the SDK's client over stdio — timed from
// the client's side.
//
// The repository: fabric as published on npm (the devDependency), without its build output
// (dist/, dist-extensions/: what its own .gitignore leaves out): its sources with their tests, its
// extensions, scripts and configs. Its graph is built with `kg build --apply` first.
//
// Measured: the first answer after the process is spawned (the handshake included; bar 1 s); then
// 500 `explore_code` calls, the asks in turn (symbol, callers, impact, path, find) on seeded
// targets, p50 and p99 of the wall time per call (bars 20 ms and 60 ms), with the server's CPU time
// (user + system, from /proc) and the bench's own beside it; then one source file is edited while
// the server runs, and the next answer must say `stale` with that file (the bench fails if not).

import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Graph } from '../src/graph';
import { rng } from './generate-graph';

const REPO = path.join(__dirname, '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const ENV = { ...(process.env as Record<string, string>), KG_SERVER: 'off' };
/** Build output the package ships and a repository does not hold. */
const LEFT_OUT = new Set(['dist', 'dist-extensions', 'node_modules']);

function copyTree(src: string, dest: string): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    if (LEFT_OUT.has(e.name)) continue;
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isDirectory()) copyTree(s, d);
    else if (e.isFile()) fs.copyFileSync(s, d);
  }
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** User + system CPU time of a process so far, in ms (the resolution of a clock tick). */
function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Timing {
  n: number;
  p50: number;
  p99: number;
  max: number;
}
const timing = (xs: number[]): Timing => ({ n: xs.length, p50: percentile(xs, 0.5), p99: percentile(xs, 0.99), max: Math.max(...xs) });

export interface ServedResult {
  repository: string;
  files: number;
  codeFiles: number;
  nodes: number;
  edges: number;
  graphBytes: number;
  buildSeconds: number;
  firstCallMs: number;
  firstCallServerCpuMs: number;
  byAsk: Record<string, Timing>;
  all: Timing & { serverCpuMsPerCall: number; benchCpuMsPerCall: number; wallMsPerCall: number };
  afterEdit: { ms: number; stale: boolean; changedFiles: string[] };
  bars: { firstCall: boolean; p50: boolean; p99: boolean; staleAfterEdit: boolean };
}

const ASKS = ['symbol', 'callers', 'impact', 'path', 'find'] as const;

export async function served(calls = 500): Promise<ServedResult> {
  const pkg = path.join(REPO, 'node_modules', 'fabric');
  const version = (JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kg-agents-served-')));
  try {
    copyTree(pkg, root);
    const t0 = performance.now();
    const build = spawnSync(process.execPath, [CLI, 'build', '--apply'], { cwd: root, env: ENV, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`kg build failed: ${build.stderr}`);
    const buildSeconds = (performance.now() - t0) / 1000;
    const graphFile = path.join(root, '.knowledge-graph', 'graph.json');
    const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as Graph;
    const files = graph.nodes.filter((n) => n.kind === 'file');
    const codeFiles = files.filter((n) => /\.[cm]?[jt]sx?$/.test(n.id));
    const symbols = graph.nodes.filter((n) => n.kind === 'function' || n.kind === 'method' || n.kind === 'class').map((n) => n.id);
    // Stamps are trusted once the tree has been still for a moment (ADR 168): a server started
    // right after a copy would look at the tree again on every call until then.
    await new Promise((r) => setTimeout(r, 2500));

    const rand = rng(48);
    const pick = () => symbols[Math.floor(rand() * symbols.length)];
    const argsFor = (ask: (typeof ASKS)[number]): Record<string, unknown> => {
      if (ask === 'path') return { ask, target: pick(), to: pick() };
      if (ask === 'find') {
        const id = pick();
        return { ask, target: id.slice(id.lastIndexOf('#') + 1).split('.')[0] };
      }
      return { ask, target: pick() };
    };

    const started = performance.now();
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: root, env: ENV, stderr: 'ignore' });
    const client = new Client({ name: 'kg-bench', version: '1' });
    await client.connect(transport);
    const pid = transport.pid as number;
    const first = (await client.callTool({ name: 'explore_code', arguments: argsFor('symbol') })) as CallToolResult;
    const firstCallMs = performance.now() - started;
    const firstCallServerCpuMs = cpuMsOf(pid);
    if (first.isError) throw new Error(`the first call failed: ${JSON.stringify(first.content)}`);

    const times: number[] = [];
    const byAsk: Record<string, number[]> = Object.fromEntries(ASKS.map((a) => [a, []]));
    const serverBefore = cpuMsOf(pid);
    const ownBefore = ownCpuMs();
    const wallBefore = performance.now();
    for (let i = 0; i < calls; i++) {
      const ask = ASKS[i % ASKS.length];
      const args = argsFor(ask);
      const a = performance.now();
      const r = (await client.callTool({ name: 'explore_code', arguments: args })) as CallToolResult;
      const ms = performance.now() - a;
      times.push(ms);
      byAsk[ask].push(ms);
      // An ambiguous name is an answer too (a list to choose from); anything else failing is a bug.
      if (r.isError && !/is ambiguous|names no node/.test((r.content[0] as { text: string }).text))
        throw new Error(`${JSON.stringify(args)}: ${JSON.stringify(r.content)}`);
    }
    const wall = performance.now() - wallBefore;
    const serverCpu = cpuMsOf(pid) - serverBefore;
    const ownCpu = ownCpuMs() - ownBefore;

    // An edit while the server runs: the next answer says so.
    const edited = codeFiles[Math.floor(rand() * codeFiles.length)].sourceFile as string;
    fs.appendFileSync(path.join(root, edited), '\n// edited while kg mcp runs\n');
    const e0 = performance.now();
    const after = (await client.callTool({ name: 'explore_code', arguments: { ask: 'symbol', target: symbols[0] } })) as CallToolResult;
    const afterMs = performance.now() - e0;
    const v = after.structuredContent as { stale?: boolean; changedFiles?: string[] } | undefined;
    await client.close();

    const all = timing(times);
    const result: ServedResult = {
      repository: `fabric ${version} (npm), without dist/`,
      files: files.length,
      codeFiles: codeFiles.length,
      nodes: graph.nodes.length,
      edges: graph.edges.length,
      graphBytes: fs.statSync(graphFile).size,
      buildSeconds,
      firstCallMs,
      firstCallServerCpuMs,
      byAsk: Object.fromEntries(Object.entries(byAsk).map(([k, xs]) => [k, timing(xs)])),
      all: { ...all, serverCpuMsPerCall: serverCpu / calls, benchCpuMsPerCall: ownCpu / calls, wallMsPerCall: wall / calls },
      afterEdit: { ms: afterMs, stale: v?.stale === true, changedFiles: v?.changedFiles ?? [] },
      bars: {
        firstCall: firstCallMs <= 1000,
        p50: all.p50 <= 20,
        p99: all.p99 <= 60,
        staleAfterEdit: v?.stale === true && (v.changedFiles ?? []).includes(edited),
      },
    };
    return result;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function servedTable(r: ServedResult): string {
  const ms = (x: number) => x.toFixed(2);
  const pass = (ok: boolean) => (ok ? 'pass' : 'FAIL');
  const lines = [
    `(${r.repository}: ${r.files} files in the graph, ${r.codeFiles} of them code; ${r.nodes} nodes, ${r.edges} edges, graph.json ${(r.graphBytes / 1e6).toFixed(1)} MB; built in ${r.buildSeconds.toFixed(1)} s)`,
    '',
    '| explore_code, running kg mcp (stdio) | calls | p50 ms | p99 ms | max ms | bar |',
    '|---|---:|---:|---:|---:|---|',
    `| first answer after the process starts | 1 | ${ms(r.firstCallMs)} | | | ≤ 1000 ms: ${pass(r.bars.firstCall)} (server CPU ${r.firstCallServerCpuMs.toFixed(0)} ms) |`,
    ...Object.entries(r.byAsk).map(([k, t]) => `| ${k} | ${t.n} | ${ms(t.p50)} | ${ms(t.p99)} | ${ms(t.max)} | |`),
    `| all asks | ${r.all.n} | ${ms(r.all.p50)} | ${ms(r.all.p99)} | ${ms(r.all.max)} | p50 ≤ 20 ms: ${pass(r.bars.p50)}; p99 ≤ 60 ms: ${pass(r.bars.p99)} |`,
    `| next answer after a file is edited | 1 | ${ms(r.afterEdit.ms)} | | | says stale with the file: ${pass(r.bars.staleAfterEdit)} |`,
    '',
    `Per call: wall ${ms(r.all.wallMsPerCall)} ms, server CPU ${ms(r.all.serverCpuMsPerCall)} ms, bench (client) CPU ${ms(r.all.benchCpuMsPerCall)} ms.`,
  ];
  return lines.join('\n') + '\n';
}
