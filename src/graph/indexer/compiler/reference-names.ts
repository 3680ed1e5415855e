// Which names of a file are references (ADR 151): the uses of a name that may denote a
// declaration, as opposed to the names declarations give; which of them use a module whole
// (ADR 185); and which string literals name a property. Syntax only: the checker is asked later.

import * as ts from 'typescript';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  SyntaxKind,
  isElementAccessExpression,
  isExternalModuleReference,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isNamespaceImport,
  isIdentifier,
  isJsxClosingElement,
  isNumericLiteral,
  isPropertyAccessExpression,
  isStringLiteralLike,
} = ts;

/** Declarations whose `name` is the name they give, not a use of one. */
const DECLARATION_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  SyntaxKind.ArrowFunction,
  SyntaxKind.ClassDeclaration,
  SyntaxKind.ClassExpression,
  SyntaxKind.EnumDeclaration,
  SyntaxKind.EnumMember,
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.InterfaceDeclaration,
  SyntaxKind.JsxAttribute,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.MethodSignature,
  SyntaxKind.ModuleDeclaration,
  SyntaxKind.NamespaceExportDeclaration,
  SyntaxKind.Parameter,
  SyntaxKind.PropertyAssignment,
  SyntaxKind.PropertyDeclaration,
  SyntaxKind.PropertySignature,
  SyntaxKind.TypeAliasDeclaration,
  SyntaxKind.TypeParameter,
  SyntaxKind.VariableDeclaration,
  SyntaxKind.BindingElement,
  SyntaxKind.NamedTupleMember,
]);

/** Names that denote no declaration a reference could reach: the checker gives them no declaration. */
// `module` and `exports` are CommonJS's: the two checkers place `module.exports = f` differently,
// and `f` itself is the use that names the declaration.
const INTRINSIC_NAMES: ReadonlySet<string> = new Set(['undefined', 'arguments', 'globalThis', 'module', 'exports']);

/**
 * Whether a name is a use that may denote a declaration (a reference, ADR 151), as opposed to the
 * name a declaration gives, a label, a JSX closing tag (the opening tag is the site) or a meta
 * property. An import or export specifier's name, and a shorthand property's, are uses: they name
 * what they import, export or store.
 */
export function isReferenceName(node: ts.Identifier | ts.PrivateIdentifier): boolean {
  const parent = node.parent;
  if (!parent) return false;
  // A member's name is never the global (`schema.undefined`, `regexes.undefined`); `module.exports`'s
  // `exports` stays CommonJS's.
  const isMemberName =
    (node.text !== 'exports' && isPropertyAccessExpression(parent) && parent.name === node) ||
    (parent.kind === SyntaxKind.QualifiedName && (parent as ts.QualifiedName).right === node);
  if (isIdentifier(node) && INTRINSIC_NAMES.has(node.text) && !isMemberName) return false;
  switch (parent.kind) {
    case SyntaxKind.ImportSpecifier: {
      const spec = parent as ts.ImportSpecifier;
      return (spec.propertyName ?? spec.name) === node;
    }
    case SyntaxKind.ExportSpecifier: {
      const spec = parent as ts.ExportSpecifier;
      return (spec.propertyName ?? spec.name) === node;
    }
    case SyntaxKind.ImportClause:
      return true;
    case SyntaxKind.ShorthandPropertyAssignment:
      return (parent as ts.ShorthandPropertyAssignment).name === node;
    case SyntaxKind.PropertyAssignment:
    case SyntaxKind.MethodDeclaration:
    case SyntaxKind.GetAccessor:
    case SyntaxKind.SetAccessor:
      // An object literal's key uses the property its contextual type declares (ADR 155); a class's
      // member is a declaration.
      if (parent.parent?.kind === SyntaxKind.ObjectLiteralExpression && (parent as ts.NamedDeclaration).name === node) return true;
      break;
    case SyntaxKind.BindingElement: {
      // `{ key: local } = value` reads `key` of the value; the local name is a declaration. A
      // shorthand `{ key } = value` does both: its name reads the property it declares a local of.
      const element = parent as ts.BindingElement;
      if (element.initializer === node) return true;
      if (element.propertyName) return element.propertyName === node;
      return element.name === node && element.parent.kind === SyntaxKind.ObjectBindingPattern && !element.dotDotDotToken;
    }
    case SyntaxKind.LabeledStatement:
    case SyntaxKind.BreakStatement:
    case SyntaxKind.ContinueStatement:
    case SyntaxKind.MetaProperty:
    case SyntaxKind.NamespaceImport:
    case SyntaxKind.NamespaceExport:
    case SyntaxKind.ImportEqualsDeclaration:
      return false;
    default:
      break;
  }
  if (isJsxClosingElement(parent)) return false;
  return !(DECLARATION_KINDS.has(parent.kind) && (parent as ts.NamedDeclaration).name === node);
}

/**
 * The names a file binds to a module object of its own: `import * as m from` and `import m =
 * require()`. A `require()` bound by `const` is left out: the two checkers answer its name
 * differently (the module, or what `module.exports` is set to), and `module.exports = { a, b }`
 * already references each export from its own file (ADR 185).
 */
export function namespaceBindings(sf: ts.SourceFile): Set<string> {
  const out = new Set<string>();
  for (const s of sf.statements) {
    if (isImportDeclaration(s)) {
      const bindings = s.importClause?.namedBindings;
      if (bindings && isNamespaceImport(bindings)) out.add(bindings.name.text);
    } else if (isImportEqualsDeclaration(s) && isExternalModuleReference(s.moduleReference)) out.add(s.name.text);
  }
  return out;
}

/**
 * Whether a name that is not a member is used whole, not as the object of a member access by name:
 * `m.x`, `m['x']` and the type `m.T` read one export of a module; `Object.keys(m)`, `{ ...m }`,
 * `f(m)`, `m[key]`, `typeof m` and `export { m }` may read any (ADR 185).
 */
export function usedWhole(name: ts.Identifier | ts.PrivateIdentifier): boolean {
  const parent = name.parent;
  if (isPropertyAccessExpression(parent) && parent.expression === name) return false;
  if (isElementAccessExpression(parent) && parent.expression === name) {
    const arg = parent.argumentExpression;
    return !(isStringLiteralLike(arg) || isNumericLiteral(arg));
  }
  return !(parent.kind === SyntaxKind.QualifiedName && (parent as ts.QualifiedName).left === name);
}

/** A string literal that names a property: an element access's key (`obj['key']`) or an indexed access type's (`T['key']`). */
export function isKeyLiteral(node: ts.StringLiteralLike): boolean {
  const parent = node.parent;
  if (isElementAccessExpression(parent)) return parent.argumentExpression === node;
  return parent.kind === SyntaxKind.LiteralType && parent.parent.kind === SyntaxKind.IndexedAccessType;
}
