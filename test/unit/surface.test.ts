// A module's surface (ADR 118): which exported names an edit changes, and which exports each
// imported name reaches. Each case states the answer a reader works out from the source.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import type { FileSurface } from '../../src/graph/indexer/facts';
import { collectImports } from '../../src/graph/indexer/compiler/import-refs';
import { shapeAndSurface } from '../../src/graph/indexer/compiler/surface';

function surface(text: string, file = 'a.ts'): FileSurface | undefined {
  const kind = /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true, kind);
  return shapeAndSurface(sf, collectImports(sf, file)).surface;
}

/** The exported names whose hash differs between two versions. */
function changed(before: string, after: string): string[] {
  const a = surface(before)?.exports ?? {};
  const b = surface(after)?.exports ?? {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

const BASE = `import { helper, type Shape } from './lib';
import * as ns from './ns';
type Local = { size: number };
function privateMaker(): Local {
  return { size: helper() };
}
export function typed(): number {
  return helper() + ns.count();
}
export function inferred() {
  return privateMaker();
}
export const shaped: Shape = { size: 1 };
export interface Api {
  go(): void;
}
`;

describe('the surface of a module', () => {
  it('a body behind a written return type changes no name', () => {
    assert.deepEqual(changed(BASE, BASE.replace('return helper() + ns.count();', 'return helper() + ns.count() + 1;')), []);
  });

  it('a private declaration changes the exports made of it, and only those', () => {
    assert.deepEqual(changed(BASE, BASE.replace('type Local = { size: number };', 'type Local = { size: number; more: 1 };')), [
      'inferred',
    ]);
  });

  it('a new export is one name, and the others keep their hashes', () => {
    assert.deepEqual(changed(BASE, BASE + 'export const added = 1;\n'), ['added']);
  });

  it('a statement that declares nothing can change any type: every name', () => {
    assert.deepEqual(changed(BASE, BASE + 'Object.assign(privateMaker, { extra: 1 });\n'), ['Api', 'inferred', 'shaped', 'typed']);
  });

  it('an import pointed elsewhere changes the names made of it (helper sits in a hidden body: none)', () => {
    assert.deepEqual(changed(BASE, BASE.replace("type Shape } from './lib'", "type Shape } from './lib2'")), ['shaped']);
  });

  it('each imported name reaches the exports made of it; a namespace read as ns.member takes its members', () => {
    const s = surface(BASE) as FileSurface;
    assert.deepEqual(s.uses, [
      { ref: 0, name: 'Shape', reaches: ['shaped'] },
      // Only bodies behind written return types mention it: it reaches no export's type.
      { ref: 0, name: 'helper', reaches: [] },
      { ref: 1, name: 'count', reaches: [] },
    ]);
  });

  it('a namespace used whole takes the whole module', () => {
    const s = surface("import * as ns from './ns';\nexport const all = ns;\nexport const one = ns.count;\n") as FileSurface;
    assert.deepEqual(s.uses, [{ ref: 0, name: '*', reaches: ['all', 'one'] }]);
  });

  it('re-exports: a renamed one, a namespace one, and export * passing names on', () => {
    const s = surface(
      "export { a as b } from './x';\nexport * as all from './y';\nexport * from './z';\nexport const own = 1;\n",
    ) as FileSurface;
    assert.deepEqual(Object.keys(s.exports).sort(), ['*', 'all', 'b', 'own']);
    assert.deepEqual(s.uses, [
      { ref: 0, name: 'a', reaches: ['b'] },
      { ref: 1, name: '*', reaches: ['all'] },
      { ref: 2, name: '*', reaches: [], star: true },
    ]);
    // Another `export *` target: every name may change.
    assert.deepEqual(changed("export * from './z';\nexport const own = 1;\n", "export * from './w';\nexport const own = 1;\n"), ['*']);
  });

  it('defaults: a declaration, an expression, and `export { x as default }`', () => {
    assert.ok(Object.hasOwn(surface('export default function () {\n  return 1;\n}\n')?.exports ?? {}, 'default'));
    assert.ok(Object.hasOwn(surface('const x = 1;\nexport default x;\n')?.exports ?? {}, 'default'));
    assert.ok(Object.hasOwn(surface('const x = 1;\nexport { x as default };\n')?.exports ?? {}, 'default'));
    assert.deepEqual(changed('const x = 1;\nexport default x;\n', 'const x = 2;\nexport default x;\n'), ['default']);
  });

  it('a dynamic import reaches every export', () => {
    const s = surface("export async function load() {\n  return import('./lazy');\n}\n") as FileSurface;
    assert.deepEqual(s.uses, [{ ref: 0, name: '*', reaches: '*' }]);
  });

  it('global augmentations are one pseudo-export, apart from the module names', () => {
    const mod = 'export interface Shape {\n  size: number;\n}\ndeclare global {\n  interface Window {\n    kg: number;\n  }\n}\n';
    assert.deepEqual(changed(mod, mod + 'export const more = 1;\n'), ['more']);
    assert.deepEqual(changed(mod, mod.replace('kg: number', 'kg: string')), ['declare global']);
  });

  it('an export named __proto__ is a name like any other', () => {
    assert.deepEqual(Object.keys(surface('const x = 1;\nexport { x as __proto__ };\n')?.exports ?? {}), ['__proto__']);
  });

  it('no surface where names cannot be told apart: JavaScript, export =, export as namespace, a script', () => {
    assert.equal(surface('export function a() {}\n', 'a.js'), undefined);
    assert.equal(surface('const a = 1;\nexport = a;\n'), undefined);
    assert.equal(surface('export const a = 1;\nexport as namespace Lib;\n'), undefined);
    assert.equal(surface('declare function ambient(): void;\n'), undefined);
  });
});
