// The core of `npm run bench:mutation` (ADR 167) on a package small enough to read: three
// functions that tests reach, one nothing reaches, CommonJS as packages on npm write it (one test
// requires the package by `require('..')`, which its tsconfig's Classic resolution cannot place),
// node:test tests run one process each. Each function is broken in a commit; the test files that fail, and
// those `kg tests` selects, are compared with what the source says (not with an answer of kg's).
// Then every symbol `kg unused` lists is deleted alone: neither the compiler nor a test may notice;
// deleting a used function must be noticed by both, so the check can fail.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import * as core from '../../bench/mutation-core';

const PACKAGE: Record<string, string> = {
  // fast-uri's own tsconfig: no module setting, so TypeScript resolves as "Classic", which reads
  // `require('..')` as nothing. Node reads it as the package's main (the unresolved-import guess).
  'tsconfig.json': '{ "compilerOptions": { "allowJs": true, "checkJs": true, "strict": true, "target": "es2015" } }\n',
  'package.json': '{ "name": "mutation-fixture", "version": "1.0.0", "main": "index.js", "scripts": { "test": "node --test" } }\n',
  'lib/math.js': "'use strict'\n\nfunction add (a, b) {\n  return a + b\n}\n\nmodule.exports = { add }\n",
  'index.js': [
    "'use strict'",
    '',
    "const { add } = require('./lib/math')",
    '',
    'function double (n) {',
    '  return add(n, n)',
    '}',
    '',
    'const shout = (s) => s.toUpperCase() + "!"',
    '',
    'function leftover () {',
    "  return 'nothing calls this'",
    '}',
    '',
    'module.exports = { double, shout }',
    '',
  ].join('\n'),
  'test/math.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const { add } = require('../lib/math')",
    '',
    "test('add', () => {",
    '  assert.strictEqual(add(2, 3), 5)',
    '})',
    '',
  ].join('\n'),
  'test/double.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const { double } = require('../index.js')",
    '',
    "test('double', () => {",
    '  assert.strictEqual(double(4), 8)',
    '})',
    '',
  ].join('\n'),
  'test/shout.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const { shout } = require('../index.js')",
    '',
    "test('shout', () => {",
    "  assert.strictEqual(shout('hi'), 'HI!')",
    '})',
    '',
  ].join('\n'),
  'test/api.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const api = require('..')",
    '',
    "test('the API shouts', () => {",
    "  assert.strictEqual(api.shout('a'), 'A!')",
    '})',
    '',
  ].join('\n'),
};

const SUITE = ['test/api.test.js', 'test/double.test.js', 'test/math.test.js', 'test/shout.test.js'];
const RUN: core.RunOptions = { timeoutMs: 20_000, concurrency: 2 };

describe('the mutation harness (bench/mutation-core.ts)', () => {
  let root: string;
  before(() => {
    const source = tempDir('kg-mutation-src-');
    writeTree(source, PACKAGE);
    root = path.join(tempDir('kg-mutation-'), 'repo');
    core.prepareRepository(source, root);
  });
  after(removeTempDirs);

  it('runs the suite: every file passes unchanged', async () => {
    const run = await core.runSuite(root, SUITE, RUN);
    assert.deepEqual(run.failing, []);
  });

  it('finds the functions with a body, arrows included', () => {
    const names = [
      ...core.functionSites('index.js', PACKAGE['index.js']).map((s) => s.name),
      ...core.functionSites('lib/math.js', PACKAGE['lib/math.js']).map((s) => s.name),
    ].sort();
    assert.deepEqual(names, ['add', 'double', 'leftover', 'shout']);
  });

  // ADR 190: the floor of a selection is the tests that execute the body, read off V8's coverage of
  // the unchanged suite; `leftover` is executed by none, `add` through `double` too.
  it('finds the test files that execute each function, by V8 coverage', async () => {
    const sites = [...core.functionSites('index.js', PACKAGE['index.js']), ...core.functionSites('lib/math.js', PACKAGE['lib/math.js'])];
    const executed = await core.executedBy(root, SUITE, sites, RUN);
    assert.deepEqual(Object.fromEntries(sites.map((s, i) => [s.name, executed[i]])), {
      double: ['test/double.test.js'],
      shout: ['test/api.test.js', 'test/shout.test.js'],
      leftover: [],
      add: ['test/double.test.js', 'test/math.test.js'],
    });
  });

  // A missed failing test is run again with the break: whether it fails, and whether it executes
  // the broken body (a test that does not fails for a reason of its own).
  it('runs a test file again with a break, and says whether it failed and executed the body', async () => {
    const text = PACKAGE['index.js'];
    const site = core.functionSites('index.js', text).find((s) => s.name === 'double');
    assert.ok(site);
    fs.writeFileSync(path.join(root, 'index.js'), core.breakFunction(text, site));
    try {
      assert.deepEqual(await core.rerunMissed(root, 'test/double.test.js', site, RUN), { fails: true, executes: true });
      assert.deepEqual(await core.rerunMissed(root, 'test/shout.test.js', site, RUN), { fails: false, executes: false });
    } finally {
      fs.writeFileSync(path.join(root, 'index.js'), text);
    }
  });

  // What fails when each function is broken, read off the tests above; and what must not be selected.
  const cases: Array<{ file: string; name: string; failing: string[]; notSelected: string[]; guessed?: string[] }> = [
    { file: 'lib/math.js', name: 'add', failing: ['test/double.test.js', 'test/math.test.js'], notSelected: ['test/shout.test.js'] },
    { file: 'index.js', name: 'double', failing: ['test/double.test.js'], notSelected: ['test/math.test.js', 'test/shout.test.js'] },
    {
      file: 'index.js',
      name: 'shout',
      failing: ['test/api.test.js', 'test/shout.test.js'],
      notSelected: ['test/double.test.js', 'test/math.test.js'],
      // api.test.js's `api.shout(…)` is an unplaced call named shout from a file whose
      // `require('..')` Node reads as index.js: a guess, not a proof.
      guessed: ['test/api.test.js'],
    },
  ];
  for (const c of cases) {
    it(`breaking ${c.name} fails its tests, and kg tests selects them and not the others`, async () => {
      const text = PACKAGE[c.file];
      const site = core.functionSites(c.file, text).find((s) => s.name === c.name);
      assert.ok(site);
      fs.writeFileSync(path.join(root, c.file), core.breakFunction(text, site));
      core.git(root, ['commit', '-q', '-am', `break ${c.name}`]);
      try {
        const sel = core.kgTests(root, 'HEAD~1', 'HEAD');
        const run = await core.runSuite(root, SUITE, RUN);
        assert.deepEqual(run.failing, c.failing);
        const selected = [...sel.proven, ...sel.guessed];
        for (const f of run.failing) assert.ok(selected.includes(f), `${f} failed but kg tests did not select it: ${JSON.stringify(sel)}`);
        for (const f of c.notSelected) assert.ok(!selected.includes(f), `${f} selected for ${c.name}`);
        for (const f of c.guessed ?? []) assert.ok(sel.guessed.includes(f) && !sel.proven.includes(f), `${f} not guessed`);
      } finally {
        core.git(root, ['reset', '-q', '--hard', 'HEAD~1']);
      }
    });
  }

  it('deletes what kg unused lists without breaking the type-check or a test; deleting a used function breaks both', async () => {
    const graph = core.kgBuild(root);
    const unused = core.kgUnused(root, graph);
    assert.ok(
      unused.some((u) => u.id === 'sym:index.js#leftover'),
      JSON.stringify(unused),
    );
    // `const { add } = require('./lib/math')`: its calls are credited to lib/math.js's add, and
    // deleting the binding breaks index.js (the defect the first run of the harness found).
    assert.ok(!unused.some((u) => u.id === 'sym:index.js#add'), JSON.stringify(unused));
    const files = ['index.js', 'lib/math.js', ...SUITE];
    const check = new core.TypeCheck(root, files);
    const base = check.errors();
    for (const u of unused) {
      const [file, line, column] = u.location.split(':');
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const cut = core.deleteDeclaration(file, text, Number(line), Number(column));
      assert.equal(typeof cut, 'string', `${u.id}: ${JSON.stringify(cut)}`);
      assert.deepEqual(core.newErrors(base, check.errors({ file, text: cut as string })), [], u.id);
      fs.writeFileSync(path.join(root, file), cut as string);
      try {
        assert.deepEqual((await core.runSuite(root, SUITE, RUN)).failing, [], u.id);
      } finally {
        fs.writeFileSync(path.join(root, file), text);
      }
    }
    // `double` is used (exported, tested): deleting it is an error, and index.js no longer loads.
    const cut = core.deleteDeclaration('index.js', PACKAGE['index.js'], 5, 10);
    assert.equal(typeof cut, 'string');
    assert.ok(!(cut as string).includes('function double'));
    assert.notDeepEqual(core.newErrors(base, check.errors({ file: 'index.js', text: cut as string })), []);
    fs.writeFileSync(path.join(root, 'index.js'), cut as string);
    try {
      assert.deepEqual((await core.runSuite(root, SUITE, RUN)).failing, ['test/api.test.js', 'test/double.test.js', 'test/shout.test.js']);
    } finally {
      fs.writeFileSync(path.join(root, 'index.js'), PACKAGE['index.js']);
    }
  });
});

// The shape of avvio 9.3.1 (ADR 172): CommonJS code with a hand-written declaration file that
// package.json names as `types`, so the checker reads the tests' `require('..')` as index.d.ts while
// Node runs index.js; and a method keyed by a `Symbol()`, called as `this[kRun](…)`. No tsconfig.
const DECLARED: Record<string, string> = {
  'package.json': '{ "name": "declared-fixture", "version": "1.0.0", "main": "index.js", "types": "index.d.ts" }\n',
  'lib/keys.js': "'use strict'\nconst kRun = Symbol('run')\nmodule.exports = { kRun }\n",
  'lib/tree.js': [
    "'use strict'",
    "const { kRun } = require('./keys')",
    'class Tree {',
    '  [kRun] (x) {',
    '    return x * 2',
    '  }',
    '  run (x) {',
    '    return this[kRun](x)',
    '  }',
    '}',
    'module.exports = Tree',
    '',
  ].join('\n'),
  'lib/util.js': "'use strict'\nfunction id (x) {\n  return x\n}\nmodule.exports = id\n",
  'index.js': [
    "'use strict'",
    "const Tree = require('./lib/tree')",
    'function Boot () {',
    '  if (!(this instanceof Boot)) return new Boot()',
    '  this.tree = new Tree()',
    '}',
    'Boot.prototype.twice = function (x) {',
    '  return this.tree.run(x)',
    '}',
    'Boot.prototype.name = function () {',
    "  return 'boot'",
    '}',
    'module.exports = Boot',
    '',
  ].join('\n'),
  'index.d.ts': [
    'declare function boot (): boot.Boot',
    'declare namespace boot {',
    '  interface Boot {',
    '    twice (x: number): number',
    '    name (): string',
    '  }',
    '}',
    'export = boot',
    '',
  ].join('\n'),
  'test/twice.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const boot = require('..')",
    "test('twice', () => {",
    '  assert.strictEqual(boot().twice(2), 4)',
    '})',
    '',
  ].join('\n'),
  'test/name.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const boot = require('..')",
    "test('name', () => {",
    "  assert.strictEqual(boot().name(), 'boot')",
    '})',
    '',
  ].join('\n'),
  'test/tree.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const Tree = require('../lib/tree')",
    "test('tree', () => {",
    '  assert.strictEqual(new Tree().run(3), 6)',
    '})',
    '',
  ].join('\n'),
  'test/util.test.js': [
    "'use strict'",
    "const test = require('node:test')",
    "const assert = require('node:assert')",
    "const id = require('../lib/util')",
    "test('id', () => {",
    '  assert.strictEqual(id(1), 1)',
    '})',
    '',
  ].join('\n'),
};

describe('the mutation harness on a package whose tests reach it through its declaration file (ADR 172)', () => {
  const SUITE_D = ['test/name.test.js', 'test/tree.test.js', 'test/twice.test.js', 'test/util.test.js'];
  let root: string;
  before(() => {
    const source = tempDir('kg-mutation-declared-src-');
    writeTree(source, DECLARED);
    root = path.join(tempDir('kg-mutation-declared-'), 'repo');
    core.prepareRepository(source, root);
  });
  after(removeTempDirs);

  // Read off the tests: the line of each function's declaration, what fails, what must not be selected.
  const cases: Array<{ file: string; line: number; failing: string[]; notSelected: string[] }> = [
    // Boot.prototype.name: only the declaration file's users call it (the declaration-file guess).
    { file: 'index.js', line: 10, failing: ['test/name.test.js'], notSelected: ['test/tree.test.js', 'test/util.test.js'] },
    // Tree's [kRun]: called only as this[kRun](x) (the computed-key guess), then through run.
    { file: 'lib/tree.js', line: 4, failing: ['test/tree.test.js', 'test/twice.test.js'], notSelected: ['test/util.test.js'] },
  ];
  for (const c of cases) {
    it(`breaking ${c.file}:${c.line} fails ${c.failing.join(', ')}, and kg tests guesses them`, async () => {
      const text = DECLARED[c.file];
      const site = core.functionSites(c.file, text).find((s) => s.line === c.line);
      assert.ok(site, `no function at ${c.file}:${c.line}`);
      fs.writeFileSync(path.join(root, c.file), core.breakFunction(text, site));
      core.git(root, ['commit', '-q', '-am', `break ${c.file}:${c.line}`]);
      try {
        const sel = core.kgTests(root, 'HEAD~1', 'HEAD');
        const run = await core.runSuite(root, SUITE_D, RUN);
        assert.deepEqual(run.failing, c.failing);
        for (const f of run.failing)
          assert.ok(sel.guessed.includes(f), `${f} failed but kg tests did not guess it: ${JSON.stringify(sel)}`);
        assert.deepEqual(sel.proven, [], 'nothing here is proven: each chain goes through a guess');
        const selected = [...sel.proven, ...sel.guessed];
        for (const f of c.notSelected) assert.ok(!selected.includes(f), `${f} selected for ${c.file}:${c.line}`);
      } finally {
        core.git(root, ['reset', '-q', '--hard', 'HEAD~1']);
      }
    });
  }
});
