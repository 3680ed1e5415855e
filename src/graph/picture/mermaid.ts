// A picture as a Mermaid flowchart (ADR 156): what a README, a pull-request comment or a decision
// record shows in a ```mermaid block. Nodes are `n0`, `n1` … (picture.ts); every text is a quoted
// label in which only letters, digits, spaces and a few harmless marks stand for themselves — the
// rest, quotes, brackets, `<`, `#`, `;`, backticks and anything outside ASCII, is written as
// Mermaid's entity code `#<decimal>;`, which it shows as that character and never reads as syntax.
// Line styles come from `linkStyle` by the edge's index: dashed CANDIDATE, dotted UNRESOLVED.

import type { Confidence } from '../model';
import { arrange, LINE_COLOUR, WARNING_COLOUR, type Picture } from './picture';

/** What stands for itself in a quoted label; `·`, `…` and `→` are kg's own separators. */
const SAFE = /[A-Za-z0-9 .,:/_@$+=?!'()*\-·…→]/u;

/** Shown text (picture.ts) as a Mermaid quoted label shows it literally. */
function esc(shown: string): string {
  let out = '';
  for (const c of shown) out += SAFE.test(c) ? c : `#${c.codePointAt(0)};`;
  return out;
}

const ARROW: Record<Confidence, string> = { EXACT: '-->', CANDIDATE: '-.->', UNRESOLVED: '-.->' };
const STYLE: Record<Confidence, string | undefined> = {
  EXACT: undefined,
  CANDIDATE: `stroke:${LINE_COLOUR},stroke-dasharray:6 4`,
  UNRESOLVED: `stroke:${WARNING_COLOUR},stroke-dasharray:2 3,color:${WARNING_COLOUR}`,
};

export function mermaidPicture(p: Picture): string {
  const { nodes, edges, notes, legend } = arrange(p);
  const lines = ['flowchart LR'];
  for (const n of nodes) lines.push(`  ${n.key}["${esc(n.label)}${n.detail !== undefined ? `<br/>${esc(n.detail)}` : ''}"]`);
  const styled: Record<Confidence, number[]> = { EXACT: [], CANDIDATE: [], UNRESOLVED: [] };
  let index = 0;
  for (const e of edges) {
    lines.push(`  ${e.from} ${ARROW[e.confidence]}|"${esc(e.text)}"| ${e.to}`);
    styled[e.confidence].push(index++);
  }
  // The legend: one sample edge per confidence, drawn in its style, and the notes.
  lines.push('  subgraph legend["Legend"]', '    direction LR');
  legend.forEach((l, i) => {
    lines.push(`    l${i}a[" "] ${ARROW[l.confidence]}|"${esc(l.text)}"| l${i}b[" "]`);
    styled[l.confidence].push(index++);
  });
  notes.forEach((note, i) => lines.push(`    note${i}["${esc(note)}"]`));
  lines.push('  end');
  for (const c of ['CANDIDATE', 'UNRESOLVED'] as const) {
    const style = STYLE[c];
    if (style !== undefined && styled[c].length > 0) lines.push(`  linkStyle ${styled[c].join(',')} ${style}`);
  }
  const focus = nodes.filter((n) => n.role === 'focus').map((n) => n.key);
  const outside = nodes.filter((n) => n.role === 'outside').map((n) => n.key);
  lines.push('  classDef focus stroke-width:3px', `  classDef outside stroke:${WARNING_COLOUR},stroke-dasharray:2 3`);
  if (focus.length > 0) lines.push(`  class ${focus.join(',')} focus`);
  if (outside.length > 0) lines.push(`  class ${outside.join(',')} outside`);
  return lines.join('\n') + '\n';
}
