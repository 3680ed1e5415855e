// A JavaScript file's CommonJS exports, read from its text with the parser alone (ADR 196): the
// top-level statements that put a value under `module.exports` (`module.exports = v`,
// `module.exports.x = v`, `exports.x = v`, and `X.x = v` when `module.exports = X`), what each
// value is, where the file's own code names what, and where it requires which file. `kg tests`
// gives them to the walk (src/graph/query/affected-tests.ts), which steps from a function so
// exported to the declaration of the same exported name in the package's declaration file instead
// of to the whole file. A declaration file gives its `export = Name`.

import { createHash } from 'node:crypto';
import * as ts from 'typescript';
import { fileId } from '../../ids';
import type { CommonJsBinding, CommonJsExports } from '../../model';
import { codeHashes } from './declared-symbols';
import { extractFile, parseSource } from './extract';
import { registeredId } from '../syntax/declaration-positions';

const {
  SyntaxKind,
  isArrowFunction,
  isBinaryExpression,
  isCallExpression,
  isExportAssignment,
  isExpressionStatement,
  isFunctionExpression,
  isIdentifier,
  isJSDoc,
  isPropertyAccessExpression,
  isStringLiteralLike,
  isVariableDeclaration,
  isVariableStatement,
} = ts;

function impliedFormat(file: string): ts.ResolutionMode {
  if (/\.(mts|mjs)$/.test(file)) return ts.ModuleKind.ESNext;
  if (/\.(cts|cjs)$/.test(file)) return ts.ModuleKind.CommonJS;
  return undefined;
}

/** `module.exports` or `module.exports.a.b` / `exports.a` as a path, else undefined. */
function exportsPath(e: ts.Expression, exported: string | undefined): string[] | undefined {
  const names: string[] = [];
  let at: ts.Expression = e;
  while (isPropertyAccessExpression(at)) {
    if (isIdentifier(at.expression) && at.expression.text === 'module' && at.name.text === 'exports') return names.reverse();
    names.push(at.name.text);
    at = at.expression;
  }
  if (!isIdentifier(at)) return undefined;
  if (at.text === 'exports' && names.length > 0) return names.reverse();
  if (exported !== undefined && at.text === exported && names.length > 0) return names.reverse();
  return undefined;
}

function requireOf(e: ts.Expression): string | undefined {
  if (!isCallExpression(e) || !isIdentifier(e.expression) || e.expression.text !== 'require' || e.arguments.length !== 1) return undefined;
  const a = e.arguments[0];
  return isStringLiteralLike(a) ? a.text : undefined;
}

/**
 * The file's CommonJS exports; undefined when its code names `exports` anywhere but as the target
 * of the statements read (then who reads what it exported is not known from them).
 */
export function commonJsExports(relPath: string, text: string): CommonJsExports | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sf = parseSource('/' + relPath, body, impliedFormat(relPath));
  if (/\.d\.[cm]?ts$/.test(relPath)) {
    for (const s of sf.statements)
      if (isExportAssignment(s) && s.isExportEquals && isIdentifier(s.expression))
        return { bindings: [], uses: {}, requires: [], exportAssigned: s.expression.text };
    return { bindings: [], uses: {}, requires: [] };
  }
  const pos = (p: number): [number, number] => {
    const lc = sf.getLineAndCharacterOfPosition(p);
    return [lc.line + 1, lc.character + 1];
  };
  // The name `module.exports` is set to, when one statement sets it to a name.
  let exported: string | undefined;
  const requireVars = new Map<string, string>();
  const recognizedRequires = new Set<ts.Node>();
  for (const s of sf.statements) {
    if (isVariableStatement(s))
      for (const d of s.declarationList.declarations) {
        const spec = d.initializer ? requireOf(d.initializer) : undefined;
        if (spec !== undefined && isIdentifier(d.name)) {
          requireVars.set(d.name.text, spec);
          recognizedRequires.add(d.initializer as ts.Node);
        }
      }
    if (isExpressionStatement(s) && isBinaryExpression(s.expression) && s.expression.operatorToken.kind === SyntaxKind.EqualsToken) {
      const p = exportsPath(s.expression.left, undefined);
      if (p !== undefined && p.length === 0 && isIdentifier(s.expression.right)) exported = s.expression.right.text;
    }
  }
  const bindings: CommonJsBinding[] = [];
  const statementOf = new Map<ts.Node, number>();
  // The `exports` (and `module.exports`) a binding's target names: the only ones allowed.
  const targets = new Set<ts.Node>();
  for (const s of sf.statements) {
    if (!isExpressionStatement(s) || !isBinaryExpression(s.expression) || s.expression.operatorToken.kind !== SyntaxKind.EqualsToken)
      continue;
    const { left, right } = s.expression;
    const path = exportsPath(left, exported);
    if (path === undefined) continue;
    let at: ts.Expression = left;
    while (isPropertyAccessExpression(at)) {
      if (at.name.text === 'exports' && isIdentifier(at.expression) && at.expression.text === 'module') targets.add(at.name);
      at = at.expression;
    }
    if (isIdentifier(at) && at.text === 'exports') targets.add(at);
    const b: CommonJsBinding = { path, value: 'other', from: pos(s.getStart(sf)), to: pos(s.getEnd() - 1) };
    const spec = requireOf(right);
    if (isFunctionExpression(right) || isArrowFunction(right)) b.value = 'function';
    else if (isIdentifier(right)) {
      b.value = 'identifier';
      b.name = right.text;
      if (requireVars.has(right.text)) b.specifier = requireVars.get(right.text);
    } else if (spec !== undefined) {
      b.value = 'require';
      b.specifier = spec;
      recognizedRequires.add(right);
    }
    statementOf.set(s, bindings.length);
    bindings.push(b);
  }
  const { declarations } = extractFile(sf, relPath);
  const uses: CommonJsExports['uses'] = {};
  const requires: CommonJsExports['requires'] = [];
  let readable = true;
  const visit = (node: ts.Node, binding: number, own: boolean): void => {
    if (isJSDoc(node)) return;
    const spec = isCallExpression(node) ? requireOf(node) : undefined;
    if (spec !== undefined) requires.push({ specifier: spec, recognized: recognizedRequires.has(node) });
    if (isIdentifier(node) && node.text === 'exports' && !targets.has(node)) readable = false;
    // Code of a declaration the graph has a node for is that node's: its edges are its own.
    const mine = own && (node === sf || registeredId(node, sf, declarations) === undefined || isVariableDeclaration(node));
    if (mine && (isIdentifier(node) || isStringLiteralLike(node))) {
      const [line, column] = pos(node.getStart(sf));
      const name = node.text;
      (uses[name] ??= []).push([line, column, binding]);
    }
    ts.forEachChild(node, (c) => visit(c, statementOf.get(c) ?? binding, mine));
  };
  visit(sf, -1, true);
  if (!readable) return undefined;
  return { bindings, uses, requires };
}

function tokensHash(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.ESNext, true, ts.LanguageVariant.Standard, text);
  const parts: string[] = [];
  for (let k = scanner.scan(); k !== SyntaxKind.EndOfFileToken; k = scanner.scan()) parts.push(scanner.getTokenText());
  return createHash('sha256').update(parts.join('\u0001')).digest('hex').slice(0, 12);
}

/** Offsets of each function binding's statement in `text`, with its path. */
function functionStatements(relPath: string, text: string): Array<{ key: string; start: number; end: number }> | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (commonJsExports(relPath, body) === undefined) return undefined;
  const sf = parseSource('/' + relPath, body, impliedFormat(relPath));
  const out: Array<{ key: string; start: number; end: number }> = [];
  let exported: string | undefined;
  for (const s of sf.statements)
    if (isExpressionStatement(s) && isBinaryExpression(s.expression) && s.expression.operatorToken.kind === SyntaxKind.EqualsToken) {
      const p = exportsPath(s.expression.left, undefined);
      if (p !== undefined && p.length === 0 && isIdentifier(s.expression.right)) exported = s.expression.right.text;
    }
  for (const s of sf.statements) {
    if (!isExpressionStatement(s) || !isBinaryExpression(s.expression) || s.expression.operatorToken.kind !== SyntaxKind.EqualsToken)
      continue;
    const path = exportsPath(s.expression.left, exported);
    const right = s.expression.right;
    if (path === undefined || !(isFunctionExpression(right) || isArrowFunction(right))) continue;
    out.push({ key: JSON.stringify(path), start: right.getStart(sf), end: right.getEnd() });
  }
  return out;
}

/**
 * The exported functions a change of a JavaScript file touched, when its own top-level code
 * changed only inside functions `module.exports…=` statements assign (ADR 196): their paths.
 * Undefined when the file's other top-level code changed too, an exported function came or went,
 * or either side's exports cannot be read: then the file's loading stands for the change.
 */
export function changedExports(relPath: string, before: string, after: string): string[][] | undefined {
  const a = functionStatements(relPath, before);
  const b = functionStatements(relPath, after);
  if (a === undefined || b === undefined || a.length === 0) return undefined;
  const keys = (xs: typeof a) => xs.map((x) => x.key).join('\n');
  if (keys(a) !== keys(b)) return undefined;
  const blank = (text: string, xs: typeof a) => {
    let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    for (const x of [...xs].sort((p, q) => q.start - p.start)) out = out.slice(0, x.start) + 'function () {}' + out.slice(x.end);
    return out;
  };
  const fid = fileId(relPath);
  if (codeHashes(relPath, blank(before, a))[fid] !== codeHashes(relPath, blank(after, b))[fid]) return undefined;
  const textOf = (text: string, x: { start: number; end: number }) =>
    (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).slice(x.start, x.end);
  const out: string[][] = [];
  for (let i = 0; i < a.length; i++)
    if (tokensHash(textOf(before, a[i])) !== tokensHash(textOf(after, b[i]))) out.push(JSON.parse(a[i].key) as string[]);
  return out.length > 0 ? out : undefined;
}
