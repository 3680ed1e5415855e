// A small markdown scanner for the rationale layer: headings, link destinations, code spans and
// decision-record mentions, each with its 1-based line and UTF-16 column. It knows the block
// structure that decides what is prose (fenced and indented code, HTML comments, front matter,
// block quotes, list items) and the inline syntax that decides what is a mention — enough to
// never count code as a citation (ADR-42). It is not a renderer: anything it does not recognise
// is read as paragraph text. Linear in the input: no regex or search that can go quadratic.

import type { MdPathRef } from '../facts';
/** A heading: `level` 1–6, `text` its rendered text, the position of that text's first character. */
interface MdHeading {
  level: number;
  text: string;
  line: number;
  column: number;
}

/** A decision-record mention in prose (`ADR-N`, `ADR N`, `adr:N` with N a number). */
interface MdRecordMention {
  num: number;
  line: number;
  column: number;
}

/** One line of an HTML comment's content: the text, its 1-based line, its 0-based offset in that line. */
export interface MdCommentLine {
  text: string;
  line: number;
  offset: number;
}

export interface MdDocument {
  headings: MdHeading[];
  refs: MdPathRef[];
  mentions: MdRecordMention[];
  /**
   * The content of every HTML comment outside code (`<!--` and `-->` excluded), line by line, in
   * document order: block comments (their opener gated by code, their body read to `-->` whatever
   * its indentation) and comments inline in paragraphs and headings. Stamped notes live here (ADR 88).
   */
  comments: MdCommentLine[][];
}

/**
 * How source comments and prose name a decision record: `ADR-N`, `ADR-000N`, `ADR N`, `adr:N`
 * (any case; N is 1–9 digits after leading zeros). The number must end at a non-word character,
 * so a number followed by letters, or one of ten digits or more, is not a mention. Global: use
 * `findRecordMentions`, which resets `lastIndex`.
 */
const RECORD_MENTION = /\bADR[-: ]0*(\d{1,9})(?!\w)/gi;
/** A cheap pre-check: text without this cannot hold a mention. */
export const MIGHT_MENTION_RECORD = /adr[-: ]\d/i;

/** Every record mention in `text`, with its offset. */
export function findRecordMentions(text: string): Array<{ num: number; index: number; length: number }> {
  const out: Array<{ num: number; index: number; length: number }> = [];
  if (!MIGHT_MENTION_RECORD.test(text)) return out;
  RECORD_MENTION.lastIndex = 0;
  for (let m = RECORD_MENTION.exec(text); m; m = RECORD_MENTION.exec(text))
    out.push({ num: Number(m[1]), index: m.index, length: m[0].length });
  return out;
}

/**
 * The anchor slug of a heading's text, the way GitHub renders it: lower case, every character
 * that is not a letter, mark, digit, connector (`_`), hyphen or space removed, spaces → hyphens.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A run of text from one source line, as a piece of a paragraph or heading. */
interface Segment {
  text: string;
  line: number;
  /** 0-based index in the source line where `text` starts. */
  offset: number;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/** Width of leading whitespace, tabs to the next multiple of 4; and how many characters it spans. */
function leadingIndent(s: string): { width: number; chars: number } {
  let width = 0;
  let i = 0;
  for (; i < s.length; i++) {
    if (s[i] === ' ') width++;
    else if (s[i] === '\t') width += 4 - (width % 4);
    else break;
  }
  return { width, chars: i };
}

interface InlineResult {
  /** Code span contents with their offsets. */
  code: Array<{ content: string; at: number }>;
  /** Link destinations (images excluded) with their offsets. */
  links: Array<{ dest: string; at: number }>;
  /** 1 where a character is markup, not rendered text (delimiters, destinations, comments, escapes). */
  markup: Uint8Array;
  /** 1 where a character is inside a code span. */
  inCode: Uint8Array;
  /** Inline HTML comments: the offsets of their content (after `<!--`, before `-->`). */
  comments: Array<{ from: number; to: number }>;
}

/** Offsets of every maximal backtick run, grouped by run length, in increasing order. */
function backtickRuns(s: string): Map<number, number[]> {
  const runs = new Map<number, number[]>();
  for (let i = 0; i < s.length;) {
    if (s.charCodeAt(i) !== 96) {
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s.charCodeAt(j) === 96) j++;
    const list = runs.get(j - i) ?? [];
    list.push(i);
    runs.set(j - i, list);
    i = j;
  }
  return runs;
}

/** The index of the first element of a sorted list that is ≥ `min` (the length when none is). */
function lowerBound(list: readonly number[], min: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A link's `(destination "title")` starting at `open` (the `(`): the destination and the end. */
function linkTail(s: string, open: number, budget: { left: number }): { dest: string; at: number; end: number } | undefined {
  // Real destinations and titles are short (MAX). A successful link consumes what it scanned, so
  // only failed attempts can rescan text; they draw on a budget proportional to the paragraph,
  // which keeps adversarial input (thousands of unclosed `](`) linear. When it runs out, the rest
  // of that paragraph has no links — real documents never get near it.
  const MAX = 1024;
  if (budget.left <= 0) return undefined;
  const result = linkTailWithin(s, open, MAX);
  budget.left -= result.scanned;
  return result.link;
}

/** Skips spaces, tabs and at most one line break. */
function skipLinkSpace(s: string, from: number): number {
  let p = from;
  let newlines = 0;
  while (p < s.length && (s[p] === ' ' || s[p] === '\t' || (s[p] === '\n' && newlines++ === 0))) p++;
  return p;
}

type LinkTail = { link?: { dest: string; at: number; end: number }; scanned: number };

function linkTailWithin(s: string, open: number, MAX: number): LinkTail {
  let p = skipLinkSpace(s, open + 1);
  let dest: string;
  let at: number;
  if (s[p] === '<') {
    at = p + 1;
    let q = at;
    while (q < s.length && q - at < MAX && s[q] !== '>' && s[q] !== '<' && s[q] !== '\n') q += s[q] === '\\' ? 2 : 1;
    if (s[q] !== '>') return { scanned: q - open };
    dest = s.slice(at, q);
    p = q + 1;
  } else {
    at = p;
    let depth = 0;
    while (p < s.length && p - at < MAX) {
      const c = s[p];
      if (c === '\\' && p + 1 < s.length) {
        p += 2;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\n' || s.charCodeAt(p) < 32) break;
      if (c === '(') depth++;
      if (c === ')') {
        if (depth === 0) break;
        depth--;
      }
      p++;
    }
    if (depth !== 0 || p - at >= MAX) return { scanned: p - open };
    dest = s.slice(at, p);
  }
  p = skipLinkSpace(s, p);
  const quote = s[p];
  if (quote === '"' || quote === "'" || quote === '(') {
    const close = quote === '(' ? ')' : quote;
    let q = p + 1;
    while (q < s.length && q - p < MAX && s[q] !== close) q += s[q] === '\\' ? 2 : 1;
    if (s[q] !== close) return { scanned: q - open };
    p = skipLinkSpace(s, q + 1);
  }
  if (s[p] !== ')') return { scanned: p - open };
  return { link: { dest: dest.replace(/\\([!-/:-@[-`{-~])/g, '$1'), at, end: p + 1 }, scanned: 0 };
}

const AUTOLINK = /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/y;

/** The inline structure of one paragraph or heading text (lines joined with `\n`). */
function scanInline(s: string): InlineResult {
  const res: InlineResult = { code: [], links: [], markup: new Uint8Array(s.length), inCode: new Uint8Array(s.length), comments: [] };
  const runs = backtickRuns(s);
  const mark = (from: number, to: number, arr: Uint8Array) => arr.fill(1, from, to);
  const brackets: number[] = [];
  let commentEnd = -2;
  const budget = { left: 4 * s.length + 4096 };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length && ASCII_PUNCTUATION.test(s[i + 1])) {
      res.markup[i] = 1;
      i += 2;
      continue;
    }
    if (c === '`') {
      let j = i;
      while (j < s.length && s[j] === '`') j++;
      const n = j - i;
      const candidates = runs.get(n) ?? [];
      const close = candidates[lowerBound(candidates, j)] ?? -1;
      if (close < 0) {
        i = j;
        continue;
      }
      let from = j;
      let to = close;
      const raw = s.slice(from, to);
      // One space (or line end) on both sides is padding, unless the span is all spaces.
      if (raw.length >= 2 && /^[ \n]/.test(raw) && /[ \n]$/.test(raw) && /[^ \n]/.test(raw)) {
        from++;
        to--;
      }
      mark(i, from, res.markup);
      mark(to, close + n, res.markup);
      mark(from, to, res.inCode);
      res.code.push({ content: s.slice(from, to).replace(/\n/g, ' '), at: from });
      i = close + n;
      continue;
    }
    if (c === '<') {
      if (s.startsWith('<!--', i)) {
        // Searched once per position that can still match, so many unclosed `<!--` stay linear.
        if (commentEnd !== -1 && commentEnd < i + 4) commentEnd = s.indexOf('-->', i + 4);
        const end = commentEnd;
        if (end >= 0) {
          mark(i, end + 3, res.markup);
          res.comments.push({ from: i + 4, to: end });
          i = end + 3;
          continue;
        }
      }
      AUTOLINK.lastIndex = i;
      const auto = AUTOLINK.exec(s);
      if (auto) {
        mark(i, i + auto[0].length, res.markup);
        i += auto[0].length;
        continue;
      }
      i++;
      continue;
    }
    if (c === '[') {
      brackets.push(i);
      i++;
      continue;
    }
    if (c === ']' && brackets.length > 0) {
      const open = brackets.pop() as number;
      if (s[i + 1] === '(') {
        const tail = linkTail(s, i + 1, budget);
        if (tail) {
          const image = open > 0 && s[open - 1] === '!' && res.markup[open - 1] === 0;
          if (image) res.markup[open - 1] = 1;
          else res.links.push({ dest: tail.dest, at: tail.at });
          res.markup[open] = 1;
          mark(i, tail.end, res.markup);
          // A link cannot contain another link: brackets opened inside it are closed with it.
          while (brackets.length > 0 && brackets[brackets.length - 1] > open) brackets.pop();
          i = tail.end;
          continue;
        }
      }
      i++;
      continue;
    }
    i++;
  }
  return res;
}

/** The rendered text of an inline run: markup dropped, emphasis delimiters dropped, spaces collapsed. */
function renderedText(s: string, r: InlineResult): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (r.markup[i]) continue;
    const c = s[i];
    if (!r.inCode[i] && (c === '*' || c === '_')) {
      // `*` is always a delimiter here; `_` only when it is not inside a word (snake_case stays).
      let j = i;
      while (j < s.length && s[j] === c) j++;
      const before = i > 0 ? s[i - 1] : ' ';
      const after = j < s.length ? s[j] : ' ';
      const intraword = /[\p{L}\p{N}]/u.test(before) && /[\p{L}\p{N}]/u.test(after);
      if (c === '*' || !intraword) {
        i = j - 1;
        continue;
      }
    }
    out += c;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Fence state: the fence character and length, and the containers it was opened in. */
interface Fence {
  char: string;
  len: number;
  quote: number;
  base: number;
}

/** A closing fence: at least as many of the opening character, then only spaces. */
function closesFence(t: string, fence: Fence): boolean {
  let n = 0;
  while (n < t.length && t[n] === fence.char) n++;
  return n >= fence.len && t.slice(n).trim() === '';
}

const ATX = /^(#{1,6})(?=[ \t]|$)/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;
const THEMATIC = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^([-+*]|\d{1,9}[.)])([ \t]+|$)/;
// `[label]: destination`; a `[^note]:` footnote is not a link.
const LINK_DEFINITION = /^\[((?!\^)(?:[^\]\\\n]|\\.){1,999})\]:[ \t]*(<[^>\n]*>|\S+)/;

/** Scans a markdown document. Never throws; unknown syntax is paragraph text. */
export function parseMarkdown(text: string): MdDocument {
  const lines = text.split(/\r\n|\r|\n/);
  const scanner = new MarkdownScanner();
  for (let i = frontMatterEnd(lines); i < lines.length; i++) scanner.line(lines[i], i + 1);
  return scanner.finish();
}

/** Where the document's body starts: after YAML front matter, a `---` first line up to the next `---` or `...` line. */
function frontMatterEnd(lines: readonly string[]): number {
  if (lines.length > 1 && /^---[ \t]*$/.test(lines[0])) {
    for (let j = 1; j < lines.length; j++) if (/^(---|\.\.\.)[ \t]*$/.test(lines[j])) return j + 1;
  }
  return 0;
}

/** One line as the block structure reads it: its block quote markers taken off. */
interface BlockLine {
  lineNo: number;
  /** The column after the block quote markers. */
  col: number;
  /** How many block quotes hold it. */
  quote: number;
  /** The line after its block quote markers. */
  content: string;
  blank: boolean;
  /** The content's indentation. */
  ind: { width: number; chars: number };
}

function blockLine(line: string, lineNo: number): BlockLine {
  // Block quote markers: up to three spaces, `>`, an optional space.
  let col = 0;
  let quote = 0;
  for (;;) {
    const m = /^ {0,3}> ?/.exec(line.slice(col, col + 5));
    if (!m) break;
    col += m[0].length;
    quote++;
  }
  const content = line.slice(col);
  return { lineNo, col, quote, content, blank: content.trim() === '', ind: leadingIndent(content) };
}

/**
 * The scan of one document, line by line (ADR 183: a walker object): the open blocks (a fence, a
 * block comment, indented code, the paragraph and the list items it is in) are its state, and each
 * kind of line (one inside an open block, a block's opener, a paragraph's) has its method.
 */
class MarkdownScanner {
  private readonly doc: MdDocument = { headings: [], refs: [], mentions: [], comments: [] };
  private fence: Fence | undefined;
  /** The open block comment's lines, while one is open. */
  private comment: MdCommentLine[] | undefined;
  private inIndentedCode = false;
  private paragraph: Segment[] = [];
  private paragraphQuote = 0;
  private paragraphBase = 0;
  /** The content indentation of each open list item, innermost last. */
  private readonly lists: number[] = [];
  private prevBlank = true;

  finish(): MdDocument {
    this.endParagraph();
    return this.doc;
  }

  line(text: string, lineNo: number): void {
    const l = blockLine(text, lineNo);
    if (this.continuesBlock(l)) return;
    const { lists } = this;
    if (this.paragraph.length > 0 && l.quote !== this.paragraphQuote) this.endParagraph();
    const t = l.content.slice(l.ind.chars);
    const isItem = !l.blank && LIST_ITEM.test(t) && !THEMATIC.test(t);
    // List items end when a line is less indented than their content (after a blank line, or
    // when the line starts a new item); without a blank line it is a lazy paragraph continuation.
    if (!l.blank && (this.prevBlank || this.paragraph.length === 0 || isItem)) {
      while (lists.length > 0 && l.ind.width < lists[lists.length - 1]) lists.pop();
    }
    const base = lists[lists.length - 1] ?? 0;
    if (l.blank) {
      this.endParagraph();
      this.prevBlank = true;
      return;
    }
    this.prevBlank = false;
    const offset = l.col + l.ind.chars;
    if (l.ind.width - base >= 4 && this.paragraph.length === 0) {
      this.inIndentedCode = true;
      return;
    }
    if (this.opensBlock(t, l, base, offset)) return;
    if (isItem) {
      this.listItem(t, l, offset);
      return;
    }
    if (this.paragraph.length === 0) {
      this.paragraphQuote = l.quote;
      this.paragraphBase = base;
    }
    this.paragraph.push({ text: t, line: l.lineNo, offset });
  }

  /** A line inside an open fence, block comment or indented code: true when that block takes it. */
  private continuesBlock(l: BlockLine): boolean {
    const { fence, comment } = this;
    if (fence) {
      if (l.quote < fence.quote || (!l.blank && l.ind.width < fence.base)) {
        this.fence = undefined; // the container that held the fence ended; read this line normally
      } else {
        if (l.ind.width - fence.base <= 3 && closesFence(l.content.slice(l.ind.chars), fence)) this.fence = undefined;
        this.prevBlank = false;
        return true;
      }
    }
    if (comment) {
      // An open comment runs to `-->` whatever the indentation of its lines: only its opener is
      // gated by code.
      const close = l.content.indexOf('-->');
      comment.push({ text: close < 0 ? l.content : l.content.slice(0, close), line: l.lineNo, offset: l.col });
      if (close >= 0) this.comment = undefined;
      this.prevBlank = false;
      return true;
    }
    if (this.inIndentedCode) {
      if (l.blank || l.ind.width >= (this.lists[this.lists.length - 1] ?? 0) + 4) {
        this.prevBlank = l.blank;
        return true;
      }
      this.inIndentedCode = false;
    }
    return false;
  }

  /**
   * A line that opens (or is) a block other than a paragraph or list item: a fence, a block
   * comment, a heading, a thematic break, a link definition. True when it is one.
   */
  private opensBlock(t: string, l: BlockLine, base: number, offset: number): boolean {
    const { doc } = this;
    const { lineNo } = l;
    const fenceOpen = FENCE.exec(t);
    if (fenceOpen && !(fenceOpen[1][0] === '`' && fenceOpen[2].includes('`'))) {
      this.endParagraph();
      this.fence = { char: fenceOpen[1][0], len: fenceOpen[1].length, quote: l.quote, base };
      return true;
    }
    if (t.startsWith('<!--')) {
      this.endParagraph();
      const body = t.slice(4);
      const close = body.indexOf('-->');
      const lines: MdCommentLine[] = [{ text: close < 0 ? body : body.slice(0, close), line: lineNo, offset: offset + 4 }];
      doc.comments.push(lines);
      this.comment = close < 0 ? lines : undefined;
      return true;
    }
    const atx = ATX.exec(t);
    if (atx) {
      this.endParagraph();
      let body = t.slice(atx[1].length);
      const lead = leadingIndent(body).chars;
      body = body
        .slice(lead)
        .replace(/(?:^|[ \t]+)#+[ \t]*$/, '')
        .replace(/[ \t]+$/, '');
      this.heading(atx[1].length, [{ text: body, line: lineNo, offset: offset + atx[1].length + lead }]);
      return true;
    }
    if (this.paragraph.length > 0 && this.paragraphBase === base && /^(=+|-+)[ \t]*$/.test(t)) {
      const segments = this.paragraph;
      this.paragraph = [];
      this.heading(t[0] === '=' ? 1 : 2, segments);
      return true;
    }
    if (THEMATIC.test(t)) {
      this.endParagraph();
      return true;
    }
    if (this.paragraph.length === 0) {
      const def = LINK_DEFINITION.exec(t);
      if (def) {
        const raw = def[2];
        const angle = raw.startsWith('<');
        const at = def[0].length - raw.length + (angle ? 1 : 0);
        doc.refs.push({ kind: 'link', target: angle ? raw.slice(1, -1) : raw, line: lineNo, column: offset + at + 1 });
        return true;
      }
    }
    return false;
  }

  /** A list item's first line: the item is opened, and its text starts a paragraph. */
  private listItem(t: string, l: BlockLine, offset: number): void {
    this.endParagraph();
    const m = LIST_ITEM.exec(t) as RegExpExecArray;
    const spaces = leadingIndent(m[2]).width;
    this.lists.push(l.ind.width + m[1].length + (spaces === 0 || spaces > 4 ? 1 : spaces));
    this.paragraph = [{ text: t.slice(m[0].length), line: l.lineNo, offset: offset + m[0].length }];
    this.paragraphQuote = l.quote;
    this.paragraphBase = -1; // a list item's first line cannot be a setext heading's text here
  }

  private endParagraph(): void {
    if (this.paragraph.length > 0) this.inline(this.paragraph);
    this.paragraph = [];
  }

  private heading(level: number, segments: Segment[]): void {
    const { s, r } = this.inline(segments);
    // The heading's position is where its text starts (after the `#`s), like a declaration's name.
    this.doc.headings.push({ level, text: renderedText(s, r), line: segments[0].line, column: segments[0].offset + 1 });
  }

  /** An inline run (a paragraph's or a heading's lines): its code spans, links, comments and mentions. */
  private inline(segments: Segment[]): { s: string; r: InlineResult } {
    const { doc } = this;
    const starts: number[] = [];
    let s = '';
    for (const seg of segments) {
      if (starts.length > 0) s += '\n';
      starts.push(s.length);
      s += seg.text;
    }
    const r = scanInline(s);
    const where = (at: number) => {
      const k = lowerBound(starts, at + 1) - 1; // the last segment starting at or before `at`
      const seg = segments[k];
      return { line: seg.line, column: seg.offset + (at - starts[k]) + 1 };
    };
    for (const c of r.code) doc.refs.push({ kind: 'code', target: c.content, ...where(c.at) });
    for (const l of r.links) doc.refs.push({ kind: 'link', target: l.dest, ...where(l.at) });
    for (const c of r.comments) {
      const lines: MdCommentLine[] = [];
      for (let from = c.from; ;) {
        const nl = s.indexOf('\n', from);
        const to = nl < 0 || nl > c.to ? c.to : nl;
        const at = where(from);
        lines.push({ text: s.slice(from, to), line: at.line, offset: at.column - 1 });
        if (to === c.to) break;
        from = to + 1;
      }
      doc.comments.push(lines);
    }
    // A mention counts when every character of it is prose (not markup, not code).
    for (const m of findRecordMentions(s)) {
      const end = m.index + m.length;
      if (r.markup.subarray(m.index, end).every((x) => x === 0) && r.inCode.subarray(m.index, end).every((x) => x === 0)) {
        doc.mentions.push({ num: m.num, ...where(m.index) });
      }
    }
    return { s, r };
  }
}
