// A picture as a standalone SVG file (ADR 156): laid out by dagre (`@dagrejs/dagre`, plain
// JavaScript, bundled: nothing is run or downloaded), drawn here. Left to right, one box per node
// (its name, then its kind and place), one path per edge with its words at its middle, and the
// legend under the graph. Every text goes through xmlText: displayText's safe characters with
// `& < > " '` as entities, so a name is always character data, never markup. Coordinates are
// rounded to a tenth, and dagre uses no randomness, so the same picture gives the same bytes.

import dagre, { type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';
import type { Confidence } from '../model';
import { arrange, LINE_COLOUR, WARNING_COLOUR, type Picture } from './picture';

const FONT = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
const LABEL_SIZE = 12;
const DETAIL_SIZE = 10;
const EDGE_SIZE = 10;
/** A monospace character is about 0.6 em wide; a wide (East Asian) one twice that. */
const EM = 0.6;
const WIDE =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;
const PAD = 8;
const MARGIN = 16;

/** Shown text (picture.ts) as XML character data or an attribute value shows it literally. */
const xml = (shown: string): string => shown.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function textWidth(s: string, size: number): number {
  let units = 0;
  for (const c of s) units += WIDE.test(c) ? 2 : 1;
  return units * EM * size;
}

const num = (n: number): string => String(Math.round(n * 10) / 10);

const DASH: Record<Confidence, string> = { EXACT: '', CANDIDATE: ' stroke-dasharray="6 4"', UNRESOLVED: ' stroke-dasharray="2 3"' };
const colour = (c: Confidence) => (c === 'UNRESOLVED' ? WARNING_COLOUR : LINE_COLOUR);
const marker = (c: Confidence) => `arrow-${c.toLowerCase()}`;

export function svgPicture(p: Picture): string {
  const { nodes, edges, notes, legend } = arrange(p);
  const g = new dagre.graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 18, edgesep: 12, ranksep: 70, marginx: MARGIN, marginy: MARGIN });
  for (const n of nodes) {
    const width = Math.max(textWidth(n.label, LABEL_SIZE), n.detail !== undefined ? textWidth(n.detail, DETAIL_SIZE) : 0) + 2 * PAD;
    g.setNode(n.key, { width, height: n.detail !== undefined ? 38 : 24 });
  }
  edges.forEach((e, i) => {
    g.setEdge({ v: e.from, w: e.to, name: `e${i}` }, { width: textWidth(e.text, EDGE_SIZE) + 4, height: EDGE_SIZE + 4, labelpos: 'c' });
  });
  dagre.layout(g);
  const graphLabel = g.graph();
  const graphWidth = nodes.length > 0 ? (graphLabel.width ?? 0) : 0;
  const graphHeight = nodes.length > 0 ? (graphLabel.height ?? 0) : MARGIN;

  const body: string[] = [];
  body.push('<g class="edges" fill="none">');
  edges.forEach((e, i) => {
    const laid = g.edge({ v: e.from, w: e.to, name: `e${i}` });
    const d = (laid.points ?? []).map((pt, k) => `${k === 0 ? 'M' : 'L'}${num(pt.x)},${num(pt.y)}`).join(' ');
    body.push(
      `<path class="edge ${e.confidence.toLowerCase()}" d="${d}" stroke="${colour(e.confidence)}" stroke-width="1.2"${DASH[e.confidence]} marker-end="url(#${marker(e.confidence)})"/>`,
    );
    if (laid.x !== undefined && laid.y !== undefined)
      body.push(
        `<text x="${num(laid.x)}" y="${num(laid.y + EDGE_SIZE / 3)}" font-size="${EDGE_SIZE}" text-anchor="middle" fill="${colour(e.confidence)}" stroke="#ffffff" stroke-width="3" paint-order="stroke">${xml(e.text)}</text>`,
      );
  });
  body.push('</g>', '<g class="nodes">');
  for (const n of nodes) {
    const at = g.node(n.key);
    const cx = at.x ?? 0;
    const x = cx - at.width / 2;
    const y = (at.y ?? 0) - at.height / 2;
    const stroke = n.role === 'outside' ? `${WARNING_COLOUR}" stroke-dasharray="2 3` : LINE_COLOUR;
    body.push(
      `<g class="node"><title>${xml(n.title)}</title>`,
      `<rect x="${num(x)}" y="${num(y)}" width="${num(at.width)}" height="${num(at.height)}" rx="4" fill="#f6f8fa" stroke="${stroke}" stroke-width="${n.role === 'focus' ? 2.5 : 1}"/>`,
      `<text x="${num(cx)}" y="${num(y + 16)}" font-size="${LABEL_SIZE}" text-anchor="middle" fill="#1f2328">${xml(n.label)}</text>`,
    );
    if (n.detail !== undefined)
      body.push(
        `<text x="${num(cx)}" y="${num(y + 31)}" font-size="${DETAIL_SIZE}" text-anchor="middle" fill="#57606a">${xml(n.detail)}</text>`,
      );
    body.push('</g>');
  }
  body.push('</g>');

  // The legend, under the graph: a sample of each line with its meaning, then the notes.
  const key: string[] = ['<g class="legend">'];
  let y = graphHeight + 8;
  let legendWidth = 0;
  key.push(`<text x="${MARGIN}" y="${num(y + 10)}" font-size="${DETAIL_SIZE}" font-weight="bold" fill="#1f2328">Legend</text>`);
  y += 16;
  for (const l of legend) {
    key.push(
      `<path d="M${MARGIN},${num(y + 6)} L${MARGIN + 36},${num(y + 6)}" stroke="${colour(l.confidence)}" stroke-width="1.2"${DASH[l.confidence]} fill="none" marker-end="url(#${marker(l.confidence)})"/>`,
      `<text x="${MARGIN + 46}" y="${num(y + 10)}" font-size="${DETAIL_SIZE}" fill="${colour(l.confidence)}">${xml(l.text)}</text>`,
    );
    legendWidth = Math.max(legendWidth, 46 + textWidth(l.text, DETAIL_SIZE));
    y += 16;
  }
  for (const note of notes) {
    key.push(`<text x="${MARGIN}" y="${num(y + 10)}" font-size="${DETAIL_SIZE}" fill="#1f2328">${xml(note)}</text>`);
    legendWidth = Math.max(legendWidth, textWidth(note, DETAIL_SIZE));
    y += 16;
  }
  key.push('</g>');

  const width = Math.ceil(Math.max(graphWidth, legendWidth + 2 * MARGIN));
  const height = Math.ceil(y + MARGIN / 2);
  const markers = legend.map(
    (l) =>
      `<marker id="${marker(l.confidence)}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colour(l.confidence)}"/></marker>`,
  );
  return (
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}">`,
      '<title>Knowledge Graph picture</title>',
      `<defs>${markers.join('')}</defs>`,
      `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
      ...body,
      ...key,
      '</svg>',
    ].join('\n') + '\n'
  );
}
