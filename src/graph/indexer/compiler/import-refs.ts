// A file's module references, read off its syntax tree: static imports, re-exports, `import()`,
// `require()` and `import("…")` types, in the order the surface (surface.ts) counts them by.

import * as ts from 'typescript';
import { componentOf, isAuthored } from '../components/component-code';
import type { ImportRef } from '../facts';
import { evidenceAt } from '../syntax/declaration-positions';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  SyntaxKind,
  forEachChild,
  isCallExpression,
  isExportDeclaration,
  isExternalModuleReference,
  isIdentifier,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isImportTypeNode,
  isLiteralTypeNode,
  isNamespaceExport,
  isStringLiteral,
  isStringLiteralLike,
} = ts;

const MIGHT_IMPORT_DYNAMICALLY = /\bimport\s*\(|\brequire\s*\(/;

/** Visits every node under `root` in source order, with an explicit stack (no recursion). */
function forEachDescendant(root: ts.Node, visit: (node: ts.Node) => void): void {
  const stack: ts.Node[] = [];
  const pushChildren = (n: ts.Node) => {
    const children: ts.Node[] = [];
    forEachChild(n, (c) => {
      children.push(c);
    });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  };
  pushChildren(root);
  while (stack.length > 0) {
    const node = stack.pop() as ts.Node;
    visit(node);
    pushChildren(node);
  }
}

/** Every module reference in the file: static imports, re-exports, `import()`, `require()`. */
export function collectImports(sf: ts.SourceFile, relPath: string): ImportRef[] {
  const refs = importsOf(sf, relPath);
  // A component's generated glue imports what the tools need (`import('vue')`): never the author's.
  const component = componentOf(sf);
  return component
    ? refs.filter((r) => r.authoredAt !== undefined && isAuthored(component, r.authoredAt)).map(withoutOffset)
    : refs.map(withoutOffset);
}

function withoutOffset(ref: ImportRef & { authoredAt?: number }): ImportRef {
  delete ref.authoredAt;
  return ref;
}

function importsOf(sf: ts.SourceFile, relPath: string): Array<ImportRef & { authoredAt?: number }> {
  const refs: Array<ImportRef & { authoredAt?: number }> = [];
  const at = (pos: number) => ({ evidence: evidenceAt(sf, relPath, pos), authoredAt: pos });
  for (const st of sf.statements) {
    if (isImportDeclaration(st) && isStringLiteral(st.moduleSpecifier)) {
      const typeOnly = st.importClause?.isTypeOnly;
      refs.push({
        specifier: st.moduleSpecifier.text,
        kind: 'import',
        context: typeOnly ? 'type-only' : undefined,
        ...at(st.getStart(sf)),
        syntax: 'static',
      });
    } else if (isExportDeclaration(st) && st.moduleSpecifier && isStringLiteral(st.moduleSpecifier)) {
      let context: string | undefined;
      if (!st.exportClause) context = '*';
      else if (isNamespaceExport(st.exportClause)) context = `* as ${st.exportClause.name.text}`;
      else if (st.isTypeOnly) context = 'type-only';
      refs.push({ specifier: st.moduleSpecifier.text, kind: 're-export', context, ...at(st.getStart(sf)), syntax: 'static' });
    } else if (
      isImportEqualsDeclaration(st) &&
      isExternalModuleReference(st.moduleReference) &&
      isStringLiteral(st.moduleReference.expression)
    ) {
      refs.push({
        specifier: st.moduleReference.expression.text,
        kind: 'import',
        context: 'import-equals',
        ...at(st.getStart(sf)),
        syntax: 'require',
      });
    }
  }
  if (MIGHT_IMPORT_DYNAMICALLY.test(sf.text)) {
    forEachDescendant(sf, (node) => {
      if (isImportTypeNode(node)) {
        const arg = node.argument;
        if (isLiteralTypeNode(arg) && isStringLiteral(arg.literal)) {
          refs.push({
            specifier: arg.literal.text,
            kind: 'import',
            context: 'import-type',
            ...at(node.getStart(sf)),
            syntax: 'static',
          });
        }
        return;
      }
      if (!isCallExpression(node) || node.arguments.length < 1) return;
      const arg = node.arguments[0];
      if (!isStringLiteralLike(arg)) return;
      if (node.expression.kind === SyntaxKind.ImportKeyword) {
        refs.push({ specifier: arg.text, kind: 'import', context: 'dynamic', ...at(node.getStart(sf)), syntax: 'dynamic' });
      } else if (isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1) {
        refs.push({ specifier: arg.text, kind: 'import', context: 'require', ...at(node.getStart(sf)), syntax: 'require' });
      }
    });
  }
  return refs;
}
