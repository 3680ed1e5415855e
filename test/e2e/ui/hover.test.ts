// The rationale hover as a user meets it in a real VS Code (issue #15; ADR 88, ADR 89): a stamped
// note written above a function and a decision record naming it show in the hover on the
// function's name, as `kg why` lists them; a declaration nothing is written about shows no
// Knowledge Graph section. Screenshot in a light theme.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import type { WhyResult } from '../../../src/graph/query/shapes';
import { itInEditor, makeWorkspace, openWorkbench } from '../harness/context';
import { showExplorer, type Workbench } from '../harness/workbench';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function kg(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, KG_SERVER: 'off' } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Hovers the mouse over `name` where the editor shows it in a line holding `lineText`. */
async function hoverName(wb: Workbench, lineText: string, name: string): Promise<void> {
  // Away first, so that a hover already open closes and a new one is asked for.
  await wb.page.keyboard.press('Escape');
  await wb.page.mouse.move(0, 0);
  await wb.page
    .locator('.monaco-editor .view-line', { hasText: lineText })
    .first()
    .locator('span', { hasText: new RegExp(`^${name}$`) })
    .first()
    .hover();
}

describe('the rationale hover (light theme)', () => {
  let wb: Workbench;
  let ws: string;

  before(async () => {
    ws = makeWorkspace('rationale');
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.vscode', 'settings.json'),
      JSON.stringify({ 'workbench.colorTheme': 'Default Light Modern', 'editor.hover.delay': 100 }),
    );
    kg('build', '--apply', '--root', ws);
    wb = await openWorkbench(ws, 'hover-light');
    await showExplorer(wb);
  });
  after(async () => wb?.close());

  itInEditor(
    'hovering a function: its stamped note and the decision record citing it, as `kg why` lists them',
    () => wb,
    async () => {
      const why = JSON.parse(
        kg('why', 'sym:src/cache.ts#remember', '--graph', path.join(ws, '.knowledge-graph', 'graph.json')),
      ) as WhyResult;
      assert.ok(why.available, 'kg why answers');
      assert.equal(why.notes.length, 1, 'one note sits on remember');
      assert.ok(why.records.length >= 1, 'a record cites remember');
      const note = why.notes[0];
      await wb.openFile('src/cache.ts', 'export function remember');
      await wb.page
        .locator('.statusbar-item', { hasText: /\d+ nodes/ })
        .first()
        .waitFor({ timeout: 60_000 });
      // TypeScript's "N references" lens: its server has loaded the project, so that its part of the
      // hover is the signature rather than "(loading...)".
      // ("0 references" is no link: read the lens texts.)
      await wb.page
        .locator('.codelens-decoration', { hasText: /references?/ })
        .first()
        .waitFor({ timeout: 60_000 });
      const hover = await wb.hoverUntil(
        wb.page
          .locator('.monaco-editor .view-line', { hasText: 'export function remember' })
          .first()
          .locator('span', { hasText: /^remember$/ })
          .first(),
        wb.page.locator('.monaco-hover').filter({ hasText: 'Knowledge Graph' }).first(),
      );
      // TypeScript's own part too, so that the screenshot shows the hover as a user reads it.
      await hover
        .filter({ hasText: 'function remember(key: string, value: string): void' })
        .filter({ hasNotText: /loading/i })
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => {});
      const text = oneLine(await hover.innerText());
      assert.match(text, /Why \(Knowledge Graph\)/);
      // The note: its area and stamp, its words (the header left out, on one line), where it is.
      assert.ok(text.includes(`${note.area}@${note.stamp}`), text);
      assert.ok(text.includes(oneLine(note.text.replace(/^WHY\([^)]*\):\s*/, ''))), text);
      assert.ok(text.includes(`${note.file}:${note.line}`), text);
      // Each record citing it: its title (the record's first heading) and where it is.
      for (const r of why.records) {
        assert.ok(text.includes(r.label), `${r.label} in: ${text}`);
        assert.ok(text.includes(`${r.file}:${r.line}`), text);
      }
      // Each location is a link; the record's opens the record.
      const links = oneLine((await hover.locator('a').allInnerTexts()).join(' | '));
      assert.ok(links.includes(`${note.file}:${note.line}`), links);
      const record = why.records[0];
      assert.ok(links.includes(`${record.file}:${record.line}`), links);
      await wb.screenshot('rationale-hover');
      await hover
        .locator('a', { hasText: `${record.file}:${record.line}` })
        .first()
        .click();
      await wb.page
        .locator('.tabs-container .tab', { hasText: path.basename(record.file ?? '') })
        .first()
        .waitFor({ timeout: 15_000 });
      await wb.page.locator('.monaco-editor .view-lines', { hasText: record.label }).first().waitFor({ timeout: 15_000 });
      await wb.page.locator('.tabs-container .tab', { hasText: 'cache.ts' }).first().click();
      await wb.page.locator('.monaco-editor .view-lines', { hasText: 'export function forget' }).first().waitFor({ timeout: 15_000 });
    },
  );

  itInEditor(
    'hovering a function nothing is written about: the hover has no Knowledge Graph section',
    () => wb,
    async () => {
      const why = JSON.parse(kg('why', 'sym:src/cache.ts#forget', '--graph', path.join(ws, '.knowledge-graph', 'graph.json'))) as WhyResult;
      assert.ok(
        why.available && why.notes.length + why.records.length + why.cited.length + why.fileNotes.length + why.fileRecords.length === 0,
        JSON.stringify(why),
      );
      await hoverName(wb, 'export function forget', 'forget');
      // TypeScript's own hover shows: the editor has asked every hover provider.
      const hover = wb.page
        .locator('.monaco-hover')
        .filter({ hasText: 'function forget(key: string): void' })
        .filter({ hasNotText: /loading/i })
        .first();
      await hover.waitFor({ timeout: 30_000 });
      await wb.page.waitForTimeout(1000);
      const text = oneLine(await hover.innerText());
      assert.ok(!text.includes('Knowledge Graph'), text);
      await wb.screenshot('no-rationale-hover');
    },
  );
});
