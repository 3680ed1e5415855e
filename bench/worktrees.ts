// The worktree items of `npm run bench` (issue 50, ADR 166), `KG_BENCH_ONLY=worktrees`:
// rxjs 7.8.2 as installed (its sources and its declaration files: 502 files) made a git repository
// with a history of small commits, then
// - the first `kg build --apply` in a new worktree 10 files away from a built commit, against a
//   one-shot full build (bar ≤ 0.10×);
// - `kg build --apply` after a branch switch of 50 files (two renames and a deletion among them), in a
//   worktree built at main, one-shot and through the worktree's warm build server (bar ≤ 0.25×);
// - both again through the repository's warm build server (ADR 187), started by a build in main
//   and serving worktrees it has not built yet, its CPU time counted beside the client's;
// - 20 worktrees each 10 files away from main, each built: the repository's cache on disk against
//   one graph (graph.json and its manifest) (bar ≤ 2×);
// - every cached build's graph.json against a full build of the same worktree, byte for byte.
// Every build is a whole `kg` process, spawn to exit, timed with its CPU time beside the wall time.

import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rng } from './generate-graph';
import { benchGit } from './git';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const SAMPLES = Number(process.env.KG_BENCH_SAMPLES ?? 5);
const RXJS = path.join(__dirname, '..', 'node_modules', 'rxjs');

const git = benchGit;

interface Run {
  wallMs: number;
  cpuMs: number;
  stderr: string;
  stdout: string;
}

/** One `kg` process, timed by /usr/bin/time (wall, user + system CPU). */
function kg(cwd: string, args: string[], env: Record<string, string> = {}): Run {
  const r = spawnSync('/usr/bin/time', ['-f', 'kgtime=%e %U %S', process.execPath, CLI, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, KG_SERVER: 'off', CI: '', ...env },
  });
  if (r.status !== 0) throw new Error(`kg ${args.join(' ')} in ${cwd} exited ${r.status}:\n${r.stderr}`);
  const m = /kgtime=([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`no timing: ${r.stderr}`);
  return { wallMs: Number(m[1]) * 1000, cpuMs: (Number(m[2]) + Number(m[3])) * 1000, stderr: r.stderr, stdout: r.stdout };
}

function copyDir(src: string, dest: string): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isDirectory()) copyDir(s, d);
    else if (e.isFile()) fs.copyFileSync(s, d);
  }
}

/** Source files that can be edited (not declaration files), sorted. */
const editable = (root: string) =>
  git(root, 'ls-files', 'src')
    .split('\n')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();

/** An edit a developer makes: a new exported helper, or a changed body (a statement before a return). */
function editFile(root: string, file: string, tag: string, kind: number): void {
  const abs = path.join(root, file);
  const text = fs.readFileSync(abs, 'utf8');
  if (kind % 2 === 0 || !/\n {2,}return /.test(text)) {
    fs.appendFileSync(abs, `\nexport function kgBench${tag}(n: number): number {\n  return n + ${tag.length};\n}\n`);
  } else {
    fs.writeFileSync(
      abs,
      text.replace(/\n( {2,})return /, (_m, indent: string) => `\n${indent}void '${tag}';\n${indent}return `),
    );
  }
}

/** Renames `file` (a unique basename) and every import of it. */
function renameFile(root: string, file: string, files: string[]): void {
  const base = path.posix.basename(file, '.ts');
  const to = path.posix.join(path.posix.dirname(file), `${base}Moved.ts`);
  git(root, 'mv', file, to);
  const spec = new RegExp(`(['"][./a-zA-Z_-]*/)${base}(['"])`, 'g');
  for (const f of files) {
    if (f === file) continue;
    const abs = path.join(root, f);
    if (!fs.existsSync(abs)) continue;
    const text = fs.readFileSync(abs, 'utf8');
    const next = text.replace(spec, `$1${base}Moved$2`);
    if (next !== text) fs.writeFileSync(abs, next);
  }
}

/**
 * The repository: rxjs's sources and declaration files, then 40 commits of 1–6 edited files on
 * main. Branches off main: `ten-<i>` (10 files, each its own edits) and `fifty-<i>` (50 files: 47
 * edited, 2 renamed with their importers, 1 deleted).
 */
function prepare(): string {
  const root = path.join(os.tmpdir(), 'kg-bench', 'worktrees-rxjs-v2', 'main');
  if (fs.existsSync(path.join(root, '.git', 'bench-complete'))) return root;
  fs.rmSync(path.dirname(root), { recursive: true, force: true });
  copyDir(path.join(RXJS, 'src'), path.join(root, 'src'));
  copyDir(path.join(RXJS, 'dist', 'types'), path.join(root, 'dist', 'types'));
  for (const f of ['tsconfig.json', 'package.json']) fs.copyFileSync(path.join(RXJS, f), path.join(root, f));
  fs.writeFileSync(path.join(root, '.gitignore'), '.knowledge-graph/\n');
  git(root, 'init', '--quiet', '--initial-branch=main');
  git(root, 'add', '-A');
  git(root, 'commit', '--quiet', '-m', 'rxjs 7.8.2 as installed');
  const rand = rng(50);
  const files = editable(root);
  const pick = (n: number) => {
    const out = new Set<string>();
    while (out.size < n) out.add(files[Math.floor(rand() * files.length)]);
    return [...out];
  };
  for (let c = 0; c < 40; c++) {
    for (const [k, f] of pick(1 + Math.floor(rand() * 6)).entries()) editFile(root, f, `H${c}x${k}`, Math.floor(rand() * 2));
    git(root, 'commit', '--quiet', '-am', `history ${c}`);
  }
  const branch = (name: string, change: () => void) => {
    git(root, 'checkout', '--quiet', '-b', name, 'main');
    change();
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', name);
  };
  for (let i = 0; i < Math.max(20, SAMPLES); i++)
    branch(`ten-${i}`, () => {
      for (const [k, f] of pick(10).entries()) editFile(root, f, `T${i}x${k}`, k);
    });
  const unique = files.filter((f) => files.filter((g) => path.posix.basename(g) === path.posix.basename(f)).length === 1);
  for (let i = 0; i < Math.max(5, SAMPLES); i++)
    branch(`fifty-${i}`, () => {
      const chosen = pick(50);
      const renames = chosen.filter((f) => unique.includes(f) && !f.endsWith('index.ts')).slice(0, 2);
      const deleted = chosen.find((f) => !renames.includes(f) && !f.endsWith('index.ts')) as string;
      for (const [k, f] of chosen.entries()) if (!renames.includes(f) && f !== deleted) editFile(root, f, `F${i}x${k}`, k);
      for (const f of renames) renameFile(root, f, files);
      git(root, 'rm', '--quiet', deleted);
    });
  git(root, 'checkout', '--quiet', 'main');
  fs.writeFileSync(path.join(root, '.git', 'bench-complete'), '');
  return root;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The bytes `kg build --apply` wrote in `dir` against a one-shot full build of the same files (not stored). */
function assertSameAsFull(dir: string, mismatches: string[]): void {
  const written = fs.readFileSync(path.join(dir, '.knowledge-graph', 'graph.json'), 'utf8');
  const full = kg(dir, ['build', '--full'], { KG_CACHE: 'off' }).stdout;
  if (written !== full) mismatches.push(dir);
}

function duBytes(dir: string): { apparent: number; blocks: number } {
  const apparent = Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
  const blocks = Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) * 1024;
  return { apparent, blocks };
}

function main(): void {
  const root = prepare();
  const home = path.dirname(root);
  const cacheDir = path.join(root, '.git', 'knowledge-graph', 'cache');
  const clean = () => {
    fs.rmSync(cacheDir, { recursive: true, force: true });
    for (const d of fs.readdirSync(home)) if (d !== 'main') fs.rmSync(path.join(home, d), { recursive: true, force: true });
    git(root, 'worktree', 'prune');
    fs.rmSync(path.join(root, '.knowledge-graph'), { recursive: true, force: true });
  };
  clean();
  const files = editable(root).length + git(root, 'ls-files', 'dist').split('\n').length;
  const switched = git(root, 'diff', '--name-only', '--no-renames', 'main', 'fifty-0').split('\n').length;
  console.log(
    `rxjs 7.8.2 as a git repository: ${files} files, ${git(root, 'rev-list', '--count', 'main')} commits on main; a branch switch changes ${switched} paths`,
  );
  const mismatches: string[] = [];

  // The floor: a one-shot full build, no cache.
  const full: Run[] = [];
  for (let i = 0; i < SAMPLES; i++) full.push(kg(root, ['build', '--apply', '--full'], { KG_CACHE: 'off' }));
  const discovered = /discovered (\d+) source files/.exec(full[0].stderr)?.[1];
  console.log(`kg analyses ${discovered} of them`);
  // main built once more with the cache: its graph is stored.
  kg(root, ['build', '--apply', '--full']);

  // A new worktree 10 files away from main: each sample its own branch, so its tree is never cached.
  const fresh: Run[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const dir = path.join(home, `ten-${i}`);
    git(root, 'worktree', 'add', '--quiet', dir, `ten-${i}`);
    const r = kg(dir, ['build', '--apply']);
    if (!/graph cache: starting from the graph of commit/.test(r.stderr))
      throw new Error(`ten-${i} did not start from the cache:\n${r.stderr}`);
    fresh.push(r);
    assertSameAsFull(dir, mismatches);
  }

  // A new worktree at a commit already built (an agent's worktree from HEAD): no bar.
  const same: Run[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const dir = path.join(home, `same-${i}`);
    git(root, 'worktree', 'add', '--quiet', '--detach', dir, 'main');
    const r = kg(dir, ['build', '--apply']);
    if (!/graph cache: starting from the graph of this very content/.test(r.stderr)) throw new Error(`same-${i}:\n${r.stderr}`);
    same.push(r);
    assertSameAsFull(dir, mismatches);
  }

  // A branch switch of 50 files in a worktree built at main: one-shot, then with its build server.
  const switchOneShot: Run[] = [];
  const switchWarm: Run[] = [];
  const sw = path.join(home, 'switch');
  git(root, 'worktree', 'add', '--quiet', '--detach', sw, 'main');
  for (let i = 0; i < SAMPLES; i++) {
    git(sw, 'checkout', '--quiet', '--detach', 'main');
    kg(sw, ['build', '--apply']);
    git(sw, 'checkout', '--quiet', '--detach', `fifty-${i}`);
    switchOneShot.push(kg(sw, ['build', '--apply']));
    assertSameAsFull(sw, mismatches);
  }
  const servers = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-bench-servers-'));
  fs.chmodSync(servers, 0o700);
  const serverEnv = { KG_SERVER: 'on', KG_SERVER_DIR: servers };
  // The one-shot round stored the branches' trees: gone, so every switch is a switch of 50 files.
  fs.rmSync(cacheDir, { recursive: true, force: true });
  try {
    for (let i = 0; i < SAMPLES; i++) {
      // At main, built (the first time in this process, which starts the server), then built by the warm server.
      git(sw, 'checkout', '--quiet', '--detach', 'main');
      kg(sw, ['build', '--apply'], serverEnv);
      waitForServer(servers);
      kg(sw, ['build', '--apply'], serverEnv);
      git(sw, 'checkout', '--quiet', '--detach', `fifty-${i}`);
      const r = withServerCpu(sw, serverEnv, () => kg(sw, ['build', '--apply'], serverEnv));
      if (!/built by/.test(r.stderr)) throw new Error(`the switch was not built by the server:\n${r.stderr}`);
      switchWarm.push(r);
      assertSameAsFull(sw, mismatches);
    }
  } finally {
    spawnSync(process.execPath, [CLI, 'server', 'stop', '--all'], { env: { ...process.env, KG_SERVER_DIR: servers }, encoding: 'utf8' });
    fs.rmSync(servers, { recursive: true, force: true });
  }

  // The repository's warm build server (ADR 187): started by a build in main, it serves the first
  // build of a new worktree 10 files away, and a 50-file switch in a worktree it has not built yet.
  // The server's CPU time during each build is added to the client's.
  const { freshServed, switchServed } = repositoryServerRows(root, home, clean, mismatches);

  // 20 worktrees, each 10 files away from main, each built from the cache.
  clean();
  kg(root, ['build', '--apply', '--full']);
  const oneGraph =
    fs.statSync(path.join(root, '.knowledge-graph', 'graph.json')).size +
    fs.statSync(path.join(root, '.knowledge-graph', 'graph.manifest.json')).size;
  const afterOne = duBytes(cacheDir);
  for (let i = 0; i < 20; i++) {
    const dir = path.join(home, `wt-${i}`);
    git(root, 'worktree', 'add', '--quiet', dir, `ten-${i}`);
    kg(dir, ['build', '--apply']);
    if (i % 5 === 0) assertSameAsFull(dir, mismatches);
  }
  const cache = duBytes(cacheDir);
  const status = JSON.parse(kg(root, ['cache', 'status']).stdout) as { entries: unknown[]; chunks: number; logicalBytes: number };
  const ownGraphs = Array.from({ length: 20 }, (_, i) => duBytes(path.join(home, `wt-${i}`, '.knowledge-graph')).apparent).reduce(
    (a, b) => a + b,
    0,
  );

  const fmt = (n: number) => n.toFixed(0);
  const ratio = (a: number, b: number) => (a / b).toFixed(3);
  const fullWall = median(full.map((r) => r.wallMs));
  const fullCpu = median(full.map((r) => r.cpuMs));
  const rows: Array<{ item: string; runs: Run[]; bar: number }> = [
    { item: 'first build in a new worktree, 10 files from a built commit', runs: fresh, bar: 0.1 },
    { item: 'first build in a new worktree at a built commit (no bar)', runs: same, bar: Infinity },
    { item: 'after a 50-file branch switch (one-shot)', runs: switchOneShot, bar: 0.25 },
    { item: 'after a 50-file branch switch (the worktree’s warm server; CPU: client + server)', runs: switchWarm, bar: 0.25 },
    {
      item: 'first build in a new worktree, 10 files away (the repository’s warm server; CPU: client + server)',
      runs: freshServed,
      bar: 0.1,
    },
    { item: 'after a 50-file branch switch in a worktree the repository’s warm server has not built', runs: switchServed, bar: 0.25 },
  ];
  console.log(`samples: ${SAMPLES} (median), each a whole kg process; full build ${fmt(fullWall)} ms wall, ${fmt(fullCpu)} ms CPU`);
  const results = rows.map((r) => {
    const wall = median(r.runs.map((x) => x.wallMs));
    const cpu = median(r.runs.map((x) => x.cpuMs));
    const pass = wall / fullWall <= r.bar;
    console.log(
      `${r.item.padEnd(100)} ${fmt(wall).padStart(7)} ms wall (${ratio(wall, fullWall)}×)  ${fmt(cpu).padStart(7)} ms CPU (${ratio(cpu, fullCpu)}×)  ${Number.isFinite(r.bar) ? `bar ≤ ${r.bar}  ${pass ? 'PASS' : 'FAIL'}` : ''}`,
    );
    return { item: r.item, wallMs: wall, cpuMs: cpu, wallRatio: wall / fullWall, cpuRatio: cpu / fullCpu, bar: r.bar, pass };
  });
  const diskRatio = cache.blocks / oneGraph;
  const diskPass = diskRatio <= 2;
  console.log(
    `20 worktrees: the cache holds ${status.entries.length} graphs (${status.chunks} chunks) in ${fmt(cache.blocks / 1024)} KB on disk ` +
      `(${fmt(cache.apparent / 1024)} KB apparent; ${fmt(afterOne.blocks / 1024)} KB after main alone) for ${fmt(status.logicalBytes / 1024)} KB of graphs; ` +
      `one graph ${fmt(oneGraph / 1024)} KB: ${diskRatio.toFixed(2)}× (bar ≤ 2)  ${diskPass ? 'PASS' : 'FAIL'}`,
  );
  console.log(`  (the worktrees' own .knowledge-graph folders: ${fmt(ownGraphs / 1024)} KB, one full graph each)`);
  console.log(
    `byte-for-byte against full builds: ${mismatches.length === 0 ? 'all equal  PASS' : `DIFFERENT in ${mismatches.join(', ')}  FAIL`}`,
  );
  const outDir = path.join(__dirname, 'results');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(
    path.join(outDir, 'worktrees.json'),
    JSON.stringify(
      {
        samples: SAMPLES,
        files,
        fullWallMs: fullWall,
        fullCpuMs: fullCpu,
        results,
        disk: { cache, afterOne, oneGraph, ratio: diskRatio, ownGraphs },
        mismatches,
      },
      null,
      2,
    ) + '\n',
  );
  if (results.some((r) => !r.pass) || !diskPass || mismatches.length > 0) process.exitCode = 1;
}

/** CPU time (user + system) a live process has used so far, in ms, from /proc. */
function processCpuMs(pid: number): number {
  const fields = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  return (ticks * 1000) / CLOCK_TICKS;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** `build()` (a client run), with the CPU time the repository's build server spent meanwhile added to its own. */
function withServerCpu(dir: string, env: Record<string, string>, build: () => Run): Run {
  const st = JSON.parse(kg(dir, ['server', 'status'], env).stdout) as { pid?: number };
  if (st.pid === undefined) throw new Error(`no build server runs for ${dir}`);
  const before = processCpuMs(st.pid);
  const r = build();
  return { ...r, cpuMs: r.cpuMs + processCpuMs(st.pid) - before };
}

/**
 * The rows of the repository's warm build server (ADR 187). main is built (cached) and its server
 * started and warm; then, SAMPLES times each: a new worktree 10 files from main (a branch no
 * worktree has built), and a worktree at main built one-shot then switched to a 50-file branch,
 * each first built by that server.
 */
function repositoryServerRows(
  root: string,
  home: string,
  clean: () => void,
  mismatches: string[],
): { freshServed: Run[]; switchServed: Run[] } {
  clean();
  kg(root, ['build', '--apply', '--full']); // main's graph in the cache
  const servers = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-bench-servers-'));
  fs.chmodSync(servers, 0o700);
  const serverEnv = { KG_SERVER: 'on', KG_SERVER_DIR: servers };
  const freshServed: Run[] = [];
  const switchServed: Run[] = [];
  try {
    kg(root, ['build', '--apply'], serverEnv); // starts the repository's server
    waitForServer(servers);
    kg(root, ['build', '--apply'], serverEnv);
    for (let i = 0; i < SAMPLES; i++) {
      const dir = path.join(home, `served-${i}`);
      git(root, 'worktree', 'add', '--quiet', dir, `ten-${SAMPLES + i}`);
      const r = withServerCpu(dir, serverEnv, () => kg(dir, ['build', '--apply'], serverEnv));
      if (!/built by the build server/.test(r.stderr) || !/graph cache: starting from the graph of commit/.test(r.stderr))
        throw new Error(`served-${i} was not built by the repository's server from the cache:\n${r.stderr}`);
      freshServed.push(r);
      assertSameAsFull(dir, mismatches);
    }
    for (let i = 0; i < SAMPLES; i++) {
      const dir = path.join(home, `served-switch-${i}`);
      git(root, 'worktree', 'add', '--quiet', '--detach', dir, 'main');
      kg(dir, ['build', '--apply']); // one-shot, at main: the graph beside it is main's
      git(dir, 'checkout', '--quiet', '--detach', `fifty-${i}`);
      const r = withServerCpu(dir, serverEnv, () => kg(dir, ['build', '--apply'], serverEnv));
      if (!/built by the build server/.test(r.stderr)) throw new Error(`served-switch-${i} was not built by the server:\n${r.stderr}`);
      switchServed.push(r);
      assertSameAsFull(dir, mismatches);
    }
  } finally {
    spawnSync(process.execPath, [CLI, 'server', 'stop', '--all'], { env: { ...process.env, KG_SERVER_DIR: servers }, encoding: 'utf8' });
    fs.rmSync(servers, { recursive: true, force: true });
  }
  return { freshServed, switchServed };
}

/** Waits until a build server listens in `servers` (its socket appears once it is warm). */
function waitForServer(servers: string): void {
  const deadline = Date.now() + 10 * 60_000;
  while (!fs.readdirSync(servers).some((f) => f.endsWith('.sock'))) {
    if (Date.now() > deadline) throw new Error(`no build server listened in ${servers}`);
    spawnSync('sleep', ['0.25']);
  }
}

main();
