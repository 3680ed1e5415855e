// The explorer's side column and notice: the selected node's details (proven callers apart from
// guesses), the path's hops, the hubs not expanded, and the one-line notice above the canvas.
// Each renders from plain data into its element; what a click does is the app's (Actions).

import type { DetailsView, EdgeView, NodeView } from '../../src/protocol/messages';
import { clear, h } from '../common/dom';
import { hopEdgeText, hopsPhrase } from '../common/path-text';
import type { Drawn } from './elements';

export interface Actions {
  /** Selects a drawn node, or shows the neighbourhood of one that is not drawn. */
  select(n: NodeView): void;
  selectDrawn(id: string): void;
  open(id: string): void;
  explore(id: string): void;
  expand(id: string): void;
  pathEnd(end: 'from' | 'to', n: NodeView): void;
}

function where(n: NodeView): string {
  return n.file ? `${n.file}${n.line ? `:${n.line}` : ''}` : n.kind === 'unresolved' ? 'no declaration in the repository' : '';
}

function nodeButton(n: NodeView, act: Actions): HTMLElement {
  const b = h(
    'button',
    { type: 'button', class: 'link node-name', title: `${n.label} — ${n.kind}${n.file ? ` · ${where(n)}` : ''}`, 'data-id': n.id },
    n.label,
  );
  b.addEventListener('click', () => act.select(n));
  b.addEventListener('dblclick', () => act.open(n.id));
  return b;
}

/** The notice above the canvas: an answer, a warning or a hint; null hides it. */
export function say(notice: HTMLElement, text: string | null, kind: 'info' | 'warning' | 'answer' = 'info', extra?: Node): void {
  clear(notice);
  notice.hidden = text === null;
  if (text === null) return;
  notice.className = `notice notice-${kind}`;
  notice.append(h('span', {}, text));
  if (extra) notice.append(extra);
}

export function renderDetailsPlaceholder(
  details: HTMLElement,
  text = 'Select a node to see its callers, callees and the records that cite it.',
): void {
  clear(details);
  details.append(h('p', { class: 'muted' }, text));
}

export function renderDetails(details: HTMLElement, d: DetailsView, drawn: Drawn, act: Actions): void {
  clear(details);
  const n = d.node;
  const button = (id: string, text: string, onClick: () => void, disabled = false) => {
    const b = h('button', { type: 'button', id, disabled }, text);
    b.addEventListener('click', onClick);
    return b;
  };
  const exactCallees = d.callees.filter((c) => c.confidence === 'EXACT').length;
  const candCallees = d.callees.filter((c) => c.confidence === 'CANDIDATE').length;
  const unresolved = d.callees.filter((c) => c.confidence === 'UNRESOLVED');
  details.append(
    h('h2', { class: 'details-title' }, n.label),
    h('div', { class: 'muted' }, n.kind),
    h('div', { class: 'where' }, where(n)),
    // A stamped note's words (ADR 88), as text: never read as markup.
    ...(d.text !== undefined ? [h('pre', { class: 'note-text' }, d.text)] : []),
    h('div', {}, `degree ${d.degree}`),
    h(
      'div',
      { class: 'counts' },
      h('strong', {}, `${d.callers.length} proven caller${d.callers.length === 1 ? '' : 's'}`),
      d.candidates.length ? ` · +${d.candidates.length} candidate${d.candidates.length === 1 ? '' : 's'} (guesses)` : '',
    ),
    h(
      'div',
      { class: 'counts' },
      `${exactCallees} proven callee${exactCallees === 1 ? '' : 's'}`,
      candCallees ? ` · +${candCallees} candidate${candCallees === 1 ? '' : 's'}` : '',
      unresolved.length ? ` · ${unresolved.length} unresolved` : '',
    ),
    h(
      'div',
      { class: 'actions' },
      button('details-open', 'Open', () => act.open(n.id)),
      button('details-explore', 'Explore', () => act.explore(n.id)),
      button('details-expand', 'Expand', () => act.expand(n.id), drawn.expanded.includes(n.id) || n.id === drawn.focus),
      button('details-path-from', 'Path from', () => act.pathEnd('from', n)),
      button('details-path-to', 'Path to', () => act.pathEnd('to', n)),
    ),
  );
  const section = (title: string, calls: DetailsView['callers'], cls: string) => {
    if (calls.length === 0) return;
    const ul = h('ul', { class: cls });
    for (const c of calls.slice(0, 50)) {
      ul.append(
        h(
          'li',
          {},
          c.confidence === 'UNRESOLVED' ? h('span', { class: 'node-name unresolved-name' }, c.node.label) : nodeButton(c.node, act),
          h('span', { class: `conf conf-${c.confidence.toLowerCase()}` }, ` ${c.confidence}`),
          c.reason ? h('span', { class: 'muted' }, ` (${c.reason})`) : null,
          c.at ? h('span', { class: 'muted' }, ` at ${c.at}`) : null,
        ),
      );
    }
    if (calls.length > 50) ul.append(h('li', { class: 'muted' }, `… and ${calls.length - 50} more`));
    details.append(h('h3', {}, `${title} (${calls.length})`), ul);
  };
  section('Proven callers', d.callers, 'callers');
  section('Candidate callers (name matches)', d.candidates, 'candidates');
  section(
    'Calls',
    d.callees.filter((c) => c.confidence !== 'UNRESOLVED'),
    'callees',
  );
  section('Unresolved calls', unresolved, 'unresolved');
  if (d.citedBy.length) {
    const ul = h('ul', { class: 'cited-by' });
    for (const c of d.citedBy) ul.append(h('li', {}, nodeButton(c, act)));
    details.append(h('h3', {}, `Cited by (${d.citedBy.length})`), ul);
  }
}

export function renderHops(hopsEl: HTMLElement, hops: { nodes: NodeView[]; edges: EdgeView[] } | null, act: Actions): void {
  clear(hopsEl);
  if (!hops || hops.nodes.length === 0) return;
  hopsEl.append(h('h3', {}, `Path: ${hopsPhrase(hops.edges)}`));
  const ol = h('ol', { class: 'hop-list' });
  hops.nodes.forEach((n, i) => {
    const li = h('li', {}, nodeButton(n, act), h('span', { class: 'muted' }, ` ${where(n)}`));
    const e = hops.edges[i];
    if (e) li.append(h('div', { class: `hop-edge conf-${e.confidence.toLowerCase()}` }, hopEdgeText(e, n.id)));
    ol.append(li);
  });
  hopsEl.append(ol);
}

export function renderHubs(hubsEl: HTMLElement, drawn: Drawn, act: Actions): void {
  clear(hubsEl);
  const hubs = [...drawn.hubs].filter((id) => drawn.nodes.has(id));
  if (hubs.length === 0) return;
  hubsEl.append(
    h('h3', {}, `◆ Hubs not expanded (${hubs.length})`),
    h(
      'p',
      { class: 'hint' },
      `More than ${drawn.hubThreshold} links each: drawn at the edge of the picture, but not walked through, so they do not pull in half the code base.`,
    ),
  );
  const list = h('ul', {});
  for (const id of hubs) {
    const n = drawn.nodes.get(id);
    const label = n?.label ?? id;
    const b = h('button', { type: 'button', class: 'link', 'data-expand': id, title: `Expand ${label}` }, 'Expand');
    b.addEventListener('click', () => act.expand(id));
    const name = h('button', { type: 'button', class: 'link node-name', title: n ? `${label} — ${where(n)}` : label }, label);
    name.addEventListener('click', () => act.selectDrawn(id));
    list.append(h('li', {}, name, h('span', { class: 'muted' }, ` ${n?.degree ?? '?'} links `), b));
  }
  hubsEl.append(list);
}
