// The extraction tier: what one parsed file declares and imports, read off its syntax tree.
// Everything produced here is owned by the file it came from.

import * as path from 'node:path';
import * as ts from 'typescript';
import { fileId, symbolId } from '../../ids';
import { componentLabel, componentOf, componentScriptKind, isAuthored, isComponentStandIn } from '../components/component-code';
import type { GraphEdge, GraphNode, SymbolKind } from '../../model';
import { compareStrings } from '../../model';
import { exactEdge } from '../edges';
import { signDeclarations } from './declared-signature';
import { prototypeMethod } from './prototype-method';
import { collectImports } from './import-refs';
import { declarationNameStart, evidenceAt, registeredId } from '../syntax/declaration-positions';
import type { ImportRef } from '../facts';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  JSDocParsingMode,
  ScriptKind,
  ScriptTarget,
  SyntaxKind,
  canHaveModifiers,
  createSourceFile,
  getModifiers,
  isArrowFunction,
  isAsExpression,
  isBindingElement,
  isCallExpression,
  isClassDeclaration,
  isClassExpression,
  isComputedPropertyName,
  isConstructorDeclaration,
  isEnumDeclaration,
  isExportAssignment,
  isExportDeclaration,
  isExpressionStatement,
  isFunctionDeclaration,
  isFunctionExpression,
  isFunctionTypeNode,
  isGetAccessorDeclaration,
  isIdentifier,
  isInterfaceDeclaration,
  isMethodDeclaration,
  isMethodSignature,
  isModuleBlock,
  isModuleDeclaration,
  isNamedExports,
  isNoSubstitutionTemplateLiteral,
  isNonNullExpression,
  isNumericLiteral,
  isObjectLiteralExpression,
  isParameter,
  isParameterPropertyDeclaration,
  isParenthesizedExpression,
  isPrivateIdentifier,
  isPropertyAssignment,
  isPropertyDeclaration,
  isPropertySignature,
  isSatisfiesExpression,
  isSetAccessorDeclaration,
  isStringLiteral,
  isTypeAliasDeclaration,
  isTypeAssertionExpression,
  isVariableStatement,
} = ts;
// Persisted per-file facts live below the compiler (../facts.ts); re-exported for this side's users.
export type { ImportRef } from '../facts';

export interface FileExtraction {
  path: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  imports: ImportRef[];
  /**
   * Start offset of each registered declaration's name (see `declarationNameStart`) → the id of
   * the node it collapsed into. A checker backend answers with the same offsets.
   */
  declarations: Map<number, string>;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  const mods = canHaveModifiers(node) ? getModifiers(node) : undefined;
  return !!mods?.some((m) => m.kind === kind);
}

/** A wrapper that changes nothing about the value inside: parentheses, `as`, `satisfies`, `<T>x`, `x!`. */
export function isOuterExpression(
  e: ts.Expression,
): e is ts.ParenthesizedExpression | ts.AsExpression | ts.SatisfiesExpression | ts.TypeAssertion | ts.NonNullExpression {
  return (
    isParenthesizedExpression(e) || isAsExpression(e) || isSatisfiesExpression(e) || isTypeAssertionExpression(e) || isNonNullExpression(e)
  );
}

/** Strips parentheses and type assertions: `(() => 1) as F` is still a function. */
export function skipOuter(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (isOuterExpression(e)) e = e.expression;
  return e;
}

function isFunctionLike(expr: ts.Expression | undefined): boolean {
  if (!expr) return false;
  const e = skipOuter(expr);
  return isArrowFunction(e) || isFunctionExpression(e);
}

/** The display name of a member's name node. */
function memberName(name: ts.PropertyName | ts.BindingName, sf: ts.SourceFile): string | undefined {
  if (isIdentifier(name) || isPrivateIdentifier(name)) return name.text;
  if (isStringLiteral(name) || isNumericLiteral(name) || isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (isComputedPropertyName(name)) return '[' + name.expression.getText(sf) + ']';
  return undefined;
}

function scriptKindOf(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ScriptKind.JSX;
  if (/\.[mc]?js$/.test(file)) return ScriptKind.JS;
  return ScriptKind.TS;
}

/** Parses a file the way the program will, so both tiers see the same tree. */
export function parseSource(absPath: string, text: string, impliedNodeFormat: ts.ResolutionMode): ts.SourceFile {
  return createSourceFile(
    absPath,
    text,
    { languageVersion: ScriptTarget.ESNext, impliedNodeFormat, jsDocParsingMode: JSDocParsingMode.ParseForTypeErrors },
    false,
    componentScriptKind(absPath, text) ?? scriptKindOf(absPath),
  );
}

/** The `default` token of `export default <expression>`, as a node the position code can use. */
interface Collected {
  node: GraphNode;
  kinds: Set<SymbolKind>;
  /** Name start of the declaration the node sits at: the earliest one. */
  start: number;
  /** The line of every declaration's name (overload signatures, an implementation, merged declarations). */
  lines: number[];
}

/**
 * The word between a class and a static member's name when an instance member of the class has
 * the same name (`Model.static.save` beside `Model.save`): the checker keeps the two apart, so
 * the graph does (ADR 80). `static` is a reserved word in class bodies and modules, so no member
 * or namespace of that name can produce the same id.
 */
const STATIC_TWIN = 'static';

function isStatic(m: ts.ClassElement | ts.TypeElement): boolean {
  return hasModifier(m, SyntaxKind.StaticKeyword);
}

/** `$props()`: a Svelte 5 component's props, its interface to whoever uses it, as an export is a module's (ADR 169). */
function isPropsRune(e: ts.Expression | undefined): boolean {
  return e !== undefined && isCallExpression(e) && isIdentifier(e.expression) && e.expression.text === '$props';
}

/** What `declare` answers for a component's generated glue: no node, no id (ADR 169). */
const GLUE = '';

/** A static member, declared once every instance member of its owner is known (ADR 80). */
interface StaticMember {
  m: ts.ClassElement | ts.TypeElement;
  name: string;
  owner: string;
  ownerId: string;
  kind: SymbolKind;
}

/** Statements to visit, with the dotted prefix and the id of what contains them. */
interface Work {
  statements: ts.NodeArray<ts.Statement>;
  prefix: string;
  parent: string;
  inNamespace: boolean;
}

/**
 * One walk over a file's statements, namespace bodies after the statements around them: the
 * symbols collected by id, each declaration's id by its name's start, the containment edges, the
 * names exported by a local `export { … }`, and what is declared once the walk is over (static
 * members, prototype methods).
 */
class DeclarationWalker {
  private readonly fid: string;
  private readonly collected = new Map<string, Collected>();
  private readonly declarations = new Map<number, string>();
  private readonly edges: GraphEdge[] = [];
  private readonly localExports = new Set<string>();
  private readonly component: ReturnType<typeof componentOf>;
  // Instance member names of each class or interface (every declaration of it in the file), and
  // the static members, declared once all of those are known: a static member whose name an
  // instance member also has is spelled `<Class>.static.<name>` (ADR 80).
  private readonly instanceNames = new Map<string, Set<string>>();
  private readonly statics: StaticMember[] = [];
  // `C.prototype.m = function` at a JavaScript file's top level, declared once the file's
  // functions are known: a member of the function `C` declared there (ADR 188).
  private readonly javascript: boolean;
  private readonly prototypeMethods: Array<{ owner: string; name: string; decl: ts.BinaryExpression }> = [];
  private readonly work: Work[];

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly relPath: string,
  ) {
    this.fid = fileId(relPath);
    this.component = componentOf(sf);
    this.javascript = /\.[cm]?jsx?$/.test(relPath) && !this.component;
    this.work = [{ statements: sf.statements, prefix: '', parent: this.fid, inNamespace: false }];
  }

  walk(): FileExtraction {
    const { sf, relPath, work, collected, declarations } = this;
    while (work.length > 0) {
      const where = work.shift() as Work;
      for (const st of where.statements) this.statement(st, where);
    }
    this.declareLater();
    const nodes: GraphNode[] = [{ id: this.fid, kind: 'file', label: path.posix.basename(relPath), sourceFile: relPath }];
    for (const { node, kinds, lines } of collected.values()) {
      if (kinds.size > 1) node.symbolKinds = [...kinds].sort(compareStrings);
      // Each line a collapsed declaration is on, so `path:line` on any of them places this node (issue 48).
      const distinct = [...new Set(lines)].sort((a, b) => a - b);
      if (distinct.length > 1) node.declarationLines = distinct;
      nodes.push(node);
    }
    signDeclarations(sf, nodes, (n) => registeredId(n, sf, declarations));
    return { path: relPath, nodes, edges: this.edges, imports: collectImports(sf, relPath), declarations };
  }

  private declare(name: string, kind: SymbolKind, decl: ts.Node, parent: string, exported: boolean): string {
    const { sf, relPath, collected, component } = this;
    const id = symbolId(relPath, name);
    const start = declarationNameStart(decl, sf);
    // Generated glue in a component is never a declaration (ADR 169); nor is anything inside it.
    if (parent === GLUE || (component && !isAuthored(component, start))) return GLUE;
    const position = evidenceAt(sf, relPath, start);
    const existing = collected.get(id);
    if (existing) {
      existing.kinds.add(kind);
      existing.lines.push(position.line);
      existing.node.declarationCount = (existing.node.declarationCount ?? 1) + 1;
      if (exported) existing.node.exported = true;
      // Static members are declared after the rest of the file (see `declareMembers`), so the
      // earliest declaration is not always the first one declared: it still wins.
      if (start < existing.start) {
        existing.start = start;
        existing.node.kind = kind;
        existing.node.line = position.line;
        existing.node.column = position.column;
      }
    } else {
      const node: GraphNode = { id, kind, label: name, sourceFile: relPath, line: position.line, column: position.column };
      if (exported) node.exported = true;
      collected.set(id, { node, kinds: new Set([kind]), start, lines: [position.line] });
    }
    // A framework may reach a decorated declaration by convention (ADR 157).
    if (ts.canHaveDecorators(decl) && (ts.getDecorators(decl)?.length ?? 0) > 0) {
      (collected.get(id) as Collected).node.decorated = true;
    }
    this.edges.push(exactEdge(parent, id, 'contains', 'SYNTAX', { evidence: position, ast: true }));
    this.declarations.set(start, id);
    return id;
  }

  // A component's stand-ins (ADR 169): its render function, definition and default export are one
  // node, `#default`, at the file's first line; the calls of the render function are the component's.
  private componentNode(standIn: ts.Node): string {
    const { relPath, collected } = this;
    const id = symbolId(relPath, 'default');
    if (!collected.has(id)) {
      const kind: SymbolKind = this.component?.kind === 'svelte' ? 'function' : 'class';
      const node: GraphNode = { id, kind, label: componentLabel(relPath), sourceFile: relPath, line: 1, column: 1, exported: true };
      collected.set(id, { node, kinds: new Set([kind]), start: -1, lines: [1] });
      this.edges.push(exactEdge(this.fid, id, 'contains', 'SYNTAX', { evidence: { file: relPath, line: 1, column: 1 }, ast: true }));
    }
    this.declarations.set(declarationNameStart(standIn, this.sf), id);
    return id;
  }

  /** True for a stand-in handled here; the statements to read as the component's (Svelte's render function); undefined otherwise. */
  private componentStandIn(st: ts.Statement): ts.NodeArray<ts.Statement> | true | undefined {
    const { sf } = this;
    const c = this.component as NonNullable<DeclarationWalker['component']>;
    if (isExportAssignment(st) && !st.isExportEquals) {
      this.componentNode(st);
      return true;
    }
    if (isFunctionDeclaration(st) && st.name && isComponentStandIn(c.kind, st.name.text) && !isAuthored(c, st.name.getStart(sf))) {
      this.componentNode(st);
      return st.body?.statements ?? true;
    }
    if (isVariableStatement(st)) {
      const standIns = st.declarationList.declarations.filter(
        (d) => isIdentifier(d.name) && isComponentStandIn(c.kind, d.name.text) && !isAuthored(c, d.name.getStart(sf)),
      );
      for (const d of standIns) this.componentNode(d);
      if (standIns.length > 0 && standIns.length === st.declarationList.declarations.length) return true;
    }
    return undefined;
  }

  private declareMembers(members: ts.NodeArray<ts.ClassElement | ts.TypeElement>, owner: string, ownerId: string): void {
    if (ownerId === GLUE) return;
    for (const m of members) {
      if (!m.name) continue;
      const isMethod =
        isMethodDeclaration(m) ||
        isMethodSignature(m) ||
        isGetAccessorDeclaration(m) ||
        isSetAccessorDeclaration(m) ||
        (isPropertyDeclaration(m) && isFunctionLike(m.initializer)) ||
        (isPropertySignature(m) && !!m.type && isFunctionTypeNode(m.type));
      // A field or property signature holding data is a member other code reads and writes: it is
      // a node of its own, so what references it can be counted (ADR 151).
      const isProperty = !isMethod && (isPropertyDeclaration(m) || isPropertySignature(m));
      if (!isMethod && !isProperty) continue;
      const name = memberName(m.name, this.sf);
      if (!name) continue; // '' is a name the parser invented while recovering from an error
      this.declareMember(m, name, isMethod ? 'method' : 'property', owner, ownerId);
    }
    // Parameter properties (`constructor(private readonly store: Store)`) are fields too.
    for (const m of members) {
      if (!isConstructorDeclaration(m)) continue;
      for (const p of m.parameters) {
        if (!isIdentifier(p.name) || p.name.text === '' || !isParameterPropertyDeclaration(p, m)) continue;
        this.declareMember(p, p.name.text, 'property', owner, ownerId);
      }
    }
  }

  private declareMember(
    m: ts.ClassElement | ts.TypeElement | ts.ParameterDeclaration,
    name: string,
    kind: SymbolKind,
    owner: string,
    ownerId: string,
  ): void {
    if (!isParameter(m) && isStatic(m)) {
      this.statics.push({ m, name, owner, ownerId, kind });
      return;
    }
    let names = this.instanceNames.get(owner);
    if (!names) this.instanceNames.set(owner, (names = new Set()));
    names.add(name);
    this.declare(`${owner}.${name}`, kind, m, ownerId, false);
  }

  /**
   * The functions an object literal bound to a name holds (`const api = { get() {}, put: () => … }`,
   * accessors too): each a `method` `api.get` inside the variable, so its code and its calls are
   * its own and a call `api.get()` the checker places on it is a proven edge to it (ADR 200).
   * Data, computed keys, spreads and nested literals are not members: they stay the variable's.
   */
  private declareLiteralMethods(literal: ts.ObjectLiteralExpression, owner: string, ownerId: string): void {
    if (ownerId === GLUE) return;
    for (const p of literal.properties) {
      const isMethod =
        isMethodDeclaration(p) ||
        isGetAccessorDeclaration(p) ||
        isSetAccessorDeclaration(p) ||
        (isPropertyAssignment(p) && isFunctionLike(p.initializer));
      if (!isMethod || isComputedPropertyName(p.name)) continue;
      const name = memberName(p.name, this.sf);
      if (!name) continue; // '' is a name the parser invented while recovering from an error
      this.declare(`${owner}.${name}`, 'method', p, ownerId, false);
    }
  }

  private declareBinding(
    name: ts.BindingName,
    decl: ts.Node,
    initializer: ts.Expression | undefined,
    prefix: string,
    parent: string,
    exported: boolean,
  ): void {
    const pending: Array<{ name: ts.BindingName; decl: ts.Node; initializer: ts.Expression | undefined }> = [{ name, decl, initializer }];
    while (pending.length > 0) {
      const b = pending.shift() as (typeof pending)[number];
      if (isIdentifier(b.name)) {
        if (b.name.text === '') continue; // a name the parser invented while recovering
        const init = b.initializer ? skipOuter(b.initializer) : undefined;
        if (init && isClassExpression(init)) {
          const id = this.declare(prefix + b.name.text, 'class', b.decl, parent, exported);
          this.declareMembers(init.members, prefix + b.name.text, id);
        } else if (init && isObjectLiteralExpression(init)) {
          const id = this.declare(prefix + b.name.text, 'variable', b.decl, parent, exported);
          this.declareLiteralMethods(init, prefix + b.name.text, id);
        } else {
          this.declare(prefix + b.name.text, isFunctionLike(b.initializer) ? 'function' : 'variable', b.decl, parent, exported);
        }
        continue;
      }
      for (const el of b.name.elements) {
        if (isBindingElement(el)) pending.push({ name: el.name, decl: el, initializer: undefined });
      }
    }
  }

  /** One statement of a file, a namespace body or a component's render function. */
  private statement(st: ts.Statement, { prefix, parent, inNamespace }: Work): void {
    const { component } = this;
    if (component) {
      const body = this.componentStandIn(st);
      if (body === true) return;
      if (body) {
        this.work.push({ statements: body, prefix, parent: this.componentNode(st), inNamespace: false });
        return;
      }
    }
    const exported = hasModifier(st, SyntaxKind.ExportKeyword);
    if (this.javascript && prefix === '' && isExpressionStatement(st)) {
      const method = prototypeMethod(st);
      if (method && isFunctionLike(method.decl.right)) this.prototypeMethods.push(method);
    } else if (isFunctionDeclaration(st) || isClassDeclaration(st)) {
      const isDefault = st.modifiers?.some((m) => m.kind === SyntaxKind.DefaultKeyword);
      const name = st.name ? st.name.text : isDefault ? 'default' : undefined;
      if (!name) return; // '' is a name the parser invented while recovering from an error
      if (isFunctionDeclaration(st)) {
        this.declare(prefix + name, 'function', st, parent, exported);
      } else {
        const id = this.declare(prefix + name, 'class', st, parent, exported);
        this.declareMembers(st.members, prefix + name, id);
      }
    } else if (isInterfaceDeclaration(st) && st.name.text !== '') {
      const id = this.declare(prefix + st.name.text, 'interface', st, parent, exported);
      this.declareMembers(st.members, prefix + st.name.text, id);
    } else if (isEnumDeclaration(st) && st.name.text !== '') {
      this.declare(prefix + st.name.text, 'enum', st, parent, exported);
    } else if (isTypeAliasDeclaration(st) && st.name.text !== '') {
      this.declare(prefix + st.name.text, 'type', st, parent, exported);
    } else if (isModuleDeclaration(st) && isIdentifier(st.name) && st.name.text !== '') {
      this.namespace(st, prefix, parent, exported);
    } else if (isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        this.declareBinding(
          d.name,
          d,
          d.initializer,
          prefix,
          parent,
          exported || (component?.kind === 'svelte' && isPropsRune(d.initializer)),
        );
      }
    } else if (isExportAssignment(st) && !st.isExportEquals && !inNamespace) {
      const e = skipOuter(st.expression);
      if (isArrowFunction(e) || isFunctionExpression(e)) {
        this.declare('default', 'function', st, parent, true);
      } else if (isClassExpression(e)) {
        const id = this.declare('default', 'class', st, parent, true);
        this.declareMembers(e.members, 'default', id);
      } else if (isIdentifier(e)) {
        this.localExports.add(e.text);
      }
    } else if (isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && isNamedExports(st.exportClause)) {
      for (const spec of st.exportClause.elements) {
        if (isIdentifier(spec.propertyName ?? spec.name)) this.localExports.add(((spec.propertyName ?? spec.name) as ts.Identifier).text);
      }
    }
  }

  /** `namespace A.B.C { }` nests bodies; each level is a namespace. Its body is walked later. */
  private namespace(st: ts.ModuleDeclaration, prefix: string, parent: string, exported: boolean): void {
    let decl: ts.ModuleDeclaration = st;
    let name = prefix + (st.name as ts.Identifier).text;
    let id = this.declare(name, 'namespace', st, parent, exported);
    while (decl.body && isModuleDeclaration(decl.body) && isIdentifier(decl.body.name) && decl.body.name.text !== '') {
      decl = decl.body;
      name = name + '.' + (decl.name as ts.Identifier).text;
      id = this.declare(name, 'namespace', decl, id, true);
    }
    if (decl.body && isModuleBlock(decl.body)) {
      this.work.push({ statements: decl.body.statements, prefix: name + '.', parent: id, inNamespace: true });
    }
  }

  /** Once the walk is over: the prototype methods, the static members, the local exports. */
  private declareLater(): void {
    const { relPath, collected } = this;
    for (const { owner, name, decl } of this.prototypeMethods) {
      const c = collected.get(symbolId(relPath, owner));
      // A function declared in this file; a class's own methods are declared in its body.
      if (!c || c.node.kind !== 'function' || c.kinds.size !== 1) continue;
      this.declare(`${owner}.${name}`, 'method', decl, c.node.id, false);
    }
    for (const { m, name, owner, ownerId, kind } of this.statics) {
      const twin = this.instanceNames.get(owner)?.has(name) === true;
      const id = this.declare(twin ? `${owner}.${STATIC_TWIN}.${name}` : `${owner}.${name}`, kind, m, ownerId, false);
      (collected.get(id) as Collected).node.static = true;
    }
    for (const name of this.localExports) {
      const c = collected.get(symbolId(relPath, name));
      if (c) c.node.exported = true;
    }
  }
}

/** Extracts one file's declarations, containment and import references. */
export function extractFile(sf: ts.SourceFile, relPath: string): FileExtraction {
  return new DeclarationWalker(sf, relPath).walk();
}
