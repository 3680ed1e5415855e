// Ids round-trip: every path and name, whatever characters it holds, can be read back.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adrId, docId, escapeIdPart, fileId, moduleId, parseId, symbolId, unescapeIdPart, unresolvedId } from '../../src/graph/ids';
import { fc } from '../helpers/seed';

const part = fc.string({ minLength: 1, maxLength: 30, unit: 'binary' });

describe('ids', () => {
  it('escapes the reserved separators and nothing else', () => {
    assert.equal(escapeIdPart('a#b~c@d%e:f/g.h i'), 'a%23b%7Ec%40d%25e%3Af/g.h i');
    assert.equal(symbolId('src/a#b.ts', 'C.#m'), 'sym:src/a%23b.ts#C.%23m');
    assert.equal(moduleId(''), 'mod:.');
    assert.equal(adrId(7), 'adr:7');
    assert.equal(docId('docs/x.md', 'intro', 2), 'doc:docs/x.md#intro~2');
  });

  it('round-trips arbitrary parts (property)', () => {
    fc.assert(
      fc.property(part, part, fc.nat(1000), (p, n, i) => {
        assert.equal(unescapeIdPart(escapeIdPart(p)), p);
        assert.deepEqual(parseId(fileId(p)), { prefix: 'file', path: p });
        assert.deepEqual(parseId(symbolId(p, n)), { prefix: 'sym', path: p, name: n });
        assert.deepEqual(parseId(docId(p, n, i)), { prefix: 'doc', path: p, slug: n, index: i });
        assert.deepEqual(parseId(unresolvedId(n)), { prefix: 'unresolved', name: n });
        const m = parseId(moduleId(p));
        assert.deepEqual(m, { prefix: 'mod', dir: p === '.' ? '' : p });
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects malformed ids', () => {
    for (const bad of ['nope', 'sym:a.ts', 'sym:#x', 'adr:x', 'doc:a.md#s', 'weird:x']) assert.equal(parseId(bad), undefined, bad);
  });
});
