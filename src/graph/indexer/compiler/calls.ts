// The resolution tier's syntax half: find every call site (calls, `new`, tagged templates,
// decorators, JSX elements, `super(...)`) and heritage clause in a file, with its caller — the
// innermost enclosing function, method, class or namespace node, or the file at top level — and
// every other use of a name that may denote a declaration of the repository (a reference, ADR 151),
// with the innermost enclosing symbol of any kind. Which declaration a site reaches is the
// checker's question (checker.ts), not this file's.

import * as ts from 'typescript';
import { fileId, symbolId } from '../../ids';
import type { Relation } from '../../model';
import { isOuterExpression, skipOuter, type FileExtraction } from './extract';
import { registeredId } from '../syntax/declaration-positions';
import { objectLiteralKey } from './checker';
import { isKeyLiteral, isReferenceName, namespaceBindings, usedWhole } from './reference-names';
import { componentOf, isAuthored } from '../components/component-code';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  SyntaxKind,
  forEachChild,
  isArrowFunction,
  isAsExpression,
  isBlock,
  isCaseBlock,
  isCatchClause,
  isClassDeclaration,
  isEnumDeclaration,
  isForInStatement,
  isForOfStatement,
  isForStatement,
  isFunctionDeclaration,
  isFunctionLike,
  isOmittedExpression,
  isVariableDeclarationList,
  isVariableStatement,
  isBinaryExpression,
  isCallExpression,
  isClassExpression,
  isConditionalExpression,
  isDecorator,
  isElementAccessExpression,
  isFunctionExpression,
  isHeritageClause,
  isIdentifier,
  isJsxOpeningElement,
  isJsxSelfClosingElement,
  isNewExpression,
  isNumericLiteral,
  isParenthesizedExpression,
  isPostfixUnaryExpression,
  isPrefixUnaryExpression,
  isPrivateIdentifier,
  isPropertyAccessExpression,
  isSatisfiesExpression,
  isStringLiteralLike,
  isTaggedTemplateExpression,
} = ts;

type SiteContext = 'new' | 'super' | 'tag' | 'decorator' | 'jsx' | 'conditional';

export interface Site {
  /** `calls`, `extends`, `implements`, or `references` (any other use of a name, ADR 151). */
  relation: Relation;
  /** The node id the edge starts from: the caller, the class/interface for heritage, the innermost symbol for a reference. */
  source: string;
  /** Start offset of the callee name; undefined when there is no name to ask about. */
  position?: number;
  /** Where the site is reported: the callee name, or the callee expression when it has none. */
  at: number;
  /** The name node, for the in-process checker backend. */
  hint?: ts.Node;
  /** The callee name as written, for unresolved ids and name matching. */
  name: string;
  /** A reference that is an import's name (`import { x }`, `import x from`): it may be subsumed (ADR 151). */
  imported?: boolean;
  /**
   * A key of an object literal (ADR 155): it uses what the literal's contextual type declares
   * under its name, which only the checker knows; never matched by name.
   */
  contextual?: boolean;
  /**
   * A name used whole: not the object of `name.x`, `name['x']` or `T.x` (ADR 185). When it denotes
   * a module (`import * as m`, `Object.keys(m)`, `export { m }`), the module object is used as a
   * value and any of its exports may be read through it: a reference to the module's file.
   */
  whole?: boolean;
  /** `obj.name(...)` rather than `name(...)`: name matching looks at members. */
  member: boolean;
  context?: SiteContext;
  /** Known from syntax alone: a computed key (`obj[key]()`) or a callee that is not a name (`f()()`). */
  syntacticReason?: 'dynamic-access' | 'indirect';
  /**
   * Sites with the same key denote the same declarations, so the checker is asked once: the same
   * name (or `name.member`) inside one scope-free expression. Resolving a name walks every
   * ancestor, so without this a 100,000-term expression would cost quadratic time.
   */
  shareKey?: string;
}

/** Expressions that open no scope and do not narrow types: names inside resolve alike. */
function isPlainExpression(node: ts.Node): boolean {
  if (isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    return (
      op !== SyntaxKind.AmpersandAmpersandToken &&
      op !== SyntaxKind.BarBarToken &&
      op !== SyntaxKind.QuestionQuestionToken &&
      !(op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment)
    );
  }
  return isParenthesizedExpression(node) || isCallExpression(node) || isPrefixUnaryExpression(node) || isPostfixUnaryExpression(node);
}

function holdsCode(init: ts.Expression | undefined): boolean {
  if (!init) return false;
  const e = skipOuter(init);
  return isArrowFunction(e) || isFunctionExpression(e) || isClassExpression(e);
}

/**
 * Whether a registered declaration holds code that calls things: a function, class, method or
 * namespace — decided by the declaration itself, not by the kind of the node it collapsed into.
 * A class merged with an interface declared before it has an `interface` node, yet the calls in
 * the class's constructor, field initializers and static blocks belong to that node
 * (docs/graph-format.md, "Callers").
 */
/**
 * The callee a component's template call names: Vue's tools write `{{ f(x) }}` as
 * `__VLS_unwrap(f, …)(x)`, a call of `f` (ADR 169).
 */
function unwrappedCallee(callee: ts.Expression): ts.Expression {
  let e = callee;
  while (isParenthesizedExpression(e)) e = e.expression;
  if (isCallExpression(e) && isIdentifier(e.expression) && e.expression.text === '__VLS_unwrap' && e.arguments.length > 0)
    return e.arguments[0];
  return callee;
}

/** The body of the render function a component's node stands for (Svelte's `$$render`), if any. */
function componentRenderBody(sf: ts.SourceFile, extraction: FileExtraction): ts.Block | undefined {
  const id = symbolId(extraction.path, 'default');
  for (const st of sf.statements)
    if (isFunctionDeclaration(st) && st.body && registeredId(st, sf, extraction.declarations) === id) return st.body;
  return undefined;
}

function isCallerDeclaration(node: ts.Node): boolean {
  switch (node.kind) {
    case SyntaxKind.FunctionDeclaration:
    case SyntaxKind.ClassDeclaration:
    case SyntaxKind.ModuleDeclaration:
    case SyntaxKind.MethodDeclaration:
    case SyntaxKind.MethodSignature:
    case SyntaxKind.GetAccessor:
    case SyntaxKind.SetAccessor:
    case SyntaxKind.PropertySignature:
    case SyntaxKind.BinaryExpression: // a registered `C.prototype.m = function` (ADR 188): only those reach here
      return true;
    case SyntaxKind.VariableDeclaration:
    case SyntaxKind.PropertyDeclaration:
    case SyntaxKind.PropertyAssignment: // a registered `m: function` of an object literal (ADR 200)
      return holdsCode((node as ts.VariableDeclaration | ts.PropertyDeclaration | ts.PropertyAssignment).initializer);
    case SyntaxKind.ExportAssignment:
      return holdsCode((node as ts.ExportAssignment).expression);
    default:
      return false;
  }
}

function truncate(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 40 ? oneLine.slice(0, 39) + '…' : oneLine;
}

function isIntrinsicTag(tag: ts.JsxTagNameExpression): boolean {
  return isIdentifier(tag) && (/^[a-z]/.test(tag.text) || tag.text.includes('-'));
}

/** The name-bearing expressions a callee expression may evaluate to. */
function calleeLeaves(expr: ts.Expression): Array<{ leaf: ts.Expression; conditional: boolean }> {
  const out: Array<{ leaf: ts.Expression; conditional: boolean }> = [];
  const work: Array<{ e: ts.Expression; conditional: boolean }> = [{ e: expr, conditional: false }];
  while (work.length > 0) {
    const { e, conditional } = work.pop() as { e: ts.Expression; conditional: boolean };
    if (isOuterExpression(e)) {
      work.push({ e: e.expression, conditional });
    } else if (isConditionalExpression(e)) {
      work.push({ e: e.whenFalse, conditional: true }, { e: e.whenTrue, conditional: true });
    } else if (isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === SyntaxKind.BarBarToken || op === SyntaxKind.QuestionQuestionToken) {
        work.push({ e: e.right, conditional: true }, { e: e.left, conditional: true });
      } else if (op === SyntaxKind.AmpersandAmpersandToken) {
        work.push({ e: e.right, conditional: true });
      } else if (op === SyntaxKind.CommaToken) {
        work.push({ e: e.right, conditional });
      } else {
        out.push({ leaf: e, conditional });
      }
    } else {
      out.push({ leaf: e, conditional });
    }
  }
  return out;
}

/**
 * The names of values a function or block declares itself, with the scope around it. A name used
 * as a value inside it denotes that local, never a declaration of the graph, so it is not asked
 * about (the checker would only say "a local"). Module scope is never a Scope: its declarations
 * are the graph's. Declarations a scope does not list (a `var` in a nested block, a type) are only
 * asked about, never skipped wrongly.
 */
interface Scope {
  names: Set<string>;
  parent: Scope | undefined;
}

function addBindingNames(name: ts.BindingName, into: Set<string>): void {
  const work: ts.BindingName[] = [name];
  while (work.length > 0) {
    const n = work.pop() as ts.BindingName;
    if (isIdentifier(n)) into.add(n.text);
    else for (const el of n.elements) if (!isOmittedExpression(el)) work.push(el.name);
  }
}

function scopeOpenedBy(node: ts.Node, scope: Scope | undefined): Scope | undefined {
  let names: Set<string> | undefined;
  if (isFunctionLike(node)) {
    names = new Set();
    for (const p of node.parameters) addBindingNames(p.name, names);
    if ((isFunctionExpression(node) || isClassExpression(node)) && node.name) names.add(node.name.text);
  } else if (isBlock(node) || isCaseBlock(node)) {
    names = new Set();
    const statements = isBlock(node) ? node.statements : node.clauses.flatMap((c) => [...c.statements]);
    for (const st of statements) {
      if (isVariableStatement(st)) for (const d of st.declarationList.declarations) addBindingNames(d.name, names);
      else if ((isFunctionDeclaration(st) || isClassDeclaration(st) || isEnumDeclaration(st)) && st.name) names.add(st.name.text);
    }
  } else if (isForStatement(node) || isForInStatement(node) || isForOfStatement(node)) {
    const init = node.initializer;
    if (init && isVariableDeclarationList(init)) {
      names = new Set();
      for (const d of init.declarations) addBindingNames(d.name, names);
    }
  } else if (isCatchClause(node) && node.variableDeclaration) {
    names = new Set();
    addBindingNames(node.variableDeclaration.name, names);
  }
  return names && names.size > 0 ? { names, parent: scope } : scope;
}

/** Parents under which a name is a type, a namespace or a member, not a value of the scope. */
const NOT_A_VALUE: ReadonlySet<ts.SyntaxKind> = new Set([
  SyntaxKind.TypeReference,
  SyntaxKind.QualifiedName,
  SyntaxKind.ExpressionWithTypeArguments,
  SyntaxKind.TypeQuery,
  SyntaxKind.ImportType,
  SyntaxKind.TypePredicate,
  SyntaxKind.PropertyAccessExpression,
]);

function isLocalValue(name: ts.Identifier, scope: Scope | undefined): boolean {
  if (!scope) return false;
  const parent = name.parent;
  // A binding element's names are a property's key and the local it declares, never a use of one.
  if (parent.kind === SyntaxKind.BindingElement && (parent as ts.BindingElement).initializer !== name) return false;
  // An object literal's key names its contextual type's property, a shorthand's a local as well (ADR 155).
  if (objectLiteralKey(name)) return false;
  if (NOT_A_VALUE.has(parent.kind) && !(isPropertyAccessExpression(parent) && parent.expression === name)) return false;
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.names.has(name.text)) return true;
  return false;
}

/** Finds every call site, heritage clause and reference of one file. Walks with an explicit stack. */
export function collectSites(sf: ts.SourceFile, extraction: FileExtraction, withReferences = true): Site[] {
  return new SiteWalker(sf, extraction, withReferences).walk();
}

/**
 * One node waiting on the walk's stack, with what its ancestors say about it.
 * `region`: the outermost plain expression above the node, when every node between them is plain.
 * `owner`: the innermost enclosing symbol of any kind, which a reference starts from.
 * `scope`: the values declared by the enclosing functions and blocks (never the module's).
 */
interface Frame {
  node: ts.Node;
  caller: string;
  owner: string;
  region: ts.Node | undefined;
  scope: Scope | undefined;
}

/**
 * The walk of one file (ADR 183: a walker object): what every step shares — the sites found, the
 * names already asked about, the stack — and a method for each kind of site (callee, heritage
 * clause, reference).
 */
class SiteWalker {
  private readonly sites: Site[] = [];
  /** A name a call or heritage site already asks about is not asked again as a reference. */
  private readonly claimed = new Set<number>();
  private readonly namespaces: Set<string>;
  private readonly component: ReturnType<typeof componentOf>;
  private readonly renderBody: ts.Block | undefined;
  private readonly stack: Frame[] = [];

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly extraction: FileExtraction,
    private readonly withReferences: boolean,
  ) {
    this.component = componentOf(sf);
    this.renderBody = this.component ? componentRenderBody(sf, extraction) : undefined;
    this.namespaces = withReferences ? namespaceBindings(sf) : new Set<string>();
  }

  walk(): Site[] {
    const { sf, stack, sites, component } = this;
    const fid = fileId(this.extraction.path);
    this.pushChildren(sf, fid, fid, undefined, undefined);
    while (stack.length > 0) this.visit(stack.pop() as Frame);
    // In a component, only the author's words are sites: generated glue never calls or refers (ADR 169).
    return component ? sites.filter((site) => isAuthored(component, site.at)) : sites;
  }

  private idOf(node: ts.Node): string | undefined {
    return registeredId(node, this.sf, this.extraction.declarations);
  }

  private pushChildren(node: ts.Node, caller: string, owner: string, region: ts.Node | undefined, scope: Scope | undefined): void {
    const children: ts.Node[] = [];
    forEachChild(node, (c) => {
      children.push(c);
    });
    const childRegion = isPlainExpression(node) ? (region ?? node) : undefined;
    // A Svelte component's script is its render function's body: its declarations are the graph's, not locals.
    const childScope = this.withReferences ? (node === this.renderBody ? scope : scopeOpenedBy(node, scope)) : undefined;
    for (let i = children.length - 1; i >= 0; i--)
      this.stack.push({ node: children[i], caller, owner, region: childRegion, scope: childScope });
  }

  /** One node: a name is a reference; any other node may be a site, and its children are walked. */
  private visit({ node, caller: outer, owner: outerOwner, region, scope }: Frame): void {
    const { sites, withReferences } = this;
    let caller = outer;
    let owner = outerOwner;
    const own = this.idOf(node);
    if (own !== undefined) {
      owner = own;
      if (isCallerDeclaration(node)) caller = own;
    }
    if (isIdentifier(node) || isPrivateIdentifier(node)) {
      if (withReferences && !(isIdentifier(node) && isLocalValue(node, scope))) this.addReference(node, owner, region);
      return;
    }
    if (withReferences && isStringLiteralLike(node) && isKeyLiteral(node)) {
      // `obj['key']` and `T['key']` read a property by its name, as `obj.key` does.
      const start = node.getStart(this.sf);
      if (!this.claimed.has(start))
        sites.push({ relation: 'references', source: owner, position: start, at: start, hint: node, name: node.text, member: true });
      return;
    }
    const firstNew = sites.length;
    this.addSitesOf(node, caller, region);
    // Only a name the site asks about is claimed: a computed key (`obj[key]()`) is asked as a reference.
    for (let i = firstNew; i < sites.length; i++) if (sites[i].position !== undefined) this.claimed.add(sites[i].at);
    // `C.prototype.m = function`: the left side names the member being declared, no use of `C` (ADR 188).
    if (own !== undefined && isBinaryExpression(node)) this.stack.push({ node: node.right, caller, owner, region: undefined, scope });
    else this.pushChildren(node, caller, owner, region, scope);
  }

  /** The call or heritage sites a node is, if any. */
  private addSitesOf(node: ts.Node, caller: string, region: ts.Node | undefined): void {
    if (isCallExpression(node)) {
      const callee = this.component ? unwrappedCallee(node.expression) : node.expression;
      const isImport = callee.kind === SyntaxKind.ImportKeyword;
      const isRequire =
        isIdentifier(callee) && callee.text === 'require' && node.arguments.length === 1 && isStringLiteralLike(node.arguments[0]);
      if (!isImport && !isRequire) this.addCallee(callee, caller, undefined, region ?? node);
    } else if (isNewExpression(node)) {
      this.addCallee(node.expression, caller, 'new');
    } else if (isTaggedTemplateExpression(node)) {
      this.addCallee(node.tag, caller, 'tag');
    } else if (isDecorator(node)) {
      // `@dec()` is an ordinary call (found when the walk reaches it); `@dec` calls dec itself.
      if (!isCallExpression(node.expression)) this.addCallee(node.expression, caller, 'decorator');
    } else if (isJsxOpeningElement(node) || isJsxSelfClosingElement(node)) {
      if (!isIntrinsicTag(node.tagName)) this.addCallee(node.tagName as ts.Expression, caller, 'jsx');
    } else if (isHeritageClause(node)) {
      // A class expression's node is the variable (or default export) it is bound to.
      let declaration: ts.Node = node.parent;
      if (isClassExpression(declaration)) {
        declaration = declaration.parent;
        while (isParenthesizedExpression(declaration) || isAsExpression(declaration) || isSatisfiesExpression(declaration))
          declaration = declaration.parent;
      }
      const heritageOwner = this.idOf(declaration);
      if (heritageOwner !== undefined) this.addHeritage(node, heritageOwner);
    }
  }

  /** A call site for each name-bearing expression the callee may evaluate to. */
  private addCallee(expr: ts.Expression, source: string, context: SiteContext | undefined, region?: ts.Node): void {
    const regionKey = region ? `${region.pos}:${region.kind}:` : undefined;
    for (const { leaf, conditional } of calleeLeaves(expr)) {
      const site = this.calleeSite(leaf, source, context, conditional, regionKey);
      if (site) this.sites.push(site);
    }
  }

  /** The call site of one callee leaf; undefined for an immediately invoked anonymous function. */
  private calleeSite(
    leaf: ts.Expression,
    source: string,
    context: SiteContext | undefined,
    conditional: boolean,
    regionKey: string | undefined,
  ): Site | undefined {
    const { sf } = this;
    const ctx = context ?? (conditional ? 'conditional' : undefined);
    if (isIdentifier(leaf)) {
      const shareKey = regionKey && !conditional ? regionKey + leaf.text : undefined;
      return {
        relation: 'calls',
        source,
        position: leaf.getStart(sf),
        at: leaf.getStart(sf),
        hint: leaf,
        name: leaf.text,
        member: false,
        context: ctx,
        shareKey,
      };
    }
    if (isPropertyAccessExpression(leaf)) {
      const shareKey =
        regionKey && !conditional && isIdentifier(leaf.expression) ? `${regionKey}${leaf.expression.text}.${leaf.name.text}` : undefined;
      return {
        relation: 'calls',
        source,
        position: leaf.name.getStart(sf),
        at: leaf.name.getStart(sf),
        hint: leaf.name,
        name: leaf.name.text,
        member: true,
        context: ctx,
        shareKey,
      };
    }
    if (isElementAccessExpression(leaf)) {
      const arg = leaf.argumentExpression;
      if (isStringLiteralLike(arg) || isNumericLiteral(arg)) {
        return {
          relation: 'calls',
          source,
          position: arg.getStart(sf),
          at: arg.getStart(sf),
          hint: arg,
          name: arg.text,
          member: true,
          context: ctx,
        };
      }
      return {
        relation: 'calls',
        source,
        at: arg.getStart(sf),
        name: `[${truncate(arg.getText(sf))}]`,
        member: true,
        context: ctx,
        syntacticReason: 'dynamic-access',
      };
    }
    if (leaf.kind === SyntaxKind.ThisKeyword && context === 'new') {
      // `new this()` in a static method constructs the class `this` denotes there: the checker
      // is asked about `this` like about a name.
      return {
        relation: 'calls',
        source,
        position: leaf.getStart(sf),
        at: leaf.getStart(sf),
        hint: leaf,
        name: 'this',
        member: false,
        context: ctx,
      };
    }
    if (leaf.kind === SyntaxKind.SuperKeyword) {
      return {
        relation: 'calls',
        source,
        position: leaf.getStart(sf),
        at: leaf.getStart(sf),
        hint: leaf,
        name: 'super',
        member: false,
        context: 'super',
      };
    }
    // An immediately invoked anonymous function: its body is walked for calls of its own.
    if (isFunctionExpression(leaf) || isArrowFunction(leaf) || isClassExpression(leaf)) return undefined;
    return {
      relation: 'calls',
      source,
      at: leaf.getStart(sf),
      name: truncate(leaf.getText(sf)),
      member: false,
      context: ctx,
      syntacticReason: 'indirect',
    };
  }

  private addHeritage(clause: ts.HeritageClause, source: string): void {
    const { sf, sites } = this;
    const relation: Relation = clause.token === SyntaxKind.ImplementsKeyword ? 'implements' : 'extends';
    for (const t of clause.types) {
      const e = t.expression;
      if (isIdentifier(e)) {
        sites.push({ relation, source, position: e.getStart(sf), at: e.getStart(sf), hint: e, name: e.text, member: false });
      } else if (isPropertyAccessExpression(e)) {
        sites.push({
          relation,
          source,
          position: e.name.getStart(sf),
          at: e.name.getStart(sf),
          hint: e.name,
          name: e.name.text,
          member: true,
        });
      } else {
        sites.push({ relation, source, at: e.getStart(sf), name: truncate(e.getText(sf)), member: false, syntacticReason: 'indirect' });
      }
    }
  }

  private addReference(name: ts.Identifier | ts.PrivateIdentifier, owner: string, region: ts.Node | undefined): void {
    const start = name.getStart(this.sf);
    if (this.claimed.has(start) || !isReferenceName(name)) return;
    const parent = name.parent;
    // A binding element's key names a property of the value destructured, as `value.key` would.
    const member =
      (isPropertyAccessExpression(parent) && parent.name === name) ||
      parent.kind === SyntaxKind.BindingElement ||
      (parent.kind === SyntaxKind.QualifiedName && (parent as ts.QualifiedName).right === name);
    // An object literal's key is asked alone: two literals of one expression may have other types.
    const contextual = objectLiteralKey(name) !== undefined;
    let shareKey: string | undefined;
    if (region && !contextual) {
      const regionKey = `${region.pos}:${region.kind}:`;
      if (!member) shareKey = regionKey + name.text;
      else if (isPropertyAccessExpression(parent) && isIdentifier(parent.expression))
        shareKey = `${regionKey}${parent.expression.text}.${name.text}`;
    }
    const site: Site = { relation: 'references', source: owner, position: start, at: start, hint: name, name: name.text, member, shareKey };
    if (parent.kind === SyntaxKind.ImportSpecifier || parent.kind === SyntaxKind.ImportClause) site.imported = true;
    if (contextual) site.contextual = true;
    if (!member && this.namespaces.has(name.text) && usedWhole(name)) site.whole = true;
    this.sites.push(site);
  }
}
