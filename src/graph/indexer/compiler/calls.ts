// The resolution tier's syntax half: find every call site (calls, `new`, tagged templates,
// decorators, JSX elements, `super(...)`) and heritage clause in a file, with its caller — the
// innermost enclosing function, method, class or namespace node, or the file at top level.
// Which declaration a site reaches is the checker's question (checker.ts), not this file's.

import * as ts from 'typescript';
import { fileId } from '../../ids';
import type { Relation } from '../../model';
import { isOuterExpression, registeredId, skipOuter, type FileExtraction } from './extract';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  SyntaxKind,
  forEachChild,
  isArrowFunction,
  isAsExpression,
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
  isPropertyAccessExpression,
  isSatisfiesExpression,
  isStringLiteralLike,
  isTaggedTemplateExpression,
} = ts;

type SiteContext = 'new' | 'super' | 'tag' | 'decorator' | 'jsx' | 'conditional';

export interface Site {
  /** `calls`, `extends` or `implements`. */
  relation: Relation;
  /** The node id the edge starts from: the caller, or the class/interface for heritage. */
  source: string;
  /** Start offset of the callee name; undefined when there is no name to ask about. */
  position?: number;
  /** Where the site is reported: the callee name, or the callee expression when it has none. */
  at: number;
  /** The name node, for the in-process checker backend. */
  hint?: ts.Node;
  /** The callee name as written, for unresolved ids and name matching. */
  name: string;
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
      return true;
    case SyntaxKind.VariableDeclaration:
    case SyntaxKind.PropertyDeclaration:
      return holdsCode((node as ts.VariableDeclaration | ts.PropertyDeclaration).initializer);
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

/** Finds every call site and heritage clause of one file. Walks with an explicit stack. */
export function collectSites(sf: ts.SourceFile, extraction: FileExtraction): Site[] {
  const sites: Site[] = [];
  const fid = fileId(extraction.path);

  const idOf = (node: ts.Node): string | undefined => registeredId(node, sf, extraction.declarations);

  const addCallee = (expr: ts.Expression, source: string, context: SiteContext | undefined, region?: ts.Node) => {
    const regionKey = region ? `${region.pos}:${region.kind}:` : undefined;
    for (const { leaf, conditional } of calleeLeaves(expr)) {
      const ctx = context ?? (conditional ? 'conditional' : undefined);
      if (isIdentifier(leaf)) {
        const shareKey = regionKey && !conditional ? regionKey + leaf.text : undefined;
        sites.push({
          relation: 'calls',
          source,
          position: leaf.getStart(sf),
          at: leaf.getStart(sf),
          hint: leaf,
          name: leaf.text,
          member: false,
          context: ctx,
          shareKey,
        });
      } else if (isPropertyAccessExpression(leaf)) {
        const shareKey =
          regionKey && !conditional && isIdentifier(leaf.expression) ? `${regionKey}${leaf.expression.text}.${leaf.name.text}` : undefined;
        sites.push({
          relation: 'calls',
          source,
          position: leaf.name.getStart(sf),
          at: leaf.name.getStart(sf),
          hint: leaf.name,
          name: leaf.name.text,
          member: true,
          context: ctx,
          shareKey,
        });
      } else if (isElementAccessExpression(leaf)) {
        const arg = leaf.argumentExpression;
        if (isStringLiteralLike(arg) || isNumericLiteral(arg)) {
          sites.push({
            relation: 'calls',
            source,
            position: arg.getStart(sf),
            at: arg.getStart(sf),
            hint: arg,
            name: arg.text,
            member: true,
            context: ctx,
          });
        } else {
          sites.push({
            relation: 'calls',
            source,
            at: arg.getStart(sf),
            name: `[${truncate(arg.getText(sf))}]`,
            member: true,
            context: ctx,
            syntacticReason: 'dynamic-access',
          });
        }
      } else if (leaf.kind === SyntaxKind.ThisKeyword && context === 'new') {
        // `new this()` in a static method constructs the class `this` denotes there: the checker
        // is asked about `this` like about a name.
        sites.push({
          relation: 'calls',
          source,
          position: leaf.getStart(sf),
          at: leaf.getStart(sf),
          hint: leaf,
          name: 'this',
          member: false,
          context: ctx,
        });
      } else if (leaf.kind === SyntaxKind.SuperKeyword) {
        sites.push({
          relation: 'calls',
          source,
          position: leaf.getStart(sf),
          at: leaf.getStart(sf),
          hint: leaf,
          name: 'super',
          member: false,
          context: 'super',
        });
      } else if (isFunctionExpression(leaf) || isArrowFunction(leaf) || isClassExpression(leaf)) {
        // An immediately invoked anonymous function: its body is walked for calls of its own.
      } else {
        sites.push({
          relation: 'calls',
          source,
          at: leaf.getStart(sf),
          name: truncate(leaf.getText(sf)),
          member: false,
          context: ctx,
          syntacticReason: 'indirect',
        });
      }
    }
  };

  const addHeritage = (clause: ts.HeritageClause, source: string) => {
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
  };

  // `region`: the outermost plain expression above the node, when every node between them is plain.
  const stack: Array<{ node: ts.Node; caller: string; region: ts.Node | undefined }> = [];
  const pushChildren = (node: ts.Node, caller: string, region: ts.Node | undefined) => {
    const children: ts.Node[] = [];
    forEachChild(node, (c) => {
      children.push(c);
    });
    const childRegion = isPlainExpression(node) ? (region ?? node) : undefined;
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], caller, region: childRegion });
  };
  pushChildren(sf, fid, undefined);
  while (stack.length > 0) {
    const { node, caller: outer, region } = stack.pop() as (typeof stack)[number];
    let caller = outer;
    const own = idOf(node);
    if (own !== undefined && isCallerDeclaration(node)) caller = own;

    if (isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === SyntaxKind.ImportKeyword;
      const isRequire =
        isIdentifier(callee) && callee.text === 'require' && node.arguments.length === 1 && isStringLiteralLike(node.arguments[0]);
      if (!isImport && !isRequire) addCallee(callee, caller, undefined, region ?? node);
    } else if (isNewExpression(node)) {
      addCallee(node.expression, caller, 'new');
    } else if (isTaggedTemplateExpression(node)) {
      addCallee(node.tag, caller, 'tag');
    } else if (isDecorator(node)) {
      // `@dec()` is an ordinary call (found when the walk reaches it); `@dec` calls dec itself.
      if (!isCallExpression(node.expression)) addCallee(node.expression, caller, 'decorator');
    } else if (isJsxOpeningElement(node) || isJsxSelfClosingElement(node)) {
      if (!isIntrinsicTag(node.tagName)) addCallee(node.tagName as ts.Expression, caller, 'jsx');
    } else if (isHeritageClause(node)) {
      // A class expression's node is the variable (or default export) it is bound to.
      let declaration: ts.Node = node.parent;
      if (isClassExpression(declaration)) {
        declaration = declaration.parent;
        while (isParenthesizedExpression(declaration) || isAsExpression(declaration) || isSatisfiesExpression(declaration))
          declaration = declaration.parent;
      }
      const owner = idOf(declaration);
      if (owner !== undefined) addHeritage(node, owner);
    }
    pushChildren(node, caller, region);
  }
  return sites;
}
