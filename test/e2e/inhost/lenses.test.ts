// The graph in the editor, read exactly inside the real extension host: the callers lenses'
// titles (through vscode.executeCodeLensProvider) against what the bundled CLI's `callers` prints
// for the same symbols, the states every surface shows (absent, unusable, no calls layer, stale),
// and reloads when graph.json changes on disk. The workspace is the launcher's copy of
// test/e2e/workspaces/basic with test/e2e/workspaces/lenses copied into src/lenses.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { KnowledgeGraphApi } from '../../../src/extension';
import type { FolderGraphState } from '../../../src/host/graph-access';
import { activated } from './activated';
import { expectedLensTitle } from '../expected';

// out/e2e/inhost → the repository
const LENSES_FIXTURE = path.resolve(__dirname, '..', '..', '..', 'test', 'e2e', 'workspaces', 'lenses', 'src');

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the launcher opens a workspace folder');
  return f;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeout = 30_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last !== undefined && last !== false) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Lens titles of a file by 1-based line, resolved (the provider's titles come lazily). */
async function lensTitles(rel: string): Promise<Map<number, { title: string; command: string }>> {
  const uri = vscode.Uri.joinPath(folder().uri, ...rel.split('/'));
  await vscode.workspace.openTextDocument(uri);
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  const out = new Map<number, { title: string; command: string }>();
  for (const l of lenses) {
    const title = l.command?.title ?? '';
    if (/caller|callers:/.test(title)) out.set(l.range.start.line + 1, { title, command: l.command?.command ?? '' });
  }
  return out;
}

describe('callers lenses, the status bar and the graph states', () => {
  let api: KnowledgeGraphApi;
  let graphFile: string;
  let cli: string;

  const state = (): FolderGraphState => api.graph.state(folder().uri.toString()) as FolderGraphState;
  const kg = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', KG_SERVER: 'off' },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const callers = (id: string): { callers: string[]; candidates: string[] } => JSON.parse(kg('callers', id, '--graph', graphFile).stdout);
  const graphJson = () => JSON.parse(fs.readFileSync(graphFile, 'utf8')) as Parameters<typeof expectedLensTitle>[0];

  before(async () => {
    ({ api, cli } = await activated());
    graphFile = path.join(folder().uri.fsPath, '.knowledge-graph', 'graph.json');
    fs.cpSync(LENSES_FIXTURE, path.join(folder().uri.fsPath, 'src', 'lenses'), { recursive: true });
    // autoIndex off: these tests are about saved edits the graph does not know yet (with autoIndex
    // a save rebuilds it; test/e2e/ui/modes.test.ts covers that). Written before the build, so
    // the file is part of what the graph was built from.
    fs.mkdirSync(path.join(folder().uri.fsPath, '.knowledge-graph'), { recursive: true });
    fs.writeFileSync(
      path.join(folder().uri.fsPath, '.knowledge-graph', 'config.json'),
      JSON.stringify({ graph: { enabled: true, autoIndex: false } }),
    );
    await waitFor('the configuration to be read again', () => (api.configOf(folder().uri)?.autoIndex === false ? true : undefined));
    const outcome = await api.build(folder().uri);
    assert.equal(outcome.kind, 'built', JSON.stringify(outcome));
    await waitFor('a ready graph holding src/lenses', async () => {
      const s = (await api.settledStates())[0];
      return s.kind === 'ready' && s.nodes === (outcome.kind === 'built' ? outcome.nodes : -1) ? s : undefined;
    });
  });

  it('lens titles are the counts `kg callers` prints, for every declaration of three files', async () => {
    const files = ['src/lenses/shapes.ts', 'src/lenses/draw.ts', 'src/greet.ts'];
    let checked = 0;
    for (const rel of files) {
      const titles = await lensTitles(rel);
      const symbols = await api.graph.fileSymbols(folder().uri.toString(), rel);
      assert.ok(symbols.length > 0, `${rel} has declarations`);
      for (const s of symbols) {
        const c = callers(s.id);
        const expected = expectedLensTitle(graphJson(), s.id, c.callers, c.candidates);
        assert.equal(titles.get(s.line)?.title, expected, `${s.id} on line ${s.line}`);
        checked++;
      }
    }
    assert.ok(checked >= 9, `checked ${checked} lenses`);
  });

  it('one lens with candidates, one with several callers, one with 0 that is not clickable', async () => {
    const shapes = await lensTitles('src/lenses/shapes.ts');
    assert.deepEqual(shapes.get(4), { title: '1 caller · +1 candidate', command: 'knowledgeGraph.showCallersOf' }); // Circle.area
    assert.deepEqual(shapes.get(9), { title: '2 callers', command: 'knowledgeGraph.showCallersOf' }); // helper
    assert.deepEqual(shapes.get(13), { title: '0 callers', command: '' }); // unused
  });

  it('the callers behind a lens carry their call sites (what the peek lists)', async () => {
    const d = await api.graph.details(folder().uri.toString(), 'sym:src/lenses/shapes.ts#helper');
    assert.ok(d);
    assert.deepEqual(
      d.callers.map((c) => `${c.id} ${c.evidence?.file}:${c.evidence?.line}:${c.evidence?.column}`),
      ['sym:src/lenses/draw.ts#draw src/lenses/draw.ts:4:10', 'sym:src/lenses/draw.ts#twice src/lenses/draw.ts:13:20'],
    );
    assert.deepEqual(d.candidates, []);
  });

  it('hiding candidates leaves proven callers only', async () => {
    const cfg = vscode.workspace.getConfiguration('knowledgeGraph.codeLens', folder().uri);
    await cfg.update('showCandidates', false, vscode.ConfigurationTarget.WorkspaceFolder);
    try {
      assert.equal((await lensTitles('src/lenses/shapes.ts')).get(4)?.title, '1 caller');
    } finally {
      await cfg.update('showCandidates', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
    }
  });

  it('the status bar gives the size; god nodes are the CLI`s, in its order', async () => {
    // Once the manifest's verdict on every touched file is in: a file the watcher reported late is
    // stale until then (ADR 90).
    const s = (await api.settledStates())[0];
    assert.equal(api.statusText, `$(type-hierarchy) ${s.nodes} nodes · ${s.edges} edges`, `stale: ${s.staleFiles.join(', ')}`);
    const cliTop = JSON.parse(kg('god-nodes', '--top', '25', '--graph', graphFile).stdout) as {
      godNodes: Array<{ id: string; degree: number }>;
    };
    const ours = await api.graph.ask(folder().uri.toString(), { query: 'god-nodes', top: 25 });
    assert.ok(ours.available && 'godNodes' in ours);
    assert.deepEqual(ours.godNodes, cliTop.godNodes);
  });

  it('an unsaved edit: the declarations it touched or named say stale at once, the others keep their counts where they moved (ADR 147)', async () => {
    const rel = 'src/lenses/shapes.ts';
    const uri = vscode.Uri.joinPath(folder().uri, 'src', 'lenses', 'shapes.ts');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const title = (id: string) => {
      const c = callers(id);
      return expectedLensTitle(graphJson(), id, c.callers, c.candidates);
    };
    const STALE = 'callers: graph is stale — Rebuild';
    // The web workbench saves a second after an edit by default: these edits stay unsaved until saved here.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    const insert = async (line: number, character: number, text: string) => {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, new vscode.Position(line, character), text);
      assert.ok(await vscode.workspace.applyEdit(edit));
    };
    try {
      // Lenses placed from the built text first: that is where the edits are counted from.
      assert.equal((await lensTitles(rel)).get(9)?.title, '2 callers');
      // A comment line above everything moves every declaration down; a line added at the end is
      // in the last declaration's lines (`unused`).
      await insert(0, 0, '// a note\n');
      await insert(doc.lineCount, 0, '\nexport const added = 1;\n');
      await waitFor('the stale state', () => state().staleFiles.includes(rel) || undefined);
      let titles = await lensTitles(rel);
      assert.equal(titles.get(2)?.title, title('sym:src/lenses/shapes.ts#Circle'), 'Circle keeps its count, a line lower');
      assert.equal(titles.get(5)?.title, '1 caller · +1 candidate', 'Circle.area keeps its count, a line lower');
      assert.equal(titles.get(10)?.title, '2 callers', 'helper keeps its count, a line lower');
      assert.equal(titles.get(14)?.title, STALE, 'unused was touched');
      assert.equal(api.statusText, '$(warning) KG: stale: 1 file');
      // A call to `unused` written in helper's body: helper is touched, unused named.
      await insert(10, 2, 'unused(); ');
      titles = await lensTitles(rel);
      assert.equal(titles.get(10)?.title, STALE, 'helper was touched');
      assert.equal(titles.get(14)?.title, STALE, 'unused was named');
      assert.equal(titles.get(5)?.title, '1 caller · +1 candidate');

      // File: Revert File puts back the bytes the graph was built from: fresh at once, before any
      // verdict on the tree (issue 55, item 5). Read in the very event that makes the buffer clean.
      await vscode.window.showTextDocument(doc);
      let staleWhenClean: boolean | undefined;
      const seen = vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === uri.toString() && !e.document.isDirty && staleWhenClean === undefined)
          staleWhenClean = api.graph.isStale(folder().uri.toString(), rel);
      });
      try {
        await vscode.commands.executeCommand('workbench.action.files.revert');
        await waitFor('the reverted buffer', () => (staleWhenClean !== undefined ? true : undefined));
      } finally {
        seen.dispose();
      }
      assert.equal(staleWhenClean, false, 'reverted to the built content: not stale');
      titles = await lensTitles(rel);
      assert.equal(titles.get(9)?.title, '2 callers');
      assert.equal(titles.get(13)?.title, title('sym:src/lenses/shapes.ts#unused'));

      // Saved with a change: the disk now differs from the manifest, so it stays stale.
      await insert(doc.lineCount, 0, '\nexport const added = 1;\n');
      await doc.save();
      await waitFor('the manifest`s verdict', async () => ((await api.settledStates())[0].staleFiles.includes(rel) ? true : undefined));
      // Other files keep their numbers.
      assert.equal((await lensTitles('src/lenses/draw.ts')).get(3)?.title, '1 caller');
      // Put back as built: fresh again.
      fs.cpSync(path.join(LENSES_FIXTURE, 'shapes.ts'), uri.fsPath);
      await waitFor('fresh again', async () => {
        const s = (await api.settledStates())[0];
        return s.staleFiles.length === 0 && !vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.isDirty
          ? true
          : undefined;
      });
      assert.equal((await lensTitles(rel)).get(4)?.title, '1 caller · +1 candidate');
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('graph.json deleted → absent; corrupt → unusable with the loader`s reason; --extract-only → one lens saying the calls layer is missing', async () => {
    try {
      fs.rmSync(graphFile);
      await waitFor('absent', () => (state().kind === 'absent' ? true : undefined));
      assert.equal(api.statusText, '$(circle-slash) KG: no graph');
      assert.equal((await lensTitles('src/lenses/shapes.ts')).size, 0);

      fs.writeFileSync(graphFile, '{"schemaVersion": 1, "nodes": [');
      await waitFor('unusable', () => (state().kind === 'unusable' ? true : undefined));
      assert.equal(state().code, 'UNPARSABLE');
      // People read words; the code stays the machine's (ADR 91).
      assert.match(state().reason ?? '', /^graph\.json is not valid JSON \(\S/);
      assert.equal(api.statusText, '$(error) KG: unavailable');
      const ask = await api.graph.ask(folder().uri.toString(), { query: 'callers', id: 'sym:src/greet.ts#greet' });
      assert.equal(ask.available, false);

      const r = kg('build', '--apply', '--extract-only', '--root', folder().uri.fsPath, '--out', graphFile);
      assert.equal(r.status, 0, r.stderr);
      await waitFor('ready without calls', () => (state().kind === 'ready' && !state().callsLayer ? true : undefined));
      assert.equal(api.statusText, '$(warning) KG: no calls layer');
      const titles = await lensTitles('src/lenses/shapes.ts');
      assert.deepEqual(
        [...titles.entries()],
        [[1, { title: 'callers: the graph was built without its calls layer — Rebuild', command: 'knowledgeGraph.rebuild' }]],
      );
    } finally {
      const outcome = await api.build(folder().uri);
      assert.equal(outcome.kind, 'built');
      await waitFor('ready with calls', async () => ((await api.settledStates())[0].callsLayer ? true : undefined));
    }
  });

  it('a graph written by the CLI in a terminal is picked up without a reload of the window', async () => {
    fs.writeFileSync(
      path.join(folder().uri.fsPath, 'src', 'lenses', 'more.ts'),
      "import { unused } from './shapes';\nexport function caller(): void {\n  unused();\n}\n",
    );
    await waitFor('stale: more.ts added', async () =>
      (await api.settledStates())[0].staleFiles.includes('src/lenses/more.ts') ? true : undefined,
    );
    const r = kg('build', '--apply', '--root', folder().uri.fsPath, '--out', graphFile);
    assert.equal(r.status, 0, r.stderr);
    await waitFor('unused has a caller now', async () =>
      (await lensTitles('src/lenses/shapes.ts')).get(13)?.title === '1 caller' ? true : undefined,
    );
    assert.deepEqual((await api.settledStates())[0].staleFiles, []);
  });

  it('a cancelled build leaves the old graph answering, and says so while it runs', async () => {
    const big = path.join(folder().uri.fsPath, 'src', 'generated');
    fs.mkdirSync(big, { recursive: true });
    for (let i = 0; i < 1500; i++) {
      let text = '';
      for (let j = 0; j < 20; j++) text += `export function g${i}_${j}(a: number): number {\n  return a + ${j};\n}\n`;
      fs.writeFileSync(path.join(big, `m${i}.ts`), text);
    }
    try {
      const before = state();
      assert.equal(before.kind, 'ready');
      const running = api.build(folder().uri);
      await waitFor('build progress in the state', () => (state().building && state().building!.done > 0 ? true : undefined), 120_000);
      assert.match(api.statusText, /^\$\(sync~spin\) KG: building \d+\/\d+$/);
      // The previous graph answers while the build runs…
      assert.equal((await lensTitles('src/lenses/shapes.ts')).get(9)?.title, '2 callers');
      assert.ok(api.cancelBuild());
      assert.equal((await running).kind, 'cancelled');
      await waitFor('building cleared', () => (state().building === undefined ? true : undefined));
      // …and after the cancel, unchanged.
      assert.equal(state().nodes, before.nodes);
      assert.equal(state().kind, 'ready');
      assert.equal((await lensTitles('src/lenses/shapes.ts')).get(9)?.title, '2 callers');
    } finally {
      fs.rmSync(big, { recursive: true, force: true });
    }
  });

  it('Run Doctor writes its six lines to the log and returns the verdict', async () => {
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder().uri, 'src', 'greet.ts'));
    const report = await vscode.commands.executeCommand<{ ok: boolean; text: string }>('knowledgeGraph.runDoctor');
    assert.ok(report);
    assert.equal(report.ok, true, report.text);
    assert.equal(report.text.split('\n').filter((l) => /^PASS (?!schema )/.test(l)).length, 6, report.text);
  });
});
