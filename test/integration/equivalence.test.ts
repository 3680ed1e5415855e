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

/** Edits compared, and the steps whose one-shot build read carried files with their bodies blank (ADR 129). */
function check(base: string, seed: number, runs: number, steps: number, extractOnly: boolean): { applied: number; blanked: number } {
  let applied = 0;
  let blanked = 0;
  for (let run = 0; run < runs; run++) {
    const runSeed = seed + run;
    const edits: Edit[] = randomEdits(random(runSeed), steps);
    const r = runSequence(base, edits, { extractOnly });
    applied += r.applied;
    blanked += r.blanked;
    if (r.failure) assert.fail(report(runSeed, shrink(base, edits, { extractOnly })));
  }
  return { applied, blanked };
}

describe('equivalence: incremental equals full after every random edit', () => {
  after(removeTempDirs);

  it(`on the fixture repository: ${RUNS} sequences of ${STEPS} edits (seed ${SEED})`, () => {
    const base = fixtureRepo();
    const resolved = check(base, SEED, RUNS, STEPS, false);
    const applied = resolved.applied + check(base, SEED + 7919, 1, STEPS, true).applied;
    // Some edits find nothing to act on (no call to remove, a name taken); the floor counts the rest.
    const floor = process.env.KG_EQUIV_RUNS || process.env.KG_EQUIV_STEPS ? 0.7 * (RUNS + 1) * STEPS : 500;
    assert.ok(applied >= floor, `only ${applied} edits changed the tree (want ${floor})`);
    // The partial program with blank bodies is what most steps compared (ADR 129), not a path never taken.
    assert.ok(resolved.blanked >= resolved.applied / 4, `only ${resolved.blanked} of ${resolved.applied} steps read bodies as blanks`);
    process.stderr.write(
      `equivalence (fixture): ${applied} edits compared (${resolved.blanked} with bodies read as blanks), seed ${SEED}\n`,
    );
  });

  // Sequences the generator once found and shrank; each is replayed as it was found.
  const FOUND: Array<[string, Edit[]]> = [
    [
      // A script reached only through another file's import is in the full build's program: an
      // incremental build that resolves util.ts alone must have it too (ADR 118).
      'a global script imported elsewhere, then an export added where a call relied on it',
      [
        { kind: 'addFile', a: 6633, b: 757, c: 1264 },
        { kind: 'addImport', a: 7476, b: 2263, c: 8819 },
        { kind: 'renameExport', a: 7405, b: 7437, c: 1817 },
        { kind: 'editNamespaced', a: 5025, b: 4859, c: 6784 },
      ],
    ],
    [
      // An import that brings a global script into the project's program reaches util.ts, which
      // did not change and imports neither file (ADR 118).
      'a global script newly in the program, where an unchanged file relied on a missing name',
      [
        { kind: 'addFile', a: 3163, b: 7569, c: 115 },
        { kind: 'renameExport', a: 1581, b: 4893, c: 1322 },
        { kind: 'addFile', a: 556, b: 7405, c: 6709 },
        { kind: 'deleteFile', a: 901, b: 1260, c: 7732 },
        { kind: 'addImport', a: 599, b: 6528, c: 8350 },
      ],
    ],
  ];
  for (const [what, edits] of FOUND) {
    it(`a sequence once found: ${what}`, () => {
      const r = runSequence(fixtureRepo({ asFound: true }), edits);
      assert.equal(r.applied, edits.length, 'every edit still applies');
      if (r.failure) assert.fail(`${r.failure.story.join('\n')}\n${r.failure.message}`);
    });
  }

  it(`on a copy of rxjs's sources: ${RXJS_STEPS} edits (seed ${SEED})`, () => {
    const base = corpus('rxjs', tempDir('kg-equiv-rxjs-')).root;
    const { applied, blanked } = check(base, SEED, 1, RXJS_STEPS, false);
    const floor = process.env.KG_EQUIV_RXJS_STEPS ? 0.7 * RXJS_STEPS : 50;
    assert.ok(applied >= floor, `only ${applied} edits changed the tree (want ${floor})`);
    assert.ok(blanked >= applied / 4, `only ${blanked} of ${applied} steps read bodies as blanks`);
    process.stderr.write(`equivalence (rxjs): ${applied} edits compared (${blanked} with bodies read as blanks), seed ${SEED}\n`);
  });
});
