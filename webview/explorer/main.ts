// The graph explorer: a node's neighbourhood or the shortest path between two nodes, drawn with
// Cytoscape.js (force layout: fcose; layered: dagre — docs/adr/0065). It speaks to the host only
// through the shared protocol and names nodes by id; the host answers with what the graph says.
// Its UI state (what is shown, expansions, grouping, layout, positions, viewport) lives in
// getState/setState, so a reload brings the same picture back.

import cytoscape, { type Core, type LayoutOptions, type NodeSingular } from 'cytoscape';
import dagre from 'cytoscape-dagre';
import fcose from 'cytoscape-fcose';
import {
  assertNever,
  type Banner,
  type DetailsView,
  type EdgeView,
  type HostMessage,
  type NodeView,
  type ShowRequest,
} from '../../src/protocol/messages';
import { renderBanner } from '../common/banner';
import { clear, h, must } from '../common/dom';
import { connect } from '../common/host';
import { hopEdgeText, hopsPhrase } from '../common/path-text';
import { readTheme, watchTheme } from '../common/theme';
import { addAll, buildElements, edgeKeyOf, emptyDrawn, type Drawn, type Grouping } from './elements';
import { graphStyle } from './style';

cytoscape.use(fcose);
cytoscape.use(dagre);

type LayoutName = 'force' | 'layered';

interface SavedState {
  v: 1;
  folder?: string;
  request: ShowRequest | null;
  /** The neighbourhood a path is drawn over (path mode started from a drawn neighbourhood). */
  base?: Extract<ShowRequest, { mode: 'neighbors' }>;
  budget: number;
  grouping: Grouping;
  layout: LayoutName;
  expanded: string[];
  unfolded: string[];
  selected: string | null;
  search: string;
  positions?: Record<string, [number, number]>;
  /** The viewport and the size of the canvas it was seen in. */
  viewport?: { zoom: number; x: number; y: number; w: number; h: number };
}

const host = connect<SavedState>();
const saved = host.getState();
const state: SavedState =
  saved && saved.v === 1
    ? saved
    : { v: 1, request: null, budget: 40, grouping: 'none', layout: 'force', expanded: [], unfolded: [], selected: null, search: '' };

let banner: Banner | null = null;
let nodeCap = 500;
let hostBudget = 40;
let drawn: Drawn = emptyDrawn();
let mode: 'neighbors' | 'path' = state.request?.mode ?? 'neighbors';
let nextRequest = 1;
const pending = new Map<number, 'neighbors' | 'expand' | 'path' | 'details' | 'suggest-from' | 'suggest-to'>();
/** Expansions to replay after a reload, in the order the user made them. */
let replay: string[] = [];
let restoring = false;
let firstStatus = true;
let pathHops: { nodes: NodeView[]; edges: EdgeView[] } | null = null;
/** After a reload of a path drawn over a neighbourhood: the path to ask for once the base is back. */
let restorePath: Extract<ShowRequest, { mode: 'path' }> | null = null;
let matches: string[] = [];
let matchIndex = -1;

// ── Page ─────────────────────────────────────────────────────────────────────────────────────────
const app = must(document.getElementById('app'), '#app');
const bannerEl = h('div', { class: 'banner', role: 'alert', hidden: true });
const search = h('input', {
  type: 'search',
  id: 'search',
  placeholder: 'Search shown nodes (/)',
  'aria-label': 'Search the nodes shown',
  value: state.search,
});
const searchCount = h('span', { class: 'search-count', 'aria-live': 'polite' });
const modeNeighbors = h('input', { type: 'radio', name: 'mode', id: 'mode-neighbors', value: 'neighbors' });
const modePath = h('input', { type: 'radio', name: 'mode', id: 'mode-path', value: 'path' });
const focusLabel = h('span', { class: 'focus-label', id: 'focus-label' });
const budgetInput = h('input', {
  type: 'number',
  id: 'budget',
  min: '1',
  max: '5000',
  step: '10',
  'aria-label': 'Budget: how many nodes the neighbourhood may hold',
  value: String(state.budget),
});
const fromInput = h('input', {
  type: 'text',
  id: 'path-from',
  list: 'from-options',
  placeholder: 'from: symbol, file or module',
  'aria-label': 'Path from',
  autocomplete: 'off',
});
const toInput = h('input', {
  type: 'text',
  id: 'path-to',
  list: 'to-options',
  placeholder: 'to: symbol, file or module',
  'aria-label': 'Path to',
  autocomplete: 'off',
});
const fromOptions = h('datalist', { id: 'from-options' });
const toOptions = h('datalist', { id: 'to-options' });
const findButton = h('button', { type: 'button', id: 'find-path' }, 'Find path');
const groupSelect = h(
  'select',
  { id: 'grouping', 'aria-label': 'Group nodes' },
  h('option', { value: 'none' }, 'no grouping'),
  h('option', { value: 'file' }, 'group by file'),
  h('option', { value: 'module' }, 'group by module'),
);
const layoutSelect = h(
  'select',
  { id: 'layout', 'aria-label': 'Layout' },
  h('option', { value: 'force' }, 'force layout'),
  h('option', { value: 'layered' }, 'layered (call chains)'),
);
const fitButton = h('button', { type: 'button', id: 'fit', title: 'Fit the graph (F)' }, 'Fit');
const zoomIn = h('button', { type: 'button', id: 'zoom-in', title: 'Zoom in (+)', 'aria-label': 'Zoom in' }, '+');
const zoomOut = h('button', { type: 'button', id: 'zoom-out', title: 'Zoom out (-)', 'aria-label': 'Zoom out' }, '−');
const exportButton = h('button', { type: 'button', id: 'export-png' }, 'Export PNG');
const summaryEl = h('span', { class: 'summary', id: 'summary' });
const neighborsControls = h(
  'span',
  { class: 'mode-controls', id: 'neighbors-controls' },
  focusLabel,
  h('label', { for: 'budget' }, 'budget '),
  budgetInput,
);
const pathControls = h(
  'span',
  { class: 'mode-controls', id: 'path-controls' },
  fromInput,
  fromOptions,
  h('span', { 'aria-hidden': 'true' }, '→'),
  toInput,
  toOptions,
  findButton,
);
const notice = h('div', { class: 'notice', id: 'notice', role: 'status', 'aria-live': 'polite', hidden: true });
const cyEl = h('div', {
  id: 'cy',
  tabindex: '0',
  role: 'application',
  'aria-label': 'Graph. Arrow keys move between nodes, Enter opens the source, E expands, F fits, Escape clears.',
});
const empty = h('div', { class: 'empty', id: 'empty' }, 'Nothing shown yet. Run “Explore Neighbors” on a symbol, or switch to Path.');
const details = h('section', { class: 'details', id: 'details', 'aria-label': 'Details of the selected node' });
const hubsEl = h('section', { class: 'hubs', id: 'hubs', 'aria-label': 'Hubs not expanded' });
const hopsEl = h('section', { class: 'hops', id: 'hops', 'aria-label': 'Path hops' });
const announcer = h('div', { class: 'sr-only', 'aria-live': 'polite' });
const legend = h(
  'footer',
  { class: 'legend', 'aria-label': 'Legend' },
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch line exact' }), 'EXACT (proven by the checker)'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch line candidate' }), 'CANDIDATE (name match, a guess)'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch line unresolved' }), 'UNRESOLVED'),
  h('span', { class: 'legend-sep' }, '│'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch rel calls' }), 'calls'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch rel imports' }), 'imports'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch rel inheritance' }), 'extends/implements'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch rel cites' }), 'cites'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch rel contains' }), 'contains'),
  h('span', { class: 'legend-sep' }, '│'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch hub' }), 'hub, not expanded'),
  h('span', { class: 'legend-item' }, h('span', { class: 'swatch aggregate' }), 'folded group'),
);

app.append(
  bannerEl,
  h(
    'div',
    { class: 'toolbar', role: 'toolbar', 'aria-label': 'Explorer' },
    search,
    searchCount,
    h(
      'span',
      { class: 'mode', role: 'radiogroup', 'aria-label': 'Mode' },
      modeNeighbors,
      h('label', { for: 'mode-neighbors' }, 'Neighbors'),
      modePath,
      h('label', { for: 'mode-path' }, 'Path'),
    ),
    neighborsControls,
    pathControls,
  ),
  h('div', { class: 'toolbar' }, groupSelect, layoutSelect, fitButton, zoomIn, zoomOut, exportButton, summaryEl),
  notice,
  h('div', { class: 'main' }, h('div', { class: 'canvas' }, cyEl, empty), h('aside', { class: 'side' }, details, hopsEl, hubsEl)),
  legend,
  announcer,
);
groupSelect.value = state.grouping;
layoutSelect.value = state.layout;
if (state.request?.mode === 'path') {
  fromInput.value = state.request.from;
  toInput.value = state.request.to;
}

let theme = readTheme();
const cy: Core = cytoscape({
  container: cyEl,
  style: graphStyle(theme),
  elements: [],
  minZoom: 0.05,
  maxZoom: 4,
  wheelSensitivity: 0.3,
  boxSelectionEnabled: false,
  selectionType: 'single',
});
watchTheme(() => {
  theme = readTheme();
  cy.style(graphStyle(theme));
});

// ── State ────────────────────────────────────────────────────────────────────────────────────────
function save(): void {
  if (cy.nodes().length > 0 && !restoring) {
    const positions: Record<string, [number, number]> = {};
    cy.nodes().forEach((n) => {
      if (n.isParent()) return;
      const p = n.position();
      positions[n.id()] = [Math.round(p.x), Math.round(p.y)];
    });
    state.positions = positions;
    const pan = cy.pan();
    state.viewport = { zoom: cy.zoom(), x: pan.x, y: pan.y, w: cy.width(), h: cy.height() };
  }
  state.expanded = [...drawn.expanded];
  state.unfolded = [...drawn.unfolded];
  host.setState(state);
}

function setMode(m: 'neighbors' | 'path'): void {
  mode = m;
  modeNeighbors.checked = m === 'neighbors';
  modePath.checked = m === 'path';
  neighborsControls.hidden = m !== 'neighbors';
  pathControls.hidden = m !== 'path';
  hopsEl.hidden = m !== 'path';
}
setMode(mode);

function say(text: string | null, kind: 'info' | 'warning' | 'answer' = 'info', extra?: Node): void {
  clear(notice);
  notice.hidden = text === null;
  if (text === null) return;
  notice.className = `notice notice-${kind}`;
  notice.append(h('span', {}, text));
  if (extra) notice.append(extra);
}

// ── Requests ─────────────────────────────────────────────────────────────────────────────────────
function request(kind: 'neighbors' | 'expand' | 'path' | 'details' | 'suggest-from' | 'suggest-to'): number {
  const id = nextRequest++;
  // One answer of each kind is awaited at a time: a newer request supersedes an older one.
  for (const [k, v] of pending) if (v === kind) pending.delete(k);
  pending.set(id, kind);
  return id;
}

function budget(): number {
  const b = Number(budgetInput.value);
  return Number.isInteger(b) && b >= 1 && b <= 5000 ? b : hostBudget;
}

function show(req: ShowRequest, keepExpansions = false): void {
  state.request = req;
  if (!keepExpansions) {
    state.expanded = [];
    state.unfolded = [];
    state.positions = undefined;
    state.viewport = undefined;
  }
  if (req.mode === 'neighbors') state.base = undefined;
  setMode(req.mode);
  if (banner?.blocking) {
    drawEmpty();
    save();
    return;
  }
  if (req.mode === 'neighbors') {
    host.post({ type: 'neighbors', requestId: request('neighbors'), id: req.id, budget: budget(), expand: false });
  } else {
    fromInput.value = req.from;
    toInput.value = req.to;
    host.post({ type: 'path', requestId: request('path'), from: req.from, to: req.to });
  }
  save();
}

function expand(id: string): void {
  if (drawn.expanded.includes(id)) return;
  host.post({ type: 'neighbors', requestId: request('expand'), id, budget: budget(), expand: true });
}

function selectNode(id: string | null, center = false): void {
  cy.elements().unselect();
  state.selected = id;
  markNear(id ? cy.getElementById(id) : null);
  if (!id) {
    renderDetailsPlaceholder();
    save();
    return;
  }
  const n = cy.getElementById(id);
  if (n.nonempty()) {
    n.select();
    if (center) cy.animate({ center: { eles: n }, duration: 150 });
    announcer.textContent = `${String(n.data('label'))}, ${String(n.data('kind'))}`;
  }
  if (!id.startsWith('agg:') && !id.startsWith('grp:')) host.post({ type: 'details', requestId: request('details'), id });
  save();
}

// ── Drawing ──────────────────────────────────────────────────────────────────────────────────────
function drawEmpty(): void {
  cy.elements().remove();
  drawn = emptyDrawn();
  empty.hidden = false;
  empty.textContent = banner?.blocking
    ? 'The graph cannot answer yet: see the banner above.'
    : 'Nothing shown yet. Run “Explore Neighbors” on a symbol, or switch to Path.';
  clear(hubsEl);
  clear(hopsEl);
  renderDetailsPlaceholder();
  host.post({ type: 'drawn', mode: 'empty', nodes: [], aggregated: 0, title: '' });
}

/** Past this many drawn nodes, only the nodes that matter are labelled until the user zooms in (docs/adr/0069). */
const CROWDED = 24;
/** The most neighbours of a hovered or selected node that are labelled with it in a crowded picture. */
const NEAR_LABELS = 15;

/** The nodes most connected in the picture keep their labels in a crowded one (docs/adr/0069). */
const KEY_LABELS = 10;

function markKeyNodes(): void {
  const ranked = cy
    .nodes()
    .filter((n) => !n.isParent() && !n.hasClass('aggregate'))
    .sort((a, b) => (b as NodeSingular).degree(false) - (a as NodeSingular).degree(false) || (a.id() < b.id() ? -1 : 1));
  ranked.slice(0, KEY_LABELS).addClass('key');
}

/** Marks a node's neighbourhood (hovered or selected) so that it is labelled and stands out; null clears. */
function markNear(n: NodeSingular | null): void {
  cy.batch(() => {
    cy.elements('.near').removeClass('near near-label');
    if (!n || n.empty()) return;
    const near = n.closedNeighborhood();
    near.addClass('near');
    // Its neighbours' labels too, while they are few enough to be read; else the node's own.
    (near.nodes().length <= NEAR_LABELS ? near.nodes() : n).addClass('near-label');
  });
}

function layoutOptions(count: number, usePositions: boolean): LayoutOptions {
  if (usePositions && state.positions) {
    const pos = state.positions;
    return {
      name: 'preset',
      positions: (n: NodeSingular) => ({ x: pos[n.id()]?.[0] ?? 0, y: pos[n.id()]?.[1] ?? 0 }),
      fit: !state.viewport,
      padding: 30,
    } as LayoutOptions;
  }
  if (state.layout === 'layered' || (mode === 'path' && !state.base)) {
    return { name: 'dagre', rankDir: 'LR', nodeSep: 18, rankSep: 90, edgeSep: 8, fit: false, padding: 30, animate: false } as LayoutOptions;
  }
  // fcose: spectral placement then force refinement (docs/adr/0065); past 600 nodes the draft
  // quality (spectral only) keeps 1,000 nodes under the 2 s bar.
  return {
    name: 'fcose',
    quality: count > 600 ? 'draft' : 'default',
    randomize: true,
    animate: false,
    fit: false,
    padding: 30,
    // A crowded neighbourhood gets more room per node, so that its labels can be read apart once zoomed.
    nodeRepulsion: () => (count > CROWDED ? 16000 : 9000),
    idealEdgeLength: () => (count > CROWDED ? 110 : 80),
    edgeElasticity: () => 0.45,
    nestingFactor: 0.1,
    numIter: 2500,
    // The force phase starts from the spectral placement; past 150 nodes it starts cooler, so it
    // refines rather than re-plans (the iteration cap is at least 5 × nodes whatever numIter says).
    initialEnergyOnIncremental: count > 150 ? 0.12 : 0.3,
    packComponents: true,
    tile: true,
    // Nodes are a few fixed sizes: the spectral phase may skip measuring each one.
    uniformNodeDimensions: true,
  } as unknown as LayoutOptions;
}

function redraw(usePositions = false): void {
  // Marks for the bench (bench/webview.ts): elements, layout and paint, measured apart.
  performance.mark('kg-redraw');
  const built = buildElements(drawn, state.grouping, nodeCap);
  // The container may have changed size (side bar, window) since Cytoscape last measured it.
  cy.resize();
  cy.startBatch();
  cy.elements().remove();
  const large = (built.shown.length > CROWDED ? ' crowded' : '') + (built.shown.length > 300 ? ' large' : '');
  cy.add(built.elements.map((e) => ({ group: e.group, data: e.data, classes: e.classes + large })));
  if (large) markKeyNodes();
  cy.endBatch();
  empty.hidden = built.elements.length > 0;
  const canPreset = usePositions && state.positions !== undefined && built.shown.every((id) => state.positions?.[id] !== undefined);
  performance.measure('kg-elements', 'kg-redraw');
  performance.mark('kg-layout');
  const layout = cy.layout(layoutOptions(built.shown.length, canPreset));
  layout.one('layoutstop', () => {
    performance.measure('kg-layout', 'kg-layout');
    performance.mark('kg-paint');
    // A saved viewport means something only in a canvas of about the same size.
    const v = state.viewport;
    const sameSize =
      v !== undefined && Math.abs(v.w - cy.width()) < 0.1 * cy.width() + 1 && Math.abs(v.h - cy.height()) < 0.1 * cy.height() + 1;
    const wasRestoring = restoring;
    if (canPreset && state.viewport && sameSize) {
      cy.viewport({ zoom: state.viewport.zoom, pan: { x: state.viewport.x, y: state.viewport.y } });
      autoFit = false;
    } else fitReadable();
    // A path drawn over a neighbourhood: bring the whole path into view.
    if (!wasRestoring && drawn.path.length > 0 && drawn.nodes.size > drawn.path.length) {
      const onPath = cy.nodes('.on-path');
      cy.fit(onPath, 80);
      if (cy.zoom() > 1.4) {
        const b = onPath.boundingBox();
        cy.zoom({ level: 1.4, position: { x: (b.x1 + b.x2) / 2, y: (b.y1 + b.y2) / 2 } });
      }
      autoFit = false;
    }
    applySearch(false);
    if (state.selected && cy.getElementById(state.selected).nonempty()) cy.getElementById(state.selected).select();
    renderHubs();
    if (built.aggregation) {
      const a = built.aggregation;
      say(
        `${drawn.nodes.size} nodes are more than the node cap of ${a.cap} (setting knowledgeGraph.explorer.nodeCap): the ${built.shown.length} nearest are drawn, ${a.hidden} are folded into ${a.groups} ${a.by === 'file' ? 'files' : 'modules'}. Double-click a folded group to open it.`,
        'warning',
      );
    }
    // "Drawn" means painted: wait for the frame that shows the laid-out graph.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        performance.measure('kg-paint', 'kg-paint');
        restoring = false;
        save();
        host.post({ type: 'drawn', mode, nodes: built.shown, aggregated: built.aggregation?.hidden ?? 0, title: tabTitle() });
      }),
    );
  });
  layout.run();
}

/** True until the user pans or zooms: while it holds, a resized panel fits the graph again. */
let autoFit = true;

/** Fits the graph, but never zooms a small graph in so far that its labels turn into posters. */
function fitReadable(): void {
  cy.fit(undefined, 30);
  if (cy.zoom() > 1.4) {
    cy.zoom(1.4);
    cy.center();
  }
  autoFit = true;
}

// A panel opened beside the editor is still settling its size while the first layout runs, and
// the canvas also changes size without the window doing so: under the canvas in a narrow panel,
// the details and hubs take the height their content needs. So the canvas itself is watched.
let resizeTimer: ReturnType<typeof setTimeout> | undefined;
new ResizeObserver(() => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    cy.resize();
    if (autoFit && cy.nodes().length > 0) fitReadable();
  }, 100);
}).observe(cyEl);
cy.on('dragpan scrollzoom', () => {
  autoFit = false;
});

/** What the panel's tab says: the focus, or the two ends of the path. */
function tabTitle(): string {
  const cut = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s);
  if (mode === 'path' && pathHops && pathHops.nodes.length > 0)
    return cut(`${pathHops.nodes[0].label} → ${pathHops.nodes[pathHops.nodes.length - 1].label}`);
  return drawn.focus ? cut(labelOf(drawn.focus)) : '';
}

function labelOf(id: string): string {
  return drawn.nodes.get(id)?.label ?? id;
}

function renderHubs(): void {
  clear(hubsEl);
  const hubs = [...drawn.hubs].filter((id) => drawn.nodes.has(id));
  if (hubs.length === 0) return;
  hubsEl.append(
    h('h3', {}, `◆ Hubs not expanded (${hubs.length})`),
    h(
      'p',
      { class: 'hint' },
      `More than ${drawn.hubThreshold} links each: drawn, but not walked through, so they do not pull in half the code base.`,
    ),
  );
  const list = h('ul', {});
  for (const id of hubs) {
    const n = drawn.nodes.get(id);
    const b = h('button', { type: 'button', class: 'link', 'data-expand': id, title: `Expand ${labelOf(id)}` }, 'Expand');
    b.addEventListener('click', () => expand(id));
    const name = h('button', { type: 'button', class: 'link node-name', title: id }, labelOf(id));
    name.addEventListener('click', () => selectNode(id, true));
    list.append(h('li', {}, name, h('span', { class: 'muted' }, ` ${n?.degree ?? '?'} links `), b));
  }
  hubsEl.append(list);
}

function where(n: NodeView): string {
  if (n.package) return `in package ${n.package}`;
  return n.file ? `${n.file}${n.line ? `:${n.line}` : ''}` : n.kind === 'unresolved' ? 'no declaration in the repository' : '';
}

function nodeButton(n: NodeView): HTMLElement {
  const b = h('button', { type: 'button', class: 'link node-name', title: `${n.id} — click to show, double-click to open` }, n.label);
  b.addEventListener('click', () => (cy.getElementById(n.id).nonempty() ? selectNode(n.id, true) : show({ mode: 'neighbors', id: n.id })));
  b.addEventListener('dblclick', () => host.post({ type: 'open', id: n.id }));
  return b;
}

function renderDetailsPlaceholder(): void {
  clear(details);
  details.append(h('p', { class: 'muted' }, 'Select a node to see its callers, callees and the records that cite it.'));
}

function renderDetails(d: DetailsView): void {
  clear(details);
  const n = d.node;
  const open = h('button', { type: 'button', id: 'details-open' }, 'Open');
  open.addEventListener('click', () => host.post({ type: 'open', id: n.id }));
  const explore = h('button', { type: 'button', id: 'details-explore' }, 'Explore');
  explore.addEventListener('click', () => show({ mode: 'neighbors', id: n.id }));
  const expandB = h(
    'button',
    { type: 'button', id: 'details-expand', disabled: drawn.expanded.includes(n.id) || n.id === drawn.focus },
    'Expand',
  );
  expandB.addEventListener('click', () => expand(n.id));
  const from = h('button', { type: 'button', id: 'details-path-from' }, 'Path from');
  from.addEventListener('click', () => {
    fromInput.value = n.id;
    setMode('path');
    toInput.focus();
  });
  const to = h('button', { type: 'button', id: 'details-path-to' }, 'Path to');
  to.addEventListener('click', () => {
    toInput.value = n.id;
    setMode('path');
    fromInput.focus();
  });
  const exactCallees = d.callees.filter((c) => c.confidence === 'EXACT').length;
  const intoPackages = d.callees.filter((c) => c.node.package !== undefined);
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
      intoPackages.length ? ` (${intoPackages.length} in packages)` : '',
      candCallees ? ` · +${candCallees} candidate${candCallees === 1 ? '' : 's'}` : '',
      unresolved.length ? ` · ${unresolved.length} unresolved` : '',
    ),
    h('div', { class: 'actions' }, open, explore, expandB, from, to),
  );
  const section = (title: string, calls: DetailsView['callers'], cls: string) => {
    if (calls.length === 0) return;
    const ul = h('ul', { class: cls });
    for (const c of calls.slice(0, 50)) {
      ul.append(
        h(
          'li',
          {},
          c.confidence === 'UNRESOLVED' ? h('span', { class: 'node-name unresolved-name' }, c.node.label) : nodeButton(c.node),
          c.node.package ? h('span', { class: 'package-of' }, ` ${c.node.package}`) : null,
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
    d.callees.filter((c) => c.confidence !== 'UNRESOLVED' && c.node.package === undefined),
    'callees',
  );
  // Proven calls into installed packages, apart from the repository's own, with package and version (ADR 109).
  section('Calls into packages', intoPackages, 'package-callees');
  section('Unresolved calls', unresolved, 'unresolved');
  if (d.citedBy.length) {
    const ul = h('ul', { class: 'cited-by' });
    for (const c of d.citedBy) ul.append(h('li', {}, nodeButton(c)));
    details.append(h('h3', {}, `Cited by (${d.citedBy.length})`), ul);
  }
}

function renderHops(): void {
  clear(hopsEl);
  if (!pathHops || pathHops.nodes.length === 0) return;
  hopsEl.append(h('h3', {}, `Path: ${hopsPhrase(pathHops.edges)}`));
  const ol = h('ol', { class: 'hop-list' });
  pathHops.nodes.forEach((n, i) => {
    const li = h('li', {}, nodeButton(n), h('span', { class: 'muted' }, ` ${where(n)}`));
    const e = pathHops?.edges[i];
    if (e) li.append(h('div', { class: `hop-edge conf-${e.confidence.toLowerCase()}` }, hopEdgeText(e, n.id)));
    ol.append(li);
  });
  hopsEl.append(ol);
}

// ── Search ───────────────────────────────────────────────────────────────────────────────────────
function applySearch(jump: boolean): void {
  const text = search.value.trim().toLowerCase();
  state.search = search.value;
  cy.elements().removeClass('match faded');
  matches = [];
  if (!text) {
    searchCount.textContent = '';
    return;
  }
  cy.nodes()
    .filter((n) => !n.isParent())
    .forEach((n) => {
      if (String(n.data('label')).toLowerCase().includes(text) || n.id().toLowerCase().includes(text)) matches.push(n.id());
    });
  cy.elements().addClass('faded');
  for (const id of matches) cy.getElementById(id).removeClass('faded').addClass('match');
  searchCount.textContent = matches.length === 0 ? 'no match' : `${matches.length} match${matches.length === 1 ? '' : 'es'}`;
  if (jump && matches.length) {
    matchIndex = (matchIndex + 1) % matches.length;
    selectNode(matches[matchIndex], true);
    searchCount.textContent = `${matchIndex + 1} of ${matches.length}`;
  }
}

// ── Events ───────────────────────────────────────────────────────────────────────────────────────
search.addEventListener('input', () => {
  matchIndex = -1;
  applySearch(false);
  save();
});
search.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') applySearch(true);
  if (e.key === 'Escape') {
    search.value = '';
    applySearch(false);
    cyEl.focus();
  }
});
modeNeighbors.addEventListener('change', () => {
  setMode('neighbors');
  if (state.base) {
    // Back to the neighbourhood the path was drawn over: drop the highlight, keep the picture.
    state.request = state.base;
    state.base = undefined;
    drawn.path = [];
    drawn.pathEdges = new Set();
    pathHops = null;
    clear(hopsEl);
    say(null);
    redraw(true);
  }
});
modePath.addEventListener('change', () => setMode('path'));
budgetInput.addEventListener('change', () => {
  state.budget = budget();
  if (state.request?.mode === 'neighbors') show(state.request);
});
const suggest = (input: HTMLInputElement, kind: 'suggest-from' | 'suggest-to') => {
  const text = input.value.trim();
  if (text.length >= 2) host.post({ type: 'suggest', requestId: request(kind), text });
};
fromInput.addEventListener('input', () => suggest(fromInput, 'suggest-from'));
toInput.addEventListener('input', () => suggest(toInput, 'suggest-to'));
const findPath = () => {
  const from = fromInput.value.trim();
  const to = toInput.value.trim();
  if (!from || !to) return say('Give both ends of the path: a symbol, file or module id (the fields suggest them as you type).', 'info');
  // A path asked for over a drawn neighbourhood is highlighted on it, not drawn alone.
  const base = state.request?.mode === 'neighbors' && drawn.nodes.size > 0 ? state.request : state.base;
  if (base) {
    save();
    state.base = base;
  }
  show({ mode: 'path', from, to }, base !== undefined);
};
findButton.addEventListener('click', findPath);
for (const input of [fromInput, toInput]) input.addEventListener('keydown', (e) => e.key === 'Enter' && findPath());
groupSelect.addEventListener('change', () => {
  state.grouping = groupSelect.value as Grouping;
  redraw();
});
layoutSelect.addEventListener('change', () => {
  state.layout = layoutSelect.value as LayoutName;
  redraw();
});
fitButton.addEventListener('click', () => fitReadable());
const zoomBy = (factor: number) => {
  autoFit = false;
  cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cyEl.clientWidth / 2, y: cyEl.clientHeight / 2 } });
};
zoomIn.addEventListener('click', () => zoomBy(1.25));
zoomOut.addEventListener('click', () => zoomBy(1 / 1.25));
exportButton.addEventListener('click', () => {
  if (cy.nodes().length === 0) return say('Nothing to export yet.', 'info');
  const dataUrl = cy.png({ output: 'base64uri', full: true, scale: 2, bg: theme.background, maxWidth: 8000, maxHeight: 8000 });
  host.post({ type: 'savePng', dataUrl });
});
cy.on('tap', 'node', (e) => {
  const n = e.target as NodeSingular;
  if (!n.isParent()) selectNode(n.id());
});
cy.on('tap', (e) => {
  if (e.target === cy) selectNode(null);
});
// An edge says what it is when clicked: which relation, proven or guessed, folded or not.
cy.on('tap', 'edge', (e) => {
  const edge = e.target as cytoscape.EdgeSingular;
  const conf = String(edge.data('confidence'));
  const what = conf === 'EXACT' ? 'proven by the checker' : conf === 'CANDIDATE' ? 'a name-match guess' : 'unresolved';
  const label = edge.data('label') ? ` — ${String(edge.data('label'))}` : '';
  say(
    `${labelOf(String(edge.data('source')))} ${String(edge.data('relation'))} ${labelOf(String(edge.data('target')))} · ${conf} (${what})${label}`,
    'info',
  );
});
// The canvas has no DOM per node: the hovered node's id and place become the canvas's tooltip.
cy.on('mouseover', 'node', (e) => {
  const n = e.target as NodeSingular;
  const view = drawn.nodes.get(n.id());
  cyEl.title = view
    ? `${view.label} — ${view.kind}${view.file ? ` · ${view.file}${view.line ? `:${view.line}` : ''}` : ''}\n${view.id}`
    : String(n.data('path') ?? n.data('label') ?? '');
  markNear(n);
});
cy.on('mouseout', 'node', () => {
  cyEl.title = '';
  const selected = cy.nodes(':selected');
  markNear(selected.nonempty() ? selected.first() : null);
});
cy.on('dbltap', 'node', (e) => {
  const n = e.target as NodeSingular;
  if (n.hasClass('aggregate')) {
    drawn.unfolded.add(n.id());
    redraw();
  } else if (!n.isParent()) host.post({ type: 'open', id: n.id() });
});
cy.on('dragfree', 'node', () => save());
cy.on('viewport', () => {
  const pan = cy.pan();
  state.viewport = { zoom: cy.zoom(), x: pan.x, y: pan.y, w: cy.width(), h: cy.height() };
  host.setState(state);
});

/** Arrow keys move the selection to the nearest node in that direction. */
function moveSelection(dx: number, dy: number): void {
  const nodes = cy.nodes().filter((n) => !n.isParent());
  if (nodes.length === 0) return;
  const current = state.selected ? cy.getElementById(state.selected) : cy.collection();
  if (current.empty()) {
    selectNode((drawn.focus && cy.getElementById(drawn.focus).nonempty() ? drawn.focus : nodes[0].id()) ?? null, true);
    return;
  }
  const p = current.position();
  let best: string | null = null;
  let bestScore = Infinity;
  nodes.forEach((n) => {
    if (n.id() === current.id()) return;
    const q = n.position();
    const along = (q.x - p.x) * dx + (q.y - p.y) * dy;
    if (along <= 0) return;
    const across = Math.abs((q.x - p.x) * dy - (q.y - p.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = n.id();
    }
  });
  if (best) selectNode(best, true);
}

cyEl.addEventListener('keydown', (e) => {
  const sel = state.selected;
  switch (e.key) {
    case 'ArrowLeft':
      moveSelection(-1, 0);
      break;
    case 'ArrowRight':
      moveSelection(1, 0);
      break;
    case 'ArrowUp':
      moveSelection(0, -1);
      break;
    case 'ArrowDown':
      moveSelection(0, 1);
      break;
    case 'Enter':
      if (sel?.startsWith('agg:')) {
        drawn.unfolded.add(sel);
        redraw();
      } else if (sel) host.post({ type: 'open', id: sel });
      break;
    case 'e':
    case 'E':
      if (sel) expand(sel);
      break;
    case 'f':
    case 'F':
      fitReadable();
      break;
    case '+':
    case '=':
      zoomIn.click();
      break;
    case '-':
      zoomOut.click();
      break;
    case 'Escape':
      selectNode(null);
      break;
    default:
      return;
  }
  e.preventDefault();
});
document.addEventListener('keydown', (e) => {
  if (e.key === '/' && document.activeElement !== search && !(document.activeElement instanceof HTMLInputElement)) {
    e.preventDefault();
    search.focus();
  }
});

// ── Messages from the host ───────────────────────────────────────────────────────────────────────
function fillOptions(list: HTMLDataListElement, items: NodeView[]): void {
  clear(list);
  for (const n of items) list.append(h('option', { value: n.id, label: `${n.label} — ${n.kind}${n.file ? ` · ${n.file}` : ''}` }));
}

function handle(m: HostMessage): void {
  switch (m.type) {
    case 'status': {
      const wasBlocking = banner?.blocking === true;
      banner = m.banner;
      nodeCap = m.nodeCap;
      hostBudget = m.budget;
      if (m.folder) state.folder = m.folder;
      renderBanner(bannerEl, banner, host.post);
      summaryEl.textContent = m.summary;
      if (firstStatus) {
        firstStatus = false;
        if (!saved) budgetInput.value = String(m.budget);
        if (state.request && !banner?.blocking) {
          // A reload: ask again for what was shown, then replay the expansions in order.
          restoring = true;
          replay = [...state.expanded];
          drawn.unfolded = new Set(state.unfolded);
          if (state.request.mode === 'path' && state.base) {
            // The base neighbourhood first, then the path over it.
            restorePath = state.request;
            const base = state.base;
            show(base, true);
            state.base = base;
            state.request = restorePath;
            setMode('path');
          } else show(state.request, true);
        } else drawEmpty();
      } else if (banner?.blocking) drawEmpty();
      // The graph can answer again (built, reloaded): ask again for what the user was looking at.
      else if (wasBlocking && state.request) show(state.request, true);
      return;
    }
    case 'show':
      state.base = undefined;
      show(m.request);
      return;
    case 'neighborhood': {
      const kind = pending.get(m.requestId);
      if (kind !== 'neighbors' && kind !== 'expand') return;
      pending.delete(m.requestId);
      if (!m.expand) {
        const unfolded = drawn.unfolded;
        drawn = emptyDrawn();
        if (restoring) drawn.unfolded = unfolded;
        drawn.focus = m.focus.id;
        pathHops = null;
        clear(hopsEl);
        focusLabel.textContent = `around ${m.focus.label} `;
        say(null);
      } else {
        drawn.hubs.delete(m.focus.id);
        drawn.expanded.push(m.focus.id);
      }
      drawn.hubThreshold = m.hubThreshold;
      addAll(drawn, [m.focus, ...m.nodes], m.edges);
      for (const hub of m.excludedHubs) if (!drawn.expanded.includes(hub) && hub !== drawn.focus) drawn.hubs.add(hub);
      if (!m.expand && m.nodes.length <= 1 && m.edges.length === 0) {
        say(
          banner && !banner.blocking
            ? `No neighbours in the graph as built — but ${banner.reason}`
            : `${m.focus.label} has no neighbours in the graph.`,
          'answer',
        );
      }
      const next = replay.shift();
      if (restoring && next !== undefined) {
        host.post({ type: 'neighbors', requestId: request('expand'), id: next, budget: budget(), expand: true });
        return;
      }
      if (restoring && restorePath) {
        const p = restorePath;
        restorePath = null;
        host.post({ type: 'path', requestId: request('path'), from: p.from, to: p.to });
        return;
      }
      redraw(restoring);
      return;
    }
    case 'path': {
      if (pending.get(m.requestId) !== 'path') return;
      pending.delete(m.requestId);
      const overlay = state.base !== undefined && drawn.nodes.size > 0;
      if (overlay) {
        // Keep the neighbourhood and where its nodes are; the path is added and highlighted.
        if (!restoring) save();
        drawn.path = [];
        drawn.pathEdges = new Set();
      } else drawn = emptyDrawn();
      pathHops = { nodes: m.nodes, edges: m.edges };
      if (m.nodes.length === 0) {
        addAll(drawn, m.from.id === m.to.id ? [m.from] : [m.from, m.to], []);
        drawn.path = [];
        const qualifier = banner && !banner.blocking ? ` Cannot tell for sure: ${banner.reason}` : '';
        say(`Not connected: no chain of relations links ${m.from.label} and ${m.to.label} in the graph.${qualifier}`, 'answer');
      } else {
        addAll(drawn, m.nodes, m.edges);
        drawn.path = m.nodes.map((n) => n.id);
        drawn.pathEdges = new Set(m.edges.map(edgeKeyOf));
        say(
          `Shortest path from ${m.from.label} to ${m.to.label}: ${hopsPhrase(m.edges)}.${banner && !banner.blocking ? ` (${banner.reason})` : ''}`,
          'answer',
        );
      }
      if (!overlay) drawn.focus = m.from.id;
      renderHops();
      redraw(restoring || overlay);
      return;
    }
    case 'details': {
      if (pending.get(m.requestId) !== 'details') return;
      pending.delete(m.requestId);
      renderDetails(m.details);
      return;
    }
    case 'unavailable': {
      const kind = pending.get(m.requestId);
      if (!kind) return;
      pending.delete(m.requestId);
      if (kind === 'details') {
        clear(details);
        details.append(h('p', { class: 'muted' }, m.reason));
        return;
      }
      restoring = false;
      replay = [];
      const extra = h('span', { class: 'suggestions' });
      for (const s of m.suggestions.slice(0, 8)) {
        const b = h('button', { type: 'button', class: 'link' }, s.label);
        b.title = s.id;
        b.addEventListener('click', () => {
          if (kind !== 'path') return show({ mode: 'neighbors', id: s.id });
          // The reason names the end that is unknown; the suggestion replaces that end.
          const input = m.reason.includes(toInput.value.trim()) && toInput.value.trim() ? toInput : fromInput;
          input.value = s.id;
          findPath();
        });
        extra.append(' ', b);
      }
      say(`Unavailable: ${m.reason}${m.suggestions.length ? ' — did you mean:' : ''}`, 'warning', extra);
      return;
    }
    case 'suggestions': {
      const kind = pending.get(m.requestId);
      pending.delete(m.requestId);
      if (kind === 'suggest-from') fillOptions(fromOptions, m.items);
      else if (kind === 'suggest-to') fillOptions(toOptions, m.items);
      return;
    }
    case 'defaultEndpoint':
      if (m.node && !fromInput.value) fromInput.value = m.node.id;
      return;
    case 'saved':
      say(m.message, 'info');
      return;
    default:
      assertNever(m);
  }
}

host.onMessage(handle);
renderDetailsPlaceholder();
host.post({ type: 'ready' });
