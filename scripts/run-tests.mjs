// Runs the unit and integration tests (test/unit) and the robustness tier (test/robustness: hostile
// inputs, fuzzing, two users, kills) with node's own test runner (TypeScript through tsx).
// `npm test` runs both tiers, through npm run test:unit.
// usage: node scripts/run-tests.mjs [--update-snapshots] [name-filter...]

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const args = process.argv.slice(2);
const update = args.includes('--update-snapshots');
const filters = args.filter((a) => !a.startsWith('--'));

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

const files = [...find('test/unit'), ...find('test/robustness')].filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Every kg the tests start builds in its own process unless a test asks for the build server
// (test/unit/server.test.ts), so no test leaves a server behind.
const env = { ...process.env, KG_SERVER: 'off', ...(update ? { KG_UPDATE_SNAPSHOTS: '1' } : {}) };
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
