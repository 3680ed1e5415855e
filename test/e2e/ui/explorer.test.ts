// The graph explorer and the path finder in a real VS Code, on rxjs (the bench corpus) built by the
// CLI: on refCount, under its callers lens (whose own click opens the callers, docs/adr/0061),
// Explore Neighbors from the editor's context menu draws what `kg neighbors` returns; expanding a
// hub adds what `kg neighbors <hub>` returns; path mode highlights what `kg path` returns; the
// path finder in the side bar lists the same hops and a click on one lands on its declaration's
// line; a reload brings back both pictures; light, dark and high-contrast screenshots of the
// neighbourhood and the path. What is drawn is read from the Cytoscape instance inside the webview
// (docs/adr/0065, docs/adr/0069) and compared with the CLI's JSON, never with numbers written here.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { corpus } from '../../../bench/corpus';
import { loadGraphFile, searchNodes } from '../../../src/graph';
import { E2E, itInEditor, openWorkbench } from '../harness/context';
import { frameWith, showExplorer, type Workbench } from '../harness/workbench';
import { READ_PICTURE, type PictureFacts } from '../../helpers/explorer-picture';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const FILE = 'src/internal/operators/refCount.ts';
const FOCUS = 'sym:src/internal/operators/refCount.ts#refCount';
/** The explorer's path: its To end typed as a name (the explorer resolves a unique label). */
const PATH_TO_NAME = 'isScheduler';
const PATH_TO = 'sym:src/internal/util/isScheduler.ts#isScheduler';
/**
 * The path finder's To end: a path that takes a guessed (CANDIDATE) hop, against the arrow
 * (refCount calls Observable.subscribe, proven; fromInteropObservable calls it by name only).
 * AsyncAction.schedule took one too until references joined the graph (ADR 151): now both reach
 * Subscription by proof.
 */
const FINDER_TO = 'sym:src/internal/observable/innerFrom.ts#fromInteropObservable';
const BUDGET = 40;

interface Edge {
  source: string;
  target: string;
  relation: string;
  confidence: string;
}
interface Neighbors {
  nodes: string[];
  edges: Edge[];
  excludedHubs: string[];
}
interface PathAnswer {
  path: string[];
  edges: Edge[];
}
interface GraphNode {
  id: string;
  label: string;
  kind: string;
  sourceFile?: string;
  line?: number;
  column?: number;
}
interface DrawnNode {
  id: string;
  classes: string[];
}
interface DrawnEdge extends Edge {
  classes: string[];
  lineStyle: string;
}
interface Drawn {
  nodes: DrawnNode[];
  edges: DrawnEdge[];
}

function kg(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, KG_SERVER: 'off' },
    maxBuffer: 1 << 26,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();
const edgeKey = (e: Edge): string => `${e.source} —${e.relation}/${e.confidence}→ ${e.target}`;
/** The edges one draws: one per source, target and relation (the explorer keys them so). */
function edgeKeys(edges: Edge[]): string[] {
  const byEnds = new Map<string, Edge>();
  for (const e of edges) byEnds.set(`${e.source}\u0000${e.target}\u0000${e.relation}`, e);
  return sorted([...byEnds.values()].map(edgeKey));
}

// The explorer keeps its Cytoscape instance where Cytoscape registers it: on the container.
// A string, so that nothing of the test's own compiled code (helpers) travels into the page.
const READ_DRAWN = `(() => {
  const cy = document.getElementById('cy')._cyreg.cy;
  return {
    nodes: cy.nodes().filter((n) => !n.isParent()).map((n) => ({ id: n.id(), classes: n.classes() })),
    edges: cy.edges().map((e) => ({
      source: e.data('source'), target: e.data('target'), relation: e.data('relation'), confidence: e.data('confidence'),
      classes: e.classes(), lineStyle: e.style('line-style'),
    })),
  };
})()`;

async function drawn(f: Frame): Promise<Drawn> {
  return (await f.evaluate(READ_DRAWN)) as Drawn;
}

/** Polls what the explorer drew until its node ids are `expected` (the layout runs after the answer). */
async function drawnWhen(wb: Workbench, f: Frame, expected: string[], what: string, timeout = 60_000): Promise<Drawn> {
  const end = Date.now() + timeout;
  let d: Drawn = { nodes: [], edges: [] };
  while (Date.now() < end) {
    d = await drawn(f).catch(() => d);
    if (JSON.stringify(sorted(d.nodes.map((n) => n.id))) === JSON.stringify(expected)) return d;
    await wb.page.waitForTimeout(250);
  }
  assert.deepEqual(sorted(d.nodes.map((n) => n.id)), expected, `the explorer never drew ${what}`);
  return d;
}

/** Every edge's line says what it is: solid proven, dashed guessed, dotted unresolved. */
/** Where a path's length is said, so is whether it rests on a guess: as many as `kg path` has. */
function assertProofSaid(text: string, edges: Edge[]): void {
  const guesses = edges.filter((e) => e.confidence !== 'EXACT').length;
  assert.match(text, new RegExp(`\\b${edges.length} hops?, `), text);
  if (guesses === 0) assert.match(text, /all proven/, text);
  else
    assert.match(
      text,
      new RegExp(`${guesses === edges.length ? '(a guess|all guesses)' : `${guesses} of them (a guess|guesses)`} \\(CANDIDATE\\)`),
      text,
    );
}

function assertLineStyles(d: Drawn): void {
  const want: Record<string, string> = { EXACT: 'solid', CANDIDATE: 'dashed', UNRESOLVED: 'dotted' };
  const wrong = d.edges.filter((e) => e.lineStyle !== want[e.confidence]).map((e) => `${edgeKey(e)} drawn ${e.lineStyle}`);
  assert.deepEqual(wrong, []);
}

async function hubsListed(f: Frame): Promise<string[]> {
  return sorted(await f.locator('#hubs button[data-expand]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-expand') ?? '')));
}

/** Polls until the explorer's hubs list is `expected`. */
async function hubsWhen(wb: Workbench, f: Frame, expected: string[]): Promise<void> {
  const end = Date.now() + 20_000;
  let got: string[] = [];
  while (Date.now() < end) {
    got = await hubsListed(f);
    if (JSON.stringify(got) === JSON.stringify(expected)) return;
    await wb.page.waitForTimeout(250);
  }
  assert.deepEqual(got, expected, 'the hubs listed as not expanded');
}

function setTheme(ws: string, theme: string): void {
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': theme }));
}

/** Switches the theme through the workspace settings and waits for the workbench and the webview to take it. */
async function switchTheme(wb: Workbench, ws: string, f: Frame, theme: string, workbenchClass: string, bodyClass: string): Promise<void> {
  setTheme(ws, theme);
  await wb.page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 30_000 });
  await f.locator(`body.${bodyClass}`).waitFor({ timeout: 30_000 });
  // The explorer restyles its canvas on the theme change: a frame or two.
  await wb.page.waitForTimeout(600);
}

/**
 * Puts the cursor on a declaration's name (Go to Line, at the graph's line and column), waits for
 * the breadcrumbs to name it (the editor knows the file's outline then), and runs an entry of the
 * editor's context menu, opened at the cursor (Shift+F10).
 */
async function contextMenuOn(wb: Workbench, node: GraphNode, entry: string): Promise<void> {
  const name = node.label.slice(node.label.lastIndexOf('.') + 1);
  await wb.page.keyboard.press('Control+G');
  await wb.page.locator('.quick-input-widget .quick-input-box input').fill(`:${node.line}:${node.column ?? 1}`);
  await wb.page.keyboard.press('Enter');
  await wb.page
    .locator('.breadcrumbs-control .monaco-breadcrumb-item', { hasText: new RegExp(`^${name}$`) })
    .first()
    .waitFor({ timeout: 60_000 });
  await wb.page.keyboard.press('Shift+F10');
  // The menu acts on the entry under the pointer when Enter is pressed (a click right after it
  // opened can be taken for the release of the key that opened it).
  const item = wb.page.locator('.monaco-menu .action-label', { hasText: new RegExp(`^${entry}$`) }).first();
  await item.hover();
  await wb.page.locator('.monaco-menu .action-item.focused', { hasText: new RegExp(`^${entry}$`) }).waitFor({ timeout: 5_000 });
  await wb.page.keyboard.press('Enter');
  await item.waitFor({ state: 'hidden', timeout: 5_000 });
}

describe('the graph explorer and the path finder on rxjs', () => {
  let wb: Workbench;
  let ws: string;
  let graphFile: string;
  let nodeById: Map<string, GraphNode>;
  let explorer: Frame;
  /** What the explorer shows before the reload, compared with what it shows after. */
  let beforeReload: { nodes: string[]; onPath: string[] };
  let finderHops: string[];

  const cli = {
    neighbors: (id: string) => JSON.parse(kg('neighbors', id, '--budget', String(BUDGET), '--graph', graphFile)) as Neighbors,
    path: (from: string, to: string) => JSON.parse(kg('path', from, to, '--graph', graphFile)) as PathAnswer,
  };

  before(async () => {
    ws = corpus('rxjs', path.join(E2E.state, 'workspaces', `rxjs-explorer-${process.pid}`)).root;
    setTheme(ws, 'Default Light Modern');
    kg('build', '--apply', '--root', ws);
    graphFile = path.join(ws, '.knowledge-graph', 'graph.json');
    nodeById = new Map((JSON.parse(fs.readFileSync(graphFile, 'utf8')) as { nodes: GraphNode[] }).nodes.map((n) => [n.id, n]));
    wb = await openWorkbench(ws, 'explorer');
    await showExplorer(wb);
  });
  after(async () => wb?.close());

  itInEditor(
    'from the lens above refCount, Explore Neighbors draws what kg neighbors returns',
    () => wb,
    async () => {
      const expected = cli.neighbors(FOCUS);
      // The premise of this file: a neighbourhood with proven and guessed calls, and hubs.
      assert.ok(
        expected.edges.some((e) => e.relation === 'calls' && e.confidence === 'EXACT'),
        'kg neighbors: no proven call',
      );
      assert.ok(
        expected.edges.some((e) => e.relation === 'calls' && e.confidence === 'CANDIDATE'),
        'kg neighbors: no guessed call',
      );
      assert.ok(
        expected.excludedHubs.some((h) => h !== FOCUS),
        'kg neighbors: no hub',
      );

      const c = JSON.parse(kg('callers', FOCUS, '--graph', graphFile)) as { callers: string[]; candidates: string[] };
      const lensTitle = `${c.callers.length} ${c.callers.length === 1 ? 'caller' : 'callers'}${c.candidates.length ? ` · +${c.candidates.length} candidate${c.candidates.length === 1 ? '' : 's'}` : ''}`;
      const focus = nodeById.get(FOCUS);
      assert.ok(focus?.line, `${FOCUS} has no line in graph.json`);
      await wb.openFile(FILE, 'import');
      // The lens's own click opens the callers (docs/adr/0061); the explorer is one right-click away,
      // on the name of the declaration the lens stands above.
      await wb.page.keyboard.press('Control+G');
      await wb.page.locator('.quick-input-widget .quick-input-box input').fill(`:${focus.line}`);
      await wb.page.keyboard.press('Enter');
      await wb.waitForCodeLens(lensTitle);
      await contextMenuOn(wb, focus, 'Explore Neighbors');

      explorer = await frameWith(wb, '#cy');
      const d = await drawnWhen(wb, explorer, sorted(expected.nodes), `kg neighbors ${FOCUS}`);
      assert.deepEqual(sorted(d.edges.map(edgeKey)), edgeKeys(expected.edges));
      assert.deepEqual(
        d.nodes.filter((n) => n.classes.includes('focus')).map((n) => n.id),
        [FOCUS],
      );
      assertLineStyles(d);
      assert.ok(d.edges.some((e) => e.lineStyle === 'dashed') && d.edges.some((e) => e.lineStyle === 'solid'));
      await hubsWhen(wb, explorer, sorted(expected.excludedHubs.filter((h) => h !== FOCUS)));
      await wb.page.locator('.tabs-container .tab', { hasText: 'Graph: refCount' }).waitFor({ timeout: 15_000 });
      // At the size the panel opens at (beside the editor): hubs out of the way, no label over the focus or another.
      // Read once the layout has settled and the picture is fitted to the panel: on a loaded machine
      // the force layout runs for seconds, drawn small until its end fits it.
      let pic = (await explorer.evaluate(READ_PICTURE)) as PictureFacts;
      for (let waited = 0; waited < 20_000 && pic.minLabelPx < 10; waited += 250) {
        await wb.page.waitForTimeout(250);
        pic = (await explorer.evaluate(READ_PICTURE)) as PictureFacts;
      }
      assert.ok(pic.hubs > 0 && pic.hubsOutside, JSON.stringify(pic));
      assert.equal(pic.overFocus, 0, JSON.stringify(pic));
      assert.equal(pic.clashes, 0, JSON.stringify(pic));
      assert.ok(pic.labelled >= Math.min(10, expected.nodes.length - 1), JSON.stringify(pic));
      // Drawn labels are readable at the fitted zoom, not specks that wait for the panel to be maximized.
      assert.ok(pic.minLabelPx >= 10, JSON.stringify(pic));
      // At first render, in the Light theme: each label whole, none clipped at both ends (issue 55).
      assert.deepEqual(pic.clipped, [], JSON.stringify(pic));
      assert.ok((await explorer.locator('#legend-nodes .legend-item').count()) >= 8, 'a node legend');
      await wb.screenshot('light-neighbourhood');
    },
  );

  itInEditor(
    'expanding a hub adds what kg neighbors returns for it',
    () => wb,
    async () => {
      const base = cli.neighbors(FOCUS);
      const hubs = await hubsListed(explorer);
      // A function or method hub (a file hub would pull in a file's every symbol).
      const hub = hubs.find((h) => nodeById.get(h)?.kind === 'function' || nodeById.get(h)?.kind === 'method') ?? hubs[0];
      assert.ok(hub, 'no hub listed');
      const around = cli.neighbors(hub);
      await explorer.locator(`#hubs button[data-expand="${hub}"]`).click();
      const d = await drawnWhen(wb, explorer, sorted([...base.nodes, ...around.nodes]), `kg neighbors ${FOCUS} and ${hub}`);
      assert.deepEqual(sorted(d.edges.map(edgeKey)), edgeKeys([...base.edges, ...around.edges]));
      assertLineStyles(d);
      await hubsWhen(wb, explorer, sorted([...base.excludedHubs, ...around.excludedHubs].filter((h) => h !== FOCUS && h !== hub)));
      await wb.screenshot('light-hub-expanded');
    },
  );

  itInEditor(
    'path mode highlights the path kg path returns, hop by hop',
    () => wb,
    async () => {
      const before = await drawn(explorer);
      const expected = cli.path(FOCUS, PATH_TO);
      assert.ok(expected.path.length >= 3, `kg path: ${JSON.stringify(expected.path)}`);
      await explorer.locator('label[for="mode-path"]').click();
      // From: typed as a name, picked from the suggestions — the graph's ranked search, shown as
      // label, kind and place (never an id), the field then showing the label with the id under it.
      const focusNode = nodeById.get(FOCUS);
      assert.ok(focusNode);
      const load = loadGraphFile(graphFile);
      assert.ok(load.ok);
      const ranked = searchNodes(load.graph, focusNode.label, 30).matches;
      assert.equal(ranked[0]?.node.id, FOCUS, 'the ranked search puts the name typed first');
      await explorer.locator('#path-from').click();
      await explorer.locator('#path-from').pressSequentially(focusNode.label, { delay: 20 });
      // The list first shown may answer a prefix (a search starts at two characters typed): wait
      // for the answer to the whole name, then check it row by row.
      const rowIs = (row: string, i: number): boolean => {
        const n = ranked[i]?.node;
        return !!n && row.startsWith(n.label) && row.includes(n.kind) && row.includes(n.sourceFile ?? '');
      };
      const rowsEnd = Date.now() + 20_000;
      let rows: string[] = [];
      while (Date.now() < rowsEnd) {
        rows = await explorer.locator('#path-from-options li').allTextContents();
        if (rows.length === ranked.length && rows.every(rowIs)) break;
        await wb.page.waitForTimeout(250);
      }
      assert.equal(rows.length, ranked.length);
      rows.forEach((row, i) => {
        assert.ok(rowIs(row, i), `${row} is not ${ranked[i].node.id}`);
        assert.ok(!/\b(sym|file|mod):|%[0-9A-F]{2}/.test(row), `an id in a suggestion: ${row}`);
      });
      await explorer.locator('#path-from').press('ArrowDown');
      await explorer.locator('#path-from').press('Enter');
      assert.equal(await explorer.locator('#path-from').inputValue(), focusNode.label);
      await explorer.locator('#path-to').fill(PATH_TO_NAME);
      await explorer.locator('#find-path').click();
      // The path is drawn over the neighbourhood: what was there stays, the path's nodes join it.
      const d = await drawnWhen(
        wb,
        explorer,
        sorted([...before.nodes.map((n) => n.id), ...expected.path]),
        'the neighbourhood with the path',
      );
      assert.deepEqual(sorted(d.nodes.filter((n) => n.classes.includes('on-path')).map((n) => n.id)), sorted(expected.path));
      assert.deepEqual(sorted(d.edges.filter((e) => e.classes.includes('on-path')).map(edgeKey)), edgeKeys(expected.edges));
      assertLineStyles(d);
      // The hop list in the side column, in order.
      const hops = await explorer.locator('#hops button.node-name').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-id') ?? ''));
      assert.deepEqual(hops, expected.path);
      const hopEdges = await explorer.locator('#hops .hop-edge').allInnerTexts();
      assert.deepEqual(
        hopEdges.map((t) => t.replace(/^[↓↑] /, '').replace(/ \(against the arrow\)$/, '')),
        expected.edges.map((e) => `${e.relation} · ${e.confidence}`),
      );
      assertProofSaid(await explorer.locator('#notice').innerText(), expected.edges);
      // (textContent: the heading is upper-cased by the stylesheet)
      assertProofSaid((await explorer.locator('#hops h3').textContent()) ?? '', expected.edges);
      const from = nodeById.get(FOCUS)?.label ?? '';
      const to = nodeById.get(PATH_TO)?.label ?? '';
      await wb.page.locator('.tabs-container .tab', { hasText: `Graph: ${from} → ${to}` }).waitFor({ timeout: 15_000 });
      await wb.page.waitForTimeout(300);
      // Zoomed to the path, the labels take another size step: each still whole (issue 55).
      const pathPic = (await explorer.evaluate(READ_PICTURE)) as PictureFacts;
      assert.deepEqual(pathPic.clipped, [], JSON.stringify(pathPic));
      await wb.screenshot('light-path-mode');
      beforeReload = { nodes: sorted(d.nodes.map((n) => n.id)), onPath: sorted(expected.path) };
    },
  );

  itInEditor(
    'the path finder lists the hops of kg path; a click on a hop lands on its line',
    () => wb,
    async () => {
      const expected = cli.path(FOCUS, FINDER_TO);
      assert.ok(expected.path.length >= 2, `kg path: ${JSON.stringify(expected.path)}`);
      // Back in the editor, on refCount: "Find Path From Here" puts it in From.
      await wb.page
        .locator('.tabs-container .tab', { hasText: path.basename(FILE) })
        .first()
        .click();
      const focus = nodeById.get(FOCUS);
      assert.ok(focus);
      await contextMenuOn(wb, focus, 'Find Path From Here');
      const finder = await frameWith(wb, '#find');
      await finder.locator('#from').waitFor();
      const end = Date.now() + 20_000;
      // The field shows the symbol's label; its id is what Find asks about.
      while ((await finder.locator('#from').inputValue()) !== focus.label && Date.now() < end) await wb.page.waitForTimeout(250);
      assert.equal(await finder.locator('#from').inputValue(), focus.label);
      await finder.locator('#to').fill(FINDER_TO);
      await finder.locator('#find').click();
      await finder.locator('#hops .hop[data-id]').first().waitFor({ timeout: 30_000 });
      finderHops = await finder.locator('#hops .hop[data-id]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-id') ?? ''));
      assert.deepEqual(finderHops, expected.path);
      const hopEdges = await finder.locator('#hops .hop-edge').allInnerTexts();
      assert.deepEqual(
        hopEdges.map((t) => t.replace(/^[↓↑] /, '').replace(/ \(against the arrow\)$/, '')),
        expected.edges.map((e) => `${e.relation} · ${e.confidence}`),
      );
      // This path takes a guessed hop: the summary says so, not only that hop.
      assert.ok(
        expected.edges.some((e) => e.confidence === 'CANDIDATE'),
        'kg path: no guessed hop on the path finder`s path',
      );
      assertProofSaid(await finder.locator('#path-summary').innerText(), expected.edges);
      await wb.page.waitForTimeout(300);
      await wb.screenshot('light-path-finder');

      // A click on the last hop opens its declaration at the graph's line and column.
      const last = expected.path[expected.path.length - 1];
      const node = nodeById.get(last);
      assert.ok(node?.sourceFile && node.line, `${last} has no source position in graph.json`);
      await finder.locator(`#hops .hop[data-id="${last}"]`).click();
      await wb.page
        .locator('.tabs-container .tab.active', { hasText: path.basename(node.sourceFile) })
        .first()
        .waitFor({ timeout: 30_000 });
      await wb.page
        .locator('.statusbar-item', { hasText: new RegExp(`^Ln ${node.line}, Col ${node.column ?? 1}\\b`) })
        .first()
        .waitFor({ timeout: 15_000 });
      await wb.page.waitForTimeout(300);
      await wb.screenshot('light-hop-opened');
    },
  );

  itInEditor(
    'a reload of the window brings back the explorer`s picture and the path finder`s hops',
    () => wb,
    async () => {
      // The command, not a page reload: the workbench saves the views' state as it shuts down.
      const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
      await wb.runCommand('Developer: Reload Window');
      await reloaded;
      await wb.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      explorer = await frameWith(wb, '#cy', 90_000);
      const d = await drawnWhen(wb, explorer, beforeReload.nodes, 'the picture it drew before the reload', 90_000);
      assert.deepEqual(sorted(d.nodes.filter((n) => n.classes.includes('on-path')).map((n) => n.id)), beforeReload.onPath);
      assert.equal(await explorer.locator('#mode-path').isChecked(), true);
      assertLineStyles(d);
      let finder = await frameWith(wb, '#find', 30_000).catch(() => undefined);
      if (!finder) {
        // Seen in one run of several: after the reload the workbench shows the Path Finder pane
        // with no webview in it (the explorer panel beside it is back). Said, with a screenshot and
        // the webview frames there are; then the pane is collapsed and expanded as a user would.
        await wb.screenshot('path-finder-blank-after-reload');
        const frames = await wb.page.locator('iframe.webview').evaluateAll((fs) => fs.map((f) => f.getAttribute('src') ?? ''));
        console.log(`# the path finder was blank after the reload; webview frames: ${JSON.stringify(frames)}`);
        const header = wb.page.locator('.pane-header', { hasText: /^Path Finder/i }).first();
        await header.click();
        await header.click();
        finder = await frameWith(wb, '#find', 60_000);
      }
      await finder.locator('#hops .hop[data-id]').first().waitFor({ timeout: 30_000 });
      assert.deepEqual(
        await finder.locator('#hops .hop[data-id]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-id') ?? '')),
        finderHops,
      );
      await wb.page.waitForTimeout(500);
      await wb.screenshot('light-after-reload');
    },
  );

  /** Clicks Find path in path mode and waits for the path to be highlighted again. */
  async function findPathAgain(w: Workbench): Promise<void> {
    await explorer.locator('#find-path').click();
    const end = Date.now() + 30_000;
    const onPath = async () =>
      JSON.stringify(sorted((await drawn(explorer)).nodes.filter((n) => n.classes.includes('on-path')).map((n) => n.id)));
    while ((await onPath()) !== JSON.stringify(beforeReload.onPath)) {
      if (Date.now() > end) throw new Error('the path was not drawn again');
      await w.page.waitForTimeout(250);
    }
    // The layout and the zoom to the path come after the highlight: a frame or two.
    await w.page.waitForTimeout(500);
  }

  for (const [theme, workbenchClass, bodyClass, name] of [
    ['Default Dark Modern', 'vs-dark', 'vscode-dark', 'dark'],
    ['Default High Contrast', 'hc-black', 'vscode-high-contrast', 'high-contrast'],
  ] as const) {
    itInEditor(
      `${name} theme: the path and the neighbourhood, proven edges solid and guesses dashed`,
      () => wb,
      async () => {
        await switchTheme(wb, ws, explorer, theme, workbenchClass, bodyClass);
        // The explorer's group maximized, as one does to explore: the screenshots get the window's width.
        await wb.page.locator('.tabs-container .tab', { hasText: 'Graph: ' }).first().click();
        await wb.runCommand('View: Toggle Maximize Editor Group');
        await wb.page.waitForTimeout(800);
        // Find again: the path is brought into view in the larger canvas.
        await findPathAgain(wb);
        const p = await drawn(explorer);
        assertLineStyles(p);
        await wb.page.waitForTimeout(500);
        await wb.screenshot(`${name}-path-mode`);
        await explorer.locator('label[for="mode-neighbors"]').click();
        const d = await drawnWhen(wb, explorer, beforeReload.nodes, 'the neighbourhood again');
        assert.deepEqual(
          d.nodes.filter((n) => n.classes.includes('on-path')).map((n) => n.id),
          [],
        );
        assertLineStyles(d);
        await explorer.locator('#fit').click();
        await wb.page.waitForTimeout(500);
        await wb.screenshot(`${name}-neighbourhood`);
        // Back to the path for the next theme, and the editor beside it again.
        await explorer.locator('label[for="mode-path"]').click();
        await findPathAgain(wb);
        await wb.runCommand('View: Toggle Maximize Editor Group');
      },
    );
  }

  itInEditor(
    'after Show in explorer, Neighbors draws the neighbourhood kg neighbors returns, and nothing of the path',
    () => wb,
    async () => {
      const finder = await frameWith(wb, '#find', 30_000);
      const alone = cli.path(FOCUS, FINDER_TO);
      await finder.locator('#show-in-explorer').click();
      let d = await drawnWhen(wb, explorer, sorted(alone.path), 'the path finder`s path alone');
      assert.equal(await explorer.locator('#mode-path').isChecked(), true);
      await explorer.locator('label[for="mode-neighbors"]').click();
      d = await drawnWhen(wb, explorer, sorted(cli.neighbors(FOCUS).nodes), `kg neighbors ${FOCUS}, around the path's start`);
      assert.deepEqual(
        d.nodes.filter((n) => n.classes.includes('on-path')).map((n) => n.id),
        [],
      );
      assert.equal(await explorer.locator('#hops li').count(), 0);
      assert.match(await explorer.locator('#focus-label').innerText(), new RegExp(`around ${nodeById.get(FOCUS)?.label ?? '?'}`));
      assert.doesNotMatch((await explorer.locator('#notice').textContent()) ?? '', /Shortest path/);
      await wb.page.waitForTimeout(300);
      await wb.screenshot('high-contrast-neighbors-after-show-in-explorer');
    },
  );

  itInEditor(
    "Explore Neighbors from an editor in the explorer's own tab group draws that symbol's neighbourhood",
    () => wb,
    async () => {
      // Issue 55: the graph tab came forward and nothing changed. Hidden behind the editor, the
      // panel's page is gone; the request must wait for the page loaded when it comes forward.
      const node = nodeById.get(PATH_TO);
      assert.ok(node?.sourceFile && node.line, `${PATH_TO} has no source position in graph.json`);
      const expected = cli.neighbors(PATH_TO);
      assert.notDeepEqual(sorted(expected.nodes), sorted((await drawn(explorer)).nodes.map((n) => n.id)), 'a picture that differs');
      const graphTab = wb.page.locator('.tabs-container .tab', { hasText: 'Graph: ' }).first();
      await graphTab.click();
      await wb.openFile(node.sourceFile, node.label);
      // The file opened in the explorer's group, in front of the graph tab.
      const group = wb.page.locator('.editor-group-container', { has: wb.page.locator('.tab', { hasText: 'Graph: ' }) });
      await group.locator('.tab.active', { hasText: path.basename(node.sourceFile) }).waitFor({ timeout: 15_000 });
      await contextMenuOn(wb, node, 'Explore Neighbors');
      await group.locator('.tab.active', { hasText: `Graph: ${node.label}` }).waitFor({ timeout: 30_000 });
      // The page is a new one: look for it again on each try.
      const want = JSON.stringify(sorted(expected.nodes));
      const end = Date.now() + 60_000;
      let got: string[] = [];
      while (Date.now() < end) {
        explorer = await frameWith(wb, '#cy');
        got = sorted(((await drawn(explorer).catch(() => undefined))?.nodes ?? []).map((n) => n.id));
        if (JSON.stringify(got) === want) break;
        await wb.page.waitForTimeout(250);
      }
      assert.deepEqual(got, sorted(expected.nodes), `the explorer never drew kg neighbors ${PATH_TO}`);
      await wb.page.waitForTimeout(300);
      await wb.screenshot('explore-neighbors-from-the-same-group');
    },
  );
});
