// Two more questions an agent asks, beside "who calls X?" (bench/agents.ts), each answered as
// `explore_code` answers it (src/agent/answer.ts, in process: the same answer the server sends) and
// checked against the TypeScript language service:
//
// - "What breaks if X's signature changes?" (ask "impact") for every function and method, against
//   find-all-references at X's declaration projected to the files its uses are in
//   (test/reference/find-references.ts, the references oracle): precision and recall over
//   (X, file) pairs, for the proven answer (callers and consumers), with the guesses added, and for
//   `grep -rlw X` (the files holding the name as a word). Sizes: the answer's bytes and entries on
//   its first page; for grep, what `grep -rnw X` prints (bytes, lines).
// - "How does A reach B?" (ask "path"), directed, for seeded pairs of functions and methods,
//   against the call hierarchy's direct-call pairs (test/reference/call-hierarchy.ts): for a pair
//   the call hierarchy connects (B reached from A by calls), whether the answer is a chain from A
//   to B, every hop one of the call hierarchy's pairs, and as short as the shortest there; for a
//   pair it does not connect, whether the answer says there is no chain. Beside it, the same pairs
//   asked with `undirected: true` (the answer before ADR 161): how often that is a call chain.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { indexGraph, jsonForPeople, nodeOf, parseId, type Graph, type GraphLoad, type IndexedGraph } from '../src/graph';
import { answerQueryOn, entryRequest, sharedArgs, type ToolAnswer } from '../src/agent/answer';
import type { RootGraph } from '../src/agent/graphs';
import { MAX_LIMIT } from '../src/agent/budget';
import { ASKS, ENTRY_NAME, toolsFor, type QueryTool } from '../src/agent/tool-definitions';
import type { FindReferencesReport } from '../test/reference/find-references';
import { rng } from './generate-graph';

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

const answerers = new Map(
  toolsFor({ all: true, store: false })
    .filter((t): t is QueryTool => t.kind === 'query')
    .map((t) => [t.query as string, t]),
);

/** Asks `explore_code` (or, with `tool`, a single-purpose tool) over a graph, as the server would. */
function asker(
  root: string,
  graph: Graph,
): { g: IndexedGraph; ask: (args: Record<string, unknown>, tool?: string, maxBytes?: number) => ToolAnswer } {
  const load = indexGraph(graph) as GraphLoad;
  if (!load.ok) throw new Error(`the graph does not load: ${load.unavailable.reason}`);
  const rg: RootGraph = {
    root,
    file: path.join(root, '.knowledge-graph', 'graph.json'),
    load,
    staleness: { stale: false, changedFiles: [] },
  };
  const ask = (raw: Record<string, unknown>, single?: string, maxBytes?: number): ToolAnswer => {
    const request = single === undefined ? entryRequest(raw) : { ask: single, args: { ...raw } };
    const tool = answerers.get(single ?? ASKS[request.ask as keyof typeof ASKS]) as QueryTool;
    const shared = sharedArgs(request.args, root, root, () => root, tool.paged, [root]);
    return answerQueryOn({ tool, args: request.args, shared, maxBytes, ...(single === undefined ? { entry: ENTRY_NAME } : {}) }, rg);
  };
  return { g: load.graph, ask };
}

/** A byte budget no answer reaches: the whole list, for the sets compared. */
const WHOLE = 1 << 30;

const valueOf = (a: ToolAnswer): Record<string, unknown> => {
  if (!a.ok) throw new Error(a.text);
  return a.value;
};
const bytesOf = (a: ToolAnswer) => Buffer.byteLength(a.ok ? jsonForPeople(a.value) : a.text);

const nameOf = (id: string): string => {
  const p = parseId(id);
  return p?.prefix === 'sym' ? p.name.slice(p.name.lastIndexOf('.') + 1) : '';
};

interface PairScore {
  precision: number;
  recall: number;
  /** Pairs given that the reference does not have. */
  extra: number;
  missed: number;
  medianBytes: number;
  p90Bytes: number;
  medianLines: number;
  p90Lines: number;
}

function pairScore(rows: Array<{ given: Set<string>; expected: Set<string>; bytes: number; lines: number }>): PairScore {
  let tp = 0;
  let given = 0;
  let expected = 0;
  for (const r of rows) {
    for (const f of r.given) if (r.expected.has(f)) tp++;
    given += r.given.size;
    expected += r.expected.size;
  }
  const bytes = rows.map((r) => r.bytes);
  const lines = rows.map((r) => r.lines);
  return {
    precision: given === 0 ? 1 : tp / given,
    recall: expected === 0 ? 1 : tp / expected,
    extra: given - tp,
    missed: expected - tp,
    medianBytes: percentile(bytes, 0.5),
    p90Bytes: percentile(bytes, 0.9),
    medianLines: percentile(lines, 0.5),
    p90Lines: percentile(lines, 0.9),
  };
}

export interface BreaksResult {
  questions: number;
  referencePairs: number;
  rows: { exact: PairScore; exactAndCandidates: PairScore; grep: PairScore };
  /** The proven answer's disagreements with the reference, as `X -> file`, to read by eye. */
  extra: string[];
  missed: string[];
}

/** "What breaks if X's signature changes?" for every function and method find-all-references was asked about. */
export function whatBreaks(root: string, graph: Graph, refs: FindReferencesReport): BreaksResult {
  const { g, ask } = asker(root, graph);
  const kinds = new Map(graph.nodes.map((n) => [n.id, n.kind]));
  const targets = [...refs.referrerFiles.keys()].filter((id) => kinds.get(id) === 'function' || kinds.get(id) === 'method').sort();
  const fileOf = (id: string) => nodeOf(g, id)?.sourceFile;
  // grep -rnw over the graph's files: each line with its words, once.
  const sources = graph.nodes.filter((n) => n.kind === 'file' && /\.[cm]?[jt]sx?$/.test(n.id)).map((n) => n.sourceFile as string);
  const lines: Array<{ file: string; text: string; words: Set<string> }> = [];
  for (const f of sources)
    fs.readFileSync(path.join(root, f), 'utf8')
      .split('\n')
      .forEach((text, i) => lines.push({ file: f, text: `${f}:${i + 1}:${text}\n`, words: new Set(text.match(/[\w$]+/g) ?? []) }));
  const grep = (name: string) => {
    const files = new Set<string>();
    let bytes = 0;
    let n = 0;
    for (const l of lines)
      if (l.words.has(name)) {
        files.add(l.file);
        bytes += Buffer.byteLength(l.text);
        n++;
      }
    return { files, bytes, lines: n };
  };
  const exact: Parameters<typeof pairScore>[0] = [];
  const guessed: Parameters<typeof pairScore>[0] = [];
  const grepped: Parameters<typeof pairScore>[0] = [];
  const extra: string[] = [];
  const missed: string[] = [];
  let referencePairs = 0;
  for (const id of targets) {
    const expected = new Set(refs.referrerFiles.get(id));
    referencePairs += expected.size;
    // The whole answer, page by page, for the sets; the first page for its size.
    const first = ask({ ask: 'impact', target: id });
    const proven = new Set<string>();
    const guesses = new Set<string>();
    for (let offset = 0; ;) {
      const v = valueOf(ask({ ask: 'impact', target: id, offset, limit: MAX_LIMIT }, undefined, WHOLE));
      for (const c of [...(v.callers as string[]), ...(v.consumers as string[])]) proven.add(fileOf(c) ?? c);
      for (const c of v.candidates as string[]) guesses.add(fileOf(c) ?? c);
      const omitted = (v.omitted ?? {}) as Record<string, number>;
      if (Object.values(omitted).every((n) => n === 0)) break;
      offset += MAX_LIMIT;
    }
    const v = valueOf(first);
    const shown = (v.callers as string[]).length + (v.consumers as string[]).length;
    const candidates = (v.candidates as string[]).length;
    exact.push({ given: proven, expected, bytes: bytesOf(first), lines: shown });
    for (const f of proven) if (!expected.has(f)) extra.push(`${id} -> ${f}`);
    for (const f of expected) if (!proven.has(f)) missed.push(`${id} -> ${f}`);
    guessed.push({ given: new Set([...proven, ...guesses]), expected, bytes: bytesOf(first), lines: shown + candidates });
    const gr = grep(nameOf(id));
    grepped.push({ given: gr.files, expected, bytes: gr.bytes, lines: gr.lines });
  }
  return {
    questions: targets.length,
    referencePairs,
    rows: { exact: pairScore(exact), exactAndCandidates: pairScore(guessed), grep: pairScore(grepped) },
    extra,
    missed,
  };
}

export interface PathResult {
  /** Pairs the call hierarchy connects, and those it does not. */
  connected: number;
  unconnected: number;
  directed: {
    /** Connected pairs answered with a chain from A to B whose every hop is a call-hierarchy pair. */
    chains: number;
    /** Of those, as short as the call hierarchy's shortest. */
    shortest: number;
    /** Hops in the chains given, and how many of them the call hierarchy has. */
    hops: number;
    hopsConfirmed: number;
    /** Unconnected pairs answered "no chain" (directed: false). */
    saidNoChain: number;
    medianBytes: number;
    p90Bytes: number;
  };
  undirected: { chains: number; unconnectedAnsweredWithAPath: number; medianBytes: number; p90Bytes: number };
}

/** "How does A reach B?" for seeded pairs, against the call hierarchy's direct-call pairs. */
export function howDoesAReachB(root: string, graph: Graph, pairKeys: readonly string[], seed = 31, count = 100): PathResult {
  const { ask } = asker(root, graph);
  const calls = new Map<string, Set<string>>();
  const pairs = new Set(pairKeys);
  for (const k of pairKeys) {
    const [caller, target] = k.split('\u0000');
    let s = calls.get(caller);
    if (!s) calls.set(caller, (s = new Set()));
    s.add(target);
  }
  const kinds = new Map(graph.nodes.map((n) => [n.id, n.kind]));
  const symbols = graph.nodes.filter((n) => n.kind === 'function' || n.kind === 'method').map((n) => n.id);
  const starts = symbols.filter((id) => calls.has(id));
  const distances = (from: string): Map<string, number> => {
    const d = new Map([[from, 0]]);
    const queue = [from];
    for (let i = 0; i < queue.length; i++)
      for (const next of [...(calls.get(queue[i]) ?? [])].sort())
        if (!d.has(next)) {
          d.set(next, (d.get(queue[i]) as number) + 1);
          queue.push(next);
        }
    return d;
  };
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const questions: Array<{ from: string; to: string; distance?: number }> = [];
  for (let tries = 0; questions.length < count && tries < count * 50; tries++) {
    const from = pick(starts);
    const d = distances(from);
    const far = [...d.entries()].filter(([id, n]) => n >= 2 && (kinds.get(id) === 'function' || kinds.get(id) === 'method'));
    if (far.length === 0) continue;
    const [to, distance] = pick(far.sort(([a], [b]) => (a < b ? -1 : 1)));
    questions.push({ from, to, distance });
  }
  for (let tries = 0; questions.length < count * 1.5 && tries < count * 50; tries++) {
    const from = pick(starts);
    const to = pick(symbols);
    if (to !== from && !distances(from).has(to)) questions.push({ from, to });
  }
  const r: PathResult = {
    connected: questions.filter((q) => q.distance !== undefined).length,
    unconnected: questions.filter((q) => q.distance === undefined).length,
    directed: { chains: 0, shortest: 0, hops: 0, hopsConfirmed: 0, saidNoChain: 0, medianBytes: 0, p90Bytes: 0 },
    undirected: { chains: 0, unconnectedAnsweredWithAPath: 0, medianBytes: 0, p90Bytes: 0 },
  };
  const isChain = (p: string[], q: { from: string; to: string }) =>
    p.length >= 2 && p[0] === q.from && p[p.length - 1] === q.to && p.slice(1).every((id, i) => pairs.has(`${p[i]}\u0000${id}`));
  const directedBytes: number[] = [];
  const undirectedBytes: number[] = [];
  for (const q of questions) {
    const a = ask({ ask: 'path', target: q.from, to: q.to });
    directedBytes.push(bytesOf(a));
    const v = valueOf(a);
    const p = v.path as string[];
    if (v.directed === true) {
      r.directed.hops += p.length - 1;
      r.directed.hopsConfirmed += p.slice(1).filter((id, i) => pairs.has(`${p[i]}\u0000${id}`)).length;
    }
    if (q.distance !== undefined && v.directed === true && isChain(p, q)) {
      r.directed.chains++;
      if (p.length - 1 === q.distance) r.directed.shortest++;
    }
    if (q.distance === undefined && v.directed === false) r.directed.saidNoChain++;
    const u = ask({ from: q.from, to: q.to, undirected: true }, 'path');
    undirectedBytes.push(bytesOf(u));
    const up = valueOf(u).path as string[];
    if (q.distance !== undefined && isChain(up, q)) r.undirected.chains++;
    if (q.distance === undefined && up.length > 0) r.undirected.unconnectedAnsweredWithAPath++;
  }
  r.directed.medianBytes = percentile(directedBytes, 0.5);
  r.directed.p90Bytes = percentile(directedBytes, 0.9);
  r.undirected.medianBytes = percentile(undirectedBytes, 0.5);
  r.undirected.p90Bytes = percentile(undirectedBytes, 0.9);
  return r;
}
