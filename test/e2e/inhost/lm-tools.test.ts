// The language-model tools inside the real extension host: the chat API lists every query tool of
// kg mcp (vscode.lm.tools) and invoking one (vscode.lm.invokeTool) answers what the bundled CLI
// prints for the same question, over the folder's graph in its worker; a name nobody declares is
// a tool error that says what to do. The workspace is the launcher's copy of
// test/e2e/workspaces/basic (src/greet.ts: greet, called by main in src/main.ts).

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { KnowledgeGraphApi } from '../../../src/extension';
import { startPostgres } from '../../helpers/postgres';
import { activated } from './activated';

const TOOLS = ['symbol', 'callers', 'affected', 'impact', 'neighbors', 'path', 'god-nodes', 'find', 'why', 'unused', 'check', 'build'];

describe('language-model tools', () => {
  let api: KnowledgeGraphApi;
  let cli: string;
  let graphFile: string;
  const folder = () => vscode.workspace.workspaceFolders?.[0] as vscode.WorkspaceFolder;
  const kg = (...args: string[]) =>
    JSON.parse(
      spawnSync(process.execPath, [cli, ...args, '--graph', graphFile], {
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', KG_SERVER: 'off' },
      }).stdout,
    ) as Record<string, unknown>;
  const invoke = async (name: string, input: Record<string, unknown>) => {
    const r = await vscode.lm.invokeTool(`knowledgeGraph_${name}`, { input, toolInvocationToken: undefined });
    const part = r.content[0] as vscode.LanguageModelTextPart;
    return JSON.parse(part.value) as Record<string, unknown>;
  };

  before(async function () {
    this.timeout(120_000);
    ({ api, cli } = await activated());
    graphFile = path.join(folder().uri.fsPath, '.knowledge-graph', 'graph.json');
    const outcome = await api.build(folder().uri);
    assert.equal(outcome.kind, 'built', JSON.stringify(outcome));
    const deadline = Date.now() + 60_000;
    while (api.graph.state(folder().uri.toString())?.kind !== 'ready' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    assert.equal(api.graph.state(folder().uri.toString())?.kind, 'ready');
  });

  it('lists every tool of kg mcp in vscode.lm.tools, described for a model', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('knowledgeGraph_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), TOOLS.map((n) => `knowledgeGraph_${n}`).sort());
    for (const t of ours) if (t.name !== 'knowledgeGraph_build') assert.match(t.description, /EXACT/);
  });

  it('offers kg mcp as an MCP server only to an editor that takes it, and never asks one that does not (ADR 154)', () => {
    // VS Code 1.100 (the engines floor, code-server 4.100) has a proposed shape of the API that
    // refuses the registration and logs it: the extension must not ask. A later editor registers it.
    const [major, minor] = vscode.version.split('.').map(Number) as [number, number];
    if (major === 1 && minor < 101) assert.deepEqual(api.mcpServer, { kind: 'unsupported', version: vscode.version });
    else assert.deepEqual(api.mcpServer, { kind: 'registered' });
  });

  it('invokeTool answers what kg prints: callers by name, symbol, impact, find', async () => {
    const greet = 'sym:src/greet.ts#greet';
    const callers = await invoke('callers', { id: 'greet' });
    const cli = kg('callers', greet);
    assert.deepEqual(callers.callers, cli.callers);
    assert.deepEqual(callers.candidates, cli.candidates);
    assert.deepEqual((callers.resolved as Record<string, { id: string }>).id.id, greet);
    const symbol = await invoke('symbol', { id: greet });
    assert.deepEqual(
      (symbol.callers as Array<{ id: string }>).map((c) => c.id),
      (kg('symbol', greet).callers as Array<{ id: string }>).map((c) => c.id),
    );
    const impact = await invoke('impact', { id: greet });
    assert.equal(impact.blastRadius, kg('impact', greet).blastRadius);
    const find = await invoke('find', { text: 'greet' });
    assert.deepEqual(find.matches, kg('query', 'greet').matches);
  });

  it('check answers what kg check prints: an edit that breaks a proven caller, then none once undone', async () => {
    const file = path.join(folder().uri.fsPath, 'src', 'greet.ts');
    const before = fs.readFileSync(file, 'utf8');
    const check = () =>
      JSON.parse(
        spawnSync(process.execPath, [cli, 'check', '--root', folder().uri.fsPath], {
          encoding: 'utf8',
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', KG_SERVER: 'off' },
        }).stdout,
      ) as Record<string, unknown>;
    try {
      // greet takes a second, required parameter: main's proven call to it breaks.
      fs.writeFileSync(file, before.replace('greet(name: string)', 'greet(name: string, times: number)'));
      const ours = await invoke('check', {});
      const theirs = check();
      assert.equal(ours.breaks, true);
      assert.deepEqual(ours.breakingChanges, theirs.breakingChanges);
      const change = (ours.breakingChanges as Array<{ symbol: string; consumers: Array<{ id: string }> }>).find(
        (c) => c.symbol === 'sym:src/greet.ts#greet',
      );
      assert.ok(change, JSON.stringify(ours.breakingChanges));
      assert.ok(change.consumers.some((c) => c.id === 'sym:src/main.ts#main'));
    } finally {
      fs.writeFileSync(file, before);
    }
    const clean = await invoke('check', {});
    assert.equal(clean.breaks, false);
    assert.deepEqual(clean.breakingChanges, check().breakingChanges);
  });

  it('build rebuilds through the extension, and the next answer comes from the new graph', async function () {
    this.timeout(120_000);
    const file = path.join(folder().uri.fsPath, 'src', 'lm-added.ts');
    const found = async () => ((await invoke('find', { text: 'addedForTheAgent' })).matches as unknown[]).length;
    assert.equal(await found(), 0);
    try {
      fs.writeFileSync(
        file,
        "import { greet } from './greet';\nexport function addedForTheAgent(): string {\n  return greet('agent');\n}\n",
      );
      const built = await invoke('build', {});
      assert.equal(built.built, true);
      assert.equal(built.nodes, (JSON.parse(fs.readFileSync(graphFile, 'utf8')) as { nodes: unknown[] }).nodes.length);
      assert.equal(await found(), 1);
      const callers = await invoke('callers', { id: 'sym:src/greet.ts#greet' });
      assert.ok((callers.callers as string[]).includes('sym:src/lm-added.ts#addedForTheAgent'), JSON.stringify(callers.callers));
    } finally {
      fs.rmSync(file, { force: true });
      await invoke('build', {});
    }
    assert.equal(await found(), 0);
  });

  it('scope "organisation" asks the store in knowledgeGraph.store, answering what kg store prints; without one it says which setting to set', async function () {
    this.timeout(120_000);
    const id = 'e2e/basic/sym:src/greet.ts#greet';
    await assert.rejects(async () => invoke('callers', { id, scope: 'organisation' }), /knowledgeGraph\.store/);
    const pg = startPostgres();
    const settings = vscode.workspace.getConfiguration('knowledgeGraph', folder().uri);
    try {
      const store = (...args: string[]) => {
        const r = spawnSync(process.execPath, [cli, 'store', ...args], {
          encoding: 'utf8',
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', KG_STORE: pg.url },
        });
        assert.ok(r.status === 0 || r.status === 3, r.stderr);
        return JSON.parse(r.stdout) as Record<string, unknown>;
      };
      store('migrate');
      store('push', '--graph', graphFile, '--repo', 'e2e/basic');
      await settings.update('store', pg.url, vscode.ConfigurationTarget.Workspace);
      const callers = await invoke('callers', { id, scope: 'organisation' });
      const theirs = store('callers', id);
      assert.deepEqual(callers.callers, theirs.callers);
      assert.deepEqual(callers.candidates, theirs.candidates);
      assert.ok((callers.callers as string[]).includes('e2e/basic/sym:src/main.ts#main'), JSON.stringify(callers.callers));
      const gods = await invoke('god-nodes', { scope: 'organisation', top: 5 });
      assert.deepEqual(gods.godNodes, store('god-nodes', '--top', '5').godNodes);
      // The folder's own graph still answers without the scope, in plain ids.
      assert.deepEqual(
        (await invoke('callers', { id: 'sym:src/greet.ts#greet' })).callers,
        kg('callers', 'sym:src/greet.ts#greet').callers,
      );
    } finally {
      await settings.update('store', undefined, vscode.ConfigurationTarget.Workspace);
      pg.stop();
    }
  });

  it('a name nobody declares is a tool error that says what to do', async () => {
    await assert.rejects(
      async () => vscode.lm.invokeTool('knowledgeGraph_callers', { input: { id: 'noSuchSymbolAnywhere' }, toolInvocationToken: undefined }),
      /find tool/,
    );
  });

  it('a result is the answer as JSON text, its only part: this editor refuses a JSON data part in a tool result (ADR 178)', async () => {
    const r = await vscode.lm.invokeTool('knowledgeGraph_callers', { input: { id: 'greet' }, toolInvocationToken: undefined });
    assert.equal(r.content.length, 1);
    const text = JSON.parse((r.content[0] as vscode.LanguageModelTextPart).value) as { callers: unknown[] };
    assert.ok(Array.isArray(text.callers));
  });

  it('knowledgeGraph.chatTools "mcpServer" takes the language-model tools out of chat, and the default brings them back (ADR 178)', async function () {
    this.timeout(60_000);
    const ours = () => vscode.lm.tools.filter((t) => t.name.startsWith('knowledgeGraph_')).length;
    const until = async (want: number) => {
      const deadline = Date.now() + 20_000;
      while (ours() !== want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      return ours();
    };
    const settings = vscode.workspace.getConfiguration('knowledgeGraph');
    assert.equal(ours(), TOOLS.length, 'the default offers the language-model tools');
    try {
      await settings.update('chatTools', 'mcpServer', vscode.ConfigurationTarget.Workspace);
      assert.equal(await until(0), 0, 'chat is still offered the language-model tools beside the server');
      await settings.update('chatTools', 'both', vscode.ConfigurationTarget.Workspace);
      assert.equal(await until(TOOLS.length), TOOLS.length, '"both" offers them again');
    } finally {
      await settings.update('chatTools', undefined, vscode.ConfigurationTarget.Workspace);
    }
    assert.equal(await until(TOOLS.length), TOOLS.length, 'the default offers them again');
  });
});
