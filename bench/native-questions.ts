// TypeScript 7.1's questions (issue 49, item 1; ADR 180): the declaration at every position the builder asks about,
// asked of TypeScript 7.1's checker in the ways its API offers, on zod and rxjs as TypeScript 7 projects,
// with the CPU of both processes beside the wall time and 7.1's own `tsc --noEmit` as the floor.
//
//   node --import tsx bench/native-questions.ts [zod] [rxjs]
//
// 7.1 is the repository's `typescript71` (ADR 186); KG_TS71 may name another install's package
// folder (default node_modules/typescript71). The question set is the builder's own: a native build (ADR
// 180's with 7.0.2; the positions are the builder's whichever release answers) records every file's
// positions, then each route runs in a process of its own (`--run <corpus> <route>`), asking 7.1
// the same questions. Routes:
//   position-7.0.2   as `position`, of the pinned TypeScript 7.0.2 (today's API, the same questions)
//   position         one request per file with all its positions (getSymbolAtPosition), one per alias (as 7.0.2 is asked today)
//   position-single  one request per position
//   position-aliases per file: its positions in one request, its aliases in one api.batch
//   position-ahead   per file, its request written without waiting (ADR 136's sending ahead: at most 16 files or 16 KB
//                    unread), answers read in order; each 16 files' aliases in one api.batch (timing: the batches only)
//   position-chunk   16 files' positions in one api.batch (the files ADR 136 sends ahead), their aliases in one more
//   position-batch   every file's positions in one api.batch, then every alias in one more
//   node             per file: the file's syntax tree fetched, the nodes at the positions found in it, getSymbolAtLocation over them, aliases in one api.batch
//   declaration      per file: every named declaration's languageService.getSignatureUsage in one api.batch
// An answer is a site's declarations after aliases (path and node index); `declaration` can only
// find declarations of the project's own files, so it is compared on those.

import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildGraph } from '../src/graph';
import type { CheckerBackend, CheckerProvider, ProjectCheck, SymbolQuery } from '../src/graph/indexer/compiler/checker';
import { nativeBinary } from '../src/graph/indexer/compiler/native-api';
import { NativeChecker } from '../src/graph/indexer/compiler/native-checker';
import { optionsAsJson } from '../src/graph/indexer/compiler/native-options';
import { MSG, type RawClient } from '../src/graph/indexer/compiler/native-early';
import { corpusForTs7 } from './corpus';

const TS71 = process.env.KG_TS71 ?? path.join(__dirname, '..', 'node_modules', 'typescript71');
const WORK = path.join(process.env.TMPDIR ?? '/tmp', 'kg-native-questions');
const CONFIG = 'tsconfig.kg-questions.json';
const ROUTES = [
  'position-7.0.2',
  'position',
  'position-single',
  'position-aliases',
  'position-ahead',
  'position-chunk',
  'position-batch',
  'node',
  'declaration',
] as const;
type Route = (typeof ROUTES)[number];
const REPS = Number(process.env.KG_QUESTIONS_REPS ?? 3);

interface Questions {
  root: string;
  version: string;
  files: Record<string, number[]>;
}

// ---- The parts of 7.1's sync API used here (its types are not this repository's to import). ----
interface Handle {
  path: string;
  index: number;
  kind: number;
  resolve(project?: Project71): Node71 | undefined;
}
interface Symbol71 {
  id: number;
  flags: number;
  declarations: readonly Handle[];
}
interface Node71 {
  kind: number;
  pos: number;
  end: number;
  index: number;
  name?: Node71;
  forEachChild<T>(visit: (n: Node71) => T): T | undefined;
  getStart(): number;
}
type Gen<T> = Generator<unknown, T, unknown>;
interface Checker71 {
  getSymbolAtPosition: {
    (file: string, positions: readonly number[]): (Symbol71 | undefined)[];
    (file: string, position: number): Symbol71 | undefined;
  } & {
    gen(file: string, positions: readonly number[]): Gen<(Symbol71 | undefined)[]>;
  };
  getSymbolAtLocation(nodes: readonly Node71[]): (Symbol71 | undefined)[];
  getAliasedSymbol: ((s: Symbol71) => Symbol71) & { gen(s: Symbol71): Gen<Symbol71> };
}
interface Project71 {
  checker: Checker71;
  program: { getSourceFile(file: string): Node71 | undefined };
  languageService: { getSignatureUsage: { gen(decl: Node71): Gen<{ name: Handle; call?: Handle }[]> } };
}
interface Timing {
  enabled: boolean;
  totals: {
    requestCount: number;
    roundTripMs: number;
    serverTimeMs: number;
    transportOverheadMs: number;
    bytesSent: number;
    bytesReceived: number;
  };
}
interface API71 {
  createSnapshot(p: { openProjects: string[] }): { getConfiguredProject(f: string): Project71 | undefined };
  batch<T>(...gens: Gen<T>[]): T[];
  getTimingInfo(): Timing;
  close(): void;
}
interface Module71 {
  API: new (o: { cwd: string; collectTiming?: boolean }) => API71;
  SymbolFlags: { Alias: number };
}
interface AstModule71 {
  SyntaxKind: Record<string, number>;
}

/** CPU (user + system, ms, every thread) a process has spent, from Linux's /proc (100 ticks a second). */
function procCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}
const ownCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// ---- Recording the builder's questions (the native checker's default release, KG_NATIVE_TS, as `kg build --checker native` asks). ----
function record(name: 'zod' | 'rxjs'): Questions {
  const file = path.join(WORK, `${name}.questions.json`);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Questions;
  const c = corpusForTs7(name, path.join(WORK, name));
  const native = new NativeChecker();
  const files: Record<string, number[]> = {};
  let config: unknown;
  const provider: CheckerProvider = {
    name: 'native',
    open(check: ProjectCheck) {
      const backend = native.open(check);
      if ('declined' in backend || check.project.configPath !== 'tsconfig.json') return backend;
      config = { compilerOptions: optionsAsJson(check.project.options), files: [...check.roots] };
      const recording: CheckerBackend = {
        declarationsAt(f: string, queries: readonly SymbolQuery[]) {
          (files[f] ??= []).push(...queries.map((q) => q.position));
          return backend.declarationsAt(f, queries);
        },
      };
      return recording;
    },
    release: (b) => native.release(b),
  };
  try {
    buildGraph({ root: c.root, checker: provider });
  } finally {
    native.close();
  }
  if (!config) throw new Error(`the native checker did not serve ${name}'s tsconfig.json`);
  fs.writeFileSync(path.join(c.root, CONFIG), JSON.stringify(config, null, 2) + '\n');
  const q: Questions = { root: c.root, version: c.version, files };
  fs.writeFileSync(file, JSON.stringify(q));
  return q;
}

// ---- One route, in a process of its own. ----
const keyOf = (h: Handle): string => `${h.path}#${h.index}`;

/** The deepest node whose span holds the position (its name, keyword or `this`). */
function leafAt(sf: Node71, position: number): Node71 | undefined {
  let current: Node71 = sf;
  for (;;) {
    const next: Node71 | undefined = current.forEachChild((c) => (c.pos <= position && position < c.end ? c : undefined));
    if (!next) return current === sf ? undefined : current;
    current = next;
  }
}

async function runRoute(name: string, route: Route): Promise<void> {
  const q = JSON.parse(fs.readFileSync(path.join(WORK, `${name}.questions.json`), 'utf8')) as Questions;
  // 7.0.2 is loaded by its file, as 7.1 is: only the measurement asks it this way (the product's
  // one door to it stays native-api.ts).
  const old = route === 'position-7.0.2';
  const dir = old ? path.join(__dirname, '..', 'node_modules', 'typescript7') : TS71;
  const mod = (await import(pathToFileURL(path.join(dir, 'dist/api/sync/api.js')).href)) as Module71;
  const ast = (await import(pathToFileURL(path.join(dir, 'dist/ast/index.js')).href)) as AstModule71;
  const cpu0 = ownCpuMs();
  const wall0 = performance.now();
  const api = new mod.API({ cwd: q.root, collectTiming: true });
  const pid = (api as unknown as { client: { channel: { child: { pid: number } } } }).client.channel.child.pid;
  const config = path.join(q.root, CONFIG);
  const project = old
    ? (api as unknown as { updateSnapshot(p: { openProjects: string[] }): { getProject(f: string): Project71 | undefined } })
        .updateSnapshot({ openProjects: [config] })
        .getProject(config)
    : api.createSnapshot({ openProjects: [config] }).getConfiguredProject(config);
  if (!project) throw new Error(`7.1 did not open ${config}`);
  const opened = { wallMs: performance.now() - wall0, nodeCpuMs: ownCpuMs() - cpu0, goCpuMs: procCpuMs(pid) };
  const checker = project.checker;
  const ALIAS = mod.SymbolFlags.Alias;
  const aliased = new Map<number, Symbol71>();
  const answers: Record<string, string[]> = {};
  const files = Object.keys(q.files).sort();
  const settle = (file: string, positions: readonly number[], symbols: readonly (Symbol71 | undefined)[]): void => {
    positions.forEach((p, k) => {
      let s = symbols[k];
      if (s && s.flags & ALIAS) s = aliased.get(s.id);
      answers[`${file}:${p}`] = s ? s.declarations.map(keyOf).sort() : [];
    });
  };
  const aliasesOne = (symbols: readonly (Symbol71 | undefined)[]): void => {
    for (const s of symbols) if (s && s.flags & ALIAS && !aliased.has(s.id)) aliased.set(s.id, checker.getAliasedSymbol(s));
  };
  const aliasesBatched = (symbols: readonly (Symbol71 | undefined)[]): void => {
    const todo = [
      ...new Map(symbols.filter((s): s is Symbol71 => !!s && (s.flags & ALIAS) !== 0 && !aliased.has(s.id)).map((s) => [s.id, s])).values(),
    ];
    if (todo.length === 0) return;
    const got = api.batch(...todo.map((s) => checker.getAliasedSymbol.gen(s)));
    todo.forEach((s, k) => aliased.set(s.id, got[k]));
  };
  let extra = '';
  if (route === 'position' || route === 'position-7.0.2') {
    for (const f of files) {
      const symbols = checker.getSymbolAtPosition(f, q.files[f]);
      aliasesOne(symbols);
      settle(f, q.files[f], symbols);
    }
  } else if (route === 'position-single') {
    for (const f of files) {
      const symbols = q.files[f].map((p) => checker.getSymbolAtPosition(f, p));
      aliasesOne(symbols);
      settle(f, q.files[f], symbols);
    }
  } else if (route === 'position-aliases') {
    for (const f of files) {
      const symbols = checker.getSymbolAtPosition(f, q.files[f]);
      aliasesBatched(symbols);
      settle(f, q.files[f], symbols);
    }
  } else if (route === 'position-ahead') {
    // The raw channel, as native-early.ts's EarlyQuestions uses it (7.0.2's and 7.1's have the same parts).
    const client = (api as unknown as { client: RawClient }).client;
    const ch = client.channel;
    const request = client.apiRequest.bind(client);
    let preset: { value: unknown } | undefined;
    client.apiRequest = (method: string, params: unknown) => {
      if (preset) {
        const v = preset.value;
        preset = undefined;
        return v;
      }
      return request(method, params);
    };
    const inner = checker as unknown as { snapshotId: number; project: { handle: unknown } };
    const method = ch.getMethodBuf('getSymbolsAtPositions');
    const pending: { file: string; bytes: number }[] = [];
    let pendingBytes = 0;
    const read: [string, (Symbol71 | undefined)[]][] = [];
    const readOne = (): void => {
      const next = pending.shift() as { file: string; bytes: number };
      for (;;) {
        ch.readTuple();
        if (ch._msgType === MSG.call) {
          ch.handleCall(ch._msgName.toString('utf-8'), ch._msgPayload);
          continue;
        }
        if (ch._msgType !== MSG.response) throw new Error(ch._msgPayload.toString('utf-8'));
        break;
      }
      pendingBytes -= next.bytes;
      const text = ch._msgPayload.toString('utf-8');
      preset = { value: text.length > 0 ? JSON.parse(text) : undefined };
      read.push([next.file, checker.getSymbolAtPosition(next.file, q.files[next.file])]);
    };
    for (let i = 0; i < files.length; i += 16) {
      for (const f of files.slice(i, i + 16)) {
        const payload = JSON.stringify({ snapshot: inner.snapshotId, project: inner.project.handle, file: f, positions: q.files[f] });
        const bytes = Buffer.byteLength(payload) + 40;
        while (pending.length > 0 && pendingBytes + bytes > 16 * 1024) readOne();
        ch.writeTuple(MSG.request, method, payload);
        pending.push({ file: f, bytes });
        pendingBytes += bytes;
      }
      while (pending.length > 0) readOne();
      aliasesBatched(read.flatMap(([, symbols]) => symbols));
      for (const [f, symbols] of read) settle(f, q.files[f], symbols);
      read.length = 0;
    }
  } else if (route === 'position-chunk') {
    for (let i = 0; i < files.length; i += 16) {
      const chunk = files.slice(i, i + 16);
      const all = api.batch(...chunk.map((f) => checker.getSymbolAtPosition.gen(f, q.files[f])));
      aliasesBatched(all.flat());
      chunk.forEach((f, k) => settle(f, q.files[f], all[k]));
    }
  } else if (route === 'position-batch') {
    const all = api.batch(...files.map((f) => checker.getSymbolAtPosition.gen(f, q.files[f])));
    aliasesBatched(all.flat());
    files.forEach((f, k) => settle(f, q.files[f], all[k]));
  } else if (route === 'node') {
    let missing = 0;
    for (const f of files) {
      const sf = project.program.getSourceFile(f);
      const at: number[] = [];
      const nodes: Node71[] = [];
      for (const p of q.files[f]) {
        const n = sf && leafAt(sf, p);
        if (n) {
          at.push(p);
          nodes.push(n);
        } else missing++;
      }
      const symbols = nodes.length > 0 ? checker.getSymbolAtLocation(nodes) : [];
      aliasesBatched(symbols);
      settle(f, at, symbols);
    }
    extra = `${missing} positions without a node`;
  } else {
    const K = ast.SyntaxKind;
    const kinds = new Set(
      [
        'FunctionDeclaration',
        'FunctionExpression',
        'MethodDeclaration',
        'MethodSignature',
        'ClassDeclaration',
        'ClassExpression',
        'VariableDeclaration',
        'Parameter',
        'PropertyDeclaration',
        'PropertySignature',
        'PropertyAssignment',
        'ShorthandPropertyAssignment',
        'GetAccessor',
        'SetAccessor',
        'BindingElement',
        'InterfaceDeclaration',
        'TypeAliasDeclaration',
        'EnumDeclaration',
        'EnumMember',
        'ModuleDeclaration',
        'TypeParameter',
      ].map((k) => K[k]),
    );
    const ls = project.languageService;
    const found = new Map<string, Set<string>>();
    let asked = 0;
    let failed = 0;
    for (const f of files) {
      const sf = project.program.getSourceFile(f);
      if (!sf) continue;
      const decls: Node71[] = [];
      const walk = (n: Node71): undefined => {
        if (kinds.has(n.kind) && n.name) decls.push(n);
        n.forEachChild(walk);
        return undefined;
      };
      walk(sf);
      asked += decls.length;
      let usages: { name: Handle }[][];
      try {
        usages = api.batch(...decls.map((d) => ls.getSignatureUsage.gen(d)));
      } catch {
        // One declaration the server refuses fails the batch: asked one by one.
        usages = decls.map((d) => {
          try {
            return api.batch(ls.getSignatureUsage.gen(d))[0];
          } catch {
            failed++;
            return [];
          }
        });
      }
      decls.forEach((d, k) => {
        const declKey = `${f}#${d.index}`;
        for (const u of usages[k]) {
          const site = u.name.resolve(project);
          if (!site) continue;
          const key = `${u.name.path}:${site.getStart()}`;
          let set = found.get(key);
          if (!set) found.set(key, (set = new Set()));
          set.add(declKey);
        }
      });
    }
    for (const f of files) for (const p of q.files[f]) answers[`${f}:${p}`] = [...(found.get(`${f}:${p}`) ?? [])].sort();
    extra = `${asked} declarations asked, ${failed} refused, ${found.size} sites found`;
  }
  const askedAt = { wallMs: performance.now() - wall0, nodeCpuMs: ownCpuMs() - cpu0, goCpuMs: procCpuMs(pid) };
  const goPeakKb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  const timing = api.getTimingInfo();
  api.close();
  const out = path.join(WORK, `${name}.${route}.answers.json`);
  fs.writeFileSync(out, JSON.stringify(answers));
  process.stdout.write(
    JSON.stringify({ opened, total: askedAt, timing: timing.totals, extra, goPeakKb, nodePeakKb: process.resourceUsage().maxRSS }) + '\n',
  );
}

// ---- The driver. ----
interface Sample {
  opened: { wallMs: number; nodeCpuMs: number; goCpuMs: number };
  total: { wallMs: number; nodeCpuMs: number; goCpuMs: number };
  timing: Timing['totals'];
  extra: string;
  goPeakKb: number;
  nodePeakKb: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `tsc --noEmit` on the recorded project: CPU (user + system) and wall, by GNU time. */
function tscFloor(exe: string, root: string): { cpuMs: number; wallMs: number } {
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu=%U+%S wall=%e', exe, '-p', CONFIG, '--noEmit'], { cwd: root, encoding: 'utf8' });
  const m = /cpu=([\d.]+)\+([\d.]+) wall=([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`tsc failed: ${r.stderr}`);
  return { cpuMs: (Number(m[1]) + Number(m[2])) * 1000, wallMs: Number(m[3]) * 1000 };
}

function compare(name: string, a: Route, b: Route, projectOnly: boolean, root: string): string {
  const read = (r: Route) => JSON.parse(fs.readFileSync(path.join(WORK, `${name}.${r}.answers.json`), 'utf8')) as Record<string, string[]>;
  // Each TypeScript's default library is its own package's: compared by file name. A set: 7.0.2
  // repeats a merged symbol's declaration (the seam keeps distinct ones, distinctDeclarations).
  const lib = (answers: Record<string, string[]>) => {
    for (const k of Object.keys(answers))
      answers[k] = [...new Set(answers[k].map((d) => d.replace(/^.*\/@typescript\/typescript-[^/]+\/lib\//, 'lib/')))].sort();
    return answers;
  };
  const A = lib(read(a));
  const B = lib(read(b));
  let same = 0;
  let differ = 0;
  let outside = 0;
  const examples: string[] = [];
  const inProject = (k: string) => k.startsWith(root + '/') && !k.includes('/node_modules/');
  for (const site of Object.keys(A)) {
    let x = A[site];
    let y = B[site] ?? [];
    if (projectOnly) {
      if (x.length > 0 && !x.every(inProject)) outside++;
      x = x.filter(inProject);
      y = y.filter(inProject);
    }
    if (x.join() === y.join()) same++;
    else {
      differ++;
      const rel = (k: string) => (k.startsWith(root + '/') ? k.slice(root.length + 1) : k);
      if (examples.length < 5) examples.push(`${rel(site)}: ${a} [${x.map(rel).join(' ')}] ${b} [${y.map(rel).join(' ')}]`);
    }
  }
  return `${a} vs ${b}${projectOnly ? ' (project declarations only)' : ''}: ${same} same, ${differ} differ${projectOnly ? `, ${outside} sites whose declaration is outside the project (lib or package)` : ''}${examples.length ? '\n    ' + examples.join('\n    ') : ''}`;
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--run') {
    void runRoute(args[1], args[2] as Route).catch((e: unknown) => {
      process.stderr.write(String(e instanceof Error ? e.stack : e) + '\n');
      process.exit(1);
    });
    return;
  }
  fs.mkdirSync(WORK, { recursive: true });
  if (!fs.existsSync(path.join(TS71, 'dist', 'api', 'sync', 'api.js')))
    throw new Error(
      `no TypeScript 7.1 at ${TS71}: npm i typescript@7.1.0-dev.20261021.1 in a scratch folder and set KG_TS71 to its node_modules/typescript`,
    );
  const version71 = (JSON.parse(fs.readFileSync(path.join(TS71, 'package.json'), 'utf8')) as { version: string }).version;
  const exe71 = path.join(path.dirname(TS71), '@typescript', `typescript-${process.platform}-${process.arch}`, 'lib', 'tsc');
  const b70 = nativeBinary();
  if ('missing' in b70) throw new Error(b70.missing);
  const wanted = (args.length > 0 ? args : ['zod', 'rxjs']) as ('zod' | 'rxjs')[];
  const routes = (process.env.KG_QUESTIONS_ROUTES?.split(',') as Route[] | undefined) ?? [...ROUTES];
  const lines: string[] = [`TypeScript ${version71} (routes, floor) and ${b70.version} (floor); median of ${REPS}; CPU = Node + Go, ms`];
  for (const name of wanted) {
    const q = record(name);
    const positions = Object.values(q.files).reduce((n, p) => n + p.length, 0);
    // Rounds: every route and both floors once per round, so that the machine's load weighs on them alike.
    const f71: { cpuMs: number; wallMs: number }[] = [];
    const f70: { cpuMs: number; wallMs: number }[] = [];
    const samples = new Map<Route, Sample[]>(routes.map((r) => [r, []]));
    for (let i = 0; i < REPS; i++) {
      f71.push(tscFloor(exe71, q.root));
      f70.push(tscFloor(b70.exe, q.root));
      for (const route of routes) {
        // `declaration` takes minutes on zod: measured once.
        if (route === 'declaration' && i > 0) continue;
        const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--run', name, route], {
          encoding: 'utf8',
          maxBuffer: 1 << 26,
        });
        (samples.get(route) as Sample[]).push(JSON.parse(out.trim().split('\n').pop() as string) as Sample);
      }
    }
    const floor = { cpuMs: median(f71.map((f) => f.cpuMs)), wallMs: median(f71.map((f) => f.wallMs)) };
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
    lines.push(
      `\n${name} ${q.version}: ${Object.keys(q.files).length} files, ${positions} positions`,
      `  tsc --noEmit ${version71}: cpu ${floor.cpuMs.toFixed(0)} (${range(f71.map((f) => f.cpuMs))}) wall ${floor.wallMs.toFixed(0)}; ${b70.version}: cpu ${median(f70.map((f) => f.cpuMs)).toFixed(0)} (${range(f70.map((f) => f.cpuMs))}) wall ${median(f70.map((f) => f.wallMs)).toFixed(0)}`,
      `  route | cpu total (node + go) | cpu range | ratio to 7.1 tsc cpu | wall | asking only: cpu node + go | requests | client round trip / server / transport ms | bytes sent / received | peak MB node / go`,
    );
    const cpu = (s: Sample) => s.total.nodeCpuMs + s.total.goCpuMs;
    for (const route of routes) {
      const all = samples.get(route) as Sample[];
      const s = [...all].sort((x, y) => cpu(x) - cpu(y))[Math.floor(all.length / 2)];
      const askNode = s.total.nodeCpuMs - s.opened.nodeCpuMs;
      const askGo = s.total.goCpuMs - s.opened.goCpuMs;
      const t = s.timing;
      lines.push(
        `  ${route} | ${cpu(s).toFixed(0)} (${s.total.nodeCpuMs.toFixed(0)} + ${s.total.goCpuMs.toFixed(0)}) | ${range(all.map(cpu))} | ${(cpu(s) / floor.cpuMs).toFixed(2)} | ${s.total.wallMs.toFixed(0)} | ${askNode.toFixed(0)} + ${askGo.toFixed(0)} | ${t.requestCount} | ${t.roundTripMs.toFixed(0)} / ${t.serverTimeMs.toFixed(0)} / ${t.transportOverheadMs.toFixed(0)} | ${t.bytesSent} / ${t.bytesReceived} | ${(s.nodePeakKb / 1024).toFixed(0)} / ${(s.goPeakKb / 1024).toFixed(0)}${s.extra ? ` | ${s.extra}` : ''}`,
      );
      process.stderr.write(lines[lines.length - 1] + '\n');
    }
    for (const r of routes) if (r !== 'position' && r !== 'declaration') lines.push('  ' + compare(name, 'position', r, false, q.root));
    // Between versions a default-library declaration's node index moves with its file's text.
    if (routes.includes('position-7.0.2')) lines.push('  ' + compare(name, 'position', 'position-7.0.2', true, q.root));
    if (routes.includes('declaration')) lines.push('  ' + compare(name, 'position', 'declaration', true, q.root));
  }
  process.stdout.write(lines.join('\n') + '\n');
}

main();
