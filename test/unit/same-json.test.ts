// `sameJson` (ADR 139) stands in for `isDeepStrictEqual` where a rebuild compares manifest records:
// on values JSON holds, the two must agree. Checked on random pairs made to be near each other
// (one a copy of the other with one change, or with a key's value undefined, or an array for an
// object), where a shortcut would go wrong, and on exact copies.

import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import { sameJson } from '../../src/graph/indexer/files/manifest';
import { fc } from '../helpers/seed';

const clone = <T>(x: T): T => structuredClone(x);

/** A copy of `v` with one thing changed somewhere inside it (or `v` itself when it holds nothing to change). */
function mutate(v: unknown, pick: number): unknown {
  if (Array.isArray(v)) {
    if (v.length === 0) return [null];
    const i = pick % v.length;
    const out = [...v];
    if (pick % 3 === 0) out.pop();
    else out[i] = mutate(v[i], Math.floor(pick / 3) + 1);
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 0) return pick % 2 === 0 ? { k: undefined } : [];
    const k = keys[pick % keys.length];
    const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    if (pick % 4 === 0) delete out[k];
    else if (pick % 4 === 1) out[k] = undefined;
    else out[k] = mutate(out[k], Math.floor(pick / 4) + 1);
    return out;
  }
  if (typeof v === 'string') return v + 'x';
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  return 0;
}

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 3 }),
    fc.integer({ min: -3, max: 3 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'imports', 'shape'), tie('value'), { maxKeys: 4, noNullPrototype: true }),
  ),
})).value;

describe('sameJson agrees with isDeepStrictEqual on what JSON holds (ADR 139)', () => {
  it('on a value and its copy, and on a value and a copy with one change', () => {
    fc.assert(
      fc.property(json, fc.nat(1000), (v, pick) => {
        const copy = clone(v);
        assert.equal(sameJson(v, copy), true);
        assert.equal(sameJson(v, v), true);
        const changed = mutate(v, pick);
        assert.equal(sameJson(v, changed), isDeepStrictEqual(v, changed), JSON.stringify([v, changed]));
        assert.equal(sameJson(changed, v), isDeepStrictEqual(changed, v));
      }),
      { numRuns: 2000 },
    );
  });

  it('on any two values', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        assert.equal(sameJson(a, b), isDeepStrictEqual(a, b), JSON.stringify([a, b]));
      }),
      { numRuns: 2000 },
    );
  });

  it('tells apart what a shortcut would not', () => {
    assert.equal(sameJson({ a: undefined }, {}), false);
    assert.equal(sameJson({}, { a: undefined }), false);
    assert.equal(sameJson({ a: undefined }, { b: undefined }), false);
    assert.equal(sameJson([], {}), false);
    assert.equal(sameJson({ 0: 'x', length: 1 }, ['x']), false);
    assert.equal(sameJson([1, [2, 3]], [1, [2, 3]]), true);
    assert.equal(sameJson([1, [2, 3]], [1, [3, 2]]), false);
    assert.equal(sameJson(null, {}), false);
    assert.equal(sameJson('1', 1), false);
    assert.equal(sameJson({ a: { b: [{ c: 'd' }] } }, { a: { b: [{ c: 'd' }] } }), true);
  });
});
