// The two rules under `kg tests` (ADR 165): which files are tests (the runners' conventions and
// package.json's Jest patterns), and which symbols an edit touched (codeHashes: a symbol's own
// tokens, without comments, white space, its members' code or the file's binding imports).

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildGraph, codeHashes, indexGraph, selectTests, testFileRule } from '../../src/graph';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

describe('test files', () => {
  it("the runners' conventions, and not their fixtures, mocks, snapshots or declaration files", () => {
    const isTest = testFileRule();
    const tests = [
      'src/a.test.ts',
      'src/a.spec.tsx',
      'lib/a.test.mjs',
      'a-test.js',
      'a_test.cjs',
      'test-a.js',
      'test.js',
      'src/__tests__/a.ts',
      'test/a.js',
      'packages/x/tests/deep/b.ts',
      'e2e/login.spec.ts',
    ];
    const not = [
      'src/a.ts',
      'src/latest.ts',
      'src/contest.ts',
      'test/fixtures/a.ts',
      'src/__tests__/__mocks__/a.ts',
      'test/__snapshots__/a.js',
      'src/a.test.d.ts',
      'test/data.json',
      'src/testing/a.ts',
    ];
    assert.deepEqual(
      tests.filter((f) => !isTest(f)),
      [],
    );
    assert.deepEqual(not.filter(isTest), []);
  });

  it("package.json's jest.testMatch globs (extglobs too) and testRegex add files, even under fixtures", () => {
    const isTest = testFileRule({
      globs: ['<rootDir>/checks/**/*.ts', '**/?(*.)+(check|verify).[jt]s?(x)'],
      regexes: ['/fixtures/.*-case\\.js$', '('],
    });
    assert.equal(isTest('checks/a.ts'), true);
    assert.equal(isTest('checks/deep/b.ts'), true);
    assert.equal(isTest('src/a.check.tsx'), true);
    assert.equal(isTest('src/a.verify.js'), true);
    assert.equal(isTest('test/fixtures/one-case.js'), true);
    assert.equal(isTest('src/checks/a.ts'), false);
    assert.equal(isTest('src/a.checker.ts'), false);
  });
});

describe('what an edit touched', () => {
  const before = [
    "import { x } from './x';",
    "import './setup';",
    '/** Doubles. */',
    'export function f(a: number) { return a + 1; }',
    'export class C { m() { return 1; } n = 2; }',
    'export const k = 1, j = () => 2;',
    'register(f);',
    '',
  ].join('\n');

  const changed = (after: string): string[] => {
    const a = codeHashes('src/a.ts', before);
    const b = codeHashes('src/a.ts', after);
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((id) => a[id] !== b[id]).sort();
  };

  it('comments, white space and a new binding import change nothing', () => {
    const after = before
      .replace('/** Doubles. */', '// twice')
      .replace('{ return a + 1; }', '{\n  return a + 1;\n}')
      .replace("import { x } from './x';", "import { x, y } from './x';\nimport type { T } from './t';");
    assert.deepEqual(changed(after), []);
  });

  it("a method's body is the method's, not its class's; a new declaration is only itself", () => {
    assert.deepEqual(changed(before.replace('return 1;', 'return 2;')), ['sym:src/a.ts#C.m']);
    assert.deepEqual(changed(before + 'export const later = 3;\n'), ['sym:src/a.ts#later']);
    // The statement's keywords are both its declarations'.
    assert.deepEqual(changed(before.replace('export const k', 'export let k')), ['sym:src/a.ts#j', 'sym:src/a.ts#k']);
  });

  it('a destructuring binds each name alone: a new name is only itself, a new source is every name', () => {
    const src = "import * as lib from './lib';\nconst { a, b } = lib;\nexport function f() { return a() + b(); }\n";
    const a = codeHashes('src/d.ts', src);
    const diff = (after: string) => {
      const b = codeHashes('src/d.ts', after);
      return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((id) => a[id] !== b[id]).sort();
    };
    assert.deepEqual(diff(src.replace('{ a, b }', '{ a, b, c }')), ['sym:src/d.ts#c']);
    assert.deepEqual(diff(src.replace('= lib;', '= other;')), ['sym:src/d.ts#a', 'sym:src/d.ts#b']);
  });

  it("top-level statements and side-effect imports are the file's own code", () => {
    assert.deepEqual(changed(before.replace('register(f);', 'register(f, true);')), ['file:src/a.ts']);
    assert.deepEqual(changed(before.replace("import './setup';", "import './setup2';")), ['file:src/a.ts']);
  });
});

describe('the walk', () => {
  after(removeTempDirs);

  const select = (files: Record<string, string>, touched: string[]) => {
    const root = tempDir('kg-tests-walk-');
    writeTree(root, { 'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022" } }\n', ...files });
    const load = indexGraph(buildGraph({ root }).graph);
    assert.ok(load.ok);
    const headFiles = new Set(Object.keys(files));
    return selectTests({ head: load.graph, touched, removed: [], isTest: testFileRule(), headFiles });
  };

  it("reaches a method's callers through the interface member it implements, and not a sibling's", () => {
    const s = select(
      {
        'src/shape.ts': 'export interface Shape {\n  area(): number;\n}\n',
        'src/square.ts':
          "import type { Shape } from './shape';\n\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n",
        'src/circle.ts':
          "import type { Shape } from './shape';\n\nexport class Circle implements Shape {\n  area(): number {\n    return 3;\n  }\n}\n",
        'src/total.ts':
          "import type { Shape } from './shape';\n\nexport function total(shapes: Shape[]): number {\n  return shapes.reduce((n, s) => n + s.area(), 0);\n}\n",
        'src/total.test.ts': "import { total } from './total';\n\ntotal([]);\n",
        'src/circle.test.ts': "import { Circle } from './circle';\n\nnew Circle().area();\n",
      },
      ['sym:src/square.ts#Square.area'],
    );
    assert.deepEqual(s.proven, [
      {
        file: 'src/total.test.ts',
        change: 'sym:src/square.ts#Square.area',
        path: ['sym:src/square.ts#Square.area', 'sym:src/shape.ts#Shape.area', 'sym:src/total.ts#total', 'file:src/total.test.ts'],
        steps: [
          { relation: 'dispatch', confidence: 'EXACT' },
          { relation: 'calls', confidence: 'EXACT' },
          { relation: 'calls', confidence: 'EXACT' },
        ],
      },
    ]);
    assert.deepEqual([s.guessed, s.holes], [[], []]);
  });

  it("a barrel's re-export is no top-level use: its importers that use something else are not reached", () => {
    const s = select(
      {
        'src/f.ts': 'export function f(): number {\n  return 1;\n}\n',
        'src/g.ts': 'export function g(): number {\n  return 2;\n}\n',
        'src/index.ts': "export { f } from './f';\nexport { g } from './g';\n",
        'src/f.test.ts': "import { f } from './index';\n\nf();\n",
        'src/g.test.ts': "import { g } from './index';\n\ng();\n",
      },
      ['sym:src/f.ts#f'],
    );
    assert.deepEqual(
      s.proven.map((t) => [t.file, t.path]),
      [['src/f.test.ts', ['sym:src/f.ts#f', 'file:src/f.test.ts']]],
    );
    assert.deepEqual([s.guessed, s.holes], [[], []]);
  });

  it('an unplaced call carrying the name is a hole, never proof', () => {
    const s = select(
      {
        // Eleven functions of one name: more than a site's ten guesses (ADR 6), so no guess at all.
        ...Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`src/reset${i}.ts`, 'export function resetAll(): void {}\n'])),
        // No import: the call names a function the checker finds no declaration of.
        'test/reset.test.js': 'resetAll();\n',
      },
      ['sym:src/reset3.ts#resetAll'],
    );
    assert.deepEqual([s.proven, s.guessed], [[], []]);
    assert.deepEqual(
      s.holes.map((t) => [t.file, t.path, t.steps]),
      [
        [
          'test/reset.test.js',
          ['sym:src/reset3.ts#resetAll', 'file:test/reset.test.js'],
          [{ relation: 'calls', confidence: 'UNRESOLVED', hole: 'unresolved-named' }],
        ],
      ],
    );
  });
});

describe('the declaration-file guess (ADR 172)', () => {
  after(removeTempDirs);

  // A package as avvio is published: CommonJS code, the declaration file its package.json names as
  // `types`, and tests that `require('..')`, which the checker reads as the declaration file.
  const avvioLike = {
    'package.json': '{ "name": "boot", "main": "index.js", "types": "index.d.ts" }\n',
    'index.js': [
      "'use strict'",
      'function Boot () {',
      '  if (!(this instanceof Boot)) return new Boot()',
      '}',
      'Boot.prototype.use = function (plugin) {',
      '  plugin(this)',
      '  return track(this)',
      '}',
      'function track (app) {',
      '  return app',
      '}',
      'module.exports = Boot',
      '',
    ].join('\n'),
    'index.d.ts': [
      'declare function boot (): boot.App',
      'declare namespace boot {',
      '  interface App {',
      '    use (plugin: (app: App) => void): App',
      '  }',
      '}',
      'export = boot',
      '',
    ].join('\n'),
    'lib/util.js': "'use strict'\nfunction util () {\n  return 1\n}\nmodule.exports = util\n",
    'test/use.test.js': "'use strict'\nconst boot = require('..')\nboot().use(() => {})\n",
    'test/util.test.js': "'use strict'\nconst util = require('../lib/util')\nutil()\n",
  };

  const select = (files: Record<string, string>, touched: string[]) => {
    const root = tempDir('kg-tests-declaration-');
    writeTree(root, files);
    const load = indexGraph(buildGraph({ root }).graph);
    assert.ok(load.ok);
    return selectTests({ head: load.graph, touched, removed: [], isTest: testFileRule(), headFiles: new Set(Object.keys(files)) });
  };

  it('a change to the JavaScript reaches the tests that call its declaration file, as a guess and never proof', () => {
    for (const change of ['file:index.js', 'sym:index.js#track']) {
      const s = select(avvioLike, [change]);
      assert.deepEqual(s.proven, [], change);
      assert.deepEqual(
        s.guessed.map((t) => [t.file, t.steps.find((x) => x.guess === 'declaration-file')]),
        [['test/use.test.js', { relation: 'describes', confidence: 'CANDIDATE', guess: 'declaration-file' }]],
        change,
      );
      const chain = s.guessed[0].path;
      assert.equal(chain[0], change);
      // The file's own code reaches the declaration file; `track`, called by the method
      // `Boot.prototype.use`, its member of the same name (ADR 188).
      assert.ok(chain.includes(change === 'file:index.js' ? 'file:index.d.ts' : 'sym:index.d.ts#boot.App.use'), chain.join(' → '));
      assert.deepEqual(s.holes, [], change);
    }
  });

  it('`C.prototype.m = function` is a method: an edit in it touches it alone, and reaches the tests of its declared member, as a guess (ADR 188)', () => {
    const files = {
      ...avvioLike,
      'index.js': (avvioLike['index.js'] as string).replace(
        'module.exports = Boot',
        'Boot.prototype.close = function () {\n  return track(null)\n}\nmodule.exports = Boot',
      ),
      'index.d.ts': (avvioLike['index.d.ts'] as string).replace('    use (', '    close (): unknown\n    use ('),
      'test/close.test.js': "'use strict'\nconst boot = require('..')\nboot().close()\n",
    };
    const before = codeHashes('index.js', files['index.js']);
    const after = codeHashes('index.js', files['index.js'].replace('return track(null)', 'return track(1)'));
    const touched = Object.keys(after).filter((id) => before[id] !== after[id]);
    assert.deepEqual(touched, ['sym:index.js#Boot.close']);
    const s = select(files, touched);
    assert.deepEqual(s.proven, []);
    assert.deepEqual(
      s.guessed.map((t) => [t.file, t.path]),
      [['test/close.test.js', ['sym:index.js#Boot.close', 'sym:index.d.ts#boot.App.close', 'file:test/close.test.js']]],
    );
    assert.deepEqual(s.holes, []);
    // What both methods call reaches both tests.
    assert.deepEqual(
      select(files, ['sym:index.js#track']).guessed.map((t) => t.file),
      ['test/close.test.js', 'test/use.test.js'],
    );
  });

  it('a JavaScript file no declaration file describes is not linked, and the declaration file alone is proven', () => {
    assert.deepEqual(select(avvioLike, ['sym:lib/util.js#util']).guessed, []);
    const s = select(avvioLike, ['sym:index.d.ts#boot']);
    assert.deepEqual(
      s.proven.map((t) => t.file),
      ['test/use.test.js'],
    );
    assert.deepEqual(s.guessed, []);
  });
});

describe('a computed key (ADR 172)', () => {
  after(removeTempDirs);

  it("`this[k]()` reaches the member `[k]` as a guess when both name the same key's declaration, else a hole", () => {
    const files = {
      'lib/keys.js': "'use strict'\nconst kRun = Symbol('run')\nmodule.exports = { kRun }\n",
      'lib/tree.js': [
        "'use strict'",
        "const { kRun } = require('./keys')",
        'class Tree {',
        '  [kRun] () {',
        '    return 1',
        '  }',
        '  go () {',
        '    return this[kRun]()',
        '  }',
        '}',
        'module.exports = Tree',
        '',
      ].join('\n'),
      // Another key of the same name: its computed call is no evidence for Tree's member.
      'lib/other.js': "'use strict'\nconst kRun = Symbol('other')\nfunction other (o) {\n  return o[kRun]()\n}\nmodule.exports = other\n",
      'test/tree.test.js': "'use strict'\nconst Tree = require('../lib/tree')\nnew Tree().go()\n",
      'test/other.test.js': "'use strict'\nconst other = require('../lib/other')\nother({})\n",
    };
    const root = tempDir('kg-tests-computed-');
    writeTree(root, files);
    const load = indexGraph(buildGraph({ root }).graph);
    assert.ok(load.ok);
    const s = selectTests({
      head: load.graph,
      touched: ['sym:lib/tree.js#Tree.[kRun]'],
      removed: [],
      isTest: testFileRule(),
      headFiles: new Set(Object.keys(files)),
    });
    assert.deepEqual(s.proven, []);
    assert.deepEqual(
      s.guessed.map((t) => [t.file, t.path.slice(0, 2), t.steps[0]]),
      [
        [
          'test/tree.test.js',
          ['sym:lib/tree.js#Tree.[kRun]', 'sym:lib/tree.js#Tree.go'],
          { relation: 'calls', confidence: 'CANDIDATE', guess: 'computed-key' },
        ],
      ],
    );
    assert.deepEqual(
      s.holes.map((t) => [t.file, t.steps[0]]),
      [['test/other.test.js', { relation: 'calls', confidence: 'UNRESOLVED', hole: 'unresolved-named' }]],
    );
  });
});
