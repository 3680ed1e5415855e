// src/host/line-tracking.ts: a declaration's line carried through edits lands on the line that holds
// the declaration in the edited text (ADR 90). Each case applies the edits to a real text, then
// looks for the declaration there, so the expectation is the text's, not the function's.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EditedDeclarations, linesAfterEdits, type LineEdit, type TextChange } from '../../src/host/line-tracking';

const TEXT = [
  "import { a } from './a';", // 0
  '', // 1
  '/** The first. */', // 2
  'export function first(): number {', // 3
  '  return a();', // 4
  '}', // 5
  '', // 6
  'export class Second {', // 7
  '  method(): void {}', // 8
  '}', // 9
].join('\n');

/** Applies edits in order, each to the text the previous one left (as VS Code reports them). */
function apply(text: string, edits: LineEdit[], endCharacters: number[]): string {
  let out = text;
  edits.forEach((e, i) => {
    const lines = out.split('\n');
    const offset = (line: number, ch: number) => lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + ch;
    out = out.slice(0, offset(e.startLine, e.startCharacter)) + e.text + out.slice(offset(e.endLine, endCharacters[i] ?? 0));
  });
  return out;
}

const DECLS = new Map([
  ['first', 3],
  ['Second', 7],
  ['method', 8],
]);

function check(edits: LineEdit[], endCharacters: number[], gone: string[] = []): void {
  const after = apply(TEXT, edits, endCharacters).split('\n');
  const moved = linesAfterEdits(DECLS, edits);
  for (const [name] of DECLS) {
    if (gone.includes(name)) {
      assert.equal(moved.get(name), undefined, `${name} was removed`);
      continue;
    }
    const line = moved.get(name);
    assert.ok(line !== undefined, `${name} is still tracked`);
    assert.match(after[line] ?? '', new RegExp(`\\b${name}\\b`), `${name} on line ${line}: "${after[line]}"`);
  }
}

describe('lines carried through edits', () => {
  it('an inserted line above moves every declaration below it down', () => {
    check([{ startLine: 1, startCharacter: 0, endLine: 1, text: 'const inserted = 1;\n' }], [0]);
  });

  it('Enter typed at the start of a declaration line pushes it down; typed inside it leaves it', () => {
    check([{ startLine: 3, startCharacter: 0, endLine: 3, text: '\n' }], [0]);
    check([{ startLine: 8, startCharacter: 10, endLine: 8, text: '\n' }], [10]);
  });

  it('Enter at the end of the line above, and pasted lines, move what follows', () => {
    check([{ startLine: 2, startCharacter: 17, endLine: 2, text: '\n// one\n// two' }], [17]);
  });

  it('deleted lines above move declarations up; a deleted declaration is dropped', () => {
    check([{ startLine: 0, startCharacter: 0, endLine: 2, text: '' }], [0]);
    check([{ startLine: 2, startCharacter: 0, endLine: 6, text: '' }], [0], ['first']);
  });

  it('a line joined to the one above (backspace at its start) goes with it', () => {
    check([{ startLine: 6, startCharacter: 0, endLine: 7, text: '' }], [0]);
  });

  it('several changes of one event, last first as the editor reports them', () => {
    check(
      [
        { startLine: 8, startCharacter: 0, endLine: 8, text: '  // note\n' },
        { startLine: 1, startCharacter: 0, endLine: 1, text: '\n\n' },
      ],
      [0, 0],
    );
  });
});

// The counts an edit cannot change (docs/adr/0147-an-edit-leaves-the-counts-it-cannot-change.md):
// each case types into a real text at a place found in it, as VS Code reports the change.
describe('which declarations an edit may give other callers', () => {
  const SOURCE = [
    "import { other } from './other';", // 0
    '', // 1
    'export function alpha(): number {', // 2
    '  return other();', // 3
    '}', // 4
    '', // 5
    'export function beta(): number {', // 6
    '  return alpha();', // 7
    '}', // 8
    '', // 9
    'export class Gamma extends Base {', // 10
    '  run(): void {}', // 11
    '}', // 12
  ].join('\n');
  const DECLARED = [
    { id: 'alpha', line: 2, name: 'alpha', kind: 'function' },
    { id: 'beta', line: 6, name: 'beta', kind: 'function' },
    { id: 'Base', line: 0, name: 'Base', kind: 'class' },
    { id: 'Gamma', line: 10, name: 'Gamma', kind: 'class' },
    { id: 'Gamma.run', line: 11, name: 'run', kind: 'method' },
  ].filter((d) => d.id !== 'Base');

  /** A change replacing `length` characters at the first occurrence of `at` (plus `shift`) with `text`. */
  function change(text: string, at: string, shift: number, length: number, inserted: string): TextChange {
    const offset = text.indexOf(at) + shift;
    assert.ok(offset >= shift, `"${at}" is in the text`);
    const before = text.slice(0, offset);
    const startLine = before.split('\n').length - 1;
    const startCharacter = offset - (before.lastIndexOf('\n') + 1);
    const endLine = startLine + (text.slice(offset, offset + length).split('\n').length - 1);
    return { startLine, startCharacter, endLine, text: inserted, offset, length };
  }

  function typed(steps: Array<[at: string, shift: number, length: number, text: string]>): {
    edits: EditedDeclarations;
    text: string;
  } {
    const edits = new EditedDeclarations(SOURCE, DECLARED, 1);
    let text = SOURCE;
    for (const [at, shift, length, inserted] of steps) {
      const c = change(text, at, shift, length, inserted);
      edits.apply([c]);
      text = text.slice(0, c.offset) + inserted + text.slice(c.offset + length);
    }
    return { edits, text };
  }

  const changedOf = (edits: EditedDeclarations) => DECLARED.filter((d) => edits.changed(d.id)).map((d) => d.id);

  it('typing in one body leaves the other declarations their counts, at the lines they moved to', () => {
    const { edits, text } = typed([
      ['  return other();', 0, 0, '  const x = 1;\n  console.log(x);\n'], // two lines into alpha's body
    ]);
    assert.deepEqual(changedOf(edits), ['alpha']);
    const lines = text.split('\n');
    for (const d of edits.current()) assert.match(lines[d.line], new RegExp(`\\b${d.name}\\b`), `${d.id} on line ${d.line}`);
    assert.equal(edits.positions.get('beta'), 8);
  });

  it('writing a call to a declaration in another body makes that declaration stale too', () => {
    const { edits } = typed([['  return other();', 2, 0, 'beta();\n  ']]);
    assert.deepEqual(changedOf(edits), ['alpha', 'beta']);
  });

  it('erasing a call, or one character of the name it is written with, makes the callee stale', () => {
    assert.deepEqual(changedOf(typed([['alpha();', 0, 8, '1;']]).edits), ['alpha', 'beta']);
    // "alpha()" in beta becomes "alph()": only "a" was erased, but the word it stood in was alpha.
    assert.deepEqual(changedOf(typed([['alpha();', 4, 1, '']]).edits), ['alpha', 'beta']);
  });

  it('a declaration whose own text is edited is stale, and so is one that was deleted', () => {
    assert.deepEqual(changedOf(typed([['run(): void {}', 13, 0, ' this.x = 1; ']]).edits), ['Gamma.run']);
    const { edits } = typed([['export function beta', 0, 'export function beta(): number {\n  return alpha();\n}\n'.length, '']]);
    assert.deepEqual(changedOf(edits), ['alpha', 'beta']);
    assert.equal(edits.positions.has('beta'), false);
  });

  it('Enter typed at the start of a declaration belongs to the code above it', () => {
    const { edits } = typed([['export function beta', 0, 0, '\n']]);
    assert.deepEqual(changedOf(edits), ['alpha']);
    assert.equal(edits.positions.get('beta'), 7);
  });

  it('edits among the imports touch no declaration; super(…) makes every class stale', () => {
    assert.deepEqual(changedOf(typed([["'./other'", 0, 0, "'./other'; // note"]]).edits), []);
    assert.deepEqual(changedOf(typed([['run(): void {}', 13, 0, ' super.run(); ']]).edits), ['Gamma', 'Gamma.run']);
  });
});
