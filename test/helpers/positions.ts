// Positions computed from a fixture's own text, so tests never copy numbers from the builder.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES } from './fixtures';

/** 1-based line and UTF-16 column of an occurrence (0-based `occurrence`) of `needle` in a text. */
export function positionInText(text: string, needle: string, occurrence = 0): { line: number; column: number } {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/);
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    let from = 0;
    for (;;) {
      const col = lines[i].indexOf(needle, from);
      if (col < 0) break;
      if (seen++ === occurrence) return { line: i + 1, column: col + 1 };
      from = col + 1;
    }
  }
  throw new Error(`${needle} (occurrence ${occurrence}) not in the text`);
}

/** 1-based line and UTF-16 column of an occurrence of `needle` in a fixture file. */
export function positionIn(fixture: string, file: string, needle: string, occurrence = 0): { line: number; column: number } {
  return positionInText(fs.readFileSync(path.join(FIXTURES, fixture, file), 'utf8'), needle, occurrence);
}
