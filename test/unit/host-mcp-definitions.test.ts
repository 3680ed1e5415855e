// src/host/mcp-definitions.ts: the editor is told to ask for kg mcp's server definitions again
// when a workspace folder is added or removed and when a folder's store setting changes, not on
// other settings, and no more once disposed (issue 48, item 6); each folder's definition runs
// `kg mcp --root <folder>`, its store as KG_STORE. The editor's events are stood in for by Node's
// own EventEmitter, in the shape VS Code's events have (subscribe, get a disposable back).

import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { definitionSpecs, watchDefinitions, type DefinitionEvents } from '../../src/host/mcp-definitions';

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
    emitter.emit('configuration', affecting('editor.fontSize', 'knowledgeGraph.autoIndex'));
    assert.equal(fired, 3, 'other settings change nothing');
    for (const w of watches) w.dispose();
    emitter.emit('folders', { added: [], removed: [] });
    emitter.emit('configuration', affecting('knowledgeGraph.store'));
    assert.equal(fired, 3, 'disposed: nothing more');
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
});
