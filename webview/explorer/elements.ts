// What the explorer draws, as plain data: the nodes and edges received so far, turned into
// Cytoscape element definitions with grouping (compound boxes by file or module) and, past the
// node cap, aggregation by file or module. Pure (no DOM), so test/unit/explorer-elements.test.ts
// runs it in Node. The rules are docs/adr/0069's: never a hairball, never silently cut — what is
// folded is counted and said.

import type { EdgeView, NodeView } from '../../src/protocol/messages';

export type Grouping = 'none' | 'file' | 'module';

export interface Drawn {
  focus: string | null;
  nodes: Map<string, NodeView>;
  edges: Map<string, EdgeView>;
  /** Excluded hubs not yet expanded: drawn, never walked through. */
  hubs: Set<string>;
  hubThreshold: number;
  /** Nodes the user expanded, in order (replayed after a reload). */
  expanded: string[];
  /** The path in path mode: node ids in order, and the keys of the edges taken. */
  path: string[];
  pathEdges: Set<string>;
  /** Aggregates the user opened past the cap (`agg:` ids). */
  unfolded: Set<string>;
}

export function emptyDrawn(): Drawn {
  return {
    focus: null,
    nodes: new Map(),
    edges: new Map(),
    hubs: new Set(),
    hubThreshold: 0,
    expanded: [],
    path: [],
    pathEdges: new Set(),
    unfolded: new Set(),
  };
}

export function edgeKeyOf(e: Pick<EdgeView, 'source' | 'target' | 'relation'>): string {
  return `${e.source}\u0000${e.target}\u0000${e.relation}`;
}

export function addAll(d: Drawn, nodes: readonly NodeView[], edges: readonly EdgeView[]): void {
  for (const n of nodes) if (!d.nodes.has(n.id)) d.nodes.set(n.id, n);
  for (const e of edges) d.edges.set(edgeKeyOf(e), e);
}

/** The module (directory) a node belongs to: its file's directory, or its own path for a module. */
function moduleOf(n: NodeView): string {
  if (n.kind === 'module') return n.id.replace(/^mod:/, '') || '.';
  // Symbols of installed packages group by package and version (ADR 109).
  if (n.package) return n.package;
  if (!n.file) return n.kind === 'unresolved' ? '(unresolved names)' : '(other)';
  const slash = n.file.lastIndexOf('/');
  return slash < 0 ? '.' : n.file.slice(0, slash);
}

function fileOf(n: NodeView): string {
  if (n.file) return n.file;
  return n.kind === 'unresolved' ? '(unresolved names)' : moduleOf(n);
}

interface ElementDef {
  group: 'nodes' | 'edges';
  data: Record<string, string | number | undefined>;
  classes: string;
}

/** Past the cap, how many of the nearest nodes are still drawn one by one. */
export const NEAREST_KEPT = 100;
/** How many folded groups a picture can hold and still be read. */
export const READABLE_GROUPS = 60;
/** Merged edges carry their counts as labels only while there are few enough to read them. */
const LABELLED_MERGED_EDGES = 40;

interface Aggregation {
  by: 'file' | 'module';
  /** Aggregate nodes drawn, and how many real nodes they hold. */
  groups: number;
  hidden: number;
  cap: number;
}

export interface Elements {
  elements: ElementDef[];
  aggregation: Aggregation | null;
  /** Real node ids drawn individually. */
  shown: string[];
}

/** A path drawn over a neighbourhood: everything off the path is dimmed, so the path stands out. */
function overlaid(d: Drawn): boolean {
  return d.path.length > 0 && d.nodes.size > d.path.length;
}

function nodeClasses(d: Drawn, n: NodeView): string {
  const c = [`kind-${n.kind}`];
  if (overlaid(d) && !d.path.includes(n.id)) c.push('off-path');
  if (n.id === d.focus) c.push('focus');
  if (d.hubs.has(n.id)) c.push('hub');
  if (n.kind === 'unresolved') c.push('unresolved');
  if (n.package) c.push('package');
  if (d.path.includes(n.id)) c.push('on-path');
  return c.join(' ');
}

function displayLabel(d: Drawn, n: NodeView): string {
  // Short, so that a ring of hubs reads: the hubs list beside the canvas says the rest.
  if (d.hubs.has(n.id)) return `◆ ${n.label} · ${n.degree ?? '?'} links`;
  if (n.package) return `${n.label} · ${n.package}`;
  return n.label;
}

/**
 * Element definitions for what is drawn. Past `cap` nodes, everything but the focus, the path, the
 * expanded nodes and unfolded groups is folded into one node per file — per module when files are
 * still too many.
 */
export function buildElements(d: Drawn, grouping: Grouping, cap: number): Elements {
  const all = [...d.nodes.values()];
  const keep = new Set<string>();
  if (d.focus) keep.add(d.focus);
  for (const id of d.path) keep.add(id);
  for (const id of d.expanded) keep.add(id);

  let aggregation: Aggregation | null = null;
  const rep = new Map<string, string>(); // node id → drawn id (itself, or its aggregate)
  const aggMembers = new Map<string, NodeView[]>();
  if (all.length > cap) {
    // The nearest nodes stay one by one: the neighbourhood arrives in breadth-first order, so the
    // first ones are the closest to the focus. The rest is folded.
    for (const n of all.slice(0, Math.min(NEAREST_KEPT, Math.floor(cap / 2)))) keep.add(n.id);
    const pick = (by: 'file' | 'module') => {
      const groups = new Map<string, NodeView[]>();
      for (const n of all) {
        if (keep.has(n.id)) continue;
        const key = `agg:${by}:${by === 'file' ? fileOf(n) : moduleOf(n)}`;
        if (d.unfolded.has(key)) continue;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = []));
        g.push(n);
      }
      return groups;
    };
    // More than a few dozen folded groups is a hairball again: fold by module then.
    const readable = Math.min(cap, READABLE_GROUPS);
    let by: 'file' | 'module' = 'file';
    let groups = pick('file');
    if (groups.size > readable) {
      by = 'module';
      groups = pick('module');
    }
    let hidden = 0;
    for (const [key, members] of groups) {
      if (members.length === 1) continue; // a group of one is just the node
      aggMembers.set(key, members);
      for (const m of members) rep.set(m.id, key);
      hidden += members.length;
    }
    aggregation = { by, groups: aggMembers.size, hidden, cap };
  }

  const elements: ElementDef[] = [];
  const parents = new Map<string, string>(); // compound id → label
  const parentOf = (n: NodeView): string | undefined => {
    if (grouping === 'none') return undefined;
    const key = grouping === 'file' ? fileOf(n) : moduleOf(n);
    const id = `grp:${grouping}:${key}`;
    parents.set(id, key);
    return id;
  };
  const shown: string[] = [];
  for (const n of all) {
    if (rep.has(n.id)) continue;
    shown.push(n.id);
    elements.push({
      group: 'nodes',
      data: {
        id: n.id,
        label: displayLabel(d, n),
        name: n.label,
        place: n.file ?? '',
        kind: n.kind,
        parent: parentOf(n),
        // Its place on the path (0 the start): labels are placed along it (graph-view.ts).
        ...(d.path.includes(n.id) ? { step: d.path.indexOf(n.id) } : {}),
      },
      classes: nodeClasses(d, n),
    });
  }
  for (const [key, members] of [...aggMembers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const name = key.replace(/^agg:(file|module):/, '');
    // A file is named by its base name (the module boxes and the tooltip give the rest).
    const short = key.startsWith('agg:file:') ? name.slice(name.lastIndexOf('/') + 1) : `${name}/`;
    elements.push({
      group: 'nodes',
      data: { id: key, label: `${short} (${members.length} folded)`, kind: 'aggregate', count: members.length, path: name },
      classes: overlaid(d) ? 'aggregate off-path' : 'aggregate',
    });
  }
  for (const [id, label] of parents) elements.unshift({ group: 'nodes', data: { id, label }, classes: 'group' });

  // Edges between drawn ends; edges folded into an aggregate are merged and counted per confidence.
  const merged = new Map<
    string,
    { source: string; target: string; relation: string; exact: number; candidate: number; unresolved: number }
  >();
  for (const [key, e] of d.edges) {
    const s = rep.get(e.source) ?? e.source;
    const t = rep.get(e.target) ?? e.target;
    if (!d.nodes.has(e.source) || !d.nodes.has(e.target)) continue;
    if (s === e.source && t === e.target) {
      elements.push({
        group: 'edges',
        data: { id: `e:${key}`, source: s, target: t, relation: e.relation, confidence: e.confidence },
        classes: `rel-${e.relation} conf-${e.confidence.toLowerCase()}${d.pathEdges.has(key) ? ' on-path' : overlaid(d) ? ' off-path' : ''}`,
      });
      continue;
    }
    if (s === t) continue; // inside one aggregate: counted in its size
    const mk = `${s}\u0000${t}\u0000${e.relation}`;
    let m = merged.get(mk);
    if (!m) merged.set(mk, (m = { source: s, target: t, relation: e.relation, exact: 0, candidate: 0, unresolved: 0 }));
    if (e.confidence === 'EXACT') m.exact++;
    else if (e.confidence === 'CANDIDATE') m.candidate++;
    else m.unresolved++;
  }
  const labelled = merged.size <= LABELLED_MERGED_EDGES ? ' labelled' : '';
  for (const [mk, m] of merged) {
    // An aggregate edge is drawn as proven only when every edge in it is proven.
    const conf = m.candidate === 0 && m.unresolved === 0 ? 'exact' : m.exact === 0 && m.candidate === 0 ? 'unresolved' : 'candidate';
    const parts = [m.exact && `${m.exact} exact`, m.candidate && `${m.candidate} cand.`, m.unresolved && `${m.unresolved} unres.`].filter(
      Boolean,
    );
    elements.push({
      group: 'edges',
      data: {
        id: `m:${mk}`,
        source: m.source,
        target: m.target,
        relation: m.relation,
        confidence: conf.toUpperCase(),
        label: `${m.relation} ×${m.exact + m.candidate + m.unresolved} (${parts.join(', ')})`,
      },
      classes: `rel-${m.relation} conf-${conf} merged${labelled}${overlaid(d) ? ' off-path' : ''}`,
    });
  }
  return { elements, aggregation, shown };
}
