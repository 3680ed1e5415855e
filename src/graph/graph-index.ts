// The graph as the queries, the diff report and the breaking-change guard see it: built once from
// a validated graph.json, then read only. It lives beside the model, not in query/, because the
// diff engine and the guard may not import the queries (ADR 179); query/indexed.ts adds the
// queries' degrade to its refusal.
//
// Every endpoint (node ids, then the targets without a node: `pkg:` symbols of other repositories
// and `unresolved:` names) gets a rank: nodes in sorted id order, then the others in sorted id order. Ids live in a Map, so an id such as
// `sym:a.ts#__proto__` is just a key. Adjacency is stored as compressed rows of typed arrays:
// out-rows (edge indices, by target rank), in-rows (by source rank), and one undirected row of
// distinct neighbour ranks per node — sorted rank order is nodes in id order, then the targets
// without a node in id order, so traversals visit neighbours in that order with no sorting at
// query time. Degrees, a ranking by degree and a trigram
// index of the node ids complete it (ADR-23).

import { compareStrings, isPackageId, isUnresolvedId, type Graph, type GraphNode, type Relation } from './model';

export const CONFIDENCE_CODE = { EXACT: 0, CANDIDATE: 1, UNRESOLVED: 2 } as const;

export interface IndexedGraph {
  readonly graph: Graph;
  readonly layers: ReadonlySet<string>;
  /** Every endpoint: nodes in sorted id order, then targets without a node (`pkg:`, `unresolved:`) in sorted id order. */
  readonly ids: readonly string[];
  /** How many of `ids` are nodes; the rest are `unresolved:` targets. */
  readonly nodeCount: number;
  readonly rankOf: ReadonlyMap<string, number>;
  /** The node at each rank (undefined for `unresolved:` targets). */
  readonly nodeAt: readonly (GraphNode | undefined)[];
  readonly edgeSource: Int32Array;
  readonly edgeTarget: Int32Array;
  readonly edgeRelation: readonly Relation[];
  readonly edgeConfidence: Uint8Array;
  /** Out-edges of rank r: edge indices outEdges[outStart[r] .. outStart[r + 1]), by target rank. */
  readonly outStart: Int32Array;
  readonly outEdges: Int32Array;
  /** In-edges of rank r: inEdges[inStart[r] .. inStart[r + 1]), by source rank. */
  readonly inStart: Int32Array;
  readonly inEdges: Int32Array;
  /** Undirected neighbours of rank r: adj[adjStart[r] .. adjStart[r + 1]), sorted, distinct, never r itself. */
  readonly adjStart: Int32Array;
  readonly adj: Int32Array;
  /** Node ranks whose id holds a trigram hashing to bucket b: gramRanks[gramStart[b] .. gramStart[b + 1]), ascending. */
  readonly gramStart: Int32Array;
  readonly gramRanks: Int32Array;
  /** log2 of the number of trigram buckets (scaled to the graph: small graphs get small tables). */
  readonly gramBits: number;
  /** In + out degree per rank (a self-loop counts twice). */
  readonly degree: Int32Array;
  /** Node ranks (no `unresolved:`) by degree descending, then id. */
  readonly byDegree: Int32Array;
  /** A node whose degree is over this is a hub: max(50, 99th-percentile node degree). */
  readonly hubThreshold: number;
}

const HUB_FLOOR = 50;

const confidenceCode = (c: string): number => CONFIDENCE_CODE[c as keyof typeof CONFIDENCE_CODE];

function describeEdge(graph: Graph, i: number): string {
  const e = graph.edges[i];
  return `edge ${i} (${e.source} -${e.relation}-> ${e.target})`;
}

/**
 * Indexes a graph that already matches the schema. Refuses what the schema cannot express but a
 * query depends on: one node per id, and every edge endpoint a node (or an `unresolved:` target):
 * the refusal is its detail, in words.
 */
export function indexEdges(graph: Graph): { ok: true; graph: IndexedGraph } | { ok: false; detail: string } {
  const bad = (detail: string) => ({ ok: false as const, detail });
  const nodes = graph.nodes;
  const edges = graph.edges;

  // Ranks: node ids in sorted order (a canonical file is sorted already; a hand-edited one may not be).
  let order: GraphNode[] = nodes;
  for (let i = 1; i < nodes.length; i++) {
    if (compareStrings(nodes[i - 1].id, nodes[i].id) >= 0) {
      order = [...nodes].sort((a, b) => compareStrings(a.id, b.id));
      break;
    }
  }
  const rankOf = new Map<string, number>();
  const ids: string[] = new Array(nodes.length);
  for (let r = 0; r < order.length; r++) {
    const id = order[r].id;
    if (r > 0 && ids[r - 1] === id) return bad(`node id "${id}" appears more than once`);
    ids[r] = id;
    rankOf.set(id, r);
  }
  const nodeCount = ids.length;

  // One lookup per endpoint (the costliest step: hashing a million fresh strings). Sources come
  // in runs in a sorted file, so a run reuses its rank. An `unresolved:` target gets a provisional
  // negative number here and its rank (after every node) once they are all known.
  const m = edges.length;
  const edgeSource = new Int32Array(m);
  const edgeTarget = new Int32Array(m);
  const edgeRelation: Relation[] = new Array(m);
  const edgeConfidence = new Uint8Array(m);
  const provisional = new Map<string, number>();
  let lastSource = '';
  let lastSourceRank = -1;
  for (let i = 0; i < m; i++) {
    const e = edges[i];
    let s: number | undefined = lastSourceRank;
    if (e.source !== lastSource || s < 0) {
      s = rankOf.get(e.source);
      if (s === undefined) return bad(`${describeEdge(graph, i)}: its source is not a node`);
      lastSource = e.source;
      lastSourceRank = s;
    }
    let t = rankOf.get(e.target);
    if (t === undefined) {
      // Targets without a node: unresolved names, and package-qualified symbols, which belong to
      // another repository's graph and are referenced, never copied in (ADR 107).
      if (!isUnresolvedId(e.target) && !isPackageId(e.target)) return bad(`${describeEdge(graph, i)}: its target is not a node`);
      t = provisional.get(e.target);
      if (t === undefined) provisional.set(e.target, (t = -1 - provisional.size));
    }
    edgeSource[i] = s;
    edgeTarget[i] = t;
    edgeRelation[i] = e.relation;
    edgeConfidence[i] = confidenceCode(e.confidence);
  }
  if (provisional.size > 0) {
    const final = new Int32Array(provisional.size);
    for (const id of [...provisional.keys()].sort(compareStrings)) {
      final[-1 - (provisional.get(id) as number)] = ids.length;
      rankOf.set(id, ids.length);
      ids.push(id);
    }
    for (let i = 0; i < m; i++) if (edgeTarget[i] < 0) edgeTarget[i] = final[-1 - edgeTarget[i]];
  }
  const n = ids.length;
  const nodeAt: (GraphNode | undefined)[] = new Array(n).fill(undefined);
  for (let r = 0; r < nodeCount; r++) nodeAt[r] = order[r];

  const { outStart, outEdges, inStart, inEdges, degree } = rows(n, edgeSource, edgeTarget);
  const { adjStart, adj } = undirected(n, outStart, outEdges, inStart, inEdges, edgeSource, edgeTarget);
  // The trigram index serves id searches only; built on the first one, not by every load
  // (`kg diff` loads two graphs and searches neither).
  let grams: ReturnType<typeof trigramIndex> | undefined;
  const gramsOf = () => (grams ??= trigramIndex(ids, nodeCount));
  const { byDegree, hubThreshold } = rankByDegree(degree, nodeCount);
  return {
    ok: true,
    graph: {
      graph,
      layers: new Set(graph.layers),
      ids,
      nodeCount,
      rankOf,
      nodeAt,
      edgeSource,
      edgeTarget,
      edgeRelation,
      edgeConfidence,
      outStart,
      outEdges,
      inStart,
      inEdges,
      adjStart,
      adj,
      get gramStart() {
        return gramsOf().gramStart;
      },
      get gramRanks() {
        return gramsOf().gramRanks;
      },
      get gramBits() {
        return gramsOf().gramBits;
      },
      degree,
      byDegree,
      hubThreshold,
    },
  };
}

/**
 * The out-rows and in-rows of `n` ranks over the edges' ends, and each rank's degree. Filling rows
 * in (source, target) order leaves out-rows sorted by target and in-rows by source.
 */
function rows(
  n: number,
  edgeSource: Int32Array,
  edgeTarget: Int32Array,
): { outStart: Int32Array; outEdges: Int32Array; inStart: Int32Array; inEdges: Int32Array; degree: Int32Array } {
  const m = edgeSource.length;
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  let sorted = true;
  for (let i = 0; i < m; i++) {
    const s = edgeSource[i];
    const t = edgeTarget[i];
    outStart[s + 1]++;
    inStart[t + 1]++;
    if (i > 0 && (edgeSource[i - 1] > s || (edgeSource[i - 1] === s && edgeTarget[i - 1] > t))) sorted = false;
  }
  for (let r = 0; r < n; r++) {
    outStart[r + 1] += outStart[r];
    inStart[r + 1] += inStart[r];
  }
  const degree = new Int32Array(n);
  for (let r = 0; r < n; r++) degree[r] = outStart[r + 1] - outStart[r] + (inStart[r + 1] - inStart[r]);

  let visit: Int32Array | undefined;
  if (!sorted) {
    visit = new Int32Array(m);
    for (let i = 0; i < m; i++) visit[i] = i;
    visit.sort((a, b) => edgeSource[a] - edgeSource[b] || edgeTarget[a] - edgeTarget[b] || a - b);
  }
  const outEdges = new Int32Array(m);
  const inEdges = new Int32Array(m);
  const outFill = outStart.slice(0, n);
  const inFill = inStart.slice(0, n);
  for (let k = 0; k < m; k++) {
    const i = visit ? visit[k] : k;
    outEdges[outFill[edgeSource[i]]++] = i;
    inEdges[inFill[edgeTarget[i]]++] = i;
  }

  return { outStart, outEdges, inStart, inEdges, degree };
}

/** Merges each node's two sorted rows into one sorted row of distinct neighbours (self-loops dropped). */
function undirected(
  n: number,
  outStart: Int32Array,
  outEdges: Int32Array,
  inStart: Int32Array,
  inEdges: Int32Array,
  edgeSource: Int32Array,
  edgeTarget: Int32Array,
): { adjStart: Int32Array; adj: Int32Array } {
  const adjStart = new Int32Array(n + 1);
  let adj = new Int32Array(0);
  // The same merge twice: the first pass counts each row, the second writes it.
  for (let pass = 0; pass < 2; pass++) {
    for (let r = 0; r < n; r++) {
      let w = adjStart[r];
      let o = outStart[r];
      const oEnd = outStart[r + 1];
      let i = inStart[r];
      const iEnd = inStart[r + 1];
      let last = -1;
      while (o < oEnd || i < iEnd) {
        const a = o < oEnd ? edgeTarget[outEdges[o]] : 0x7fffffff;
        const b = i < iEnd ? edgeSource[inEdges[i]] : 0x7fffffff;
        const v = a <= b ? a : b;
        if (a <= b) o++;
        else i++;
        if (v === last || v === r) continue;
        last = v;
        if (pass === 1) adj[w] = v;
        w++;
      }
      if (pass === 0) adjStart[r + 1] = w;
    }
    if (pass === 0) adj = new Int32Array(adjStart[n]);
  }
  return { adjStart, adj };
}

/** The bucket of a trigram among 2^bits: collisions only cost a few extra candidates, which are checked anyway. */
export function gramBucket(a: number, b: number, c: number, bits: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) >>> (32 - bits);
}

/**
 * For `query`: which node ids contain each trigram (by hash bucket). A substring of three or more
 * characters can only occur in ids that hold all its trigrams, so the query checks the ids of its
 * rarest trigram instead of every id.
 */
function trigramIndex(ids: readonly string[], nodeCount: number): { gramStart: Int32Array; gramRanks: Int32Array; gramBits: number } {
  let chars = 0;
  for (let r = 0; r < nodeCount; r++) chars += ids[r].length;
  // About one bucket per 8 trigrams, between 2^10 and 2^20 buckets.
  const gramBits = Math.min(20, Math.max(10, Math.ceil(Math.log2(chars / 8 + 1))));
  const buckets = 1 << gramBits;
  const gramStart = new Int32Array(buckets + 1);
  const lastRank = new Int32Array(buckets).fill(-1);
  // Two passes over the same trigrams: the first counts each bucket, the second writes it.
  let gramRanks = new Int32Array(0);
  let fill = gramStart;
  for (let pass = 0; pass < 2; pass++) {
    for (let r = 0; r < nodeCount; r++) {
      const id = ids[r];
      for (let k = 2; k < id.length; k++) {
        const h = gramBucket(id.charCodeAt(k - 2), id.charCodeAt(k - 1), id.charCodeAt(k), gramBits);
        if (lastRank[h] === r) continue;
        lastRank[h] = r;
        if (pass === 0) gramStart[h + 1]++;
        else gramRanks[fill[h]++] = r;
      }
    }
    if (pass === 0) {
      for (let h = 0; h < buckets; h++) gramStart[h + 1] += gramStart[h];
      gramRanks = new Int32Array(gramStart[buckets]);
      fill = gramStart.slice(0, buckets);
      lastRank.fill(-1);
    }
  }
  return { gramStart, gramRanks, gramBits };
}

/**
 * A counting sort of the nodes by degree (descending, ties by rank, i.e. by id), and the hub
 * threshold: the nearest-rank 99th percentile of node degrees, floored at HUB_FLOOR.
 */
function rankByDegree(degree: Int32Array, nodeCount: number): { byDegree: Int32Array; hubThreshold: number } {
  let max = 0;
  for (let r = 0; r < nodeCount; r++) if (degree[r] > max) max = degree[r];
  const count = new Int32Array(max + 2);
  for (let r = 0; r < nodeCount; r++) count[degree[r]]++;
  // The p99 by nearest rank: the smallest degree d with at least ceil(0.99 n) nodes at or below d.
  let p99 = 0;
  if (nodeCount > 0) {
    const need = Math.ceil(0.99 * nodeCount);
    let seen = 0;
    for (let d = 0; d <= max; d++) {
      seen += count[d];
      if (seen >= need) {
        p99 = d;
        break;
      }
    }
  }
  // Start offsets for descending degree.
  const start = new Int32Array(max + 2);
  let acc = 0;
  for (let d = max; d >= 0; d--) {
    start[d] = acc;
    acc += count[d];
  }
  const byDegree = new Int32Array(nodeCount);
  for (let r = 0; r < nodeCount; r++) byDegree[start[degree[r]]++] = r;
  return { byDegree, hubThreshold: Math.max(HUB_FLOOR, p99) };
}

export function isHub(g: IndexedGraph, r: number): boolean {
  return g.degree[r] > g.hubThreshold;
}

/** A rank that is an edge target without a node: an `unresolved:` name or a `pkg:` symbol (ADR 107). */
export function isUnresolvedRank(g: IndexedGraph, r: number): boolean {
  return r >= g.nodeCount;
}

/** A package-qualified symbol: not a node, but a symbol that callers and impact can be asked about (ADR 107). */
export function isPackageRank(g: IndexedGraph, r: number): boolean {
  return r >= g.nodeCount && isPackageId(g.ids[r]);
}

/** The node with this id, for labels and source positions (undefined for unknown ids and `unresolved:` names). */
export function nodeOf(g: IndexedGraph, id: string): GraphNode | undefined {
  const r = g.rankOf.get(id);
  return r === undefined ? undefined : g.nodeAt[r];
}

/**
 * The symbol that contains rank `r` (a method's class): the source of a `contains` edge from a
 * symbol into it, -1 when there is none. The diff folds members into their class by it, the guard
 * folds a removed member into its removed class.
 */
export function parentRank(g: IndexedGraph, r: number): number {
  let parent = -1;
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] === 'contains' && g.ids[g.edgeSource[e]].startsWith('sym:')) parent = g.edgeSource[e];
  }
  return parent;
}

const symbolFiles = new WeakMap<IndexedGraph, ReadonlyMap<string, readonly number[]>>();

/** The symbols (`sym:` nodes with a source file) each file declares, ranks in id order: built once per graph. */
export function symbolsByFile(g: IndexedGraph): ReadonlyMap<string, readonly number[]> {
  let byFile = symbolFiles.get(g);
  if (byFile) return byFile;
  const out = new Map<string, number[]>();
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r] as GraphNode;
    if (!n.id.startsWith('sym:') || n.sourceFile === undefined) continue;
    const list = out.get(n.sourceFile);
    if (list) list.push(r);
    else out.set(n.sourceFile, [r]);
  }
  symbolFiles.set(g, (byFile = out));
  return byFile;
}
