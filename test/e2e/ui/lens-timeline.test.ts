// A save under a user's hands on rxjs (ADR 90): the lenses and the status bar are sampled every
// 100 ms from the first keystroke to the fresh graph, and every number drawn is checked against
// the graph it came from at the line it is drawn on. While typing, every lens stays above its
// declaration: the declarations the edit touches or names marked stale, the others with the first
// graph's count (ADR 147); after the save, every number drawn is the rebuilt graph's, and the
// status bar moves one way: stale → building → loading → fresh. The timeline is written to the
// artifacts folder (lens-timeline-<corpus>.txt).
//
// KG_E2E_TIMELINE=three runs the same on three.js 0.170.0 (its src/ and examples/jsm/, 1,039
// JavaScript modules, fetched with `npm pack`: bench/corpus.ts): the measurement on
// a repository of 800+ files. The default, in `npm test`, is rxjs.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { corpus, threeCorpus } from '../../../bench/corpus';
import { expectedLensTitle } from '../expected';
import { kg, PLAIN_TYPING } from '../harness/cli';
import { E2E, itInEditor, openWorkbench } from '../harness/context';
import { showExplorer, type Workbench } from '../harness/workbench';

interface Scenario {
  corpus: string;
  /** Makes the workspace (a fresh copy) and returns its root. */
  make(into: string): string;
  file: string;
  /** Text of the file's first line shown when opened. */
  anchor: string;
  /** The line whose end the insertion is typed at. */
  afterLine: number;
  inserted: string;
  /** What the saved text holds once the edit is in. */
  savedMarker: string;
  /**
   * Declarations the edit touches or names (ADR 147): they say stale while typing, each above the
   * line that declares it. Every other declaration keeps its count, at the line it moved to.
   */
  stale: RegExp[];
  fontSize: number;
}

const SCENARIOS: Record<string, Scenario> = {
  rxjs: {
    corpus: 'rxjs',
    make: (into) => corpus('rxjs', into).root,
    file: 'src/internal/NotificationFactories.ts',
    anchor: 'export function createNotification',
    // Below errorNotification (line 17 ends it): a new caller of createNotification, four lines above it.
    afterLine: 17,
    inserted: "\n\nexport function completeNotification() {\n  return createNotification('C', undefined, undefined);\n}",
    savedMarker: 'export function completeNotification()',
    // errorNotification: the edit is below its last line, before the next declaration (ADR 147
    // counts that as touching it); createNotification: the edit names it. nextNotification keeps its count.
    stale: ['errorNotification', 'createNotification'].map((d) => new RegExp(`function ${d}\\b`)),
    fontSize: 11,
  },
  three: {
    corpus: 'three',
    make: (into) => threeCorpus(into).root,
    file: 'src/loaders/TextureLoader.js',
    anchor: 'class TextureLoader',
    // Below load (line 36 ends it): a new method that calls load twice.
    afterLine: 36,
    inserted: '\n\n  loadTwice( url ) {\n    this.load( url );\n    return this.load( url );\n  }',
    savedMarker: 'loadTwice( url )',
    // load: the edit follows it and names it. TextureLoader keeps its count.
    stale: [/^\s*load\(/],
    fontSize: 9,
  },
};

const SCENARIO = SCENARIOS[process.env.KG_E2E_TIMELINE ?? 'rxjs'];
if (!SCENARIO) throw new Error(`KG_E2E_TIMELINE must be one of ${Object.keys(SCENARIOS).join(', ')}`);
const FILE = SCENARIO.file;
const STALE = 'callers: graph is stale — Rebuild';

interface DrawnLens {
  /** 1-based line of the text the lens sits above. */
  line: number;
  text: string;
}

/**
 * The lenses the active editor draws now, each with the line it stands above: the first line
 * whose top is at or below the lens's bottom (the margin's line number of that row).
 */
async function drawnLenses(page: Workbench['page']): Promise<DrawnLens[]> {
  return page.evaluate(() => {
    type El = { innerText: string; getBoundingClientRect(): { top: number; bottom: number } };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
    const numbers = Array.from(doc.querySelectorAll('.editor-group-container.active .margin-view-overlays .line-numbers'))
      .map((e) => ({ top: e.getBoundingClientRect().top, line: Number(e.innerText.trim()) }))
      .filter((n) => Number.isFinite(n.line) && n.line > 0)
      .sort((a, b) => a.top - b.top);
    const out: Array<{ line: number; text: string }> = [];
    for (const lens of Array.from(doc.querySelectorAll('.editor-group-container.active .codelens-decoration'))) {
      const bottom = lens.getBoundingClientRect().bottom;
      const below = numbers.find((n) => n.top >= bottom - 2);
      if (!below) continue;
      for (const part of lens.innerText.split('|')) {
        const text = part.replace(/\s+/g, ' ').trim();
        if (text && !/references?$/.test(text)) out.push({ line: below.line, text });
      }
    }
    return out.sort((a, b) => a.line - b.line);
  });
}

/** The Knowledge Graph status bar item's text, in one of the phases a save goes through. */
async function statusPhase(page: Workbench['page']): Promise<string> {
  const texts = await page.locator('.statusbar-item').allInnerTexts();
  const t = texts.map((s) => s.replace(/\s+/g, ' ').trim()).find((s) => /^KG: |nodes · .* edges$/.test(s)) ?? '';
  if (/built, loading/.test(t)) return 'loading';
  if (/building/.test(t)) return 'building';
  if (/stale/.test(t)) return 'stale';
  if (/nodes · .* edges$/.test(t)) return 'fresh';
  return t || 'none';
}

interface Sample {
  ms: number;
  phase: string;
  lenses: DrawnLens[];
}

interface Declaration {
  line: number;
  /** The declared name (a member's own name, without its class). */
  name: string;
  title: string;
}

/** Each lens-worthy declaration of FILE in this graph, with the title kg callers gives. */
function declarations(graphFile: string): Declaration[] {
  const g = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as {
    nodes: Array<{ id: string; kind: string; label: string; sourceFile?: string; line?: number }>;
  } & Parameters<typeof expectedLensTitle>[0];
  const out: Declaration[] = [];
  for (const n of g.nodes) {
    if (n.sourceFile !== FILE || n.line === undefined || !['function', 'class', 'method', 'variable'].includes(n.kind)) continue;
    const c = JSON.parse(kg('callers', n.id, '--graph', graphFile)) as { callers: string[]; candidates: string[] };
    // A variable has a lens only when something calls it (an arrow function bound to a const).
    if (n.kind === 'variable' && c.callers.length + c.candidates.length === 0) continue;
    out.push({ line: n.line, name: n.label.split('.').pop() ?? n.label, title: expectedLensTitle(g, n.id, c.callers, c.candidates) });
  }
  return out;
}

/** For each line of FILE holding a lens-worthy declaration in this graph: the title kg callers gives. */
function expectedTitles(graphFile: string): Map<number, string> {
  return new Map(declarations(graphFile).map((d) => [d.line, d.title]));
}

/** Whether a line of text declares `name` (a function, class, variable or member). */
function declares(line: string, name: string): boolean {
  const n = name.replace(/[$]/g, '\\$&');
  return new RegExp(
    `\\b(function|class|const|let|var)\\s+${n}\\b|^\\s*((static|async|public|private|protected|readonly)\\s+)*${n}\\s*[(<=]`,
  ).test(line);
}

describe(`a save on ${SCENARIO.corpus}: the lens timeline (light theme)`, () => {
  let wb: Workbench;
  let ws: string;
  let graphFile: string;

  before(async () => {
    ws = SCENARIO.make(path.join(E2E.state, 'workspaces', `${SCENARIO.corpus}-timeline-${process.pid}`));
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.vscode', 'settings.json'),
      JSON.stringify({
        'workbench.colorTheme': 'Default Light Modern',
        ...PLAIN_TYPING,
        'editor.minimap.enabled': false,
        // The whole file and its lenses in sight, so every lens is sampled.
        'editor.fontSize': SCENARIO.fontSize,
      }),
    );
    kg('build', '--apply', '--root', ws);
    graphFile = path.join(ws, '.knowledge-graph', 'graph.json');
    wb = await openWorkbench(ws, 'lens-timeline');
    await showExplorer(wb);
  });
  after(async () => wb?.close());

  itInEditor(
    `typing and saving ${FILE}: every lens drawn agrees with its graph at its line`,
    () => wb,
    async () => {
      const firstDecls = declarations(graphFile);
      const before = new Map(firstDecls.map((d) => [d.line, d.title]));
      // The text once the insertion is typed (and saved): where each declaration's lens belongs.
      const original = fs.readFileSync(path.join(ws, FILE), 'utf8').split('\n');
      const typedLines = [
        ...original.slice(0, SCENARIO.afterLine - 1),
        ...(original[SCENARIO.afterLine - 1] + SCENARIO.inserted).split('\n'),
        ...original.slice(SCENARIO.afterLine),
      ];
      const staleAbove = (ls: DrawnLens[]) =>
        SCENARIO.stale.every((decl) => ls.some((l) => l.text === STALE && decl.test(typedLines[l.line - 1] ?? '')));
      await wb.openFile(FILE, SCENARIO.anchor);
      await wb.page.keyboard.press('Control+Home');
      // Every declaration's lens, with the count of the graph built from the file as it is.
      // Polled until the lenses are the graph's: while the editor lays out after opening and
      // Ctrl+Home, a lens can be read against a line-number row not yet drawn (seen once in CI).
      const wanted = [...before].sort((a, b) => a[0] - b[0]).map(([line, t]) => `${line}: ${t}`);
      const end0 = Date.now() + 180_000;
      let first: string[] = [];
      let nudged = false;
      while (Date.now() < end0) {
        first = (await drawnLenses(wb.page)).filter((l) => /callers?( ·|$)/.test(l.text)).map((l) => `${l.line}: ${l.text}`);
        if (JSON.stringify(first) === JSON.stringify(wanted)) break;
        if (!nudged && Date.now() > end0 - 150_000 && first.length > 0) {
          // Said, not hidden: the workbench drew a line's lens row in the wrong place (the failing
          // run's screenshot had none at line 34); a scroll makes it lay the rows out again.
          console.log(`# lenses after 30 s: ${JSON.stringify(first)}; scrolling to the end and back`);
          nudged = true;
          await wb.page.keyboard.press('Control+End');
          await wb.page.waitForTimeout(300);
          await wb.page.keyboard.press('Control+Home');
        }
        await wb.page.waitForTimeout(200);
      }
      assert.deepEqual(first, wanted, 'before the edit, each lens is the CLI`s count at its line');
      const t0 = Date.now();
      const samples: Sample[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          samples.push({ ms: Date.now() - t0, phase: await statusPhase(wb.page), lenses: await drawnLenses(wb.page) });
          await wb.page.waitForTimeout(100);
        }
      })();
      // Type at the end of the scenario's line, character by character as a person would.
      await wb.page.keyboard.press('Control+G');
      await wb.page.keyboard.type(String(SCENARIO.afterLine));
      await wb.page.keyboard.press('Enter');
      await wb.page.keyboard.press('End');
      await wb.page.keyboard.type(SCENARIO.inserted, { delay: 25 });
      const typedAt = Date.now() - t0;
      // The editor asks for lenses again once typing pauses (its debounce); then the edited
      // declarations are markers. (VS Code's debounce follows the provider's past durations: on a
      // crowded machine, a minute or more.)
      const settle = Date.now() + 180_000;
      while (Date.now() < settle) {
        const last = samples[samples.length - 1];
        if (last && last.ms > typedAt && staleAbove(last.lenses)) break;
        await wb.page.waitForTimeout(100);
      }
      const typed = samples.length;
      await wb.page.keyboard.press('Control+S');
      const savedAt = Date.now() - t0;
      let freshAt = -1;
      // Fresh: the rebuilt graph is on disk, the status bar says so, and the lenses show numbers again.
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const last = samples[samples.length - 1];
        if (last && last.ms > savedAt && last.phase === 'fresh' && last.lenses.length > 0 && last.lenses.every((l) => l.text !== STALE)) {
          freshAt = last.ms;
          break;
        }
        await wb.page.waitForTimeout(100);
      }
      await wb.page.waitForTimeout(1000); // a second more of samples after fresh: nothing may change back
      sampling = false;
      await sampler;
      await wb.screenshot('lens-timeline-fresh');
      assert.ok(freshAt > 0, `the graph never became fresh after the save; last: ${JSON.stringify(samples[samples.length - 1])}`);

      // The graph the fresh numbers come from: built by the editor's autoIndex from the saved text.
      const text = fs.readFileSync(path.join(ws, FILE), 'utf8');
      assert.ok(text.includes(SCENARIO.savedMarker), 'the edit was saved');
      const afterTitles = expectedTitles(graphFile);
      const declLines = new Set(afterTitles.keys());
      assert.ok(
        [...afterTitles.values()].some((t) => !new Set(before.values()).has(t)) || [...declLines].some((l) => !before.has(l)),
        'the edit changed a count or a line (else the test proves nothing)',
      );

      const lines = fs.readFileSync(path.join(ws, FILE), 'utf8').split('\n');
      const problems: string[] = [];
      const timeline: string[] = [];
      // While typing, the editor keeps drawing the lenses it had, moved with the text, until it asks
      // again (its debounce, at least 250 ms) and repaints them (line by line). Once the typed text
      // is in and the edited declarations are markers, every other lens is the first graph's count
      // of the declaration it stands above (ADR 147), and an edited one never shows a number.
      const firstMarker = samples.findIndex((s) => s.ms > typedAt && staleAbove(s.lenses));
      const firstTitles = new Set(firstDecls.map((d) => d.title));
      for (const [i, s] of samples.entries()) {
        const after = s.ms > savedAt;
        timeline.push(
          `${String(s.ms).padStart(6)} ms ${after ? 'saved ' : 'typing'} ${s.phase.padEnd(8)} ${s.lenses.map((l) => `${l.line}:${l.text === STALE ? 'stale' : l.text}`).join(', ')}`,
        );
        if (i >= typed && !after) continue;
        if (i === 0) continue; // before the first keystroke: checked above against the first graph
        for (const l of s.lenses) {
          const m = /^(\d+) callers?( · \+(\d+) candidates?)?$/.exec(l.text);
          if (m) {
            // A number: it must be the rebuilt graph's, at the declaration it is drawn above (the
            // text on screen is the saved text; before the save nothing shows a number once typing began).
            if (!after) {
              if (firstMarker >= 0 && i >= firstMarker) {
                const at = typedLines[l.line - 1] ?? '';
                const decl = firstDecls.find((d) => declares(at, d.name));
                if (SCENARIO.stale.some((r) => r.test(at)))
                  problems.push(
                    `${s.ms} ms (typing): a number "${l.text}" above line ${l.line} ("${at.trim()}"), which the edit touched or named`,
                  );
                else if (decl?.title !== l.text)
                  problems.push(
                    `${s.ms} ms (typing): "${l.text}" above line ${l.line} ("${at.trim()}"); the first graph says ${decl?.title ?? 'no declaration there'}`,
                  );
              } else if (!firstTitles.has(l.text))
                problems.push(`${s.ms} ms (typing): "${l.text}" above line ${l.line}, a count no graph gave`);
            } else if (afterTitles.get(l.line) !== l.text)
              problems.push(
                `${s.ms} ms: "${l.text}" above line ${l.line} ("${lines[l.line - 1]?.trim()}"); the graph says ${afterTitles.get(l.line) ?? 'no declaration there'}`,
              );
          } else if (l.text === STALE) {
            // A stale marker stands above a declaration, where the text has moved it.
            if (after && !declLines.has(l.line))
              problems.push(`${s.ms} ms: the stale marker above line ${l.line} ("${lines[l.line - 1]?.trim()}"), not a declaration`);
          } else if (!/^callers: unknown/.test(l.text)) problems.push(`${s.ms} ms: unexpected lens "${l.text}" above line ${l.line}`);
        }
      }
      // While typing, no lens vanished: each sample shows at least the lenses there were before.
      for (const s of samples.slice(0, typed))
        if (s.lenses.length < before.size) problems.push(`${s.ms} ms (typing): ${s.lenses.length} lenses of ${before.size}`);
      // The last typed sample: every edited declaration has its stale lens, every other one its
      // first count, each on its moved line.
      const lastTyped = samples[typed - 1];
      assert.ok(lastTyped, 'samples were taken while typing');
      const staleLines = lastTyped.lenses.filter((l) => l.text === STALE).map((l) => l.line);
      for (const decl of SCENARIO.stale)
        if (!staleLines.some((l) => decl.test(lines[l - 1] ?? '')))
          problems.push(`after typing, ${decl.source} has no stale lens above it (stale lenses above lines ${staleLines.join(', ')})`);
      for (const d of firstDecls) {
        if (SCENARIO.stale.some((r) => r.test(original[d.line - 1] ?? ''))) continue;
        if (!lastTyped.lenses.some((l) => l.text === d.title && declares(lines[l.line - 1] ?? '', d.name)))
          problems.push(`after typing, ${d.name} does not show its count "${d.title}" above its moved line`);
      }
      // The status bar after the save: one way, stale → building → loading → fresh.
      const order = ['stale', 'building', 'loading', 'fresh'];
      const phases = samples.filter((s) => s.ms > savedAt).map((s) => s.phase);
      const seen = phases.filter((p, i) => i === 0 || p !== phases[i - 1]);
      for (let i = 1; i < seen.length; i++)
        if (order.indexOf(seen[i] as string) < order.indexOf(seen[i - 1] as string) || order.indexOf(seen[i] as string) < 0)
          problems.push(`the status bar went ${seen.join(' → ')}`);

      const report = [
        `lens timeline on ${SCENARIO.corpus} (${FILE}): first keystroke at 0 ms, first stale marker at ${samples[firstMarker]?.ms ?? -1} ms, typing done at ${typedAt} ms, save at ${savedAt} ms, fresh at ${freshAt} ms (${freshAt - savedAt} ms after the save); status ${seen.join(' → ')}; ${samples.length} samples; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
        ...timeline,
      ].join('\n');
      fs.writeFileSync(path.join(E2E.artifacts, `lens-timeline-${SCENARIO.corpus}.txt`), report + '\n');
      console.log(`# ${report.split('\n')[0]}`);
      assert.deepEqual(problems, [], report);
    },
  );

  // The rest reads rxjs's shape (its tsconfig.json, a god node called from a module's top level):
  // on the measurement corpus only the timeline runs.
  if (SCENARIO.corpus !== 'rxjs') return;

  itInEditor(
    'God Nodes: a node`s callers list proof first, and a caller opens at its call site',
    () => wb,
    async () => {
      const g = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as {
        nodes: Array<{ id: string; label: string }>;
        edges: Array<{
          source: string;
          target: string;
          relation: string;
          confidence: string;
          evidence?: { file: string; line: number; column: number };
        }>;
      };
      const top = (JSON.parse(kg('god-nodes', '--top', '25', '--graph', graphFile)) as { godNodes: Array<{ id: string }> }).godNodes;
      // The most connected symbol whose callers include a file (a call at a module's top level).
      const labelOf = new Map(g.nodes.map((n) => [n.id, n.label]));
      const pick = top
        .map((t) => ({ id: t.id, callers: g.edges.filter((e) => e.relation === 'calls' && e.target === t.id) }))
        .find((t) => t.id.startsWith('sym:') && t.callers.some((e) => e.source.startsWith('file:') && (e.evidence?.line ?? 1) > 1));
      assert.ok(pick, 'a god node with a file-level caller');
      const site = pick.callers.filter((e) => e.source.startsWith('file:')).sort((a, b) => (a.source < b.source ? -1 : 1))[0]!;
      const pane = await wb.openView('God Nodes');
      const row = pane
        .locator('.monaco-list-row', {
          has: wb.page.locator('.label-name', {
            hasText: new RegExp(`^${(labelOf.get(pick.id) ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
          }),
        })
        .first();
      await row.waitFor({ timeout: 30_000 });
      await row.click();
      await wb.page.keyboard.press('ArrowRight');
      const calledBy = pane.locator('.monaco-list-row', { hasText: /^called by/ }).first();
      await calledBy.waitFor({ timeout: 15_000 });
      await calledBy.click();
      await wb.page.keyboard.press('ArrowRight');
      const exact = pick.callers.filter((e) => e.confidence === 'EXACT').length;
      // The group says how many of its rows are proof; the rows list proof first.
      const groupText = (await calledBy.innerText()).replace(/\s+/g, ' ');
      if (exact < pick.callers.length) assert.match(groupText, new RegExp(`${exact} proven`));
      const file = site.source.replace(/^file:/, '');
      const callerRow = pane.locator('.monaco-list-row', { hasText: path.posix.basename(file) }).first();
      await callerRow.waitFor({ timeout: 15_000 });
      const descriptions = (await pane.locator('.monaco-list-row .label-description').allInnerTexts()).filter((d) =>
        /^(exact|candidate)/.test(d),
      );
      const firstGuess = descriptions.findIndex((d) => d.startsWith('candidate'));
      if (firstGuess >= 0)
        assert.ok(
          descriptions.slice(firstGuess).every((d) => d.startsWith('candidate')),
          descriptions.join(' | '),
        );
      await wb.screenshot('god-nodes-called-by');
      await callerRow.click();
      // The file opens at the call, not at its line 1.
      await wb.page.locator('.tabs-container .tab.active', { hasText: path.posix.basename(file) }).waitFor({ timeout: 15_000 });
      const at = `Ln ${site.evidence!.line}, Col ${site.evidence!.column}`;
      await wb.page.locator('.statusbar-item', { hasText: at }).first().waitFor({ timeout: 15_000 });
    },
  );

  itInEditor(
    'a failed build is said as one, with why and where, in God Nodes and the path finder, in three themes',
    () => wb,
    async () => {
      const tsconfig = path.join(ws, 'tsconfig.json');
      const good = fs.readFileSync(tsconfig, 'utf8');
      const settingsFile = path.join(ws, '.vscode', 'settings.json');
      const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(tsconfig, '{ "include": [\n');
      try {
        // A save of the file in front (the caller the previous test opened): autoIndex builds.
        await wb.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
        await wb.page.keyboard.press('Control+End');
        await wb.page.keyboard.type(' ');
        await wb.page.keyboard.press('Control+S');
        await wb.page.locator('.statusbar-item', { hasText: 'KG: build failed' }).first().waitFor({ timeout: 120_000 });
        const pane = await wb.openView('God Nodes');
        const message = pane.locator('.message', { hasText: 'The last build failed' }).first();
        await message.waitFor({ timeout: 15_000 });
        const text = (await message.innerText()).replace(/\s+/g, ' ');
        assert.match(text, /The last build failed: tsconfig\.json:\d+:\d+: /, text);
        assert.doesNotMatch(text, /stale|Rebuild/, text);
        await wb.openView('Path Finder');
        const banner = wb.webview().locator('.banner.banner-build-failed');
        await banner.waitFor({ timeout: 30_000 });
        const said = (await banner.innerText()).replace(/\s+/g, ' ');
        assert.match(said, /The last build failed: .*tsconfig\.json:\d+:\d+/, said);
        assert.doesNotMatch(said, /stale/i);
        // The icon is the editor's codicon font, drawn (its glyph has width), not an emoji.
        const icon = banner.locator('.banner-icon.codicon-error');
        assert.equal(await icon.count(), 1);
        assert.equal(
          await icon.evaluate(
            (e) => (globalThis as unknown as { getComputedStyle(e: unknown): { fontFamily: string } }).getComputedStyle(e).fontFamily,
          ),
          'codicon',
        );
        for (const [theme, workbenchClass, bodyClass] of [
          ['Default Light Modern', 'vs', 'vscode-light'],
          ['Default Dark Modern', 'vs-dark', 'vscode-dark'],
          ['Default High Contrast', 'hc-black', 'vscode-high-contrast'],
        ] as const) {
          fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'workbench.colorTheme': theme }));
          await wb.page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 30_000 });
          await wb.webview().locator(`body.${bodyClass}`).waitFor({ timeout: 30_000 });
          await wb.page.waitForTimeout(1000);
          const file = await wb.screenshot(`build-failed-${theme}`);
          fs.copyFileSync(file, path.join(E2E.artifacts, `build-failed-${theme.replace(/\W+/g, '-').toLowerCase()}.png`));
        }
      } finally {
        fs.writeFileSync(tsconfig, good);
        fs.writeFileSync(settingsFile, JSON.stringify(settings));
      }
    },
  );
});
