// One seed for every randomised test: fixed by default so a run repeats, printed so a failure can
// be replayed, overridable with KG_SEED (docs/development.md, "Randomised tests"). Importing this also seeds fast-check.

import fc from 'fast-check';

const DEFAULT_SEED = 20261130;

/** The run's seed: KG_SEED when set (an integer), else DEFAULT_SEED. */
export const SEED: number = (() => {
  const text = process.env.KG_SEED;
  if (text === undefined || text === '') return DEFAULT_SEED;
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`KG_SEED must be an integer, not "${text}"`);
  return n;
})();

fc.configureGlobal({ seed: SEED });

/** fast-check, seeded: tests import it from here, never from 'fast-check' (lint says so). */
export { fc };
process.stderr.write(`random tests: seed ${SEED}${SEED === DEFAULT_SEED ? ' (default; set KG_SEED to change it)' : ' (KG_SEED)'}\n`);
