// `C.prototype.m = function () {}` at a JavaScript file's top level, read off its syntax (ADR 188).

import * as ts from 'typescript';

// The compiler's functions read once: `ts.x` is a getter call on every use (ADR 140).
const { SyntaxKind, isBinaryExpression, isExpressionStatement, isIdentifier, isPropertyAccessExpression } = ts;

/**
 * `C.prototype.m = …`: the owner's and the member's names, when `C` is a plain name; the caller
 * asks that the value be a function. The checker of a JavaScript file binds the assignment as an
 * instance member of `C` (its declaration's name is `m`), so a call `this.m()` it places lands on
 * the member (ADR 188). In TypeScript it declares nothing: the caller asks for JavaScript only.
 */
export function prototypeMethod(st: ts.Statement): { owner: string; name: string; decl: ts.BinaryExpression } | undefined {
  if (!isExpressionStatement(st)) return undefined;
  const e = st.expression;
  if (!isBinaryExpression(e) || e.operatorToken.kind !== SyntaxKind.EqualsToken) return undefined;
  const left = e.left;
  if (!isPropertyAccessExpression(left) || !isIdentifier(left.name) || left.name.text === '') return undefined;
  const proto = left.expression;
  if (!isPropertyAccessExpression(proto) || proto.name.text !== 'prototype' || !isIdentifier(proto.expression)) return undefined;
  if (proto.expression.text === '') return undefined;
  return { owner: proto.expression.text, name: left.name.text, decl: e };
}
