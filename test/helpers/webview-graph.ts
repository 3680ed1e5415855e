// Synthetic answers for driving the webviews without an editor: a neighbourhood of N nodes shaped
// like real code (modules, files, classes, functions, methods; calls mostly EXACT, some CANDIDATE,
// a few UNRESOLVED; a few hubs), a path through it, and details. Deterministic (a fixed-seed
// generator), and with hostile labels so every render also checks that labels stay text.

import type { DetailsView, EdgeView, HostMessage, NodeView } from '../../src/protocol/messages';

export const HOSTILE_LABELS = [
  '<img src=x onerror="window.__kgPwned=1">',
  '<script>window.__kgPwned=2</script>',
  '"><svg onload="window.__kgPwned=3">',
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface SyntheticGraph {
  focus: NodeView;
  nodes: NodeView[];
  edges: EdgeView[];
  excludedHubs: string[];
  hubThreshold: number;
}

export function syntheticNeighborhood(count: number, seed = 7): SyntheticGraph {
  const rand = rng(seed);
  const nodes: NodeView[] = [];
  const edges: EdgeView[] = [];
  const files: NodeView[] = [];
  const symbols: NodeView[] = [];
  const fileCount = Math.max(2, Math.round(count / 9));
  const modules = ['src/core', 'src/operators', 'src/util', 'src/scheduler', 'src/testing'];
  for (let i = 0; i < fileCount && nodes.length < count; i++) {
    const dir = modules[i % modules.length];
    const path = `${dir}/file${i}.ts`;
    const f: NodeView = { id: `file:${path}`, label: `file${i}.ts`, kind: 'file', file: path, line: 1, degree: 5 };
    files.push(f);
    nodes.push(f);
  }
  let k = 0;
  while (nodes.length < count) {
    const f = files[k % files.length];
    const file = f.file as string;
    const kinds = ['function', 'function', 'method', 'class'] as const;
    const kind = kinds[Math.floor(rand() * kinds.length)];
    const hostile = k < HOSTILE_LABELS.length ? HOSTILE_LABELS[k] : undefined;
    const name = hostile ?? (kind === 'method' ? `Subject${k % 17}.next${k}` : kind === 'class' ? `Operator${k}` : `map${k}`);
    const n: NodeView = {
      id: `sym:${file}#${encodeURIComponent(name)}`,
      label: name,
      kind,
      file,
      line: 1 + Math.floor(rand() * 300),
      degree: 2 + Math.floor(rand() * 20),
    };
    symbols.push(n);
    nodes.push(n);
    edges.push({ source: f.id, target: n.id, relation: 'contains', confidence: 'EXACT' });
    k++;
  }
  const focus = symbols[Math.min(symbols.length - 1, 3)] ?? nodes[0];
  // Hubs: the three most-connected-looking symbols, degree over the threshold.
  const hubThreshold = 50;
  const hubs = symbols.slice(-3).map((n) => {
    n.degree = 180 + Math.floor(rand() * 400);
    return n.id;
  });
  const callEdges = Math.round(symbols.length * 1.3);
  const seen = new Set<string>();
  for (let i = 0; i < callEdges; i++) {
    const a = symbols[Math.floor(rand() * symbols.length)];
    // Calls are local more often than not, like real code: pick near neighbours by index.
    const b = symbols[Math.min(symbols.length - 1, Math.max(0, symbols.indexOf(a) + Math.floor((rand() - 0.5) * 24)))];
    if (a === b || seen.has(`${a.id} ${b.id}`)) continue;
    seen.add(`${a.id} ${b.id}`);
    const r = rand();
    edges.push({ source: a.id, target: b.id, relation: 'calls', confidence: r < 0.8 ? 'EXACT' : 'CANDIDATE' });
  }
  for (const h of hubs) {
    for (let i = 0; i < 6; i++) {
      const a = symbols[Math.floor(rand() * symbols.length)];
      if (a.id !== h && !seen.has(`${a.id} ${h}`)) {
        seen.add(`${a.id} ${h}`);
        edges.push({ source: a.id, target: h, relation: 'calls', confidence: 'EXACT' });
      }
    }
  }
  for (let i = 1; i < files.length; i++) {
    edges.push({ source: files[i].id, target: files[Math.floor(rand() * i)].id, relation: 'imports', confidence: 'EXACT' });
  }
  const classes = symbols.filter((s) => s.kind === 'class');
  for (let i = 1; i < classes.length; i += 3)
    edges.push({ source: classes[i].id, target: classes[0].id, relation: 'extends', confidence: 'EXACT' });
  // One unresolved call target, reached from the focus.
  if (count > 10) {
    const u: NodeView = { id: 'unresolved:dynamicThing', label: 'dynamicThing', kind: 'unresolved' };
    nodes[nodes.length - 1] = u;
    const dropped = symbols.pop();
    for (let i = edges.length - 1; i >= 0; i--) if (edges[i].source === dropped?.id || edges[i].target === dropped?.id) edges.splice(i, 1);
    edges.push({ source: focus.id, target: u.id, relation: 'calls', confidence: 'UNRESOLVED' });
  }
  return {
    focus,
    nodes: nodes.filter((n) => n.id !== focus.id),
    edges,
    excludedHubs: hubs.filter((h) => nodes.some((n) => n.id === h)).sort(),
    hubThreshold,
  };
}

export function neighborhoodMessage(g: SyntheticGraph, requestId: number, expand = false): HostMessage {
  return {
    type: 'neighborhood',
    requestId,
    focus: g.focus,
    nodes: g.nodes,
    edges: g.edges,
    excludedHubs: g.excludedHubs,
    hubThreshold: g.hubThreshold,
    expand,
  };
}

/** A path of `hops` hops through the graph's symbols, edges in their real direction. */
export function syntheticPath(g: SyntheticGraph, hops = 4): { nodes: NodeView[]; edges: EdgeView[] } {
  const syms = g.nodes.filter((n) => n.kind !== 'file' && n.kind !== 'unresolved').slice(0, hops);
  const nodes = [g.focus, ...syms];
  const edges: EdgeView[] = [];
  for (let i = 0; i + 1 < nodes.length; i++) {
    const back = i % 3 === 2;
    edges.push({
      source: back ? nodes[i + 1].id : nodes[i].id,
      target: back ? nodes[i].id : nodes[i + 1].id,
      relation: i === 1 ? 'imports' : 'calls',
      confidence: i === 2 ? 'CANDIDATE' : 'EXACT',
    });
  }
  return { nodes, edges };
}

export function syntheticDetails(g: SyntheticGraph, id: string): DetailsView {
  const node = g.focus.id === id ? g.focus : (g.nodes.find((n) => n.id === id) ?? { id, label: id, kind: 'function' });
  const callers = g.edges
    .filter((e) => e.target === id && e.relation === 'calls')
    .map((e) => ({ node: g.nodes.find((n) => n.id === e.source) ?? g.focus, confidence: e.confidence, at: 'src/core/file1.ts:12' }));
  const callees = g.edges
    .filter((e) => e.source === id && e.relation === 'calls')
    .map((e) => ({
      node: g.nodes.find((n) => n.id === e.target) ?? g.focus,
      confidence: e.confidence,
      ...(e.confidence === 'UNRESOLVED' ? { reason: 'dynamic-access' } : {}),
    }));
  return {
    node,
    degree: node.degree ?? 0,
    callers: callers.filter((c) => c.confidence === 'EXACT'),
    candidates: callers.filter((c) => c.confidence === 'CANDIDATE'),
    callees,
    citedBy: [{ id: 'adr:65', label: 'ADR 65: <b>Cytoscape</b>', kind: 'rationale', file: 'docs/adr/0065-x.md', line: 1 }],
  };
}
