// Decision-record mentions in source comments (ADR-41). Only real comments count: a mention is
// in a comment when it lies in the trivia before a token of the parsed tree, so the text of
// strings, regular expressions, templates and JSX is never read as a comment. Each mention
// belongs to the innermost symbol whose scope holds it, or to the file at top level.
//
// Mentions are rare, so nothing here walks a whole file: from each mention's position the search
// descends only through the nodes whose span holds it.

import * as ts from 'typescript';
import { fileId } from '../../ids';
import { evidenceAt, registeredId } from '../syntax/declaration-positions';
import { MIGHT_MENTION_RECORD, findRecordMentions } from './markdown';
import type { CommentCitation } from '../facts';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const { SyntaxKind, forEachChild, getLeadingCommentRanges, getTrailingCommentRanges, isVariableStatement } = ts;
// Persisted per-file facts live below the compiler (../facts.ts); re-exported for this side's users.
export type { CommentCitation } from '../facts';

export interface CommentRange {
  pos: number;
  end: number;
}

function isJsDocKind(kind: ts.SyntaxKind): boolean {
  return kind >= SyntaxKind.FirstJSDocNode && kind <= SyntaxKind.LastJSDocNode;
}

/** The nodes whose full span (leading trivia included) holds `pos`, outermost first, and for each
 * level the last sibling that ends at or before `pos` (whose trailing comments may hold it). */
export function descend(sf: ts.SourceFile, pos: number): { path: ts.Node[]; before: ts.Node[] } {
  const path: ts.Node[] = [sf];
  const before: ts.Node[] = [];
  for (let node: ts.Node = sf; ;) {
    let inside: ts.Node | undefined;
    let last: ts.Node | undefined;
    forEachChild(node, (child) => {
      if (child.pos <= pos && pos < child.end) {
        inside = child;
        return true;
      }
      if (child.end <= pos) last = child;
      return undefined;
    });
    if (last) before.push(last);
    if (!inside) return { path, before };
    path.push(inside);
    node = inside;
  }
}

/**
 * The comment holding `pos`, or undefined when `pos` is code, or inside a string, template,
 * regular expression or JSX text. `pos` lies either inside a token or in the trivia before one;
 * the tokens of the innermost node come from `getChildren`, which scans only the gaps between
 * that node's children (punctuation and keywords), and a JSX text token has no trivia at all.
 */
export function commentAt(sf: ts.SourceFile, pos: number): CommentRange | undefined {
  const { path } = descend(sf, pos);
  return commentIn(sf, pos, path[path.length - 1]);
}

/** `commentAt`, given the innermost node whose span holds `pos`. */
function commentIn(sf: ts.SourceFile, pos: number, innermost: ts.Node): CommentRange | undefined {
  const found = triviaComments(sf, pos, innermost);
  if (!found) return undefined;
  const r = found.ranges[found.index];
  return { pos: r.pos, end: r.end };
}

/**
 * The comments of the trivia that holds `pos` and the index of the one holding it, or undefined
 * when `pos` is code or inside a string, template, regular expression or JSX text.
 */
function triviaComments(sf: ts.SourceFile, pos: number, innermost: ts.Node): { ranges: ts.CommentRange[]; index: number } | undefined {
  let token = innermost;
  for (;;) {
    const holder = token.getChildren(sf).find((c) => !isJsDocKind(c.kind) && c.pos <= pos && pos < c.end);
    if (!holder) break;
    token = holder;
  }
  if (token.kind === SyntaxKind.JsxText || pos >= token.getStart(sf)) return undefined;
  // The trivia before a token: the previous token's trailing comments (up to the line end),
  // then this token's leading comments.
  const text = sf.text;
  // At the start of a file both lists hold the first line's comments: keep one of each.
  const ranges: ts.CommentRange[] = [];
  for (const r of [...(getTrailingCommentRanges(text, token.pos) ?? []), ...(getLeadingCommentRanges(text, token.pos) ?? [])]) {
    if (ranges.length === 0 || r.pos >= ranges[ranges.length - 1].end) ranges.push(r);
  }
  const index = ranges.findIndex((r) => r.pos <= pos && pos < r.end);
  return index < 0 ? undefined : { ranges, index };
}

/** Only spaces or tabs, then one line break, then spaces or tabs: two comments on adjacent lines. */
const ADJACENT_LINES = /^[ \t]*(?:\r\n|\r|\n)[ \t]*$/;

/**
 * The comment holding `pos` as a reader sees it, or undefined when `pos` is not in a comment: a
 * block comment, or a run of `//` comments on adjacent lines with nothing but spaces between
 * them (ADR 88: one note may span several `//` lines).
 */
export function commentRunAt(sf: ts.SourceFile, pos: number, found = descend(sf, pos)): ts.CommentRange[] | undefined {
  const trivia = triviaComments(sf, pos, found.path[found.path.length - 1]);
  if (!trivia) return undefined;
  const { ranges, index } = trivia;
  const line = (r: ts.CommentRange) => r.kind === SyntaxKind.SingleLineCommentTrivia;
  if (!line(ranges[index])) return [ranges[index]];
  const joined = (a: ts.CommentRange, b: ts.CommentRange) => line(a) && line(b) && ADJACENT_LINES.test(sf.text.slice(a.end, b.pos));
  let first = index;
  while (first > 0 && joined(ranges[first - 1], ranges[first])) first--;
  let last = index;
  while (last + 1 < ranges.length && joined(ranges[last], ranges[last + 1])) last++;
  return ranges.slice(first, last + 1);
}

/** The span of text a symbol answers for, and its id. */
export interface SymbolScope {
  start: number;
  end: number;
  id: string;
}

function lineBreaks(s: string): number {
  return s.match(/\r\n|\r|\n/g)?.length ?? 0;
}

/**
 * A declaration's scope: the declaration itself, the comments directly above it (no blank line
 * between a comment and what follows it) and the comments after it on its last line.
 */
function scopeOf(sf: ts.SourceFile, node: ts.Node, id: string): SymbolScope {
  const text = sf.text;
  let start = node.getStart(sf);
  const leading = getLeadingCommentRanges(text, node.pos) ?? [];
  for (let i = leading.length - 1; i >= 0; i--) {
    if (lineBreaks(text.slice(leading[i].end, start)) > 1) break;
    start = leading[i].pos;
  }
  const trailing = getTrailingCommentRanges(text, node.end) ?? [];
  const end = trailing.length > 0 ? trailing[trailing.length - 1].end : node.end;
  return { start, end, id };
}

/**
 * The symbol a node declares, as the extraction registered it (`declarations`: declaration name start →
 * node id). A variable statement with one declaration lends it its comments: the comment above
 * `export const f = () => …` is about `f`.
 */
function declaredBy(node: ts.Node, sf: ts.SourceFile, declarations: ReadonlyMap<number, string>): string | undefined {
  if (isVariableStatement(node)) {
    const list = node.declarationList.declarations;
    return list.length === 1 ? registeredId(list[0], sf, declarations) : undefined;
  }
  return registeredId(node, sf, declarations);
}

/** The innermost scope holding `pos` (scopes nest or are disjoint), or undefined. */
function innermostScope(scopes: readonly SymbolScope[], pos: number): SymbolScope | undefined {
  let best: SymbolScope | undefined;
  for (const s of scopes) {
    if (pos < s.start || pos >= s.end) continue;
    if (!best || s.start > best.start || (s.start === best.start && s.end < best.end)) best = s;
  }
  return best;
}

/**
 * The id of the innermost symbol whose scope holds `pos`, or undefined at top level. Only nodes
 * on the path to `pos` can hold it, or a sibling just before the path whose trailing comment does.
 */
export function enclosingSymbol(
  sf: ts.SourceFile,
  pos: number,
  declarations: ReadonlyMap<number, string>,
  found = descend(sf, pos),
  cache?: Map<ts.Node, SymbolScope | null>,
): string | undefined {
  const scopes: SymbolScope[] = [];
  for (const node of [...found.path, ...found.before]) {
    // A scope costs a scan of the node's leading comments; many positions in one long comment
    // (stamped notes, ADR 88) share the nodes, so a caller may keep the scopes it computed.
    let scope = cache?.get(node);
    if (scope === undefined) {
      const id = declaredBy(node, sf, declarations);
      scope = id === undefined ? null : scopeOf(sf, node, id);
      cache?.set(node, scope);
    }
    if (scope) scopes.push(scope);
  }
  return innermostScope(scopes, pos)?.id;
}

/** Every decision-record mention in the comments of a parsed file. */
export function commentCitations(sf: ts.SourceFile, relPath: string, declarations: ReadonlyMap<number, string>): CommentCitation[] {
  // Most files mention no record at all.
  if (!MIGHT_MENTION_RECORD.test(sf.text)) return [];
  const out: CommentCitation[] = [];
  for (const m of findRecordMentions(sf.text)) {
    const found = descend(sf, m.index);
    if (!commentIn(sf, m.index, found.path[found.path.length - 1])) continue;
    const source = enclosingSymbol(sf, m.index, declarations, found) ?? fileId(relPath);
    out.push({ num: m.num, source, evidence: evidenceAt(sf, relPath, m.index) });
  }
  return out;
}
