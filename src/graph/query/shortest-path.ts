// `path <from> <to>`: how `from` reaches `to`. First a chain of proven calls in the direction
// asked — `from` calls … calls `to`, EXACT `calls` edges only, followed source to target — and
// only when there is none, a shortest path on the undirected view of all the edges, answered as
// what it is: `directed: false` and a note that says it is not a call chain (ADR 161). A guess
// (CANDIDATE) is never a link of a chain, a reference (a function passed, a type named) is a use
// and not a run, and dispatch through an interface is not followed: the chain is what the checker
// proved runs. Among several shortest paths of either kind, the lexicographically smallest
// (compared id by id from `from`) — what a breadth-first search visiting neighbours in sorted id
// order returns — so the same graph always gives the same path. Not connected is a real answer:
// `[]`.
//
// Hubs are walked through — a path is about connection, and the shortest one often runs through a
// hub — but `unresolved:` targets are not: every unplaced call to `foo` shares `unresolved:foo`,
// so a path through it would connect code that only shares a name. It can still be an endpoint.
// The rules are ADR-22's.

import { CONFIDENCE_CODE, edgeRef, isUnresolvedRank, type IndexedGraph } from './indexed';
import { rankOrDegrade } from './lookup';
import { answered, type EdgeRef, type PathResult, type QueryOptions } from './shapes';

/**
 * What a path answer says besides the path: whether it is a chain of proven calls from `from` to
 * `to`, and when it is not, a note that says so. The store's path (src/graph/store/queries.ts)
 * says the same words.
 */
export function pathVerdict(
  from: string,
  to: string,
  path: readonly string[],
  directed: boolean,
  asked: 'directed' | 'undirected',
): { directed: boolean; note?: string } {
  if (directed) return { directed };
  if (asked === 'undirected')
    return {
      directed,
      note:
        path.length === 0
          ? `${from} and ${to} are not connected, in either direction`
          : `edges in either direction, as asked (undirected): not a call chain; each hop's edge says which way it goes`,
    };
  return {
    directed,
    note:
      path.length === 0
        ? `no chain of proven calls from ${from} to ${to}, and they are not connected in either direction`
        : `no chain of proven calls from ${from} to ${to}; connected by ${path.length - 1} hop(s) with edges taken in either direction: not a call chain (each hop's edge says which way it goes)`,
  };
}

export function queryPath(g: IndexedGraph, from: string, to: string, undirected = false, opts?: QueryOptions): PathResult {
  const a = rankOrDegrade(g, from, opts, true);
  if (typeof a !== 'number') return a;
  const b = rankOrDegrade(g, to, opts, true);
  if (typeof b !== 'number') return b;
  const chain = undirected ? [] : callChain(g, a, b);
  const directed = chain.length > 0;
  const ranks = directed ? chain : shortestPath(g, a, b);
  const edges: EdgeRef[] = [];
  for (let i = 1; i < ranks.length; i++)
    edges.push(edgeRef(g, directed ? callEdge(g, ranks[i - 1], ranks[i]) : hopEdge(g, ranks[i - 1], ranks[i])));
  const path = ranks.map((r) => g.ids[r]);
  return answered({ path, edges, ...pathVerdict(g.ids[a], g.ids[b], path, directed, undirected ? 'undirected' : 'directed') }, opts);
}

/** Whether edge e is a link of a call chain: a proven call. */
const provenCall = (g: IndexedGraph, e: number): boolean => g.edgeRelation[e] === 'calls' && g.edgeConfidence[e] === CONFIDENCE_CODE.EXACT;

/**
 * Ranks along the lexicographically smallest shortest chain of proven calls from `a` to `b`, or []
 * when there is none. Distances to `b` are labelled walking calls backwards from `b` (until `a` is
 * reached), then the chain is walked from `a`, taking at each step the smallest-id callee one
 * step nearer. A node is its own chain of length 0.
 */
function callChain(g: IndexedGraph, a: number, b: number): number[] {
  if (a === b) return [a];
  const dist = new Map<number, number>([[b, 0]]);
  let level = [b];
  for (let d = 1; level.length > 0 && !dist.has(a); d++) {
    const next: number[] = [];
    for (const v of level) {
      for (let k = g.inStart[v]; k < g.inStart[v + 1]; k++) {
        const e = g.inEdges[k];
        const u = g.edgeSource[e];
        if (!dist.has(u) && provenCall(g, e)) {
          dist.set(u, d);
          next.push(u);
        }
      }
    }
    level = next;
  }
  const total = dist.get(a);
  if (total === undefined) return [];
  const path = [a];
  for (let u = a, d = total - 1; d >= 0; d--) {
    // Out-rows are by target rank (sorted id order): the first callee one step nearer is the smallest.
    for (let k = g.outStart[u]; k < g.outStart[u + 1]; k++) {
      const e = g.outEdges[k];
      if (provenCall(g, e) && dist.get(g.edgeTarget[e]) === d) {
        u = g.edgeTarget[e];
        break;
      }
    }
    path.push(u);
  }
  return path;
}

/** The proven calls edge u→v of a chain's hop. */
function callEdge(g: IndexedGraph, u: number, v: number): number {
  for (let k = g.outStart[u]; k < g.outStart[u + 1]; k++)
    if (g.edgeTarget[g.outEdges[k]] === v && provenCall(g, g.outEdges[k])) return g.outEdges[k];
  throw new Error(`no proven call from ${g.ids[u]} to ${g.ids[v]}`);
}

/** One side of the search: labels (valid where `mark` equals `gen`), distances, and a queue by level. */
interface Side {
  origin: number;
  gen: number;
  mark: Int32Array;
  dist: Int32Array;
  queue: Int32Array;
  tail: number;
  /** levels[d] is where the nodes at distance d start in `queue`. */
  levels: number[];
}

/**
 * Work arrays, allocated once per graph and reused: each search stamps what it touches with a
 * fresh number instead of clearing (a query allocates nothing in proportion to the graph).
 */
class Scratch {
  private stamp = 0;
  readonly forward: Side;
  readonly backward: Side;
  readonly sMark: Int32Array;
  readonly sLayer: Int32Array;
  sGen = 0;
  constructor(n: number) {
    const side = (): Side => ({
      origin: -1,
      gen: 0,
      mark: new Int32Array(n),
      dist: new Int32Array(n),
      queue: new Int32Array(n),
      tail: 0,
      levels: [],
    });
    this.forward = side();
    this.backward = side();
    this.sMark = new Int32Array(n);
    this.sLayer = new Int32Array(n);
  }
  next(): number {
    if (this.stamp === 0x7fffffff) {
      for (const a of [this.forward.mark, this.backward.mark, this.sMark]) a.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
  start(side: Side, origin: number): void {
    side.origin = origin;
    side.gen = this.next();
    side.mark[origin] = side.gen;
    side.dist[origin] = 0;
    side.queue[0] = origin;
    side.tail = 1;
    side.levels = [0];
  }
}

const scratches = new WeakMap<IndexedGraph, Scratch>();

function scratchFor(g: IndexedGraph): Scratch {
  let s = scratches.get(g);
  if (!s) scratches.set(g, (s = new Scratch(g.ids.length)));
  return s;
}

/** A node that may sit inside a path: anything but an unresolved name (which may only be an end). */
function passable(g: IndexedGraph, v: number, a: number, b: number): boolean {
  return v === a || v === b || !isUnresolvedRank(g, v);
}

/** The sum of the degrees of a side's last level: what expanding it will cost. */
function frontierCost(g: IndexedGraph, side: Side): number {
  let cost = 0;
  for (let q = side.levels[side.levels.length - 1]; q < side.tail; q++) cost += g.adjStart[side.queue[q] + 1] - g.adjStart[side.queue[q]];
  return cost;
}

/** Expands the last level of `side`; returns the shortest a–b length found through it, or Infinity. */
function expand(g: IndexedGraph, side: Side, other: Side, a: number, b: number): number {
  const { adjStart, adj } = g;
  const depth = side.levels.length - 1;
  const end = side.tail;
  side.levels.push(end);
  let best = Infinity;
  for (let q = side.levels[depth]; q < end; q++) {
    const u = side.queue[q];
    if (u !== side.origin && !passable(g, u, a, b)) continue;
    for (let k = adjStart[u]; k < adjStart[u + 1]; k++) {
      const v = adj[k];
      if (other.mark[v] === other.gen && passable(g, v, a, b)) best = Math.min(best, depth + 1 + other.dist[v]);
      if (side.mark[v] !== side.gen) {
        side.mark[v] = side.gen;
        side.dist[v] = depth + 1;
        side.queue[side.tail++] = v;
      }
    }
  }
  return best;
}

/**
 * Ranks along the lexicographically smallest shortest path from `a` to `b`, or [] when none.
 *
 * A breadth-first search from both ends, a whole level at a time on the cheaper side, finds the
 * length d (the first level that meets the other side gives it). The nodes that lie on some
 * shortest path are then marked layer by layer, outwards from a layer both searches labelled;
 * finally the path is walked from `a`, taking at each step the smallest-id neighbour one layer on.
 */
function shortestPath(g: IndexedGraph, a: number, b: number): number[] {
  if (a === b) return [a];
  const s = scratchFor(g);
  const F = s.forward;
  const B = s.backward;
  s.start(F, a);
  s.start(B, b);
  let d = Infinity;
  while (d === Infinity) {
    const fOpen = F.tail > F.levels[F.levels.length - 1];
    const bOpen = B.tail > B.levels[B.levels.length - 1];
    if (!fOpen || !bOpen) return [];
    d = frontierCost(g, F) <= frontierCost(g, B) ? expand(g, F, B, a, b) : expand(g, B, F, a, b);
  }

  // Layer m is labelled by both searches: m ≤ (forward depth) and d − m ≤ (backward depth).
  const fDepth = F.levels.length - 1;
  const m = Math.min(fDepth, d);
  s.sGen = s.next();
  const layers: number[][] = Array.from({ length: d + 1 }, () => []);
  const add = (v: number, k: number) => {
    s.sMark[v] = s.sGen;
    s.sLayer[v] = k;
    layers[k].push(v);
  };
  for (let q = F.levels[m]; q < (m + 1 < F.levels.length ? F.levels[m + 1] : F.tail); q++) {
    const v = F.queue[q];
    if (B.mark[v] === B.gen && B.dist[v] === d - m && passable(g, v, a, b)) add(v, m);
  }
  const inS = (v: number) => s.sMark[v] === s.sGen;
  for (let k = m - 1; k >= 0; k--) {
    for (const v of layers[k + 1]) {
      for (let e = g.adjStart[v]; e < g.adjStart[v + 1]; e++) {
        const u = g.adj[e];
        if (!inS(u) && F.mark[u] === F.gen && F.dist[u] === k && passable(g, u, a, b)) add(u, k);
      }
    }
  }
  for (let k = m + 1; k <= d; k++) {
    for (const u of layers[k - 1]) {
      for (let e = g.adjStart[u]; e < g.adjStart[u + 1]; e++) {
        const w = g.adj[e];
        if (!inS(w) && B.mark[w] === B.gen && B.dist[w] === d - k && passable(g, w, a, b)) add(w, k);
      }
    }
  }

  const path = [a];
  for (let k = 1, u = a; k <= d; k++) {
    for (let e = g.adjStart[u]; e < g.adjStart[u + 1]; e++) {
      const v = g.adj[e];
      if (inS(v) && s.sLayer[v] === k) {
        u = v;
        break;
      }
    }
    path.push(u);
  }
  return path;
}

/** The edge that stands for the hop u–v: the strongest confidence, then u→v before v→u, then relation name. */
function hopEdge(g: IndexedGraph, u: number, v: number): number {
  let best = -1;
  let bestKey = '';
  const consider = (e: number, forward: boolean) => {
    const key = `${g.edgeConfidence[e]}${forward ? 0 : 1}${g.edgeRelation[e]}`;
    if (best === -1 || key < bestKey) {
      best = e;
      bestKey = key;
    }
  };
  for (let k = g.outStart[u]; k < g.outStart[u + 1]; k++) if (g.edgeTarget[g.outEdges[k]] === v) consider(g.outEdges[k], true);
  for (let k = g.inStart[u]; k < g.inStart[u + 1]; k++) if (g.edgeSource[g.inEdges[k]] === v) consider(g.inEdges[k], false);
  return best;
}
