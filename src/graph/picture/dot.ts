// A picture in Graphviz's DOT language (ADR 156), for whoever has Graphviz (kg never runs it).
// Node names are the quoted `"n0"`, `"n1"` … (picture.ts); every text is a quoted string with `\`
// and `"` escaped, so a label never ends its string, and Graphviz's own escapes (`\N`, `\G`, `\l`)
// cannot be spelled by a name: a backslash in a name is always `\\`. The `\n` between a node's
// two lines is the only escape kg writes.

import type { Confidence } from '../model';
import { arrange, LINE_COLOUR, WARNING_COLOUR, type Picture } from './picture';

/** Shown text (picture.ts) inside a DOT quoted string, shown literally. */
const esc = (shown: string): string => shown.replace(/[\\"]/g, (c) => '\\' + c);

const LINE: Record<Confidence, string> = { EXACT: 'solid', CANDIDATE: 'dashed', UNRESOLVED: 'dotted' };

function edgeAttributes(confidence: Confidence, text: string): string {
  const colour = confidence === 'UNRESOLVED' ? WARNING_COLOUR : LINE_COLOUR;
  return `[label="${esc(text)}", style=${LINE[confidence]}, color="${colour}", fontcolor="${colour}"]`;
}

export function dotPicture(p: Picture): string {
  const { nodes, edges, notes, legend } = arrange(p);
  const lines = [
    'digraph "knowledge-graph" {',
    '  graph [rankdir=LR, fontname="Helvetica", fontsize=10];',
    `  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10, color="${LINE_COLOUR}"];`,
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  for (const n of nodes) {
    const label = esc(n.label) + (n.detail !== undefined ? '\\n' + esc(n.detail) : '');
    const role = n.role === 'focus' ? ', penwidth=2.5' : n.role === 'outside' ? `, style="rounded,dotted", color="${WARNING_COLOUR}"` : '';
    lines.push(`  "${n.key}" [label="${label}", tooltip="${esc(n.title)}"${role}];`);
  }
  for (const e of edges) lines.push(`  "${e.from}" -> "${e.to}" ${edgeAttributes(e.confidence, e.text)};`);
  lines.push('  subgraph "cluster_legend" {', '    label="Legend";', '    node [shape=point, width=0.05];');
  legend.forEach((l, i) => lines.push(`    "l${i}a" -> "l${i}b" ${edgeAttributes(l.confidence, l.text)};`));
  notes.forEach((note, i) => lines.push(`    "note${i}" [shape=plaintext, width=0, label="${esc(note)}"];`));
  lines.push('  }', '}');
  return lines.join('\n') + '\n';
}
