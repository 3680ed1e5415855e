// The graph in the editor on real code nobody here wrote: rxjs's sources (the bench corpus),
// built by the CLI, opened in a real VS Code. Every lens of one operator file shows what `kg
// callers` prints, the God Nodes tree lists `kg god-nodes` in its order, the explorer draws `kg
// neighbors` of map and the path finder lists `kg path` from map. Dark theme. Each step also takes
// the extension page's picture of what it checked (docs/marketplace/README.md, ADR 163), clipped to
// it: KG_E2E_UPDATE_MEDIA=1 copies the pictures into media/screenshots/.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { corpus } from '../../../bench/corpus';
import { expectedLensTitle } from '../expected';
import { kg } from '../harness/cli';
import { E2E, itInEditor, openWorkbench } from '../harness/context';
import { around, PICTURE_BUDGET, savePicture } from '../harness/media';
import { frameWith, showExplorer, type Workbench } from '../harness/workbench';

const FILE = 'src/internal/operators/map.ts';
const MAP = 'sym:src/internal/operators/map.ts#map';

interface GraphFile {
  nodes: Array<{ id: string; label: string; kind: string; sourceFile?: string; line?: number; column?: number }>;
  edges: Array<{ source: string; target: string; relation: string; confidence: string }>;
}

/**
 * The end of a chain of proven calls from `from`, `hops` calls long at most: the first symbol (in
 * id order) among the farthest reached by EXACT calls edges. Read from graph.json here, so that the
 * path finder's answer is compared with `kg path`, not chosen by it.
 */
function callChainEnd(graph: GraphFile, from: string, hops: number): string {
  const callees = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (e.relation !== 'calls' || e.confidence !== 'EXACT' || !e.target.startsWith('sym:')) continue;
    callees.set(e.source, [...(callees.get(e.source) ?? []), e.target]);
  }
  const seen = new Set([from]);
  let frontier = [from];
  let farthest: string[] = [];
  for (let d = 0; d < hops; d++) {
    const next = [...new Set(frontier.flatMap((n) => callees.get(n) ?? []))].filter((n) => !seen.has(n)).sort();
    if (next.length === 0) break;
    next.forEach((n) => seen.add(n));
    farthest = next;
    frontier = next;
  }
  assert.ok(farthest.length > 0, `${from} calls nothing proven`);
  return farthest[0];
}

describe('rxjs in the editor (dark theme)', () => {
  let wb: Workbench;
  let ws: string;
  let graphFile: string;

  before(async () => {
    ws = corpus('rxjs', path.join(E2E.state, 'workspaces', `rxjs-${process.pid}`)).root;
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    // As a user has it (TypeScript's references lens is off by default; the harness turns it on
    // for its own checks), and a cursor that does not blink in the pictures.
    fs.writeFileSync(
      path.join(ws, '.vscode', 'settings.json'),
      JSON.stringify({
        'workbench.colorTheme': 'Default Dark Modern',
        'typescript.referencesCodeLens.enabled': false,
        'editor.cursorBlinking': 'solid',
      }),
    );
    kg('build', '--apply', '--root', ws);
    graphFile = path.join(ws, '.knowledge-graph', 'graph.json');
    wb = await openWorkbench(ws, 'rxjs-dark');
    await showExplorer(wb);
  });
  after(async () => wb?.close());

  itInEditor(
    `every lens of ${FILE} is what kg callers prints`,
    () => wb,
    async () => {
      const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as Parameters<typeof expectedLensTitle>[0] & {
        nodes: Array<{ id: string; kind: string; sourceFile?: string }>;
      };
      const ids = graph.nodes.filter((n) => n.sourceFile === FILE && ['function', 'class', 'method'].includes(n.kind)).map((n) => n.id);
      assert.ok(ids.length > 0);
      const expected = ids.map((id) => {
        const c = JSON.parse(kg('callers', id, '--graph', graphFile)) as { callers: string[]; candidates: string[] };
        return expectedLensTitle(graph, id, c.callers, c.candidates);
      });
      await wb.openFile(FILE, 'export function map');
      await wb.waitForCodeLens(expected[0]);
      const end = Date.now() + 20_000;
      let texts: string[] = [];
      while (Date.now() < end) {
        texts = (await wb.codeLensTexts())
          .flatMap((t) => t.split('|').map((p) => p.replace(/\s+/g, ' ').trim()))
          .filter((t) => /callers?( ·|$)/.test(t));
        if (texts.length >= expected.length) break;
        await wb.page.waitForTimeout(250);
      }
      assert.deepEqual([...texts].sort(), [...expected].sort());
      // The implementation's lens in the middle of the picture.
      const impl = (JSON.parse(fs.readFileSync(graphFile, 'utf8')) as GraphFile).nodes.find((n) => n.id === MAP);
      assert.ok(impl?.line, `${MAP} has no line in graph.json`);
      await goTo(impl.line, impl.column ?? 1);
      await wb.page.waitForTimeout(500);
      await wb.screenshot('map-lenses');
      const picture = await savePicture(wb.page, 'lenses', await around(wb.page.locator('.part.editor')));
      assert.ok(picture.bytes <= PICTURE_BUDGET, `lenses.png: ${picture.bytes} bytes`);
    },
  );

  itInEditor(
    'the God Nodes tree lists kg god-nodes in its order',
    () => wb,
    async () => {
      const top = (JSON.parse(kg('god-nodes', '--top', '25', '--graph', graphFile)) as { godNodes: Array<{ id: string; degree: number }> })
        .godNodes;
      const pane = await wb.openView('God Nodes');
      await pane.locator('.monaco-list-row').first().waitFor({ timeout: 30_000 });
      const degrees = await pane.locator('.monaco-list-row .label-description').allInnerTexts();
      // The rows the view renders (it virtualises: those in sight), each with the CLI's degree, in order.
      assert.ok(degrees.length >= 10, `${degrees.length} rows`);
      assert.deepEqual(
        degrees.map((d) => Number(d.trim().split(' ')[0])),
        top.slice(0, degrees.length).map((g) => g.degree),
      );
      const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as { nodes: Array<{ id: string; label: string }> };
      const labelOf = new Map(graph.nodes.map((n) => [n.id, n.label === '.' ? '(root folder)' : n.label]));
      const names = await pane.locator('.monaco-list-row .label-name').allInnerTexts();
      assert.deepEqual(
        names.map((s) => s.trim()),
        top.slice(0, names.length).map((g) => labelOf.get(g.id)),
      );
      await wb.screenshot('god-nodes');
      const picture = await savePicture(wb.page, 'god-nodes', await around(pane));
      assert.ok(picture.bytes <= PICTURE_BUDGET, `god-nodes.png: ${picture.bytes} bytes`);
    },
  );

  itInEditor(
    'Explore Neighbors on map draws what kg neighbors returns',
    () => wb,
    async () => {
      // The neighbourhood's size is the setting's default (knowledgeGraph.explorer.budget), as package.json declares it.
      const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
        contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
      };
      const budget = String(manifest.contributes.configuration.properties['knowledgeGraph.explorer.budget'].default);
      const expected = (JSON.parse(kg('neighbors', MAP, '--budget', budget, '--graph', graphFile)) as { nodes: string[] }).nodes;
      await onMap();
      await wb.runCommand('Knowledge Graph: Explore Neighbors');
      const explorer = await frameWith(wb, '#cy');
      // What the explorer drew: its Cytoscape instance, where Cytoscape registers it (docs/adr/0065).
      const drawn = async () =>
        (
          (await explorer
            .evaluate(`document.getElementById('cy')._cyreg.cy.nodes().filter((n) => !n.isParent()).map((n) => n.id())`)
            .catch(() => [])) as string[]
        ).sort();
      const end = Date.now() + 60_000;
      while (JSON.stringify(await drawn()) !== JSON.stringify([...expected].sort()) && Date.now() < end) await wb.page.waitForTimeout(250);
      assert.deepEqual(await drawn(), [...expected].sort());
      // The explorer's group maximized, as one does to explore, the picture fitted to it.
      await wb.page.locator('.tabs-container .tab', { hasText: 'Graph: map' }).first().click();
      await wb.runCommand('View: Toggle Maximize Editor Group');
      await wb.page.waitForTimeout(800);
      await explorer.locator('#fit').click();
      await wb.page.waitForTimeout(800);
      await wb.screenshot('map-explorer');
      const picture = await savePicture(wb.page, 'explorer', await around(wb.page.locator('.part.editor')));
      assert.ok(picture.bytes <= PICTURE_BUDGET, `explorer.png: ${picture.bytes} bytes`);
      await wb.runCommand('View: Toggle Maximize Editor Group');
    },
  );

  itInEditor(
    'Find Path From Here on map lists the hops of kg path: a chain of proven calls',
    () => wb,
    async () => {
      const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as GraphFile;
      const to = callChainEnd(graph, MAP, 3);
      const expected = JSON.parse(kg('path', MAP, to, '--graph', graphFile)) as { path: string[]; directed: boolean };
      assert.equal(expected.directed, true, `kg path ${MAP} ${to} is a call chain`);
      assert.ok(expected.path.length >= 3, JSON.stringify(expected.path));
      await wb.page
        .locator('.tabs-container .tab', { hasText: path.basename(FILE) })
        .first()
        .click();
      await onMap();
      await wb.runCommand('Knowledge Graph: Find Path From Here');
      const finder = await frameWith(wb, '#find');
      const label = graph.nodes.find((n) => n.id === MAP)?.label;
      const end = Date.now() + 20_000;
      while ((await finder.locator('#from').inputValue()) !== label && Date.now() < end) await wb.page.waitForTimeout(250);
      assert.equal(await finder.locator('#from').inputValue(), label);
      await finder.locator('#to').fill(to);
      await finder.locator('#find').click();
      await finder.locator('#hops .hop[data-id]').first().waitFor({ timeout: 30_000 });
      const hops = await finder.locator('#hops .hop[data-id]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-id') ?? ''));
      assert.deepEqual(hops, expected.path);
      assert.match(await finder.locator('#path-summary').innerText(), /all proven/);
      await wb.page.waitForTimeout(300);
      await wb.screenshot('map-path-finder');
      // The pane from its title to a little below the last hop (the rest of the side bar is empty).
      const header = wb.page.locator('.pane-header', { hasText: /^Path Finder/i }).first();
      const box = await around(header, finder.locator('#hops'));
      const picture = await savePicture(wb.page, 'path-finder', { ...box, height: box.height + 16 });
      assert.ok(picture.bytes <= PICTURE_BUDGET, `path-finder.png: ${picture.bytes} bytes`);
    },
  );

  /** Go to Line: the cursor at `line`:`column`, the line centred. */
  async function goTo(line: number, column: number): Promise<void> {
    await wb.page.keyboard.press('Control+G');
    await wb.page.locator('.quick-input-widget .quick-input-box input').fill(`:${line}:${column}`);
    await wb.page.keyboard.press('Enter');
  }

  /** The cursor on map's name, once the editor's breadcrumbs name it (the editor knows the outline then). */
  async function onMap(): Promise<void> {
    const node = (JSON.parse(fs.readFileSync(graphFile, 'utf8')) as GraphFile).nodes.find((n) => n.id === MAP);
    assert.ok(node?.line, `${MAP} has no line in graph.json`);
    await goTo(node.line, node.column ?? 1);
    await wb.page.locator('.breadcrumbs-control .monaco-breadcrumb-item', { hasText: /^map$/ }).first().waitFor({ timeout: 60_000 });
  }
});
