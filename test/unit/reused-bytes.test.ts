// ReusedBytes (ADR 133): a buffer kept between the large encodings and reads of a build server.
// What it returns must be what Buffer.from and fs.readFileSync return, whatever came before in the
// same buffer (a longer text, a shorter file).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { ReusedBytes } from '../../src/graph/commit/reused-bytes';
import { removeTempDirs, tempDir } from '../helpers/fixtures';
import { fc } from '../helpers/seed';

describe('ReusedBytes (ADR 133)', () => {
  after(removeTempDirs);

  it('encodes as Buffer.from does, one text after another in the same buffer, lone surrogates too', () => {
    const r = new ReusedBytes();
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 3000 }), { minLength: 1, maxLength: 6 }), (texts) => {
        for (const t of texts) assert.ok(r.encode(t).equals(Buffer.from(t, 'utf8')));
      }),
      { numRuns: 200 },
    );
    // A view of the kept buffer: the next call writes over it.
    const first = r.encode('aaaa');
    r.encode('bbbb');
    assert.equal(first.toString(), 'bbbb');
  });

  it('reads as readFileSync does, files of any size one after another', () => {
    const dir = tempDir();
    const r = new ReusedBytes();
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 200_000 }), { minLength: 1, maxLength: 5 }), fc.nat(), (sizes, seed) => {
        sizes.forEach((size, i) => {
          const file = path.join(dir, `f${i}`);
          const bytes = Buffer.alloc(size, (seed + i) % 251);
          fs.writeFileSync(file, bytes);
          assert.ok(r.read(file).equals(fs.readFileSync(file)));
        });
      }),
      { numRuns: 40 },
    );
    const missing = path.join(dir, 'missing');
    assert.throws(() => r.read(missing), /ENOENT/);
  });
});
