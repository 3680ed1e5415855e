// `kg tests` on a real git repository built commit by commit (ADR 165): `feature` changes a
// function that two test files reach through chains of calls and a reference (a callback), a method
// only a name match reaches, and a handler that only a module's top-level code names; `removal`
// deletes a function a test still calls (walked in BASE's graph). One test file of each runner's
// convention, one named by package.json's jest.testMatch, and test files nothing reaches. Every
// expected selection, tier and chain below is read off the fixture's source, not off an answer.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { git } from '../helpers/diff-repo';

const BASE: Record<string, string> = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022" }, "include": ["src", "test", "e2e", "checks"] }\n',
  'package.json': '{ "name": "tests-fixture", "private": true, "jest": { "testMatch": ["<rootDir>/checks/**/*.ts"] } }\n',
  'src/math.ts': [
    'export function double(n: number): number {',
    '  return n * 2;',
    '}',
    '',
    'export function triple(n: number): number {',
    '  return n * 3;',
    '}',
    '',
  ].join('\n'),
  // A reference: `double` is passed as a callback, never called here.
  'src/pipeline.ts': "import { double } from './math';\n\nexport function run(xs: number[]): number[] {\n  return xs.map(double);\n}\n",
  'src/report.ts': "import { run } from './pipeline';\n\nexport function summary(xs: number[]): string {\n  return run(xs).join(',');\n}\n",
  'src/compute.ts': "import { double } from './math';\n\nexport function twice(n: number): number {\n  return double(n);\n}\n",
  'src/normaliser.ts': 'export class Normaliser {\n  normalise(s: string): string {\n    return s.trim();\n  }\n}\n',
  'src/greeting.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'src/handlers.ts': "export function onPing(): string {\n  return 'pong';\n}\n",
  // The module's top-level code names the handler; whoever imports the module may run it.
  'src/registry.ts': [
    "import { onPing } from './handlers';",
    '',
    'export const routes = new Map<string, () => string>();',
    "routes.set('ping', onPing);",
    '',
  ].join('\n'),
  'src/globals.d.ts': [
    'declare function test(name: string, fn: () => void): void;',
    'declare function it(name: string, fn: () => void): void;',
    'declare function describe(name: string, fn: () => void): void;',
    'declare function expect(v: unknown): { toBe(x: unknown): void };',
    '',
  ].join('\n'),
  // node:test, by name: summary → run → (reference) double.
  'test/report.test.ts': [
    "import { test } from 'node:test';",
    "import * as assert from 'node:assert/strict';",
    "import { summary } from '../src/report';",
    '',
    "test('summary', () => {",
    "  assert.equal(summary([1, 2]), '2,4');",
    '});',
    '',
  ].join('\n'),
  // Jest, by folder: twice → double.
  'src/__tests__/compute.ts': "import { twice } from '../compute';\n\nit('twice', () => {\n  expect(twice(2)).toBe(4);\n});\n",
  // Vitest, by name: reaches greet only.
  'src/greeting.spec.ts': "import { greet } from './greeting';\n\nit('greets', () => {\n  expect(greet('a')).toBe('hello a');\n});\n",
  // Mocha, by folder (test/): reaches triple only.
  'test/format-suite.ts': [
    "import { triple } from '../src/math';",
    '',
    "describe('triple', () => {",
    "  it('triples', () => {",
    "    if (triple(1) !== 3) throw new Error('no');",
    '  });',
    '});',
    '',
  ].join('\n'),
  // Playwright, by name: an `any` receiver, so the call to `normalise` is only a name match.
  'e2e/guess.spec.ts': [
    'function clean(input: any): string {',
    "  return input.normalise(' x ');",
    '}',
    '',
    "test('cleans', () => {",
    '  clean({ normalise: (s: string) => s });',
    '});',
    '',
  ].join('\n'),
  'test/routes.test.ts': "import { routes } from '../src/registry';\n\ntest('ping', () => {\n  routes.get('ping')?.();\n});\n",
  // package.json's jest.testMatch names it; no convention does.
  'checks/double-check.ts': "import { twice } from '../src/compute';\n\nif (twice(1) !== 2) throw new Error('twice');\n",
  // Under test/, but a fixture: data, not a test, even though it calls double.
  'test/fixtures/sample.ts': "import { double } from '../../src/math';\n\nexport const sample = double(4);\n",
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

interface Selected {
  file: string;
  change: string;
  path: string[];
  steps: Array<{ relation: string; confidence: string; hole?: string }>;
  graph?: string;
}

const step = (relation: string, confidence = 'EXACT', hole?: string) => ({ relation, confidence, ...(hole ? { hole } : {}) });

describe('kg tests on a git repository', () => {
  let repo: string;
  let state: string;
  before(() => {
    repo = tempDir('kg-tests-repo-');
    state = tempDir('kg-tests-state-');
    git(repo, 'init', '--quiet', '--initial-branch', 'main');
    writeTree(repo, BASE);
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'base');
    git(repo, 'checkout', '--quiet', '-b', 'feature');
    writeTree(repo, {
      'src/math.ts': BASE['src/math.ts'].replace('return n * 2;', 'return n + n;'),
      'src/normaliser.ts': BASE['src/normaliser.ts'].replace('return s.trim();', 'return s.trim().toLowerCase();'),
      'src/handlers.ts': BASE['src/handlers.ts'].replace("'pong'", "'PONG'"),
    });
    git(repo, 'commit', '--quiet', '-am', 'change double, normalise and onPing');
    git(repo, 'checkout', '--quiet', '-b', 'removal', 'main');
    writeTree(repo, { 'src/math.ts': BASE['src/math.ts'].split('\n').slice(0, 4).join('\n') });
    git(repo, 'commit', '--quiet', '-am', 'remove triple');
    git(repo, 'checkout', '--quiet', 'main');
  });
  after(removeTempDirs);

  it('selects by tier, with the shortest chain from the change to each test file', () => {
    const r = kg(['main', 'feature'], repo, state);
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout);
    assert.deepEqual(answer.changed.symbols, [
      { id: 'sym:src/handlers.ts#onPing', change: 'modified' },
      { id: 'sym:src/math.ts#double', change: 'modified' },
      { id: 'sym:src/normaliser.ts#Normaliser.normalise', change: 'modified' },
    ]);
    const proven: Selected[] = answer.tests.proven;
    assert.deepEqual(
      proven.map((s) => s.file),
      ['checks/double-check.ts', 'src/__tests__/compute.ts', 'test/report.test.ts'],
    );
    const by = (file: string) => proven.find((s) => s.file === file) as Selected;
    assert.deepEqual(by('test/report.test.ts'), {
      file: 'test/report.test.ts',
      change: 'sym:src/math.ts#double',
      path: ['sym:src/math.ts#double', 'sym:src/pipeline.ts#run', 'sym:src/report.ts#summary', 'file:test/report.test.ts'],
      steps: [step('references'), step('calls'), step('calls')],
    });
    assert.deepEqual(by('src/__tests__/compute.ts').path, [
      'sym:src/math.ts#double',
      'sym:src/compute.ts#twice',
      'file:src/__tests__/compute.ts',
    ]);
    assert.deepEqual(by('src/__tests__/compute.ts').steps, [step('calls'), step('calls')]);
    assert.deepEqual(by('checks/double-check.ts').path, [
      'sym:src/math.ts#double',
      'sym:src/compute.ts#twice',
      'file:checks/double-check.ts',
    ]);
    assert.deepEqual(answer.tests.guessed, [
      {
        file: 'e2e/guess.spec.ts',
        change: 'sym:src/normaliser.ts#Normaliser.normalise',
        path: ['sym:src/normaliser.ts#Normaliser.normalise', 'sym:e2e/guess.spec.ts#clean'],
        steps: [step('calls', 'CANDIDATE')],
      },
    ]);
    assert.deepEqual(answer.tests.holes, [
      {
        file: 'test/routes.test.ts',
        change: 'sym:src/handlers.ts#onPing',
        path: ['sym:src/handlers.ts#onPing', 'file:src/registry.ts', 'file:test/routes.test.ts'],
        steps: [step('references'), step('imports', 'EXACT', 'top-level-use')],
      },
    ]);
    // Not reached: greet's and triple's tests; the fixture under test/ is no test at all.
    assert.deepEqual(answer.totals, { testFiles: 7, changedSymbols: 3, proven: 3, guessed: 1, holes: 1 });
  });

  it('lists proven and guessed tests for a runner, holes on request; the same bytes twice', () => {
    const list = kg(['main', 'feature', '--format', 'list'], repo, state);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stdout, 'checks/double-check.ts\ne2e/guess.spec.ts\nsrc/__tests__/compute.ts\ntest/report.test.ts\n');
    const proven = kg(['main', 'feature', '--format', 'list', '--tier', 'proven'], repo, state);
    assert.equal(proven.stdout, 'checks/double-check.ts\nsrc/__tests__/compute.ts\ntest/report.test.ts\n');
    const all = kg(['main', 'feature', '--format', 'list', '--tier', 'holes'], repo, state);
    assert.ok(all.stdout.split('\n').includes('test/routes.test.ts'));
    for (const format of ['json', 'markdown']) {
      const a = kg(['main', 'feature', '--format', format], repo, state);
      const b = kg(['main', 'feature', '--format', format], repo, state);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(a.stdout, b.stdout, format);
    }
    const md = kg(['main', 'feature', '--format', 'markdown'], repo, state).stdout;
    assert.ok(md.includes('| `test/report.test.ts` | `sym:src/math.ts#double` ←references─ `sym:src/pipeline.ts#run`'), md);
    assert.ok(!md.includes('test/routes.test.ts'), 'holes are left out of the comment unless asked');
  });

  it('a removed function: the tests that called it in BASE, walked in BASE’s graph', () => {
    const r = kg(['main', 'removal'], repo, state);
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout);
    assert.deepEqual(answer.changed.symbols, [{ id: 'sym:src/math.ts#triple', change: 'removed' }]);
    assert.deepEqual(answer.tests.proven, [
      {
        file: 'test/format-suite.ts',
        change: 'sym:src/math.ts#triple',
        path: ['sym:src/math.ts#triple', 'file:test/format-suite.ts'],
        steps: [step('calls')],
        graph: 'base',
      },
    ]);
    assert.deepEqual([answer.tests.guessed, answer.tests.holes], [[], []]);
  });

  it('no sides: the working tree against the merge base; a comment is no change; nothing is written', () => {
    writeTree(repo, {
      'src/greeting.ts': BASE['src/greeting.ts'].replace('hello', 'hi'),
      'src/compute.ts': '// only a comment is new here\n' + BASE['src/compute.ts'],
      'notes.txt': 'a file the graph does not read\n',
    });
    try {
      const r = kg([], repo, state);
      assert.equal(r.code, 0, r.stderr);
      const answer = JSON.parse(r.stdout);
      assert.equal(answer.base.spec, 'merge-base(main, HEAD)');
      assert.equal(answer.head.kind, 'worktree');
      assert.deepEqual(answer.changed, { symbols: [{ id: 'sym:src/greeting.ts#greet', change: 'modified' }], unreadFiles: ['notes.txt'] });
      assert.deepEqual(
        answer.tests.proven.map((s: Selected) => [s.file, s.path]),
        [['src/greeting.spec.ts', ['sym:src/greeting.ts#greet', 'file:src/greeting.spec.ts']]],
      );
      assert.equal(answer.notes.length, 1);
      assert.equal(git(repo, 'status', '--porcelain'), 'M src/compute.ts\n M src/greeting.ts\n?? notes.txt');
      assert.equal(fs.existsSync(path.join(repo, '.knowledge-graph')), false);
    } finally {
      git(repo, 'checkout', '--quiet', '--', '.');
      fs.rmSync(path.join(repo, 'notes.txt'));
    }
  });

  it('refuses a graph file as a side, and an unknown ref, as usage errors', () => {
    fs.writeFileSync(path.join(state, 'g.json'), '{}');
    const file = kg([path.join(state, 'g.json'), 'feature'], repo, state);
    assert.equal(file.code, 2);
    assert.match(file.stderr, /each side is a git ref/);
    const unknown = kg(['main', 'no-such-branch'], repo, state);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown ref/);
  });
});
