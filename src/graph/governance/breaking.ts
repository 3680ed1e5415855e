// The breaking-change guard's comparison (ADR-72): a graph as it was built, and the symbols a file
// declares now → what an edit removed, renamed, unexported or changed the signature of, for each
// symbol that has EXACT consumers in other files, with those consumers and where they use it.
// Pure and synchronous: the editor runs it on every keystroke (after declaredSymbols), `kg check`
// on every file of the working tree that holds a guarded symbol.

import { CONSUMER_RELATIONS } from '../consumers';
import { CONFIDENCE_CODE, indexEdges, parentRank, symbolsByFile, type IndexedGraph } from '../graph-index';
import type { Graph, GraphEdge, GraphNode } from '../model';
import { compareStrings, UNRESOLVED_PREFIX } from '../model';
import { breaks, compareConsumers } from '../diff/consumed';
import type { Consumer, DiffBody } from '../diff/report-shape';

/** One place that depends on a guarded symbol. */
export interface ConsumerSite {
  /** The consuming node: a symbol, or a file for top-level code. */
  id: string;
  relation: string;
  /** Where it uses the symbol (the call site, the `extends` clause), repository-relative. */
  file: string;
  line: number;
  column: number;
}

type BreakingChangeKind = 'removed' | 'renamed' | 'unexported' | 'signature-changed';

export interface BreakingChange {
  symbol: string;
  label: string;
  kind: string;
  change: BreakingChangeKind;
  /** The symbol's file, and where it was declared when the graph was built. */
  file: string;
  line: number;
  column: number;
  /** Where it is declared now (absent when removed or renamed). */
  now?: { line: number; column: number };
  /** For `renamed`: the new symbol with the same kind and signature that appeared in the file. */
  renamedTo?: string;
  /** EXACT consumers in other files, by file, line, column, id. */
  consumers: ConsumerSite[];
}

/** A symbol as a file declares it now: what declaredSymbols returns (src/graph/indexer/compiler/declared-signature.ts). */
export interface CurrentSymbol {
  id: string;
  kind: string;
  label?: string;
  line: number;
  column: number;
  exported: boolean;
  signature: string;
  parent?: string;
}

/** A guarded symbol as the graph recorded it, with its consumers in other files. */
export interface Guarded {
  node: GraphNode;
  consumers: ConsumerSite[];
}

/** What the comparison needs from a graph, indexed once per graph load (not per keystroke). */
export interface GuardIndex {
  /** Files with at least one guarded symbol → those symbols, sorted by id. */
  readonly guarded: ReadonlyMap<string, readonly Guarded[]>;
  /** Every symbol id a file declared when the graph was built (to tell a rename from an addition). */
  readonly declared: ReadonlyMap<string, ReadonlySet<string>>;
  /** A symbol → the symbol containing it (a method → its class). */
  readonly parent: ReadonlyMap<string, string>;
  /** False for a graph written before signatures were recorded: only removals can be told. */
  readonly signatures: boolean;
  /** False without the calls layer (an --extract-only build): consumers would be missing. */
  readonly calls: boolean;
}

const compareSites = compareConsumers;

/**
 * The guard's index of a graph, read from the graph's own index (src/graph/graph-index.ts: each
 * symbol's in-edges, the symbols by file, each one's parent; ADR 179) rather than indexing it
 * again. Takes the graph as loaded (already indexed), or a graph as built (indexed here).
 */
export function buildGuardIndex(graph: Graph | IndexedGraph): GuardIndex {
  const g = indexedOf(graph);
  const declared = new Map<string, Set<string>>();
  let signatures = false;
  for (const [file, ranks] of symbolsByFile(g)) {
    declared.set(file, new Set(ranks.map((r) => g.ids[r])));
    if (!signatures) signatures = ranks.some((r) => (g.nodeAt[r] as GraphNode).signature !== undefined);
  }
  const parent = new Map<string, string>();
  const guarded = new Map<string, Guarded[]>();
  for (let r = 0; r < g.nodeCount; r++) {
    const node = g.nodeAt[r] as GraphNode;
    if (!node.id.startsWith('sym:')) continue;
    const up = parentRank(g, r);
    if (up >= 0) parent.set(node.id, g.ids[up]);
    const consumers = consumerSites(g, r, node);
    if (consumers.length === 0) continue;
    const entry = { node, consumers: consumers.sort(compareSites) };
    const list = guarded.get(node.sourceFile as string);
    if (list) list.push(entry);
    else guarded.set(node.sourceFile as string, [entry]);
  }
  return { guarded, declared, parent, signatures, calls: g.layers.has('calls') };
}

function indexedOf(graph: Graph | IndexedGraph): IndexedGraph {
  if ('rankOf' in graph) return graph;
  const r = indexEdges(graph);
  if (!r.ok) throw new Error(`the graph cannot be indexed: ${r.detail}`);
  return r.graph;
}

/** The EXACT consumers of symbol rank `r` in other files (those in its own file change with the edit: the compiler shows them). */
function consumerSites(g: IndexedGraph, r: number, target: GraphNode): ConsumerSite[] {
  const sites: ConsumerSite[] = [];
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    const relation = g.edgeRelation[e];
    if (g.edgeConfidence[e] !== CONFIDENCE_CODE.EXACT || !CONSUMER_RELATIONS.has(relation)) continue;
    const evidence = g.graph.edges[e].evidence;
    const source = g.ids[g.edgeSource[e]];
    const file = evidence?.file ?? g.nodeAt[g.edgeSource[e]]?.sourceFile;
    if (file === undefined || file === target.sourceFile) continue;
    sites.push({ id: source, relation, file, line: evidence?.line ?? 1, column: evidence?.column ?? 1 });
  }
  return sites;
}

/**
 * The index with the baseline of some symbols of `file` replaced: each entry's recorded
 * signature and export stand in for what the index holds, and a symbol the index no longer has
 * (removed, then re-indexed) is guarded again with the entry's consumers. The editor uses it to
 * keep a breaking change visible after autoIndex rebuilt the graph from the breaking edit
 * (src/graph/governance/editor-guard.ts).
 */
export function withBaseline(index: GuardIndex, file: string, entries: readonly Guarded[]): GuardIndex {
  if (entries.length === 0) return index;
  const list = new Map((index.guarded.get(file) ?? []).map((g) => [g.node.id, g]));
  for (const old of entries) {
    const current = list.get(old.node.id);
    const node: GraphNode = { ...(current?.node ?? old.node), signature: old.node.signature };
    if (old.node.exported === true) node.exported = true;
    else delete node.exported;
    list.set(old.node.id, { node, consumers: current?.consumers ?? old.consumers });
  }
  const guarded = new Map(index.guarded);
  guarded.set(
    file,
    [...list.values()].sort((a, b) => compareStrings(a.node.id, b.node.id)),
  );
  return { ...index, guarded };
}

/** Files whose edits the guard compares (the others have no symbol with consumers elsewhere), sorted. */
export function guardedFiles(index: GuardIndex): string[] {
  return [...index.guarded.keys()].sort(compareStrings);
}

/**
 * What an edit of `file` breaks. `now` is what the file declares now (declaredSymbols of its
 * text), or null when the file is gone. A removed member of a removed class is reported with
 * the class (its consumers folded in), not on its own.
 */
export function breakingChanges(index: GuardIndex, file: string, now: readonly CurrentSymbol[] | null): BreakingChange[] {
  const guarded = index.guarded.get(file);
  if (!guarded) return [];
  const current = new Map((now ?? []).map((s) => [s.id, s]));
  const before = index.declared.get(file) ?? new Set<string>();
  const added = (now ?? []).filter((s) => !before.has(s.id));
  const out = new Map<string, BreakingChange>();
  for (const { node, consumers } of guarded) {
    const base = { symbol: node.id, label: node.label, kind: node.kind, file, line: node.line ?? 1, column: node.column ?? 1, consumers };
    const s = current.get(node.id);
    if (!s) {
      const same = node.signature === undefined ? [] : added.filter((a) => a.kind === node.kind && a.signature === node.signature);
      out.set(node.id, same.length === 1 ? { ...base, change: 'renamed', renamedTo: same[0].id } : { ...base, change: 'removed' });
    } else if (node.exported === true && !s.exported) {
      out.set(node.id, { ...base, change: 'unexported', now: { line: s.line, column: s.column } });
    } else if (node.signature !== undefined && s.signature !== node.signature) {
      out.set(node.id, { ...base, change: 'signature-changed', now: { line: s.line, column: s.column } });
    }
  }
  // Fold a removed member into its removed (or renamed) ancestor, when that ancestor is reported too.
  for (const id of [...out.keys()]) {
    const c = out.get(id) as BreakingChange;
    if (c.change !== 'removed') continue;
    let up = index.parent.get(id);
    let into: BreakingChange | undefined;
    while (up !== undefined) {
      const p = out.get(up);
      if (p && (p.change === 'removed' || p.change === 'renamed')) into = p;
      up = index.parent.get(up);
    }
    if (!into || into === c) continue;
    const seen = new Set(into.consumers.map((x) => `${x.id}\u0000${x.relation}\u0000${x.file}:${x.line}:${x.column}`));
    into.consumers = [
      ...into.consumers,
      ...c.consumers.filter((x) => !seen.has(`${x.id}\u0000${x.relation}\u0000${x.file}:${x.line}:${x.column}`)),
    ].sort(compareSites);
    out.delete(id);
  }
  return [...out.values()].sort((a, b) => compareStrings(a.symbol, b.symbol)).map(inKeyOrder);
}

/** The documented key order (docs/cli.md), so reports read the same everywhere. */
function inKeyOrder(c: BreakingChange): BreakingChange {
  return {
    symbol: c.symbol,
    label: c.label,
    kind: c.kind,
    change: c.change,
    ...(c.renamedTo !== undefined ? { renamedTo: c.renamedTo } : {}),
    file: c.file,
    line: c.line,
    column: c.column,
    ...(c.now !== undefined ? { now: c.now } : {}),
    consumers: c.consumers,
  };
}

/** Distinct consuming nodes of a change (what "breaks N consumers" counts). */
export function consumerCount(change: BreakingChange): number {
  return new Set(change.consumers.map((c) => c.id)).size;
}

/**
 * The head graph `kg check` compares with: the base graph with each checked file's symbols replaced
 * by what the file declares now (declaredSymbols of its text; null when the file is gone). Edges
 * into symbols that are gone go with them; the rest of the graph is the base's, so consumers in
 * other files are still there. Pure.
 */
export function headFromDeclared(base: Graph, declared: ReadonlyMap<string, readonly CurrentSymbol[] | null>): Graph {
  const nodes: GraphNode[] = base.nodes.filter(
    (n) => !(n.id.startsWith('sym:') && n.sourceFile !== undefined && declared.has(n.sourceFile)),
  );
  const edges: GraphEdge[] = [];
  for (const [file, syms] of declared) {
    for (const s of syms ?? []) {
      const node: GraphNode = {
        id: s.id,
        kind: s.kind as GraphNode['kind'],
        label: s.label ?? s.id.slice(s.id.indexOf('#') + 1),
        sourceFile: file,
        line: s.line,
        column: s.column,
      };
      if (s.exported) node.exported = true;
      node.signature = s.signature;
      nodes.push(node);
      if (s.parent !== undefined)
        edges.push({
          source: s.parent,
          target: s.id,
          relation: 'contains',
          confidence: 'EXACT',
          provenance: 'SYNTAX',
          resolution: 'EXTRACTED',
          evidenceClass: 'DETERMINISTIC',
          confidenceScore: null,
        });
    }
  }
  const ids = new Set(nodes.map((n) => n.id));
  for (const e of base.edges) if (ids.has(e.source) && (ids.has(e.target) || e.target.startsWith(UNRESOLVED_PREFIX))) edges.push(e);
  return { ...base, nodes, edges };
}

/**
 * ADR 72 as a policy over the diff report (ADR 104): every removed, re-signed or unexported
 * symbol with EXACT consumers in other files is a breaking change, listed with those consumers; a
 * removed one that the report pairs with a rename candidate is `renamed` (the guess is named as
 * such: the change breaks its consumers either way).
 */
export function breakingFromReport(report: DiffBody): BreakingChange[] {
  const site = (c: Consumer): ConsumerSite => ({ id: c.id, relation: c.relation, file: c.file, line: c.line, column: c.column });
  const elsewhere = (file: string, list: readonly Consumer[]) => list.filter((c) => c.file !== file && breaks(c)).map(site);
  const renamedTo = new Map(report.symbols.renameCandidates.map((c) => [c.from, c.to]));
  const out: BreakingChange[] = [];
  for (const r of report.symbols.removed) {
    const consumers = elsewhere(r.file, r.proven);
    if (consumers.length === 0) continue;
    const to = renamedTo.get(r.id);
    const base = { symbol: r.id, label: r.label, kind: r.kind, file: r.file, line: r.line, column: r.column, consumers };
    out.push(to !== undefined ? { ...base, change: 'renamed', renamedTo: to } : { ...base, change: 'removed' });
  }
  for (const s of report.symbols.signatureChanged) {
    const consumers = elsewhere(s.file, s.proven);
    if (consumers.length === 0) continue;
    out.push({
      symbol: s.id,
      label: s.label,
      kind: s.kind,
      change: s.exported.before && !s.exported.after ? 'unexported' : 'signature-changed',
      file: s.file,
      line: s.line,
      column: s.column,
      now: s.now,
      consumers,
    });
  }
  return out.sort((a, b) => compareStrings(a.symbol, b.symbol)).map(inKeyOrder);
}
