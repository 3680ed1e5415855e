// `npm run bench`: every measurement is a ratio to a floor measured in the same run on the same
// files, because these machines are shared and noisy. Each sample runs in a fresh process,
// floors and subjects interleaved; the median of the samples is reported, and peak memory.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EDIT_FILE, babylonCorpus, corpus, corpusForTs7, effectCorpus, type Corpus } from './corpus';
import { prepareNames, resolvedAgain } from './names';
import { prepareGitCorpus } from './diff';
import { SERVER_NODE_FLAGS } from '../src/cli/server';
import { editorBench } from './editor';
import { median, queryBench } from './queries';

const SAMPLES = Number(process.env.KG_BENCH_SAMPLES ?? 5);

interface Sample {
  ms: number;
  maxRssKb: number;
  /** CPU time of the measured part, this process's and a native build's TypeScript 7 process's (worker.ts). */
  cpuMs?: number;
}

function measure(task: string, root: string): Sample {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'worker.ts'), task, root], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${task} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as Sample;
}

interface Comparison {
  corpus: string;
  subject: string;
  floor: string;
  subjectMs: number;
  floorMs: number;
  timeRatio: number;
  subjectRssMb: number;
  floorRssMb: number;
  memoryRatio: number;
  timeBar?: number;
  memoryBar?: number;
  pass: boolean;
  /** The subject's CPU time (median), where the comparison reports its bound (see cpuBound). */
  subjectCpuMs?: number;
  /**
   * The subject's CPU time spread over every core this machine has, against the floor's wall time:
   * no arrangement of the same work (threads, processes overlapping) finishes faster than this.
   */
  cpuBound?: number;
}

function compare(
  c: Corpus,
  subject: string,
  floor: string,
  bars: { time?: number; memory?: number },
  opts: { cpuBound?: boolean } = {},
): Comparison {
  const s: Sample[] = [];
  const f: Sample[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    f.push(measure(floor, c.root));
    s.push(measure(subject, c.root));
  }
  const subjectMs = median(s.map((x) => x.ms));
  const floorMs = median(f.map((x) => x.ms));
  const subjectRss = median(s.map((x) => x.maxRssKb)) / 1024;
  const floorRss = median(f.map((x) => x.maxRssKb)) / 1024;
  const timeRatio = subjectMs / floorMs;
  const memoryRatio = subjectRss / floorRss;
  const pass = (bars.time === undefined || timeRatio <= bars.time) && (bars.memory === undefined || memoryRatio <= bars.memory);
  const cpu = s.map((x) => x.cpuMs).filter((x): x is number => x !== undefined);
  const subjectCpuMs = opts.cpuBound && cpu.length === s.length ? median(cpu) : undefined;
  return {
    corpus: `${c.name}@${c.version}`,
    subject,
    floor,
    subjectMs,
    floorMs,
    timeRatio,
    subjectRssMb: subjectRss,
    floorRssMb: floorRss,
    memoryRatio,
    timeBar: bars.time,
    memoryBar: bars.memory,
    pass,
    ...(subjectCpuMs !== undefined ? { subjectCpuMs, cpuBound: subjectCpuMs / os.availableParallelism() / floorMs } : {}),
  };
}

/**
 * A fresh copy of a corpus with a graph built by the CLI, and the graph, manifest and the file the
 * incremental items edit saved beside it (see worker.ts).
 */
function prepareIncremental(name: 'rxjs', forTs7 = false): Corpus {
  const base = forTs7 ? corpusForTs7(name) : corpus(name);
  const root = base.root + '-incremental';
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(root + '.saved', { recursive: true, force: true });
  if (forTs7) corpusForTs7(name, root);
  else corpus(name, root);
  const cli = path.join(__dirname, '..', 'dist', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'build', '--apply', '--no-server', '--root', root], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`preparing ${root} failed:\n${r.stderr}`);
  fs.mkdirSync(root + '.saved');
  for (const f of ['graph.json', 'graph.manifest.json'])
    fs.copyFileSync(path.join(root, '.knowledge-graph', f), path.join(root + '.saved', f));
  fs.copyFileSync(path.join(root, EDIT_FILE), path.join(root + '.saved', path.basename(EDIT_FILE)));
  return { ...base, root };
}

/**
 * The repository's build server (ADR 57), started and warmed before the samples the way
 * `kg build` starts it, in a socket folder of the benchmark's own; the workers find it through
 * KG_SERVER_DIR. Stopped when the samples are done.
 */
function startBuildServer(root: string, args: string[] = []): { stop(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-bench-server-'));
  const logFile = path.join(dir, 'server.log');
  const log = fs.openSync(logFile, 'w');
  const cli = path.join(__dirname, '..', 'dist', 'cli.js');
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, cli, 'server', 'run', '--root', root, '--idle-timeout', '3600', ...args], {
    env: { ...process.env, KG_SERVER_DIR: dir },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const t0 = Date.now();
  while (!/listening on/.test(fs.readFileSync(logFile, 'utf8'))) {
    if (child.exitCode !== null || Date.now() - t0 > 120_000)
      throw new Error(`the build server did not start:\n${fs.readFileSync(logFile, 'utf8')}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  process.env.KG_SERVER_DIR = dir;
  return {
    stop() {
      delete process.env.KG_SERVER_DIR;
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** KG_BENCH_ONLY=<text> runs only the comparisons whose subject contains it (while working on one). */
const ONLY = process.env.KG_BENCH_ONLY;
const wanted = (subject: string) => ONLY === undefined || subject.includes(ONLY);

function main(): void {
  const corpora = [corpus('rxjs'), corpus('zod')];
  const results: Comparison[] = [];
  for (const c of corpora) {
    if (wanted('extract')) results.push(compare(c, 'extract', 'parse-floor', { time: 2.0 }));
    if (wanted('full')) results.push(compare(c, 'full', 'typecheck-floor', { time: 1.3, memory: 1.5 }));
    // TypeScript 7's checker (ADR 113): time against the JavaScript type-check floor, memory (both
    // processes) against the JavaScript full build's.
    // On the corpus as a TypeScript 7 project (bench/corpus.ts): as written, both keep options TypeScript 7 removed.
    if (wanted('native')) {
      const c7 = corpusForTs7(c.name as 'rxjs' | 'zod');
      // With the CPU both processes spent, over this machine's cores: the least any arrangement of
      // the same work could reach (ADR 140).
      results.push(compare(c7, 'full-native', 'typecheck-floor', { time: 0.5 }, { cpuBound: true }));
      results.push(compare(c7, 'full-native', 'full', { memory: 1.0 }));
      // No bar: what sending each file's questions ahead saves (ADR 136).
      results.push(compare(c7, 'full-native', 'full-native-plain', {}));
    }
  }
  // A repository whose calls go into a package with declaration maps: the full build, package
  // steps included (ADR 107), against the same floor and bars; and what became of its calls.
  if (wanted('packages')) {
    const msal = corpus('msal-browser');
    results.push({ ...compare(msal, 'full', 'typecheck-floor', { time: 1.3, memory: 1.5 }), subject: 'full (packages)' });
    packageCalls(msal);
  }
  // After a one-line edit in one file of rxjs: the CLI's incremental rebuild, and the warm
  // in-process rebuild the extension keeps alive, each against the CLI's full build.
  if (wanted('cli-incremental') || wanted('warm-rebuild')) {
    const incremental = prepareIncremental('rxjs');
    if (wanted('cli-incremental')) {
      const server = startBuildServer(incremental.root);
      try {
        results.push(compare(incremental, 'cli-incremental', 'cli-full', { time: 0.15 }));
      } finally {
        server.stop();
      }
      // No bar: the same build by a one-shot process with no server, and what any fresh process
      // pays the compiler before it can resolve the edited file's calls (ADR 56, 57).
      results.push(compare(incremental, 'cli-incremental-cold', 'cli-full', {}));
      results.push(compare(incremental, 'one-file-floor', 'cli-full', {}));
    }
    if (wanted('warm-rebuild')) results.push(compare(incremental, 'warm-rebuild', 'cli-full', { time: 0.05 }));
  }
  if (wanted('native')) {
    // The warm native session of the build server (ADR 115) after the same one-line edit, against
    // a one-shot full native build, on rxjs as a TypeScript 7 project: by `kg build` (a client
    // process that relays to the server), and the editor's way (ADR 119: straight to the server's
    // socket, after a save; ADR 130).
    const incremental = prepareIncremental('rxjs', true);
    const server = startBuildServer(incremental.root, ['--checker', 'native']);
    try {
      results.push(compare(incremental, 'cli-incremental-native', 'cli-full-native', { time: 0.03 }));
      results.push(compare(incremental, 'cli-incremental-native-editor', 'cli-full-native', { time: 0.03 }));
    } finally {
      server.stop();
    }
  }
  // The name-level invalidation (ADR 118, bench/names.ts): files resolved again per edit under
  // each rule, then each edit through the warm build server against a one-shot full build.
  if (wanted('names')) {
    // rxjs (252 files), effect (361) and Babylon.js's core (3,382: the 500+-file repository
    // from npm); KG_BENCH_NAMES=rxjs,effect picks some of them (Babylon.js's samples take longest).
    const names = (process.env.KG_BENCH_NAMES ?? 'rxjs,effect,babylon').split(',');
    const corpora: Array<[string, (into?: string) => Corpus]> = [
      ['rxjs', (into) => corpus('rxjs', into)],
      ['effect', effectCorpus],
      ['babylon', babylonCorpus],
    ];
    for (const [, make] of corpora.filter(([name]) => names.includes(name))) {
      const base = make();
      const copy = (into: string) => void make(into);
      const c = prepareNames(base, copy);
      const edits = JSON.parse(fs.readFileSync(c.root + '.saved/edits.json', 'utf8')) as { hot: string; importers: number };
      console.log(`${c.name}: the most-imported file is ${edits.hot} (${edits.importers} importers)`);
      for (const r of resolvedAgain(c))
        console.log(
          `  ${r.kind.padEnd(14)} ${r.file.padEnd(44)} files resolved again: by file (ADR 55) ${String(r.byFile).padStart(4)}, by name ${String(r.byName).padStart(4)} of ${r.total}`,
        );
      const server = startBuildServer(c.root);
      try {
        // The editor's way (ADR 119: straight to the server's socket) carries the bars; `kg build`
        // (a client process that relays to the server) beside it, without.
        results.push(compare(c, 'names-add-export-editor', 'names-full', { time: 0.15 }));
        results.push(compare(c, 'names-inferred-body-editor', 'names-full', {}));
        results.push(compare(c, 'names-body-edit-editor', 'names-full', { time: 0.05 }));
        results.push(compare(c, 'names-unchanged-editor', 'names-full', { time: 0.03 }));
        for (const kind of ['add-export', 'inferred-body', 'body-edit', 'unchanged'])
          results.push(compare(c, `names-${kind}`, 'names-full', {}));
      } finally {
        server.stop();
      }
    }
  }
  // kg diff (bench/diff.ts): two 1M-edge graphs against loading both; a second diff of the same
  // refs (the cache) against the first; a ref build after a 10-file change against a full build,
  // on a 3,000-file repository (Babylon.js's core, fetched once) and on fabric (287 files).
  // `KG_BENCH_ONLY=ref-build` runs only the ref builds.
  if (wanted('diff')) {
    const prepared = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'diff.ts'), 'prepare-pair'], {
      encoding: 'utf8',
    });
    if (prepared.status !== 0) throw new Error(`preparing the generated pair failed:\n${prepared.stderr}`);
    const pair = { name: 'generated', version: '1M-edges', root: prepared.stdout.trim() };
    results.push(compare(pair, 'diff-graphs', 'diff-load-floor', { time: 2.0 }));
    results.push(
      compare(
        prepareGitCorpus((into) => corpus('rxjs', into)),
        'diff-cached',
        'diff-cold',
        {},
      ),
    );
  }
  if (wanted('diff') || wanted('ref-build')) {
    // The bar is the (#24): a 3,000-file repository, Babylon.js's core (3,382 modules).
    // fabric (287 files), where the item was measured first, stays beside it without a bar.
    results.push(
      compare(
        prepareGitCorpus((into) => corpus('fabric', into)),
        'ref-build-10',
        'ref-full-floor',
        {},
      ),
    );
    // Both routes (ADR 135): CI's, with no build server, and the default one elsewhere, whose
    // kept folder's warm server builds the ref.
    const babylonGit = prepareGitCorpus(babylonCorpus);
    results.push(compare(babylonGit, 'ref-build-10', 'ref-full-floor', { time: 0.2 }));
    results.push(compare(babylonGit, 'ref-build-10-warm', 'ref-full-floor', { time: 0.2 }));
  }
  const fmt = (n: number, d = 2) => n.toFixed(d);
  console.log(`samples per measurement: ${SAMPLES} (median), each in a fresh process\n`);
  console.log(
    'corpus          subject                      floor            subject ms   floor ms   time ×  (bar)   peak MB subj/floor   mem ×  (bar)   result',
  );
  for (const r of results) {
    console.log(
      [
        r.corpus.padEnd(15),
        r.subject.padEnd(28),
        r.floor.padEnd(16),
        fmt(r.subjectMs, 0).padStart(10),
        fmt(r.floorMs, 0).padStart(10),
        fmt(r.timeRatio).padStart(7),
        (r.timeBar !== undefined ? `≤${r.timeBar}` : '').padStart(6),
        `${fmt(r.subjectRssMb, 0)}/${fmt(r.floorRssMb, 0)}`.padStart(20),
        fmt(r.memoryRatio).padStart(7),
        (r.memoryBar !== undefined ? `≤${r.memoryBar}` : '').padStart(6),
        r.pass ? '  PASS' : '  FAIL',
      ].join(' '),
    );
  }
  for (const r of results.filter((x) => x.cpuBound !== undefined))
    console.log(
      `${r.corpus}: ${r.subject} spent ${fmt(r.subjectCpuMs as number, 0)} ms of CPU (both processes); over ${os.availableParallelism()} cores no arrangement of that work takes less than ${fmt(r.cpuBound as number)}× the floor`,
    );
  const outDir = path.join(__dirname, 'results');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify({ samples: SAMPLES, results }, null, 2) + '\n');
  if (results.some((r) => !r.pass)) process.exitCode = 1;
  if (wanted('queries')) querySection(outDir);
  if (wanted('editor')) {
    // What the extension host pays for the graph (bench/editor.ts): lens titles, and a reload's longest block.
    void editorBench().then(
      (r) => {
        fs.writeFileSync(path.join(outDir, 'editor.json'), JSON.stringify(r, null, 2) + '\n');
        if (!r.pass) process.exitCode = 1;
      },
      (e: unknown) => {
        console.error(e);
        process.exitCode = 1;
      },
    );
  }
  if (wanted('webview')) webviewSection();
  // Worktrees and branch switches from the repository's graph cache (bench/worktrees.ts, ADR 166).
  if (wanted('worktrees')) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'worktrees.ts')], { stdio: 'inherit' });
    if (r.status !== 0) process.exitCode = 1;
  }
  if (wanted('guard')) guardSection(corpora[0], outDir);
}

/** How many calls of a corpus were proven into packages, by provenance, and how many stayed external. */
function packageCalls(c: Corpus): void {
  const cli = path.join(__dirname, '..', 'dist', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'build', '--no-server', '--root', c.root], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`kg build failed:\n${r.stderr}`);
  const g = JSON.parse(r.stdout) as {
    edges: Array<{ target: string; relation: string; provenance: string }>;
    unresolved?: Record<string, Record<string, number>>;
  };
  const by = new Map<string, number>();
  for (const e of g.edges) {
    if (!e.target.startsWith('pkg:')) continue;
    const k = `${e.relation} ${e.provenance}`;
    by.set(k, (by.get(k) ?? 0) + 1);
  }
  console.log(`\n${c.name}@${c.version}: edges to package-qualified symbols, by relation and provenance (ADR 107)`);
  for (const [k, n] of [...by].sort()) console.log(`  ${k.padEnd(50)} ${n}`);
  console.log(`  call sites still external (unresolved.calls.external)  ${g.unresolved?.calls?.external ?? 0}`);
}

/** The explorer's section (bench/webview.ts), in a process of its own: it drives Chromium. */
function webviewSection(): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'webview.ts')], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}

/**
 * The editor guard on each keystroke (bench/guard-latency.ts): a 2,000-line file of rxjs
 * sources, parse + extract + signatures + comparison, against the parser alone on the same text.
 * Bar: median CPU time ≤ 20 ms (the keystroke budget); p99 is reported beside it.
 */
const GUARD_BAR_MS = 20;

function guardSection(c: Corpus, outDir: string): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'guard-latency.ts'), c.root], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`guard-latency failed:\n${r.stderr}`);
  const g = JSON.parse(r.stdout.trim().split('\n').pop() as string) as {
    lines: number;
    symbols: number;
    runs: number;
    guard: { cpu: { p50: number; p99: number; max: number }; wall: { p50: number; p99: number } };
    parse: { cpu: { p50: number; p99: number }; wall: { p50: number } };
  };
  const pass = g.guard.cpu.p50 <= GUARD_BAR_MS;
  const fmt = (n: number) => n.toFixed(2);
  console.log(
    `\neditor guard on a ${g.lines}-line file of ${c.name}@${c.version} sources (${g.symbols} symbols, all guarded; ${g.runs} keystrokes in one process)`,
  );
  console.log(
    `guard cpu p50 ${fmt(g.guard.cpu.p50)} ms, p99 ${fmt(g.guard.cpu.p99)} ms (wall p50 ${fmt(g.guard.wall.p50)} ms) vs parse alone cpu p50 ${fmt(g.parse.cpu.p50)} ms: ` +
      `${fmt(g.guard.cpu.p50 / g.parse.cpu.p50)}×; bar p50 ≤ ${GUARD_BAR_MS} ms  ${pass ? 'PASS' : 'FAIL'}`,
  );
  fs.writeFileSync(path.join(outDir, 'guard.json'), JSON.stringify({ ...g, bar: GUARD_BAR_MS, pass }, null, 2) + '\n');
  if (!pass) process.exitCode = 1;
}

/** The queries' section: load+index against JSON.parse, and latency per query (bench/queries.ts). */
function querySection(outDir: string): void {
  const q = queryBench(SAMPLES);
  fs.writeFileSync(path.join(outDir, 'queries.json'), JSON.stringify(q, null, 2) + '\n');
  if (!q.pass) process.exitCode = 1;
}

main();
