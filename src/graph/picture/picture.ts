// A picture of a small part of the graph (ADR 156): nodes, edges with their confidence, and the
// notes that say what the picture leaves out. Three renderers draw it — Mermaid (mermaid.ts), DOT
// (dot.ts) and SVG (svg.ts) — for `kg export --format mermaid|dot|svg` and for the picture in
// `kg diff --format markdown`. Pure: nothing but the picture goes in, the same bytes come out.
//
// Confidence is drawn as the explorer draws it (webview/explorer/style.ts): EXACT solid, CANDIDATE
// dashed, UNRESOLVED dotted in the warning colour; and every edge that is not EXACT also says its
// confidence in words, so a renderer that drops line styles still never shows a guess as a fact.

import { parseId } from '../ids';
import { compareStrings, isPackageId, isUnresolvedId, UNRESOLVED_PREFIX, type Confidence, type GraphNode } from '../model';

export interface PictureNode {
  id: string;
  /** The first line: the node's name. */
  label: string;
  /** The second line: its kind and place. */
  detail?: string;
  /** `focus`: what the picture was asked about (drawn heavier); `outside`: a name or package symbol, not a node of the graph. */
  role?: 'focus' | 'outside';
}

export interface PictureEdge {
  source: string;
  target: string;
  relation: string;
  confidence: Confidence;
}

export interface Picture {
  nodes: PictureNode[];
  edges: PictureEdge[];
  /** What the picture leaves out or cannot show, one sentence each: the legend prints them. */
  notes: string[];
}

/** The legend's three lines, in the order it shows them. */
const CONFIDENCE_LEGEND: ReadonlyArray<{ confidence: Confidence; line: string; meaning: string }> = [
  { confidence: 'EXACT', line: 'solid', meaning: 'EXACT (proven by the checker)' },
  { confidence: 'CANDIDATE', line: 'dashed', meaning: 'CANDIDATE (a guess: a name match)' },
  { confidence: 'UNRESOLVED', line: 'dotted', meaning: 'UNRESOLVED (no declaration found)' },
];

/** The warning colour UNRESOLVED is drawn in (the explorer's default dark-on-light warning). */
export const WARNING_COLOUR = '#b35c00';
export const LINE_COLOUR = '#444444';

const LABEL_MAX = 60;
const DETAIL_MAX = 80;
const TITLE_MAX = 1000;
const NOTE_MAX = 200;

/**
 * Characters shown as `\uXXXX` text instead of themselves: controls (C0 but tab, DEL, C1), line
 * and paragraph separators, the bidirectional controls that reorder a line (a file `a\u202Egnp.ts`
 * reads `ast.png`, ADR 144), the non-characters XML refuses, and lone surrogates. What is left is
 * printable text each renderer then escapes for its own syntax.
 */
const SHOWN_AS_ESCAPE =
  // eslint-disable-next-line no-control-regex -- control characters are what must not reach a picture
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text made safe to show on one line and cut to `max` code points (the cut ends with `…`). */
export function displayText(s: string, max: number): string {
  const shown = s.replace(/\t/g, ' ').replace(SHOWN_AS_ESCAPE, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  const points = Array.from(shown);
  return points.length > max ? points.slice(0, max - 1).join('') + '…' : shown;
}

/** How a graph id (and its node, when it has one) is shown: its name, and its kind and place. */
export function describeNode(id: string, node: GraphNode | undefined, role?: PictureNode['role']): PictureNode {
  if (isUnresolvedId(id)) return { id, label: id.slice(UNRESOLVED_PREFIX.length), detail: 'unresolved name', role: role ?? 'outside' };
  if (isPackageId(id)) return { id, label: id.slice('pkg:'.length), detail: 'package symbol', role: role ?? 'outside' };
  const parsed = parseId(id);
  const place =
    node?.sourceFile !== undefined
      ? `${node.sourceFile}${node.line !== undefined ? `:${node.line}` : ''}`
      : parsed?.prefix === 'mod'
        ? parsed.dir
        : undefined;
  const label = node?.label ?? (parsed?.prefix === 'sym' ? parsed.name : id);
  const kind = node?.kind ?? (parsed?.prefix === 'sym' ? 'symbol' : parsed?.prefix);
  const detail = [kind, node?.kind === 'file' ? undefined : (place ?? (parsed?.prefix === 'sym' ? parsed.path : undefined))]
    .filter((x) => x !== undefined && x !== '')
    .join(' · ');
  return { id, label, ...(detail !== '' ? { detail } : {}), ...(role ? { role } : {}) };
}

const CONFIDENCE_ORDER: Record<Confidence, number> = { EXACT: 0, CANDIDATE: 1, UNRESOLVED: 2 };

/**
 * The picture as the renderers draw it: nodes in id order, one per id (the first given wins);
 * edges in (source, target, relation, confidence) order, one per such key, dropped when an end is
 * not a node of the picture. Each node gets its stable short name `n0`, `n1` … by that order:
 * no text of the graph ever becomes an identifier in a picture's syntax. Every text is already
 * displayText's (one line, shown characters, cut): a renderer only escapes it for its syntax.
 */
export interface LaidOut {
  nodes: Array<{ key: string; id: string; role?: PictureNode['role']; label: string; detail?: string; title: string }>;
  edges: Array<{ from: string; to: string; confidence: Confidence; text: string }>;
  notes: string[];
  legend: Array<{ confidence: Confidence; text: string }>;
}

export function arrange(p: Picture): LaidOut {
  const byId = new Map<string, PictureNode>();
  for (const n of p.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const ids = [...byId.keys()].sort(compareStrings);
  const key = new Map(ids.map((id, i) => [id, `n${i}`]));
  const seen = new Set<string>();
  const edges: LaidOut['edges'] = [];
  const sorted = [...p.edges].sort(
    (a, b) =>
      compareStrings(a.source, b.source) ||
      compareStrings(a.target, b.target) ||
      compareStrings(a.relation, b.relation) ||
      CONFIDENCE_ORDER[a.confidence] - CONFIDENCE_ORDER[b.confidence],
  );
  for (const e of sorted) {
    const from = key.get(e.source);
    const to = key.get(e.target);
    if (from === undefined || to === undefined) continue;
    const k = `${from} ${to} ${e.relation} ${e.confidence}`;
    if (seen.has(k)) continue;
    seen.add(k);
    edges.push({ from, to, confidence: e.confidence, text: displayText(edgeText(e), LABEL_MAX) });
  }
  const nodes = ids.map((id) => {
    const n = byId.get(id) as PictureNode;
    return {
      key: key.get(id) as string,
      id,
      ...(n.role ? { role: n.role } : {}),
      label: displayText(n.label, LABEL_MAX),
      ...(n.detail !== undefined ? { detail: displayText(n.detail, DETAIL_MAX) } : {}),
      title: displayText(id, TITLE_MAX),
    };
  });
  return {
    nodes,
    edges,
    notes: p.notes.map((n) => displayText(n, NOTE_MAX)),
    legend: CONFIDENCE_LEGEND.map((l) => ({ confidence: l.confidence, text: `${l.line}: ${l.meaning}` })),
  };
}

/** An edge's words: the relation, and the confidence when it is not a proof. */
function edgeText(e: PictureEdge): string {
  return e.confidence === 'EXACT' ? e.relation : `${e.relation} · ${e.confidence}`;
}

export const plural = (n: number, one: string, many = one + 's'): string => `${n} ${n === 1 ? one : many}`;

interface SubgraphEdge {
  source: string;
  target: string;
  relation: string;
  confidence: string;
}

const asConfidence = (c: string): Confidence => (c === 'EXACT' || c === 'CANDIDATE' ? c : 'UNRESOLVED');

function subgraph(
  ids: readonly string[],
  edges: readonly SubgraphEdge[],
  nodeOf: (id: string) => GraphNode | undefined,
  focus: ReadonlySet<string>,
) {
  return {
    nodes: ids.map((id) => describeNode(id, nodeOf(id), focus.has(id) ? 'focus' : undefined)),
    edges: edges.map((e) => ({ source: e.source, target: e.target, relation: e.relation, confidence: asConfidence(e.confidence) })),
  };
}

/** A node's neighbourhood as `kg export --node` draws it, with what the bound left out said in the legend. */
export function neighborhoodPicture(
  n: { nodes: readonly string[]; edges: readonly SubgraphEdge[]; leftOut: number; hubs: readonly string[]; hubThreshold: number },
  bound: { depth: number; limit: number },
  nodeOf: (id: string) => GraphNode | undefined,
): Picture {
  const notes = [
    `the neighbourhood of ${n.nodes[0]}: ${plural(bound.depth, 'step')} away at most, ${plural(n.nodes.length, 'node')} drawn`,
  ];
  if (n.leftOut > 0)
    notes.push(`${plural(n.leftOut, 'more node')} within ${plural(bound.depth, 'step')} left out by the limit of ${bound.limit} (--limit)`);
  if (n.hubs.length > 0)
    notes.push(
      `${plural(n.hubs.length, 'hub')} (degree over ${n.hubThreshold}) drawn but not expanded: ${n.hubs.slice(0, 5).join(', ')}${n.hubs.length > 5 ? ` and ${n.hubs.length - 5} more` : ''}`,
    );
  return { ...subgraph(n.nodes, n.edges, nodeOf, new Set([n.nodes[0]])), notes };
}

/** A shortest path as `kg export --from --to` draws it: its nodes and each hop's edge. */
export function pathPicture(
  p: { path: readonly string[]; edges: readonly SubgraphEdge[] },
  from: string,
  to: string,
  nodeOf: (id: string) => GraphNode | undefined,
): Picture {
  if (p.path.length === 0)
    return {
      ...subgraph([from, to], [], nodeOf, new Set([from, to])),
      notes: [`no path between ${from} and ${to}: they are not connected`],
    };
  return {
    ...subgraph(p.path, p.edges, nodeOf, new Set([from, to])),
    notes: [`a shortest path from ${from} to ${to}: ${plural(p.path.length - 1, 'hop')}, edges in either direction`],
  };
}
