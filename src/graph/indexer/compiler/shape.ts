// A file's shape: what another file can see of it through the type checker. Two versions of a file
// with one shape give every other file the same types, so the checker resolves their call sites
// and heritage clauses the same way; only the file itself needs resolving again.
//
// The shape is the file's syntax tree — node kinds, the syntactic flags (`let`/`const`, …) and the
// text of every leaf; never comments, whitespace or positions — minus the bodies that cannot leak
// into a type: the body of a function, method, accessor or arrow whose return type is written out,
// and every constructor and setter body. A body whose return type is inferred is kept (editing it
// can change the inferred type), as is every initializer (an unannotated `const` is typed by it).
// JavaScript files count every byte: their types come from bodies and JSDoc comments.
//
// A file is global when what it declares reaches files that do not import it: a script (no import
// or export), or a module with `declare global` or `declare module "…"`.

import { createHash } from 'node:crypto';
import * as ts from 'typescript';
import type { FileSurface } from '../facts';

export interface FileShape {
  /** SHA-256 (hex) of the visible tokens. */
  shape: string;
  global: boolean;
  /** What it exports and imports, name by name (surface.ts: shapeAndSurface); absent where the file-level rule decides. */
  surface?: FileSurface;
  /**
   * The bodies a program may read as blanks when the file is only there for its types (ADR 129):
   * the inside of each block body whose function's return type is written out, and of each setter,
   * as `[start, end)` offsets in pairs, outermost only. Absent for JavaScript and when there is none.
   */
  blank?: number[];
}

function isJavaScript(sf: ts.SourceFile): boolean {
  return /\.(js|jsx|mjs|cjs)$/.test(sf.fileName);
}

/** True for a body that cannot change any type another file sees. */
export function hiddenBody(node: ts.Node, parent: ts.Node): boolean {
  if (!ts.isFunctionLike(parent) || (parent as { body?: ts.Node }).body !== node) return false;
  return !!(parent as ts.SignatureDeclarationBase).type || ts.isConstructorDeclaration(parent) || ts.isSetAccessorDeclaration(parent);
}

/**
 * True for a hidden body that the checker never reads to type anything outside it, so a program
 * may hold it as blanks (ADR 129): a block whose function's return type is written out, or a
 * setter's. Not a constructor's: with `noImplicitAny`, an unannotated property takes its type from
 * the constructor's assignments.
 */
function blankableBody(node: ts.Node, parent: ts.Node): boolean {
  return ts.isBlock(node) && !ts.isConstructorDeclaration(parent) && hiddenBody(node, parent);
}

/** `text` with the inside of each `[start, end)` range of `blank` turned to spaces, line breaks kept: every offset stays. */
export function blankBodies(text: string, blank: readonly number[]): string {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i + 1 < blank.length; i += 2) {
    const start = blank[i];
    const end = blank[i + 1];
    if (start < at || end < start || end > text.length) throw new Error(`blank range [${start}, ${end}) out of order`);
    parts.push(text.slice(at, start), text.slice(start, end).replace(/[^\n\r\u2028\u2029]/g, ' '));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

const SYNTACTIC_FLAGS =
  ts.NodeFlags.Let |
  ts.NodeFlags.Const |
  ts.NodeFlags.Using |
  ts.NodeFlags.NestedNamespace |
  ts.NodeFlags.Namespace |
  ts.NodeFlags.GlobalAugmentation |
  ts.NodeFlags.OptionalChain;

function declaresGlobally(sf: ts.SourceFile): boolean {
  if (!ts.isExternalModule(sf)) return true;
  return sf.statements.some(
    (st) => ts.isModuleDeclaration(st) && (ts.isStringLiteral(st.name) || (st.flags & ts.NodeFlags.GlobalAugmentation) !== 0),
  );
}

/**
 * The visible tokens of `root`'s subtree, in pre-order: each node's kind, syntactic flags and
 * child count (so the tree is unambiguous), a leaf's text, `{}` for a hidden body. With an
 * explicit stack; `emit` takes them in chunks.
 */
function walkTokens(root: ts.Node, sf: ts.SourceFile, emit: (chunk: string) => void, blank?: number[]): void {
  const stack: Array<{ node: ts.Node; parent: ts.Node }> = [];
  const pushChildren = (node: ts.Node): number => {
    const children: ts.Node[] = [];
    ts.forEachChild(node, (c) => {
      children.push(c);
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], parent: node });
    return children.length;
  };
  emit(String(pushChildren(root)));
  const parts: string[] = [];
  while (stack.length > 0) {
    const { node, parent } = stack.pop() as { node: ts.Node; parent: ts.Node };
    if (hiddenBody(node, parent)) {
      parts.push('{}');
      if (blank && blankableBody(node, parent)) blank.push(node.getStart(sf) + 1, node.end - 1);
      continue;
    }
    const n = pushChildren(node);
    parts.push(`${node.kind}:${node.flags & SYNTACTIC_FLAGS}:${n}${n === 0 ? ':' + node.getText(sf) : ''}`);
    if (parts.length >= 4096) emit(parts.splice(0).join('\u0000'));
  }
  emit(parts.join('\u0000'));
}

/** The visible tokens of one statement (or any node) as one string: what surface.ts hashes. */
export function nodeTokens(node: ts.Node, sf: ts.SourceFile): string {
  const out: string[] = [`${node.kind}:${node.flags & SYNTACTIC_FLAGS}`];
  walkTokens(node, sf, (c) => out.push(c));
  return out.join('\u0001');
}

export function fileShape(sf: ts.SourceFile): FileShape {
  const hash = createHash('sha256');
  const global = declaresGlobally(sf);
  if (isJavaScript(sf)) {
    hash.update(sf.text);
    return { shape: hash.digest('hex'), global };
  }
  const blank: number[] = [];
  walkTokens(sf, sf, (c) => hash.update(c), sf.isDeclarationFile ? undefined : blank);
  return { shape: hash.digest('hex'), global, ...(blank.length > 0 ? { blank } : {}) };
}
