// The questions about one node that a details pane, a lens and an agent ask: who calls it (with
// where each call was seen), what it calls (unplaced calls with their reasons), and who cites it.
// Callers are decided by callers.ts's `callerEdges`, so every count here is the `callers` query's.

import { USE_RELATIONS } from '../consumers';
import type { GraphNode } from '../model';
import { CALLS, callerEdges, dispatchVias, inbound } from './callers';
import { isPackageRank, type IndexedGraph } from './indexed';
import type { CallSite } from './shapes';
import { holesOf, shortUnanalysed } from './unanalysed';

/** Confidence codes of the index (indexed.ts CONFIDENCE_CODE), by code. */
const CONFIDENCE = ['EXACT', 'CANDIDATE', 'UNRESOLVED'] as const;

/** Everything a details pane shows for one node. */
export interface NodeDetails {
  node: GraphNode;
  /** In + out degree over all relations. */
  degree: number;
  /** Proven callers (EXACT calls edges into the node). */
  callers: CallSite[];
  /** Name-match guesses (CANDIDATE calls edges into the node), not among the proven callers. */
  candidates: CallSite[];
  /**
   * Proven callers of the members the node implements or overrides (ADR 151): who may run it
   * through dispatch, kept apart from its own callers. One entry per member, in id order.
   */
  dispatched: Array<{ via: string; relation: string; callers: CallSite[] }>;
  /** Calls out of the node: EXACT and CANDIDATE to nodes, UNRESOLVED with their reasons. */
  callees: CallSite[];
  /** Nodes with a `cites` edge to this node or to its file (decision records, rationale). */
  citedBy: string[];
}

/** Proven callers and guesses, counted exactly as `kg callers` lists them. */
export interface CallerCounts {
  callers: number;
  candidates: number;
  /**
   * Callers that reach the node only through a member it implements or overrides (ADR 151):
   * distinct, none of them a proven caller of its own, and the labels of the members they call.
   * Absent when there are none.
   */
  through?: { callers: number; via: string[] };
  /**
   * Symbols and files that use it without calling it, proven (ADR 151's references, re-exports,
   * subclasses; `USE_RELATIONS`), none of them a proven caller. Absent when there are none.
   */
  referrers?: number;
  /** Files the graph does not read that may call it, in a lens's words ("2 .vue files not analysed", ADR 153). */
  unanalysed?: string;
  /** Why, for the lens's tooltip. */
  unanalysedReason?: string;
  /** Calls nothing placed that carry its name ("+2 unresolved calls named `stop` (any-receiver)", ADR 153). */
  unresolvedNamed?: string;
}

/** Edge `e` seen from its other end `other`. */
function callSite(g: IndexedGraph, other: number, e: number): CallSite {
  const edge = g.graph.edges[e];
  const s: CallSite = { id: g.ids[other], confidence: CONFIDENCE[g.edgeConfidence[e]] };
  if (edge.evidence) s.evidence = edge.evidence;
  if (edge.reason) {
    s.reason = edge.reason;
    s.name = g.ids[other].replace(/^unresolved:/, '');
  }
  return s;
}

/** The rank of a node id (not an `unresolved:` name), or undefined. */
function nodeRank(g: IndexedGraph, id: string): number | undefined {
  const r = g.rankOf.get(id);
  return r === undefined || r >= g.nodeCount ? undefined : r;
}

/** The callers of rank `r` as call sites: proven, then guessed. */
export function callerSites(g: IndexedGraph, r: number): { callers: CallSite[]; candidates: CallSite[] } {
  const { proven, guessed } = callerEdges(g, r);
  return {
    callers: proven.map((e) => callSite(g, g.edgeSource[e], e)),
    candidates: guessed.map((e) => callSite(g, g.edgeSource[e], e)),
  };
}

/** Every `calls` edge out of rank `r`, by target id. */
export function calleeSites(g: IndexedGraph, r: number): CallSite[] {
  const out: CallSite[] = [];
  for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
    const e = g.outEdges[k];
    if (g.edgeRelation[e] === 'calls') out.push(callSite(g, g.edgeTarget[e], e));
  }
  return out;
}

export function nodeDetails(g: IndexedGraph, id: string): NodeDetails | undefined {
  const r = nodeRank(g, id);
  if (r === undefined) return undefined;
  const node = g.nodeAt[r] as GraphNode;
  const citedBy = new Set<string>();
  const fileRank = node.sourceFile ? g.rankOf.get(`file:${node.sourceFile}`) : undefined;
  for (const t of fileRank === undefined || fileRank === r ? [r] : [r, fileRank]) {
    for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
      const e = g.inEdges[k];
      if (g.edgeRelation[e] === 'cites') citedBy.add(g.ids[g.edgeSource[e]]);
    }
  }
  const dispatched = dispatchVias(g, r).map(({ rank, relation }) => ({
    via: g.ids[rank],
    relation,
    callers: callerSites(g, rank).callers,
  }));
  return { node, degree: g.degree[r], ...callerSites(g, r), dispatched, callees: calleeSites(g, r), citedBy: [...citedBy].sort() };
}

/** Caller counts per id (undefined for an id that is not a node): what a callers lens says. */
export function callerCounts(g: IndexedGraph, ids: readonly string[]): Array<CallerCounts | undefined> {
  return ids.map((id) => {
    // A package-qualified target is counted as `callers` counts it (ADR 109): the lenses of a package's source (ADR 124).
    const p = g.rankOf.get(id);
    const r = p !== undefined && isPackageRank(g, p) ? p : nodeRank(g, id);
    if (r === undefined) return undefined;
    const { proven, guessed } = callerEdges(g, r);
    const counts: CallerCounts = { callers: proven.length, candidates: guessed.length };
    const own = new Set(proven.map((e) => g.edgeSource[e]));
    const through = new Set<number>();
    const via: string[] = [];
    for (const { rank } of dispatchVias(g, r)) {
      const { proven: reached } = inbound(g, rank, CALLS, true);
      // Its own `super.m()` reaches the member it overrides: not a caller of itself by dispatch.
      const fresh = reached.filter((s) => s !== r && !own.has(s));
      if (fresh.length === 0) continue;
      for (const s of fresh) through.add(s);
      via.push(g.nodeAt[rank]?.label ?? g.ids[rank]);
    }
    if (through.size > 0) counts.through = { callers: through.size, via };
    const referrers = usesApart(g, r, own);
    if (referrers > 0) counts.referrers = referrers;
    const holes = holesOf(g, r);
    if (holes.unanalysed) {
      counts.unanalysed = shortUnanalysed(holes.unanalysed);
      counts.unanalysedReason = holes.unanalysed.reason;
    }
    if (holes.unresolvedNamed) counts.unresolvedNamed = holes.unresolvedNamed.summary;
    return counts;
  });
}

/**
 * How many symbols and files use rank `r` without calling it (`USE_RELATIONS`), none of them a
 * proven caller in `own`. A file's own edge (its named import or re-export) counts only when none
 * of its symbols calls or uses the node: otherwise the import is how they do, and counting the
 * file too would say "1 referrer" over every imported function.
 */
function usesApart(g: IndexedGraph, r: number, own: ReadonlySet<number>): number {
  const users = inbound(g, r, USE_RELATIONS, false).proven.filter((s) => !own.has(s));
  const symbolFiles = new Set<string>();
  for (const s of [...own, ...users]) {
    const n = g.nodeAt[s];
    if (n && n.kind !== 'file' && n.sourceFile !== undefined) symbolFiles.add(n.sourceFile);
  }
  const counted = new Set<number>();
  for (const s of users) {
    const n = g.nodeAt[s];
    if (n?.kind === 'file' && n.sourceFile !== undefined && symbolFiles.has(n.sourceFile)) continue;
    counted.add(s);
  }
  return counted.size;
}

/** The nodes with these ids, in order (undefined where there is none). */
export function nodesByIds(g: IndexedGraph, ids: readonly string[]): Array<GraphNode | undefined> {
  return ids.map((id) => {
    const r = g.rankOf.get(id);
    return r === undefined ? undefined : g.nodeAt[r];
  });
}

/** One group of a node's neighbours: one relation, one direction. */
export interface NeighbourGroup {
  relation: string;
  direction: 'in' | 'out';
  /** At most the budget asked for: proven first, then guesses, then unplaced names, each in id order. */
  items: CallSite[];
  /** How many there are in all (more than `items.length` when the budget cut them). */
  total: number;
  /** How many of `total` are EXACT (proven): the God Nodes view says "40 of 473 · 420 proven" (ADR 91). */
  proven: number;
}

/** A node's edges grouped by relation and direction, each group cut at `budget` items. */
export function neighbourGroups(g: IndexedGraph, id: string, budget: number): NeighbourGroup[] {
  const r = g.rankOf.get(id);
  if (r === undefined) return [];
  const groups = new Map<string, { relation: string; direction: 'in' | 'out'; edges: Array<[number, number]> }>();
  const add = (direction: 'in' | 'out', e: number, other: number) => {
    const relation = g.edgeRelation[e];
    const key = `${relation}\u0000${direction}`;
    let grp = groups.get(key);
    if (!grp) groups.set(key, (grp = { relation, direction, edges: [] }));
    grp.edges.push([e, other]);
  };
  for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) add('out', g.outEdges[k], g.edgeTarget[g.outEdges[k]]);
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) add('in', g.inEdges[k], g.edgeSource[g.inEdges[k]]);
  return [...groups.values()].map(({ relation, direction, edges }) => {
    // Proof before guesses: a stable sort on the confidence code keeps id order within each tier.
    const ordered = [...edges].sort((a, b) => g.edgeConfidence[a[0]] - g.edgeConfidence[b[0]]);
    return {
      relation,
      direction,
      items: ordered.slice(0, budget).map(([e, other]) => callSite(g, other, e)),
      total: edges.length,
      proven: edges.filter(([e]) => g.edgeConfidence[e] === 0).length,
    };
  });
}
