// src/host/graph-text.ts: what the lenses and the status bar say, for every state a folder's graph
// can be in. Singular and plural right, guesses apart from proof, a degrade never a number.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FolderGraphState } from '../../src/host/graph-access';
import { BUILT_PHASE, callersTitle, codeOnlyNote, describeState, isCodeNode, statusText } from '../../src/host/graph-text';

const base: FolderGraphState = {
  folder: 'file:///w',
  folderName: 'w',
  graphPath: '/w/.knowledge-graph/graph.json',
  kind: 'ready',
  nodes: 1234,
  edges: 56789,
  layers: ['calls', 'structural'],
  callsLayer: true,
  staleFiles: [],
};

describe('the words of the editor surfaces', () => {
  it('lens titles: singular, plural, candidates apart, candidates hidden', () => {
    assert.equal(callersTitle({ callers: 0, candidates: 0 }, true), '0 callers');
    assert.equal(callersTitle({ callers: 1, candidates: 0 }, true), '1 caller');
    assert.equal(callersTitle({ callers: 3, candidates: 0 }, true), '3 callers');
    assert.equal(callersTitle({ callers: 3, candidates: 1 }, true), '3 callers · +1 candidate');
    // Uses that are not calls come after the callers and the dispatch tier, never added to them.
    assert.equal(callersTitle({ callers: 0, candidates: 0, referrers: 18 }, true), '0 callers · 18 referrers');
    assert.equal(
      callersTitle({ callers: 1, candidates: 0, referrers: 1, through: { callers: 2, via: ['Shape.area'] } }, true),
      '1 caller · 2 through Shape.area · 1 referrer',
    );
    assert.equal(callersTitle({ callers: 0, candidates: 2 }, true), '0 callers · +2 candidates');
    assert.equal(callersTitle({ callers: 3, candidates: 2 }, false), '3 callers');
    // The dispatch tier (ADR 151): apart, after the guesses, never added to the proven count.
    assert.equal(
      callersTitle({ callers: 0, candidates: 0, through: { callers: 24, via: ['Shape.area'] } }, true),
      '0 callers · 24 through Shape.area',
    );
    assert.equal(
      callersTitle({ callers: 1, candidates: 2, through: { callers: 5, via: ['A.run', 'B.run'] } }, true),
      '1 caller · +2 candidates · 5 through 2 members',
    );
    assert.equal(callersTitle({ callers: 1, candidates: 2, through: { callers: 1, via: ['A.run'] } }, false), '1 caller · 1 through A.run');
  });

  it('the status bar: size, building, stale, no calls layer, absent, loading, unavailable', () => {
    assert.equal(statusText(base).text, '$(type-hierarchy) 1,234 nodes · 56,789 edges');
    assert.equal(statusText({ ...base, building: { phase: 'extract', done: 120, total: 252 } }).text, '$(sync~spin) KG: building 120/252');
    assert.equal(statusText({ ...base, building: { phase: 'starting', done: 0, total: 0 } }).text, '$(sync~spin) KG: building');
    // Built, its graph loading: it says built, not "building 733/733" (issue 55, item 11).
    assert.equal(
      statusText({ ...base, building: { phase: BUILT_PHASE, done: 733, total: 733 } }).text,
      '$(sync~spin) KG: built, loading the graph',
    );
    assert.deepEqual(statusText({ ...base, staleFiles: ['a.ts', 'b.ts', 'c.ts'] }), {
      text: '$(warning) KG: stale: 3 files',
      warning: true,
      error: false,
    });
    assert.equal(statusText({ ...base, staleFiles: ['a.ts'] }).text, '$(warning) KG: stale: 1 file');
    assert.equal(statusText({ ...base, callsLayer: false }).text, '$(warning) KG: no calls layer');
    assert.equal(statusText({ ...base, kind: 'absent' }).text, '$(circle-slash) KG: no graph');
    assert.equal(statusText({ ...base, kind: 'loading' }).text, '$(loading~spin) KG: loading');
    assert.deepEqual(statusText({ ...base, kind: 'unusable', reason: 'projection unparsable: x' }), {
      text: '$(error) KG: unavailable',
      warning: false,
      error: true,
    });
  });

  it('the sentence behind each state names the reason and the fix', () => {
    assert.equal(describeState(base), '1,234 nodes, 56,789 edges; up to date.');
    assert.match(
      describeState({ ...base, staleFiles: ['a.ts', 'b.ts'] }),
      /stale: 2 files changed since the build\. Rebuild to refresh\.$/,
    );
    assert.match(describeState({ ...base, callsLayer: false }), /without the calls layer, so callers are unknown\. Rebuild/);
    assert.equal(
      describeState({ ...base, kind: 'unusable', reason: 'projection unparsable: Unexpected end of JSON input' }),
      'The graph cannot be used: projection unparsable: Unexpected end of JSON input. Rebuild it.',
    );
    assert.match(describeState({ ...base, kind: 'absent' }), /^No graph yet: build one/);
    assert.match(
      describeState({ ...base, building: { phase: 'resolve', done: 3, total: 9 } }),
      /^Building: resolve 3 of 9 files; the previous graph answers meanwhile\.$/,
    );
  });

  it('a failed build: said in the status bar until a build succeeds, with the reason and that the previous graph still answers', () => {
    const failed = { ...base, buildFailure: 'tsconfig.json: not valid JSON.' };
    assert.deepEqual(statusText(failed), { text: '$(error) KG: build failed', warning: false, error: true });
    assert.equal(
      describeState(failed),
      'The last build failed: tsconfig.json: not valid JSON. The previous graph still answers; save or build to try again. 1,234 nodes, 56,789 edges.',
    );
    // Files changed meanwhile are said, without "Rebuild": a build would fail the same way (ADR 91).
    assert.equal(
      describeState({ ...failed, staleFiles: ['a.ts', 'b.ts'] }),
      'The last build failed: tsconfig.json: not valid JSON. The previous graph still answers; save or build to try again. 1,234 nodes, 56,789 edges; 2 files changed since it was built.',
    );
    assert.equal(statusText({ ...failed, building: { phase: 'extract', done: 1, total: 2 } }).text, '$(sync~spin) KG: building 1/2');
    assert.equal(
      describeState({ ...failed, kind: 'absent' }),
      'The last build failed: tsconfig.json: not valid JSON. Save or build to try again. No graph yet: build one to see callers and god nodes.',
    );
    // An unusable graph already says why it cannot be used, in red.
    assert.equal(statusText({ ...failed, kind: 'unusable', reason: 'x' }).text, '$(error) KG: unavailable');
  });

  it('the God Nodes view shows code only: modules, source files, declarations; never headings, records or Markdown files', () => {
    for (const n of [
      { id: 'mod:src', kind: 'module' },
      { id: 'file:src/a.ts', kind: 'file' },
      { id: 'sym:src/a.ts#f', kind: 'function' },
      { id: 'sym:src/a.ts#C', kind: 'class' },
    ])
      assert.equal(isCodeNode(n), true, n.id);
    for (const n of [
      { id: 'doc:README.md#api~0', kind: 'doc-concept' },
      { id: 'adr:7', kind: 'rationale' },
      { id: 'file:README.md', kind: 'file' },
      { id: 'file:docs/Guide.MARKDOWN', kind: 'file' },
    ])
      assert.equal(isCodeNode(n), false, n.id);
    assert.match(codeOnlyNote(1), /^code only: 1 documentation node .* is left out; `kg god-nodes` ranks every node/);
    assert.match(codeOnlyNote(3, 'app: '), /^app: code only: 3 documentation nodes .* are left out/);
  });
});
