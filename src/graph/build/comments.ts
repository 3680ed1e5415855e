// Decision-record mentions in source comments (ADR-41). Only real comments count: their ranges
// come from the trivia between the tokens of the parsed tree, so the text of strings, regular
// expressions, templates and JSX is never read as a comment. Each mention belongs to the
// innermost symbol whose scope holds it, or to the file at top level.

import * as ts from 'typescript';
import { fileId } from '../ids';
import type { Evidence } from '../model';
import { declarationKey, evidenceAt, forEachDescendant } from './extract';
import { MIGHT_MENTION_RECORD, findRecordMentions } from './markdown';

export interface CommentRange {
  pos: number;
  end: number;
}

function isJsDocKind(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstJSDocNode && kind <= ts.SyntaxKind.LastJSDocNode;
}

/**
 * Every comment of a file, in source order. The tokens come from the parser's tree (`getChildren`
 * scans only the gaps between nodes, where there is nothing but punctuation and keywords); the
 * comments are the leading and trailing trivia of those tokens. JSX text has no trivia — a `//`
 * in it is text — so no position at the start of a JSX text is asked for comments.
 */
export function commentRanges(sf: ts.SourceFile): CommentRange[] {
  const text = sf.text;
  const leaves: ts.Node[] = [];
  const stack: ts.Node[] = [sf];
  while (stack.length > 0) {
    const node = stack.pop() as ts.Node;
    // A JSDoc node is itself a comment, found as trivia of the token it precedes.
    if (isJsDocKind(node.kind)) continue;
    const children = node.getChildren(sf);
    if (children.length === 0) {
      leaves.push(node);
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  const jsxTextStarts = new Set<number>();
  for (const leaf of leaves) if (leaf.kind === ts.SyntaxKind.JsxText) jsxTextStarts.add(leaf.pos);
  const found = new Map<number, CommentRange>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) found.set(r.pos, { pos: r.pos, end: r.end });
  };
  for (const leaf of leaves) {
    if (leaf.kind === ts.SyntaxKind.JsxText) continue;
    if (!jsxTextStarts.has(leaf.pos)) add(ts.getLeadingCommentRanges(text, leaf.pos));
    if (!jsxTextStarts.has(leaf.end)) add(ts.getTrailingCommentRanges(text, leaf.end));
  }
  return [...found.values()].sort((a, b) => a.pos - b.pos);
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
  const leading = ts.getLeadingCommentRanges(text, node.pos) ?? [];
  for (let i = leading.length - 1; i >= 0; i--) {
    if (lineBreaks(text.slice(leading[i].end, start)) > 1) break;
    start = leading[i].pos;
  }
  const trailing = ts.getTrailingCommentRanges(text, node.end) ?? [];
  const end = trailing.length > 0 ? trailing[trailing.length - 1].end : node.end;
  return { start, end, id };
}

/**
 * The scopes of the symbols the extraction registered for this file (`declarations`: declaration
 * key → node id). A variable statement with one declaration lends it its comments: the comment
 * above `export const f = () => …` is about `f`.
 */
export function symbolScopes(sf: ts.SourceFile, declarations: ReadonlyMap<string, string>): SymbolScope[] {
  const scopes: SymbolScope[] = [];
  const lent = new Set<ts.Node>();
  forEachDescendant(sf, (node) => {
    if (ts.isVariableStatement(node) && node.declarationList.declarations.length === 1) {
      const decl = node.declarationList.declarations[0];
      const id = declarations.get(declarationKey(decl));
      if (id !== undefined) {
        scopes.push(scopeOf(sf, node, id));
        lent.add(decl);
      }
      return;
    }
    if (lent.has(node)) return;
    const id = declarations.get(declarationKey(node));
    if (id !== undefined) scopes.push(scopeOf(sf, node, id));
  });
  return scopes;
}

/** The innermost scope holding `pos` (scopes nest or are disjoint), or undefined at top level. */
export function innermostScope(scopes: readonly SymbolScope[], pos: number): SymbolScope | undefined {
  let best: SymbolScope | undefined;
  for (const s of scopes) {
    if (pos < s.start || pos >= s.end) continue;
    if (!best || s.start > best.start || (s.start === best.start && s.end < best.end)) best = s;
  }
  return best;
}

/** A record mention in a comment: the record number, who mentions it, where. */
export interface CommentCitation {
  num: number;
  source: string;
  evidence: Evidence;
}

/** Every decision-record mention in the comments of a parsed file. */
export function commentCitations(sf: ts.SourceFile, relPath: string, declarations: ReadonlyMap<string, string>): CommentCitation[] {
  // Most files mention no record at all: skip the token walk for them.
  if (!MIGHT_MENTION_RECORD.test(sf.text)) return [];
  const out: CommentCitation[] = [];
  let scopes: SymbolScope[] | undefined;
  for (const c of commentRanges(sf)) {
    for (const m of findRecordMentions(sf.text.slice(c.pos, c.end))) {
      const pos = c.pos + m.index;
      scopes ??= symbolScopes(sf, declarations);
      out.push({ num: m.num, source: innermostScope(scopes, pos)?.id ?? fileId(relPath), evidence: evidenceAt(sf, relPath, pos) });
    }
  }
  return out;
}
