// "Compare With…" in the real extension host: the working tree of the launcher's copy of
// test/e2e/workspaces/basic against a commit made here. The view's rows are the bundled
// `kg diff <ref>`'s report (the same JSON), a re-signed function lists the proven consumer it
// breaks, and a removed method opens at the base commit's content, read from git.

import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { KnowledgeGraphApi } from '../../../src/extension';
import { activated } from './activated';

describe('Compare With… (the structural diff view)', () => {
  let api: KnowledgeGraphApi;
  let cli: string;
  let root: string;
  let original: string;
  const folder = () => vscode.workspace.workspaceFolders?.[0] as vscode.WorkspaceFolder;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  const greet = () => path.join(root, 'src', 'greet.ts');

  before(async function () {
    this.timeout(120_000);
    ({ api, cli } = await activated());
    root = folder().uri.fsPath;
    if (!fs.existsSync(path.join(root, '.git'))) {
      git('init', '-q');
      git('config', 'user.email', 'e2e@example.invalid');
      git('config', 'user.name', 'e2e');
    }
    git('add', '-A');
    git('-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'the base of the comparison');
    original = fs.readFileSync(greet(), 'utf8');
    assert.match(original, /\n {2}bye\(name: string\): string \{\n.*\n {2}\}\n/, 'the workspace still has Greeter.bye to remove');
    // greet takes a second, required parameter (main calls it: that breaks); Greeter.bye is gone.
    fs.writeFileSync(
      greet(),
      original
        .replace('greet(name: string)', 'greet(name: string, times: number)')
        .replace(/\n {2}bye\(name: string\): string \{\n.*\n {2}\}\n/, '\n'),
    );
    assert.equal(api.build !== undefined, true);
    const built = await api.build(folder().uri);
    assert.equal(built.kind, 'built', JSON.stringify(built));
    await api.settledStates();
  });

  after(async function () {
    this.timeout(60_000);
    fs.writeFileSync(greet(), original);
    await api.build(folder().uri);
  });

  it("the status bar names the commit the fresh graph is of, and the working tree's changes it includes", async function () {
    this.timeout(30_000);
    // The build of the before hook left src/greet.ts changed from the commit, and the graph fresh.
    const short = git('rev-parse', '--short=7', 'HEAD');
    const [s] = await api.settledStates();
    assert.deepEqual(s?.staleFiles, []);
    const want = `$(type-hierarchy) ${s?.nodes} nodes · ${s?.edges} edges · $(git-commit) ${short} +1`;
    const until = Date.now() + 20_000;
    while (api.statusText !== want && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.equal(api.statusText, want);
  });

  it('shows what kg diff reports: the re-signed function with the caller it breaks, the removed method', async function () {
    this.timeout(120_000);
    const commit = git('rev-parse', 'HEAD');
    const shown = await api.compareWith(folder().uri, commit);
    assert.ok(shown.ok, JSON.stringify(shown));
    const cliReport = JSON.parse(
      spawnSync(process.execPath, [cli, 'diff', commit, '--root', root], {
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', KG_SERVER: 'off' },
      }).stdout,
    ) as unknown;
    assert.deepEqual(shown.report, cliReport, 'the view shows the bytes kg diff prints');
    const sections = api.compareElements;
    const labels = sections.map((s) => s.label);
    assert.ok(labels.includes('Removed (1)'), labels.join(', '));
    assert.ok(labels.includes('Signature changed (1)'), labels.join(', '));
    const changed = sections.find((s) => s.label === 'Signature changed (1)');
    assert.ok(changed?.type === 'section');
    const row = changed.children[0];
    assert.ok(row.type === 'symbol');
    assert.equal(row.label, 'greet');
    // Its two proven callers: main (src/main.ts:5) and Greeter.hello (src/greet.ts:9).
    assert.match(row.description, /^src\/greet\.ts:1 · breaks 2 proven consumers$/);
    assert.deepEqual(row.children.map((c) => (c.type === 'consumer' ? `${c.label} ${c.description}` : c.label)).sort(), [
      'src/greet.ts#Greeter.hello breaks · src/greet.ts:9',
      'src/main.ts#main breaks · src/main.ts:5',
    ]);
  });

  it('a removed symbol opens at the base commit`s content; a changed one in the working tree', async function () {
    this.timeout(60_000);
    const removed = api.compareElements.find((s) => s.label === 'Removed (1)');
    assert.ok(removed?.type === 'section');
    const bye = removed.children[0];
    assert.ok(bye.type === 'symbol' && /(^|\.)bye$/.test(bye.label), JSON.stringify(bye));
    const editor = await api.openDiffEntry(bye);
    assert.ok(editor);
    assert.equal(editor.document.uri.scheme, 'kg-base');
    assert.equal(editor.document.getText(), git('show', `HEAD:src/greet.ts`) + '\n');
    assert.match(editor.document.lineAt(editor.selection.active.line).text, /bye\(name: string\)/);
    const changed = api.compareElements.find((s) => s.label === 'Signature changed (1)');
    assert.ok(changed?.type === 'section');
    const head = await api.openDiffEntry(changed.children[0]);
    assert.equal(head?.document.uri.fsPath, greet());
  });
});
