// The real webview bundles in headless Chromium, under the real HTML and CSP, with a stand-in for
// VS Code's webview API (test/helpers/webview-page.ts): a 200-node neighbourhood and a path render
// with zero CSP violations, hostile labels stay text, state survives a reload, degrades are
// banners, and the path finder lists hops that open on click. Screenshots of each theme go to
// .e2e-artifacts/webview/ for a person to look at. Skipped when Chromium is not installed.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkWebviewMessage } from '../../src/host/panel/validate';
import type { Banner, EdgeView, HostMessage, NodeView, WebviewMessage } from '../../src/protocol/messages';
import {
  HOSTILE_LABELS,
  neighborhoodMessage,
  syntheticDetails,
  syntheticNeighborhood,
  syntheticPath,
  type SyntheticGraph,
} from '../helpers/webview-graph';
import { READ_PICTURE, type PictureFacts } from '../helpers/explorer-picture';
import { CHROMIUM, WebviewPage, type StandInHost } from '../helpers/webview-page';
import type { ThemeName } from '../helpers/webview-themes';

/** A path end the stand-in host does not know: it answers `unavailable` naming the To end. */
const UNKNOWN_END = 'sym:src/gone.ts#vanished';
const ARTIFACTS = path.join(__dirname, '..', '..', '.e2e-artifacts', 'webview');
const available = fs.existsSync(CHROMIUM);
const STALE: Banner = {
  kind: 'stale',
  reason: '2 files changed since it was built (src/a.ts, src/b.ts).',
  actions: ['build', 'showLog'],
  blocking: false,
};

function status(banner: Banner | null = null, nodeCap = 500, signature?: string): HostMessage {
  return {
    type: 'status',
    banner,
    summary: 'rxjs · 4,211 nodes · 9,876 edges',
    nodeCap,
    budget: 200,
    folder: 'file:///work/rxjs',
    ...(signature ? { signature } : {}),
  };
}

/** A stand-in host answering from a synthetic graph, the way src/host/panel/webview-connection.ts does. */
function hostFor(
  g: SyntheticGraph,
  opts: { banner?: Banner | null; nodeCap?: number; show?: boolean; signature?: string } = {},
): StandInHost {
  const p = syntheticPath(g);
  return (m: WebviewMessage) => {
    switch (m.type) {
      case 'ready':
        return [
          status(opts.banner ?? null, opts.nodeCap, opts.signature),
          ...(opts.show === false ? [] : [{ type: 'show', request: { mode: 'neighbors', id: g.focus.id } } as HostMessage]),
        ];
      case 'neighbors': {
        if (m.id === g.focus.id) return [neighborhoodMessage(g, m.requestId, m.expand)];
        // Expanding another node: a few new neighbours and an edge back.
        const extra = Array.from({ length: 5 }, (_, i) => ({
          id: `sym:src/extra.ts#more${i}`,
          label: `more${i}`,
          kind: 'function',
          file: 'src/extra.ts',
          line: i + 1,
        }));
        const focus = g.nodes.find((n) => n.id === m.id) ?? g.focus;
        return [
          {
            type: 'neighborhood',
            requestId: m.requestId,
            focus,
            nodes: extra,
            edges: extra.map((e) => ({ source: m.id, target: e.id, relation: 'calls', confidence: 'EXACT' as const })),
            excludedHubs: [],
            hubThreshold: 50,
            expand: m.expand,
          },
        ];
      }
      case 'path':
        if (m.to === UNKNOWN_END)
          return [
            {
              type: 'unavailable',
              requestId: m.requestId,
              reason: `unknown node: ${m.to}`,
              suggestions: [g.nodes[3], g.nodes[4]],
              unknownEnd: 'to',
            },
          ];
        if (m.to === 'sym:nowhere#x')
          return [
            {
              type: 'path',
              requestId: m.requestId,
              from: p.nodes[0],
              to: { id: m.to, label: 'x', kind: 'function' },
              nodes: [],
              edges: [],
            },
          ];
        return [{ type: 'path', requestId: m.requestId, from: p.nodes[0], to: p.nodes[p.nodes.length - 1], ...p }];
      case 'details':
        return [{ type: 'details', requestId: m.requestId, details: syntheticDetails(g, m.id) }];
      case 'suggest':
        return [{ type: 'suggestions', requestId: m.requestId, items: g.nodes.filter((n) => n.label.includes(m.text)).slice(0, 10) }];
      default:
        return undefined;
    }
  };
}

// Read from the Cytoscape instance the explorer registers on its container; strings, so that none
// of the test's compiled code travels into the page.
const READ_POSITIONS = `(() => {
  const cy = document.getElementById('cy')._cyreg.cy;
  return Object.fromEntries(cy.nodes().map((n) => [n.id(), [Math.round(n.position().x) || 0, Math.round(n.position().y) || 0]]));
})()`;

/**
 * Each node of the drawn path, in path order: whether its label can be read (not culled by
 * placement, not faded out, not below Cytoscape's smallest drawn size at this zoom), and how many
 * other drawn labels its label box overlaps. A string, so that none of the test's code travels into the page.
 */
const READ_PATH_LABELS = `(() => {
  const cy = document.getElementById('cy')._cyreg.cy;
  const only = { includeOverlays: false, includeUnderlays: false };
  const over = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  const drawn = cy.nodes().filter((n) => !n.isParent() && !n.hasClass('label-off') && n.pstyle('text-opacity').value > 0);
  const box = (n) => n.boundingBox({ includeNodes: false, includeLabels: true, ...only });
  return cy.nodes('.on-path').map((n) => {
    const px = n.pstyle('font-size').pfValue * cy.zoom();
    const readable = !n.hasClass('label-off') && n.pstyle('text-opacity').value > 0 && px >= n.pstyle('min-zoomed-font-size').pfValue && String(n.data('label')).length > 0;
    const b = box(n);
    const covered = drawn.filter((m) => m.id() !== n.id() && over(b, box(m))).map((m) => m.data('label'));
    return { id: n.id(), label: n.data('label'), readable, px: Math.round(px * 10) / 10, covered };
  });
})()`;

/** A path of real-looking names, long enough that neighbouring labels in a layered picture meet. */
function longPath(hops: number): { nodes: NodeView[]; edges: EdgeView[] } {
  const names = [
    'ObservableInput.subscribeToResult',
    'innerFromObservableInput',
    'fromInteropObservable',
    'SafeSubscriber.constructor',
    'createOperatorSubscriber',
    'OperatorSubscriber._nextWithErrorHandling',
    'mergeInternals',
    'AsyncScheduler.scheduleRecursive',
    'executeScheduleWithDelay',
    'Subscription.addTeardownLogic',
    'errorContextWhenUseDeprecated',
    'reportUnhandledErrorToConsole',
  ];
  const nodes: NodeView[] = names.slice(0, hops + 1).map((label, i) => ({
    id: `sym:src/internal/part${i}.ts#${label}`,
    label,
    kind: label.includes('.') ? 'method' : 'function',
    file: `src/internal/part${i}.ts`,
    line: 10 + i,
    degree: 3 + i,
  }));
  const edges: EdgeView[] = nodes.slice(1).map((n, i) => ({ source: nodes[i].id, target: n.id, relation: 'calls', confidence: 'EXACT' }));
  return { nodes, edges };
}

/**
 * Where an open suggestion list is, against the view: its box, and per row whether the name sits
 * above the kind and place, whether the name shows whole, and whether the kind and place are cut
 * with an ellipsis and say the whole in their title. A string, for the page.
 */
const READ_SUGGESTIONS = (listId: string) => `(() => {
  const list = document.getElementById('${listId}');
  const r = list.getBoundingClientRect();
  const rows = [...list.querySelectorAll('li')].map((li) => {
    const name = li.querySelector('.suggest-label');
    const detail = li.querySelector('.suggest-detail');
    const n = name.getBoundingClientRect();
    const d = detail ? detail.getBoundingClientRect() : null;
    return {
      name: name.textContent,
      nameWhole: name.scrollWidth <= name.clientWidth + 1 && n.right <= r.right + 0.5 && n.left >= r.left - 0.5,
      nameAbove: d !== null && n.bottom <= d.top + 0.5,
      detail: detail ? detail.textContent.trim() : null,
      detailTitle: detail ? detail.title : null,
      detailCut: detail ? detail.scrollWidth > detail.clientWidth : false,
      detailEllipsis: detail ? getComputedStyle(detail).textOverflow : null,
      detailInside: d !== null && d.right <= r.right + 0.5,
    };
  });
  return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, viewWidth: document.documentElement.clientWidth, viewHeight: document.documentElement.clientHeight, rows };
})()`;

interface SuggestionFacts {
  left: number;
  right: number;
  top: number;
  bottom: number;
  viewWidth: number;
  viewHeight: number;
  rows: Array<{
    name: string;
    nameWhole: boolean;
    nameAbove: boolean;
    detail: string | null;
    detailTitle: string | null;
    detailCut: boolean;
    detailEllipsis: string | null;
    detailInside: boolean;
  }>;
}

/** Suggestions as a large repository gives them: long names, deep places. */
const LONG_SUGGESTIONS: NodeView[] = [
  {
    id: 'sym:src/chart/helper/createSeriesDataFromArrayWithDimensions.ts#SeriesModel.getRawDataItemWithDimensions',
    label: 'SeriesModel.getRawDataItemWithDimensions',
    kind: 'method',
    file: 'src/chart/helper/deeply/nested/folder/createSeriesDataFromArrayWithDimensions.ts',
    line: 1204,
  },
  { id: 'sym:src/model/Series.ts#SeriesModel.init', label: 'SeriesModel.init', kind: 'method', file: 'src/model/Series.ts', line: 12 },
  { id: 'mod:src/model', label: 'src/model', kind: 'module' },
];

async function assertClean(wp: WebviewPage): Promise<void> {
  assert.deepEqual(wp.violations, [], 'no CSP violation reported on the console');
  assert.deepEqual(await wp.pageViolations(), [], 'no securitypolicyviolation event');
  assert.deepEqual(wp.errors, [], 'no page error');
  assert.equal(await wp.page.evaluate('window.__kgPwned'), undefined, 'no label ran as script');
}

async function shot(wp: WebviewPage, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await new Promise((r) => setTimeout(r, 150));
  await wp.page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

// Without Chromium the suite is skipped and the tier's summary names it (scripts/run-tests.mjs);
// in CI, where .ci/run installs Chromium before the tests, its absence is a failure, not a skip.
const missing = `no Chromium at ${CHROMIUM}: install it (apt-get install chromium, or bash scripts/e2e/setup.sh)`;
if (!available && process.env.CI) {
  describe('webviews in Chromium under the real CSP', () => {
    it('has Chromium to run in', () => assert.fail(missing));
  });
}
describe('webviews in Chromium under the real CSP', { skip: available ? false : missing }, () => {
  const open: WebviewPage[] = [];
  after(async () => {
    for (const wp of open) await wp.close();
  });
  const start = async (...args: Parameters<typeof WebviewPage.open>) => {
    const wp = await WebviewPage.open(...args);
    open.push(wp);
    return wp;
  };

  it('renders a 200-node neighbourhood and a path, with zero CSP violations and labels kept as text', async () => {
    const g = syntheticNeighborhood(200);
    const wp = await start({ kind: 'explorer', theme: 'dark', host: hostFor(g, { banner: STALE }) });
    const drawn = await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    const ids = (drawn.m as Extract<WebviewMessage, { type: 'drawn' }>).nodes;
    assert.deepEqual([...ids].sort(), [g.focus.id, ...g.nodes.map((n) => n.id)].sort());
    assert.equal(await wp.page.locator('#hubs li').count(), g.excludedHubs.length);
    assert.match((await wp.page.locator('.banner').textContent()) ?? '', /Graph is stale: 2 files changed/);

    // Select a hostile-labelled node through the search box: its name is shown as text.
    await wp.page.fill('#search', 'onerror');
    await wp.page.press('#search', 'Enter');
    await wp.page.locator('.details-title').waitFor();
    assert.equal(await wp.page.locator('.details-title').textContent(), HOSTILE_LABELS[0]);
    assert.equal(await wp.page.locator('img, svg, iframe, object').count(), 0, 'no element made from a label');
    assert.match((await wp.page.locator('#details').textContent()) ?? '', /Cited by \(1\)ADR 65: <b>Cytoscape<\/b>/);
    await wp.page.fill('#search', '');
    await shot(wp, 'explorer-dark-neighbors');

    // Export PNG: the canvas as a PNG data URL, which the host's schema accepts.
    const sinceExport = await wp.postedCount();
    await wp.page.click('#export-png');
    const png = await wp.waitForPosted((m) => m.type === 'savePng', sinceExport);
    assert.equal(checkWebviewMessage(png.m).ok, true);
    const bytes = Buffer.from((png.m as Extract<WebviewMessage, { type: 'savePng' }>).dataUrl.split(',')[1], 'base64');
    assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
    assert.ok(bytes.length > 20_000, `${bytes.length} bytes`);

    // Path mode: from/to, the path drawn and its hops listed with relation and confidence.
    const before = (await wp.posted()).length;
    await wp.page.check('#mode-path');
    await wp.page.fill('#path-from', g.focus.id);
    await wp.page.fill('#path-to', 'sym:somewhere#y');
    await wp.page.click('#find-path');
    const pathDrawn = await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', before);
    const p = syntheticPath(g);
    // Asked over the drawn neighbourhood, the path is highlighted on it: everything stays drawn.
    const overlaid = (pathDrawn.m as Extract<WebviewMessage, { type: 'drawn' }>).nodes;
    assert.deepEqual([...overlaid].sort(), [...ids].sort());
    assert.deepEqual(
      p.nodes.map((n) => n.id).filter((id) => !overlaid.includes(id)),
      [],
    );
    const hops = await wp.page.locator('#hops .hop-edge').allTextContents();
    assert.deepEqual(
      hops,
      p.edges.map(
        (e, i) =>
          `${e.source === p.nodes[i].id ? '↓' : '↑'} ${e.relation} · ${e.confidence}${e.source === p.nodes[i].id ? '' : ' (against the arrow)'}`,
      ),
    );
    await shot(wp, 'explorer-dark-path-over-neighbors');

    // Shown from the path finder ("Show in explorer"), the path is drawn alone, layered.
    const before2 = await wp.postedCount();
    await wp.post({ type: 'show', request: { mode: 'path', from: g.focus.id, to: 'sym:somewhere#y' } });
    const alone = await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', before2);
    assert.deepEqual(
      (alone.m as Extract<WebviewMessage, { type: 'drawn' }>).nodes,
      p.nodes.map((n) => n.id),
    );
    await shot(wp, 'explorer-dark-path');

    // Not connected is an answer; under a stale graph it says it cannot be sure.
    await wp.page.fill('#path-to', 'sym:nowhere#x');
    await wp.page.click('#find-path');
    await wp.page.locator('.notice-answer', { hasText: 'Not connected' }).waitFor();
    assert.match((await wp.page.locator('#notice').textContent()) ?? '', /Cannot tell for sure: 2 files changed/);
    await assertClean(wp);
  });

  it('the violation detector itself works (an inline script is refused and reported)', async () => {
    const wp = await start({ kind: 'path-finder', theme: 'light', host: hostFor(syntheticNeighborhood(10), { show: false }) });
    await wp.waitForPosted((m) => m.type === 'ready');
    await wp.page.evaluate(
      `(() => { const s = document.createElement('script'); s.textContent = 'window.__kgPwned = 9'; document.body.append(s); })()`,
    );
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(await wp.page.evaluate('window.__kgPwned'), undefined);
    assert.ok(
      (await wp.pageViolations()).some((v) => v.startsWith('script-src')),
      'the refused inline script was reported',
    );
  });

  it('expands a hub on demand and restores the picture after a reload', async () => {
    const g = syntheticNeighborhood(60);
    const opts = { show: true };
    const wp = await start({ kind: 'explorer', theme: 'light', host: hostFor(g, opts) });
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    const hub = g.excludedHubs[0];
    const n = (await wp.posted()).length;
    await wp.page.click(`#hubs button[data-expand="${hub}"]`);
    const expanded = await wp.waitForPosted((m) => m.type === 'drawn', n);
    const afterExpand = (expanded.m as Extract<WebviewMessage, { type: 'drawn' }>).nodes;
    assert.ok(afterExpand.includes('sym:src/extra.ts#more0'));
    await wp.page.selectOption('#grouping', 'file');
    await wp.waitForPosted((m) => m.type === 'drawn', n + 2);
    await shot(wp, 'explorer-light-grouped');

    // A reload is a restore: VS Code's serializer sends no "show", the webview's state drives it.
    opts.show = false;
    await wp.page.reload();
    const restored = await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    assert.deepEqual([...(restored.m as Extract<WebviewMessage, { type: 'drawn' }>).nodes].sort(), [...afterExpand].sort());
    const replayed = (await wp.posted())
      .filter((p) => p.m.type === 'neighbors')
      .map((p) => (p.m as Extract<WebviewMessage, { type: 'neighbors' }>).expand);
    assert.deepEqual(replayed, [false, true], 'the neighbourhood, then the expansion, asked again');
    assert.equal(await wp.page.inputValue('#grouping'), 'file');

    // A path over this neighbourhood survives a reload too: base, expansion, then the path.
    let n2 = await wp.postedCount();
    await wp.page.check('#mode-path');
    await wp.page.fill('#path-from', g.focus.id);
    await wp.page.fill('#path-to', 'sym:somewhere#y');
    await wp.page.click('#find-path');
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', n2);
    await wp.page.reload();
    n2 = 0;
    const again = await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', n2);
    assert.ok((again.m as Extract<WebviewMessage, { type: 'drawn' }>).nodes.length > afterExpand.length - 1);
    const order = (await wp.posted())
      .filter((p) => p.m.type === 'neighbors' || p.m.type === 'path')
      .map((p) => (p.m.type === 'path' ? 'path' : (p.m as { expand: boolean }).expand ? 'expand' : 'neighbors'));
    assert.deepEqual(order, ['neighbors', 'expand', 'path']);
    assert.equal(await wp.page.locator('#hops .hop-edge').count(), syntheticPath(g).edges.length);
    await shot(wp, 'explorer-light-path-restored');
    await assertClean(wp);
  });

  it('modes say what they show: Neighbors after a path drawn alone draws a neighbourhood; a blocking banner clears the answer', async () => {
    const g = syntheticNeighborhood(40);
    const wp = await start({ kind: 'explorer', theme: 'dark', host: hostFor(g, { show: false, signature: 'aaaaaaaaaaaa' }) });
    await wp.waitForPosted((m) => m.type === 'ready');
    const p = syntheticPath(g);
    // "Show in explorer" from the path finder: the path alone, in path mode, with its notice and hops.
    let since = await wp.postedCount();
    await wp.post({ type: 'show', request: { mode: 'path', from: p.nodes[0].id, to: p.nodes[p.nodes.length - 1].id } });
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', since);
    assert.match((await wp.page.locator('#notice').textContent()) ?? '', /Shortest path/);
    assert.equal(await wp.page.inputValue('#path-from'), p.nodes[0].label, 'the field shows the label the answer brought');
    // Neighbors: what is drawn is a neighbourhood (around the path's start), not the path under a neighbourhood's title.
    since = await wp.postedCount();
    await wp.page.click('label[for="mode-neighbors"]');
    const asked = await wp.waitForPosted((m) => m.type === 'neighbors', since);
    assert.equal((asked.m as { id: string }).id, p.nodes[0].id);
    const drawn = await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors', since);
    assert.ok((drawn.m as Extract<WebviewMessage, { type: 'drawn' }>).nodes.length > p.nodes.length);
    assert.equal(await wp.page.locator('#hops li').count(), 0, 'no hops of the path left');
    assert.match((await wp.page.locator('#focus-label').textContent()) ?? '', new RegExp(`around ${p.nodes[0].label}`));
    assert.doesNotMatch((await wp.page.locator('#notice').textContent()) ?? '', /Shortest path/);

    // A path over it, then the graph goes away: nothing of the answer stays under the banner.
    since = await wp.postedCount();
    await wp.page.check('#mode-path');
    await wp.page.fill('#path-to', 'sym:somewhere#y');
    await wp.page.click('#find-path');
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', since);
    since = await wp.postedCount();
    await wp.post(status({ kind: 'absent', reason: 'rxjs has no knowledge graph yet.', actions: ['build'], blocking: true }));
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'empty', since);
    assert.equal(await wp.page.isHidden('#notice'), true, 'the path notice is gone');
    assert.equal(await wp.page.locator('#hops li, #hubs li').count(), 0);
    await shot(wp, 'explorer-dark-blocked-after-path');
    // The graph is back: what the user looked at is asked again, base first, then the path.
    since = await wp.postedCount();
    await wp.post(status(null, 500, 'bbbbbbbbbbbb'));
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', since);
    const order = (await wp.posted())
      .slice(since)
      .filter((x) => x.m.type === 'neighbors' || x.m.type === 'path')
      .map((x) => x.m.type);
    assert.deepEqual(order, ['neighbors', 'path']);
    await assertClean(wp);
  });

  it('a reload restores the layout only for the graph it was drawn from (the signature decides)', async () => {
    const g = syntheticNeighborhood(30);
    const opts = { show: true, signature: 'aaaaaaaaaaaa' };
    const wp = await start({ kind: 'explorer', theme: 'light', host: hostFor(g, opts) });
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    const positions = () => wp.page.evaluate<Record<string, [number, number]>>(READ_POSITIONS);
    const before = await positions();
    // The same graph: the same picture, node for node.
    opts.show = false;
    await wp.page.reload();
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    assert.deepEqual(await positions(), before);
    assert.equal(await wp.page.isHidden('#notice'), true);
    // Another graph (rebuilt): asked again and laid out afresh, and the user is told why.
    opts.signature = 'cccccccccccc';
    await wp.page.reload();
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    assert.match((await wp.page.locator('#notice').textContent()) ?? '', /rebuilt since this picture was drawn/);
    assert.notDeepEqual(await positions(), before);
    await assertClean(wp);
  });

  it('a picture that reads: hubs on a ring outside, no label over the focus, a node legend', async () => {
    const g = syntheticNeighborhood(80);
    // The default panel: beside an editor, about half a 1400 px window.
    const wp = await start({ kind: 'explorer', theme: 'dark', host: hostFor(g), size: { width: 700, height: 800 } });
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    const facts = await wp.page.evaluate<PictureFacts>(READ_PICTURE);
    assert.ok(facts.hubs > 0, 'the neighbourhood has hubs');
    assert.ok(facts.innermostHub > facts.outermostRest, `hubs outside the rest: ${JSON.stringify(facts)}`);
    assert.equal(facts.overFocus, 0, 'no label over the focus');
    assert.equal(facts.clashes, 0, 'no label over another');
    assert.ok(facts.labelled >= 10, `enough labels to read the picture: ${JSON.stringify(facts)}`);
    assert.ok(facts.minLabelPx >= 10, `labels readable at the fitted zoom: ${JSON.stringify(facts)}`);
    // Each label's box is its text at the font of its zoom step: none drawn clipped (issue 55).
    assert.deepEqual(facts.clipped, [], 'labels drawn clipped');
    const legend = await wp.page.locator('#legend-nodes .legend-item').allTextContents();
    for (const kind of ['function', 'method', 'class / interface', 'file', 'module', 'unresolved name', 'hub, not expanded'])
      assert.ok(legend.includes(kind), kind);
    await shot(wp, 'explorer-dark-default-panel');
    await assertClean(wp);
  });

  it('"Show in explorer" labels every node of the path, none covered by another label (issue 55, item 8)', async () => {
    // Four hops fit in a row beside the editor; six and eleven do not, and are drawn in a column.
    for (const hops of [4, 6, 11]) {
      const p = longPath(hops);
      const host: StandInHost = (m) => {
        if (m.type === 'ready') return [status()];
        if (m.type === 'path') return [{ type: 'path', requestId: m.requestId, from: p.nodes[0], to: p.nodes[p.nodes.length - 1], ...p }];
        return undefined;
      };
      // Opened beside the editor, as "Show in explorer" opens it.
      const wp = await start({ kind: 'explorer', theme: 'light', host, size: { width: 700, height: 800 } });
      await wp.waitForPosted((m) => m.type === 'ready');
      const since = await wp.postedCount();
      await wp.post({ type: 'show', request: { mode: 'path', from: p.nodes[0].id, to: p.nodes[p.nodes.length - 1].id } });
      await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', since);
      // The zoom settles labels again after a short wait (graph-view.ts): read what stays.
      await new Promise((r) => setTimeout(r, 400));
      const labels =
        await wp.page.evaluate<Array<{ id: string; label: string; readable: boolean; px: number; covered: string[] }>>(READ_PATH_LABELS);
      await shot(wp, `explorer-light-path-${hops}-hops`);
      assert.deepEqual(labels.map((l) => l.id).sort(), p.nodes.map((n) => n.id).sort());
      const unlabelled = labels.filter((l) => !l.readable).map((l) => `${l.label} (${l.px} px)`);
      assert.deepEqual(unlabelled, [], `${hops} hops: every node of the path has its label`);
      const covered = labels.filter((l) => l.covered.length > 0).map((l) => `${l.label} under ${l.covered.join(', ')}`);
      assert.deepEqual(covered, [], `${hops} hops: no path label covered by another`);
      if (hops === 11) {
        // A reload draws the saved picture again (its positions): the column keeps its labels beside.
        await wp.page.reload();
        await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path');
        await new Promise((r) => setTimeout(r, 400));
        const again = await wp.page.evaluate<Array<{ label: string; readable: boolean; covered: string[] }>>(READ_PATH_LABELS);
        assert.deepEqual(
          again.filter((l) => !l.readable || l.covered.length > 0).map((l) => l.label),
          [],
          'after a reload',
        );
      }
      await assertClean(wp);
    }
    // Over a crowded neighbourhood, where other labels give way: each node of the path keeps its label.
    const g = syntheticNeighborhood(120);
    const wp = await start({ kind: 'explorer', theme: 'dark', host: hostFor(g), size: { width: 700, height: 800 } });
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
    const since = await wp.postedCount();
    await wp.page.check('#mode-path');
    await wp.page.fill('#path-from', g.focus.id);
    await wp.page.fill('#path-to', 'sym:somewhere#y');
    await wp.page.click('#find-path');
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'path', since);
    await new Promise((r) => setTimeout(r, 400));
    const labels = await wp.page.evaluate<Array<{ label: string; readable: boolean; px: number }>>(READ_PATH_LABELS);
    assert.equal(labels.length, syntheticPath(g).nodes.length);
    assert.deepEqual(
      labels.filter((l) => !l.readable).map((l) => `${l.label} (${l.px} px)`),
      [],
      'over a neighbourhood: every node of the path has its label',
    );
    await shot(wp, 'explorer-dark-path-over-crowd');
    await assertClean(wp);
  });

  it('a degrade is a banner with its fix, and nothing is drawn as an answer', async () => {
    const absent: Banner = { kind: 'absent', reason: 'rxjs has no knowledge graph yet.', actions: ['build'], blocking: true };
    const wp = await start({ kind: 'explorer', theme: 'dark', host: hostFor(syntheticNeighborhood(20), { banner: absent }) });
    const drawn = await wp.waitForPosted((m) => m.type === 'drawn');
    assert.equal((drawn.m as Extract<WebviewMessage, { type: 'drawn' }>).mode, 'empty');
    assert.match((await wp.page.locator('.banner').textContent()) ?? '', /No graph: rxjs has no knowledge graph yet\./);
    await wp.page.click('.banner button[data-action="build"]');
    await wp.waitForPosted((m) => m.type === 'runAction' && m.action === 'build');
    assert.equal((await wp.posted()).filter((p) => p.m.type === 'neighbors').length, 0, 'no request while the graph cannot answer');
    await shot(wp, 'explorer-dark-absent');
    await assertClean(wp);
  });

  it('loading and building banners are informational, not drawn as errors, also when they block (issue 55, item 11)', async () => {
    const style = async (banner: Banner) => {
      const wp = await start({ kind: 'explorer', theme: 'light', host: hostFor(syntheticNeighborhood(5), { banner }) });
      await wp.page.locator('.banner:not([hidden])').waitFor();
      // A string: this project's types have no DOM (the page runs it, not Node).
      const got = (await wp.page.evaluate(`(() => {
        const el = document.querySelector('.banner');
        const icon = el.querySelector('.banner-icon');
        return { border: getComputedStyle(el).borderTopColor, icon: getComputedStyle(icon).color, text: getComputedStyle(el).color };
      })()`)) as { border: string; icon: string; text: string };
      return got;
    };
    const error = await style({ kind: 'unusable', reason: 'the graph file cannot be read.', actions: ['rebuild'], blocking: true });
    for (const kind of ['loading', 'building'] as const) {
      const info = await style({ kind, reason: 'reading the graph of rxjs…', actions: [], blocking: true });
      assert.notEqual(info.border, error.border, `${kind}: not the error border`);
      assert.notEqual(info.icon, error.icon, `${kind}: not the error icon colour`);
      assert.equal(info.icon, info.text, `${kind}: the icon in the text's colour`);
    }
  });

  for (const theme of ['light', 'high-contrast'] as ThemeName[]) {
    it(`is legible in the ${theme} theme (screenshot)`, async () => {
      const g = syntheticNeighborhood(40);
      const wp = await start({ kind: 'explorer', theme, host: hostFor(g) });
      await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors');
      await wp.page.focus('#cy');
      await wp.page.keyboard.press('ArrowRight');
      await wp.page.locator('.details-title').waitFor();
      await shot(wp, `explorer-${theme}`);
      await assertClean(wp);
    });
  }

  it('past the node cap, folds by file or module and says so', async () => {
    const g = syntheticNeighborhood(1000);
    const wp = await start({ kind: 'explorer', theme: 'dark', host: hostFor(g, { nodeCap: 300 }) });
    const drawn = await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors', 0, 60_000);
    const d = drawn.m as Extract<WebviewMessage, { type: 'drawn' }>;
    assert.ok(d.aggregated > 0 && d.nodes.length + d.aggregated === 1000, `${d.nodes.length} drawn + ${d.aggregated} folded`);
    assert.match(
      (await wp.page.locator('#notice').textContent()) ?? '',
      /1000 nodes are more than the node cap of 300 .*: the \d+ nearest are drawn, \d+ are folded into \d+ (files|modules)/,
    );
    await shot(wp, 'explorer-dark-folded');
    await assertClean(wp);
  });

  it('suggestions stay inside the view: name over kind and place, the place cut with an ellipsis and whole in its title (issue 55, item 8)', async () => {
    const host: StandInHost = (m) => {
      if (m.type === 'ready') return [status()];
      if (m.type === 'suggest') return [{ type: 'suggestions', requestId: m.requestId, items: LONG_SUGGESTIONS }];
      return undefined;
    };
    const check = (f: SuggestionFacts, where: string) => {
      assert.ok(
        f.left >= 0 && f.right <= f.viewWidth,
        `${where}: the list ${Math.round(f.left)}–${Math.round(f.right)} px is inside the view (0–${f.viewWidth})`,
      );
      assert.ok(f.bottom <= f.viewHeight, `${where}: the list ends above the view's bottom`);
      assert.equal(f.rows.length, LONG_SUGGESTIONS.length);
      for (const [i, row] of f.rows.entries()) {
        const n = LONG_SUGGESTIONS[i];
        const place = n.file ? `${n.file}:${n.line}` : `${n.label}/`;
        assert.equal(row.name, n.label);
        assert.ok(row.nameWhole, `${where}: ${n.label} shows whole`);
        assert.ok(row.nameAbove, `${where}: ${n.label} above its kind and place`);
        assert.equal(row.detail, `${n.kind} · ${place}`);
        assert.equal(row.detailTitle, `${n.kind} · ${place}`, `${where}: the title says the whole kind and place`);
        assert.equal(row.detailEllipsis, 'ellipsis');
        assert.ok(row.detailInside, `${where}: ${n.label}'s place ends inside the list`);
      }
      assert.ok(f.rows[0].detailCut, `${where}: the long place is cut (with its ellipsis), not the list`);
    };
    // The path finder in a narrow side bar, then in a short one (the list scrolls within the view).
    for (const height of [600, 140]) {
      const pf = await start({ kind: 'path-finder', theme: 'dark', host, size: { width: 300, height } });
      await pf.waitForPosted((m) => m.type === 'ready');
      for (const id of ['from', 'to']) {
        await pf.page.focus(`#${id}`);
        await pf.page.keyboard.type('Series');
        await pf.page.locator(`#${id}-options li`).first().waitFor();
        check(await pf.page.evaluate<SuggestionFacts>(READ_SUGGESTIONS(`${id}-options`)), `path finder ${id}, ${height} px high`);
        await shot(pf, `path-finder-dark-suggestions-300x${height}-${id}`);
        await pf.page.keyboard.press('Escape');
      }
      await assertClean(pf);
    }
    // The explorer's path fields, in a panel beside the editor.
    const ex = await start({ kind: 'explorer', theme: 'light', host, size: { width: 520, height: 700 } });
    await ex.waitForPosted((m) => m.type === 'ready');
    await ex.page.check('#mode-path');
    for (const id of ['path-from', 'path-to']) {
      await ex.page.focus(`#${id}`);
      await ex.page.keyboard.type('Series');
      await ex.page.locator(`#${id}-options li`).first().waitFor();
      check(await ex.page.evaluate<SuggestionFacts>(READ_SUGGESTIONS(`${id}-options`)), `explorer ${id}`);
      await shot(ex, `explorer-light-suggestions-${id}`);
      await ex.page.keyboard.press('Escape');
    }
    await assertClean(ex);
  });

  it('path finder: suggestions, hops with relation and confidence, a click opens, not connected is distinct', async () => {
    const g = syntheticNeighborhood(40);
    const wp = await start({
      kind: 'path-finder',
      theme: 'dark',
      host: hostFor(g, { banner: null, show: false }),
      size: { width: 360, height: 700 },
    });
    await wp.waitForPosted((m) => m.type === 'ready');
    await wp.post({ type: 'defaultEndpoint', node: g.focus });
    // Polled from here: a string predicate would be evaluated in the page, which its CSP forbids.
    for (const end = Date.now() + 10_000; (await wp.page.inputValue('#from')) === '';) {
      assert.ok(Date.now() < end, 'From was never filled');
      await wp.page.waitForTimeout(50);
    }
    // The field shows the label; the id stays underneath (it is what Find asks about).
    assert.equal(await wp.page.inputValue('#from'), g.focus.label);
    await wp.page.focus('#to');
    await wp.page.keyboard.type('map');
    await wp.waitForPosted((m) => m.type === 'suggest' && m.text === 'map');
    await wp.page.locator('#to-options li').first().waitFor();
    const rows = await wp.page.locator('#to-options li').allTextContents();
    const offered = g.nodes.filter((n) => n.label.includes('map')).slice(0, 10);
    assert.equal(rows.length, offered.length);
    // Each row: label, kind and place — never an id, so never an escaped one.
    rows.forEach((row, i) => {
      assert.ok(row.startsWith(offered[i].label), row);
      assert.ok(row.includes(offered[i].kind) && row.includes(offered[i].file ?? '?'), row);
      assert.ok(!row.includes('sym:') && !row.includes('%'), row);
    });
    await shot(wp, 'path-finder-dark-suggestions');
    // Arrow down and Enter pick the first: the field shows its label, Find asks for its id.
    await wp.page.keyboard.press('ArrowDown');
    await wp.page.keyboard.press('Enter');
    assert.equal(await wp.page.inputValue('#to'), offered[0].label);
    const sincePick = await wp.postedCount();
    await wp.page.click('#find');
    const asked = await wp.waitForPosted((m) => m.type === 'path', sincePick);
    assert.deepEqual(asked.m, {
      type: 'path',
      requestId: (asked.m as { requestId: number }).requestId,
      from: g.focus.id,
      to: offered[0].id,
    });
    // Typing into a field that holds a node replaces it: nothing is appended to an id or a label.
    await wp.page.focus('#to');
    await wp.page.keyboard.type('sym:somewhere#y');
    assert.equal(await wp.page.inputValue('#to'), 'sym:somewhere#y');
    await wp.page.click('#find');
    await wp.page.locator('#hops').waitFor();
    const p = syntheticPath(g);
    assert.deepEqual(
      await wp.page.locator('#hops .hop').allTextContents(),
      p.nodes.map((n) => n.label),
    );
    assert.equal(await wp.page.locator('#hops .hop-edge').count(), p.edges.length);
    assert.match((await wp.page.locator('#hops .hop-edge').first().textContent()) ?? '', /calls · EXACT/);
    await shot(wp, 'path-finder-dark');
    const n = (await wp.posted()).length;
    await wp.page.locator('#hops .hop').nth(1).click();
    const opened = await wp.waitForPosted((m) => m.type === 'open', n);
    assert.deepEqual(opened.m, { type: 'open', id: p.nodes[1].id });
    await wp.page.click('#show-in-explorer');
    const shown = await wp.waitForPosted((m) => m.type === 'showInExplorer', n);
    assert.deepEqual(shown.m, {
      type: 'showInExplorer',
      request: { mode: 'path', from: p.nodes[0].id, to: p.nodes[p.nodes.length - 1].id },
    });

    // An unknown end: the answer says which, and a suggestion replaces that end (To), not From.
    await wp.page.fill('#to', UNKNOWN_END);
    await wp.page.click('#find');
    await wp.page.locator('.unavailable').waitFor();
    const sinceSuggestion = await wp.postedCount();
    await wp.page.locator('.suggestions button', { hasText: g.nodes[3].label }).click();
    const replaced = await wp.waitForPosted((m) => m.type === 'path', sinceSuggestion);
    assert.equal((replaced.m as { to: string }).to, g.nodes[3].id);
    assert.equal((replaced.m as { from: string }).from, p.nodes[0].id);
    // The field shows the picked suggestion until the answer arrives, then the answer's end.
    const answeredEnd = p.nodes[p.nodes.length - 1].label;
    for (const end = Date.now() + 10_000; (await wp.page.inputValue('#to')) !== answeredEnd;) {
      if (Date.now() > end) assert.equal(await wp.page.inputValue('#to'), answeredEnd, 'the answer brings the labels of both ends');
      await wp.page.waitForTimeout(50);
    }

    await wp.page.fill('#to', 'sym:nowhere#x');
    await wp.page.click('#find');
    await wp.page.locator('#not-connected').waitFor();
    assert.equal(await wp.page.locator('.banner:not([hidden])').count(), 0, 'not connected is an answer, not a banner');

    await wp.post(
      status({
        kind: 'unusable',
        reason: 'projection unparsable: Unexpected token } in JSON',
        actions: ['rebuild', 'showLog'],
        blocking: true,
      }),
    );
    await wp.page.locator('.banner.blocking').waitFor();
    assert.equal(await wp.page.locator('#not-connected').count(), 0, 'no answer shown under a blocking degrade');
    assert.equal(await wp.page.isDisabled('#find'), true);
    await shot(wp, 'path-finder-dark-unusable');
    // A graph is back: the answer from before the degrade is not shown again.
    await wp.post(status(null, 500, 'aaaaaaaaaaaa'));
    await wp.page.locator('.banner.blocking').waitFor({ state: 'hidden' });
    assert.equal(await wp.page.locator('#not-connected, #hops').count(), 0, 'nothing from the graph that was');
    await assertClean(wp);
  });
});
