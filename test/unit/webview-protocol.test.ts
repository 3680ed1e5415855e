// src/protocol/messages-schema.ts + src/host/panel/validate.ts: what a webview may send is defined once, as
// a JSON Schema; the host accepts exactly that and drops (and describes) everything else.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HostMessage, WebviewMessage } from '../../src/protocol/messages';
import { HOST_MESSAGE_SCHEMAS, WEBVIEW_MESSAGE_SCHEMAS } from '../../src/protocol/messages-schema';
import { checkWebviewMessage, hostMessageProblem, preview } from '../../src/host/panel/validate';
import { fc } from '../helpers/seed';

const VALID: WebviewMessage[] = [
  { type: 'ready' },
  { type: 'runAction', action: 'rebuild' },
  { type: 'neighbors', requestId: 1, id: 'sym:src/a.ts#f', budget: 40, expand: false },
  { type: 'path', requestId: 2, from: 'sym:a.ts#f', to: 'file:b.ts' },
  { type: 'details', requestId: 3, id: 'sym:a.ts#C.m' },
  { type: 'suggest', requestId: 4, text: 'map' },
  { type: 'open', id: 'sym:a.ts#f' },
  { type: 'showInExplorer', request: { mode: 'path', from: 'sym:a.ts#f', to: 'sym:b.ts#g' } },
  { type: 'showInExplorer', request: { mode: 'neighbors', id: 'sym:a.ts#f' } },
  { type: 'savePng', dataUrl: 'data:image/png;base64,iVBORw0KGgo=' },
  { type: 'drawn', mode: 'neighbors', nodes: ['sym:a.ts#f'], aggregated: 0, title: 'f' },
];

describe('webview messages', () => {
  it('has a sample for every message type the schema knows', () => {
    assert.deepEqual([...new Set(VALID.map((m) => m.type))].sort(), Object.keys(WEBVIEW_MESSAGE_SCHEMAS).sort());
  });

  for (const m of VALID) {
    it(`accepts a well-formed ${m.type}`, () => assert.deepEqual(checkWebviewMessage(m), { ok: true, message: m }));
  }

  for (const [what, m, problem] of [
    ['an unknown type', { type: 'eval', code: 'x' }, /type/],
    ['a missing field', { type: 'open' }, /required property 'id'/],
    ['an extra field', { type: 'ready', extra: 1 }, /additional properties \(extra\)/],
    ['a number for an id', { type: 'open', id: 7 }, /\/id must be string/],
    ['an empty id', { type: 'open', id: '' }, /\/id/],
    ['an unknown action', { type: 'runAction', action: 'rm -rf' }, /\/action/],
    ['a negative budget', { type: 'neighbors', requestId: 1, id: 'x', budget: -1, expand: false }, /\/budget/],
    ['a fractional request id', { type: 'details', requestId: 1.5, id: 'x' }, /\/requestId/],
    ['a PNG that is not base64', { type: 'savePng', dataUrl: 'data:image/png;base64,<script>' }, /\/dataUrl/],
    ['an SVG instead of a PNG', { type: 'savePng', dataUrl: 'data:image/svg+xml;base64,AAAA' }, /\/dataUrl/],
    ['a path request with one end', { type: 'showInExplorer', request: { mode: 'path', from: 'a' } }, /request/],
    ['null', null, /./],
    ['a string', 'ready', /./],
    ['an array', [{ type: 'ready' }], /./],
  ] as const) {
    it(`refuses ${what}`, () => {
      const r = checkWebviewMessage(m);
      assert.equal(r.ok, false);
      assert.match((r as { problem: string }).problem, problem);
    });
  }

  it('never throws and never accepts a value without a known type (random values)', () => {
    const types = new Set(Object.keys(WEBVIEW_MESSAGE_SCHEMAS));
    fc.assert(
      fc.property(fc.anything(), (x) => {
        const r = checkWebviewMessage(x);
        if (r.ok) assert.ok(typeof x === 'object' && x !== null && types.has((x as { type: string }).type));
      }),
      { seed: 13, numRuns: 500 },
    );
  });

  it('logs a bounded preview of a rejected message', () => {
    const p = preview({ type: 'savePng', dataUrl: 'x'.repeat(10_000) });
    assert.ok(p.length < 260, p);
    assert.ok(p.endsWith('…') && p.includes('"savePng"'), p);
  });
});

const NODE = { id: 'sym:src/a.ts#f', label: 'f', kind: 'function', file: 'src/a.ts', line: 3 };
const HOST_VALID: HostMessage[] = [
  { type: 'status', banner: null, summary: 'app · 3 nodes', nodeCap: 500, budget: 40, folder: 'file:///w', signature: '0123456789ab' },
  {
    type: 'status',
    banner: { kind: 'stale', reason: '1 file changed', actions: ['build'], blocking: false },
    summary: '',
    nodeCap: 10,
    budget: 1,
  },
  { type: 'show', request: { mode: 'neighbors', id: NODE.id } },
  {
    type: 'neighborhood',
    requestId: 1,
    focus: NODE,
    nodes: [{ ...NODE, id: 'sym:src/a.ts#g', degree: 60 }],
    edges: [{ source: NODE.id, target: 'sym:src/a.ts#g', relation: 'calls', confidence: 'EXACT' }],
    excludedHubs: ['sym:src/a.ts#g'],
    hubThreshold: 50,
    expand: false,
  },
  { type: 'path', requestId: 2, from: NODE, to: NODE, nodes: [], edges: [] },
  {
    type: 'details',
    requestId: 3,
    details: {
      node: NODE,
      degree: 1,
      callers: [{ node: NODE, confidence: 'EXACT', at: 'src/a.ts:9' }],
      candidates: [],
      callees: [],
      citedBy: [],
    },
  },
  { type: 'unavailable', requestId: 4, reason: 'unknown node', suggestions: [NODE], unknownEnd: 'to' },
  { type: 'suggestions', requestId: 5, items: [{ ...NODE, degree: 4 }] },
  { type: 'defaultEndpoint', node: null },
  { type: 'saved', message: 'Saved.' },
];

describe('host messages', () => {
  it('has a sample for every message type the schema knows, and each is in the protocol', () => {
    assert.deepEqual([...new Set(HOST_VALID.map((m) => m.type))].sort(), Object.keys(HOST_MESSAGE_SCHEMAS).sort());
    for (const m of HOST_VALID) assert.equal(hostMessageProblem(m), undefined, JSON.stringify(m));
  });

  it('says what is wrong with a message off the protocol: an unknown end, a signature that is not one, a stray field', () => {
    const unavailable = { type: 'unavailable', requestId: 4, reason: 'x', suggestions: [] };
    assert.match(hostMessageProblem({ ...unavailable, unknownEnd: 'middle' }) ?? '', /unknownEnd/);
    assert.match(hostMessageProblem({ ...HOST_VALID[0], signature: 'not-hex' }) ?? '', /signature/);
    assert.ok(hostMessageProblem({ ...unavailable, reasonText: 'prose to parse' }));
    assert.ok(hostMessageProblem({ type: 'nope' }));
  });
});
