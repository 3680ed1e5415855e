// Modes and autoIndex as a user meets them (docs/configuration.md, "What each mode does";
// ADR-73, ADR-74). One folder whose .knowledge-graph/config.json the test rewrites on disk, as a
// person would: guarded → an unsaved signature edit gets a warning naming its consumers, each in
// the related information (the Problems panel lists them); strict → the same as an error; off →
// no lenses and no diagnostics. Then autoIndex on rxjs in an editor of its own whose builds use
// the warm build server (as a user has it, unlike the rest of the suite): a saved edit that adds
// a call shows in the callee's lens, and the time from the save to the new count is measured.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { corpus } from '../../../bench/corpus';
import { EXTENSION_ID } from '../expected';
import { PLAIN_TYPING } from '../harness/cli';
import { E2E, itInEditor, makeWorkspace, openWorkbench } from '../harness/context';
import { installVsix, nodeFor, startServer, type RunningServer } from '../harness/server';
import { showExplorer, Workbench } from '../harness/workbench';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function kg(env: NodeJS.ProcessEnv, cli: string, ...args: string[]): { stdout: string; stderr: string } {
  return kgWith(process.execPath, env, cli, ...args);
}

/** `node` runs the CLI: a build server is one per installed kg and per Node binary (ADR-57). */
function kgWith(node: string, env: NodeJS.ProcessEnv, cli: string, ...args: string[]): { stdout: string; stderr: string } {
  const r = spawnSync(node, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return { stdout: r.stdout, stderr: r.stderr };
}

function writeConfig(ws: string, graph: Record<string, unknown>, level: number): void {
  fs.mkdirSync(path.join(ws, '.knowledge-graph'), { recursive: true });
  fs.writeFileSync(
    path.join(ws, '.knowledge-graph', 'config.json'),
    JSON.stringify({ graph: { enabled: true, ...graph }, level }, null, 2),
  );
}

/** PLAIN_TYPING (test/e2e/harness/cli.ts) and `extra`, as the folder's settings. */
function plainTyping(ws: string, extra: Record<string, unknown> = {}): void {
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ ...PLAIN_TYPING, ...extra }));
}

/** Each lens's own text (the editor joins one line's lenses with "|"), TypeScript's references left out. */
async function lensTexts(scope: { locator: Workbench['page']['locator'] }): Promise<string[]> {
  return (await scope.locator('.codelens-decoration').allInnerTexts())
    .flatMap((t) => t.split('|').map((p) => p.replace(/\s+/g, ' ').trim()))
    .filter((t) => t && !/references?$/.test(t));
}

/** The Problems panel's rows, each as its text on one line. */
async function problemRows(wb: Workbench): Promise<string[]> {
  return (await wb.page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

/** Brings an open file's tab to the front. */
async function showTab(wb: Workbench, name: string, expectText: string): Promise<void> {
  await wb.page.locator('.tabs-container .tab', { hasText: name }).first().click();
  await wb.page.locator('.monaco-editor .view-lines', { hasText: expectText }).first().waitFor({ timeout: 15_000 });
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeout = 20_000): Promise<T> {
  const end = Date.now() + timeout;
  let v = await read();
  while (!ok(v)) {
    if (Date.now() > end) throw new Error(`${what}: never happened; last seen ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

const GUARDED = { mode: 'guarded', humanFlip: true };
const HELPER = 'export function helper(n: number): number {';
/** A second, required parameter: every caller breaks; the file itself still compiles. */
const HELPER_EDITED = 'export function helper(n: number, factor: number): number {';

describe('modes in the editor: guarded, strict, off', () => {
  let wb: Workbench;
  let ws: string;

  before(async () => {
    ws = makeWorkspace('lenses');
    plainTyping(ws);
    writeConfig(ws, GUARDED, 7);
    kg({ KG_SERVER: 'off' }, CLI, 'build', '--apply', '--root', ws);
    wb = await openWorkbench(ws, 'modes');
    await showExplorer(wb);
  });
  after(async () => wb?.close());

  itInEditor(
    'guarded: an unsaved signature edit is a warning at the declaration naming both consumers, each a related location',
    () => wb,
    async () => {
      await wb.openFile('src/shapes.ts', 'export function helper');
      await wb.waitForCodeLens(/^2 callers/);
      // Add a required parameter in the buffer, without saving.
      await wb.page.locator('.monaco-editor .view-line', { hasText: HELPER }).first().click();
      await wb.page.keyboard.press('Home');
      for (let i = 0; i < 'export function helper(n: number'.length; i++) await wb.page.keyboard.press('ArrowRight');
      await wb.page.keyboard.type(', factor: number');
      await wb.page.keyboard.press('Escape');
      await wb.page.locator('.monaco-editor .view-line', { hasText: HELPER_EDITED }).first().waitFor({ timeout: 10_000 });
      // The guard works on the buffer after a pause in typing (debounced), in the graph worker.
      const squiggle = wb.page.locator('.monaco-editor .squiggly-warning').first();
      await squiggle.waitFor({ timeout: 30_000 });
      // The hover on the declaration's name says what breaks and where.
      const hover = await wb.hoverUntil(
        wb.page
          .locator('.monaco-editor .view-line', { hasText: HELPER_EDITED })
          .first()
          .locator('span', { hasText: /^helper$/ })
          .first(),
        wb.page.locator('.monaco-hover-content').filter({ hasText: 'breaks 2 consumers' }).first(),
      );
      const hoverText = (await hover.innerText()).replace(/\s+/g, ' ');
      assert.match(
        hoverText,
        /Changing the signature of function helper breaks 2 consumers in 1 file: draw \(src\/draw\.ts:4\), twice \(src\/draw\.ts:13\)/,
      );
      assert.match(hoverText, /Knowledge Graph\(breaks-consumers\)/);
      assert.match(hoverText, /draw\.ts\(4, 10\): draw calls helper here/);
      assert.match(hoverText, /draw\.ts\(13, 20\): twice calls helper here/);
      await wb.screenshot('guarded-hover');
      await wb.page.keyboard.press('Escape');
      // The Problems panel: one warning, its two consumers as related locations.
      await wb.page.keyboard.press('Control+Shift+M');
      const rows = await until(
        'the Problems panel to list the warning and its related locations',
        () => problemRows(wb),
        (r) => r.some((t) => /breaks 2 consumers/.test(t)) && r.filter((t) => /calls helper here/.test(t)).length === 2,
      );
      const related = rows.filter((t) => /calls helper here/.test(t));
      assert.match(related[0], /draw calls helper here/);
      assert.match(related[0], /draw\.ts.*\b4\b/);
      assert.match(related[1], /twice calls helper here/);
      assert.match(related[1], /draw\.ts.*\b13\b/);
      assert.equal((await wb.page.locator('.markers-panel .monaco-list-row .codicon-warning').count()) >= 1, true, 'a warning icon');
      assert.equal(await wb.page.locator('.markers-panel .monaco-list-row .codicon-error').count(), 0, 'no error in guarded');
      await wb.screenshot('guarded-problems');
    },
  );

  itInEditor(
    'strict (config.json rewritten on disk): the same finding is an error',
    () => wb,
    async () => {
      writeConfig(ws, { mode: 'strict', humanFlip: true }, 9);
      // The file itself compiles: the only error in it is the guard's.
      await wb.page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
      // The guarded test opens the Problems panel; this test stands without it.
      if (!(await wb.page.locator('.markers-panel').first().isVisible())) await wb.page.keyboard.press('Control+Shift+M');
      await until(
        'an error row in the Problems panel',
        async () => wb.page.locator('.markers-panel .monaco-list-row .codicon-error').count(),
        (n) => n >= 1,
      );
      const rows = await problemRows(wb);
      assert.ok(
        rows.some((t) => /Changing the signature of function helper breaks 2 consumers/.test(t)),
        JSON.stringify(rows),
      );
      assert.equal(await wb.page.locator('.monaco-editor .squiggly-warning').count(), 0);
      await wb.screenshot('strict-problems');
    },
  );

  itInEditor(
    'shadow: nothing inline, no lenses; what the edit breaks is written to the "Knowledge Graph" log',
    () => wb,
    async () => {
      writeConfig(ws, { mode: 'shadow' }, 5);
      await until(
        'the error to go',
        async () => wb.page.locator('.monaco-editor .squiggly-error').count(),
        (n) => n === 0,
      );
      await until(
        'the Problems panel to empty',
        () => problemRows(wb),
        (r) => !r.some((t) => /breaks/.test(t)),
      );
      // The extension's log, as the editor writes it to disk (what Show Log opens).
      const logFile = (): string => {
        const found: string[] = [];
        const walk = (dir: string) => {
          for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
            const p = path.join(dir, e.name);
            if (e.isDirectory()) walk(p);
            else if (e.name === 'Knowledge Graph.log') found.push(p);
          }
        };
        walk(path.join(E2E.state, 'data', 'logs'));
        return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
      };
      const log = await until(
        'the shadow line in the log',
        async () => logFile(),
        (t) =>
          /\[info\] shadow: guard: src\/shapes\.ts: Changing the signature of function helper breaks 2 consumers in 1 file: draw \(src\/draw\.ts:4\), twice \(src\/draw\.ts:13\)/.test(
            t,
          ),
      );
      assert.match(log, /mode shadow; autoIndex on; level 5 \(\.knowledge-graph\/config\.json\)/);
      // No callers lens: in a file opened now (the edited one may keep a drawn lens until
      // TypeScript's lens on the same line resolves).
      await wb.openFile('src/draw.ts', 'export function draw');
      await wb.waitForCodeLens(/references?/);
      await wb.page.waitForTimeout(1000);
      assert.deepEqual(await lensTexts(wb.page), []);
    },
  );

  itInEditor(
    'off: no diagnostics, and no callers lens in any file',
    () => wb,
    async () => {
      writeConfig(ws, { mode: 'off' }, 7);
      // The edited file's tab (draw.ts, open too, has TypeScript's own errors about the new parameter).
      await showTab(wb, 'shapes.ts', 'export class Circle');
      await until(
        'the error to go',
        async () => wb.page.locator('.monaco-editor .squiggly-error').count(),
        (n) => n === 0,
      );
      await until(
        'the Problems panel to empty',
        () => problemRows(wb),
        (r) => !r.some((t) => /breaks/.test(t)),
      );
      // Undo the edit, so that the file is clean, then look at the other file's lenses.
      await wb.page.locator('.monaco-editor .view-line', { hasText: HELPER_EDITED }).first().click();
      const original = wb.page.locator('.monaco-editor .view-line', { hasText: HELPER });
      for (let i = 0; i < 30 && (await original.count()) === 0; i++) await wb.page.keyboard.press('Control+Z');
      await original.first().waitFor({ timeout: 10_000 });
      await showTab(wb, 'draw.ts', 'export function draw'); // opened by the shadow test
      // TypeScript's own "N references" lenses show: the editor has rendered its lenses, none of ours.
      await wb.waitForCodeLens(/references?/);
      await wb.page.waitForTimeout(1000);
      assert.deepEqual(await lensTexts(wb.page), []);
      await wb.screenshot('off-no-lenses');
      // Back to advisory: the lenses return without a reload.
      writeConfig(ws, { mode: 'advisory' }, 4);
      await wb.waitForCodeLens(/^1 caller/);
    },
  );

  itInEditor(
    'autoIndex: a save whose build fails keeps the previous graph and says why in the status bar',
    () => wb,
    async () => {
      const tsconfig = path.join(ws, 'tsconfig.json');
      const good = fs.readFileSync(tsconfig, 'utf8');
      const nodes = (JSON.parse(fs.readFileSync(path.join(ws, '.knowledge-graph', 'graph.json'), 'utf8')) as { nodes: unknown[] }).nodes
        .length;
      const touchAndSave = async () => {
        await wb.page.locator('.monaco-editor .view-line', { hasText: 'export function draw' }).first().click();
        await wb.page.keyboard.press('End');
        await wb.page.keyboard.type(' ');
        await wb.page.keyboard.press('Control+S');
      };
      fs.writeFileSync(tsconfig, '{ "include": [\n');
      try {
        await showTab(wb, 'draw.ts', 'export function draw');
        await touchAndSave();
        const failed = wb.page.locator('.statusbar-item', { hasText: 'KG: build failed' }).first();
        await failed.waitFor({ timeout: 30_000 });
        const tip = await wb.hoverUntil(
          failed,
          wb.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'The last build failed' }).first(),
        );
        const text = (await tip.innerText()).replace(/\s+/g, ' ');
        assert.match(text, /The last build failed: tsconfig\.json:\d+:\d+: cannot parse/);
        assert.match(text, /The previous graph still answers/);
        assert.ok(text.includes(`${nodes} nodes`), text);
        await wb.screenshot('autoindex-build-failed');
        assert.equal(
          await wb.page.locator('.notifications-toasts .notification-list-item', { hasText: /failed/ }).count(),
          0,
          'no pop-up for a build nobody started by hand',
        );
      } finally {
        fs.writeFileSync(tsconfig, good);
      }
      await touchAndSave();
      await wb.page
        .locator('.statusbar-item', { hasText: `${nodes} nodes` })
        .first()
        .waitFor({ timeout: 30_000 });
    },
  );

  itInEditor(
    'config.json is checked against the shipped schema while it is edited (jsonValidation)',
    () => wb,
    async () => {
      writeConfig(ws, { mode: 'advisory', humanflip: true }, 4);
      await wb.openFile('.knowledge-graph/config.json', 'humanflip');
      await wb.page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: 30_000 });
      const hover = await wb.hoverUntil(
        wb.page.locator('.monaco-editor .view-line span', { hasText: /humanflip/ }).first(),
        wb.page
          .locator('.monaco-hover-content')
          .filter({ hasText: /humanflip/ })
          .first(),
      );
      assert.match((await hover.innerText()).replace(/\s+/g, ' '), /Property humanflip is not allowed/);
      await wb.screenshot('config-schema');
    },
  );
});

describe('autoIndex on rxjs, through the warm build server', () => {
  let wb: Workbench | undefined;
  let server: RunningServer | undefined;
  let ws: string;
  let cli: string;
  let state: string;
  let node: string;
  let serverEnv: NodeJS.ProcessEnv;
  const CALLER = 'src/internal/operators/map.ts';
  const CALLEE = 'src/internal/util/identity.ts';
  const IDENTITY = 'sym:src/internal/util/identity.ts#identity';
  /** Saves timed by the autoIndex test (issue 55 item 3: p50 over ten saves on a 500-file package). */
  const SAVES = 10;

  before(async () => {
    state = path.join(E2E.state, `autoindex-${process.pid}`);
    fs.mkdirSync(state, { recursive: true });
    ws = corpus('rxjs', path.join(state, 'rxjs')).root;
    // As a user has it: TypeScript's references lens is off by default (the harness turns it on
    // for its own checks); the editor draws a line's lenses once every provider answered.
    plainTyping(ws, { 'workbench.colorTheme': 'Default Light Modern', 'typescript.referencesCodeLens.enabled': false });
    // An editor of its own: its extension host, and the builds it starts, may use a build server,
    // kept in a folder of this test's so that stopping "all" stops only ours.
    const extensionDir = installVsix({ csDir: E2E.csDir, stateDir: state }, E2E.vsix, EXTENSION_ID);
    cli = path.join(extensionDir, 'dist', 'cli.js');
    const dir = path.join(state, 'kg-servers');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    serverEnv = { KG_SERVER: 'on', KG_SERVER_DIR: dir };
    // The graph and a warm server, as a user has them after working a while: the first build
    // starts the server; the next ones are its (the installed kg's: one server per installed kg).
    // With the editor's own Node binary: that is part of the server's identity.
    node = nodeFor(E2E.csDir);
    kgWith(node, serverEnv, cli, 'build', '--apply', '--root', ws);
    await until(
      'the build server to be warm',
      async () => kgWith(node, serverEnv, cli, 'build', '--apply', '--root', ws).stderr,
      (e) => /built by the build server/.test(e),
      60_000,
    );
    server = await startServer({ csDir: E2E.csDir, stateDir: state }, ws, 0, serverEnv);
    wb = await Workbench.open({ url: server.url, folder: ws, artifacts: path.join(E2E.artifacts, 'screenshots'), name: 'autoindex-rxjs' });
    await showExplorer(wb);
  });

  after(async () => {
    await wb?.close();
    await server?.stop();
    // This editor's logs (the "Knowledge Graph" log says when each autoIndex build ran) beside the run's.
    if (state && fs.existsSync(path.join(state, 'data', 'logs')))
      fs.cpSync(path.join(state, 'data', 'logs'), path.join(E2E.artifacts, 'logs', 'autoindex-code-server'), { recursive: true });
    if (cli) {
      kgWith(node, serverEnv, cli, 'server', 'stop', '--all');
      // Asked as the editor's builds ask: the server's identity includes the Node binary.
      const status = JSON.parse(kgWith(node, serverEnv, cli, 'server', 'status', '--root', ws).stdout) as { running: boolean };
      assert.equal(status.running, false, 'the build server this test started is stopped');
    }
  });

  itInEditor(
    'ten saved edits that add and remove a call: the callee`s lens shows each new count, p50 within 2 s',
    () => wb,
    async () => {
      const w = wb as Workbench;
      const graphFile = path.join(ws, '.knowledge-graph', 'graph.json');
      const before = (JSON.parse(kg({ KG_SERVER: 'off' }, CLI, 'callers', IDENTITY, '--graph', graphFile).stdout) as { callers: string[] })
        .callers.length;
      const title = (n: number) => new RegExp(`^${n} callers?( ·|$)`);
      // The callee on the left, the caller on the right: both visible, as when one edits a call.
      await w.openFile(CALLEE, 'This function takes one parameter');
      // The declaration is at the end of the file, below its documentation.
      await w.page.keyboard.press('Control+End');
      await w.page.locator('.monaco-editor .view-line', { hasText: 'export function identity' }).first().waitFor({ timeout: 10_000 });
      // "0 callers" is no link (nothing to list): read the lens texts, not the links.
      await until(
        `the lens of identity to show ${before} callers`,
        () => lensTexts(w.page),
        (t) => t.some((x) => title(before).test(x)),
        60_000,
      );
      await w.page.keyboard.press('Control+\\');
      await w.page.locator('.editor-group-container').nth(1).waitFor({ timeout: 10_000 });
      await w.openFile(CALLER, 'export function map');
      const left = w.page.locator('.editor-group-container').first();
      // map calls identity (which no function calls yet): an import, and a call in map's body.
      await w.page.keyboard.press('Control+Home');
      await w.page.keyboard.type("import { identity } from '../util/identity';\n");
      // Go to map's `return operate(…)` (one line lower now) and call identity just before it.
      const line =
        fs
          .readFileSync(path.join(ws, CALLER), 'utf8')
          .split('\n')
          .findIndex((l) => l.includes('return operate((source, subscriber) => {')) + 2;
      assert.ok(line > 2);
      await w.page.keyboard.press('Control+G');
      await w.page.keyboard.type(String(line));
      await w.page.keyboard.press('Enter');
      await w.page.keyboard.press('Home');
      await w.page.keyboard.press('Home');
      await w.page.keyboard.type('  identity(thisArg);\n');
      await w.page.keyboard.press('Escape');
      await w.page.locator('.monaco-editor .view-line', { hasText: 'identity(thisArg);' }).first().waitFor({ timeout: 10_000 });
      assert.ok(
        (await lensTexts(left)).some((t) => title(before).test(t)),
        'the old count shows before the save',
      );

      /** Saves, and returns how long the callee's lens took to show `count`. */
      const saveAndTime = async (count: number): Promise<number> => {
        await w.page.keyboard.press('Control+S');
        const saved = Date.now();
        await until(
          `the lens of identity to show ${count} callers`,
          () => lensTexts(left),
          (t) => t.some((x) => title(count).test(x)),
          30_000,
        );
        return Date.now() - saved;
      };
      const goTo = async (n: number) => {
        await w.page.keyboard.press('Control+G');
        await w.page.keyboard.type(String(n));
        await w.page.keyboard.press('Enter');
        await w.page.keyboard.press('Home');
        await w.page.keyboard.press('Home');
      };
      // Ten saves, each timed (issue 55 item 3): the call added, then commented out and restored in turn.
      const times = [await saveAndTime(before + 1)];
      await w.screenshot('autoindex-lens-updated');
      assert.equal(
        (JSON.parse(kg({ KG_SERVER: 'off' }, CLI, 'callers', IDENTITY, '--graph', graphFile).stdout) as { callers: string[] }).callers
          .length,
        before + 1,
        'the CLI reads the same count from the graph',
      );
      while (times.length < SAVES) {
        await goTo(line);
        const commented = times.length % 2 === 1;
        if (commented) await w.page.keyboard.type('//');
        else {
          await w.page.keyboard.press('Delete');
          await w.page.keyboard.press('Delete');
        }
        times.push(await saveAndTime(commented ? before : before + 1));
      }
      const sorted = [...times].sort((a, b) => a - b);
      const p50 = (sorted[SAVES / 2 - 1] + sorted[SAVES / 2]) / 2;
      const load = os.loadavg()[0] / os.cpus().length;
      const line1 = `autoIndex on rxjs, warm build server: save → lens in ${times.join(', ')} ms over ${SAVES} saves (p50 ${p50} ms, max ${sorted[SAVES - 1]} ms); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
      console.log(`# ${line1}`);
      fs.writeFileSync(path.join(E2E.artifacts, 'autoindex-latency.txt'), line1 + '\n');
      // Every save updates the lens, and the median save never takes more than 5 s on any machine;
      // the 2-second budget (ADR-74) is held on a machine that is not already running more than
      // one process per core — on a busier one it is reported above.
      assert.ok(
        times.every((t) => t <= 15_000),
        `a lens took more than 15 s: ${times.join(', ')} ms`,
      );
      assert.ok(p50 <= 5000, `the lens took ${p50} ms (p50 of ${SAVES} saves) after a save (fails above 5000 ms)`);
      if (load <= 1) assert.ok(p50 <= 2000, `the lens took ${p50} ms (p50 of ${SAVES} saves) after a save (budget: 2000 ms)`);
      else console.log(`# the 2 s budget is not checked: load average ${load.toFixed(1)} per core`);
    },
  );
});
