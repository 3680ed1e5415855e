// webview/explorer/state.ts and search.ts in plain Node: what the explorer keeps across a reload,
// how it brings a picture back (a tagged union of phases, ADR 94), checked against the signature
// of the graph that answers now; and the order of its search box.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rankShown } from '../../webview/explorer/search';
import {
  freshState,
  isRestoring,
  readSaved,
  restoreAbandoned,
  restoreOnAnswer,
  restoreOnStatus,
  type Restore,
  type RestoreStep,
  type SavedState,
} from '../../webview/explorer/state';

const SIG = 'aaaaaaaaaaaa';
const waiting: Restore = { phase: 'waiting' };

function saved(over: Partial<SavedState>): SavedState {
  return {
    ...freshState(),
    signature: SIG,
    positions: { 'sym:a.ts#f': [1, 2] },
    viewport: { zoom: 1, x: 0, y: 0, w: 600, h: 400 },
    ...over,
  };
}

/** Runs the machine from a status to the end, answering every question, and lists the steps. */
function walk(state: SavedState, signature: string | undefined): RestoreStep[] {
  let { restore, step } = restoreOnStatus(waiting, state, { blocking: false, signature });
  const steps = [step];
  while (isRestoring(restore)) {
    ({ restore, step } = restoreOnAnswer(restore));
    steps.push(step);
  }
  return steps;
}

describe('the explorer`s saved state', () => {
  it('reads anything VS Code hands back without throwing, keeping only what it can act on', () => {
    for (const raw of [undefined, null, 7, 'x', [], { v: 3 }, { v: 2, request: { mode: 'nope' } }])
      assert.doesNotThrow(() => readSaved(raw));
    assert.equal(readSaved({ v: 9 }).saved, false);
    const s = readSaved({
      v: 2,
      request: { mode: 'path', from: 'sym:a.ts#f', to: 'sym:b.ts#g' },
      base: { mode: 'neighbors', id: 'sym:a.ts#f' },
      budget: 99999,
      grouping: 'galaxy',
      expanded: ['sym:c.ts#h', 4],
      signature: SIG,
      from: { id: 'sym:a.ts#f', label: 'f' },
      to: { id: 'sym:b.ts#g' },
      viewport: { zoom: 'big' },
    }).state;
    assert.deepEqual(s.request, { mode: 'path', from: 'sym:a.ts#f', to: 'sym:b.ts#g' });
    assert.deepEqual(s.base, { mode: 'neighbors', id: 'sym:a.ts#f' });
    assert.equal(s.budget, 40, 'an absurd budget falls back to the default');
    assert.equal(s.grouping, 'none');
    assert.deepEqual(s.expanded, [], 'a list with a non-id in it is not trusted');
    assert.deepEqual(s.from, { id: 'sym:a.ts#f', label: 'f' });
    assert.equal(s.to, undefined);
    assert.equal(s.viewport, undefined);
  });

  it('a state from before signatures (v1) keeps what was shown but not what was drawn', () => {
    const { state, saved: was } = readSaved({
      v: 1,
      request: { mode: 'neighbors', id: 'sym:a.ts#f' },
      expanded: ['sym:c.ts#h'],
      positions: { 'sym:a.ts#f': [0, 0] },
    });
    assert.equal(was, true);
    assert.deepEqual(state.request, { mode: 'neighbors', id: 'sym:a.ts#f' });
    assert.equal(state.signature, undefined);
    assert.equal(state.positions, undefined);
    assert.deepEqual(state.expanded, []);
  });
});

describe('bringing a picture back', () => {
  it('nothing saved: the empty canvas, and nothing more to do', () => {
    const r = restoreOnStatus(waiting, freshState(), { blocking: false, signature: SIG });
    assert.deepEqual(r, { restore: { phase: 'idle' }, step: { do: 'empty' } });
  });

  it('waits while the graph cannot answer, then asks when it can', () => {
    const s = saved({ request: { mode: 'neighbors', id: 'sym:a.ts#f' } });
    const blocked = restoreOnStatus(waiting, s, { blocking: true });
    assert.deepEqual(blocked, { restore: waiting, step: { do: 'empty' } });
    const r = restoreOnStatus(blocked.restore, s, { blocking: false, signature: SIG });
    assert.deepEqual(r.step, { do: 'ask', request: { mode: 'neighbors', id: 'sym:a.ts#f' }, fresh: null });
  });

  it('the same graph: the neighbourhood, each expansion in order, then draw at the saved positions', () => {
    const s = saved({ request: { mode: 'neighbors', id: 'sym:a.ts#f' }, expanded: ['sym:b.ts#g', 'sym:c.ts#h'] });
    assert.deepEqual(walk(s, SIG), [
      { do: 'ask', request: { mode: 'neighbors', id: 'sym:a.ts#f' }, fresh: null },
      { do: 'expand', id: 'sym:b.ts#g' },
      { do: 'expand', id: 'sym:c.ts#h' },
      { do: 'draw', positions: true },
    ]);
    assert.ok(s.positions && s.viewport, 'kept');
  });

  it('a path over a neighbourhood: the base, its expansions, then the path', () => {
    const path = { mode: 'path' as const, from: 'sym:a.ts#f', to: 'sym:z.ts#z' };
    const s = saved({ request: path, base: { mode: 'neighbors', id: 'sym:a.ts#f' }, expanded: ['sym:b.ts#g'] });
    assert.deepEqual(walk(s, SIG), [
      { do: 'ask', request: { mode: 'neighbors', id: 'sym:a.ts#f' }, fresh: null },
      { do: 'expand', id: 'sym:b.ts#g' },
      { do: 'path', request: path },
      { do: 'draw', positions: true },
    ]);
  });

  it('a path drawn alone: the path, then draw', () => {
    const path = { mode: 'path' as const, from: 'sym:a.ts#f', to: 'sym:z.ts#z' };
    assert.deepEqual(walk(saved({ request: path, expanded: ['ignored'] }), SIG), [
      { do: 'ask', request: path, fresh: null },
      { do: 'draw', positions: true },
    ]);
  });

  it('another graph (rebuilt since): every question asked of it, the old layout dropped, and why', () => {
    const s = saved({ request: { mode: 'neighbors', id: 'sym:a.ts#f' }, expanded: ['sym:b.ts#g'] });
    const steps = walk(s, 'bbbbbbbbbbbb');
    assert.deepEqual(steps, [
      { do: 'ask', request: { mode: 'neighbors', id: 'sym:a.ts#f' }, fresh: 'rebuilt' },
      { do: 'expand', id: 'sym:b.ts#g' },
      { do: 'draw', positions: false },
    ]);
    assert.equal(s.positions, undefined);
    assert.equal(s.viewport, undefined);
  });

  it('a signature that cannot be compared counts as another graph', () => {
    const s = saved({ request: { mode: 'neighbors', id: 'sym:a.ts#f' }, signature: undefined });
    assert.equal((walk(s, SIG)[0] as { fresh: unknown }).fresh, 'unknown');
    const t = saved({ request: { mode: 'neighbors', id: 'sym:a.ts#f' } });
    assert.equal((walk(t, undefined)[0] as { fresh: unknown }).fresh, 'unknown');
    assert.equal(t.positions, undefined);
  });

  it('only a waiting restore reacts to a status; an abandoned one is idle', () => {
    const s = saved({ request: { mode: 'neighbors', id: 'sym:a.ts#f' } });
    const idle: Restore = { phase: 'idle' };
    assert.deepEqual(restoreOnStatus(idle, s, { blocking: false, signature: SIG }), { restore: idle, step: { do: 'wait' } });
    assert.deepEqual(restoreAbandoned(), idle);
    assert.deepEqual(restoreOnAnswer(idle), { restore: idle, step: { do: 'draw', positions: false } });
  });
});

describe('the explorer`s search box', () => {
  const n = (id: string, label: string, place: string, degree: number) => ({ id, label, place, degree });
  it('the name, then names that start with it, then labels holding it, then places; better connected first', () => {
    const nodes = [
      n('a', 'concatMap', 'src/a.ts', 9),
      n('b', 'mapTo', 'src/b.ts', 1),
      n('c', 'map', 'src/c.ts', 2),
      n('d', 'Subject.map', 'src/d.ts', 1),
      n('e', 'other', 'src/map/e.ts', 50),
      n('f', 'MAP', 'src/f.ts', 7),
      n('g', 'nothing', 'src/g.ts', 99),
    ];
    assert.deepEqual(rankShown('map', nodes), ['f', 'c', 'd', 'b', 'a', 'e']);
    assert.deepEqual(rankShown('  ', nodes), []);
    assert.deepEqual(rankShown('zzz', nodes), []);
  });
});
