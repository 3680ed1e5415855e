// What proves a call into a package, and what does not (ADR 107): in-memory packages whose
// declaration map or build configuration is right, and each way of being wrong — every wrong one
// leaves the call UNRESOLVED `external`, counted as before.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildGraph, memoryFileHost, type Graph, type GraphEdge } from '../../src/graph';
import { assertValidGraph } from '../helpers/schema';

const ROOT = '/work/app';
const DTS = 'export declare function f(): void;\n';
/** A declaration map of DTS whose one segment maps `f` (column 24) to line 1, column 0 of its one source. */
const map = (source: string) =>
  JSON.stringify({ version: 3, file: 'index.d.ts', sourceRoot: '', sources: [source], names: [], mappings: 'wBAAA' });

function build(pkg: Record<string, string>): Graph {
  const tree: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'app', private: true }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext' }, include: ['src'] }),
    'src/main.ts': "import { f } from 'lib';\nexport function main(): void {\n  f();\n}\n",
  };
  for (const [k, v] of Object.entries(pkg)) tree[`node_modules/lib/${k}`] = v;
  const { graph } = buildGraph({ root: ROOT, host: memoryFileHost(ROOT, tree) });
  assertValidGraph(graph);
  return graph;
}

const call = (g: Graph): GraphEdge | undefined => g.edges.find((e) => e.relation === 'calls' && e.source === 'sym:src/main.ts#main');
const external = (g: Graph) => {
  assert.equal(call(g), undefined, 'no edge: counted only');
  assert.equal(g.unresolved?.calls?.external, 1);
  assert.equal(g.packages, undefined);
};

const PKG = JSON.stringify({ name: 'lib', version: '1.0.0', types: 'dist/index.d.ts' });

describe('package-qualified calls: what proves them (ADR 107)', () => {
  it('the declaration map placing the name in a source of the package: EXACT_TYPECHECKED', () => {
    const g = build({ 'package.json': PKG, 'dist/index.d.ts': DTS, 'dist/index.d.ts.map': map('../src/index.ts') });
    const e = call(g);
    assert.deepEqual(
      [e?.target, e?.confidence, e?.provenance, e?.resolutionClass],
      ['pkg:lib@1.0.0:src/index.ts#f', 'EXACT', 'TYPESCRIPT_CHECKER', 'EXACT_TYPECHECKED'],
    );
    assert.deepEqual(g.packages, [{ name: 'lib', version: '1.0.0' }]);
    assert.equal(g.unresolved?.calls, undefined);
  });

  it('a map naming a source outside the package, or by URL, or a package without a version proves nothing', () => {
    external(build({ 'package.json': PKG, 'dist/index.d.ts': DTS, 'dist/index.d.ts.map': map('../../../../src/index.ts') }));
    external(build({ 'package.json': PKG, 'dist/index.d.ts': DTS, 'dist/index.d.ts.map': map('webpack:///src/index.ts') }));
    external(build({ 'package.json': PKG, 'dist/index.d.ts': DTS, 'dist/index.d.ts.map': '{ not json' }));
    external(
      build({
        'package.json': JSON.stringify({ name: 'lib', types: 'dist/index.d.ts' }),
        'dist/index.d.ts': DTS,
        'dist/index.d.ts.map': map('../src/index.ts'),
      }),
    );
  });

  const config = (compilerOptions: Record<string, unknown>) => JSON.stringify({ compilerOptions, include: ['src'] });
  const decl = { declaration: true, outDir: 'dist', rootDir: 'src' };

  it('the build configuration mapping the declaration file to a shipped source: EXACT_PACKAGE_MAPPED', () => {
    const g = build({
      'package.json': PKG,
      'dist/index.d.ts': DTS,
      'tsconfig.json': config(decl),
      'src/index.ts': 'export function f() {}\n',
    });
    const e = call(g);
    assert.deepEqual(
      [e?.target, e?.confidence, e?.provenance, e?.resolutionClass],
      ['pkg:lib@1.0.0:src/index.ts#f', 'EXACT', 'TYPESCRIPT_PROJECT_REFERENCE', 'EXACT_PACKAGE_MAPPED'],
    );
  });

  it('a configuration without rootDir, a source not shipped, or types declared outside the output proves nothing', () => {
    const src = { 'src/index.ts': 'export function f() {}\n' };
    external(
      build({ 'package.json': PKG, 'dist/index.d.ts': DTS, 'tsconfig.json': config({ declaration: true, outDir: 'dist' }), ...src }),
    );
    external(build({ 'package.json': PKG, 'dist/index.d.ts': DTS, 'tsconfig.json': config(decl) }));
    external(build({ 'package.json': PKG, 'dist/index.d.ts': DTS, 'tsconfig.json': config({ ...decl, declaration: false }), ...src }));
    external(
      build({
        'package.json': JSON.stringify({ name: 'lib', version: '1.0.0', types: 'types/index.d.ts' }),
        'types/index.d.ts': DTS,
        'dist/index.d.ts': DTS,
        'tsconfig.json': config(decl),
        ...src,
      }),
    );
  });

  it('with neither, the call stays UNRESOLVED external', () => {
    external(build({ 'package.json': PKG, 'dist/index.d.ts': DTS }));
  });
});
