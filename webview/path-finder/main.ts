// The path finder in the side bar: From and To fields that show a node's label (its id kept
// underneath) and suggest through the graph's ranked search (docs/adr/0093), the shortest path as
// a list of hops with each relation and confidence, a click opens the source, and "Show in
// explorer" draws it. "Not connected" is an answer; a degrade is a banner, never an empty list,
// and an answer from before a blocking banner is not shown again after it.

import { assertNever, type Banner, type EdgeView, type HostMessage, type NodeView } from '../../src/protocol/messages';
import { renderBanner } from '../common/banner';
import { clear, h, must } from '../common/dom';
import { EndpointField, nameOfId, placeOfView, type Endpoint } from '../common/endpoint-field';
import { connect } from '../common/host';
import { hopEdgeText, hopsPhrase } from '../common/path-text';

/** A field as saved: the node it holds, or the text typed into it. */
type FieldState = { node: Endpoint } | { text: string };

interface SavedState {
  v: 2;
  from: FieldState;
  to: FieldState;
  /** The last answer and the signature of the graph that gave it, so a reload shows it again without asking. */
  result: { from: NodeView; to: NodeView; nodes: NodeView[]; edges: EdgeView[] } | null;
  signature?: string;
}

/** A field of an older state (v1 kept ids or text as typed): an id becomes a node, with a readable name until it is answered. */
function fieldOf(x: unknown): FieldState {
  if (typeof x === 'string') return /^(sym|file|mod|adr|doc|rationale):/.test(x) ? { node: { id: x, label: nameOfId(x) } } : { text: x };
  if (typeof x === 'object' && x !== null) {
    const f = x as { node?: Partial<Endpoint>; text?: unknown };
    if (f.node && typeof f.node.id === 'string' && typeof f.node.label === 'string')
      return { node: { id: f.node.id, label: f.node.label } };
    if (typeof f.text === 'string') return { text: f.text };
  }
  return { text: '' };
}

const host = connect<SavedState>();
const saved = host.getState() as Partial<SavedState> | { v: 1; from: string; to: string; result: SavedState['result'] } | undefined;
const state: SavedState =
  saved && (saved.v === 1 || saved.v === 2)
    ? {
        v: 2,
        from: fieldOf(saved.from),
        to: fieldOf(saved.to),
        result: saved.result ?? null,
        ...('signature' in saved && typeof saved.signature === 'string' ? { signature: saved.signature } : {}),
      }
    : { v: 2, from: { text: '' }, to: { text: '' }, result: null };
/** The signature of the graph that answers now. */
let signature: string | undefined;

let banner: Banner | null = null;
let nextRequest = 1;
const pending = new Map<number, 'path' | 'suggest-from' | 'suggest-to'>();

const app = must(document.getElementById('app'), '#app');
const bannerEl = h('div', { class: 'banner', role: 'alert', hidden: true });
const field = (id: 'from' | 'to', label: string) =>
  new EndpointField({
    id,
    label,
    placeholder: 'symbol, file or module',
    suggest: (text) => host.post({ type: 'suggest', requestId: request(id === 'from' ? 'suggest-from' : 'suggest-to'), text }),
    submit: () => findPath(),
    changed: () => save(),
  });
const from = field('from', 'From');
const to = field('to', 'To');
const restoreField = (f: EndpointField, s: FieldState) => {
  if ('node' in s) f.set(s.node);
  else {
    f.set(undefined);
    f.input.value = s.text;
  }
};
restoreField(from, state.from);
restoreField(to, state.to);
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
    from.root,
    h('label', { for: 'to' }, 'To'),
    to.root,
    h('div', { class: 'actions' }, find, swap),
  ),
  result,
  showInExplorer,
);

function fieldState(f: EndpointField): FieldState {
  return f.endpoint ? { node: f.endpoint } : { text: f.input.value };
}

function save(): void {
  state.from = fieldState(from);
  state.to = fieldState(to);
  host.setState(state);
}

function request(kind: 'path' | 'suggest-from' | 'suggest-to'): number {
  const id = nextRequest++;
  for (const [k, v] of pending) if (v === kind) pending.delete(k);
  pending.set(id, kind);
  return id;
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
    const open = h('button', { type: 'button', class: 'link node-name hop', 'data-id': n.id, title: `Open ${n.label}` }, n.label);
    open.addEventListener('click', () => host.post({ type: 'open', id: n.id }));
    const li = h('li', {}, open, h('span', { class: 'muted' }, ` ${n.kind} · ${placeOfView(n)}`));
    const e = r.edges[i];
    if (e) li.append(h('div', { class: `hop-edge conf-${e.confidence.toLowerCase()}` }, hopEdgeText(e, n.id)));
    ol.append(li);
  });
  result.append(ol);
  showInExplorer.hidden = false;
}

function findPath(): void {
  save();
  if (!from.query || !to.query) {
    clear(result);
    result.append(h('p', { class: 'muted' }, 'Give both ends: start typing a name and pick a suggestion.'));
    return;
  }
  if (banner?.blocking) return;
  clear(result);
  result.append(h('p', { class: 'muted' }, 'Finding the shortest path…'));
  host.post({ type: 'path', requestId: request('path'), from: from.query, to: to.query });
}

document.getElementById('path-form')?.addEventListener('submit', (e) => {
  e.preventDefault();
  findPath();
});
find.addEventListener('click', findPath);
swap.addEventListener('click', () => {
  const [a, b] = [fieldState(from), fieldState(to)];
  restoreField(from, b);
  restoreField(to, a);
  save();
});
showInExplorer.addEventListener('click', () => {
  const r = state.result;
  if (r && r.nodes.length > 0) host.post({ type: 'showInExplorer', request: { mode: 'path', from: r.from.id, to: r.to.id } });
});

host.onMessage((m: HostMessage) => {
  switch (m.type) {
    case 'status': {
      banner = m.banner;
      signature = m.signature;
      renderBanner(bannerEl, banner, host.post);
      find.disabled = banner?.blocking === true;
      if (banner?.blocking) {
        // The answer was the graph that is gone: it is not shown again when a graph is back.
        state.result = null;
        save();
        clear(result);
        showInExplorer.hidden = true;
      } else if (state.result && signature !== undefined && state.signature !== signature) {
        // Another graph answers now: ask it, rather than show what the one before said.
        if (from.query && to.query) findPath();
        else {
          state.result = null;
          renderResult();
        }
      } else renderResult();
      return;
    }
    case 'path':
      if (pending.get(m.requestId) !== 'path') return;
      pending.delete(m.requestId);
      state.result = { from: m.from, to: m.to, nodes: m.nodes, edges: m.edges };
      state.signature = signature;
      from.set({ id: m.from.id, label: m.from.label });
      to.set({ id: m.to.id, label: m.to.label });
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
        // A suggestion replaces the end the graph does not hold (the answer says which).
        const end = m.unknownEnd === 'to' ? to : from;
        for (const s of m.suggestions.slice(0, 8)) {
          const b = h('button', { type: 'button', class: 'link node-name', title: `${s.label} — ${s.kind} · ${placeOfView(s)}` }, s.label);
          b.addEventListener('click', () => {
            end.set({ id: s.id, label: s.label });
            findPath();
          });
          ul.append(h('li', {}, b, h('span', { class: 'muted' }, ` ${s.kind} · ${placeOfView(s)}`)));
        }
        result.append(h('p', { class: 'muted' }, `Did you mean (${m.unknownEnd === 'to' ? 'To' : 'From'}):`), ul);
      }
      return;
    }
    case 'suggestions': {
      const kind = pending.get(m.requestId);
      pending.delete(m.requestId);
      if (kind === 'suggest-from') from.offer(m.items);
      if (kind === 'suggest-to') to.offer(m.items);
      return;
    }
    case 'defaultEndpoint':
      // Offered, never forced: only an empty From field takes the symbol at the cursor.
      // Shown by its label; typing replaces it (never appends to it).
      if (m.node && !from.query) {
        from.set({ id: m.node.id, label: m.node.label });
        save();
      }
      return;
    case 'show':
      if (m.request.mode === 'path') {
        // Ids from a command: a readable name until the answer brings the labels.
        const { from: f, to: t } = m.request;
        from.set(f ? { id: f, label: nameOfId(f) } : undefined);
        to.set(t ? { id: t, label: nameOfId(t) } : undefined);
        if (f && t) findPath();
        else (f ? to : from).input.focus();
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
