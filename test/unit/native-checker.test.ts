// The checker seam as an extension point (ADR 8, 113) and the native checker's pure parts (ADR 114):
// a provider plugged in through the facade's BuildOptions.checker serves or declines projects, a
// backend that throws is replaced for its whole project, and the options TypeScript 7 removed are
// named. The native process itself is exercised in test/integration/native-parity.test.ts.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import {
  buildGraph,
  serializeGraph,
  type CheckerBackend,
  type CheckerProvider,
  type CheckerReport,
  type ProjectCheck,
} from '../../src/graph';
import { nativeBinary, nativeRelease } from '../../src/graph/indexer/compiler/native-api';
import { interopSensitive, nativeOptions, optionsAsJson, removedOptions } from '../../src/graph/indexer/compiler/native-options';
import { FIXTURES } from '../helpers/fixtures';

const fixture = (name: string) => path.join(FIXTURES, name);

/** A provider that answers nothing itself: declines, or hands out a backend that throws. */
function provider(mode: 'decline' | 'throw', seen: ProjectCheck[] = []): CheckerProvider {
  return {
    name: 'test',
    open(check) {
      seen.push(check);
      if (mode === 'decline') return { declined: 'not today' };
      const backend: CheckerBackend = {
        declarationsAt() {
          throw new Error('boom\nsecond line');
        },
      };
      return backend;
    },
    release() {},
  };
}

describe('the checker seam', () => {
  const root = fixture('calls-members');
  const js = serializeGraph(buildGraph({ root }).graph);

  it('a provider that declines: the JavaScript checker serves the project, with the reason', () => {
    const seen: ProjectCheck[] = [];
    const r = buildGraph({ root, checker: provider('decline', seen) });
    const report: CheckerReport = r.checker;
    assert.deepEqual(report, { requested: 'test', served: [], fallbacks: [{ project: 'tsconfig.json', reason: 'not today' }] });
    assert.equal(serializeGraph(r.graph), js);
    assert.equal(seen.length, 1);
    assert.deepEqual(
      seen[0].roots.map((f) => path.relative(seen[0].root, f)),
      seen[0].project.files,
    );
    assert.ok(seen[0].sourceFile(seen[0].roots[0]), 'the builder hands its own parse of a repository file');
    assert.equal(seen[0].sourceFile('/nowhere.ts'), undefined);
  });

  it('a backend that throws is replaced for its whole project, with the first line of its error', () => {
    const r = buildGraph({ root, checker: provider('throw') });
    assert.deepEqual(r.checker.served, []);
    assert.deepEqual(r.checker.fallbacks, [{ project: 'tsconfig.json', reason: 'the test checker failed (boom)' }]);
    assert.equal(serializeGraph(r.graph), js);
  });

  it('no provider: the JavaScript checker, and the report says so', () => {
    assert.deepEqual(buildGraph({ root }).checker, { requested: 'js', served: [], fallbacks: [] });
  });
});

describe('the native checker', () => {
  it('names every option TypeScript 7 removed', () => {
    assert.deepEqual(
      removedOptions({
        target: ts.ScriptTarget.ES5,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        module: ts.ModuleKind.AMD,
        outFile: 'out.js',
        baseUrl: '/r',
        alwaysStrict: false,
      }),
      ['target: ES5', 'moduleResolution: node10', 'module: AMD', 'outFile', 'baseUrl', 'alwaysStrict: false'],
    );
    assert.deepEqual(removedOptions({ target: ts.ScriptTarget.ES3, moduleResolution: ts.ModuleResolutionKind.Classic }), [
      'target: ES3',
      'moduleResolution: classic',
    ]);
    assert.deepEqual(
      removedOptions({
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
      }),
      [],
    );
  });

  it('writes parsed options back as tsconfig JSON (the pinned compiler still has its option table)', () => {
    const json = optionsAsJson({
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.ReactJSX,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      strict: true,
      types: ['*'],
      paths: { '@/*': ['src/*'] },
      configFilePath: '/r/tsconfig.json',
      plugins: [{ name: 'x' }],
      ignoreDeprecations: '6.0',
    });
    assert.deepEqual(json, {
      jsx: 'react-jsx',
      lib: ['es2022', 'dom'],
      module: 'nodenext',
      moduleResolution: 'bundler',
      noEmit: true,
      paths: { '@/*': ['src/*'] },
      strict: true,
      target: 'es2022',
      types: ['*'],
    });
  });

  it('declines esModuleInterop: false only where a default or namespace import of a non-ES module depends on it', () => {
    const root = '/r';
    const files: Record<string, string> = {
      '/r/a.ts': "import * as b from './b';\nimport c from './c';\nexport const x = b.f() + c();\n",
      '/r/b.ts': 'export function f() { return 1; }\n',
      '/r/c.ts': 'export default function c() { return 2; }\n',
      '/r/d.ts': "import e from './e';\nexport const y = e;\n",
      '/r/e.ts': 'const e = 1;\nexport = e;\n',
    };
    const check = (roots: string[]): ProjectCheck => ({
      root,
      project: { configPath: 'tsconfig.json', options: {}, projectReferences: undefined, files: roots.map((f) => f.slice(3)) },
      roots,
      sourceFile: (f) => (files[f] !== undefined ? ts.createSourceFile(f, files[f], ts.ScriptTarget.Latest, true) : undefined),
      host: {
        fileExists: () => false,
        directoryExists: () => false,
        readFile: () => undefined,
        realpath: (f) => f,
        entries: () => undefined,
      },
      resolveImport: (_from, spec) => (spec === 'pkg' ? undefined : `${root}/${spec.slice(2)}.ts`),
    });
    assert.equal(interopSensitive(check(['/r/a.ts', '/r/b.ts', '/r/c.ts'])), undefined);
    assert.equal(interopSensitive(check(['/r/d.ts', '/r/e.ts'])), "d.ts imports './e' as a default or namespace");
  });

  it('hands a removed target over as what TypeScript 6 made of it, its implied options explicit (ADR 191)', () => {
    const text = 'export class A {\n  x = 1;\n}\nconst xs = [1];\nfor (const v of xs) v.toFixed();\nfor (const w of [2]) w.toFixed();\n';
    const check = (options: ts.CompilerOptions, source = text): ProjectCheck => ({
      root: '/r',
      project: { configPath: 'tsconfig.json', options, projectReferences: undefined, files: ['a.ts'] },
      roots: ['/r/a.ts'],
      sourceFile: () => ts.createSourceFile('/r/a.ts', source, ts.ScriptTarget.ES5, true),
      host: {
        fileExists: () => false,
        directoryExists: () => false,
        readFile: () => undefined,
        realpath: (f) => f,
        entries: () => undefined,
      },
      resolveImport: () => undefined,
    });
    // ES5, the library set its default lib.d.ts names, the module and class fields ES5 implied.
    const es5 = nativeOptions(check({ target: ts.ScriptTarget.ES5, downlevelIteration: true }));
    assert.ok('options' in es5);
    assert.deepEqual(optionsAsJson(es5.options), {
      downlevelIteration: true,
      lib: ['es5', 'dom', 'webworker.importscripts', 'scripthost'],
      module: 'commonjs',
      noEmit: true,
      target: 'es6',
      useDefineForClassFields: false,
    });
    // What the tsconfig names stays as named.
    const named = nativeOptions(
      check({ target: ts.ScriptTarget.ES5, module: ts.ModuleKind.ESNext, lib: ['lib.es2015.d.ts'], noLib: false }, 'export {};\n'),
    );
    assert.ok('options' in named);
    assert.deepEqual(named.options.lib, ['lib.es2015.d.ts']);
    assert.equal(named.options.module, ts.ModuleKind.ESNext);
    assert.equal(named.adjusted, 'target ES5 (removed in TypeScript 7) raised to ES2015 (module esnext, lib es2015)');
    // TypeScript 6 reads ES3 as its default target: handed over as that, with its default library's set.
    const es3 = nativeOptions(check({ target: ts.ScriptTarget.ES3 }));
    assert.ok('options' in es3);
    assert.equal(es3.options.target, ts.ScriptTarget.ES2025);
    assert.equal(es3.options.useDefineForClassFields, true);
    assert.deepEqual(es3.options.lib, [
      'lib.es2025.d.ts',
      'lib.dom.d.ts',
      'lib.webworker.importscripts.d.ts',
      'lib.scripthost.d.ts',
      'lib.dom.iterable.d.ts',
      'lib.dom.asynciterable.d.ts',
    ]);
    // TypeScript 6's lib.dom.d.ts brings Iterable in: without downlevelIteration, TypeScript 7 is
    // to be asked whether `xs` is an array (an array literal needs no question).
    const asked = nativeOptions(check({ target: ts.ScriptTarget.ES5 }));
    assert.ok('options' in asked);
    assert.deepEqual(asked.iterated, [{ file: '/r/a.ts', position: text.indexOf('xs)'), where: 'a.ts:5 (a for-of)' }]);
    assert.equal(es5.iterated, undefined);
    // What it cannot be asked about (a call's result, a pattern without a value) declines.
    assert.deepEqual(nativeOptions(check({ target: ts.ScriptTarget.ES5 }, 'for (const v of f()) v;\n')), {
      declined: 'TypeScript 7 removed target: ES5, and a.ts has a for-of, which ES5 and ES2015 type differently',
    });
    assert.deepEqual(nativeOptions(check({ target: ts.ScriptTarget.ES5 }, 'for (const [k] of m) k;\n')), {
      declined: 'TypeScript 7 removed target: ES5, and a.ts has an array destructuring, which ES5 and ES2015 type differently',
    });
    // noLib: nothing declares Iterable, so iteration is the same at both targets.
    assert.ok('options' in nativeOptions(check({ target: ts.ScriptTarget.ES5, noLib: true })));
    assert.deepEqual(nativeOptions(check({ target: ts.ScriptTarget.ES5, baseUrl: '/r' })), {
      declined: 'TypeScript 7 removed target: ES5, baseUrl',
    });
  });

  it("finds each release's platform binary, pinned: 7.1 by default (inside its alias), 7.0.2 when KG_NATIVE_TS=7.0", () => {
    const pins = (
      JSON.parse(fs.readFileSync(path.join(FIXTURES, '..', '..', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
    ).devDependencies;
    const b = nativeBinary(nativeRelease({}));
    assert.ok('exe' in b, JSON.stringify(b));
    assert.ok(fs.statSync(b.exe).isFile());
    assert.equal(pins.typescript71, `npm:typescript@${b.version}`);
    // npm nests 7.1's platform package inside typescript71 (7.0.2's holds the top): found there (ADR 180).
    assert.ok(b.exe.includes(`${path.sep}typescript71${path.sep}node_modules${path.sep}`), b.exe);
    const old = nativeBinary(nativeRelease({ KG_NATIVE_TS: '7.0' }));
    assert.ok('exe' in old, JSON.stringify(old));
    assert.equal(pins.typescript7, `npm:typescript@${old.version}`);
    assert.notEqual(old.exe, b.exe);
    assert.deepEqual(nativeRelease({ KG_NATIVE_TS: '7.0.2' }), '7.0');
    const bad = nativeBinary(nativeRelease({ KG_NATIVE_TS: '6' }));
    assert.deepEqual(bad, { missing: "KG_NATIVE_TS is '6', not one of 7.1, 7.0" });
  });
});
