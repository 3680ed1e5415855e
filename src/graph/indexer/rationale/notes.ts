// Stamped notes: rationale written in the code (ADR 88). A note is a comment line that starts with
// a header, `WHY(<area>@<stamp>): <text>`, and runs to the next header in the same comment or to
// the comment's end. In TypeScript and JavaScript the comments come from the parsed tree (never
// strings, regular expressions, templates or JSX text); in markdown they are the HTML comments
// outside code (markdown.ts). Each note becomes a `rationale:` node that cites the symbol it sits
// in or directly above (or its file), and the records, files and symbols its text names with the
// rules a decision record's text follows (ADR 41, ADR 42).

import * as ts from 'typescript';
import { fileId } from '../../ids';
import { commentRunAt, descend, enclosingSymbol, type SymbolScope } from './comments';
import { parseMarkdown, type MdCommentLine } from './markdown';
import type { SourceNote } from '../facts';
import { lineAndCharacter } from '../syntax/declaration-positions';
// Persisted per-file facts live below the compiler (../facts.ts); re-exported for this side's users.
export type { SourceNote } from '../facts';

/**
 * A header at the start of a comment line (after its decoration): `WHY`, in capitals, then
 * `(area@stamp):` with no space inside, then at least one space and some text. The area is a
 * lower-case slug of 1–64 characters (letters, digits, `.`, `_`, `/`, `-`, starting with a letter
 * or digit); the stamp a calendar date, `YYYY-MM-DD` (checked by `isCalendarDate`). Sticky: it is
 * tried only where a line's content starts.
 */
const HEADER = /WHY\(([a-z0-9][a-z0-9._/-]{0,63})@(\d{4}-\d{2}-\d{2})\):[ \t]+\S/y;
/** A cheap pre-check: text without this holds no header. */
const MIGHT_HOLD_NOTE = /WHY\(/;
/** How much of a note's first line the label keeps, and of its text the node keeps (UTF-16 units). */
const NOTE_LABEL_LIMIT = 200;
const NOTE_TEXT_LIMIT = 2000;

/** True for a real date of the proleptic Gregorian calendar written `YYYY-MM-DD`. */
export function isCalendarDate(stamp: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(stamp);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return d <= days;
}

/** The area and stamp of a header at the start of `line`, or undefined when it does not start with one. */
export function parseHeader(line: string): { area: string; stamp: string } | undefined {
  HEADER.lastIndex = 0;
  const m = HEADER.exec(line);
  if (!m || !isCalendarDate(m[2])) return undefined;
  return { area: m[1], stamp: m[2] };
}

/** One line of a comment, decoration and leading whitespace removed, with where its text starts. */
interface NoteLine {
  text: string;
  /** 1-based line and UTF-16 column of `text`'s first character. */
  line: number;
  column: number;
  /** Offset of `text` in the file (TypeScript only; markdown notes do not need it). */
  pos: number;
}

/** `s` cut to `limit` UTF-16 units with an ellipsis, never inside a surrogate pair. */
function bounded(s: string, limit: number): string {
  if (s.length <= limit) return s;
  let end = limit - 1;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end) + '…';
}

/** The notes in one comment's lines: each header to the next header or the comment's end. */
function splitNotes(lines: readonly NoteLine[], anchorOf: (header: NoteLine) => string): Array<Omit<SourceNote, 'index'>> {
  const out: Array<Omit<SourceNote, 'index'>> = [];
  let start = -1;
  let head: { area: string; stamp: string } | undefined;
  const close = (end: number) => {
    if (!head) return;
    const body = lines.slice(start, end);
    while (body.length > 1 && body[body.length - 1].text === '') body.pop();
    const text = body.map((l) => l.text).join('\n');
    const doc = parseMarkdown(text);
    const at = (x: { line: number; column: number }) => ({ line: body[x.line - 1].line, column: body[x.line - 1].column + x.column - 1 });
    out.push({
      area: head.area,
      stamp: head.stamp,
      anchor: anchorOf(body[0]),
      line: body[0].line,
      column: body[0].column,
      label: bounded(body[0].text, NOTE_LABEL_LIMIT),
      text: bounded(text, NOTE_TEXT_LIMIT),
      refs: doc.refs.map((r) => ({ ...r, ...at(r) })),
      mentions: doc.mentions.map((m) => ({ num: m.num, ...at(m) })),
    });
  };
  lines.forEach((l, k) => {
    const h = parseHeader(l.text);
    if (!h) return;
    close(k);
    start = k;
    head = h;
  });
  close(lines.length);
  return out;
}

/** Numbers the notes of one file: `index` counts earlier notes with the same area and stamp. */
function numbered(notes: Array<Omit<SourceNote, 'index'>>): SourceNote[] {
  notes.sort((a, b) => a.line - b.line || a.column - b.column);
  const seen = new Map<string, number>();
  return notes.map((n) => {
    const key = `${n.area}@${n.stamp}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    return { ...n, index };
  });
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** The lines of a comment run, each without its comment decoration and leading whitespace. */
function commentLines(sf: ts.SourceFile, run: readonly ts.CommentRange[]): NoteLine[] {
  const text = sf.text;
  const out: NoteLine[] = [];
  const push = (from: number, to: number, block: boolean) => {
    let p = from;
    while (p < to && (text[p] === ' ' || text[p] === '\t')) p++;
    // A block comment's lines may start with a `*` (JSDoc style); `/**` leaves one too.
    if (block && text[p] === '*' && text[p + 1] !== '/') {
      p++;
      while (p < to && (text[p] === ' ' || text[p] === '\t')) p++;
    }
    const lc = lineAndCharacter(sf, p);
    out.push({ text: text.slice(p, to).replace(/[ \t]+$/, ''), line: lc.line + 1, column: lc.character + 1, pos: p });
  };
  for (const r of run) {
    if (r.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
      push(r.pos + 2, r.end, false);
      continue;
    }
    const end = r.end - r.pos >= 4 && text.startsWith('*/', r.end - 2) ? r.end - 2 : r.end;
    let from = r.pos + 2;
    LINE_BREAK.lastIndex = from;
    for (let m = LINE_BREAK.exec(text); m && m.index < end; m = LINE_BREAK.exec(text)) {
      push(from, m.index, true);
      from = m.index + m[0].length;
    }
    push(from, end, true);
  }
  return out;
}

/** The stamped notes in the comments of a parsed TypeScript or JavaScript file. */
export function sourceNotes(sf: ts.SourceFile, relPath: string, declarations: ReadonlyMap<number, string>): SourceNote[] {
  const text = sf.text;
  if (!MIGHT_HOLD_NOTE.test(text)) return [];
  const notes: Array<Omit<SourceNote, 'index'>> = [];
  const scopes = new Map<ts.Node, SymbolScope | null>();
  const anchorOf = (header: NoteLine) => enclosingSymbol(sf, header.pos, declarations, descend(sf, header.pos), scopes) ?? fileId(relPath);
  for (let at = text.indexOf('WHY('); at >= 0;) {
    const found = descend(sf, at);
    const run = commentRunAt(sf, at, found);
    let next = at + 4;
    if (run) {
      notes.push(...splitNotes(commentLines(sf, run), anchorOf));
      // The whole comment is read: the search goes on after it, so a comment is read once.
      next = run[run.length - 1].end;
    }
    at = text.indexOf('WHY(', next);
  }
  return numbered(notes);
}

/** The stamped notes in a markdown file's HTML comments; `anchorOf` names what a line sits under. */
export function markdownNotes(comments: readonly MdCommentLine[][], anchorOf: (line: number) => string): SourceNote[] {
  const notes: Array<Omit<SourceNote, 'index'>> = [];
  for (const comment of comments) {
    if (!comment.some((l) => l.text.includes('WHY('))) continue;
    const lines = comment.map((l) => {
      const lead = /^[ \t]*/.exec(l.text)?.[0].length ?? 0;
      return { text: l.text.slice(lead).replace(/[ \t]+$/, ''), line: l.line, column: l.offset + lead + 1, pos: -1 };
    });
    notes.push(...splitNotes(lines, (h) => anchorOf(h.line)));
  }
  return numbered(notes);
}
