// kg packed as users get it (ADR 158): `npm pack` on a clean copy of the repository — what a fresh
// clone holds, whose `prepack` builds the production bundles — run with npm settings of its own.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO, tempDir } from './fixtures';

/**
 * npm without the settings of whoever runs the tests: no npm_config_* inherited from `npm run`,
 * no user or global npmrc, no update check; kg without a build server.
 */
export function npmEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return {
    ...env,
    HOME: home,
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config_globalconfig: path.join(home, 'npmrc-global'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    KG_SERVER: 'off',
  };
}

/** A clean copy of the repository: the files git tracks or would track, with the installed node_modules beside them. */
function cleanCopy(into: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' });
  for (const rel of listed.split('\0').filter(Boolean)) {
    const from = path.join(REPO, rel);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
    fs.mkdirSync(path.join(into, path.dirname(rel)), { recursive: true });
    fs.copyFileSync(from, path.join(into, rel));
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(into, 'node_modules'), 'dir');
}

/** `npm pack` of a clean copy (npm's cache in `cache`); the tarball's path. */
export function packKg(env: NodeJS.ProcessEnv, cache: string): string {
  const copy = tempDir('kg-tarball-clone-');
  cleanCopy(copy);
  const out = tempDir('kg-tarball-out-');
  execFileSync('npm', ['pack', '--pack-destination', out, '--cache', cache], { cwd: copy, env, stdio: 'pipe' });
  const packed = fs.readdirSync(out).filter((f) => f.endsWith('.tgz'));
  assert.equal(packed.length, 1, `one tarball: ${packed.join(', ')}`);
  return path.join(out, packed[0]);
}
