// Names as people write them, resolved over a real graph: the golden graph of the
// calls-static-twins fixture (test/fixtures/calls-static-twins/model.ts), where a class has static
// and instance members of the same name. Every expectation is read off the fixture's source.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parseGraphText, resolveTarget, type IndexedGraph, type Target } from '../../src/graph';
import { indexedOf } from '../helpers/graphs';

function graphOf(fixture: string): IndexedGraph {
  const load = parseGraphText(fs.readFileSync(path.join(__dirname, '..', 'snapshots', fixture, 'graph.json'), 'utf8'));
  assert.ok(load.ok);
  return load.graph;
}

const g = graphOf('calls-static-twins');
const sym = (name: string) => `sym:model.ts#${name}`;

function node(t: Target): string {
  assert.equal(t.kind, 'node', JSON.stringify(t));
  return (t as { id: string }).id;
}
function candidates(t: Target): string[] {
  assert.equal(t.kind, 'ambiguous', JSON.stringify(t));
  return (t as { candidates: string[] }).candidates;
}

describe('resolveTarget', () => {
  it('takes an id as it is, and a path#name as ids write it', () => {
    assert.deepEqual(resolveTarget(g, sym('saveOne')), { kind: 'node', id: sym('saveOne'), via: 'id' });
    assert.equal(node(resolveTarget(g, 'model.ts#saveAll')), sym('saveAll'));
    assert.equal(node(resolveTarget(g, '  sym:model.ts#saveAll ')), sym('saveAll'));
  });

  it('takes a function name, with or without the call parentheses, and a name in another case when only one fits', () => {
    assert.equal(node(resolveTarget(g, 'saveOne')), sym('saveOne'));
    assert.equal(node(resolveTarget(g, 'saveOne()')), sym('saveOne'));
    assert.equal(node(resolveTarget(g, 'SAVEONE')), sym('saveOne'));
    assert.equal(node(resolveTarget(g, 'Model')), sym('Model'));
  });

  it('never picks between a static member and its instance twin: both are offered', () => {
    // `Model.save` is how people write both `save()` (line 4) and `static save()` (line 7).
    assert.deepEqual(candidates(resolveTarget(g, 'Model.save')), [sym('Model.save'), sym('Model.static.save')]);
    assert.deepEqual(candidates(resolveTarget(g, 'save')), [sym('Model.save'), sym('Model.static.save')]);
    assert.deepEqual(candidates(resolveTarget(g, 'this.validate()')), [sym('Model.static.validate'), sym('Model.validate')]);
    assert.equal(node(resolveTarget(g, 'Model.static.save')), sym('Model.static.save'));
  });

  it('takes path:line and path:line:column of a declaration, and offers the declarations above any other line', () => {
    assert.equal(node(resolveTarget(g, 'model.ts:22')), sym('saveOne'));
    // `export function saveOne`: the name starts at column 17.
    assert.equal(node(resolveTarget(g, './model.ts:22:17')), sym('saveOne'));
    const inside = resolveTarget(g, 'model.ts:23');
    assert.equal(candidates(inside)[0], sym('saveOne'), 'the nearest declaration above line 23 comes first');
    assert.match((inside as { why: string }).why, /where declarations start, not where they end/);
    // Line 5 is inside `save()` (line 4) and below `class Model` (line 3).
    assert.deepEqual(candidates(resolveTarget(g, 'model.ts:5')).slice(0, 2), [sym('Model.save'), sym('Model')]);
  });

  it('takes a file path, and says why nothing fits otherwise', () => {
    assert.deepEqual(resolveTarget(g, './model.ts'), { kind: 'node', id: 'file:model.ts', via: 'path' });
    const none = resolveTarget(g, 'nothingLikeIt');
    assert.equal(none.kind, 'none');
    assert.deepEqual((none as { suggestions: string[] }).suggestions, []);
    const some = resolveTarget(g, 'saveO');
    assert.equal(some.kind, 'none');
    assert.deepEqual((some as { suggestions: string[] }).suggestions, [sym('saveOne')]);
  });

  it('takes an absolute path inside the repository, and says an absolute path outside it is outside (issue 48)', () => {
    const roots = ['/home/me/repo', '/real/repo'];
    assert.equal(node(resolveTarget(g, '/home/me/repo/model.ts:22', { roots })), sym('saveOne'));
    assert.equal(node(resolveTarget(g, '/real/repo/model.ts:22:17', { roots })), sym('saveOne'));
    assert.deepEqual(resolveTarget(g, '/home/me/repo/model.ts', { roots }), { kind: 'node', id: 'file:model.ts', via: 'path' });
    assert.equal(node(resolveTarget(g, 'C:\\Repo\\model.ts:22', { roots: ['c:\\repo'] })), sym('saveOne'));
    // A leading slash alone is still read from the repository's root.
    assert.equal(node(resolveTarget(g, '/model.ts:22', { roots })), sym('saveOne'));
    const outside = resolveTarget(g, '/home/me/other/model.ts:22', { roots });
    assert.equal(outside.kind, 'none');
    assert.equal(
      (outside as { why: string }).why,
      '/home/me/other/model.ts:22 is outside the repository (/home/me/repo): the graph holds only its files',
    );
  });

  it('takes an id whose private name is written with its # as typed, not escaped (issue 48)', () => {
    const priv = indexedOf([['sym:src/ky.ts#Ky.%23retry', 'sym:src/ky.ts#Ky.fetch']]);
    assert.deepEqual(resolveTarget(priv, 'sym:src/ky.ts#Ky.#retry'), { kind: 'node', id: 'sym:src/ky.ts#Ky.%23retry', via: 'id' });
    assert.equal(node(resolveTarget(priv, 'src/ky.ts#Ky.#retry')), 'sym:src/ky.ts#Ky.%23retry');
    assert.equal(node(resolveTarget(priv, 'sym:src/ky.ts#Ky.%23retry')), 'sym:src/ky.ts#Ky.%23retry');
  });

  it('answers a bare name that a function and methods share as ambiguous, busiest first, each with its proven callers (issue 48)', () => {
    // get() in util.ts has one caller; Store.get has three (one of them a guess, not counted); Cache.get none.
    const shared = indexedOf([
      ['sym:src/a.ts#useUtil', 'sym:src/util.ts#get'],
      ['sym:src/a.ts#one', 'sym:src/store.ts#Store.get'],
      ['sym:src/a.ts#two', 'sym:src/store.ts#Store.get'],
      ['sym:src/b.ts#three', 'sym:src/store.ts#Store.get'],
      ['sym:src/b.ts#guess', 'sym:src/store.ts#Store.get', 'calls', 'CANDIDATE'],
      ['sym:src/cache.ts#Cache.get', 'sym:src/cache.ts#Cache'],
    ]);
    const t = resolveTarget(shared, 'get');
    assert.deepEqual(t, {
      kind: 'ambiguous',
      asked: 'get',
      why: '3 symbols are named get (1 top-level, 2 members)',
      candidates: ['sym:src/store.ts#Store.get', 'sym:src/util.ts#get', 'sym:src/cache.ts#Cache.get'],
      callers: [3, 1, 0],
      total: 3,
    });
    // A longer name still names one.
    assert.equal(node(resolveTarget(shared, 'Store.get')), 'sym:src/store.ts#Store.get');
    assert.equal(node(resolveTarget(shared, 'src/util.ts#get')), 'sym:src/util.ts#get');
  });

  it("places an overload's every line on the merged node: each signature and the implementation (issue 48)", () => {
    // test/fixtures/overloads-merging/merge.ts: format on lines 1, 2 (signatures) and 3 (implementation);
    // Overloaded.run on 27, 28 and 29 (its name at column 3).
    const o = graphOf('overloads-merging');
    for (const line of [1, 2, 3]) assert.equal(node(resolveTarget(o, `merge.ts:${line}`)), 'sym:merge.ts#format', `line ${line}`);
    for (const line of [27, 28, 29])
      assert.equal(node(resolveTarget(o, `merge.ts:${line}:3`)), 'sym:merge.ts#Overloaded.run', `line ${line}`);
    assert.equal(resolveTarget(o, 'merge.ts:4').kind, 'ambiguous', 'a line inside the body is still not a declaration');
  });

  it('refuses a megabyte of text before looking it up, and an empty name', () => {
    const huge = resolveTarget(g, 'x'.repeat(1 << 20));
    assert.equal(huge.kind, 'none');
    assert.ok((huge as { asked: string }).asked.length < 100, 'the refusal does not echo the megabyte');
    assert.equal(resolveTarget(g, '   ').kind, 'none');
  });
});
