// Ids round-trip: every path and name, whatever characters it holds, can be read back.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adrId,
  docId,
  escapeIdPart,
  fileId,
  fileOfId,
  moduleId,
  packageSymbolId,
  parseId,
  symbolId,
  unescapeIdPart,
  unresolvedId,
} from '../../src/graph/ids';
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
        assert.deepEqual(parseId(packageSymbolId(n, p, p, n)), { prefix: 'pkg', pkg: n, version: p, path: p, name: n });
        const m = parseId(moduleId(p));
        assert.deepEqual(m, { prefix: 'mod', dir: p === '.' ? '' : p });
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects malformed ids', () => {
    for (const bad of [
      'nope',
      'sym:a.ts',
      'sym:#x',
      'adr:x',
      'doc:a.md#s',
      'weird:x',
      'pkg:a@1#x',
      'pkg:a:src/x.ts#f',
      'pkg:@s/a@1:x.ts#f',
    ])
      assert.equal(parseId(bad), undefined, bad);
  });

  it('spells a package-qualified symbol with its scope escaped, sorts it by package then version, and gives it no file here (ADR 107)', () => {
    const id = packageSymbolId('@acme/lib', '1.2.0-rc.1', 'src/a:b.ts', 'Greeter.#hi');
    assert.equal(id, 'pkg:%40acme/lib@1.2.0-rc.1:src/a%3Ab.ts#Greeter.%23hi');
    assert.deepEqual(parseId(id), { prefix: 'pkg', pkg: '@acme/lib', version: '1.2.0-rc.1', path: 'src/a:b.ts', name: 'Greeter.#hi' });
    assert.equal(fileOfId(id), undefined, "the path is the package's, not a file of this repository");
    // The remainder after <name>@<version>: is the sym: id the package's own graph gives the symbol.
    assert.equal(id.slice(id.indexOf(':', 'pkg:'.length) + 1), symbolId('src/a:b.ts', 'Greeter.#hi').slice('sym:'.length));
    const ids = [
      packageSymbolId('b', '1.0.0', 'x.ts', 'f'),
      packageSymbolId('a', '2.0.0', 'x.ts', 'f'),
      packageSymbolId('a', '1.0.0', 'y.ts', 'f'),
    ];
    assert.deepEqual([...ids].sort(), [ids[2], ids[1], ids[0]]);
  });
});
