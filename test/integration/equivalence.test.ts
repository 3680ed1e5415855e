// Equivalence, proven: random edit sequences on a fixture repository (every test fixture plus a
// generated package of files that import and call each other) and on a copy of rxjs's sources;
// after every step the incremental graph equals a full build, byte for byte. At least 500 steps
// on the fixture and 50 on rxjs here; KG_EQUIV_RUNS / KG_EQUIV_STEPS / KG_EQUIV_RXJS_STEPS raise
// them, KG_SEED replays a run (test/helpers/seed.ts). A failure is shrunk and printed as a regression test.

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { corpus } from '../../bench/corpus';
import type { Edit } from '../helpers/edits';
import { fixtureRepo, random, randomEdits, report, runSequence, shrink } from '../helpers/equivalence';
import { removeTempDirs, tempDir } from '../helpers/fixtures';
import { SEED } from '../helpers/seed';

const RUNS = Number(process.env.KG_EQUIV_RUNS ?? 10);
const STEPS = Number(process.env.KG_EQUIV_STEPS ?? 60);
const RXJS_STEPS = Number(process.env.KG_EQUIV_RXJS_STEPS ?? 60);

function check(base: string, seed: number, runs: number, steps: number, extractOnly: boolean): number {
  let total = 0;
  for (let run = 0; run < runs; run++) {
    const runSeed = seed + run;
    const edits: Edit[] = randomEdits(random(runSeed), steps);
    const r = runSequence(base, edits, { extractOnly });
    total += r.applied;
    if (r.failure) assert.fail(report(runSeed, shrink(base, edits, { extractOnly })));
  }
  return total;
}

describe('equivalence: incremental equals full after every random edit', () => {
  after(removeTempDirs);

  it(`on the fixture repository: ${RUNS} sequences of ${STEPS} edits (seed ${SEED})`, () => {
    const base = fixtureRepo();
    const applied = check(base, SEED, RUNS, STEPS, false) + check(base, SEED + 7919, 1, STEPS, true);
    // Some edits find nothing to act on (no call to remove, a name taken); the floor counts the rest.
    const floor = process.env.KG_EQUIV_RUNS || process.env.KG_EQUIV_STEPS ? 0.7 * (RUNS + 1) * STEPS : 500;
    assert.ok(applied >= floor, `only ${applied} edits changed the tree (want ${floor})`);
    process.stderr.write(`equivalence (fixture): ${applied} edits compared, seed ${SEED}\n`);
  });

  it(`on a copy of rxjs's sources: ${RXJS_STEPS} edits (seed ${SEED})`, () => {
    const base = corpus('rxjs', tempDir('kg-equiv-rxjs-')).root;
    const applied = check(base, SEED, 1, RXJS_STEPS, false);
    const floor = process.env.KG_EQUIV_RXJS_STEPS ? 0.7 * RXJS_STEPS : 50;
    assert.ok(applied >= floor, `only ${applied} edits changed the tree (want ${floor})`);
    process.stderr.write(`equivalence (rxjs): ${applied} edits compared, seed ${SEED}\n`);
  });
});
