// The Cytoscape stylesheet, from the editor's theme. Relation picks the colour, confidence the line:
// EXACT solid, CANDIDATE dashed, UNRESOLVED dotted in the warning colour — the legend in the page
// (media/webview.css) draws the same three. Labels are canvas text: Cytoscape never parses them.

import type { StylesheetJson } from 'cytoscape';
import type { Theme } from '../common/theme';

export function graphStyle(t: Theme): StylesheetJson {
  const hc = t.kind === 'high-contrast' || t.kind === 'high-contrast-light';
  const w = hc ? 1.5 : 1;
  const kindRules = Object.entries(t.kinds).map(([kind, colour]) => ({
    selector: `node.kind-${kind}`,
    style: { 'border-color': colour, 'background-color': colour },
  }));
  return [
    {
      selector: 'node',
      style: {
        label: 'data(label)',
        color: t.foreground,
        'font-family': t.fontFamily,
        'font-size': 11,
        'text-valign': 'bottom',
        'text-halign': 'center',
        'text-margin-y': 3,
        'text-wrap': 'ellipsis',
        'text-max-width': '180px',
        'text-background-color': t.background,
        'text-background-opacity': 0.75,
        'text-background-padding': '1px',
        'background-color': t.muted,
        'background-opacity': 0.9,
        'border-width': w,
        'border-color': t.muted,
        width: 16,
        height: 16,
        'min-zoomed-font-size': 6,
      },
    },
    ...kindRules,
    { selector: 'node.kind-class, node.kind-interface', style: { shape: 'round-rectangle', width: 20, height: 16 } },
    { selector: 'node.kind-method', style: { shape: 'ellipse', width: 13, height: 13 } },
    { selector: 'node.kind-file', style: { shape: 'rectangle', 'background-opacity': 0.35 } },
    { selector: 'node.kind-module', style: { shape: 'barrel', 'background-opacity': 0.35 } },
    { selector: 'node.kind-rationale, node.kind-doc-concept', style: { shape: 'tag' } },
    {
      // A symbol of an installed package (ADR 109): drawn apart from the repository's own.
      selector: 'node.package',
      style: { shape: 'cut-rectangle', 'background-opacity': 0.2, 'border-style': 'double', 'border-width': 3 * w },
    },
    {
      selector: 'node.unresolved',
      style: {
        shape: 'octagon',
        'background-opacity': 0.15,
        'border-style': 'dotted',
        'border-width': 2 * w,
        'border-color': t.warning,
        color: t.warning,
      },
    },
    {
      selector: 'node.hub',
      style: {
        shape: 'diamond',
        width: 24,
        height: 24,
        'background-opacity': 0.25,
        'border-width': 2 * w,
        'border-style': 'double',
        'font-style': 'italic',
      },
    },
    // The focus and the path are drawn above the rest, so that their labels stay legible where labels crowd.
    {
      selector: 'node.focus',
      style: {
        width: 26,
        height: 26,
        'border-width': 3 * w,
        'border-color': t.foreground,
        'font-weight': 'bold',
        'font-size': 13,
        'z-index': 30,
      },
    },
    {
      selector: 'node.aggregate',
      style: {
        shape: 'round-rectangle',
        width: 'mapData(count, 2, 200, 30, 90)',
        height: 22,
        'background-color': t.muted,
        'background-opacity': 0.2,
        'border-style': 'dashed',
        'border-color': t.muted,
        'text-valign': 'center',
      },
    },
    {
      selector: ':parent',
      style: {
        'background-color': t.foreground,
        'background-opacity': 0.04,
        'border-color': t.border,
        'border-width': w,
        'border-style': 'solid',
        shape: 'round-rectangle',
        'text-valign': 'top',
        'text-halign': 'center',
        'font-size': 10,
        color: t.muted,
        padding: '10px',
      },
    },
    {
      selector: 'edge',
      style: {
        width: 1.4 * w,
        'curve-style': 'bezier',
        'line-color': t.contains,
        'target-arrow-color': t.contains,
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.8,
        opacity: 0.85,
      },
    },
    { selector: 'edge.rel-calls', style: { 'line-color': t.calls, 'target-arrow-color': t.calls, width: 2 * w } },
    { selector: 'edge.rel-imports, edge.rel-re-exports', style: { 'line-color': t.imports, 'target-arrow-color': t.imports } },
    {
      selector: 'edge.rel-extends, edge.rel-implements, edge.rel-inherits',
      style: { 'line-color': t.inheritance, 'target-arrow-color': t.inheritance, 'target-arrow-shape': 'triangle-backcurve' },
    },
    {
      selector: 'edge.rel-cites, edge.rel-references',
      style: { 'line-color': t.cites, 'target-arrow-color': t.cites, 'target-arrow-shape': 'vee' },
    },
    { selector: 'edge.rel-contains', style: { width: 1 * w, opacity: 0.5, 'target-arrow-shape': 'none', 'line-style': 'solid' } },
    { selector: 'edge.conf-exact', style: { 'line-style': 'solid' } },
    { selector: 'edge.conf-candidate', style: { 'line-style': 'dashed', 'line-dash-pattern': [6, 4] } },
    {
      selector: 'edge.conf-unresolved',
      style: { 'line-style': 'dotted', 'line-color': t.warning, 'target-arrow-color': t.warning, 'target-arrow-shape': 'tee' },
    },
    {
      selector: 'edge.merged',
      style: { width: 3 * w },
    },
    {
      selector: 'edge.merged.labelled, edge.merged:selected',
      style: {
        label: 'data(label)',
        'font-size': 9,
        color: t.muted,
        'text-rotation': 'autorotate',
        'text-background-color': t.background,
        'text-background-opacity': 0.8,
        width: 3 * w,
      },
    },
    { selector: '.faded', style: { opacity: 0.18 } },
    { selector: '.off-path', style: { opacity: 0.22 } },
    // Large pictures: straight edges and no label backdrops paint several times faster, and the
    // labels of ordinary nodes appear once zoomed in (min-zoomed-font-size) or on selection.
    { selector: 'edge.large', style: { 'curve-style': 'straight' } },
    { selector: 'node.large', style: { 'text-background-opacity': 0, 'min-zoomed-font-size': 9 } },
    // Labels are placed most important first, and one that would cover the focus or another label
    // is not drawn (graph-view.ts, docs/adr/0095); hovering, selecting or finding a node shows its
    // own and its neighbours' labels, above the rest.
    // Zoomed out to fit, labels grow a step in model units so that they stay readable on screen (graph-view.ts).
    ...[15, 20, 27, 37].map((size, i) => ({
      selector: `node.zs${i + 1}`,
      style: { 'font-size': size, 'text-max-width': `${Math.round((180 * size) / 11)}px`, 'text-margin-y': Math.round((3 * size) / 11) },
    })),
    // A path label whose place below its node is taken goes above it (graph-view.ts): the margin of each zoom step, upwards.
    { selector: 'node.label-above', style: { 'text-valign': 'top', 'text-margin-y': -3 } },
    ...[15, 20, 27, 37].map((size, i) => ({
      selector: `node.label-above.zs${i + 1}`,
      style: { 'text-margin-y': -Math.round((3 * size) / 11) },
    })),
    // A path drawn in a column reads as a list: each label beside its node (graph-view.ts).
    { selector: 'node.label-beside', style: { 'text-halign': 'right', 'text-valign': 'center', 'text-margin-x': 6, 'text-margin-y': 0 } },
    { selector: 'node.label-off', style: { 'text-opacity': 0, 'text-background-opacity': 0 } },
    {
      selector: 'node.label-off.near-label, node.label-off:selected, node.label-off.match',
      style: { 'text-opacity': 1, 'text-background-opacity': 0.85, 'z-index': 25 },
    },
    { selector: 'node.crowded.hub, node.crowded.on-path', style: { 'z-index': 25 } },
    // Hubs on their ring (graph-view.ts) read outwards: the label beside the node, away from the middle.
    { selector: 'node.hub.ring-left', style: { 'text-halign': 'left', 'text-valign': 'center', 'text-margin-x': -6, 'text-margin-y': 0 } },
    { selector: 'node.hub.ring-right', style: { 'text-halign': 'right', 'text-valign': 'center', 'text-margin-x': 6, 'text-margin-y': 0 } },
    { selector: 'node.near', style: { 'font-weight': 'bold' } },
    { selector: 'edge.near', style: { opacity: 1, 'z-index': 9 } },
    // The path's labels are never culled: not by placement (graph-view.ts) nor below a size at some zoom.
    {
      selector: 'node.on-path',
      style: { 'border-color': t.focus, 'border-width': 4 * w, 'font-weight': 'bold', 'z-index': 20, 'min-zoomed-font-size': 0 },
    },
    { selector: 'edge.on-path', style: { width: 4 * w, opacity: 1, 'z-index': 10 } },
    {
      selector: '.match',
      style: { 'border-color': t.find, 'border-width': 4 * w, 'underlay-color': t.find, 'underlay-opacity': 0.35, 'underlay-padding': 4 },
    },
    {
      selector: 'node:selected',
      style: { 'border-color': t.focus, 'border-width': 4 * w, 'overlay-color': t.focus, 'overlay-opacity': 0.15, 'overlay-padding': 4 },
    },
    { selector: 'edge:selected', style: { width: 4 * w, 'overlay-color': t.focus, 'overlay-opacity': 0.2 } },
  ];
}
