// A file's shape: what the type checker lets other files see. Edits that cannot change any other
// file's view keep it; every edit that can, changes it.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import { fileShape } from '../../src/graph/indexer/compiler/shape';

function shape(text: string, file = 'a.ts') {
  const kind = file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return fileShape(ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true, kind));
}

const BASE = `import { g } from './g';
export function annotated(n: number): number {
  return g(n) + 1;
}
export function inferred(n: number) {
  return { value: n };
}
export class Box {
  constructor(private n: number) {
    this.n = n * 2;
  }
  get size(): number { return this.n; }
  set size(v: number) { this.n = v; }
  open(): string { return 'x'; }
}
export const arrow = (s: string): string => s.trim();
export let counter = 1;
`;

describe('file shape', () => {
  const base = shape(BASE);

  const same: Array<[string, string]> = [
    ['a comment and blank lines', BASE.replace('export class Box', '// a comment\n\n/** doc */\nexport class Box')],
    ['re-indentation', BASE.replace(/\n {2}/g, '\n\t')],
    ['the body of a function with a written return type', BASE.replace('return g(n) + 1;', 'const k = g(n);\n  return k * 2;')],
    ['a constructor body', BASE.replace('this.n = n * 2;', 'this.n = n;')],
    [
      'a setter body and an annotated getter body',
      BASE.replace('this.n = v;', 'this.n = v + 1;').replace('get size(): number { return this.n; }', 'get size(): number { return 0; }'),
    ],
    ['an annotated arrow body', BASE.replace('s.trim()', 's.toUpperCase()')],
  ];
  for (const [what, text] of same) {
    it(`keeps its shape through ${what}`, () => assert.equal(shape(text).shape, base.shape));
  }

  const different: Array<[string, string]> = [
    ['a renamed export', BASE.replace('export function annotated', 'export function renamed')],
    ['the body of a function whose return type is inferred', BASE.replace('return { value: n };', 'return { value: n, more: true };')],
    ['a changed return type', BASE.replace('open(): string', 'open(): number')],
    ['a new method', BASE.replace("open(): string { return 'x'; }", "open(): string { return 'x'; }\n  close() {}")],
    ['let to const', BASE.replace('export let counter', 'export const counter')],
    ['an initializer', BASE.replace('counter = 1', "counter = 'one'")],
    ['an import', BASE.replace("from './g'", "from './h'")],
    ['a parameter property', BASE.replace('private n: number', 'public n: number')],
  ];
  for (const [what, text] of different) {
    it(`changes its shape with ${what}`, () => assert.notEqual(shape(text).shape, base.shape));
  }

  it('counts every byte of a JavaScript file, comments included (JSDoc types)', () => {
    const js = '/** @returns {number} */\nexport function f() { return 1; }\n';
    assert.notEqual(shape(js, 'a.js').shape, shape(js.replace('{number}', '{string}'), 'a.js').shape);
    assert.equal(shape(js, 'a.js').shape, shape(js, 'a.js').shape);
  });

  it('calls a file global when it declares into the global scope', () => {
    assert.equal(base.global, false);
    assert.equal(shape('function loose() {}\n').global, true, 'a script');
    assert.equal(shape('export {};\ndeclare global { interface Window { x: number } }\n').global, true);
    assert.equal(shape("export {};\ndeclare module 'lib' { export const y: number; }\n").global, true);
    assert.equal(shape('export namespace N { export const z = 1; }\n').global, false);
  });
});
