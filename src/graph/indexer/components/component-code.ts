// Single-file components (`.vue`, `.svelte`) as the checker sees them (ADR 169): each one's
// TypeScript, written by Vue's or Svelte's own language tools, with the map back to the author's
// text. The programs and the walks read the generated code under the component's own path; every
// position they report goes through `sourceLineColumn`, and a position no map places in the
// author's text is generated glue: never a declaration, a caller or a site.
//
// The build registers each component's code here when it reads the file (sources.ts), keyed by
// path and checked against the text a tree was parsed from, so a parse of other text (a blanked
// body, a later edit) never borrows another text's map.

import type * as ts from 'typescript';
import type { ComponentKind } from './kinds';

/** A stretch of generated code copied from the author's text (offsets in UTF-16 code units). */
export interface Segment {
  generated: number;
  source: number;
  length: number;
}

export interface ComponentCode {
  kind: ComponentKind;
  /** The component file's own text (decoded, BOM removed). */
  source: string;
  /** The TypeScript the language tools wrote for it. */
  code: string;
  scriptKind: ts.ScriptKind;
  /** The mapped stretches, by generated offset. */
  segments: readonly Segment[];
  /** Offsets of the source's line starts. */
  lineStarts: readonly number[];
}

/** The component's code by absolute path; replaced when the file's text changes. */
const registry = new Map<string, ComponentCode>();

export function registerComponent(fileName: string, code: ComponentCode): void {
  registry.set(fileName, code);
}

/** The registered code of `fileName` when its generated text is `text`. */
function componentCodeFor(fileName: string, text: string): ComponentCode | undefined {
  const c = registry.get(fileName);
  return c !== undefined && c.code === text ? c : undefined;
}

/** The component code a tree was parsed from, or undefined for any other tree. */
export function componentOf(sf: ts.SourceFile): ComponentCode | undefined {
  return registry.size === 0 ? undefined : componentCodeFor(sf.fileName, sf.text);
}

/** Script kind of a registered component's code (TS or TSX), for parsers that go by file name. */
export function componentScriptKind(fileName: string, text: string): ts.ScriptKind | undefined {
  return registry.size === 0 ? undefined : componentCodeFor(fileName, text)?.scriptKind;
}

const WORD = /[\w$#]/;

/**
 * The author's offset of the word (identifier, keyword, string key) that starts at `generated`, or
 * undefined when no map places it in the author's text: the word must be copied there, the same
 * characters, so glue that a map stretches over (`__VLS_ctx.`, `$$render`) never counts.
 */
function authoredOffset(c: ComponentCode, generated: number): number | undefined {
  let start = generated;
  let quote = '';
  const first = c.code[start];
  if (first === '"' || first === "'") {
    quote = first;
    start++;
  }
  let end = start;
  while (end < c.code.length && WORD.test(c.code[end])) end++;
  const word = c.code.slice(start, end);
  if (word === '' && quote === '') return undefined;
  for (let i = lastSegmentAtOrBefore(c.segments, start); i >= 0; i--) {
    const s = c.segments[i];
    if (start >= s.generated + Math.max(s.length, 1)) continue;
    const at = s.source + (start - s.generated);
    if (c.source.startsWith(word, at) && !WORD.test(c.source[at + word.length] ?? '') && !WORD.test(c.source[at - 1] ?? '')) return at;
  }
  return undefined;
}

/** Index of the last segment that starts at or before `offset`, or -1. */
function lastSegmentAtOrBefore(segments: readonly Segment[], offset: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid].generated <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Whether the word at `generated` is the author's (see `authoredOffset`). */
export function isAuthored(c: ComponentCode, generated: number): boolean {
  return authoredOffset(c, generated) !== undefined;
}

/** 0-based line and character in the author's text of a generated offset; glue is placed at the start of the file. */
export function sourceLineColumn(c: ComponentCode, generated: number): { line: number; character: number } {
  const at = authoredOffset(c, generated) ?? nearestSource(c, generated);
  return lineColumnOf(c.lineStarts, at);
}

/** Where a stretch of the author's text that contains `generated` starts from, or 0. */
function nearestSource(c: ComponentCode, generated: number): number {
  const i = lastSegmentAtOrBefore(c.segments, generated);
  if (i < 0) return 0;
  const s = c.segments[i];
  return generated <= s.generated + s.length ? s.source + (generated - s.generated) : 0;
}

/**
 * Names the language tools give the generated declarations that stand for the component itself:
 * its template's render function (whose calls are the component's), its definition and its
 * default export. They become one node, `sym:<file>#default`, at the file's first line.
 */
export function isComponentStandIn(kind: ComponentKind, name: string): boolean {
  return kind === 'vue' ? name === '__VLS_template' || name === '__VLS_export' : name === '$$render' || name.endsWith('__SvelteComponent_');
}

/** The component's display name: the file's base name without its extension. */
export function componentLabel(relPath: string): string {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  return base.slice(0, base.lastIndexOf('.'));
}

function lineColumnOf(lineStarts: readonly number[], offset: number): { line: number; character: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - lineStarts[lo] };
}

/** Offsets of a text's line starts, as the compiler counts lines (CR, LF, CRLF); its own function is not public. */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) starts.push(i + 1);
    else if (ch === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}
