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
import { componentKind } from '../components/kinds';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  NodeFlags,
  forEachChild,
  isBlock,
  isConstructorDeclaration,
  isExternalModule,
  isFunctionLike,
  isIdentifier,
  isModuleDeclaration,
  isSetAccessorDeclaration,
  isStringLiteral,
} = ts;

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
function hiddenBody(node: ts.Node, parent: ts.Node): boolean {
  if (!isFunctionLike(parent) || (parent as { body?: ts.Node }).body !== node) return false;
  return !!(parent as ts.SignatureDeclarationBase).type || isConstructorDeclaration(parent) || isSetAccessorDeclaration(parent);
}

/**
 * True for a hidden body that the checker never reads to type anything outside it, so a program
 * may hold it as blanks (ADR 129): a block whose function's return type is written out, or a
 * setter's. Not a constructor's: with `noImplicitAny`, an unannotated property takes its type from
 * the constructor's assignments.
 */
function blankableBody(node: ts.Node, parent: ts.Node): boolean {
  return isBlock(node) && !isConstructorDeclaration(parent) && hiddenBody(node, parent);
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
  NodeFlags.Let |
  NodeFlags.Const |
  NodeFlags.Using |
  NodeFlags.NestedNamespace |
  NodeFlags.Namespace |
  NodeFlags.GlobalAugmentation |
  NodeFlags.OptionalChain;

function declaresGlobally(sf: ts.SourceFile): boolean {
  if (!isExternalModule(sf)) return true;
  return sf.statements.some(
    (st) => isModuleDeclaration(st) && (isStringLiteral(st.name) || (st.flags & NodeFlags.GlobalAugmentation) !== 0),
  );
}

/**
 * The visible tokens below `root`, in pre-order: each node's kind, syntactic flags and child count
 * (so the tree is unambiguous), a leaf's text, `{}` for a hidden body; `part` takes each. With an
 * explicit stack. `identifier` sees each visible identifier's text (the surface's mentions, in the
 * same walk). Returns `root`'s child count.
 */
function walkTokens(
  root: ts.Node,
  sf: ts.SourceFile,
  part: (p: string) => void,
  blank?: number[],
  identifier?: (text: string) => void,
): number {
  const stack: Array<{ node: ts.Node; parent: ts.Node }> = [];
  const pushChildren = (node: ts.Node): number => {
    const children: ts.Node[] = [];
    forEachChild(node, (c) => {
      children.push(c);
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], parent: node });
    return children.length;
  };
  const count = pushChildren(root);
  while (stack.length > 0) {
    const { node, parent } = stack.pop() as { node: ts.Node; parent: ts.Node };
    if (hiddenBody(node, parent)) {
      part('{}');
      if (blank && blankableBody(node, parent)) blank.push(node.getStart(sf) + 1, node.end - 1);
      continue;
    }
    if (identifier && isIdentifier(node)) identifier(node.text);
    part(nodePart(node, sf, pushChildren(node)));
  }
  return count;
}

/** One node's token: kind, syntactic flags, child count, and a leaf's text. */
const nodePart = (node: ts.Node, sf: ts.SourceFile, children: number): string =>
  `${node.kind}:${node.flags & SYNTACTIC_FLAGS}:${children}${children === 0 ? ':' + node.getText(sf) : ''}`;

/** Parts joined by NUL in runs of 4,096, the runs by `between`: the token strings' one layout. */
function joinParts(parts: readonly string[], between: string, head: string): string {
  const runs: string[] = [];
  for (let i = 0; i + 4096 <= parts.length; i += 4096) runs.push(parts.slice(i, i + 4096).join('\u0000'));
  runs.push(parts.slice(parts.length - (parts.length % 4096)).join('\u0000'));
  return head + runs.join(between);
}

/** A node's visible tokens as one string (the layout nodeTokens gives), from its walk. */
const tokensOf = (node: ts.Node, children: number, below: readonly string[]): string =>
  joinParts(below, '\u0001', `${node.kind}:${node.flags & SYNTACTIC_FLAGS}\u0001${children}\u0001`);

/** A top-level statement's visible tokens (nodeTokens) and the identifier texts it mentions. */
export interface StatementTokens {
  tokens: string;
  mentioned: Set<string>;
}

/** A node's walk: its child count and the parts below it; its visible identifiers into `mentioned`. */
function walkNode(node: ts.Node, sf: ts.SourceFile, blank?: number[], mentioned?: Set<string>): { children: number; below: string[] } {
  const below: string[] = [];
  if (mentioned && isIdentifier(node)) mentioned.add(node.text);
  const children = walkTokens(node, sf, (p) => below.push(p), blank, mentioned && ((t) => mentioned.add(t)));
  return { children, below };
}

/**
 * The visible tokens of one statement (or any node) as one string: what surface.ts hashes. The
 * texts of the visible identifiers (`node` itself included) go into `mentioned`.
 */
export function nodeTokens(node: ts.Node, sf: ts.SourceFile, mentioned: Set<string>): string {
  const { children, below } = walkNode(node, sf, undefined, mentioned);
  return tokensOf(node, children, below);
}

/**
 * The file's shape. With `statements`, each top-level statement's tokens go there too, from the
 * same walk (surface.ts hashes them: one walk of the file serves both).
 */
export function fileShape(sf: ts.SourceFile, statements?: Map<ts.Node, StatementTokens>): FileShape {
  const hash = createHash('sha256');
  const global = declaresGlobally(sf);
  if (isJavaScript(sf)) {
    hash.update(sf.text);
    return { shape: hash.digest('hex'), global };
  }
  const blank: number[] = [];
  const top: ts.Node[] = [];
  forEachChild(sf, (c) => {
    top.push(c);
  });
  // The hash reads the file's token string: its child count, then every part in pre-order, joined
  // by NUL in runs of 4,096 with nothing between runs.
  hash.update(String(top.length));
  let run: string[] = [];
  const feed = (p: string) => {
    run.push(p);
    if (run.length >= 4096) {
      hash.update(run.join('\u0000'));
      run = [];
    }
  };
  // A component's generated code is never read with blanks (ADR 169), and its offsets move with
  // where kg is installed (Vue's code names kg's helper types by path): none are recorded.
  const blankable = !sf.isDeclarationFile && componentKind(sf.fileName) === undefined;
  for (const node of top) {
    const mentioned = statements && new Set<string>();
    const { children, below } = walkNode(node, sf, blankable ? blank : undefined, mentioned);
    feed(nodePart(node, sf, children));
    for (const p of below) feed(p);
    if (statements && mentioned) statements.set(node, { tokens: tokensOf(node, children, below), mentioned });
  }
  hash.update(run.join('\u0000'));
  return { shape: hash.digest('hex'), global, ...(blank.length > 0 ? { blank } : {}) };
}
