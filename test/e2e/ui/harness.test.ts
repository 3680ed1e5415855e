// The harness's own helpers, proven on features the editor ships with (TypeScript's references
// lens, peek and hover, the Outline view, the Markdown preview webview), so the later editor issues
// (callers lenses, the god-nodes tree, the explorer webview) start from helpers known to work.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { itInEditor, makeWorkspace, openWorkbench } from '../harness/context';
import type { Workbench } from '../harness/workbench';

describe('harness helpers on built-in editor features', () => {
  let wb: Workbench;
  let ws: string;

  before(async () => {
    ws = makeWorkspace('basic');
    wb = await openWorkbench(ws, 'harness');
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

  itInEditor(
    'hovers again until the hover shows what is asked, when what is under the pointer changed after the hover opened',
    () => wb,
    async () => {
      // The first test opened it; the Markdown preview in front keeps Quick Open's keys to itself.
      await wb.page.locator('.tabs-container .tab', { hasText: 'greet.ts' }).first().click();
      await wb.page.locator('.monaco-editor .view-lines', { hasText: 'export function greet' }).first().waitFor({ timeout: 15_000 });
      const name = wb.page
        .locator('.monaco-editor .view-line', { hasText: 'export function greet' })
        .first()
        .locator('span', { hasText: /^greet$/ })
        .first();
      // TypeScript's hover, once, so that its server has the file: the signature as it is.
      const quickInfo = (text: string) => wb.page.locator('.monaco-hover-content').filter({ hasText: text }).first();
      await wb.hoverUntil(name, quickInfo('function greet(name: string): string'));
      const before = wb.hoversRepeated;
      // The parameter renamed on disk a moment after the next hover opened: that hover shows the
      // old signature (or closes as the editor reloads the file); only a new hover shows the new one.
      const file = path.join(ws, 'src', 'greet.ts');
      const text = fs.readFileSync(file, 'utf8');
      const rename = setTimeout(() => fs.writeFileSync(file, text.replace('greet(name: string)', 'greet(person: string)')), 1_500);
      try {
        const hover = await wb.hoverUntil(name, quickInfo('function greet(person: string): string'));
        assert.match(await hover.innerText(), /greet\(person: string\)/);
        assert.ok(wb.hoversRepeated > before, 'the new signature came from a hover opened after the rename');
        await wb.screenshot('hover-again');
      } finally {
        clearTimeout(rename);
        fs.writeFileSync(file, text);
      }
    },
  );
});
