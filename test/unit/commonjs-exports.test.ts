// What `kg tests` reads from a CommonJS file's text (ADR 196): the top-level statements that put a
// value under `module.exports` (commonJsExports), which exported functions an edit touched when
// nothing else of the file's own code changed (changedExports), and the walk that starts from
// those functions by their exported names instead of from the file's loading (selectTests).

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildGraph, changedExports, codeHashes, commonJsExports, indexGraph, selectTests, testFileRule } from '../../src/graph';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const LIB = [
  "'use strict';",
  "var path = require('path');",
  '',
  'var helper = function (x) {',
  '  return path.join(x, "a");',
  '};',
  '',
  'module.exports.one = function one(x) {',
  '  return helper(x);',
  '};',
  '',
  'module.exports.two = function (x) {',
  '  return x + 2;',
  '};',
  '',
  "process.env.LOADED = 'yes';",
  '',
].join('\n');

describe('commonJsExports', () => {
  it('reads each binding, its value and where the names are', () => {
    const cj = commonJsExports('lib/index.js', LIB);
    assert.ok(cj);
    assert.deepEqual(
      cj.bindings.map((b) => [b.path, b.value, b.from, b.to]),
      [
        [['one'], 'function', [8, 1], [10, 2]],
        [['two'], 'function', [12, 1], [14, 2]],
      ],
    );
    // `helper` is named in its own declaration (the graph's node, not the file's code) and in `one`.
    assert.deepEqual(cj.uses.helper, [[9, 10, 0]]);
    assert.deepEqual(cj.requires, [{ specifier: 'path', recognized: true, name: 'path', membersOnly: true }]);
  });

  it('`module.exports = name`, `name.x = require()` and a required name re-exported', () => {
    const text = "var a = require('./lib/a');\na.sync = require('./lib/sync');\nmodule.exports = a;\n";
    const cj = commonJsExports('index.js', text);
    assert.ok(cj);
    assert.deepEqual(
      cj.bindings.map((b) => [b.path, b.value, b.specifier]),
      [
        [['sync'], 'require', './lib/sync'],
        [[], 'identifier', './lib/a'],
      ],
    );
    assert.deepEqual(cj.requires, [
      { specifier: './lib/a', recognized: true, name: 'a' },
      { specifier: './lib/sync', recognized: true },
    ]);
  });

  it('a required module used whole, or required where it is not read, is not recognized (called or a member read, it is)', () => {
    const cj = commonJsExports(
      't.js',
      "var a = require('./a');\nvar b = require('./b');\nvar d = require('./d');\nvar e = require('./e');\nvar E = require('./errors');\nb.x();\nd();\nthrow new E();\ne.call(null);\nrun(a);\nfunction f() { return require('./c'); }\n",
    );
    assert.ok(cj);
    assert.deepEqual(cj.requires, [
      { specifier: './a', recognized: false, name: 'a' },
      { specifier: './b', recognized: true, name: 'b', membersOnly: true },
      { specifier: './d', recognized: true, name: 'd' },
      { specifier: './e', recognized: false, name: 'e' },
      { specifier: './errors', recognized: true, name: 'E' },
      { specifier: './c', recognized: false },
    ]);
  });

  it('an object literal of plain keys is a binding per key; any other literal is one value (ADR 198)', () => {
    const text = [
      "var assert = require('node:assert');",
      'function HostStorage() {',
      '  return {};',
      '}',
      'function compileTree() {}',
      'module.exports = {',
      "  name: 'host',",
      '  storage: HostStorage,',
      '  compileTree,',
      "  parse: require('./parse'),",
      '  validate(value) {',
      '    assert(value);',
      '  },',
      '};',
      '',
    ].join('\n');
    const cj = commonJsExports('lib/host.js', text);
    assert.ok(cj);
    assert.deepEqual(
      cj.bindings.map((b) => [b.path, b.value, b.name ?? b.specifier ?? null, b.from, b.to]),
      [
        [['name'], 'other', null, [7, 3], [7, 14]],
        [['storage'], 'identifier', 'HostStorage', [8, 3], [8, 22]],
        [['compileTree'], 'identifier', 'compileTree', [9, 3], [9, 13]],
        [['parse'], 'require', './parse', [10, 3], [10, 27]],
        [['validate'], 'function', null, [11, 3], [13, 3]],
      ],
    );
    // Each name is placed in the member that holds it.
    assert.deepEqual(cj.uses.HostStorage, [[8, 12, 1]]);
    assert.deepEqual(cj.uses.compileTree, [[9, 3, 2]]);
    assert.deepEqual(cj.uses.assert, [[12, 5, 4]]);
    // A spread, a getter or a computed key: the literal is one value, as before.
    for (const literal of ['{ ...base, a: f }', '{ get a() { return f; } }', '{ [k]: f }', '{ a: f, a: g }', '{}'])
      assert.deepEqual(
        commonJsExports('a.js', `var base = {}, k = 'a';\nfunction f() {}\nfunction g() {}\nmodule.exports = ${literal};\n`)?.bindings.map(
          (b) => [b.path, b.value],
        ),
        [[[], 'other']],
        literal,
      );
    // `exports.x = { … }` gives paths under x.
    assert.deepEqual(
      commonJsExports('a.js', 'function f() {}\nexports.api = { f, g: function () {} };\n')?.bindings.map((b) => [b.path, b.value]),
      [
        [['api', 'f'], 'identifier'],
        [['api', 'g'], 'function'],
      ],
    );
  });

  it("a declaration file's `export =`", () => {
    assert.deepEqual(commonJsExports('index.d.ts', 'declare function r(): void;\nexport = r;\n')?.exportAssigned, 'r');
    assert.equal(commonJsExports('index.d.ts', 'export declare function r(): void;\n')?.exportAssigned, undefined);
  });

  it('undefined when the code reads what it exports otherwise', () => {
    const unread = {
      'module.exports read': 'module.exports.a = function () {};\nmodule.exports.b = function () { return module.exports.a(); };\n',
      'exports read': 'exports.a = function () {};\nvar e = exports;\n',
      'this in an exported function': 'exports.a = function () {};\nexports.b = function () { return this.a(); };\n',
      'module passed': 'module.exports.a = function () {};\nif (require.main === module) run();\n',
      'the exported object named':
        'var api = {};\napi.a = function () {};\nmodule.exports = api;\napi.b = function () { return api.a(); };\n',
      'set twice': 'module.exports = function () {};\nmodule.exports = function () {};\n',
      'exports.x after module.exports =': 'module.exports = function () {};\nexports.x = function () {};\n',
      'module.exports.x before module.exports =': 'module.exports.x = function () {};\nmodule.exports = function () {};\n',
    };
    for (const [what, text] of Object.entries(unread)) assert.equal(commonJsExports('a.js', text), undefined, what);
    // `pkg.exports` and `{ exports: … }` name a member, not the module's exports.
    assert.ok(commonJsExports('a.js', 'module.exports = function (pkg) { return pkg.exports || { exports: 1 }; };\n'));
  });
});

describe('changedExports', () => {
  const edit = (from: string, to: string) => {
    assert.ok(LIB.includes(from), from);
    return LIB.replace(from, to);
  };

  it('an edit only inside an exported function gives its path, and the file changed', () => {
    const after = edit('return x + 2;', 'throw new Error("broken");');
    assert.notEqual(codeHashes('lib/index.js', LIB)['file:lib/index.js'], codeHashes('lib/index.js', after)['file:lib/index.js']);
    assert.deepEqual(changedExports('lib/index.js', LIB, after), [['two']]);
    assert.deepEqual(changedExports('lib/index.js', LIB, edit('return helper(x);', 'return helper(x) + 1;')), [['one']]);
  });

  it('an edit of top-level code too gives undefined', () => {
    const after = edit("process.env.LOADED = 'yes';", "process.env.LOADED = 'no';").replace('return x + 2;', 'return x + 3;');
    assert.equal(changedExports('lib/index.js', LIB, after), undefined);
  });

  it('an export added, removed or no longer a function gives undefined', () => {
    assert.equal(changedExports('lib/index.js', LIB, LIB + 'module.exports.three = function () {};\n'), undefined);
    assert.equal(changedExports('lib/index.js', LIB, edit('module.exports.two = function (x) {\n  return x + 2;\n};\n', '')), undefined);
    assert.equal(
      changedExports(
        'lib/index.js',
        LIB,
        edit('module.exports.two = function (x) {', 'module.exports.two = make(function (x) {').replace('x + 2;\n}', 'x + 2;\n})'),
      ),
      undefined,
    );
  });

  it('an edit inside a method or function of an exported object literal gives its key (ADR 198)', () => {
    const before = [
      'function helper() {}',
      'module.exports = {',
      '  helper,',
      '  validate(value) {',
      '    return value;',
      '  },',
      '  check: (x) => x > 1,',
      '};',
      '',
    ].join('\n');
    assert.deepEqual(changedExports('lib/s.js', before, before.replace('return value;', 'throw new Error();')), [['validate']]);
    assert.deepEqual(changedExports('lib/s.js', before, before.replace('x > 1', 'x > 2')), [['check']]);
    // A method renamed is an export gone and another come: the file's loading.
    assert.equal(changedExports('lib/s.js', before, before.replace('validate(value)', 'validated(value)')), undefined);
    // A member that is no function changed: top-level code, the file's loading.
    assert.equal(changedExports('lib/s.js', before, before.replace('  helper,', '  helper: 1,')), undefined);
  });

  it('a file that reads `exports` elsewhere gives undefined', () => {
    const before = LIB + 'module.exports.all = [exports.one];\n';
    assert.equal(changedExports('lib/index.js', before, before.replace('return x + 2;', 'return x + 3;')), undefined);
  });

  it('a comment-only or unchanged text gives undefined (nothing touched)', () => {
    assert.equal(changedExports('lib/index.js', LIB, LIB), undefined);
  });
});

describe('the walk from an exported function (ADR 196)', () => {
  after(removeTempDirs);
  const files: Record<string, string> = {
    'package.json': '{ "name": "cj", "main": "lib/index.js", "types": "lib/index.d.ts" }\n',
    'lib/index.js': LIB,
    'lib/index.d.ts': 'export declare function one(x: string): string;\nexport declare function two(x: number): number;\n',
    'test/one.test.js': "var lib = require('../lib');\nlib.one('a');\n",
    'test/two.test.js': "var lib = require('../lib');\nlib.two(1);\n",
    'test/all.test.js': "var lib = require('../lib');\nObject.keys(lib).forEach(function (k) { lib[k](1); });\n",
  };
  const root = tempDir('kg-tests-cjs-');
  writeTree(root, files);
  const load = indexGraph(buildGraph({ root }).graph);
  if (!load.ok) throw new Error('the fixture did not index');
  const select = (touchedExports: Array<{ file: string; path: string[] }>, touched: string[] = [], withExports = true) => {
    const s = selectTests({
      head: load.graph,
      touched,
      removed: [],
      isTest: testFileRule(),
      headFiles: new Set(Object.keys(files)),
      touchedExports,
      commonJs: withExports ? (f) => (files[f] === undefined ? undefined : commonJsExports(f, files[f])) : undefined,
      ownPackages: new Set(['cj']),
    });
    return [...s.proven, ...s.guessed].map((t) => t.file).sort();
  };

  it('a changed exported function selects the tests that use its name, and who uses the module whole', () => {
    assert.ok(load.ok);
    assert.deepEqual(select([{ file: 'lib/index.js', path: ['two'] }]), ['test/all.test.js', 'test/two.test.js']);
    assert.deepEqual(select([{ file: 'lib/index.js', path: ['one'] }]), ['test/all.test.js', 'test/one.test.js']);
  });

  it('a function used only inside an exported one selects what that one does', () => {
    assert.deepEqual(select([], ['sym:lib/index.js#helper']), ['test/all.test.js', 'test/one.test.js']);
  });

  it('a file that requires the JavaScript itself, not the declaration file, is its loading', () => {
    const direct: Record<string, string> = {
      'package.json': '{ "name": "cj", "main": "lib/main.js", "types": "types/index.d.ts" }\n',
      'lib/main.js': LIB,
      'types/index.d.ts': 'export declare function one(x: string): string;\nexport declare function two(x: number): number;\n',
      'test/pkg.test.js': "var lib = require('..');\nlib.one('a');\n",
      'test/path.test.js': "var lib = require('../lib/main');\nlib.one('a');\n",
    };
    const at = tempDir('kg-tests-cjs-direct-');
    writeTree(at, direct);
    const g = indexGraph(buildGraph({ root: at }).graph);
    if (!g.ok) throw new Error('the fixture did not index');
    const s = selectTests({
      head: g.graph,
      touched: [],
      removed: [],
      isTest: testFileRule(),
      headFiles: new Set(Object.keys(direct)),
      touchedExports: [{ file: 'lib/main.js', path: ['two'] }],
      commonJs: (f) => (direct[f] === undefined ? undefined : commonJsExports(f, direct[f])),
    });
    assert.deepEqual([...s.proven, ...s.guessed].map((t) => t.file).sort(), ['test/path.test.js']);
  });

  it("a test that reads only members of a declaration file's `export =` function does not run it", () => {
    const files: Record<string, string> = {
      'package.json': '{ "name": "cj", "main": "index.js" }\n',
      'index.js': "var a = require('./lib/a');\na.sync = require('./lib/sync');\nmodule.exports = a;\n",
      'index.d.ts': 'declare function r(x: string): string;\ndeclare namespace r {\n  function sync(x: string): string;\n}\nexport = r;\n',
      'lib/a.js': 'module.exports = function a(x) {\n  return x;\n};\n',
      // Another name than index.js's `a`: the checker credits `a`'s uses to `resolveA`.
      'lib/a.d.ts': 'declare function resolveA(x: string): string;\nexport = resolveA;\n',
      'lib/sync.js': 'module.exports = function s(x) {\n  return x;\n};\n',
      'lib/sync.d.ts': 'declare function s(x: string): string;\nexport = s;\n',
      'test/async.test.js': "var r = require('..');\nr('x');\n",
      'test/sync.test.js': "var r = require('..');\nr.sync('x');\n",
      'test/apply.test.js': "var r = require('..');\nr.apply(null, ['x']);\nr.sync('x');\n",
      'test/own.test.js': "var r = require('..');\nvar again = require('cj');\nr.sync('x');\n[again].forEach(function (f) { f('x'); });\n",
    };
    const at = tempDir('kg-tests-cjs-members-');
    writeTree(at, files);
    const g = indexGraph(buildGraph({ root: at }).graph);
    if (!g.ok) throw new Error('the fixture did not index');
    const run = (ownPackages: ReadonlySet<string> | undefined) => {
      const s = selectTests({
        head: g.graph,
        touched: [],
        removed: [],
        isTest: testFileRule(),
        headFiles: new Set(Object.keys(files)),
        touchedExports: [{ file: 'lib/a.js', path: [] }],
        commonJs: (f) => (files[f] === undefined ? undefined : commonJsExports(f, files[f])),
        ownPackages,
      });
      return [...s.proven, ...s.guessed].map((t) => t.file).sort();
    };
    assert.deepEqual(run(new Set(['cj'])), ['test/apply.test.js', 'test/async.test.js', 'test/own.test.js']);
    // Without the package names, a require by name may be this code: every reader stays.
    assert.deepEqual(run(undefined), ['test/apply.test.js', 'test/async.test.js', 'test/own.test.js', 'test/sync.test.js']);
  });

  it('a function stored under a key of the exported object, in a file without a declaration file, goes on from its loading (ADR 198)', () => {
    const files: Record<string, string> = {
      'package.json': '{ "name": "router", "main": "index.js" }\n',
      'index.js':
        "var Constrainer = require('./lib/constrainer');\nmodule.exports = function router() {\n  return new Constrainer();\n};\n",
      'lib/strategies/host.js':
        "function HostStorage() {\n  return { set: function (h) { return h; } };\n}\nfunction describe() {\n  return 'host';\n}\nmodule.exports = {\n  name: 'host',\n  storage: HostStorage,\n  describe,\n};\n",
      'lib/constrainer.js':
        "var host = require('./strategies/host');\nfunction Constrainer() {\n  this.strategies = { host: host };\n}\nConstrainer.prototype.make = function (k) {\n  return this.strategies[k].storage();\n};\nmodule.exports = Constrainer;\n",
      'test/host.test.js': "var router = require('..');\nrouter().make('host');\n",
      'test/alone.test.js': "var assert = require('node:assert');\nassert.ok(true);\n",
      'test/describe.test.js': "var { describe } = require('../lib/strategies/host');\ndescribe();\n",
    };
    const at = tempDir('kg-tests-cjs-literal-');
    writeTree(at, files);
    const g = indexGraph(buildGraph({ root: at }).graph);
    if (!g.ok) throw new Error('the fixture did not index');
    const run = (withExports: boolean, touched = 'sym:lib/strategies/host.js#HostStorage') =>
      selectTests({
        head: g.graph,
        touched: [touched],
        removed: [],
        isTest: testFileRule(),
        headFiles: new Set(Object.keys(files)),
        commonJs: withExports ? (f) => (files[f] === undefined ? undefined : commonJsExports(f, files[f])) : undefined,
        ownPackages: new Set(['router']),
      });
    const s = run(true);
    assert.deepEqual(s.proven, []);
    assert.deepEqual(
      s.guessed.map((t) => [t.file, t.path.slice(0, 3)]),
      ['test/describe.test.js', 'test/host.test.js'].map((f) => [
        f,
        ['sym:lib/strategies/host.js#HostStorage', 'cjs:lib/strategies/host.js#module.exports.storage', 'file:lib/strategies/host.js'],
      ]),
    );
    assert.equal(s.guessed[0].steps[0].guess, 'commonjs-export');
    // Without the file's exports read, the object literal only names the function: its importers are holes.
    const unread = run(false);
    assert.deepEqual([...unread.proven, ...unread.guessed], []);
    assert.deepEqual(
      unread.holes.map((t) => t.file),
      ['test/describe.test.js', 'test/host.test.js'],
    );
    // Exported under its own name, the checker follows an importer to it: only its caller, proven.
    const own = run(true, 'sym:lib/strategies/host.js#describe');
    assert.deepEqual([own.proven.map((t) => t.file), own.guessed.map((t) => t.file)], [['test/describe.test.js'], []]);
  });

  it("without the files' exports, the file's loading: every test", () => {
    assert.deepEqual(select([{ file: 'lib/index.js', path: ['two'] }], [], false), [
      'test/all.test.js',
      'test/one.test.js',
      'test/two.test.js',
    ]);
    assert.deepEqual(select([], ['file:lib/index.js']), ['test/all.test.js', 'test/one.test.js', 'test/two.test.js']);
  });
});
