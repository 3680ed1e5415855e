// `kg tests` on a CommonJS package whose functions are written `module.exports.x = function`
// (ADR 196): the graph has no node for such a function, so a change inside one is a change of the
// file's own code. Read from the two sides' text, a change only inside `two` starts the walk from
// `two` by its exported name, through the declaration file's `two`, to the one test that calls
// it; a change of the file's top-level code is its loading, as before: every test that loads it.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { git } from '../helpers/diff-repo';

const LIB = [
  "'use strict';",
  '',
  "process.env.CJS_FIXTURE = 'loaded';",
  '',
  'module.exports.one = function one() {',
  '  return 1;',
  '};',
  '',
  'module.exports.two = function two() {',
  '  return 2;',
  '};',
  '',
].join('\n');

const BASE: Record<string, string> = {
  'package.json': '{ "name": "cjs-fixture", "private": true, "main": "lib/index.js" }\n',
  'lib/index.js': LIB,
  'lib/index.d.ts': 'export declare function one(): number;\nexport declare function two(): number;\n',
  'test/one.test.js':
    "'use strict';\nconst assert = require('node:assert');\nconst lib = require('../lib');\nassert.equal(lib.one(), 1);\n",
  'test/two.test.js':
    "'use strict';\nconst assert = require('node:assert');\nconst lib = require('../lib');\nassert.equal(lib.two(), 2);\n",
};

function kg(args: string[], cwd: string, state: string) {
  const r = spawnSync(process.execPath, [CLI, 'tests', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, XDG_RUNTIME_DIR: state, CI: 'true' },
    maxBuffer: 1 << 26,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('kg tests on a CommonJS package (ADR 196)', () => {
  let repo: string;
  let state: string;
  before(() => {
    repo = tempDir('kg-tests-cjs-repo-');
    state = tempDir('kg-tests-cjs-state-');
    git(repo, 'init', '--quiet', '--initial-branch', 'main');
    writeTree(repo, BASE);
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'base');
    git(repo, 'checkout', '--quiet', '-b', 'body');
    writeTree(repo, { 'lib/index.js': LIB.replace('return 2;', "throw new Error('broken');") });
    git(repo, 'commit', '--quiet', '-am', 'break two');
    git(repo, 'checkout', '--quiet', '-b', 'top', 'main');
    writeTree(repo, { 'lib/index.js': LIB.replace("'loaded'", "'changed'") });
    git(repo, 'commit', '--quiet', '-am', 'change the top-level code');
    git(repo, 'checkout', '--quiet', 'main');
  });
  after(removeTempDirs);

  it('a change inside an exported function: only the test that calls it, from its exported name', () => {
    const r = kg(['main', 'body'], repo, state);
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout);
    assert.deepEqual(answer.changed.symbols, [{ id: 'file:lib/index.js', change: 'modified' }]);
    assert.deepEqual(answer.tests.proven, []);
    assert.deepEqual(answer.tests.guessed, [
      {
        file: 'test/two.test.js',
        change: 'cjs:lib/index.js#module.exports.two',
        path: ['cjs:lib/index.js#module.exports.two', 'sym:lib/index.d.ts#two', 'file:test/two.test.js'],
        steps: [
          { relation: 'describes', confidence: 'CANDIDATE', guess: 'declaration-file' },
          { relation: 'calls', confidence: 'EXACT' },
        ],
      },
    ]);
    assert.deepEqual(answer.tests.holes, []);
    const list = kg(['main', 'body', '--format', 'list'], repo, state);
    assert.equal(list.stdout, 'test/two.test.js\n');
  });

  it("a change of the file's top-level code: every test that loads it", () => {
    const list = kg(['main', 'top', '--format', 'list'], repo, state);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout, 'test/one.test.js\ntest/two.test.js\n');
  });
});
