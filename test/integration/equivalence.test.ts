// Equivalence, proven: random edit sequences on a fixture repository (every test fixture plus a
// generated package of files that import and call each other) and on a copy of rxjs's sources;
// after every step the incremental graph equals a full build, byte for byte. At least 500 steps
// on the fixture and 50 on rxjs here; KG_EQUIV_RUNS / KG_EQUIV_STEPS / KG_EQUIV_RXJS_STEPS raise
// them, KG_SEED replays a run (test/helpers/seed.ts). A failure is shrunk and printed as a regression test.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { corpus } from '../../bench/corpus';
import type { Edit } from '../helpers/edits';
import { random, randomEdits, report, runSequence, shrink } from '../helpers/equivalence';
import { FIXTURES, copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { SEED } from '../helpers/seed';

const RUNS = Number(process.env.KG_EQUIV_RUNS ?? 10);
const STEPS = Number(process.env.KG_EQUIV_STEPS ?? 60);
const RXJS_STEPS = Number(process.env.KG_EQUIV_RXJS_STEPS ?? 60);

function fixtureRepo(): string {
  const root = tempDir('kg-equiv-base-');
  for (const name of fs.readdirSync(FIXTURES)) copyFixture(name, { into: path.join(root, name) });
  const gen: Record<string, string> = {
    'tsconfig.json':
      JSON.stringify({
        compilerOptions: { strict: true, jsx: 'preserve', allowJs: true, module: 'ESNext', moduleResolution: 'Bundler' },
        include: ['gen'],
      }) + '\n',
    'package.json': '{ "name": "equivalence-fixture", "private": true, "type": "module" }\n',
  };
  for (let i = 0; i < 24; i++) {
    const dir = `gen/p${i % 4}`;
    const next = (i + 5) % 24;
    const spec = path.posix.relative(dir, `gen/p${next % 4}/f${next}`);
    gen[`${dir}/f${i}.ts`] =
      `import { run${next} } from '${spec.startsWith('.') ? spec : './' + spec}';\n` +
      `export function run${i}(n: number): number {\n  return n > 0 ? run${next}(n - 1) : helper${i}();\n}\n` +
      `function helper${i}() {\n  return ${i};\n}\n` +
      (i % 3 === 0 ? `export class Box${i} {\n  open() {\n    return run${i}(1);\n  }\n}\n` : '');
  }
  gen['gen/index.ts'] = Array.from({ length: 4 }, (_, p) => `export * from './p${p}/f${p}';\n`).join('');
  writeTree(root, gen);
  return root;
}

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
