// The project's own compiler semantics (ADR 81): TypeScript 5's defaults, explicitly, for a
// repository written for TypeScript 5 or that does not say; nothing for TypeScript 6.

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import * as ts from 'typescript';
import { buildGraph } from '../../src/graph';
import { nodeFileHost } from '../../src/graph/indexer/files/file-host';
import { repositoryTypeScript, withTypeScript5Semantics } from '../../src/graph/indexer/compiler/semantics';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

after(removeTempDirs);

describe("the project's own compiler semantics", () => {
  it('reads the TypeScript version from the lockfile before package.json', () => {
    const dir = tempDir();
    writeTree(dir, {
      'package.json': JSON.stringify({ devDependencies: { typescript: '^5.0.0' } }),
      'package-lock.json': JSON.stringify({ packages: { 'node_modules/typescript': { version: '6.0.3' } } }),
    });
    assert.deepEqual(repositoryTypeScript(nodeFileHost, dir, dir), { major: 6, from: 'package-lock.json', version: '6.0.3' });
  });

  it('reads the nearest package.json, and says when nothing names TypeScript', () => {
    const dir = tempDir();
    writeTree(dir, { 'package.json': JSON.stringify({ devDependencies: { typescript: '~5.9.2' } }), 'pkg/a/package.json': '{}' });
    assert.deepEqual(repositoryTypeScript(nodeFileHost, dir, dir + '/pkg/a'), { major: 5, from: 'package.json', version: '~5.9.2' });
    const bare = tempDir();
    assert.equal(repositoryTypeScript(nodeFileHost, bare, bare).major, undefined);
  });

  it('passes TypeScript 5 defaults for unset options, maps ES3 and silences deprecations', () => {
    const { options, adjustments } = withTypeScript5Semantics({ target: ts.ScriptTarget.ES3 });
    assert.equal(options.strict, false);
    assert.deepEqual(options.types, ['*']);
    assert.equal(options.target, ts.ScriptTarget.ES5);
    assert.equal(options.module, ts.ModuleKind.CommonJS);
    assert.equal(options.moduleResolution, ts.ModuleResolutionKind.Node10);
    assert.equal(options.esModuleInterop, false);
    assert.equal(options.ignoreDeprecations, '6.0');
    assert.ok(adjustments.includes('target: ES5 (ES3 is removed)'));
  });

  it('keeps what the config sets', () => {
    const set: ts.CompilerOptions = {
      strict: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    };
    const { options, adjustments } = withTypeScript5Semantics(set);
    assert.deepEqual(options, set);
    assert.deepEqual(adjustments, []);
  });

  it('reports the adjustment once per config in the build diagnostics, and none for a TypeScript 6 repository', () => {
    const five = tempDir();
    writeTree(five, {
      'package.json': JSON.stringify({ devDependencies: { typescript: '5.5.4' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { moduleResolution: 'node' } }),
      'a.ts': 'export const a = 1;\n',
    });
    const d5 = buildGraph({ root: five }).graph.diagnostics ?? [];
    assert.equal(
      d5.filter((d) => d.reason.startsWith('TypeScript 5 semantics (typescript 5.5.4 in package.json): strict: false')).length,
      1,
    );
    const six = tempDir();
    writeTree(six, {
      'package.json': JSON.stringify({ devDependencies: { typescript: '^6.0.0' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: {} }),
      'a.ts': 'export const a = 1;\n',
    });
    assert.deepEqual(
      (buildGraph({ root: six }).graph.diagnostics ?? []).filter((d) => d.reason.includes('semantics')),
      [],
    );
  });
});
