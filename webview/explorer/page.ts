// The explorer's page: the toolbar, the canvas, the side column (details, path hops, hubs) and the
// legend, built once from a few helpers and handed to the app as named elements. No behaviour
// here beyond what a field itself does (webview/common/endpoint-field.ts).

import { EndpointField } from '../common/endpoint-field';
import { h, must } from '../common/dom';

export interface PageHooks {
  suggest(end: 'from' | 'to', text: string): void;
  findPath(): void;
}

/** One entry of the legend: a swatch drawn by the stylesheet (media/webview.css) and what it means. */
const item = (swatch: string, text: string) => h('span', { class: 'legend-item' }, h('span', { class: `swatch ${swatch}` }), text);
const sep = () => h('span', { class: 'legend-sep', 'aria-hidden': 'true' }, '│');

export function buildPage(doc: Document, hooks: PageHooks) {
  const app = must(doc.getElementById('app'), '#app');
  const bannerEl = h('div', { class: 'banner', role: 'alert', hidden: true });
  const search = h('input', {
    type: 'search',
    id: 'search',
    placeholder: 'Search shown nodes (/)',
    'aria-label': 'Search the nodes shown',
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
  });
  const from = new EndpointField({
    id: 'path-from',
    placeholder: 'from: symbol, file or module',
    label: 'Path from',
    suggest: (t) => hooks.suggest('from', t),
    submit: () => hooks.findPath(),
  });
  const to = new EndpointField({
    id: 'path-to',
    placeholder: 'to: symbol, file or module',
    label: 'Path to',
    suggest: (t) => hooks.suggest('to', t),
    submit: () => hooks.findPath(),
  });
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
    from.root,
    h('span', { 'aria-hidden': 'true' }, '→'),
    to.root,
    findButton,
  );
  const notice = h('div', { class: 'notice', id: 'notice', role: 'status', 'aria-live': 'polite', hidden: true });
  const cyEl = h('div', {
    id: 'cy',
    tabindex: '0',
    role: 'application',
    'aria-label': 'Graph. Arrow keys move between nodes, Enter opens the source, E expands, F fits, Escape clears.',
  });
  const empty = h('div', { class: 'empty', id: 'empty' });
  const details = h('section', { class: 'details', id: 'details', 'aria-label': 'Details of the selected node' });
  const hubsEl = h('section', { class: 'hubs', id: 'hubs', 'aria-label': 'Hubs not expanded' });
  const hopsEl = h('section', { class: 'hops', id: 'hops', 'aria-label': 'Path hops' });
  const announcer = h('div', { class: 'sr-only', 'aria-live': 'polite' });
  // Nodes by shape and colour, then edges by line and colour: everything the canvas draws is said here.
  const legend = h(
    'footer',
    { class: 'legend', id: 'legend', 'aria-label': 'Legend' },
    h(
      'span',
      { class: 'legend-group', id: 'legend-nodes', 'aria-label': 'Nodes' },
      item('node kind-function', 'function'),
      item('node kind-method', 'method'),
      item('node kind-class', 'class / interface'),
      item('node kind-variable', 'variable / type'),
      item('node kind-file', 'file'),
      item('node kind-module', 'module'),
      item('node kind-rationale', 'record / doc'),
      item('node unresolved', 'unresolved name'),
      item('node focus', 'focus'),
      item('hub', 'hub, not expanded'),
      item('aggregate', 'folded group'),
    ),
    h(
      'span',
      { class: 'legend-group', id: 'legend-edges', 'aria-label': 'Edges' },
      item('line exact', 'EXACT (proven by the checker)'),
      item('line candidate', 'CANDIDATE (name match, a guess)'),
      item('line unresolved', 'UNRESOLVED'),
      sep(),
      item('rel calls', 'calls'),
      item('rel imports', 'imports'),
      item('rel inheritance', 'extends/implements'),
      item('rel cites', 'cites'),
      item('rel contains', 'contains'),
    ),
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
  return {
    bannerEl,
    search,
    searchCount,
    modeNeighbors,
    modePath,
    focusLabel,
    budgetInput,
    from,
    to,
    findButton,
    groupSelect,
    layoutSelect,
    fitButton,
    zoomIn,
    zoomOut,
    exportButton,
    summaryEl,
    neighborsControls,
    pathControls,
    notice,
    cyEl,
    empty,
    details,
    hubsEl,
    hopsEl,
    announcer,
  };
}

export type Page = ReturnType<typeof buildPage>;
