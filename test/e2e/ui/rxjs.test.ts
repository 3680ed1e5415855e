// The graph in the editor on real code nobody here wrote: rxjs's sources (the bench corpus),
// built by the CLI, opened in a real VS Code. Every lens of one operator file shows what `kg
// callers` prints, and the God Nodes tree lists `kg god-nodes` in its order. Dark theme.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { corpus } from '../../../bench/corpus';
import { expectedLensTitle } from '../expected';
import { kg } from '../harness/cli';
import { E2E, itInEditor, openWorkbench } from '../harness/context';
import { showExplorer, type Workbench } from '../harness/workbench';

const FILE = 'src/internal/operators/map.ts';

describe('rxjs in the editor (dark theme)', () => {
  let wb: Workbench;
  let ws: string;
  let graphFile: string;

  before(async () => {
    ws = corpus('rxjs', path.join(E2E.state, 'workspaces', `rxjs-${process.pid}`)).root;
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }));
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
      await wb.page.waitForTimeout(500);
      await wb.screenshot('map-lenses');
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
    },
  );
});
