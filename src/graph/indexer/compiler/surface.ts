// A module's surface, name by name (ADR 118): for each name it exports, a hash of what an importer
// can see of it; for each name it imports, which of its exports that name reaches. The
// incremental build (incremental.ts) compares surfaces to know which exported names an edit
// changed, and resolves again only the files that take one of them — going on only where that
// changes what those files export in turn.
//
// What an exported name is made of: the top-level statements that declare it, and, transitively,
// every local declaration or import binding those statements mention — outside the bodies that
// cannot leak into a type (shape.ts: a body under a written return type, constructor and setter
// bodies). Statements that declare nothing (expression statements, side-effect imports, blocks)
// can change any type (an expando assignment adds a property to a function), so every name takes
// them in. Mentions are identifier texts, so shadowing only ever adds a dependency, never hides one.
//
// A file gets no surface, and so the file-level rule, when its exports cannot be told apart this
// way: JavaScript (types come from bodies and JSDoc), `export =`, `export as namespace`, and a
// script (what it declares is global). A module's `declare global` and `declare module "…"`
// blocks are one pseudo-export, GLOBAL_PART: the build resolves everything when it changes.

import { createHash } from 'node:crypto';
import * as ts from 'typescript';
import type { FileSurface, ImportRef, SurfaceUse } from '../facts';
import { fileShape, nodeTokens, type FileShape, type StatementTokens } from './shape';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  NodeFlags,
  SyntaxKind,
  canHaveModifiers,
  forEachChild,
  getModifiers,
  isClassDeclaration,
  isEnumDeclaration,
  isExportAssignment,
  isExportDeclaration,
  isExternalModule,
  isExternalModuleReference,
  isFunctionDeclaration,
  isIdentifier,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isInterfaceDeclaration,
  isModuleDeclaration,
  isNamedExports,
  isNamespaceExport,
  isNamespaceExportDeclaration,
  isNamespaceImport,
  isOmittedExpression,
  isPropertyAccessExpression,
  isQualifiedName,
  isStringLiteral,
  isTypeAliasDeclaration,
  isVariableStatement,
} = ts;

/**
 * The pseudo-export of a module's global augmentations (not an identifier, so no export has its
 * name): when it changes, every file of the program may see something new.
 */
export const GLOBAL_PART = 'declare global';

const short = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

const hasModifier = (st: ts.Node, kind: ts.SyntaxKind) => canHaveModifiers(st) && !!getModifiers(st)?.some((m) => m.kind === kind);

/** The names a binding pattern (or a plain name) declares. */
function bindingNames(name: ts.BindingName, out: string[]): void {
  if (isIdentifier(name)) out.push(name.text);
  else for (const el of name.elements) if (!isOmittedExpression(el)) bindingNames(el.name, out);
}

interface Part {
  /** Hash of the statement (or import binding) as another file can see it. */
  hash: string;
  /** The local names it mentions. */
  uses: Set<string>;
  /** The import it binds, for an import binding: which reference, which name. */
  imported?: { ref: number; name: string };
  /** The local name of an import binding. */
  local?: string;
}

/**
 * For each namespace binding (`import * as ns`) that the file only ever reads as `ns.member` (or
 * `ns.Type` in a type), the members it reads; a binding mentioned any other way (`ns` alone, `ns[k]`,
 * a shorthand property) is absent: it takes the whole module. Every mention counts, bodies too.
 */
function namespaceMembers(sf: ts.SourceFile, bindings: ReadonlySet<string>): Map<string, Set<string>> {
  const members = new Map<string, Set<string>>();
  if (bindings.size === 0) return members;
  const whole = new Set<string>();
  for (const b of bindings) members.set(b, new Set());
  // Parents travel with the nodes: a parse need not have set them.
  const stack: Array<{ n: ts.Node; parent: ts.Node }> = [];
  forEachChild(sf, (c) => {
    stack.push({ n: c, parent: sf });
  });
  while (stack.length > 0) {
    const { n, parent } = stack.pop() as { n: ts.Node; parent: ts.Node };
    if (isIdentifier(n) && bindings.has(n.text)) {
      if (isPropertyAccessExpression(parent) && parent.expression === n && isIdentifier(parent.name))
        members.get(n.text)?.add(parent.name.text);
      else if (isQualifiedName(parent) && parent.left === n) members.get(n.text)?.add(parent.right.text);
      else if (!(isNamespaceImport(parent) && parent.name === n)) whole.add(n.text);
    }
    forEachChild(n, (c) => {
      stack.push({ n: c, parent: n });
    });
  }
  for (const w of whole) members.delete(w);
  return members;
}

/** JavaScript and scripts have no surface: the file-level rule decides for them. */
const mayHaveSurface = (sf: ts.SourceFile): boolean => !/\.(js|jsx|mjs|cjs)$/.test(sf.fileName) && isExternalModule(sf);

const isStaticRef = (st: ts.Statement): boolean =>
  (isImportDeclaration(st) && isStringLiteral(st.moduleSpecifier)) ||
  (isExportDeclaration(st) && !!st.moduleSpecifier && isStringLiteral(st.moduleSpecifier)) ||
  (isImportEqualsDeclaration(st) && isExternalModuleReference(st.moduleReference) && isStringLiteral(st.moduleReference.expression));

/**
 * The surface of a module, or undefined when the file-level rule must decide for it. `refs` are
 * the file's import references (collectImports): static ones in statement order, then the rest.
 */
function fileSurface(
  sf: ts.SourceFile,
  refs: readonly ImportRef[],
  statements: ReadonlyMap<ts.Node, StatementTokens>,
): FileSurface | undefined {
  if (!mayHaveSurface(sf)) return undefined;
  const parts: Part[] = [];
  /** Local name → the parts that declare it. */
  const declaring = new Map<string, number[]>();
  /** Exported name → the local names it stands for, or the part that is it. */
  const exported = new Map<string, { locals: string[]; parts: number[] }>();
  const rest: number[] = [];
  const uses: SurfaceUse[] = [];
  const starSpecs: string[] = [];
  const declare = (name: string, part: number) => declaring.set(name, [...(declaring.get(name) ?? []), part]);
  const exportAs = (name: string, locals: string[], partsOf: number[]) => {
    const e = exported.get(name) ?? { locals: [], parts: [] };
    e.locals.push(...locals);
    e.parts.push(...partsOf);
    exported.set(name, e);
  };
  const addPart = (node: ts.Node | undefined, text: string, imported?: Part['imported'], local?: string): number => {
    // The identifier texts it mentions outside hidden bodies: shadowing only ever adds a dependency.
    const known = node && statements.get(node);
    const used = known ? known.mentioned : new Set<string>();
    const tokens = known ? known.tokens : node ? nodeTokens(node, sf, used) : '';
    parts.push({ hash: short(text + tokens), uses: used, imported, local });
    return parts.length - 1;
  };
  let ref = 0;
  for (const st of sf.statements) {
    const refIndex = isStaticRef(st) ? ref++ : -1;
    if (isImportDeclaration(st)) {
      const clause = st.importClause;
      if (refIndex < 0 || !clause) {
        rest.push(addPart(st, 'side-effect import'));
        continue;
      }
      const spec = (st.moduleSpecifier as ts.StringLiteral).text;
      const bind = (local: string, name: string, typeOnly: boolean) =>
        declare(local, addPart(undefined, `import ${spec} ${name} ${typeOnly}`, { ref: refIndex, name }, local));
      if (clause.name) bind(clause.name.text, 'default', clause.isTypeOnly);
      const nb = clause.namedBindings;
      if (nb && isNamespaceImport(nb)) bind(nb.name.text, '*', clause.isTypeOnly);
      else if (nb) for (const el of nb.elements) bind(el.name.text, (el.propertyName ?? el.name).text, clause.isTypeOnly || el.isTypeOnly);
      continue;
    }
    if (isImportEqualsDeclaration(st)) {
      const ext = isExternalModuleReference(st.moduleReference);
      const p = ext
        ? addPart(undefined, `import= ${st.moduleReference.getText(sf)}`, { ref: refIndex, name: '*' })
        : addPart(st.moduleReference, 'alias');
      declare(st.name.text, p);
      if (hasModifier(st, SyntaxKind.ExportKeyword)) exportAs(st.name.text, [st.name.text], []);
      continue;
    }
    if (isExportDeclaration(st)) {
      const clause = st.exportClause;
      if (refIndex >= 0) {
        const spec = (st.moduleSpecifier as ts.StringLiteral).text;
        if (!clause) {
          starSpecs.push(`${spec} ${st.isTypeOnly}`);
          uses.push({ ref: refIndex, name: '*', reaches: [], star: true });
        } else if (isNamespaceExport(clause)) {
          const name = clause.name.text;
          exportAs(name, [], [addPart(undefined, `export* as ${spec} ${st.isTypeOnly}`)]);
          uses.push({ ref: refIndex, name: '*', reaches: [name] });
        } else {
          for (const el of clause.elements) {
            const from = (el.propertyName ?? el.name).text;
            exportAs(el.name.text, [], [addPart(undefined, `export ${spec} ${from} ${st.isTypeOnly || el.isTypeOnly}`)]);
            uses.push({ ref: refIndex, name: from, reaches: [el.name.text] });
          }
        }
      } else if (clause && isNamedExports(clause)) {
        for (const el of clause.elements) {
          // The export's own type-only-ness is part of what the importer sees.
          exportAs(el.name.text, [(el.propertyName ?? el.name).text], [addPart(undefined, `export-as ${st.isTypeOnly || el.isTypeOnly}`)]);
        }
      } else {
        return undefined;
      }
      continue;
    }
    if (isExportAssignment(st)) {
      if (st.isExportEquals) return undefined;
      exportAs('default', [], [addPart(st, 'export default')]);
      continue;
    }
    if (isNamespaceExportDeclaration(st)) return undefined;
    if (isModuleDeclaration(st) && (isStringLiteral(st.name) || (st.flags & NodeFlags.GlobalAugmentation) !== 0)) {
      // `declare global { … }`, `declare module "…" { … }`: what reaches files that never import
      // this one. A change to it (or to what it is made of) makes the build resolve everything.
      exportAs(GLOBAL_PART, [], [addPart(st, 'global')]);
      continue;
    }
    const names: string[] = [];
    if (isVariableStatement(st)) for (const d of st.declarationList.declarations) bindingNames(d.name, names);
    else if (
      (isFunctionDeclaration(st) ||
        isClassDeclaration(st) ||
        isInterfaceDeclaration(st) ||
        isTypeAliasDeclaration(st) ||
        isEnumDeclaration(st) ||
        isModuleDeclaration(st)) &&
      st.name &&
      isIdentifier(st.name)
    )
      names.push(st.name.text);
    const isDefault = hasModifier(st, SyntaxKind.DefaultKeyword);
    if (names.length === 0 && !isDefault) {
      rest.push(addPart(st, 'statement'));
      continue;
    }
    const p = addPart(st, 'declaration');
    for (const n of names) declare(n, p);
    if (hasModifier(st, SyntaxKind.ExportKeyword)) {
      if (isDefault) exportAs('default', [], [p]);
      else for (const n of names) exportAs(n, [n], []);
    }
  }
  // Everything a dynamic import, require or import type reaches is any export's business.
  for (let i = ref; i < refs.length; i++) uses.push({ ref: i, name: '*', reaches: '*' });

  const restUses = new Set<string>();
  for (const r of rest) for (const u of parts[r].uses) restUses.add(u);
  const restHash = rest.map((r) => parts[r].hash).join(',');
  // Per exported name: the parts it is made of (declarations, then what they mention, transitively).
  const closure = (locals: string[], start: number[]): Set<number> => {
    const seen = new Set<number>();
    const queue: number[] = [...start];
    const visitName = (n: string) => {
      for (const p of declaring.get(n) ?? []) queue.push(p);
    };
    locals.forEach(visitName);
    restUses.forEach(visitName);
    while (queue.length > 0) {
      const p = queue.pop() as number;
      if (seen.has(p)) continue;
      seen.add(p);
      for (const u of parts[p].uses) visitName(u);
    }
    return seen;
  };
  // Entries, not assignments: an export may be named `__proto__`.
  const entries: Array<[string, string]> = [];
  const reaches = new Map<number, Set<string>>();
  for (const name of [...exported.keys()].sort()) {
    const e = exported.get(name) as { locals: string[]; parts: number[] };
    const made = closure(e.locals, e.parts);
    const hashes = [...made].map((p) => parts[p].hash).sort();
    entries.push([name, short(`${restHash}|${hashes.join(',')}`)]);
    for (const p of made) {
      const imp = parts[p].imported;
      if (!imp) continue;
      const set = reaches.get(p) ?? new Set<string>();
      set.add(name);
      reaches.set(p, set);
    }
  }
  if (starSpecs.length > 0) entries.push(['*', short(starSpecs.sort().join('\n'))]);
  const exports = Object.fromEntries(entries);
  const members = namespaceMembers(sf, new Set(parts.filter((p) => p.imported?.name === '*').map((p) => p.local as string)));
  parts.forEach((p, i) => {
    if (!p.imported) return;
    const reached = [...(reaches.get(i) ?? [])].sort();
    // A namespace only ever read as `ns.member` takes those members, not the whole module.
    const only = p.imported.name === '*' && p.local !== undefined ? members.get(p.local) : undefined;
    if (only) for (const m of [...only].sort()) uses.push({ ref: p.imported.ref, name: m, reaches: reached });
    else uses.push({ ref: p.imported.ref, name: p.imported.name, reaches: reached });
  });
  uses.sort((a, b) => a.ref - b.ref || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { exports, uses };
}

/**
 * A file's shape with its surface. A script has none (every change to it reaches every file); a
 * module with global augmentations has one, whose GLOBAL_PART says when they changed.
 */
export function shapeAndSurface(sf: ts.SourceFile, refs: readonly ImportRef[]): FileShape {
  // The statements' tokens come from the shape's walk (shape.ts), where a surface may be made.
  const statements = new Map<ts.Node, StatementTokens>();
  const shape = fileShape(sf, mayHaveSurface(sf) ? statements : undefined);
  const surface = fileSurface(sf, refs, statements);
  return surface ? { ...shape, surface } : shape;
}
