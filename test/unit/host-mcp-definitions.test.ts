// src/host/mcp-definitions.ts: the editor is told to ask for kg mcp's server definitions again
// when a workspace folder is added or removed and when a folder's store setting changes, not on
// other settings, and no more once disposed (issue 48, item 6); each folder's definition runs
// `kg mcp --root <folder>`, its store as KG_STORE. The editor's events are stood in for by Node's
// own EventEmitter, in the shape VS Code's events have (subscribe, get a disposable back).

import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from '../helpers/fixtures';
import {
  CHAT_TOOLS_SETTING,
  chatToolsOffered,
  definitionSpecs,
  watchDefinitions,
  type DefinitionEvents,
} from '../../src/host/mcp-definitions';

function editorEvents(): { events: DefinitionEvents; emitter: EventEmitter } {
  const emitter = new EventEmitter();
  const on =
    <T>(name: string) =>
    (listener: (e: T) => unknown) => {
      emitter.on(name, listener);
      return { dispose: () => emitter.off(name, listener) };
    };
  return {
    emitter,
    events: { onDidChangeWorkspaceFolders: on('folders'), onDidChangeConfiguration: on('configuration') },
  };
}

const affecting = (...sections: string[]) => ({
  affectsConfiguration: (s: string) => sections.some((x) => x === s || x.startsWith(s + '.')),
});

describe('kg mcp server definitions in the editor', () => {
  it('the list is asked for again when folders change and when a store setting changes, only then', () => {
    const { events, emitter } = editorEvents();
    let fired = 0;
    const watches = watchDefinitions(events, () => fired++);
    emitter.emit('folders', { added: [{ name: 'b' }], removed: [] });
    assert.equal(fired, 1, 'a folder added');
    emitter.emit('folders', { added: [], removed: [{ name: 'a' }] });
    assert.equal(fired, 2, 'a folder removed');
    emitter.emit('configuration', affecting('knowledgeGraph.store'));
    assert.equal(fired, 3, 'the store setting');
    emitter.emit('configuration', affecting('knowledgeGraph.chatTools'));
    assert.equal(fired, 4, 'the chat tools setting (the list is empty unless it names the server)');
    emitter.emit('configuration', affecting('editor.fontSize', 'knowledgeGraph.autoIndex'));
    assert.equal(fired, 4, 'other settings change nothing');
    for (const w of watches) w.dispose();
    emitter.emit('folders', { added: [], removed: [] });
    emitter.emit('configuration', affecting('knowledgeGraph.store'));
    assert.equal(fired, 4, 'disposed: nothing more');
    assert.equal(emitter.listenerCount('folders') + emitter.listenerCount('configuration'), 0);
  });

  it('one kg mcp per folder, rooted there, the store passed in the environment', () => {
    const specs = definitionSpecs(
      [
        { name: 'web', fsPath: '/work/web', store: '' },
        { name: 'api', fsPath: '/work/api', store: 'postgres://kg@db/kg' },
      ],
      '/usr/bin/editor-node',
      '/ext/dist/cli.js',
    );
    assert.deepEqual(specs, [
      {
        label: 'Knowledge Graph (web)',
        command: '/usr/bin/editor-node',
        args: ['/ext/dist/cli.js', 'mcp', '--root', '/work/web'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
      {
        label: 'Knowledge Graph (api)',
        command: '/usr/bin/editor-node',
        args: ['/ext/dist/cli.js', 'mcp', '--root', '/work/api'],
        env: { ELECTRON_RUN_AS_NODE: '1', KG_STORE: 'postgres://kg@db/kg' },
      },
    ]);
    assert.deepEqual(definitionSpecs([], '/n', '/c'), [], 'no folder, no server');
  });

  it('chat is offered one set of tools: the language-model tools unless the setting names the server; both only when asked (ADR 178)', () => {
    const lm = { languageModelTools: true, mcpServer: false };
    assert.deepEqual(chatToolsOffered(undefined), lm, 'unset');
    assert.deepEqual(chatToolsOffered('languageModelTools'), lm);
    assert.deepEqual(chatToolsOffered('mcpServer'), { languageModelTools: false, mcpServer: true });
    assert.deepEqual(chatToolsOffered('both'), { languageModelTools: true, mcpServer: true });
    for (const odd of ['MCPSERVER', 'all', '', 3, null, {}])
      assert.deepEqual(chatToolsOffered(odd), lm, `an unknown value (${JSON.stringify(odd)}) is the default`);
  });

  it('package.json gates every language-model tool on the same setting, whose values and default are the ones above', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: Array<{ name: string; when?: string }>; configuration: unknown };
    };
    const tools = manifest.contributes.languageModelTools;
    assert.ok(tools.length > 0);
    for (const t of tools) assert.equal(t.when, `config.${CHAT_TOOLS_SETTING} != mcpServer`, t.name);
    const sections = [manifest.contributes.configuration].flat() as Array<{
      properties: Record<string, { enum?: unknown[]; default?: unknown }>;
    }>;
    const setting = sections.map((c) => c.properties[CHAT_TOOLS_SETTING]).find((x) => x !== undefined);
    assert.ok(setting, 'the setting is contributed');
    assert.deepEqual(setting.enum, ['languageModelTools', 'mcpServer', 'both']);
    assert.deepEqual(chatToolsOffered(setting.default), { languageModelTools: true, mcpServer: false });
    for (const v of setting.enum)
      assert.notDeepEqual(chatToolsOffered(v), { languageModelTools: false, mcpServer: false }, `${String(v)} offers something`);
  });
});
