// The seam between the builder and a type checker: positions of callee names in, declarations
// out (file + name position), or "none" with a reason (ADR 8). The builder never touches checker
// objects: a backend is a `CheckerBackend`, and a second one arrives through `BuildOptions.checker`
// as a `CheckerProvider` (TypeScript 7's native checker, native-checker.ts, ADR 113), which serves
// the projects it can and declines the rest to the JavaScript backend below.

import * as ts from 'typescript';
import { declarationNameStart } from '../syntax/declaration-positions';
import type { Project } from './discover';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  ModifierFlags,
  NodeFlags,
  ObjectFlags,
  SignatureKind,
  SymbolFlags,
  SyntaxKind,
  TypeFlags,
  forEachChild,
  isArrayBindingPattern,
  isArrowFunction,
  isAsExpression,
  isBindingElement,
  isCallExpression,
  isClassDeclaration,
  isClassExpression,
  isConstructorDeclaration,
  isElementAccessExpression,
  isFunctionExpression,
  getCombinedModifierFlags,
  isGetAccessor,
  isIdentifier,
  isMethodDeclaration,
  isNewExpression,
  isNumericLiteral,
  isObjectBindingPattern,
  isObjectLiteralExpression,
  isParenthesizedExpression,
  isPrivateIdentifier,
  isPropertyAccessExpression,
  isPropertyAssignment,
  isPropertyDeclaration,
  isSatisfiesExpression,
  isSetAccessor,
  isShorthandPropertyAssignment,
  isSpreadElement,
  isStringLiteral,
  isVariableDeclaration,
} = ts;

// What the compiler knows and its declarations leave internal, read the same once: a signature's
// flags and a node's flag for code inside `with` (whose contextual type is none), for
// `declaredArgumentType`.
const { HasRestParameter: SIGNATURE_HAS_REST, Abstract: SIGNATURE_ABSTRACT } = (
  ts as unknown as { SignatureFlags: { HasRestParameter: number; Abstract: number } }
).SignatureFlags;
const IN_WITH_STATEMENT = (NodeFlags as unknown as { InWithStatement: number }).InWithStatement;

/** A question: which declaration does the name at `position` (in the file asked about) denote? */
export interface SymbolQuery {
  /** Start offset of the callee name (identifier, property name, `super`, JSX tag). */
  position: number;
  /** A backend-specific shortcut to the node at `position`; a backend may ignore it. */
  hint?: unknown;
}

export interface DeclarationRef {
  /** Absolute path of the declaring file. */
  file: string;
  /** Start offset of the declaration's name, as `declarationNameStart` defines it. */
  nameStart: number;
  /** Whether the declaration is itself callable code (a function, method, class), not a value holding one. */
  callable: boolean;
  /** The declaration is a module's file itself (what `import * as m` names, ADR 185). */
  module?: true;
}

/**
 * `none`: no declaration to name. `any-receiver` and `no-declaration` wait for a name match;
 * `indirect` is a value the checker cannot see through (a destructured name that takes no one
 * property, ADR 141), UNRESOLVED as a local holding a function is.
 */
export type SymbolAnswer =
  { kind: 'declarations'; declarations: DeclarationRef[] } | { kind: 'none'; reason: 'any-receiver' | 'no-declaration' | 'indirect' };

export interface CheckerBackend {
  /** Answers every query about one file, in order. May throw: the build then falls back (ADR 114). */
  declarationsAt(file: string, queries: readonly SymbolQuery[]): SymbolAnswer[];
  /**
   * The file's questions, told as soon as they are known and before they are asked: a backend
   * whose checker runs elsewhere may start on them while the builder goes on (ADR 136). Never
   * throws and never changes an answer; `declarationsAt` with the same queries follows.
   */
  prefetch?(file: string, queries: readonly SymbolQuery[]): void;
  /** What was changed in the project's options to serve it (a removed target raised, ADR 191): said in the build's report. */
  readonly adjusted?: string;
}

/** What a provider is told about one project before its files' questions are asked. */
export interface ProjectCheck {
  /** Absolute path of the repository root. */
  root: string;
  project: Project;
  /** Absolute paths of the program's root files (the project's files, or an incremental build's subset). */
  roots: readonly string[];
  /**
   * The builder's own parse of a repository file (absolute path), or of a declaration file outside
   * the graph (a package's .d.ts, whose placement ADR 107 proves); undefined for any other file.
   */
  sourceFile(file: string): ts.SourceFile | undefined;
  /** The file system the JavaScript backend's program sees (workspace packages included, ADR 5). */
  host: CheckerFileSystem;
  /** Where an import specifier of a repository file leads: a repository file (absolute), or undefined. */
  resolveImport(fromFile: string, specifier: string): string | undefined;
}

export interface CheckerFileSystem {
  fileExists(file: string): boolean;
  directoryExists(dir: string): boolean;
  readFile(file: string): string | undefined;
  realpath(file: string): string;
  /** Names of a folder's entries, split into files and folders (symbolic links followed). */
  entries(dir: string): { files: string[]; directories: string[] } | undefined;
}

/** A second checker: serves the projects it can; the JavaScript backend serves every other one. */
export interface CheckerProvider {
  /** `native` (the only one today); said in the build's report. */
  readonly name: string;
  /** The version of the checker it runs (TypeScript 7's), said in the build's report; undefined when it has none. */
  readonly version?: string;
  /** A backend for the project, or the one-line reason it cannot serve it. */
  open(check: ProjectCheck): CheckerBackend | { declined: string };
  /** The project's questions are all answered: what it holds for it may go (a session keeps the process). */
  release(backend: CheckerBackend): void;
}

/** Which backend resolved each project's calls, and why any project fell back: the build's report, never in graph.json. */
export interface CheckerReport {
  /** The backend asked for: `js` (the default) or a provider's name. */
  requested: string;
  /** The provider's version (the TypeScript 7 release the native checker ran, ADR 186). */
  version?: string;
  /** Config paths ('' for files outside every config) of the projects the provider served. */
  served: string[];
  /** Projects the provider declined or failed on, each with its reason; the JavaScript backend served them. */
  fallbacks: { project: string; reason: string }[];
  /** Projects the provider served with options changed (ADR 191), each with what changed; absent when none. */
  adjusted?: { project: string; note: string }[];
}

const CALLABLE_KINDS = new Set<ts.SyntaxKind>([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.MethodSignature,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.Constructor,
  SyntaxKind.ClassDeclaration,
  SyntaxKind.ClassExpression,
  SyntaxKind.ExportAssignment,
]);

/** `C.prototype.m = …` in a JavaScript file, as the checker records the member it declares (the assignment's left side or the assignment). */
function isPrototypeAssignment(d: ts.Declaration): boolean {
  const node: ts.Node = d;
  const left = ts.isBinaryExpression(node) ? node.left : node;
  const assignment = left.parent as ts.Node | undefined;
  if (
    !assignment ||
    !ts.isBinaryExpression(assignment) ||
    assignment.left !== left ||
    assignment.operatorToken.kind !== SyntaxKind.EqualsToken
  )
    return false;
  if (!ts.isPropertyAccessExpression(left) && !ts.isElementAccessExpression(left)) return false;
  const owner = left.expression;
  return ts.isPropertyAccessExpression(owner) && owner.name.text === 'prototype' && /\.[cm]?jsx?$/.test(node.getSourceFile().fileName);
}

export function isCallableDeclaration(decl: ts.Declaration): boolean {
  if (CALLABLE_KINDS.has(decl.kind)) return true;
  if (isVariableDeclaration(decl) || isPropertyDeclaration(decl) || isPropertyAssignment(decl)) {
    let init = decl.initializer;
    while (init && (isParenthesizedExpression(init) || isAsExpression(init) || isSatisfiesExpression(init))) init = init.expression;
    return !!init && (isArrowFunction(init) || isFunctionExpression(init) || isClassExpression(init));
  }
  return false;
}

/**
 * What a name declared by destructuring a value holds (ADR 141): `const { f, g: h } = value` binds
 * `f` and `h` to properties of `value`, declared wherever `value`'s type declares them, so a call
 * `f()` is asked as `value.f()` would be — the property of the pattern's type, by name. Undefined
 * for any other declaration (a parameter's pattern included: its value comes from each caller);
 * `unprovable` where no one property is what the name holds: a computed key, a rest element, a
 * default value (the property or the default), an element of an array pattern — a value, as a
 * local holding a function is.
 */
export function destructuredProperty(
  decl: ts.Node,
  readsKey = false,
): { pattern: ts.ObjectBindingPattern; name: string } | 'unprovable' | undefined {
  if (!isBindingElement(decl)) return undefined;
  let root: ts.Node = decl.parent;
  while (isBindingElement(root) || isObjectBindingPattern(root) || isArrayBindingPattern(root)) root = root.parent;
  if (!isVariableDeclaration(root)) return undefined;
  const pattern = decl.parent;
  // The pattern's own key (`meta` of `const { meta = null } = config`) reads the property whatever
  // the default: only what the local holds afterwards is the property or the default.
  if (!isObjectBindingPattern(pattern) || decl.dotDotDotToken || (decl.initializer && !readsKey)) return 'unprovable';
  const key = decl.propertyName ?? decl.name;
  if (isIdentifier(key) || isStringLiteral(key) || isNumericLiteral(key)) return { pattern, name: key.text };
  return 'unprovable';
}

/** Whether a name is the key of a shorthand element of an object binding pattern (`{ meta = null } = config`'s `meta`). */
export function isPatternKey(node: ts.Node): boolean {
  const parent = node.parent;
  return !!parent && isBindingElement(parent) && !parent.propertyName && parent.name === node && isObjectBindingPattern(parent.parent);
}

/**
 * A name that is a key of an object literal (`{ retries: 3 }`, `{ retries }`, `{ run() {} }`, a
 * get or set accessor): the literal, the key, and whether it is a shorthand (which also names a
 * value). Its other declaration is what the literal's contextual type declares under that key
 * (`const o: Options = { retries: 3 }` uses `Options.retries`), ADR 155.
 */
export function objectLiteralKey(node: ts.Node): { literal: ts.ObjectLiteralExpression; name: string; shorthand: boolean } | undefined {
  const parent = node.parent;
  if (!parent || !isIdentifier(node) || !isObjectLiteralExpression(parent.parent)) return undefined;
  const shorthand = isShorthandPropertyAssignment(parent);
  if (!(shorthand || isPropertyAssignment(parent) || isMethodDeclaration(parent) || isGetAccessor(parent) || isSetAccessor(parent)))
    return undefined;
  if ((parent as ts.ObjectLiteralElementLike).name !== node) return undefined;
  return { literal: parent.parent, name: node.text, shorthand };
}

/**
 * The one property a contextual type declares under a key, from what each member of the type (a
 * union's members, or the type alone) declares: the members that have it must agree. Where two
 * members declare it apart (`{ code: 'custom' }` typed by a union of issues), which one the
 * literal is depends on the checker's discrimination, which neither backend exposes: no answer
 * (ADR 155). Members without it are passed over (`Options | undefined`).
 */
export function unionProperty<D>(byMember: ReadonlyArray<readonly D[]>, same: (a: D, b: D) => boolean = (a, b) => a === b): D[] {
  const having = byMember.filter((ds) => ds.length > 0);
  if (having.length === 0) return [];
  const first = having[0];
  const agree = having.every((ds) => ds.length === first.length && ds.every((d, i) => same(d, first[i])));
  return agree ? [...first] : [];
}

/** Declarations to answer with, each once (a shorthand's value and its contextual property may meet). */
export function distinctDeclarations(refs: readonly DeclarationRef[]): DeclarationRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.file}\u0000${r.nameStart}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** How many destructurings an answer follows (`const { a } = v; const o = { a }; const { a: b } = o`), in case they go round. */
export const DESTRUCTURING_HOPS = 8;

/** The innermost node whose span starts at `position` (a name token), found without recursion. */
export function nodeAt(sf: ts.SourceFile, position: number): ts.Node | undefined {
  let current: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    forEachChild(current, (child) => {
      if (next === undefined && child.pos <= position && position < child.end) next = child;
    });
    if (!next) return current.getStart(sf) === position ? current : undefined;
    if (
      next.getStart(sf) === position &&
      (isIdentifier(next) || isPrivateIdentifier(next) || next.kind === SyntaxKind.SuperKeyword || next.kind === SyntaxKind.ThisKeyword)
    ) {
      return next;
    }
    current = next;
  }
}

/** The JavaScript type checker of TypeScript 6, one program at a time. */
export class TsCheckerBackend implements CheckerBackend {
  private readonly checker: ts.TypeChecker;
  /** Each literal's contextual type, asked once for all its keys. */
  private readonly contextualTypes = new WeakMap<ts.ObjectLiteralExpression, ts.Type | undefined>();
  /** Interfaces whose properties no type argument changes (`plainInterface`), by declared type. */
  private readonly plainInterfaces = new WeakMap<ts.Type, boolean>();

  constructor(private readonly program: ts.Program) {
    this.checker = program.getTypeChecker();
  }

  declarationsAt(file: string, queries: readonly SymbolQuery[]): SymbolAnswer[] {
    const sf = this.program.getSourceFile(file);
    return queries.map((q) => {
      const node = (q.hint as ts.Node | undefined) ?? (sf ? nodeAt(sf, q.position) : undefined);
      if (!node) return { kind: 'none', reason: 'no-declaration' };
      return this.answer(node);
    });
  }

  private answer(node: ts.Node): SymbolAnswer {
    const checker = this.checker;
    const key = objectLiteralKey(node);
    // A key written in full is the literal's own property to `getSymbolAtLocation`: only its
    // contextual type's property is an answer (ADR 155).
    if (key && !key.shorthand) return this.refsOf(this.contextualProperty(key.literal, key.name));
    const readsKey = isPatternKey(node);
    // A shorthand names its value and its contextual type's property (ADR 155): the property is an
    // answer even where the value is not one.
    const orKey = (none: SymbolAnswer): SymbolAnswer => {
      const property = key ? this.contextualProperty(key.literal, key.name) : [];
      return property.length > 0 ? this.refsOf(property) : none;
    };
    let symbol = node.kind === SyntaxKind.ThisKeyword ? this.classOfThis(node) : checker.getSymbolAtLocation(node);
    if (!symbol) return orKey({ kind: 'none', reason: this.isAnyReceiver(node) ? 'any-receiver' : 'no-declaration' });
    let declarations: readonly ts.Declaration[];
    for (let hops = 0; ; hops++) {
      // Follow import/export aliases and re-export chains to the real declaration.
      if (symbol.flags & SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      declarations = symbol.declarations ?? [];
      // `{ add }` in an object literal names the value `add`: follow it, as references do.
      if (declarations.length > 0 && declarations.every(isShorthandPropertyAssignment)) {
        const values = declarations.map((d) => checker.getShorthandAssignmentValueSymbol(d)).filter((s): s is ts.Symbol => !!s);
        const resolved = values.map((s) => (s.flags & SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s));
        declarations = resolved.flatMap((s) => s.declarations ?? []);
      }
      // A destructured name holds a property of the value destructured: follow it (ADR 141).
      const taken = declarations.length === 1 ? destructuredProperty(declarations[0], readsKey && hops === 0) : undefined;
      if (taken === undefined) break;
      if (taken === 'unprovable' || hops === DESTRUCTURING_HOPS) return orKey({ kind: 'none', reason: 'indirect' });
      const type = checker.getTypeAtLocation(taken.pattern);
      if (type.flags & (TypeFlags.Any | TypeFlags.Unknown)) return orKey({ kind: 'none', reason: 'any-receiver' });
      const property = checker.getPropertyOfType(type, taken.name);
      if (!property) return orKey({ kind: 'none', reason: 'no-declaration' });
      symbol = property;
    }
    // A member a JavaScript file declares as `C.prototype.m = function`: TypeScript 7 binds no such
    // member, so its checker answers these sites with nothing; this one does the same, and both
    // give the graph the same name match, never a proof only one of them has (ADR 188).
    if (declarations.some(isPrototypeAssignment)) return orKey({ kind: 'none', reason: 'any-receiver' });
    // A shorthand names its value and its contextual type's property (ADR 155).
    if (key) declarations = [...declarations, ...this.contextualProperty(key.literal, key.name)];
    return this.refsOf(declarations);
  }

  private refsOf(declarations: readonly ts.Declaration[]): SymbolAnswer {
    if (declarations.length === 0) return { kind: 'none', reason: 'no-declaration' };
    return {
      kind: 'declarations',
      declarations: distinctDeclarations(
        declarations.map((d) => {
          const dsf = d.getSourceFile();
          const ref: DeclarationRef = { file: dsf.fileName, nameStart: declarationNameStart(d, dsf), callable: isCallableDeclaration(d) };
          if (d.kind === SyntaxKind.SourceFile) ref.module = true;
          return ref;
        }),
      ),
    };
  }

  /**
   * The declarations of `name` in the contextual type of `literal`: one property, or none when the
   * members of a union declare it apart (`unionProperty`).
   */
  private contextualProperty(literal: ts.ObjectLiteralExpression, name: string): ts.Declaration[] {
    let type = this.contextualTypes.get(literal);
    if (!this.contextualTypes.has(literal)) {
      type = this.declaredArgumentType(literal) ?? this.checker.getContextualType(literal);
      this.contextualTypes.set(literal, type);
    }
    if (!type || type.flags & (TypeFlags.Any | TypeFlags.Unknown)) return [];
    const members = type.isUnion() ? type.types : [type];
    return unionProperty(members.map((t) => this.checker.getPropertyOfType(t, name)?.declarations ?? []));
  }

  /**
   * A type with the properties of an object literal's contextual type, where the literal is passed
   * to a call or `new` whose callee has one signature, found without resolving the call. The
   * checker's `getContextualType` resolves it: it chooses the signature, infers its type
   * arguments and checks every argument against it, which is most of what object literals' keys
   * cost (ADR 159). With one candidate the signature the call resolves to is that candidate,
   * whether the arguments fit or not, instantiated when it is generic (with the call's type
   * arguments, or inferred). Without type parameters the literal's contextual type is the
   * candidate's parameter type at the literal's place, the very type. With them, that parameter type instantiated: where it is an interface, or such
   * interfaces and `undefined` (`plainInterface`), any instantiation declares each property by
   * the same declarations, which are all a key's answer reads; the declared type is returned.
   * Undefined wherever the checker could resolve to anything else (another signature, an error's
   * signature) or the type could depend on inference: a rest parameter, a spread argument, an
   * optional chain, `super(...)`, a constructor that is abstract or not public, a
   * JavaScript declaration. The checker is then asked.
   */
  private declaredArgumentType(literal: ts.ObjectLiteralExpression): ts.Type | undefined {
    const call = literal.parent;
    if (!(isCallExpression(call) || isNewExpression(call)) || !call.arguments) return undefined;
    if (literal.flags & IN_WITH_STATEMENT) return undefined;
    const index = call.arguments.indexOf(literal);
    if (index < 0 || call.arguments.some(isSpreadElement)) return undefined;
    const callee = call.expression;
    if (callee.kind === SyntaxKind.SuperKeyword || callee.kind === SyntaxKind.ImportKeyword || call.flags & NodeFlags.OptionalChain)
      return undefined;
    const checker = this.checker;
    // An untyped callee (`any`, or a name the checker could not type) resolves to a signature
    // without parameters, whose type at any place is `any`: no key has an answer.
    const type = checker.getApparentType(checker.getTypeAtLocation(callee));
    if (type.flags & TypeFlags.Any) return type;
    if (type.flags & TypeFlags.Union) return undefined;
    const isNew = isNewExpression(call);
    const signatures = checker.getSignaturesOfType(type, isNew ? SignatureKind.Construct : SignatureKind.Call);
    if (signatures.length !== 1) return undefined;
    const signature = signatures[0];
    const flags = (signature as unknown as { flags: number }).flags;
    if (flags & (SIGNATURE_HAS_REST | SIGNATURE_ABSTRACT) || index >= signature.parameters.length) return undefined;
    const declaration = signature.declaration;
    if (declaration && declaration.flags & NodeFlags.JavaScriptFile) return undefined;
    if (isNew) {
      if (
        declaration &&
        isConstructorDeclaration(declaration) &&
        getCombinedModifierFlags(declaration) & ModifierFlags.NonPublicAccessibilityModifier
      )
        return undefined;
      const classes = type.getSymbol()?.declarations ?? [];
      if (classes.some((d) => (isClassDeclaration(d) || isClassExpression(d)) && getCombinedModifierFlags(d) & ModifierFlags.Abstract))
        return undefined;
    }
    // The checker's `getTypeAtPosition`, which its declarations do not list.
    const parameter = (checker as unknown as { getParameterType(s: ts.Signature, i: number): ts.Type }).getParameterType(signature, index);
    if (!signature.typeParameters) return parameter;
    const members = parameter.isUnion() ? parameter.types : [parameter];
    return members.every((t) => t.flags & (TypeFlags.Undefined | TypeFlags.Null) || this.plainInterface(t)) ? parameter : undefined;
  }

  /**
   * Whether a type is an interface, or a reference to a generic one, whose bases are such
   * interfaces too: its properties are the interfaces' declared members whatever its type
   * arguments (an interface's base may be a type parameter, `interface A<T> extends T`, whose
   * members would not be).
   */
  private plainInterface(type: ts.Type): boolean {
    if (!(type.flags & TypeFlags.Object)) return false;
    const object = type as ts.ObjectType;
    const target = object.objectFlags & ObjectFlags.Reference ? (type as ts.TypeReference).target : object;
    if ((target.objectFlags & (ObjectFlags.Interface | ObjectFlags.Class)) !== ObjectFlags.Interface) return false;
    let plain = this.plainInterfaces.get(target);
    if (plain === undefined) {
      this.plainInterfaces.set(target, false);
      plain = (this.checker.getBaseTypes(target as ts.InterfaceType) ?? []).every((b) => this.plainInterface(b));
      this.plainInterfaces.set(target, plain);
    }
    return plain;
  }

  /**
   * The class `this` denotes where its type is the class's static side (`typeof C`): in a static
   * method, static block or static initializer. Anywhere else (`this` an instance, or typed by a
   * `this:` parameter) there is no class to name.
   */
  private classOfThis(node: ts.Node): ts.Symbol | undefined {
    const type = this.checker.getTypeAtLocation(node);
    const symbol = type.getSymbol();
    if (!symbol || !(symbol.flags & SymbolFlags.Class)) return undefined;
    return this.checker.getTypeOfSymbol(symbol) === type ? symbol : undefined;
  }

  /** A property access whose receiver the checker types as `any` (or could not type at all). */
  private isAnyReceiver(node: ts.Node): boolean {
    const parent = node.parent;
    let receiver: ts.Expression | undefined;
    if (parent && isPropertyAccessExpression(parent) && parent.name === node) receiver = parent.expression;
    else if (parent && isElementAccessExpression(parent) && parent.argumentExpression === node) receiver = parent.expression;
    if (!receiver) return false;
    const type = this.checker.getTypeAtLocation(receiver);
    return (type.flags & (TypeFlags.Any | TypeFlags.Unknown)) !== 0;
  }
}
