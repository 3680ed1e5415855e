// src/host/panel/banner.ts and graph-answers.ts: the webviews are told exactly what the graph says
// (the same node ids as the CLI's neighbors and path), resolved to labels and positions; degrades
// arrive as banners or `unavailable`, never as an empty answer.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  answerQuery,
  nodeOf,
  parseGraphText,
  searchNodes,
  type Graph,
  type GraphLoad,
  type NeighborsAnswer,
  type PathAnswer,
} from '../../src/graph';
import type { FolderGraphState, GraphAccess, NodeDetails } from '../../src/host/graph-access';
import { bannerFor, summaryOf } from '../../src/host/panel/banner';
import { detailsMessage, neighborhoodMessage, pathMessage, suggestionsMessage } from '../../src/host/panel/graph-answers';
import { hostMessageProblem } from '../../src/host/panel/validate';
import { SNAPSHOTS } from '../helpers/fixtures';

const FOLDER = 'file:///work/app';

/** A GraphAccess over a real graph.json, answering exactly as the CLI does. */
function accessOver(snapshot: string, edit?: (graph: Graph) => void): { access: GraphAccess; load: GraphLoad } {
  let text = fs.readFileSync(path.join(SNAPSHOTS, snapshot, 'graph.json'), 'utf8');
  if (edit) {
    const graph = JSON.parse(text) as Graph;
    edit(graph);
    text = JSON.stringify(graph);
  }
  const load = parseGraphText(text);
  assert.ok(load.ok);
  const g = load.graph;
  const access: GraphAccess = {
    onDidChangeState: () => ({ dispose() {} }),
    states: () => [],
    state: () => undefined,
    folderOf: () => FOLDER,
    ask: async (_folder, request) => answerQuery(load, request),
    nodes: async (_folder, ids) => ids.map((id) => nodeOf(g, id)),
    search: async (_folder, text, limit) => searchNodes(g, text, limit),
    details: async (_folder, id): Promise<NodeDetails | undefined> => {
      const node = nodeOf(g, id);
      if (!node) return undefined;
      const edges = g.graph.edges;
      const calls = edges.filter((e) => e.relation === 'calls');
      return {
        node,
        degree: edges.filter((e) => e.source === id || e.target === id).length,
        callers: calls
          .filter((e) => e.target === id && e.confidence === 'EXACT')
          .map((e) => ({ id: e.source, confidence: e.confidence, evidence: e.evidence })),
        candidates: calls
          .filter((e) => e.target === id && e.confidence === 'CANDIDATE')
          .map((e) => ({ id: e.source, confidence: e.confidence })),
        dispatched: [],
        callees: calls
          .filter((e) => e.source === id)
          .map((e) => ({
            id: e.target,
            confidence: e.confidence,
            ...(e.reason ? { reason: e.reason, name: e.target.slice('unresolved:'.length) } : {}),
          })),
        citedBy: [],
      };
    },
    locationOf: () => undefined,
  };
  return { access, load };
}

function state(over: Partial<FolderGraphState>): FolderGraphState {
  return {
    folder: FOLDER,
    folderName: 'app',
    graphPath: '/work/app/.knowledge-graph/graph.json',
    kind: 'ready',
    nodes: 10,
    edges: 20,
    callsLayer: true,
    staleFiles: [],
    ...over,
  };
}

describe('banners', () => {
  it('says nothing when the graph answers and is fresh', () => {
    assert.equal(bannerFor(state({})), null);
    assert.equal(summaryOf(state({ nodes: 12345, edges: 1 })), 'app · 12,345 nodes · 1 edge');
  });

  for (const [what, s, kind, actions, blocking] of [
    ['no folder', undefined, 'no-folder', [], true],
    ['no graph', state({ kind: 'absent', reason: 'no graph at .knowledge-graph/graph.json' }), 'absent', ['build'], true],
    ['the first build running', state({ kind: 'absent', building: { phase: 'parse', done: 3, total: 9 } }), 'building', ['showLog'], true],
    ['a graph being read', state({ kind: 'loading' }), 'loading', [], true],
    [
      'an unusable graph',
      state({ kind: 'unusable', reason: 'projection unparsable: Unexpected token', code: 'UNPARSABLE' }),
      'unusable',
      ['rebuild', 'showLog'],
      true,
    ],
    ['a build over a ready graph', state({ building: { phase: 'resolve', done: 1, total: 2 } }), 'building', ['showLog'], false],
    ['no calls layer', state({ callsLayer: false }), 'calls-missing', ['rebuild'], false],
    ['a stale graph', state({ staleFiles: ['a.ts', 'b.ts', 'c.ts', 'd.ts'] }), 'stale', ['build', 'showLog'], false],
    [
      'a failed build over a stale graph',
      state({ staleFiles: ['a.ts'], buildFailure: 'tsconfig.json:1:14: cannot parse' }),
      'build-failed',
      ['showLog'],
      false,
    ],
    [
      'a failed first build',
      state({ kind: 'absent', buildFailure: 'no source files under src' }),
      'build-failed',
      ['showLog', 'build'],
      true,
    ],
  ] as const) {
    it(`${what}: a ${kind} banner${blocking ? ' that blocks answers' : ' that qualifies them'}, offering ${actions.join(', ') || 'nothing'}`, () => {
      const b = bannerFor(s);
      assert.ok(b);
      assert.equal(b.kind, kind);
      assert.deepEqual(b.actions, actions);
      assert.equal(b.blocking, blocking);
      assert.ok(b.reason.length > 10, b.reason);
    });
  }

  it('a failed build is said as one, with why and where, not as "stale … Build" (ADR 91)', () => {
    const b = bannerFor(state({ staleFiles: ['a.ts'], buildFailure: 'tsconfig.json:1:14: cannot parse the file.' }));
    assert.equal(
      b?.reason,
      'tsconfig.json:1:14: cannot parse the file. The graph shown is the previous one. 1 file changed since it was built.',
    );
  });

  it('names the changed files of a stale graph, a few of them', () => {
    assert.match(
      bannerFor(state({ staleFiles: ['a.ts', 'b.ts', 'c.ts', 'd.ts'] }))?.reason ?? '',
      /^4 files changed since it was built \(a\.ts, b\.ts, c\.ts, …\)/,
    );
  });
});

describe('graph answers for the webviews', () => {
  it('a neighbourhood holds the same node ids and edges as the CLI, resolved to labels and positions', async () => {
    const { access, load } = accessOver('calls-callers');
    const cli = answerQuery(load, { query: 'neighbors', id: 'sym:app.ts#compute', budget: 40 }) as NeighborsAnswer;
    const m = await neighborhoodMessage(access, FOLDER, 7, 'sym:app.ts#compute', 40, false);
    assert.equal(hostMessageProblem(m), undefined, 'in the protocol');
    assert.equal(m.type, 'neighborhood');
    if (m.type !== 'neighborhood') return;
    assert.equal(m.requestId, 7);
    assert.deepEqual([m.focus.id, ...m.nodes.map((n) => n.id)], cli.nodes);
    assert.deepEqual(m.edges, cli.edges);
    assert.deepEqual(m.focus, { id: 'sym:app.ts#compute', label: 'compute', kind: 'function', file: 'app.ts', line: m.focus.line });
    assert.ok(
      m.nodes.every((n) => n.label && n.kind),
      'every node has a label and a kind',
    );
  });

  it('an unknown id is `unavailable` with suggestions, not an empty neighbourhood', async () => {
    const { access } = accessOver('calls-callers');
    const m = await neighborhoodMessage(access, FOLDER, 1, 'sym:app.ts#comput', 40, false);
    assert.equal(m.type, 'unavailable');
    if (m.type === 'unavailable') assert.match(m.reason, /unknown node/);
  });

  it('a path carries the CLI path, hop by hop, with each edge in its real direction', async () => {
    const { access, load } = accessOver('calls-callers');
    const cli = answerQuery(load, { query: 'path', from: 'sym:app.ts#Widget.onClick', to: 'sym:app.ts#other' }) as PathAnswer;
    const m = await pathMessage(access, FOLDER, 2, 'sym:app.ts#Widget.onClick', 'sym:app.ts#other');
    assert.equal(hostMessageProblem(m), undefined, 'in the protocol');
    assert.equal(m.type, 'path');
    if (m.type !== 'path') return;
    assert.ok(cli.path.length >= 2);
    assert.deepEqual(
      m.nodes.map((n) => n.id),
      cli.path,
    );
    assert.deepEqual(m.edges, cli.edges);
    assert.equal(m.from.label, 'Widget.onClick');
  });

  it('a path end may be a name that one node carries, instead of an id', async () => {
    const { access, load } = accessOver('calls-callers');
    const cli = answerQuery(load, { query: 'path', from: 'sym:app.ts#Widget.onClick', to: 'sym:app.ts#other' }) as PathAnswer;
    const m = await pathMessage(access, FOLDER, 6, 'Widget.onClick', 'other');
    assert.equal(m.type, 'path');
    if (m.type === 'path')
      assert.deepEqual(
        m.nodes.map((n) => n.id),
        cli.path,
      );
    const unknown = await pathMessage(access, FOLDER, 7, 'nosuchname', 'other');
    assert.equal(unknown.type, 'unavailable');
  });

  it('details split proven callers from candidates and keep unresolved calls with their reasons', async () => {
    const { access } = accessOver('calls-unplaced');
    const { load } = accessOver('calls-unplaced');
    assert.ok(load.ok);
    const withUnresolved = load.graph.graph.edges.find((e) => e.relation === 'calls' && e.confidence === 'UNRESOLVED');
    assert.ok(withUnresolved, 'the fixture has an unresolved call');
    const m = await detailsMessage(access, FOLDER, 3, withUnresolved.source);
    assert.equal(hostMessageProblem(m), undefined, 'in the protocol');
    assert.equal(m.type, 'details');
    if (m.type !== 'details') return;
    const unresolved = m.details.callees.filter((c) => c.confidence === 'UNRESOLVED');
    assert.ok(unresolved.length > 0);
    assert.ok(unresolved.every((c) => c.reason && c.node.kind === 'unresolved'));
  });

  it('details list calls into packages apart, named with their package and version (ADR 109)', async () => {
    const target = 'pkg:%40acme/lib@1.2.0:src/greeter.ts#Greeter.hello';
    let caller = '';
    const { access } = accessOver('calls-callers', (g) => {
      const own = g.edges.find((e) => e.relation === 'calls' && e.confidence === 'EXACT');
      assert.ok(own, 'the fixture has a proven call');
      caller = own.source;
      g.edges.push({ ...own, target, resolutionClass: 'EXACT_TYPECHECKED' });
      g.edges.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.target < b.target ? -1 : 1));
      g.packages = [{ name: '@acme/lib', version: '1.2.0' }];
    });
    const m = await detailsMessage(access, FOLDER, 9, caller);
    assert.ok(m.type === 'details');
    const intoPackage = m.details.callees.filter((c) => c.node.package !== undefined);
    assert.deepEqual(
      intoPackage.map((c) => [c.node.id, c.node.label, c.node.kind, c.node.package, c.confidence]),
      [[target, 'Greeter.hello', 'package-symbol', '@acme/lib@1.2.0', 'EXACT']],
    );
    assert.ok(
      m.details.callees.some((c) => c.node.package === undefined && c.confidence === 'EXACT'),
      'its own callees stay apart',
    );
    // The CLI's callers on the package-qualified id: the graph's own reference (ADR 109).
    const callers = await access.ask(FOLDER, { query: 'callers', id: target });
    assert.deepEqual((callers as { callers: string[] }).callers, [caller]);
  });

  it('details of a stamped note carry its text; other nodes carry none', async () => {
    const { access, load } = accessOver('rationale-notes');
    assert.ok(load.ok);
    const id = 'rationale:src/cache.ts#cache@2026-08-10~1';
    const note = await detailsMessage(access, FOLDER, 6, id);
    assert.ok(note.type === 'details');
    assert.equal(note.details.text, nodeOf(load.graph, id)?.text);
    assert.ok(note.details.text?.startsWith('WHY(cache@2026-08-10): entries live'));
    const sym = await detailsMessage(access, FOLDER, 7, 'sym:src/cache.ts#Cache');
    assert.ok(sym.type === 'details' && !('text' in sym.details));
  });

  it('details of an unresolved name say what it is', async () => {
    const { access } = accessOver('calls-unplaced');
    const m = await detailsMessage(access, FOLDER, 4, 'unresolved:whatever');
    assert.equal(m.type, 'unavailable');
  });

  it('suggestions are the ranked search, with label, kind, place and degree, and no more than a list holds', async () => {
    const { access, load } = accessOver('calls-callers');
    assert.ok(load.ok);
    const m = await suggestionsMessage(access, FOLDER, 5, 'app');
    assert.equal(hostMessageProblem(m), undefined);
    assert.ok(m.type === 'suggestions');
    const ranked = searchNodes(load.graph, 'app', 30).matches;
    assert.ok(ranked.length > 0);
    assert.deepEqual(
      m.items.map((i) => i.id),
      ranked.map((r) => r.node.id),
    );
    for (const [i, item] of m.items.entries()) {
      const n = nodeOf(load.graph, item.id);
      assert.equal(item.label, n?.label);
      assert.equal(item.kind, n?.kind);
      assert.equal(item.file, n?.sourceFile);
      assert.equal(item.degree, ranked[i].degree);
    }
  });

  it('an unknown path end is named by a field of the answer, whichever end it is', async () => {
    const { access } = accessOver('calls-callers');
    const from = await pathMessage(access, FOLDER, 8, 'sym:app.ts#nope', 'sym:app.ts#other');
    assert.equal(hostMessageProblem(from), undefined);
    assert.ok(from.type === 'unavailable');
    assert.equal(from.unknownEnd, 'from');
    const to = await pathMessage(access, FOLDER, 9, 'sym:app.ts#other', 'sym:app.ts#nope');
    assert.ok(to.type === 'unavailable');
    assert.equal(to.unknownEnd, 'to');
    // The reason's words play no part: the same reason text for either end would give the same field.
    assert.ok(to.suggestions.every((s) => s.id !== 'sym:app.ts#nope'));
  });
});
