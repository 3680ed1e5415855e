// The `kg diff` items of `npm run bench` (ADR 104, 106):
// - the diff of two 1,000,000-edge graphs (the generated graph and a changed copy) against loading
//   both, each sample in a fresh process; bar ≤ 2×;
// - a second `kg diff` of the same refs (both graphs read from the cache) on a git repository of
//   rxjs's sources, against the first (both built); reported without a bar;
// - a ref build after a 10-file change (the base's graph cached, the head's built incrementally
//   from it) against a one-shot full build of the same tree: on a 3,000-file repository (Babylon.js's
//   core, 3,382 TypeScript modules: bench/corpus.ts), bar ≤ 0.2×; on fabric (287 files), no bar.
//   Two routes (ADR 135): with no build server (CI's, `KG_SERVER=off`), the ref exported into a
//   private folder and built in the `kg diff` process; and the default route elsewhere, the ref
//   written into the repository's kept folder over the base's tree and built by that folder's warm
//   server (started by the untimed `kg diff main main` before, and waited for).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  compareEdges,
  compareStrings,
  diffReport,
  graphSignature,
  loadGraphFile,
  lockHolder,
  serializeGraph,
  type Graph,
} from '../src/graph';
import type { Corpus } from './corpus';
import { benchGraph } from './queries';
import { benchGit } from './git';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

/**
 * Two graphs in `dir`: base.json (the generated 1M-edge graph, every symbol given a signature) and
 * head.json, a change of it: 1% of the symbols removed, 0.5% renamed, 1% re-signed, 1% moved.
 */
export function prepareGeneratedPair(): string {
  const dir = path.join(os.tmpdir(), 'kg-bench', 'diff-pair-v1');
  if (fs.existsSync(path.join(dir, 'head.json'))) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const text = fs.readFileSync(benchGraph(), 'utf8');
  const base = JSON.parse(text) as Graph;
  const syms = base.nodes.filter((n) => n.id.startsWith('sym:'));
  for (const [i, n] of syms.entries()) n.signature = (i % 4096).toString(16).padStart(12, '0');
  const removed = new Set<string>();
  const renamed = new Map<string, string>();
  const head = JSON.parse(serializeGraph(base)) as Graph;
  const headSyms = head.nodes.filter((n) => n.id.startsWith('sym:'));
  for (const [i, n] of headSyms.entries()) {
    if (i % 100 === 0) removed.add(n.id);
    else if (i % 200 === 1 && !n.id.includes('.')) renamed.set(n.id, `${n.id}Renamed`);
    else if (i % 100 === 2) n.signature = 'ffffffffffff';
    else if (i % 100 === 3 && n.line !== undefined) n.line += 1;
  }
  head.nodes = head.nodes
    .filter((n) => !removed.has(n.id))
    .map((n) => (renamed.has(n.id) ? { ...n, id: renamed.get(n.id) as string, label: `${n.label}Renamed` } : n));
  const alive = new Set(head.nodes.map((n) => n.id));
  const rename = (id: string) => renamed.get(id) ?? id;
  head.edges = head.edges
    .map((e) => ({ ...e, source: rename(e.source), target: rename(e.target) }))
    .filter((e) => alive.has(e.source) && (alive.has(e.target) || e.target.startsWith('unresolved:')));
  for (const g of [base, head]) {
    g.nodes.sort((a, b) => compareStrings(a.id, b.id));
    g.edges.sort(compareEdges);
    g.graphSignature = graphSignature(g.nodes, g.edges);
  }
  fs.writeFileSync(path.join(dir, 'base.json'), serializeGraph(base));
  fs.writeFileSync(path.join(dir, 'head.json.partial'), serializeGraph(head));
  fs.renameSync(path.join(dir, 'head.json.partial'), path.join(dir, 'head.json'));
  return dir;
}

const git = benchGit;

/**
 * A git repository of a corpus: `main` holds it as installed, `feature` changes 10 of its source
 * files (every n-th, sorted: a line that declares something gains a call in a new exported helper).
 */
export function prepareGitCorpus(make: (into?: string) => Corpus): Corpus {
  const c = make();
  const root = `${c.root}-git`;
  if (fs.existsSync(path.join(root, '.bench-complete'))) return { ...c, root };
  fs.rmSync(root, { recursive: true, force: true });
  make(root);
  git(root, 'init', '--quiet', '--initial-branch=main');
  git(root, 'add', '-A');
  git(root, 'commit', '--quiet', '-m', 'base');
  git(root, 'checkout', '--quiet', '-b', 'feature');
  const sources = git(root, 'ls-files', '*.ts')
    .split('\n')
    .filter((f) => f.startsWith('src/') && !f.endsWith('.d.ts'))
    .sort();
  const step = Math.floor(sources.length / 10);
  for (let i = 0; i < 10; i++) {
    const file = path.join(root, sources[i * step]);
    fs.appendFileSync(file, `\nexport function kgBenchChange${i}(): number {\n  return Number(${i});\n}\n`);
  }
  git(root, 'commit', '--quiet', '-am', 'ten files change');
  fs.writeFileSync(path.join(root, '.bench-complete'), '');
  return { ...c, root };
}

/** A fresh private state folder (the diff cache lives in it, ADR 77), removed when the worker exits. */
const states: string[] = [];
process.on('exit', () => {
  for (const d of states) {
    // Build servers started under it are stopped first (each would stop itself once its root is gone).
    const servers = path.join(d, 'servers');
    for (const f of fs.existsSync(servers) ? fs.readdirSync(servers) : []) {
      const pid = f.endsWith('.lock') ? lockHolder(path.join(servers, f))?.pid : undefined;
      try {
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    fs.rmSync(d, { recursive: true, force: true });
  }
});
function freshState(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-bench-state-'));
  states.push(d);
  return d;
}

let childRssKb: number | undefined;
export const diffChildRssKb = () => childRssKb;

/** The environment of a `kg` run: no build server, or (`servers`, a private folder) build servers allowed there. */
function kgEnv(state: string, servers?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: state, KG_SERVER: servers ? 'on' : 'off' };
  if (servers) env.KG_SERVER_DIR = servers;
  else delete env.KG_SERVER_DIR;
  return env;
}

function kg(root: string, state: string, args: string[], expect?: RegExp, servers?: string): void {
  const timeBin = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const cmd = timeBin ? [timeBin, '-f', 'maxrss=%M', process.execPath] : [process.execPath];
  const r = spawnSync(cmd[0], [...cmd.slice(1), CLI, ...args], {
    cwd: root,
    env: kgEnv(state, servers),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0 || (expect && !expect.test(r.stderr))) throw new Error(`kg ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  const m = /maxrss=(\d+)/.exec(r.stderr);
  childRssKb = m ? Number(m[1]) : undefined;
}

type Task = (root: string) => (() => void) | Promise<() => void>;

/** Waits until a build server listens in `servers` (its socket appears once it is warm). */
async function serverListening(servers: string): Promise<void> {
  const deadline = Date.now() + 15 * 60_000;
  while (!fs.readdirSync(servers).some((f) => f.endsWith('.sock'))) {
    if (Date.now() > deadline) throw new Error(`no build server listened in ${servers}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export const DIFF_TASKS: Record<string, Task> = {
  /** The floor of the generated pair: load (read, parse, validate, index) both graphs. */
  'diff-load-floor': (dir) => () => {
    for (const f of ['base.json', 'head.json']) if (!loadGraphFile(path.join(dir, f)).ok) throw new Error(f);
  },
  /** What `kg diff base.json head.json` does: load both, diff, serialize the report. */
  'diff-graphs': (dir) => () => {
    const a = loadGraphFile(path.join(dir, 'base.json'));
    const b = loadGraphFile(path.join(dir, 'head.json'));
    if (!a.ok || !b.ok) throw new Error('unloadable');
    const side = { spec: 'x', kind: 'graph' as const, graphSignature: '' };
    const r = diffReport({ base: a.graph.graph, head: b.graph.graph }, { base: side, head: side });
    if (r.summary.symbols.removed === 0) throw new Error('the pair has no change');
    JSON.stringify(r);
  },
  /** `kg diff main feature` with an empty cache: both refs exported and built. */
  'diff-cold': (root) => {
    const state = freshState();
    return () => kg(root, state, ['diff', 'main', 'feature'], /feature .*exported and built/);
  },
  /** The same command again: both graphs read from the cache. */
  'diff-cached': (root) => {
    const state = freshState();
    kg(root, state, ['diff', 'main', 'feature']);
    return () => kg(root, state, ['diff', 'main', 'feature'], /feature .*read from the cache/);
  },
  /** `kg diff main feature` with main's graph cached: feature is built incrementally from it. */
  'ref-build-10': (root) => {
    const state = freshState();
    kg(root, state, ['diff', 'main', 'main']);
    return () => kg(root, state, ['diff', 'main', 'feature'], /feature .*exported and built \(incremental/);
  },
  /**
   * The same on the default route (ADR 135): main built into the kept folder, whose build server
   * is then started and waited for; feature is written over it and built by that server.
   */
  'ref-build-10-warm': async (root) => {
    const state = freshState();
    const servers = path.join(state, 'servers');
    fs.mkdirSync(servers, { mode: 0o700 });
    kg(root, state, ['diff', 'main', 'main'], /main .*exported into the kept folder/, servers);
    await serverListening(servers);
    return () => kg(root, state, ['diff', 'main', 'feature'], /feature .*built by the build server/, servers);
  },
  /** The floor: a one-shot full build of the same tree (the working tree is at feature). */
  'ref-full-floor': (root) => {
    const out = path.join(freshState(), 'graph.json');
    return () => kg(root, freshState(), ['build', '--apply', '--full', '--no-server', '--root', root, '--out', out]);
  },
};

// `node --import tsx bench/diff.ts prepare-pair`: the generated pair, in a process of its own (it
// holds two 1M-edge graphs at once).
if (require.main === module && process.argv[2] === 'prepare-pair') process.stdout.write(prepareGeneratedPair() + '\n');
