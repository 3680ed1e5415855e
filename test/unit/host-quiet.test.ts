// Quiet (src/host/quiet.ts): readiness as a promise, told by the owner's changes, never polled.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Quiet } from '../../src/host/quiet';

const turn = () => new Promise((r) => setImmediate(r));

describe('Quiet', () => {
  it('resolves at once when nothing is busy', async () => {
    const q = new Quiet(() => false);
    await q.whenQuiet();
  });

  it('waits while busy, and resolves at the change that ends the work', async () => {
    let busy = true;
    const q = new Quiet(() => busy);
    let done = false;
    void q.whenQuiet().then(() => (done = true));
    q.changed(); // still busy: nothing is told
    await turn();
    await turn();
    assert.equal(done, false);
    busy = false;
    await turn();
    assert.equal(done, false, 'without a change, nobody is told (no polling)');
    q.changed();
    await turn();
    await turn();
    assert.equal(done, true);
  });

  it('work chained on the work that ended counts: no waiter is told in between', async () => {
    let jobs = 1;
    const q = new Quiet(() => jobs > 0);
    let done = false;
    void q.whenQuiet().then(() => (done = true));
    // The first job ends and, from its continuation, a second begins (a reload after a build).
    jobs = 0;
    q.changed();
    await Promise.resolve();
    jobs = 1;
    await turn();
    await turn();
    assert.equal(done, false);
    jobs = 0;
    q.changed();
    await turn();
    await turn();
    assert.equal(done, true);
  });

  it('tells every waiter once', async () => {
    let busy = true;
    const q = new Quiet(() => busy);
    let told = 0;
    void q.whenQuiet().then(() => told++);
    void q.whenQuiet().then(() => told++);
    busy = false;
    q.changed();
    q.changed();
    await turn();
    await turn();
    assert.equal(told, 2);
  });
});
