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
  isExportDeclaration,
  isExternalModuleReference,
  isFunctionDeclaration,
  isGetAccessor,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isMethodDeclaration,
  isNewExpression,
  isNumericLiteral,
  isObjectLiteralExpression,
  isParameter,
  isPropertyAssignment,
  isPropertyDeclaration,
  isQualifiedName,
  isSetAccessor,
  isShorthandPropertyAssignment,
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
 * The file's CommonJS exports; undefined when who reads what it exported is not known from its
 * statements: its code names `exports`, `module` or `this` anywhere but in the statements read
 * (`module.exports.a()`, `f(module)`, a function exported and called as `lib.b()` reading
 * `this.a`), names the object `module.exports` is set to otherwise than to add to it, sets
 * `module.exports` twice, or adds to the object `module.exports` replaced.
 */
export function commonJsExports(relPath: string, text: string): CommonJsExports | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sf = parseSource('/' + relPath, body, impliedFormat(relPath));
  if (/\.d\.[cm]?ts$/.test(relPath)) return declarationExports(sf);
  const pos = (p: number): [number, number] => {
    const lc = sf.getLineAndCharacterOfPosition(p);
    return [lc.line + 1, lc.character + 1];
  };
  const { exported, requireVars } = topLevel(sf);
  // The requires whose name a binding exports again.
  const reexported = new Set<ts.Node>();
  const bindings: CommonJsBinding[] = [];
  const statementOf = new Map<ts.Node, number>();
  // The `exports`, `module` and exported name a binding's target names, and the name
  // `module.exports` is set to: the only places they may be named.
  const allowed = new Set<ts.Node>();
  const targetRoots = new Set<ts.Node>();
  const recognizedRequires = new Set<ts.Node>([...requireVars.values()].map((v) => v.call));
  // Where `module.exports = …` is, and each binding's root: `module.exports`, `exports` or the name.
  let replaced = -1;
  const roots: Array<'module' | 'exports' | 'name'> = [];
  for (const s of sf.statements) {
    if (!isExpressionStatement(s) || !isBinaryExpression(s.expression) || s.expression.operatorToken.kind !== SyntaxKind.EqualsToken)
      continue;
    const { left, right } = s.expression;
    const path = exportsPath(left, exported);
    if (path === undefined) continue;
    let root: 'module' | 'exports' | 'name' = 'name';
    let at: ts.Expression = left;
    while (isPropertyAccessExpression(at)) {
      if (at.name.text === 'exports' && isIdentifier(at.expression) && at.expression.text === 'module') {
        allowed.add(at.name).add(at.expression);
        root = 'module';
        break;
      }
      at = at.expression;
    }
    if (root === 'name' && isIdentifier(at)) {
      if (at.text === 'exports') root = 'exports';
      allowed.add(at);
      targetRoots.add(at);
    }
    if (path.length === 0) {
      if (replaced >= 0) return undefined;
      replaced = bindings.length;
    }
    // An object literal of plain keys is a binding per key (ADR 198): `module.exports = { a, b: f }`
    // exports `a` and `b` as `module.exports.a = a; module.exports.b = f` would.
    const members = literalMembers(right);
    for (const [node, key, value] of members ?? [[s, undefined, right] as const]) {
      const b = bindingValue(value, requireVars);
      b.path = key === undefined ? path : [...path, key];
      b.from = pos(node.getStart(sf));
      b.to = pos(node.getEnd() - 1);
      if (b.value === 'identifier' && key === undefined) allowed.add(value);
      const v = b.value === 'identifier' && b.name !== undefined ? requireVars.get(b.name) : undefined;
      if (v !== undefined) reexported.add(v.call);
      if (b.value === 'require') recognizedRequires.add(value);
      statementOf.set(node, bindings.length);
      bindings.push(b);
      roots.push(root);
    }
  }
  // `exports.x = …` adds to the object `module.exports = …` replaces, and so does
  // `module.exports.x = …` before it: either is no export.
  if (replaced >= 0 && roots.some((r, i) => r === 'exports' || (r === 'module' && i < replaced))) return undefined;
  const { declarations } = extractFile(sf, relPath);
  const uses = new Map<string, Array<[number, number, number]>>();
  const requireCalls: Array<{ node: ts.Node; specifier: string }> = [];
  const whole = new Set<ts.Node>();
  const called = new Set<ts.Node>();
  let readable = true;
  const visit = (node: ts.Node, parent: ts.Node, binding: number, own: boolean): void => {
    if (!readable || isJSDoc(node)) return;
    if (node.kind === SyntaxKind.ThisKeyword) readable = false;
    const spec = isCallExpression(node) ? (requireOf(node) ?? importOf(node)) : moduleSpecifierOf(node);
    if (spec !== undefined) requireCalls.push({ node, specifier: spec });
    if (isIdentifier(node) && !allowed.has(node) && !isPropertyName(node, parent)) {
      const name = node.text;
      if (name === 'exports' || name === 'module' || (exported !== undefined && name === exported && !isDeclarationName(node, parent)))
        readable = false;
      // A required module used whole (passed, indexed, spread, `v.call(…)`): any of its exports
      // may be read, or it may run where no call of it is seen.
      const v = requireVars.get(name);
      if (v !== undefined && v.name !== node) {
        const member = isPropertyAccessExpression(parent) && parent.expression === node && !RUNS.has(parent.name.text);
        const call = (isCallExpression(parent) || isNewExpression(parent)) && parent.expression === node;
        if (!member && !call) whole.add(v.call);
        if (call) called.add(v.call);
      }
    }
    // Code of a declaration the graph has a node for is that node's: its edges are its own.
    const mine = own && (node === sf || registeredId(node, sf, declarations) === undefined);
    if (mine && (isIdentifier(node) || isStringLiteralLike(node))) {
      const [line, column] = pos(node.getStart(sf));
      const list = uses.get(node.text);
      // The object a binding adds to (`a` of `a.sync = …`) is named, not run: -2.
      const where = targetRoots.has(node) ? -2 : binding;
      if (list) list.push([line, column, where]);
      else uses.set(node.text, [[line, column, where]]);
    }
    ts.forEachChild(node, (c) => visit(c, node, statementOf.get(c) ?? binding, mine));
  };
  visit(sf, sf, -1, true);
  if (!readable) return undefined;
  const nameOf = new Map<ts.Node, string>([...requireVars].map(([name, v]) => [v.call, name]));
  const requires = requireCalls.map((r): CommonJsExports['requires'][number] => {
    const recognized = recognizedRequires.has(r.node) && !whole.has(r.node);
    const out: CommonJsExports['requires'][number] = { specifier: r.specifier, recognized };
    const name = nameOf.get(r.node);
    if (name !== undefined) out.name = name;
    if (recognized && name !== undefined && !called.has(r.node) && !reexported.has(r.node)) out.membersOnly = true;
    return out;
  });
  return { bindings, uses: Object.fromEntries(uses), requires };
}

/** What a binding's value is (its path and place are the caller's to set). */
function bindingValue(
  value: ts.Expression | ts.MethodDeclaration,
  requireVars: ReadonlyMap<string, { specifier: string }>,
): CommonJsBinding {
  const b: CommonJsBinding = { path: [], value: 'other', from: [0, 0], to: [0, 0] };
  if (isMethodDeclaration(value) || isFunctionExpression(value) || isArrowFunction(value)) b.value = 'function';
  else if (isIdentifier(value) && value.text !== 'exports' && value.text !== 'module') {
    b.value = 'identifier';
    b.name = value.text;
    const v = requireVars.get(value.text);
    if (v !== undefined) b.specifier = v.specifier;
  } else {
    const spec = requireOf(value);
    if (spec !== undefined) {
      b.value = 'require';
      b.specifier = spec;
    }
  }
  return b;
}

/**
 * The members of an object literal a binding assigns, each with its key and value (a method is
 * its own value), when every member is `key: value`, `key` or `key() {}` under a plain key, no
 * key twice: then each is a binding of its own. Undefined for anything else (a spread, a getter
 * or setter, a computed key, an empty literal): the literal is one value.
 */
function literalMembers(e: ts.Expression): Array<readonly [ts.Node, string, ts.Expression | ts.MethodDeclaration]> | undefined {
  if (!isObjectLiteralExpression(e) || e.properties.length === 0) return undefined;
  const out: Array<readonly [ts.Node, string, ts.Expression | ts.MethodDeclaration]> = [];
  const keys = new Set<string>();
  for (const p of e.properties) {
    const name = p.name;
    if (name === undefined || !(isIdentifier(name) || isStringLiteralLike(name) || isNumericLiteral(name))) return undefined;
    if (keys.has(name.text)) return undefined;
    keys.add(name.text);
    if (isPropertyAssignment(p)) out.push([p, name.text, p.initializer]);
    else if (isShorthandPropertyAssignment(p) && p.objectAssignmentInitializer === undefined) out.push([p, name.text, p.name]);
    else if (isMethodDeclaration(p) && p.asteriskToken === undefined) out.push([p, name.text, p]);
    else return undefined;
  }
  return out;
}

/** A declaration file's `export = Name`. */
function declarationExports(sf: ts.SourceFile): CommonJsExports {
  for (const s of sf.statements)
    if (isExportAssignment(s) && s.isExportEquals && isIdentifier(s.expression))
      return { bindings: [], uses: {}, requires: [], exportAssigned: s.expression.text };
  return { bindings: [], uses: {}, requires: [] };
}

/** The name `module.exports` is set to (when a statement sets it to a name), and each top-level `var x = require('…')`. */
function topLevel(sf: ts.SourceFile): {
  exported: string | undefined;
  requireVars: Map<string, { specifier: string; call: ts.Node; name: ts.Node }>;
} {
  let exported: string | undefined;
  const requireVars = new Map<string, { specifier: string; call: ts.Node; name: ts.Node }>();
  for (const s of sf.statements) {
    if (isVariableStatement(s))
      for (const d of s.declarationList.declarations) {
        const spec = d.initializer ? requireOf(d.initializer) : undefined;
        if (spec !== undefined && d.initializer !== undefined && isIdentifier(d.name))
          requireVars.set(d.name.text, { specifier: spec, call: d.initializer, name: d.name });
      }
    if (isExpressionStatement(s) && isBinaryExpression(s.expression) && s.expression.operatorToken.kind === SyntaxKind.EqualsToken) {
      const p = exportsPath(s.expression.left, undefined);
      if (p !== undefined && p.length === 0 && isIdentifier(s.expression.right)) exported = s.expression.right.text;
    }
  }
  return { exported, requireVars };
}

/** Members of a function that run it. */
const RUNS: ReadonlySet<string> = new Set(['call', 'apply', 'bind']);

/** `import('x')`'s specifier. */
function importOf(e: ts.CallExpression): string | undefined {
  if (e.expression.kind !== SyntaxKind.ImportKeyword || e.arguments.length < 1) return undefined;
  const a = e.arguments[0];
  return isStringLiteralLike(a) ? a.text : undefined;
}

/** An ES import's or re-export's specifier (`import x from 'y'`, `export * from 'y'`, `import x = require('y')`). */
function moduleSpecifierOf(node: ts.Node): string | undefined {
  if (isImportDeclaration(node) || (isExportDeclaration(node) && node.moduleSpecifier !== undefined))
    return node.moduleSpecifier !== undefined && isStringLiteralLike(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;
  if (isImportEqualsDeclaration(node) && isExternalModuleReference(node.moduleReference))
    return isStringLiteralLike(node.moduleReference.expression) ? node.moduleReference.expression.text : undefined;
  return undefined;
}

/** A name that is a member's, not a variable's: `x.name`, `{ name: v }`, `name() {}`, `class { name }`. */
function isPropertyName(node: ts.Identifier, p: ts.Node): boolean {
  if (isPropertyAccessExpression(p)) return p.name === node;
  if (isPropertyAssignment(p) || isMethodDeclaration(p) || isPropertyDeclaration(p) || isGetAccessor(p) || isSetAccessor(p))
    return p.name === node;
  if (isQualifiedName(p)) return p.right === node;
  return false;
}

/** The name a variable, function or parameter declaration declares. */
function isDeclarationName(node: ts.Identifier, p: ts.Node): boolean {
  return (isVariableDeclaration(p) || isFunctionDeclaration(p) || isParameter(p)) && p.name === node;
}

function tokensHash(text: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.ESNext, true, ts.LanguageVariant.Standard, text);
  const parts: string[] = [];
  for (let k = scanner.scan(); k !== SyntaxKind.EndOfFileToken; k = scanner.scan()) parts.push(scanner.getTokenText());
  return createHash('sha256').update(parts.join('\u0001')).digest('hex').slice(0, 12);
}

/** Offsets of each function binding's function in `text` (a method's body), with its path and what blanks it. */
function functionStatements(relPath: string, text: string): Array<{ key: string; start: number; end: number; blank: string }> | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (commonJsExports(relPath, body) === undefined) return undefined;
  const sf = parseSource('/' + relPath, body, impliedFormat(relPath));
  const out: Array<{ key: string; start: number; end: number; blank: string }> = [];
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
    if (path === undefined) continue;
    for (const [, key, value] of literalMembers(right) ?? [[s, undefined, right] as const]) {
      const at = key === undefined ? path : [...path, key];
      // A method's body is blanked, keeping its name and parameters' place: the literal stays a literal.
      if (isMethodDeclaration(value) && value.body !== undefined)
        out.push({ key: JSON.stringify(at), start: value.body.getStart(sf), end: value.body.getEnd(), blank: '{}' });
      else if (isFunctionExpression(value) || isArrowFunction(value))
        out.push({ key: JSON.stringify(at), start: value.getStart(sf), end: value.getEnd(), blank: 'function () {}' });
    }
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
    for (const x of [...xs].sort((p, q) => q.start - p.start)) out = out.slice(0, x.start) + x.blank + out.slice(x.end);
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
