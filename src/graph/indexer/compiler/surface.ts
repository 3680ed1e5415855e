// A module's surface, name by name (ADR 118): for each name it exports, a hash of what an importer
// can see of it; for each name it imports, which of its exports that name reaches. The
// incremental build (incremental.ts) compares surfaces to know which exported names an edit
// changed, and resolves again only the files that take one of them — going on only where that
// changes what those files export in turn.
//
// What an exported name is made of: the top-level statements that declare it, and, transitively,
// every local declaration or import binding those statements mention — outside the bodies that
// cannot leak into a type (file-shape.ts: a body under a written return type, constructor and setter
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
import { fileShape, nodeTokens, type FileShape, type StatementTokens } from './file-shape';

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

/** Exported name → the local names it stands for, or the parts that are it. */
interface Exported {
  locals: string[];
  parts: number[];
}

/**
 * One pass over a module's statements, then the closure of each exported name: the parts found,
 * which local name each declares, what each export stands for, the statements that declare
 * nothing, and the uses of the file's import references.
 */
class SurfaceWalker {
  private readonly parts: Part[] = [];
  /** Local name → the parts that declare it. */
  private readonly declaring = new Map<string, number[]>();
  private readonly exported = new Map<string, Exported>();
  private readonly rest: number[] = [];
  private readonly uses: SurfaceUse[] = [];
  private readonly starSpecs: string[] = [];
  /** The next static import reference's index. */
  private ref = 0;

  constructor(
    private readonly sf: ts.SourceFile,
    private readonly refs: readonly ImportRef[],
    private readonly statements: ReadonlyMap<ts.Node, StatementTokens>,
  ) {}

  /** The surface, or undefined when a statement leaves it to the file-level rule. */
  walk(): FileSurface | undefined {
    for (const st of this.sf.statements) if (!this.statement(st)) return undefined;
    // Everything a dynamic import, require or import type reaches is any export's business.
    for (let i = this.ref; i < this.refs.length; i++) this.uses.push({ ref: i, name: '*', reaches: '*' });
    return this.surface();
  }

  private declare(name: string, part: number): void {
    this.declaring.set(name, [...(this.declaring.get(name) ?? []), part]);
  }

  private exportAs(name: string, locals: string[], partsOf: number[]): void {
    const e = this.exported.get(name) ?? { locals: [], parts: [] };
    e.locals.push(...locals);
    e.parts.push(...partsOf);
    this.exported.set(name, e);
  }

  private addPart(node: ts.Node | undefined, text: string, imported?: Part['imported'], local?: string): number {
    // The identifier texts it mentions outside hidden bodies: shadowing only ever adds a dependency.
    const known = node && this.statements.get(node);
    const used = known ? known.mentioned : new Set<string>();
    const tokens = known ? known.tokens : node ? nodeTokens(node, this.sf, used) : '';
    this.parts.push({ hash: short(text + tokens), uses: used, imported, local });
    return this.parts.length - 1;
  }

  /** One top-level statement; false when the file-level rule must decide for the file. */
  private statement(st: ts.Statement): boolean {
    const refIndex = isStaticRef(st) ? this.ref++ : -1;
    if (isImportDeclaration(st)) this.importDeclaration(st, refIndex);
    else if (isImportEqualsDeclaration(st)) this.importEquals(st, refIndex);
    else if (isExportDeclaration(st)) return this.exportDeclaration(st, refIndex);
    else if (isExportAssignment(st)) {
      if (st.isExportEquals) return false;
      this.exportAs('default', [], [this.addPart(st, 'export default')]);
    } else if (isNamespaceExportDeclaration(st)) return false;
    else if (isModuleDeclaration(st) && (isStringLiteral(st.name) || (st.flags & NodeFlags.GlobalAugmentation) !== 0)) {
      // `declare global { … }`, `declare module "…" { … }`: what reaches files that never import
      // this one. A change to it (or to what it is made of) makes the build resolve everything.
      this.exportAs(GLOBAL_PART, [], [this.addPart(st, 'global')]);
    } else this.declaration(st);
    return true;
  }

  private importDeclaration(st: ts.ImportDeclaration, refIndex: number): void {
    const clause = st.importClause;
    if (refIndex < 0 || !clause) {
      this.rest.push(this.addPart(st, 'side-effect import'));
      return;
    }
    const spec = (st.moduleSpecifier as ts.StringLiteral).text;
    const bind = (local: string, name: string, typeOnly: boolean) =>
      this.declare(local, this.addPart(undefined, `import ${spec} ${name} ${typeOnly}`, { ref: refIndex, name }, local));
    if (clause.name) bind(clause.name.text, 'default', clause.isTypeOnly);
    const nb = clause.namedBindings;
    if (nb && isNamespaceImport(nb)) bind(nb.name.text, '*', clause.isTypeOnly);
    else if (nb) for (const el of nb.elements) bind(el.name.text, (el.propertyName ?? el.name).text, clause.isTypeOnly || el.isTypeOnly);
  }

  private importEquals(st: ts.ImportEqualsDeclaration, refIndex: number): void {
    const ext = isExternalModuleReference(st.moduleReference);
    const p = ext
      ? this.addPart(undefined, `import= ${st.moduleReference.getText(this.sf)}`, { ref: refIndex, name: '*' })
      : this.addPart(st.moduleReference, 'alias');
    this.declare(st.name.text, p);
    if (hasModifier(st, SyntaxKind.ExportKeyword)) this.exportAs(st.name.text, [st.name.text], []);
  }

  /** `export … from`, `export { … }`; false for a form the surface cannot follow. */
  private exportDeclaration(st: ts.ExportDeclaration, refIndex: number): boolean {
    const clause = st.exportClause;
    if (refIndex >= 0) {
      const spec = (st.moduleSpecifier as ts.StringLiteral).text;
      if (!clause) {
        this.starSpecs.push(`${spec} ${st.isTypeOnly}`);
        this.uses.push({ ref: refIndex, name: '*', reaches: [], star: true });
      } else if (isNamespaceExport(clause)) {
        const name = clause.name.text;
        this.exportAs(name, [], [this.addPart(undefined, `export* as ${spec} ${st.isTypeOnly}`)]);
        this.uses.push({ ref: refIndex, name: '*', reaches: [name] });
      } else {
        for (const el of clause.elements) {
          const from = (el.propertyName ?? el.name).text;
          this.exportAs(el.name.text, [], [this.addPart(undefined, `export ${spec} ${from} ${st.isTypeOnly || el.isTypeOnly}`)]);
          this.uses.push({ ref: refIndex, name: from, reaches: [el.name.text] });
        }
      }
    } else if (clause && isNamedExports(clause)) {
      for (const el of clause.elements) {
        // The export's own type-only-ness is part of what the importer sees.
        this.exportAs(
          el.name.text,
          [(el.propertyName ?? el.name).text],
          [this.addPart(undefined, `export-as ${st.isTypeOnly || el.isTypeOnly}`)],
        );
      }
    } else {
      return false;
    }
    return true;
  }

  /** A declaration (or a statement that declares nothing, which every export takes in). */
  private declaration(st: ts.Statement): void {
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
      this.rest.push(this.addPart(st, 'statement'));
      return;
    }
    const p = this.addPart(st, 'declaration');
    for (const n of names) this.declare(n, p);
    if (hasModifier(st, SyntaxKind.ExportKeyword)) {
      if (isDefault) this.exportAs('default', [], [p]);
      else for (const n of names) this.exportAs(n, [n], []);
    }
  }

  /** The parts an exported name is made of: its declarations, then what they mention, transitively. */
  private closure(locals: string[], start: number[], restUses: ReadonlySet<string>): Set<number> {
    const seen = new Set<number>();
    const queue: number[] = [...start];
    const visitName = (n: string) => {
      for (const p of this.declaring.get(n) ?? []) queue.push(p);
    };
    locals.forEach(visitName);
    restUses.forEach(visitName);
    while (queue.length > 0) {
      const p = queue.pop() as number;
      if (seen.has(p)) continue;
      seen.add(p);
      for (const u of this.parts[p].uses) visitName(u);
    }
    return seen;
  }

  /** Each exported name's hash, then the uses of every import binding, sorted. */
  private surface(): FileSurface {
    const { parts, rest, uses, exported, starSpecs } = this;
    const restUses = new Set<string>();
    for (const r of rest) for (const u of parts[r].uses) restUses.add(u);
    const restHash = rest.map((r) => parts[r].hash).join(',');
    // Entries, not assignments: an export may be named `__proto__`.
    const entries: Array<[string, string]> = [];
    const reaches = new Map<number, Set<string>>();
    for (const name of [...exported.keys()].sort()) {
      const e = exported.get(name) as Exported;
      const made = this.closure(e.locals, e.parts, restUses);
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
    const members = namespaceMembers(this.sf, new Set(parts.filter((p) => p.imported?.name === '*').map((p) => p.local as string)));
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
}

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
  return new SurfaceWalker(sf, refs, statements).walk();
}

/**
 * A file's shape with its surface. A script has none (every change to it reaches every file); a
 * module with global augmentations has one, whose GLOBAL_PART says when they changed.
 */
export function shapeAndSurface(sf: ts.SourceFile, refs: readonly ImportRef[]): FileShape {
  // The statements' tokens come from the shape's walk (file-shape.ts), where a surface may be made.
  const statements = new Map<ts.Node, StatementTokens>();
  const shape = fileShape(sf, mayHaveSurface(sf) ? statements : undefined);
  const surface = fileSurface(sf, refs, statements);
  return surface ? { ...shape, surface } : shape;
}
