// docs/adr/README.md is generated from the graph (ADR 160): this fails when the checked-in index is
// not what `npm run adr-index` writes now, or when a status line says a relation the other record
// does not say back. The fix is always the same: correct the status lines, then run the script.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { recordIndex } from '../../scripts/adr-index';
import { REPO } from '../helpers/fixtures';

describe('the index of the decision records', () => {
  it('is current: docs/adr/README.md is what the graph of the records gives (run npm run adr-index)', () => {
    const { text, problems } = recordIndex(REPO);
    assert.deepEqual(problems, [], 'every relation is said by both records, and every status agrees with them');
    const checkedIn = fs.readFileSync(path.join(REPO, 'docs', 'adr', 'README.md'), 'utf8');
    assert.ok(checkedIn === text, 'docs/adr/README.md is out of date: run `npm run adr-index` and commit it');
  });
});
