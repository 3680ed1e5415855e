// The path finder in the side bar: From and To fields that autocomplete through the graph's
// `query` (symbols first, then files and modules), the shortest path as a list of hops with each
// relation and confidence, a click opens the source, and "Show in explorer" draws it. "Not
// connected" is an answer; a degrade is a banner, never an empty list.

import { assertNever, type Banner, type EdgeView, type HostMessage, type NodeView } from '../../src/protocol/messages';
import { renderBanner } from '../common/banner';
import { clear, h, must } from '../common/dom';
import { connect } from '../common/host';
import { hopEdgeText, hopsPhrase } from '../common/path-text';

interface SavedState {
  v: 1;
  from: string;
  to: string;
  /** The last answer, so a reload shows it again without asking. */
  result: { from: NodeView; to: NodeView; nodes: NodeView[]; edges: EdgeView[] } | null;
}

const host = connect<SavedState>();
const saved = host.getState();
const state: SavedState = saved && saved.v === 1 ? saved : { v: 1, from: '', to: '', result: null };

let banner: Banner | null = null;
let nextRequest = 1;
const pending = new Map<number, 'path' | 'suggest-from' | 'suggest-to'>();

const app = must(document.getElementById('app'), '#app');
const bannerEl = h('div', { class: 'banner', role: 'alert', hidden: true });
const fromInput = h('input', {
  type: 'text',
  id: 'from',
  list: 'from-options',
  placeholder: 'symbol, file or module',
  autocomplete: 'off',
  value: state.from,
});
const toInput = h('input', {
  type: 'text',
  id: 'to',
  list: 'to-options',
  placeholder: 'symbol, file or module',
  autocomplete: 'off',
  value: state.to,
});
const fromOptions = h('datalist', { id: 'from-options' });
const toOptions = h('datalist', { id: 'to-options' });
const find = h('button', { type: 'button', id: 'find' }, 'Find');
const swap = h('button', { type: 'button', id: 'swap', title: 'Swap From and To', 'aria-label': 'Swap From and To' }, '⇅');
const result = h('div', { id: 'result', class: 'result', 'aria-live': 'polite' });
const showInExplorer = h('button', { type: 'button', id: 'show-in-explorer', hidden: true }, 'Show in explorer');

app.append(
  bannerEl,
  h(
    'form',
    { class: 'path-form', id: 'path-form' },
    h('label', { for: 'from' }, 'From'),
    fromInput,
    fromOptions,
    h('label', { for: 'to' }, 'To'),
    toInput,
    toOptions,
    h('div', { class: 'actions' }, find, swap),
  ),
  result,
  showInExplorer,
);

function save(): void {
  state.from = fromInput.value;
  state.to = toInput.value;
  host.setState(state);
}

function request(kind: 'path' | 'suggest-from' | 'suggest-to'): number {
  const id = nextRequest++;
  for (const [k, v] of pending) if (v === kind) pending.delete(k);
  pending.set(id, kind);
  return id;
}

function where(n: NodeView): string {
  return n.file ? `${n.file}${n.line ? `:${n.line}` : ''}` : '';
}

function renderResult(): void {
  clear(result);
  showInExplorer.hidden = true;
  const r = state.result;
  if (!r) return;
  if (r.nodes.length === 0) {
    const caveat = banner && !banner.blocking ? ` Cannot tell for sure: ${banner.reason}` : '';
    result.append(
      h(
        'p',
        { class: 'not-connected', id: 'not-connected' },
        `Not connected: nothing links ${r.from.label} and ${r.to.label} in the graph.${caveat}`,
      ),
    );
    return;
  }
  result.append(
    h('p', { class: 'muted', id: 'path-summary' }, `${hopsPhrase(r.edges)}${banner && !banner.blocking ? ` — ${banner.reason}` : ''}`),
  );
  const ol = h('ol', { class: 'hop-list', id: 'hops' });
  r.nodes.forEach((n, i) => {
    const open = h('button', { type: 'button', class: 'link node-name hop', 'data-id': n.id, title: `Open ${n.id}` }, n.label);
    open.addEventListener('click', () => host.post({ type: 'open', id: n.id }));
    const li = h('li', {}, open, h('span', { class: 'muted' }, ` ${n.kind} · ${where(n)}`));
    const e = r.edges[i];
    if (e) li.append(h('div', { class: `hop-edge conf-${e.confidence.toLowerCase()}` }, hopEdgeText(e, n.id)));
    ol.append(li);
  });
  result.append(ol);
  showInExplorer.hidden = false;
}

function findPath(): void {
  save();
  const from = fromInput.value.trim();
  const to = toInput.value.trim();
  if (!from || !to) {
    clear(result);
    result.append(h('p', { class: 'muted' }, 'Give both ends: start typing a name and pick a suggestion.'));
    return;
  }
  if (banner?.blocking) return;
  clear(result);
  result.append(h('p', { class: 'muted' }, 'Finding the shortest path…'));
  host.post({ type: 'path', requestId: request('path'), from, to });
}

document.getElementById('path-form')?.addEventListener('submit', (e) => {
  e.preventDefault();
  findPath();
});
find.addEventListener('click', findPath);
swap.addEventListener('click', () => {
  [fromInput.value, toInput.value] = [toInput.value, fromInput.value];
  save();
});
for (const [input, kind] of [
  [fromInput, 'suggest-from'],
  [toInput, 'suggest-to'],
] as const) {
  input.addEventListener('input', () => {
    save();
    const text = input.value.trim();
    if (text.length >= 2) host.post({ type: 'suggest', requestId: request(kind), text });
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      findPath();
    }
  });
}
showInExplorer.addEventListener('click', () => {
  const r = state.result;
  if (r && r.nodes.length > 0) host.post({ type: 'showInExplorer', request: { mode: 'path', from: r.from.id, to: r.to.id } });
});

function fill(list: HTMLDataListElement, items: NodeView[]): void {
  clear(list);
  for (const n of items) list.append(h('option', { value: n.id, label: `${n.label} — ${n.kind}${n.file ? ` · ${n.file}` : ''}` }));
}

host.onMessage((m: HostMessage) => {
  switch (m.type) {
    case 'status':
      banner = m.banner;
      renderBanner(bannerEl, banner, host.post);
      find.disabled = banner?.blocking === true;
      if (banner?.blocking) {
        clear(result);
        showInExplorer.hidden = true;
      } else renderResult();
      return;
    case 'path':
      if (pending.get(m.requestId) !== 'path') return;
      pending.delete(m.requestId);
      state.result = { from: m.from, to: m.to, nodes: m.nodes, edges: m.edges };
      save();
      renderResult();
      return;
    case 'unavailable': {
      if (!pending.has(m.requestId)) return;
      pending.delete(m.requestId);
      state.result = null;
      save();
      clear(result);
      result.append(h('p', { class: 'unavailable' }, `Unavailable: ${m.reason}`));
      if (m.suggestions.length) {
        const ul = h('ul', { class: 'suggestions' });
        for (const s of m.suggestions.slice(0, 8)) ul.append(h('li', {}, `${s.label} — ${s.id}`));
        result.append(h('p', { class: 'muted' }, 'Did you mean:'), ul);
      }
      return;
    }
    case 'suggestions': {
      const kind = pending.get(m.requestId);
      pending.delete(m.requestId);
      if (kind === 'suggest-from') fill(fromOptions, m.items);
      if (kind === 'suggest-to') fill(toOptions, m.items);
      return;
    }
    case 'defaultEndpoint':
      // Offered, never forced: only an empty From field takes the symbol at the cursor.
      if (m.node && !fromInput.value) {
        fromInput.value = m.node.id;
        fill(fromOptions, [m.node]);
        save();
      }
      return;
    case 'show':
      if (m.request.mode === 'path') {
        fromInput.value = m.request.from;
        toInput.value = m.request.to;
        if (m.request.from && m.request.to) findPath();
        else (m.request.from ? toInput : fromInput).focus();
      }
      save();
      return;
    case 'neighborhood':
    case 'details':
    case 'saved':
      return;
    default:
      assertNever(m);
  }
});

renderResult();
host.post({ type: 'ready' });
