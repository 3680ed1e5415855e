// Components in a real VS Code (issue 47, ADR 169): a `.vue` and a `.svelte` file opened in the
// editor — with no Vue or Svelte extension installed — show the callers lenses above the
// component and its functions, with the counts `kg callers` gives; a script function called only
// from templates shows its component callers. Screenshot in a dark theme.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { expectedLensTitle } from '../expected';
import { E2E, itInEditor, openWorkbench } from '../harness/context';
import { lensTextsWhen, showExplorer, type Workbench } from '../harness/workbench';

const REPO = path.join(__dirname, '..', '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');

function kg(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, KG_SERVER: 'off' } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

describe('components in the editor (dark theme)', () => {
  let wb: Workbench;
  let ws: string;
  const graphFile = () => path.join(ws, '.knowledge-graph', 'graph.json');
  const expectedTitle = (id: string) => {
    const c = JSON.parse(kg('callers', id, '--graph', graphFile())) as { callers: string[]; candidates: string[] };
    return expectedLensTitle(JSON.parse(fs.readFileSync(graphFile(), 'utf8')), id, c.callers, c.candidates);
  };

  before(async () => {
    // test/fixtures/components, with the frameworks installed as a real project has them.
    ws = path.join(E2E.state, 'workspaces', `components-${process.pid}`);
    fs.cpSync(path.join(REPO, 'test', 'fixtures', 'components'), ws, { recursive: true });
    fs.mkdirSync(path.join(ws, 'node_modules'), { recursive: true });
    for (const pkg of ['vue', 'svelte', '@vue']) fs.symlinkSync(path.join(REPO, 'node_modules', pkg), path.join(ws, 'node_modules', pkg));
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }));
    kg('build', '--apply', '--root', ws);
    wb = await openWorkbench(ws, 'components-dark');
    await showExplorer(wb);
  });
  after(async () => wb?.close());

  itInEditor(
    'a .vue file: lenses above the component and its functions, with the counts kg callers gives',
    () => wb,
    async () => {
      await wb.openFile('src/vue/App.vue', 'async function checkout');
      const component = expectedTitle('sym:src/vue/App.vue#default');
      const checkout = expectedTitle('sym:src/vue/App.vue#checkout');
      // The template calls checkout(): one proven caller, the component.
      assert.match(checkout, /^1 caller\b/);
      const texts = await lensTextsWhen(wb, (t) => t.includes(component) && t.includes(checkout), 'the component and checkout lenses');
      assert.ok(texts.includes(expectedTitle('sym:src/vue/App.vue#addSample')), JSON.stringify(texts));
      await wb.page.waitForTimeout(500);
      await wb.screenshot('components-vue');
    },
  );

  itInEditor(
    'a .svelte file: its functions referenced from the template, and a shared function called from three components',
    () => wb,
    async () => {
      await wb.openFile('src/svelte/Counter.svelte', 'function increment');
      const increment = expectedTitle('sym:src/svelte/Counter.svelte#increment');
      await lensTextsWhen(wb, (t) => t.includes(increment), 'the increment lens');
      await wb.openFile('src/format.ts', 'export function formatPrice');
      const formatPrice = expectedTitle('sym:src/format.ts#formatPrice');
      assert.match(formatPrice, /^3 callers\b/);
      await lensTextsWhen(wb, (t) => t.includes(formatPrice), 'formatPrice with its three component callers');
    },
  );
});
