// The declared signature of each symbol, hashed: what a consumer in another file depends on —
// parameters (count, optionality, rest, types; not their names), return type, type parameters,
// the export, a class's or interface's non-method members and heritage, an enum's members, a
// type alias's type. Never a body, a default value or a comment, so editing an implementation
// never looks like a breaking change (ADR-71). Read off the syntax tree alone, without the
// checker: the build records it in graph.json (`signature` on sym: nodes) and the editor computes
// the same value from an unsaved buffer on every keystroke (declaredSymbols).

import { createHash } from 'node:crypto';
import * as ts from 'typescript';
import type { GraphEdge, GraphNode, SymbolKind } from '../../model';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  LanguageVariant,
  ScriptTarget,
  SyntaxKind,
  canHaveModifiers,
  createScanner,
  forEachChild,
  getModifiers,
  isArrowFunction,
  isAsExpression,
  isBindingElement,
  isCallSignatureDeclaration,
  isClassDeclaration,
  isClassExpression,
  isConstructSignatureDeclaration,
  isConstructorDeclaration,
  isEnumDeclaration,
  isExportAssignment,
  isFunctionDeclaration,
  isFunctionExpression,
  isGetAccessorDeclaration,
  isIdentifier,
  isIndexSignatureDeclaration,
  isInterfaceDeclaration,
  isMethodDeclaration,
  isMethodSignature,
  isModuleDeclaration,
  isNonNullExpression,
  isParenthesizedExpression,
  isPrivateIdentifier,
  isPropertyDeclaration,
  isPropertySignature,
  isSatisfiesExpression,
  isSetAccessorDeclaration,
  isTypeAliasDeclaration,
  isTypeAssertionExpression,
  isVariableDeclaration,
  tokenToString,
} = ts;

/** Hex characters kept from the SHA-256 (48 bits: only one symbol's old and new are compared). */
const SIGNATURE_LENGTH = 12;

const scanner = createScanner(ScriptTarget.Latest, true, LanguageVariant.Standard);
const CLOSERS = new Set(['}', ')', ']', '>']);

/**
 * A type (or expression) as tokens: whitespace, comments, quote style, `;` versus `,` separators
 * and trailing separators do not count. `rename` maps type-parameter names to their position, so
 * renaming `T` to `U` is not a change.
 */
function tokens(node: ts.Node | undefined, sf: ts.SourceFile, rename?: ReadonlyMap<string, string>): string {
  if (!node) return '';
  const start = node.getStart(sf);
  scanner.setText(sf.text, start, node.end - start);
  const out: string[] = [];
  for (let kind = scanner.scan(); kind !== SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    let t: string;
    if (kind === SyntaxKind.Identifier) {
      t = scanner.getTokenValue();
      t = rename?.get(t) ?? t;
    } else if (kind === SyntaxKind.StringLiteral || kind === SyntaxKind.NoSubstitutionTemplateLiteral) {
      t = JSON.stringify(scanner.getTokenValue());
    } else {
      t = scanner.getTokenText();
      if (t === ';') t = ',';
    }
    if (CLOSERS.has(t) && out[out.length - 1] === ',') out.pop();
    out.push(t);
  }
  if (out[out.length - 1] === ',') out.pop();
  return out.join(' ');
}

/** Modifiers a consumer can observe; `export` is the node's `exported` flag, `declare`/`override` change nothing outside. */
const VISIBLE_MODIFIERS = new Set<ts.SyntaxKind>([
  SyntaxKind.DefaultKeyword,
  SyntaxKind.AbstractKeyword,
  SyntaxKind.StaticKeyword,
  SyntaxKind.PublicKeyword,
  SyntaxKind.ProtectedKeyword,
  SyntaxKind.PrivateKeyword,
  SyntaxKind.ReadonlyKeyword,
  SyntaxKind.AsyncKeyword,
  SyntaxKind.AccessorKeyword,
  SyntaxKind.ConstKeyword,
  SyntaxKind.InKeyword,
  SyntaxKind.OutKeyword,
]);

function modifiers(node: ts.Node): string {
  const mods = canHaveModifiers(node) ? getModifiers(node) : undefined;
  if (!mods) return '';
  return mods
    .filter((m) => VISIBLE_MODIFIERS.has(m.kind))
    .map((m) => tokenToString(m.kind) as string)
    .sort()
    .join(' ');
}

function isPrivate(member: ts.Node): boolean {
  const name = (member as { name?: ts.Node }).name;
  if (name && isPrivateIdentifier(name)) return true;
  const mods = canHaveModifiers(member) ? getModifiers(member) : undefined;
  return !!mods?.some((m) => m.kind === SyntaxKind.PrivateKeyword);
}

function typeParameters(
  tps: ts.NodeArray<ts.TypeParameterDeclaration> | undefined,
  sf: ts.SourceFile,
  rename: Map<string, string>,
): string {
  if (!tps || tps.length === 0) return '';
  const base = rename.size;
  tps.forEach((tp, i) => rename.set(tp.name.text, `$${base + i}`));
  const parts = tps.map((tp) =>
    [
      modifiers(tp),
      rename.get(tp.name.text),
      tp.constraint ? 'extends ' + tokens(tp.constraint, sf, rename) : '',
      tp.default ? '= ' + tokens(tp.default, sf, rename) : '',
    ]
      .filter(Boolean)
      .join(' '),
  );
  return '<' + parts.join(', ') + '>';
}

function parameter(p: ts.ParameterDeclaration, sf: ts.SourceFile, rename: Map<string, string>, ctor: boolean): string {
  const optional = p.questionToken || p.initializer ? '?' : '';
  // A name is not part of what a caller depends on, except `this`, a constructor's parameter
  // properties (they declare members) and an untyped destructuring (its names are the type).
  let name = '_';
  if (isIdentifier(p.name) && p.name.text === 'this') name = 'this';
  else if (ctor && modifiers(p) !== '') name = modifiers(p) + ' ' + tokens(p.name, sf);
  else if (!isIdentifier(p.name) && !p.type) name = tokens(p.name, sf);
  return `${p.dotDotDotToken ? '...' : ''}${name}${optional}: ${tokens(p.type, sf, rename)}`;
}

type FunctionLike = ts.SignatureDeclarationBase & { asteriskToken?: ts.AsteriskToken; questionToken?: ts.QuestionToken; body?: ts.Node };

function functionSignature(fn: FunctionLike, sf: ts.SourceFile, outer?: Map<string, string>): string {
  const rename = new Map(outer);
  const tps = typeParameters(fn.typeParameters, sf, rename);
  const ctor = isConstructorDeclaration(fn);
  const params = fn.parameters.map((p) => parameter(p, sf, rename, ctor)).join(', ');
  return `${modifiers(fn)}${fn.asteriskToken ? '*' : ''}${fn.questionToken ? '?' : ''}${tps}(${params}): ${tokens(fn.type, sf, rename)}`;
}

function unwrap(expr: ts.Expression | undefined): ts.Expression | undefined {
  let e = expr;
  while (
    e &&
    (isParenthesizedExpression(e) ||
      isAsExpression(e) ||
      isSatisfiesExpression(e) ||
      isTypeAssertionExpression(e) ||
      isNonNullExpression(e))
  )
    e = e.expression;
  return e;
}

function heritage(clauses: ts.NodeArray<ts.HeritageClause> | undefined, sf: ts.SourceFile, rename: Map<string, string>): string {
  return (clauses ?? []).map((c) => tokens(c, sf, rename)).join(' ');
}

type Registered = (node: ts.Node) => string | undefined;

/** Members without a node of their own (properties, index/call/construct signatures, constructors) are part of their owner's signature. */
function memberList(
  members: ts.NodeArray<ts.ClassElement | ts.TypeElement>,
  sf: ts.SourceFile,
  rename: Map<string, string>,
  registered: Registered,
): string {
  const parts: string[] = [];
  for (const m of members) {
    if (registered(m) !== undefined) continue;
    // A private member is invisible outside, but a private constructor forbids `new`.
    if (isPrivate(m) && !isConstructorDeclaration(m)) continue;
    if (isConstructorDeclaration(m)) {
      if (!m.body || !members.some((o) => o !== m && isConstructorDeclaration(o) && !o.body))
        parts.push('constructor' + functionSignature(m, sf, rename));
    } else if (isPropertyDeclaration(m) || isPropertySignature(m)) {
      parts.push(`${modifiers(m)} ${m.name ? tokens(m.name, sf) : ''}${m.questionToken ? '?' : ''}: ${tokens(m.type, sf, rename)}`);
    } else if (isIndexSignatureDeclaration(m) || isCallSignatureDeclaration(m) || isConstructSignatureDeclaration(m)) {
      parts.push(tokens(m, sf, rename));
    } else if (isMethodDeclaration(m) || isMethodSignature(m) || isGetAccessorDeclaration(m) || isSetAccessorDeclaration(m)) {
      // A member the extraction gives no node (a computed name it cannot spell): still part of the shape.
      parts.push(tokens(m.name, sf) + functionSignature(m, sf, rename));
    }
  }
  return '{' + parts.join('; ') + '}';
}

function classSignature(c: ts.ClassLikeDeclaration, sf: ts.SourceFile, registered: Registered): string {
  const rename = new Map<string, string>();
  return `class ${modifiers(c)}${typeParameters(c.typeParameters, sf, rename)} ${heritage(c.heritageClauses, sf, rename)} ${memberList(c.members, sf, rename, registered)}`;
}

/** The canonical text of one declaration: what a consumer depends on, nothing else. */
function declarationText(decl: ts.Node, sf: ts.SourceFile, registered: Registered): string {
  if (isFunctionDeclaration(decl) || isMethodDeclaration(decl) || isMethodSignature(decl)) return 'function ' + functionSignature(decl, sf);
  if (isGetAccessorDeclaration(decl)) return `get ${modifiers(decl)}: ${tokens(decl.type, sf)}`;
  if (isSetAccessorDeclaration(decl)) return `set ${modifiers(decl)}: ${tokens(decl.parameters[0]?.type, sf)}`;
  if (isClassDeclaration(decl)) return classSignature(decl, sf, registered);
  if (isInterfaceDeclaration(decl)) {
    const rename = new Map<string, string>();
    return `interface ${typeParameters(decl.typeParameters, sf, rename)} ${heritage(decl.heritageClauses, sf, rename)} ${memberList(decl.members, sf, rename, registered)}`;
  }
  if (isTypeAliasDeclaration(decl)) {
    const rename = new Map<string, string>();
    return `type ${typeParameters(decl.typeParameters, sf, rename)} = ${tokens(decl.type, sf, rename)}`;
  }
  if (isEnumDeclaration(decl))
    return `enum ${modifiers(decl)} {${decl.members.map((m) => tokens(m.name, sf) + (m.initializer ? ' = ' + tokens(m.initializer, sf) : '')).join(', ')}}`;
  if (isModuleDeclaration(decl)) return 'namespace';
  if (isPropertySignature(decl)) return `property ${modifiers(decl)}${decl.questionToken ? '?' : ''}: ${tokens(decl.type, sf)}`;
  if (isVariableDeclaration(decl) || isPropertyDeclaration(decl) || isExportAssignment(decl)) {
    const init = unwrap(isExportAssignment(decl) ? decl.expression : decl.initializer);
    const declared = isExportAssignment(decl)
      ? ''
      : `${modifiers(decl)}${decl.exclamationToken ? '!' : ''}${isPropertyDeclaration(decl) && decl.questionToken ? '?' : ''}: ${tokens(decl.type, sf)}`;
    // The value's shape when it is a function or a class; any other initializer is a value, not a signature.
    let value = '';
    if (init && (isArrowFunction(init) || isFunctionExpression(init))) value = ' = function ' + functionSignature(init, sf);
    else if (init && isClassExpression(init)) value = ' = ' + classSignature(init, sf, registered);
    return `value ${declared}${value}`;
  }
  if (isBindingElement(decl)) return `binding ${decl.dotDotDotToken ? '...' : ''}${decl.propertyName ? tokens(decl.propertyName, sf) : ''}`;
  return ts.SyntaxKind[decl.kind];
}

function isOverloadSignature(decl: ts.Node): boolean {
  return (isFunctionDeclaration(decl) || isMethodDeclaration(decl)) && decl.body === undefined;
}

function hasBody(decl: ts.Node): boolean {
  return (isFunctionDeclaration(decl) || isMethodDeclaration(decl)) && decl.body !== undefined;
}

/**
 * Sets `signature` on every symbol node of one file's extraction: the hash of its kind, its
 * export and the canonical text of each of its declarations in source order (the implementation
 * of an overloaded function is not visible to callers and is left out). `registered` says which
 * node id the extraction gave a declaration, if any.
 */
export function signDeclarations(sf: ts.SourceFile, nodes: readonly GraphNode[], registered: Registered): void {
  const decls = new Map<string, ts.Node[]>();
  // Declarations live at module level, in namespaces, classes, interfaces and the initializers
  // of bindings; never inside a function body, so blocks are not entered.
  const stack: ts.Node[] = [sf];
  while (stack.length > 0) {
    const node = stack.pop() as ts.Node;
    if (node !== sf) {
      const id = registered(node);
      if (id !== undefined) {
        const list = decls.get(id);
        if (list) list.push(node);
        else decls.set(id, [node]);
      }
    }
    const children: ts.Node[] = [];
    forEachChild(node, (c) => {
      if (c.kind !== SyntaxKind.Block) children.push(c);
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  for (const node of nodes) {
    const list = decls.get(node.id);
    if (!list) continue;
    const overloaded = list.some(isOverloadSignature);
    const parts = list.filter((d) => !(overloaded && hasBody(d))).map((d) => declarationText(d, sf, registered));
    node.signature = signatureHash(node.kind as SymbolKind, node.exported === true, parts);
  }
}

function signatureHash(kind: SymbolKind, exported: boolean, parts: readonly string[]): string {
  return createHash('sha256')
    .update(`${kind}\n${exported ? 'export' : ''}\n${parts.join('\n')}`)
    .digest('hex')
    .slice(0, SIGNATURE_LENGTH);
}

/** One symbol of a file as the guard compares it (see src/graph/governance/breaking.ts). */
export interface DeclaredSymbol {
  id: string;
  kind: string;
  label: string;
  line: number;
  column: number;
  exported: boolean;
  signature: string;
  /** The symbol that contains it (a class for a method), when there is one. */
  parent?: string;
}

/** The symbols of an extraction, with their signatures and containers, sorted by id. */
export function symbolsOf(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): DeclaredSymbol[] {
  const parent = new Map<string, string>();
  for (const e of edges) if (e.relation === 'contains' && e.source.startsWith('sym:')) parent.set(e.target, e.source);
  const out: DeclaredSymbol[] = [];
  for (const n of nodes) {
    if (!n.id.startsWith('sym:') || n.signature === undefined) continue;
    const s: DeclaredSymbol = {
      id: n.id,
      kind: n.kind,
      label: n.label,
      line: n.line ?? 1,
      column: n.column ?? 1,
      exported: n.exported === true,
      signature: n.signature,
    };
    const p = parent.get(n.id);
    if (p !== undefined) s.parent = p;
    out.push(s);
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
