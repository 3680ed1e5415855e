// `npm run bench:agents`: the phantom-caller benchmark, and what `kg mcp` costs an agent.
//
// 1. "Who calls X?" for every function and method of real code installed from npm (rxjs, zod,
//    fabric), three answers compared with the TypeScript language service's call hierarchy
//    (test/reference/call-hierarchy.ts, the project's correctness reference):
//      - EXACT: the graph's proven callers (`kg callers` → "callers");
//      - EXACT + CANDIDATE: with the name-match guesses ("candidates") added;
//      - name matching, written the way peers describe theirs: every identifier followed by `(`
//        (a call or `new`, found with the parser, so comments and strings do not count), across
//        files, attributed to the enclosing declaration; a free call `f(` goes to the `f` its file
//        imports when the import names it and its path resolves, else to a local `f`, else to
//        every function named `f`; a member call `o.m(` to every method and function named `m`
//        (`this.m(` to the enclosing class's own `m` when it has one).
//    Precision and recall are over (caller, callee) pairs, summed over every X; "phantom" counts
//    the pairs an answer gives that the reference does not. Answer size: bytes of the answer, and
//    lines read — one per caller for ours, and what `grep -n '\bX('` prints for the grep an agent
//    would otherwise run (bytes and lines of its output).
// 2. Answer sizes of each `kg mcp` tool on rxjs (median, p99 bytes), through the server itself.
// 3. Tool-call latency through stdio (the SDK's client and `kg mcp` in a child process) on the
//    generated 1,000,000-edge graph: p50/p99 of `callers` and `symbol` (bar: p99 ≤ 50 ms).
// 4. "What breaks if X's signature changes?" against find-all-references and "how does A reach
//    B?" against the call hierarchy, on the same corpora (bench/agents-questions.ts).
// 5. A running `kg mcp` on fabric's sources with their tests (the served part, issue 48 item 3):
//    its first answer after the process starts (bar: 1 s), then p50/p99 of `explore_code` calls,
//    each ask in turn (bars: 20 ms, 60 ms), the server's CPU time beside the wall time; then a
//    file edited while it runs, and the next answer must say `stale`.
//
// Parts: KG_AGENTS_PARTS (default phantom,questions,sizes,latency,served); corpora: KG_AGENTS_CORPORA.
// Prints a markdown table per part and writes everything to bench/results/agents.json.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { buildGraph, escapeIdPart, serializeGraph, fileId, symbolId, parseId, type Graph } from '../src/graph';
import { compareWithCallHierarchy, typescript59Options, type ReferenceReport } from '../test/reference/call-hierarchy';
import { compareWithFindReferences } from '../test/reference/find-references';
import { howDoesAReachB, whatBreaks, type BreaksResult, type PathResult } from './agents-questions';
import { served, servedTable } from './agents-served';
import { corpus, type CorpusName } from './corpus';
import { rng } from './generate-graph';
import { benchGraph } from './queries';

const REPO = path.join(__dirname, '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const CORPORA: CorpusName[] = (process.env.KG_AGENTS_CORPORA?.split(',') as CorpusName[] | undefined) ?? ['rxjs', 'zod', 'fabric'];

type Pairs = Map<string, Set<string>>;

const add = (m: Pairs, target: string, caller: string) => {
  let s = m.get(target);
  if (!s) m.set(target, (s = new Set()));
  s.add(caller);
};

const nameOf = (id: string): string => {
  const p = parseId(id);
  return p?.prefix === 'sym' ? p.name.slice(p.name.lastIndexOf('.') + 1) : '';
};

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

/** The name-matching baseline over the repository's files (parser only: no checker). */
function nameMatching(root: string, graph: Graph, targets: Set<string>): Pairs {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const functions = new Map<string, string[]>();
  const methods = new Map<string, string[]>();
  for (const n of graph.nodes) {
    if (!targets.has(n.id)) continue;
    const m = n.kind === 'method' ? methods : functions;
    const k = nameOf(n.id);
    m.set(k, [...(m.get(k) ?? []), n.id]);
  }
  const out: Pairs = new Map();
  const files = graph.nodes.filter((n) => n.kind === 'file' && /\.[cm]?[jt]sx?$/.test(n.id)).map((n) => n.sourceFile as string);
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    // Imports that name a binding: local name → the file its relative path resolves to.
    const imported = new Map<string, { file?: string; name: string }>();
    for (const st of sf.statements) {
      if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const b = st.importClause?.namedBindings;
      if (!b || !ts.isNamedImports(b)) continue;
      const spec = st.moduleSpecifier.text;
      let resolved: string | undefined;
      if (spec.startsWith('.')) {
        const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.[cm]?js$/, '');
        resolved = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => ids.has(fileId(f)));
      }
      for (const e of b.elements) imported.set(e.name.text, { file: resolved, name: (e.propertyName ?? e.name).text });
    }
    const callerOf = (node: ts.Node): string => {
      for (let p: ts.Node | undefined = node.parent; p && !ts.isSourceFile(p); p = p.parent) {
        let name: string | undefined;
        if ((ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p)) && p.name) name = p.name.text;
        else if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) name = p.name.text;
        else if ((ts.isMethodDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isPropertyDeclaration(p)) && p.name) {
          const cls = p.parent;
          if (ts.isClassLike(cls) && cls.name && (ts.isIdentifier(p.name) || ts.isPrivateIdentifier(p.name))) {
            const isStatic = ts.getCombinedModifierFlags(p as ts.Declaration) & ts.ModifierFlags.Static;
            const twin = symbolId(file, `${cls.name.text}.static.${p.name.text}`);
            if (isStatic && ids.has(twin)) return twin;
            name = `${cls.name.text}.${p.name.text}`;
          }
        } else if (ts.isConstructorDeclaration(p) && ts.isClassLike(p.parent) && p.parent.name) name = p.parent.name.text;
        if (name !== undefined && ids.has(symbolId(file, name))) return symbolId(file, name);
      }
      return fileId(file);
    };
    const enclosingClass = (node: ts.Node): string | undefined => {
      for (let p: ts.Node | undefined = node.parent; p; p = p.parent) if (ts.isClassLike(p) && p.name) return p.name.text;
      return undefined;
    };
    const stack: ts.Node[] = [sf];
    while (stack.length > 0) {
      const node = stack.pop() as ts.Node;
      ts.forEachChild(node, (c) => {
        stack.push(c);
      });
      if (!ts.isCallExpression(node) && !ts.isNewExpression(node)) continue;
      const callee = node.expression;
      const caller = callerOf(node);
      if (ts.isIdentifier(callee)) {
        const n = callee.text;
        const imp = imported.get(n);
        const all = functions.get(imp?.name ?? n) ?? [];
        const inFile = (f: string) => all.filter((t) => t.startsWith(`sym:${escapeIdPart(f)}#`));
        let hit = imp?.file !== undefined ? inFile(imp.file) : inFile(file);
        if (hit.length === 0) hit = all;
        for (const t of hit) add(out, t, caller);
      } else if (ts.isPropertyAccessExpression(callee)) {
        // An identifier followed by `(`: a member call matches every method and function of that name.
        const n = callee.name.text;
        const all = [...(methods.get(n) ?? []), ...(functions.get(n) ?? [])];
        let hit = all;
        if (callee.expression.kind === ts.SyntaxKind.ThisKeyword) {
          const cls = enclosingClass(node);
          const own = all.filter((t) => cls !== undefined && t.startsWith(symbolId(file, cls + '.')));
          if (own.length > 0) hit = own;
        }
        for (const t of hit) add(out, t, caller);
      }
    }
  }
  return out;
}

/** What `grep -rn '\bNAME('` prints over the repository's sources: its lines and bytes. */
function grepSizes(root: string, graph: Graph): (name: string) => { lines: number; bytes: number } {
  const files = graph.nodes.filter((n) => n.kind === 'file' && /\.[cm]?[jt]sx?$/.test(n.id)).map((n) => n.sourceFile as string);
  const lines: Array<[string, number, string]> = [];
  for (const f of files)
    fs.readFileSync(path.join(root, f), 'utf8')
      .split('\n')
      .forEach((l, i) => {
        if (l.includes('(')) lines.push([f, i + 1, l]);
      });
  const cache = new Map<string, { lines: number; bytes: number }>();
  return (name) => {
    let r = cache.get(name);
    if (r) return r;
    const re = new RegExp(`\\b${name.replace(/[$]/g, '\\$')}\\(`);
    r = { lines: 0, bytes: 0 };
    for (const [f, n, l] of lines)
      if (re.test(l)) {
        r.lines++;
        r.bytes += Buffer.byteLength(`${f}:${n}:${l}\n`);
      }
    cache.set(name, r);
    return r;
  };
}

interface Score {
  precision: number;
  recall: number;
  phantom: number;
  missed: number;
  pairs: number;
  medianBytes: number;
  p90Bytes: number;
  medianLines: number;
  p90Lines: number;
}

function score(
  answer: (t: string) => Set<string>,
  ref: Pairs,
  targets: string[],
  size: (t: string, a: Set<string>) => { bytes: number; lines: number },
): Score {
  let tp = 0;
  let given = 0;
  let expected = 0;
  const bytes: number[] = [];
  const lines: number[] = [];
  for (const t of targets) {
    const a = answer(t);
    const r = ref.get(t) ?? new Set();
    for (const c of a) if (r.has(c)) tp++;
    given += a.size;
    expected += r.size;
    const s = size(t, a);
    bytes.push(s.bytes);
    lines.push(s.lines);
  }
  return {
    precision: given === 0 ? 1 : tp / given,
    recall: expected === 0 ? 1 : tp / expected,
    phantom: given - tp,
    missed: expected - tp,
    pairs: given,
    medianBytes: percentile(bytes, 0.5),
    p90Bytes: percentile(bytes, 0.9),
    medianLines: percentile(lines, 0.5),
    p90Lines: percentile(lines, 0.9),
  };
}

function phantomBench(name: CorpusName, c: { root: string; version: string }, graph: Graph, report: ReferenceReport, t0: number) {
  const kinds = new Map(graph.nodes.map((n) => [n.id, n.kind]));
  const targets = report.asked.filter((id) => kinds.get(id) === 'function' || kinds.get(id) === 'method').sort();
  const targetSet = new Set(targets);
  const ref: Pairs = new Map();
  for (const k of report.pairKeys) {
    const [caller, target] = k.split('\u0000');
    if (targetSet.has(target)) add(ref, target, caller);
  }
  const exact: Pairs = new Map();
  const guessed: Pairs = new Map();
  for (const e of graph.edges) {
    if (e.relation !== 'calls' || !targetSet.has(e.target)) continue;
    if (e.confidence === 'EXACT') add(exact, e.target, e.source);
    else if (e.confidence === 'CANDIDATE') add(guessed, e.target, e.source);
  }
  const withGuesses = (t: string) => new Set([...(exact.get(t) ?? []), ...(guessed.get(t) ?? [])]);
  const baseline = nameMatching(c.root, graph, targetSet);
  const grep = grepSizes(c.root, graph);
  const ourSize = (fields: (t: string) => Record<string, string[]>) => (t: string, a: Set<string>) => ({
    bytes: Buffer.byteLength(JSON.stringify(fields(t))),
    lines: a.size,
  });
  const rows = {
    exact: score(
      (t) => exact.get(t) ?? new Set(),
      ref,
      targets,
      ourSize((t) => ({ callers: [...(exact.get(t) ?? [])] })),
    ),
    exactAndCandidates: score(
      withGuesses,
      ref,
      targets,
      ourSize((t) => ({
        callers: [...(exact.get(t) ?? [])],
        candidates: [...(guessed.get(t) ?? [])].filter((x) => !exact.get(t)?.has(x)),
      })),
    ),
    nameMatching: score(
      (t) => baseline.get(t) ?? new Set(),
      ref,
      targets,
      (t) => grep(nameOf(t)),
    ),
  };
  return {
    corpus: `${name}@${c.version}`,
    files: graph.nodes.filter((n) => n.kind === 'file').length,
    questions: targets.length,
    referencePairs: [...ref.values()].reduce((n, s) => n + s.size, 0),
    seconds: (performance.now() - t0) / 1000,
    rows,
  };
}

async function stdioClient(args: string[], cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--all-tools', ...args],
    cwd,
    stderr: 'ignore',
    env: { ...(process.env as Record<string, string>), KG_SERVER: 'off' },
  });
  const client = new Client({ name: 'kg-bench', version: '1' });
  await client.connect(transport);
  return client;
}

const textBytes = (r: CallToolResult) => Buffer.byteLength((r.content[0] as { text: string }).text);

/** Answer sizes per tool on rxjs, asked about a seeded sample of its functions and methods. */
async function answerSizes(): Promise<
  Record<string, { calls: number; errors: number; medianBytes: number; p99Bytes: number; maxBytes: number }>
> {
  const c = corpus('rxjs');
  const graphFile = path.join(c.root, '.knowledge-graph', 'graph.json');
  if (!fs.existsSync(graphFile)) {
    fs.mkdirSync(path.dirname(graphFile), { recursive: true });
    fs.writeFileSync(graphFile, serializeGraph(buildGraph({ root: c.root }).graph));
  }
  const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as Graph;
  const syms = graph.nodes.filter((n) => n.kind === 'function' || n.kind === 'method').map((n) => n.id);
  const rand = rng(29);
  const pick = () => syms[Math.floor(rand() * syms.length)];
  const client = await stdioClient(['--graph', graphFile], c.root);
  const plan: Record<string, () => Record<string, unknown>> = {
    symbol: () => ({ id: pick() }),
    callers: () => ({ id: pick() }),
    affected: () => ({ id: pick() }),
    impact: () => ({ id: pick() }),
    neighbors: () => ({ id: pick() }),
    path: () => ({ from: pick(), to: pick() }),
    'god-nodes': () => ({}),
    find: () => ({ text: nameOf(pick()).slice(0, 4) }),
    why: () => ({ id: pick() }),
  };
  const out: Record<string, { calls: number; errors: number; medianBytes: number; p99Bytes: number; maxBytes: number }> = {};
  for (const [tool, args] of Object.entries(plan)) {
    const sizes: number[] = [];
    let errors = 0;
    for (let i = 0; i < 300; i++) {
      const r = (await client.callTool({ name: tool, arguments: args() })) as CallToolResult;
      if (r.isError) errors++;
      else sizes.push(textBytes(r));
    }
    out[tool] = {
      calls: 300,
      errors,
      medianBytes: percentile(sizes, 0.5),
      p99Bytes: percentile(sizes, 0.99),
      maxBytes: Math.max(...sizes),
    };
  }
  await client.close();
  return out;
}

/** callers and symbol through stdio on the 1M-edge graph: wall time per call, as the client sees it. */
async function latency(): Promise<Record<string, { n: number; p50: number; p99: number; max: number; bar: number; pass: boolean }>> {
  const file = benchGraph();
  const graph = JSON.parse(fs.readFileSync(file, 'utf8')) as Graph;
  const ids = graph.nodes.filter((n) => n.id.startsWith('sym:')).map((n) => n.id);
  const edges = graph.edges.length;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-agents-'));
  const client = await stdioClient(['--root', dir, '--graph', file], dir);
  const rand = rng(11);
  const pick = () => ids[Math.floor(rand() * ids.length)];
  // The first call loads the graph (seconds for a million edges); it is not a call latency.
  await client.callTool({ name: 'callers', arguments: { id: pick() } }, undefined, { timeout: 600_000 });
  const out: Record<string, { n: number; p50: number; p99: number; max: number; bar: number; pass: boolean }> = {};
  for (const tool of ['callers', 'symbol', 'impact', 'neighbors', 'find']) {
    for (let i = 0; i < 20; i++)
      await client.callTool({ name: tool, arguments: tool === 'find' ? { text: pick().slice(4, 12) } : { id: pick() } });
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const args = tool === 'find' ? { text: pick().slice(4, 12) } : { id: pick() };
      const t0 = performance.now();
      await client.callTool({ name: tool, arguments: args });
      times.push(performance.now() - t0);
    }
    const p99 = percentile(times, 0.99);
    const bar = tool === 'callers' || tool === 'symbol' ? 50 : Infinity;
    out[tool] = { n: times.length, p50: percentile(times, 0.5), p99, max: Math.max(...times), bar, pass: p99 <= bar };
  }
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`(latency graph: ${edges} edges)\n`);
  return out;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Each corpus's graph and call hierarchy, once, for the parts that ask about them. */
function corpusQuestions(name: CorpusName, parts: Set<string>) {
  const c = corpus(name);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const { graph } = buildGraph({ root: c.root });
  const report = compareWithCallHierarchy(c.root, graph, 'tsconfig.json', typescript59Options(c.root));
  const phantom = parts.has('phantom') ? phantomBench(name, c, graph, report, t0) : undefined;
  let breaks: BreaksResult | undefined;
  let paths: PathResult | undefined;
  if (parts.has('questions')) {
    const refs = compareWithFindReferences(c.root, graph, 'tsconfig.json', typescript59Options(c.root));
    breaks = whatBreaks(c.root, graph, refs);
    paths = howDoesAReachB(c.root, graph, report.pairKeys);
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    corpus: `${name}@${c.version}`,
    phantom,
    breaks,
    paths,
    seconds: (performance.now() - t0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

function questionTables(corpora: ReturnType<typeof corpusQuestions>[]): string {
  const out = [
    '| corpus | "what breaks if X\'s signature changes?" | precision | recall | files given, not referencing X | files missed | median bytes | p90 bytes | median lines | p90 lines |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const label = { exact: 'kg EXACT (impact)', exactAndCandidates: 'kg EXACT + CANDIDATE', grep: 'grep -rlw X (sizes: grep -rnw)' };
  for (const c of corpora) {
    const b = c.breaks;
    if (!b) continue;
    for (const [k, s] of Object.entries(b.rows))
      out.push(
        `| ${c.corpus} (${b.questions} functions and methods, ${b.referencePairs} reference pairs) | ${label[k as keyof typeof label]} | ${pct(s.precision)} | ${pct(s.recall)} | ${s.extra} | ${s.missed} | ${s.medianBytes} | ${s.p90Bytes} | ${s.medianLines} | ${s.p90Lines} |`,
      );
  }
  out.push(
    '',
    '| corpus | "how does A reach B?" | pairs the call hierarchy connects | chains from A to B | as short as the shortest | hops confirmed | pairs it does not connect | answered "no chain" | median bytes | p90 bytes |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const c of corpora) {
    const p = c.paths;
    if (!p) continue;
    out.push(
      `| ${c.corpus} | kg path (directed, ADR 161) | ${p.connected} | ${p.directed.chains} | ${p.directed.shortest} | ${p.directed.hopsConfirmed} of ${p.directed.hops} | ${p.unconnected} | ${p.directed.saidNoChain} | ${p.directed.medianBytes} | ${p.directed.p90Bytes} |`,
      `| | kg path, undirected (the answer before ADR 161) | ${p.connected} | ${p.undirected.chains} | | | ${p.unconnected} | ${p.unconnected - p.undirected.unconnectedAnsweredWithAPath} | ${p.undirected.medianBytes} | ${p.undirected.p90Bytes} |`,
    );
  }
  return out.join('\n') + '\n\n';
}

async function main(): Promise<void> {
  const parts = new Set((process.env.KG_AGENTS_PARTS ?? 'phantom,questions,sizes,latency,served').split(','));
  const result: Record<string, unknown> = {};
  const asked = parts.has('phantom') || parts.has('questions') ? CORPORA.map((name) => corpusQuestions(name, parts)) : [];
  for (const c of asked) process.stdout.write(`(${c.corpus}: ${c.seconds.toFixed(1)} s wall, ${c.cpuSeconds.toFixed(1)} s CPU)\n`);
  if (parts.has('phantom')) {
    const corpora = asked.map((c) => c.phantom as ReturnType<typeof phantomBench>);
    result.phantom = corpora;
    const lines = [
      '| corpus | answer | precision | recall | phantom callers | missed callers | median bytes | p90 bytes | median lines | p90 lines |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ];
    const label = { exact: 'kg EXACT', exactAndCandidates: 'kg EXACT + CANDIDATE', nameMatching: 'name matching (sizes: grep -n)' };
    for (const c of corpora)
      for (const [k, s] of Object.entries(c.rows))
        lines.push(
          `| ${c.corpus} (${c.questions} functions and methods, ${c.referencePairs} reference pairs) | ${label[k as keyof typeof label]} | ${pct(s.precision)} | ${pct(s.recall)} | ${s.phantom} | ${s.missed} | ${s.medianBytes} | ${s.p90Bytes} | ${s.medianLines} | ${s.p90Lines} |`,
        );
    process.stdout.write(lines.join('\n') + '\n\n');
  }
  if (parts.has('questions')) {
    result.questions = asked.map(({ corpus: name, breaks, paths }) => ({ corpus: name, breaks, paths }));
    process.stdout.write(questionTables(asked));
  }
  if (parts.has('sizes')) {
    const sizes = await answerSizes();
    result.sizes = sizes;
    const lines = ['| tool (rxjs) | calls | tool errors | median bytes | p99 bytes | max bytes |', '|---|---:|---:|---:|---:|---:|'];
    for (const [t, s] of Object.entries(sizes))
      lines.push(`| ${t} | ${s.calls} | ${s.errors} | ${s.medianBytes} | ${s.p99Bytes} | ${s.maxBytes} |`);
    process.stdout.write(lines.join('\n') + '\n\n');
  }
  if (parts.has('latency')) {
    const lat = await latency();
    result.latency = lat;
    const lines = ['| tool (1M edges, stdio) | calls | p50 ms | p99 ms | max ms | bar (p99) |', '|---|---:|---:|---:|---:|---|'];
    for (const [t, s] of Object.entries(lat))
      lines.push(
        `| ${t} | ${s.n} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.max.toFixed(2)} | ${Number.isFinite(s.bar) ? `≤ ${s.bar} ms: ${s.pass ? 'pass' : 'FAIL'}` : '—'} |`,
      );
    process.stdout.write(lines.join('\n') + '\n');
  }
  if (parts.has('served')) {
    const r = await served();
    result.served = r;
    process.stdout.write('\n' + servedTable(r));
    if (!Object.values(r.bars).every(Boolean)) process.exitCode = 1;
  }
  fs.mkdirSync(path.join(REPO, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(REPO, 'bench', 'results', 'agents.json'), JSON.stringify(result, null, 2) + '\n');
  const lat = result.latency as Record<string, { pass: boolean }> | undefined;
  if (lat && !Object.values(lat).every((x) => x.pass)) process.exitCode = 1;
}

void main();
