// Runs the node:test tiers (TypeScript through tsx). docs/development.md describes the tiers.
//
// usage: node scripts/run-tests.mjs [unit|integration|robustness|all] [--update-snapshots] [name-filter...]
//
//   unit         test/unit: the engine, the queries, the CLI's and host's plain parts over fixtures
//                and in-memory trees — the loop to run after every change (under a minute)
//   integration  test/integration: real kg processes, the build server, kills, corpora from npm
//                (rxjs, zod), the correctness reference; needs `npm run build` first
//   robustness   test/robustness: hostile inputs, fuzzing, other users (when the folder exists)
//   all          all of them, in that order (the default)
//
// A filter keeps the files whose path contains it. Randomised tests take their seed from KG_SEED
// (test/helpers/seed.ts).

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const TIERS = ['unit', 'integration', 'robustness'];
const args = process.argv.slice(2);
const update = args.includes('--update-snapshots');
const words = args.filter((a) => !a.startsWith('--'));
const tier = TIERS.includes(words[0]) || words[0] === 'all' ? words.shift() : 'all';
const filters = words;

function find(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...find(p));
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

// Every kg the tests start builds in its own process unless a test asks for the build server
// (test/integration/server.test.ts), so no test leaves a server behind.
const env = { ...process.env, KG_SERVER: 'off', ...(update ? { KG_UPDATE_SNAPSHOTS: '1' } : {}) };

/** The tests a TAP file reports as skipped: `name (reason)`. */
function skippedIn(file) {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^\s*ok \d+ - (.*?) # SKIP\s*(.*)$/.exec(line);
    if (m) out.push(m[2] ? `${m[1]} (${m[2]})` : m[1]);
  }
  return out;
}

let ran = 0;
for (const t of tier === 'all' ? TIERS : [tier]) {
  const files = find(path.join('test', t)).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
  if (files.length === 0) continue;
  ran += files.length;
  // Unit files are independent and light: two at a time. The other tiers start processes and
  // measure kills and timings, so they run one file at a time.
  const concurrency = t === 'unit' ? Math.max(1, Math.min(2, os.availableParallelism())) : 1;
  console.log(`[tests] ${t}: ${files.length} file${files.length === 1 ? '' : 's'}`);
  const started = Date.now();
  // A second reporter (TAP, to a file) lets the summary name every skipped test: a skip is never
  // silent, since a test that did not run proves nothing (issue 22).
  const tap = path.join(os.tmpdir(), `kg-tests-${process.pid}-${t}.tap`);
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { stdio: 'inherit', env },
  );
  const skipped = skippedIn(tap);
  fs.rmSync(tap, { force: true });
  const note = skipped.length === 0 ? '' : `, ${skipped.length} SKIPPED (not run, not passed)`;
  console.log(`[tests] ${t}: ${r.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s${note}`);
  for (const s of skipped) console.log(`[tests] ${t}: SKIPPED ${s}`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (ran === 0) {
  console.error('no test files matched');
  process.exit(1);
}
