// The two rules under `kg tests` (ADR 165): which files are tests (the runners' conventions and
// package.json's Jest patterns), and which symbols an edit touched (codeHashes: a symbol's own
// tokens, without comments, white space, its members' code or the file's binding imports).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeHashes, testFileRule } from '../../src/graph';

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
    assert.deepEqual(changed(before.replace('export const k', 'export let k')), ['sym:src/a.ts#k']);
  });

  it("top-level statements and side-effect imports are the file's own code", () => {
    assert.deepEqual(changed(before.replace('register(f);', 'register(f, true);')), ['file:src/a.ts']);
    assert.deepEqual(changed(before.replace("import './setup';", "import './setup2';")), ['file:src/a.ts']);
  });
});
