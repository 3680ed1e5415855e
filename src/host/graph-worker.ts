// The worker thread that holds one folder's graph (dist/graph-worker.js). It loads graph.json with
// the engine's own loader and indexes, and answers the graph service's small requests one at a
// time; the extension host never parses, indexes or walks the graph itself
// (docs/adr/0060-the-graph-lives-in-a-worker-thread.md). A new graph means a new worker: the
// service swaps workers once the new one has loaded, so the old graph answers meanwhile.

import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import {
  answerQuery,
  createEditorGuard,
  declaredSymbols,
  examineGraph,
  formatDoctorReport,
  graphStatus,
  isGraphError,
  loadGraphFile,
  manifestPathFor,
  queryWhy,
  symbolAt,
  type EditorGuard,
  type GraphLoad,
  type GraphNode,
  type IndexedGraph,
} from '../graph';
import type { CallSite, NodeDetails } from './graph-access';
import type {
  CallerCounts,
  HeldBaselines,
  NeighbourGroup,
  WorkerOp,
  WorkerReplyMessage,
  WorkerRequestMessage,
  WorkerRequests,
} from './graph-worker-protocol';

/** Confidence codes of the index (src/graph/query/indexed.ts CONFIDENCE_CODE), by code. */
const CONFIDENCE = ['EXACT', 'CANDIDATE', 'UNRESOLVED'] as const;
/** Kinds that always get a lens; a variable gets one only when something calls it (an arrow function). */
const LENS_KINDS = new Set(['function', 'class', 'method']);

let load: GraphLoad | undefined;
/** Lens-worthy node ranks of each source file, by position. Built on first use. */
let byFile: Map<string, number[]> | undefined;
/** Every `sym:` node of each source file, for the hover's position lookup. Built on first use. */
let symbolsByFile: Map<string, GraphNode[]> | undefined;

function fileSymbolNodes(g: IndexedGraph, file: string): GraphNode[] {
  if (!symbolsByFile) {
    symbolsByFile = new Map();
    for (let r = 0; r < g.nodeCount; r++) {
      const n = g.nodeAt[r] as GraphNode;
      if (!n.sourceFile || n.line === undefined || !n.id.startsWith('sym:')) continue;
      let list = symbolsByFile.get(n.sourceFile);
      if (!list) symbolsByFile.set(n.sourceFile, (list = []));
      list.push(n);
    }
  }
  return symbolsByFile.get(file) ?? [];
}

/**
 * The breaking-change guard over this worker's graph (ADR-73, ADR-84), indexed on the first edit it is
 * asked about: a folder in advisory never pays for the index. Baselines held by the previous
 * worker's guard wait in `restored` until then.
 */
let guard: EditorGuard | undefined;
let restored: HeldBaselines = [];

function editorGuard(): EditorGuard {
  if (guard) return guard;
  const g = createEditorGuard();
  g.setGraph(graph().graph);
  g.restoreHeld(restored);
  restored = [];
  return (guard = g);
}

function graph(): IndexedGraph {
  if (!load) throw new Error('no graph is loaded in this worker');
  if (!load.ok) throw new Error(load.unavailable.reason);
  return load.graph;
}

/** Proven and guessed callers of rank r, exactly as the `callers` query counts them (self included). */
function callerRanks(g: IndexedGraph, r: number): { proven: Map<number, number>; guessed: Map<number, number> } {
  // source rank → the edge that says so (for its evidence)
  const proven = new Map<number, number>();
  const guessed = new Map<number, number>();
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] !== 'calls') continue;
    const s = g.edgeSource[e];
    const c = g.edgeConfidence[e];
    if (c === 0 && !proven.has(s)) proven.set(s, e);
    else if (c === 1 && !guessed.has(s)) guessed.set(s, e);
  }
  for (const s of proven.keys()) guessed.delete(s);
  return { proven, guessed };
}

function site(g: IndexedGraph, other: number, e: number): CallSite {
  const edge = g.graph.edges[e];
  const s: CallSite = { id: g.ids[other], confidence: CONFIDENCE[g.edgeConfidence[e]] };
  if (edge.evidence) s.evidence = edge.evidence;
  if (edge.reason) {
    s.reason = edge.reason;
    s.name = g.ids[other].replace(/^unresolved:/, '');
  }
  return s;
}

function fileIndex(g: IndexedGraph): Map<string, number[]> {
  if (byFile) return byFile;
  const m = new Map<string, number[]>();
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r] as GraphNode;
    if (!n.sourceFile || n.line === undefined) continue;
    if (!LENS_KINDS.has(n.kind)) {
      if (n.kind !== 'variable') continue;
      let called = false;
      for (let k = g.inStart[r]; k < g.inStart[r + 1] && !called; k++)
        called = g.edgeRelation[g.inEdges[k]] === 'calls' && g.edgeConfidence[g.inEdges[k]] !== 2;
      if (!called) continue;
    }
    let list = m.get(n.sourceFile);
    if (!list) m.set(n.sourceFile, (list = []));
    list.push(r);
  }
  for (const list of m.values()) {
    list.sort(
      (a, b) =>
        (g.nodeAt[a] as GraphNode).line! - (g.nodeAt[b] as GraphNode).line! ||
        (g.nodeAt[a] as GraphNode).column! - (g.nodeAt[b] as GraphNode).column!,
    );
  }
  byFile = m;
  return m;
}

function details(g: IndexedGraph, id: string): NodeDetails | undefined {
  const r = g.rankOf.get(id);
  if (r === undefined || r >= g.nodeCount) return undefined;
  const node = g.nodeAt[r] as GraphNode;
  const { proven, guessed } = callerRanks(g, r);
  const callees: CallSite[] = [];
  for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
    const e = g.outEdges[k];
    if (g.edgeRelation[e] === 'calls') callees.push(site(g, g.edgeTarget[e], e));
  }
  const citedBy = new Set<string>();
  const fileRank = node.sourceFile ? g.rankOf.get(`file:${node.sourceFile}`) : undefined;
  for (const t of fileRank === undefined || fileRank === r ? [r] : [r, fileRank]) {
    for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
      const e = g.inEdges[k];
      if (g.edgeRelation[e] === 'cites') citedBy.add(g.ids[g.edgeSource[e]]);
    }
  }
  return {
    node,
    degree: g.degree[r],
    callers: [...proven].map(([s, e]) => site(g, s, e)),
    candidates: [...guessed].map(([s, e]) => site(g, s, e)),
    callees,
    citedBy: [...citedBy].sort(),
  };
}

function neighbourGroups(g: IndexedGraph, id: string, budget: number): NeighbourGroup[] {
  const r = g.rankOf.get(id);
  if (r === undefined) return [];
  const groups = new Map<string, NeighbourGroup>();
  const add = (direction: 'in' | 'out', e: number, other: number) => {
    const relation = g.edgeRelation[e];
    const key = `${relation}\u0000${direction}`;
    let grp = groups.get(key);
    if (!grp) groups.set(key, (grp = { relation, direction, items: [], total: 0 }));
    grp.total++;
    if (grp.items.length < budget) grp.items.push(site(g, other, e));
  };
  for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) add('out', g.outEdges[k], g.edgeTarget[g.outEdges[k]]);
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) add('in', g.inEdges[k], g.edgeSource[g.inEdges[k]]);
  return [...groups.values()];
}

type Handlers = { [K in WorkerOp]: (args: WorkerRequests[K]['args']) => WorkerRequests[K]['result'] };

const handlers: Handlers = {
  load({ file }) {
    const t0 = performance.now();
    load = loadGraphFile(file);
    byFile = undefined;
    symbolsByFile = undefined;
    guard = undefined;
    if (!load.ok) return { ok: false, code: load.unavailable.code, reason: load.unavailable.reason };
    const g = load.graph;
    return {
      ok: true,
      nodes: g.nodeCount,
      edges: g.graph.edges.length,
      layers: [...g.graph.layers],
      callsLayer: g.layers.has('calls'),
      loadMs: performance.now() - t0,
    };
  },
  status({ root, file }) {
    let graphText: string | undefined;
    let manifestText: string | undefined;
    try {
      graphText = fs.readFileSync(file, 'utf8');
      manifestText = fs.readFileSync(manifestPathFor(file), 'utf8');
    } catch {
      // graphStatus says which of the two is missing
    }
    try {
      const s = graphStatus(root, { graphText, manifestText });
      return s.available ? { known: true, changedFiles: s.changedFiles } : { known: false, reason: s.reason };
    } catch (e) {
      return { known: false, reason: (e as Error).message };
    }
  },
  query({ request }) {
    if (!load) throw new Error('no graph is loaded in this worker');
    return answerQuery(load, request);
  },
  details({ id }) {
    return details(graph(), id);
  },
  nodes({ ids }) {
    const g = graph();
    return ids.map((id) => {
      const r = g.rankOf.get(id);
      return r === undefined ? undefined : g.nodeAt[r];
    });
  },
  fileSymbols({ file }) {
    const g = graph();
    return (fileIndex(g).get(file) ?? []).map((r) => {
      const n = g.nodeAt[r] as GraphNode;
      return { id: n.id, kind: n.kind, label: n.label, line: n.line as number, column: n.column ?? 1 };
    });
  },
  counts({ ids }) {
    const g = graph();
    return ids.map((id): CallerCounts | undefined => {
      const r = g.rankOf.get(id);
      if (r === undefined || r >= g.nodeCount) return undefined;
      const { proven, guessed } = callerRanks(g, r);
      return { callers: proven.size, candidates: guessed.size };
    });
  },
  neighbourGroups({ id, budget }) {
    return neighbourGroups(graph(), id, budget);
  },
  whyAt({ file, line, column }) {
    const g = graph();
    const n = symbolAt(fileSymbolNodes(g, file), line, column);
    return n ? { id: n.id, answer: queryWhy(g, n.id) } : undefined;
  },
  doctor({ file }) {
    try {
      const report = examineGraph(JSON.parse(fs.readFileSync(file, 'utf8')));
      return { ok: report.ok, text: formatDoctorReport(report, file) };
    } catch (e) {
      return { ok: false, text: `doctor: ${file}: ${isGraphError(e) ? e.message : (e as Error).message}` };
    }
  },
  guard({ file, text, mode }) {
    const g = editorGuard();
    g.setMode(mode);
    const r = g.check(file, text);
    return { diagnostics: r.diagnostics, log: r.log };
  },
  guardWarm() {
    const t0 = performance.now();
    declaredSymbols('kg-warm.ts', 'export function warm(): void {}\n');
    return performance.now() - t0;
  },
  guardHeld() {
    return guard ? guard.held() : restored;
  },
  guardRestore({ held }) {
    if (guard) guard.restoreHeld(held);
    else restored = [...restored, ...held];
    return null;
  },
  guardAccept({ file }) {
    if (guard) guard.accept(file);
    restored = file === undefined ? [] : restored.filter(([f]) => f !== file);
    return null;
  },
};

parentPort?.on('message', (msg: WorkerRequestMessage) => {
  let reply: WorkerReplyMessage;
  try {
    const handler = handlers[msg.op] as (args: unknown) => unknown;
    reply = { seq: msg.seq, ok: true, result: handler(msg.args) };
  } catch (e) {
    reply = { seq: msg.seq, ok: false, error: (e as Error).message ?? String(e) };
  }
  parentPort?.postMessage(reply);
});
