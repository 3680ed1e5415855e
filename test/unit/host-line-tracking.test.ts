// src/host/line-tracking.ts: a declaration's line carried through edits lands on the line that holds
// the declaration in the edited text (ADR 90). Each case applies the edits to a real text, then
// looks for the declaration there, so the expectation is the text's, not the function's.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linesAfterEdits, type LineEdit } from '../../src/host/line-tracking';

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
