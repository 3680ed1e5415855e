// What a build server holds, judged after a collection (ADR 125), and its budget.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_BUDGET_MB, memoryBudgetBytes } from '../../src/build-server/limits';

describe('server limits', () => {
  it('the budget is KG_SERVER_MAX_MB, 3072 MB unless set to a positive number', () => {
    assert.equal(DEFAULT_BUDGET_MB, 3072);
    assert.equal(memoryBudgetBytes({}), 3072 * 1048576);
    assert.equal(memoryBudgetBytes({ KG_SERVER_MAX_MB: '512' }), 512 * 1048576);
    for (const bad of ['0', '-5', 'lots', '']) assert.equal(memoryBudgetBytes({ KG_SERVER_MAX_MB: bad }), 3072 * 1048576, bad);
  });

  it('what is held counts live objects, not the garbage resident memory still shows', () => {
    // In a fresh process: 3 million objects made, a third kept. Resident memory stays high after
    // the rest become garbage; what is held, after a collection, is the kept third and the runtime.
    const script = `
      const { heldBytes } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'src', 'build-server', 'limits.ts'))});
      let junk = [];
      for (let i = 0; i < 3_000_000; i++) junk.push({ i, s: 'x' + i });
      const kept = junk.slice(0, 1_000_000);
      junk = undefined;
      const rss = process.memoryUsage().rss;
      const held = heldBytes();
      const live = process.memoryUsage().heapUsed;
      console.log(JSON.stringify({ rss, held, live, kept: kept.length }));
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const m = JSON.parse(r.stdout) as { rss: number; held: number; live: number; kept: number };
    const mb = (x: number) => Math.round(x / 1048576);
    assert.equal(m.kept, 1_000_000);
    // The garbage (two thirds, well over 100 MB) is not counted…
    assert.ok(m.rss - m.held > 100 * 1048576, `held ${mb(m.held)} MB of ${mb(m.rss)} MB resident`);
    // …and what is live still is: the kept objects' heap after the collection, at the least.
    assert.ok(m.held >= m.live && m.live > 30 * 1048576, `held ${mb(m.held)} MB, live heap ${mb(m.live)} MB`);
  });
});
