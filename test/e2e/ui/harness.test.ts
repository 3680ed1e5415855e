// The harness's own helpers, proven on features the editor ships with (TypeScript's references
// lens and peek, the Outline view, the Markdown preview webview), so the later editor issues
// (callers lenses, the god-nodes tree, the explorer webview) start from helpers known to work.

import * as assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { itInEditor, makeWorkspace, openWorkbench } from '../harness/context';
import type { Workbench } from '../harness/workbench';

describe('harness helpers on built-in editor features', () => {
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench(makeWorkspace('basic'), 'harness');
    await wb.ready();
  });
  after(async () => wb?.close());

  itInEditor(
    'waits for a code lens, clicks it and reads the references peek',
    () => wb,
    async () => {
      await wb.openFile('src/greet.ts', 'export function greet');
      // greet is used once in src/greet.ts (Greeter.hello) and twice in src/main.ts (import, call)
      await wb.clickCodeLens(/^3 references$/);
      const peek = await wb.readPeek();
      // file rows read "<file><folder> <count>", then the reference lines under them
      await wb.screenshot('references-peek');
      assert.match(peek.title, /References \(3\)|Locations \(3\)|3 references/i);
      assert.ok(
        peek.rows.some((r) => /^greet\.ts.*\b1$/.test(r)),
        JSON.stringify(peek.rows),
      );
      assert.ok(
        peek.rows.some((r) => /^main\.ts.*\b2$/.test(r)),
        JSON.stringify(peek.rows),
      );
      await wb.page.keyboard.press('Escape');
    },
  );

  itInEditor(
    'opens a view by its title and reads its rows',
    () => wb,
    async () => {
      const pane = await wb.openView('Outline');
      await pane.locator('.monaco-list-row', { hasText: 'Greeter' }).waitFor({ timeout: 30_000 });
      const rows = await pane.locator('.monaco-list-row').allInnerTexts();
      await wb.screenshot('outline-view');
      assert.ok(
        rows.some((r) => r.includes('greet')),
        JSON.stringify(rows),
      );
    },
  );

  itInEditor(
    'reaches into a webview frame',
    () => wb,
    async () => {
      await wb.openFile('README.md', 'A small TypeScript workspace');
      await wb.runCommand('Markdown: Open Preview');
      const heading = wb.webview().locator('h1', { hasText: 'basic' });
      await heading.waitFor({ timeout: 30_000 });
      await wb.screenshot('markdown-preview-webview');
      assert.equal((await heading.innerText()).trim(), 'basic');
    },
  );
});
