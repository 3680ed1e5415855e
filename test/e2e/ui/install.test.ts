// The .vsix as a user installs it (issue 53 item 2, ADR 163): `code-server --install-extension`
// into a profile nobody has used (a fresh user-data folder and a fresh extensions folder), then a
// real repository opened in it: rxjs's sources, the bench corpus. The extension activates with no
// command run. The palette lists every command package.json contributes and does not hide, and
// none of those it hides (the list is read from package.json). The Extensions view shows the page
// the package carries (docs/marketplace/README.md). Build Knowledge Graph, run from the palette,
// builds the repository with the installed package's own bundles, and the lens follows.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { corpus } from '../../../bench/corpus';
import { BUILD_TITLE, EXTENSION_ID, expectedLensTitle } from '../expected';
import { REPO } from '../harness/bundle';
import { closeOwnEditor, E2E, itInEditor, ownEditor } from '../harness/context';
import { installVsix, listExtensions, nodeFor, type RunningServer } from '../harness/server';
import type { Workbench } from '../harness/workbench';

interface Command {
  command: string;
  title: string;
  category?: string;
  enablement?: string;
}
interface Manifest {
  name: string;
  publisher: string;
  version: string;
  scripts: Record<string, string>;
  contributes: {
    commands: Command[];
    menus: { commandPalette?: Array<{ command: string; when?: string }> };
    views?: Record<string, Array<{ id: string; name: string }>>;
  };
}

const manifest = (): Manifest => JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Manifest;

/**
 * The palette titles package.json promises, and those it hides. A command shows unless its
 * `menus.commandPalette` entry says `when: "false"`; a `when` or an `enablement` this test cannot
 * evaluate fails it, so that a new one is a decision written here, not a silent gap.
 */
function paletteTitles(m: Manifest): { shown: string[]; hidden: string[] } {
  const when = new Map((m.contributes.menus.commandPalette ?? []).map((e) => [e.command, e.when]));
  const shown: string[] = [];
  const hidden: string[] = [];
  for (const c of m.contributes.commands) {
    const title = c.category ? `${c.category}: ${c.title}` : c.title;
    assert.equal(c.enablement, undefined, `${c.command} has an enablement this test cannot evaluate`);
    const w = when.get(c.command);
    if (w === undefined) shown.push(title);
    else if (w === 'false') hidden.push(title);
    else assert.fail(`${c.command}: the test cannot tell whether the palette shows it (when: ${w})`);
  }
  return { shown: shown.sort(), hidden: hidden.sort() };
}

/** The README the package carries, as `npm run package` names it. */
function pageSource(m: Manifest): string {
  const p = /--readme-path (\S+)/.exec(m.scripts.package)?.[1];
  assert.ok(p, 'npm run package names its README');
  return path.join(REPO, p);
}

describe('the .vsix installed as a user installs it, in a clean profile, on rxjs', () => {
  /** The clean profile (its folder holds the user data, the extensions and the repository) and its editor. */
  const profile = { state: '', ws: '', extensionDir: '', installMs: 0 };
  let editor: { server?: RunningServer; wb?: Workbench } = {};
  const started = Date.now();

  before(async () => {
    profile.state = path.join(E2E.state, `clean-profile-${process.pid}`);
    assert.ok(!fs.existsSync(profile.state), 'a profile nobody has used');
    fs.mkdirSync(profile.state, { recursive: true });
    profile.ws = corpus('rxjs', path.join(profile.state, 'rxjs')).root;
    const t = Date.now();
    profile.extensionDir = installVsix({ csDir: E2E.csDir, stateDir: profile.state }, E2E.vsix, EXTENSION_ID);
    profile.installMs = Date.now() - t;
    editor = await ownEditor(profile.state, profile.ws, 'install');
  });

  after(async () => {
    if (profile.state) await closeOwnEditor(profile.state, 'install', editor);
    console.log(`# install: code-server --install-extension took ${profile.installMs} ms; the whole file ${Date.now() - started} ms`);
  });

  itInEditor(
    'code-server --install-extension puts this package, and nothing else, into the fresh extensions folder',
    () => editor.wb,
    async () => {
      const m = manifest();
      assert.deepEqual(listExtensions({ csDir: E2E.csDir, stateDir: profile.state }), [`${m.publisher}.${m.name}@${m.version}`]);
      const installed = JSON.parse(fs.readFileSync(path.join(profile.extensionDir, 'package.json'), 'utf8')) as Manifest;
      assert.deepEqual(installed.contributes, m.contributes);
      // The page the package carries is the marketplace README, byte for byte.
      assert.equal(fs.readFileSync(path.join(profile.extensionDir, 'readme.md'), 'utf8'), fs.readFileSync(pageSource(m), 'utf8'));
    },
  );

  itInEditor(
    'opening rxjs activates it with no command run: the status bar says there is no graph yet, and no error shows',
    () => editor.wb,
    async () => {
      const w = editor.wb as Workbench;
      await w.page.locator('.part.statusbar .statusbar-item', { hasText: 'KG: no graph' }).first().waitFor({ timeout: 60_000 });
      await w.screenshot('activated-no-graph');
      assert.deepEqual(
        (await w.allNotifications()).filter((n) => n.severity === 'error'),
        [],
      );
    },
  );

  itInEditor(
    'the palette lists every command package.json contributes and does not hide, and none that it hides',
    () => editor.wb,
    async () => {
      const w = editor.wb as Workbench;
      const { shown, hidden } = paletteTitles(manifest());
      assert.ok(shown.length > 0 && hidden.length > 0, 'the manifest both shows and hides commands');
      const prefix = 'Knowledge Graph';
      let listed: string[] = [];
      // The palette lists what the workbench knew when it opened: it is opened again until the list holds still.
      const end = Date.now() + 60_000;
      for (;;) {
        listed = await listedCommands(w, prefix);
        if (shown.every((t) => listed.includes(t)) || Date.now() > end) break;
        await w.page.waitForTimeout(1_000);
      }
      await w.screenshot('palette-every-command');
      await w.closePalette();
      // Besides the commands, the workbench lists a "Focus on … View" command of its own for each
      // view the container shows (the Structural Diff view shows only during a comparison).
      const views = (manifest().contributes.views?.knowledgeGraph ?? []).map((v) => `${prefix}: Focus on ${v.name} View`);
      assert.deepEqual(
        listed.filter((t) => !views.includes(t)),
        shown,
      );
      assert.deepEqual(
        hidden.filter((h) => listed.includes(h)),
        [],
      );
    },
  );

  itInEditor(
    "the Extensions view shows the package's page: the marketplace README, every picture named",
    () => editor.wb,
    async () => {
      const w = editor.wb as Workbench;
      const source = fs.readFileSync(pageSource(manifest()), 'utf8');
      const alts = [...source.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((p) => p[1]);
      const lead = /\*\*(Who calls this function\?[^*]*)\*\*/.exec(source)?.[1];
      assert.ok(lead, 'the page leads with its question');
      // The Extensions view (Ctrl+Shift+X) lists what is installed when nothing is searched.
      const item = w.page.locator('.extension-list-item', { hasText: 'Knowledge Graph' }).first();
      for (let attempt = 1; ; attempt++) {
        await w.page.keyboard.press('Control+Shift+X');
        try {
          await item.waitFor({ timeout: 15_000 });
          break;
        } catch (e) {
          if (attempt === 3) throw e;
        }
      }
      await item.click();
      await w.page.locator('.tabs-container .tab', { hasText: 'Extension: Knowledge Graph' }).first().waitFor({ timeout: 30_000 });
      const end = Date.now() + 60_000;
      let page: Awaited<ReturnType<typeof readPage>> | undefined;
      while (!page && Date.now() < end) {
        page = await readPage(w, lead);
        if (!page) await w.page.waitForTimeout(500);
      }
      assert.ok(page, `no webview shows "${lead}"`);
      await w.page.waitForTimeout(500);
      await w.screenshot('extension-page');
      assert.deepEqual(
        page.images.map((i) => i.alt),
        alts,
      );
      // The editor's page loads only https pictures (its CSP), so the package does not carry them
      // (ADR 163). The day a relative one loads, that reason is gone: this fails, to revisit it.
      console.log(`# the extension page: ${page.images.filter((i) => i.loaded).length} of ${page.images.length} pictures loaded`);
      assert.deepEqual(
        page.images.filter((i) => i.loaded),
        [],
      );
    },
  );

  itInEditor(
    'Build Knowledge Graph from the palette builds rxjs with the installed bundles; the lens above map is what kg callers prints',
    () => editor.wb,
    async () => {
      const w = editor.wb as Workbench;
      const t = Date.now();
      await w.runCommand(BUILD_TITLE);
      const note = await w.waitForNotification(/built ".*": \d+ nodes/, 300_000);
      console.log(`# install: the build from the palette took ${Date.now() - t} ms: ${note.message}`);
      assert.equal(note.severity, 'info');
      const graphFile = path.join(profile.ws, '.knowledge-graph', 'graph.json');
      const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as Parameters<typeof expectedLensTitle>[0];
      const id = 'sym:src/internal/operators/map.ts#map';
      // Asked of the installed package's own kg, on the editor's own Node.
      const r = spawnSync(nodeFor(E2E.csDir), [path.join(profile.extensionDir, 'dist', 'cli.js'), 'callers', id, '--graph', graphFile], {
        encoding: 'utf8',
        env: { ...process.env, KG_SERVER: 'off' },
        maxBuffer: 1 << 26,
      });
      assert.equal(r.status, 0, r.stderr);
      const c = JSON.parse(r.stdout) as { callers: string[]; candidates: string[] };
      await w.openFile('src/internal/operators/map.ts', 'export function map');
      await w.waitForCodeLens(expectedLensTitle(graph, id, c.callers, c.candidates), 60_000);
      await w.screenshot('installed-lens');
    },
  );
});

/** The command titles the palette lists for `prefix`, all of them: the list draws only the rows in sight, so it is walked down. */
async function listedCommands(w: Workbench, prefix: string): Promise<string[]> {
  const rows = await w.palette(`>${prefix}`);
  await rows.first().waitFor({ timeout: 30_000 });
  const total = Number(await rows.first().getAttribute('aria-setsize')) || 0;
  const seen = new Set<string>();
  for (let i = 0; i < Math.max(total, 1) + 1; i++) {
    for (const t of await rows.locator('.label-name').allInnerTexts()) seen.add(t.replace(/\s+/g, ' ').trim());
    if (total > 0 && seen.size >= total) break;
    await w.page.keyboard.press('ArrowDown');
  }
  await w.closePalette();
  return [...seen].filter((t) => t.startsWith(`${prefix}: `)).sort();
}

/** The webview that shows `lead`, with its pictures: alt text, source, and whether each loaded. */
async function readPage(w: Workbench, lead: string): Promise<{ images: Array<{ alt: string; src: string; loaded: boolean }> } | undefined> {
  for (const f of w.page.frames()) {
    const text = await f
      .locator('body')
      .innerText({ timeout: 1_000 })
      .catch(() => '');
    if (!text.includes(lead)) continue;
    const images = await f.locator('img').evaluateAll((imgs) =>
      imgs.map((i) => {
        const img = i as unknown as { alt: string; complete: boolean; naturalWidth: number; getAttribute(n: string): string | null };
        return { alt: img.alt, src: img.getAttribute('src') ?? '', loaded: img.complete && img.naturalWidth > 0 };
      }),
    );
    return { images };
  }
  return undefined;
}
