// The snapshot diff must show every change a golden file can suffer, a reordering included: a set
// difference of lines shows nothing when two edges merely swap places.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineDiff } from '../helpers/snapshot';

describe('snapshot diff', () => {
  it('shows two lines that swapped places', () => {
    const expected = ['nodes (3):', '  a', '  b', '  c', ''].join('\n');
    const actual = ['nodes (3):', '  b', '  a', '  c', ''].join('\n');
    const diff = lineDiff(expected, actual);
    const removed = diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
    const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
    assert.ok(removed.length > 0 && added.length > 0, `a reordering must show as removed and added lines:\n${diff}`);
    assert.deepEqual(removed.map((l) => l.slice(1)).sort(), added.map((l) => l.slice(1)).sort());
  });

  it('shows a changed line with its context', () => {
    const diff = lineDiff('x\ny\nz\n', 'x\nY\nz\n');
    assert.match(diff, /^-y$/m);
    assert.match(diff, /^\+Y$/m);
    assert.match(diff, /^ x$/m);
  });
});
