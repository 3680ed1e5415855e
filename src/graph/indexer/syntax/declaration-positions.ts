// Where a declaration is, and where a position is in the author's text: the identity of a
// declaration inside its file (the offset its name starts at), shared by the extraction, every
// checker backend and the rationale layer. It is a room of its own under the indexer so that the
// rationale layer, which the builder starts, never imports the compiler room (ADR 193).

import * as ts from 'typescript';
import type { Evidence } from '../../model';
import { componentOf, sourceLineColumn } from '../components/component-code';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const { SyntaxKind, canHaveModifiers, getModifiers, getNameOfDeclaration, isExportAssignment } = ts;

/**
 * Where a declaration's name starts: the identity of a declaration inside its file, shared by
 * the extraction and every checker backend. Anonymous default exports use their `default` token.
 */
export function declarationNameStart(decl: ts.Node, sf: ts.SourceFile): number {
  if (isExportAssignment(decl)) return defaultKeyword(decl, sf).getStart(sf);
  const name = getNameOfDeclaration(decl as ts.Declaration);
  if (name) return name.getStart(sf);
  const modifiers = canHaveModifiers(decl) ? getModifiers(decl) : undefined;
  const def = modifiers?.find((m) => m.kind === SyntaxKind.DefaultKeyword);
  return (def ?? decl).getStart(sf);
}

/** Syntax kinds the extraction registers declarations of. */
const REGISTERED_KINDS = new Set<ts.SyntaxKind>([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.ClassDeclaration,
  SyntaxKind.InterfaceDeclaration,
  SyntaxKind.EnumDeclaration,
  SyntaxKind.TypeAliasDeclaration,
  SyntaxKind.ModuleDeclaration,
  SyntaxKind.VariableDeclaration,
  SyntaxKind.BindingElement,
  SyntaxKind.ExportAssignment,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.MethodSignature,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.PropertyDeclaration,
  SyntaxKind.PropertySignature,
  SyntaxKind.Parameter,
  // `C.prototype.m = function () {}` at a JavaScript file's top level (ADR 188).
  SyntaxKind.BinaryExpression,
  // `m: function () {}` in an object literal bound to a name (ADR 200).
  SyntaxKind.PropertyAssignment,
]);

/** The node id the extraction gave the declaration `node`, if it registered one. */
export function registeredId(node: ts.Node, sf: ts.SourceFile, declarations: ReadonlyMap<number, string>): string | undefined {
  return REGISTERED_KINDS.has(node.kind) ? declarations.get(declarationNameStart(node, sf)) : undefined;
}

export function evidenceAt(sf: ts.SourceFile, relPath: string, pos: number): Evidence {
  const lc = lineAndCharacter(sf, pos);
  return { file: relPath, line: lc.line + 1, column: lc.character + 1 };
}

/** 0-based line and character of `pos`: in a component, in the author's text (ADR 169). */
export function lineAndCharacter(sf: ts.SourceFile, pos: number): ts.LineAndCharacter {
  const component = componentOf(sf);
  return component ? sourceLineColumn(component, pos) : sf.getLineAndCharacterOfPosition(pos);
}

function defaultKeyword(st: ts.ExportAssignment, sf: ts.SourceFile): ts.Node {
  for (const child of st.getChildren(sf)) {
    if (child.kind === SyntaxKind.DefaultKeyword) return child;
  }
  return st;
}
