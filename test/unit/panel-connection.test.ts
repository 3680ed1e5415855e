// src/host/panel/webview-connection.ts with a stand-in for the few vscode calls it makes: messages wait for
// `ready`; malformed or unknown messages are logged and ignored; requests under a blocking degrade
// are answered `unavailable` with the banner's reason, never with an empty answer; the banner
// follows the folder's state.

import * as assert from 'node:assert/strict';
import Module from 'node:module';
import { describe, it } from 'node:test';
import type { HostMessage } from '../../src/protocol/messages';
import type { FolderGraphState, GraphAccess } from '../../src/host/graph-access';

// The connection imports `vscode` for the save dialog only; a stub lets it load in plain Node.
const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
(Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load = function (req: string, ...rest: unknown[]) {
  if (req === 'vscode') return { Uri: { parse: (s: string) => ({ toString: () => s, fsPath: s }) }, window: {}, workspace: {} };
  return load.call(this, req, ...rest);
};
type ConnectionModule = typeof import('../../src/host/panel/webview-connection');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stub above is in place
const { WebviewConnection } = require('../../src/host/panel/webview-connection') as ConnectionModule;

const FOLDER = 'file:///work/app';

function harness(initial: Partial<FolderGraphState>) {
  let state: FolderGraphState = {
    folder: FOLDER,
    folderName: 'app',
    graphPath: '/g',
    kind: 'ready',
    nodes: 1,
    edges: 0,
    callsLayer: true,
    staleFiles: [],
    ...initial,
  };
  const listeners: Array<(f: string) => void> = [];
  const received: Array<(m: unknown) => void> = [];
  const posted: HostMessage[] = [];
  const logs: string[] = [];
  const ran: string[] = [];
  const asked: unknown[] = [];
  const access: GraphAccess = {
    onDidChangeState: (l: (f: string) => void) => {
      listeners.push(l);
      return { dispose() {} };
    },
    states: () => [state],
    state: () => state,
    folderOf: () => FOLDER,
    ask: async (_f: string, request: unknown) => {
      asked.push(request);
      return { available: true, path: [], edges: [], evidenceClass: 'GRAPH_DERIVED' };
    },
    nodes: async (_f: string, ids: string[]) => ids.map((id) => ({ id, kind: 'function' as const, label: id.split('#')[1] ?? id })),
    details: async () => undefined,
    locationOf: () => undefined,
  } as unknown as GraphAccess;
  const webview = {
    onDidReceiveMessage: (l: (m: unknown) => void) => {
      received.push(l);
      return { dispose() {} };
    },
    postMessage: async (m: HostMessage) => {
      posted.push(m);
      return true;
    },
  };
  const log = {
    warn: (s: string) => logs.push(`warn ${s}`),
    error: (s: string) => logs.push(`error ${s}`),
    debug: () => {},
    info: () => {},
  };
  const c = new WebviewConnection(
    webview as never,
    'explorer',
    {
      access,
      log: log as never,
      actions: { build: () => ran.push('build'), rebuild: () => ran.push('rebuild'), showLog: () => ran.push('showLog') },
      settings: () => ({ nodeCap: 500, budget: 40 }),
      open: async () => {},
      showInExplorer: () => {},
    },
    FOLDER,
  );
  const send = async (m: unknown) => {
    for (const r of received) r(m);
    await new Promise((r) => setImmediate(r));
  };
  return {
    c,
    posted,
    logs,
    ran,
    asked,
    send,
    setState(s: Partial<FolderGraphState>) {
      state = { ...state, ...s };
      for (const l of listeners) l(FOLDER);
    },
  };
}

describe('webview connection', () => {
  it('holds messages until the webview is ready, then sends the status first', async () => {
    const h = harness({});
    h.c.post({ type: 'show', request: { mode: 'neighbors', id: 'sym:a.ts#f' } });
    assert.equal(h.posted.length, 0);
    await h.send({ type: 'ready' });
    assert.deepEqual(
      h.posted.map((m) => m.type),
      ['status', 'show'],
    );
    const status = h.posted[0] as Extract<HostMessage, { type: 'status' }>;
    assert.equal(status.banner, null);
    assert.equal(status.folder, FOLDER);
  });

  it("once its page is hidden, holds messages for the next page's ready (issue 55: a show sent to a gone page was lost)", async () => {
    const h = harness({});
    await h.send({ type: 'ready' });
    h.posted.length = 0;
    h.c.hidden();
    assert.equal(h.c.isReady, false);
    h.c.post({ type: 'show', request: { mode: 'neighbors', id: 'sym:a.ts#g' } });
    assert.equal(h.posted.length, 0, 'nothing posted to the page that is gone');
    await h.send({ type: 'ready' });
    assert.deepEqual(
      h.posted.map((m) => m.type),
      ['status', 'show'],
    );
    assert.deepEqual((h.posted[1] as Extract<HostMessage, { type: 'show' }>).request, { mode: 'neighbors', id: 'sym:a.ts#g' });
  });

  it('logs and ignores malformed and unknown messages', async () => {
    const h = harness({});
    await h.send({ type: 'ready' });
    const n = h.posted.length;
    await h.send({ type: 'open', id: 42 });
    await h.send({ type: 'exec', command: 'rm -rf /' });
    await h.send('ready');
    assert.equal(h.posted.length, n, 'nothing answered');
    assert.equal(h.logs.length, 3);
    assert.ok(h.logs.every((l) => l.startsWith('warn explorer: ignored a message that is not in the protocol')));
  });

  it('answers a request under a blocking degrade with the reason, and asks the graph nothing', async () => {
    const h = harness({ kind: 'absent', reason: 'app has no knowledge graph yet.' });
    await h.send({ type: 'ready' });
    await h.send({ type: 'path', requestId: 3, from: 'sym:a.ts#f', to: 'sym:b.ts#g' });
    assert.deepEqual(h.asked, []);
    assert.deepEqual(h.posted.at(-1), { type: 'unavailable', requestId: 3, reason: 'app has no knowledge graph yet.', suggestions: [] });
  });

  it('answers when the graph can, and "not connected" is an empty path, not a degrade', async () => {
    const h = harness({});
    await h.send({ type: 'ready' });
    await h.send({ type: 'path', requestId: 4, from: 'sym:a.ts#f', to: 'sym:b.ts#g' });
    assert.deepEqual(h.asked, [{ query: 'path', from: 'sym:a.ts#f', to: 'sym:b.ts#g' }]);
    const m = h.posted.at(-1) as Extract<HostMessage, { type: 'path' }>;
    assert.equal(m.type, 'path');
    assert.deepEqual(m.nodes, []);
  });

  it('runs the banner actions and follows the folder state', async () => {
    const h = harness({});
    await h.send({ type: 'ready' });
    await h.send({ type: 'runAction', action: 'rebuild' });
    assert.deepEqual(h.ran, ['rebuild']);
    h.setState({ staleFiles: ['src/a.ts'] });
    const status = h.posted.at(-1) as Extract<HostMessage, { type: 'status' }>;
    assert.equal(status.banner?.kind, 'stale');
    assert.equal(status.banner?.blocking, false);
  });

  it('keeps what the webview reports drawing, for the editor tests', async () => {
    const h = harness({});
    await h.send({ type: 'ready' });
    await h.send({ type: 'drawn', mode: 'neighbors', nodes: ['sym:a.ts#f', 'sym:b.ts#g'], aggregated: 0, title: 'f' });
    assert.deepEqual(h.c.lastDrawn, { type: 'drawn', mode: 'neighbors', nodes: ['sym:a.ts#f', 'sym:b.ts#g'], aggregated: 0, title: 'f' });
  });
});
