// The correctness reference: the TypeScript language service's own call hierarchy
// (prepareCallHierarchy + provideCallHierarchyIncomingCalls), run over the same files, compared
// with the graph's EXACT calls edges. Nothing here uses the builder's code: files are read with
// ts.sys, the program is the language service's, and the mapping of declarations to graph ids is
// this file's own.
//
// Known differences between "calls" and the call hierarchy, handled explicitly:
//  1. The call hierarchy also lists non-call references (`arr.map(this.handle)`, `obj['m']`):
//     such sites are not calls and leave the recall denominator (counted as `nonCall`).
//  2. It widens through base classes and interfaces: a call `shape.area()` on `Shape` is listed
//     under every implementation's `area`, and a call to one override under its siblings. A
//     site whose own symbol (the language service checker's, through its root symbols so each
//     constituent of a union property counts) does not denote the target is a call to something
//     else, and leaves the denominator (`widened`). (Go-to-definition alone is not enough: in call
//     position it follows the resolved signature and names one constituent of a union.)
//  3. It omits `super(...)`; it cannot be asked about values (a `const` holding a function, a
//     function-typed property) and does not see through `(a ? f : g)()`, `new (a ? B : C)()` or
//     `new this()`, nor a name destructured from a value, `const { f } = v; f()` (it finds calls by
//     the callee's name; ADR 141). Such EXACT edges are confirmed instead
//     by the language service's go-to-definition at the call site (`confirmedByDefinition`),
//     never assumed.
//  4. It attributes `new C()` to the class C — as the graph does.
//  5. Its callers are at the granularity of every named function (nested ones too); the graph's
//     are module-level symbols. Reference callers are projected onto the innermost enclosing
//     declaration that holds code and has a graph node (function, class, method, accessor,
//     namespace, variable or property holding a function or class — whatever kind its merged node
//     has, since a class merged with an earlier interface is an `interface` node), or the file.
//
// Then every EXACT edge is checked on its own (`edgeCheck`): its callee by go-to-definition at the
// evidence position, its caller by the innermost enclosing declaration (rule 5). Go-to-definition
// follows the signature the checker picked, so for a union receiver it names one member and for
// a merged declaration one part; there the edge is confirmed by the declarations of the symbol at
// the position (through aliases and root symbols) — the same question the graph asks
// (docs/adr/0082-the-callee-is-the-symbol-not-the-signature.md). Anything else is a residual,
// listed and explained in the test.
//
// The language service runs with the options TypeScript 5.9 computes from each corpus's config
// (`typescript59Options`), since each corpus is written for TypeScript 5 or does not say (ADR 81).

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import * as ts59 from 'ts59';
import type { Graph, GraphNode } from '../../src/graph/model';

/**
 * The options TypeScript 5.9 itself computes from the config — the compiler every corpus here is
 * written for (or, without a package.json, is assumed to be: docs/adr/0081-…) — spelled out for
 * the bundled TypeScript 6. They come from TypeScript 5.9's own config parser and its own
 * computed-option functions, not from the builder's code.
 */
export function typescript59Options(root: string, configFile = 'tsconfig.json'): ts.CompilerOptions {
  const config = ts59.readConfigFile(path.join(root, configFile), ts59.sys.readFile);
  const o = ts59.parseJsonConfigFileContent(config.config, ts59.sys, root).options;
  const computed = ts59 as unknown as {
    getEmitScriptTarget(o: ts59.CompilerOptions): number;
    getEmitModuleKind(o: ts59.CompilerOptions): number;
    getEmitModuleResolutionKind(o: ts59.CompilerOptions): number;
    getESModuleInterop(o: ts59.CompilerOptions): boolean;
    getAllowSyntheticDefaultImports(o: ts59.CompilerOptions): boolean;
    getStrictOptionValue(o: ts59.CompilerOptions, flag: string): boolean;
  };
  const strictFlags = [
    'noImplicitAny',
    'noImplicitThis',
    'strictNullChecks',
    'strictFunctionTypes',
    'strictBindCallApply',
    'strictPropertyInitialization',
    'strictBuiltinIteratorReturn',
    'alwaysStrict',
    'useUnknownInCatchVariables',
  ];
  const out: Record<string, unknown> = {
    ...o,
    target: computed.getEmitScriptTarget(o),
    module: computed.getEmitModuleKind(o),
    moduleResolution: computed.getEmitModuleResolutionKind(o),
    esModuleInterop: computed.getESModuleInterop(o),
    allowSyntheticDefaultImports: computed.getAllowSyntheticDefaultImports(o),
    types: o.types ?? ['*'],
    ignoreDeprecations: '6.0',
  };
  for (const flag of strictFlags) out[flag] = computed.getStrictOptionValue(o, flag);
  return out as ts.CompilerOptions;
}

/** The independent check of every EXACT calls edge (see `checkEveryEdge` below). */
interface EdgeCheck {
  edges: number;
  /** Callee: the language service's go-to-definition at the edge's evidence position names the target. */
  calleeByDefinition: number;
  /**
   * Callee: go-to-definition names another declaration of the same symbol, and the symbol at the
   * position (through aliases and its root symbols) declares the target — a union receiver's
   * other members, the other parts of a merged declaration, `(a ? f : g)()`.
   */
  calleeBySymbol: number;
  /** A few of those, to check by eye. */
  bySymbolSamples: string[];
  /** Caller: the innermost enclosing declaration that holds code, mapped to its node, is the source. */
  callerConfirmed: number;
  residuals: Disagreement[];
}

interface Disagreement {
  source: string;
  target: string;
  site: string;
  why: string;
}

export interface ReferenceReport {
  /** The independent check of every EXACT calls edge. */
  edgeCheck: EdgeCheck;
  /** EXACT calls pairs in the graph. */
  exactPairs: number;
  confirmedByCallHierarchy: number;
  /** Edges the call hierarchy cannot confirm (super, values, merged declarations), confirmed by go-to-definition at the site. */
  confirmedByDefinition: number;
  /** The rest of those (a function-typed property reached through a union receiver, whose
   * go-to-definition keeps only the methods), confirmed by the target's find-all-references. */
  confirmedByReferences: number;
  precision: number;
  /** Direct-call pairs in the reference after exclusions. */
  referencePairs: number;
  found: number;
  recall: number;
  excludedSites: { nonCall: number; widened: number; outsideGraph: number };
  /** A few widened sites, to check the exclusion by eye. */
  widenedSamples: string[];
  unpreparable: Record<string, number>;
  falsePositives: Disagreement[];
  misses: Disagreement[];
  /** The reference's direct-call pairs after exclusions, as `caller\u0000target` keys (what `referencePairs` counts). */
  pairKeys: string[];
  /** The declarations the call hierarchy could be asked about: every pair's target is one of them. */
  asked: string[];
}

const CALLER_KINDS = new Set(['function', 'method', 'class', 'namespace']);

function skipOuter(node: ts.Node): ts.Node {
  let n = node;
  while (
    n.parent &&
    (ts.isParenthesizedExpression(n.parent) ||
      ts.isAsExpression(n.parent) ||
      ts.isNonNullExpression(n.parent) ||
      ts.isSatisfiesExpression(n.parent) ||
      ts.isTypeAssertionExpression(n.parent))
  ) {
    n = n.parent;
  }
  return n;
}

/** Whether the name token at a reference site is the thing being called/constructed/tagged/decorated/rendered. */
export function isCallTarget(token: ts.Node): boolean {
  let n: ts.Node = token;
  if (n.parent && ts.isPropertyAccessExpression(n.parent) && n.parent.name === n) n = n.parent;
  else if (n.parent && ts.isElementAccessExpression(n.parent) && n.parent.argumentExpression === n) n = n.parent;
  const p = skipOuter(n).parent;
  const e = skipOuter(n);
  if (!p) return false;
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === e) return true;
  if (ts.isTaggedTemplateExpression(p) && p.tag === e) return true;
  if (ts.isDecorator(p) && p.expression === e) return true;
  if ((ts.isJsxOpeningElement(p) || ts.isJsxSelfClosingElement(p)) && p.tagName === e) return true;
  return false;
}

export function tokenAt(sf: ts.SourceFile, pos: number): ts.Node | undefined {
  let current: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    current.forEachChild((c) => {
      if (!next && c.getStart(sf) <= pos && pos < c.end) next = c;
    });
    if (!next) return current === sf ? undefined : current;
    current = next;
  }
}

/** The graph name of a module-level declaration (`f`, `C.m`, `N.f`), or undefined for locals. */
export function graphName(decl: ts.Node, sf: ts.SourceFile, twin = false): string | undefined {
  const nameOf = (d: ts.Node): string | undefined => {
    if (ts.isExportAssignment(d)) return 'default';
    const n = (d as { name?: ts.Node }).name;
    if (!n) {
      const mods = ts.canHaveModifiers(d) ? ts.getModifiers(d) : undefined;
      return mods?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ? 'default' : undefined;
    }
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
    if (ts.isComputedPropertyName(n)) return '[' + n.expression.getText(sf) + ']';
    return undefined;
  };
  const parts: string[] = [];
  let d: ts.Node = decl;
  const own = nameOf(d);
  if (own === undefined) return undefined;
  parts.unshift(own);
  // A static member with an instance twin is `<Class>.static.<member>` (ADR 80); which spelling
  // exists is decided by the caller, which tries this one first.
  if (twin && ts.canHaveModifiers(d) && ts.getModifiers(d)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) parts.unshift('static');
  // A constructor's parameter property is a field of the class (a property node, ADR 151).
  if (ts.isParameter(d) && ts.isParameterPropertyDeclaration(d, d.parent)) d = d.parent;
  for (let p = d.parent; p && !ts.isSourceFile(p); p = p.parent) {
    if (ts.isClassDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isModuleDeclaration(p)) {
      const n = nameOf(p);
      if (n === undefined) return undefined;
      parts.unshift(n);
      d = p;
    } else if (ts.isClassExpression(p)) {
      let q: ts.Node = p.parent;
      while (ts.isParenthesizedExpression(q) || ts.isAsExpression(q)) q = q.parent;
      if (!ts.isVariableDeclaration(q) || !ts.isIdentifier(q.name)) return undefined;
      parts.unshift(q.name.text);
      p = q;
      d = q;
    } else if (
      ts.isModuleBlock(p) ||
      ts.isClassLike(p) ||
      ts.isVariableDeclarationList(p) ||
      ts.isVariableStatement(p) ||
      ts.isVariableDeclaration(p) ||
      ts.isInterfaceDeclaration(p)
    ) {
      continue;
    } else if (ts.isObjectBindingPattern(p) || ts.isArrayBindingPattern(p) || ts.isBindingElement(p)) {
      continue;
    } else if (ts.isObjectLiteralExpression(p) && d.parent === p && isLiteralFunction(d)) {
      // A function an object literal bound to a name holds (`const api = { get() {} }`) is `api.get`
      // (graph-format, ADR 200); the name's declaration is walked on from there.
      let q: ts.Node = p.parent;
      while (ts.isParenthesizedExpression(q) || ts.isAsExpression(q) || ts.isSatisfiesExpression(q)) q = q.parent;
      if (!ts.isVariableDeclaration(q) || !ts.isIdentifier(q.name) || skipOuterExpression(q.initializer) !== p) return undefined;
      parts.unshift(q.name.text);
      p = q;
      d = q;
    } else {
      return undefined; // inside a body, an object literal, a parameter: no graph node
    }
  }
  return parts.join('.');
}

/** A method, accessor or `key: function` / `key: () =>` member of an object literal, not a computed key. */
function isLiteralFunction(d: ts.Node): boolean {
  const name = (d as { name?: ts.Node }).name;
  if (!name || ts.isComputedPropertyName(name)) return false;
  if (ts.isMethodDeclaration(d) || ts.isAccessor(d)) return true;
  if (!ts.isPropertyAssignment(d)) return false;
  const init = skipOuterExpression(d.initializer);
  return init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
}

function skipOuterExpression(e: ts.Expression | undefined): ts.Expression | undefined {
  let x = e;
  while (
    x &&
    (ts.isParenthesizedExpression(x) ||
      ts.isAsExpression(x) ||
      ts.isSatisfiesExpression(x) ||
      ts.isTypeAssertionExpression(x) ||
      ts.isNonNullExpression(x))
  )
    x = x.expression;
  return x;
}

export function holdsCode(node: ts.Node): boolean {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isModuleDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isAccessor(node)
  )
    return true;
  let init: ts.Expression | undefined;
  if (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isPropertyAssignment(node)) init = node.initializer;
  else if (ts.isExportAssignment(node)) init = node.expression;
  init = skipOuterExpression(init);
  return !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init));
}

/**
 * Whether a static member has an instance twin: a method, accessor or function-valued property of
 * the same name, not static, in any declaration of its class or an interface merged with it in
 * the same file (ADR 80: then its node is `<Class>.static.<member>`).
 */
export function hasInstanceTwin(decl: ts.Node): boolean {
  if (!ts.canHaveModifiers(decl) || !ts.getModifiers(decl)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return false;
  const owner = decl.parent;
  const name = (decl as { name?: ts.Node }).name;
  if (!name || !(ts.isClassDeclaration(owner) || ts.isClassExpression(owner))) return false;
  const text = name.getText();
  const ownerName = owner.name?.text;
  const container = owner.parent;
  const owners: ts.Node[] = [owner];
  if (ownerName !== undefined && (ts.isSourceFile(container) || ts.isModuleBlock(container))) {
    for (const st of container.statements) {
      if ((ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st)) && st.name?.text === ownerName && st !== owner) owners.push(st);
    }
  }
  const isFunctionValued = (m: ts.Node): boolean => {
    if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m) || ts.isAccessor(m)) return true;
    if (ts.isPropertySignature(m)) return !!m.type && ts.isFunctionTypeNode(m.type);
    if (ts.isPropertyDeclaration(m)) {
      let init = m.initializer;
      while (init && (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init)))
        init = init.expression;
      return !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init));
    }
    return false;
  };
  return owners.some((o) =>
    (o as ts.ClassLikeDeclaration | ts.InterfaceDeclaration).members.some(
      (m: ts.ClassElement | ts.TypeElement) =>
        m !== decl &&
        !!m.name &&
        m.name.getText() === text &&
        isFunctionValued(m) &&
        !(ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)),
    ),
  );
}

/** Whether a callee name reaches its call through a conditional or logical operator: `new (a ? B : C)()`. */
/** A binding element of an object pattern in a variable declaration, with no default and no rest. */
export function destructuredFromValue(node: ts.Node): node is ts.BindingElement {
  if (!ts.isBindingElement(node) || node.initializer || node.dotDotDotToken || !ts.isObjectBindingPattern(node.parent)) return false;
  let root: ts.Node = node.parent;
  while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
  return ts.isVariableDeclaration(root);
}

/** Whether the callee's name is a destructured one: the call hierarchy finds calls by the callee's own name. */
function calleeIsDestructured(checker: ts.TypeChecker, token: ts.Node): boolean {
  const sym = checker.getSymbolAtLocation(token);
  return !!sym && !(sym.flags & ts.SymbolFlags.Alias) && (sym.declarations ?? []).some(destructuredFromValue);
}

function throughConditional(token: ts.Node): boolean {
  for (let n: ts.Node = token; n.parent; n = n.parent) {
    const p = n.parent;
    if (ts.isCallExpression(p) || ts.isNewExpression(p)) return false;
    if (ts.isConditionalExpression(p) || ts.isBinaryExpression(p)) return true;
  }
  return false;
}

export function escapePart(s: string): string {
  // eslint-disable-next-line no-control-regex -- ids escape control characters, as docs/graph-format.md says
  return s.replace(/[%#~@:\u0000-\u001f\u007f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

export function compareWithCallHierarchy(
  root: string,
  graph: Graph,
  configFile = 'tsconfig.json',
  optionsOverride?: ts.CompilerOptions,
): ReferenceReport {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const files = graph.nodes.filter((n) => n.kind === 'file').map((n) => path.join(root, n.sourceFile as string));
  const config = ts.readConfigFile(path.join(root, configFile), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = { ...(optionsOverride ?? parsed.options), allowJs: true, noEmit: true };
  const lsHost: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => files,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f) ?? '') : undefined),
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const ls = ts.createLanguageService(lsHost, ts.createDocumentRegistry());
  const program = ls.getProgram() as ts.Program;
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  const idFor = (decl: ts.Node): string | undefined => {
    const sf = decl.getSourceFile();
    for (const twin of hasInstanceTwin(decl) ? [true] : [false]) {
      const name = graphName(decl, sf, twin);
      if (name === undefined) return undefined;
      const id = `sym:${escapePart(rel(sf.fileName))}#${escapePart(name)}`;
      if (nodes.has(id)) return id;
    }
    return undefined;
  };
  const declarationAt = (file: string, pos: number): ts.Node | undefined => {
    const sf = program.getSourceFile(file);
    const tok = sf && tokenAt(sf, pos);
    return tok?.parent;
  };
  const checker = program.getTypeChecker();
  /**
   * Whether the call hierarchy listed a site under `target` although the site's symbol does not
   * denote it: the site calls a member of a base, an interface or a sibling override, and the
   * call hierarchy widened the search through their common base. The site's own symbol (its root
   * symbols, so each constituent of a union property counts) decides.
   */
  const isWidened = (file: string, pos: number, target: GraphNode): boolean => {
    const sf = program.getSourceFile(file) as ts.SourceFile;
    const token = tokenAt(sf, pos);
    let sym = token && checker.getSymbolAtLocation(token);
    if (!sym) return false;
    if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const decls = checker.getRootSymbols(sym).flatMap((r) => r.declarations ?? []);
    return !decls.some((d) => idFor(d) === target.id || (ts.isConstructorDeclaration(d) && idFor(d.parent) === target.id));
  };
  /** Whether the symbol at a token (through aliases and root symbols) has the target among its declarations. */
  const symbolDeclares = (token: ts.Node, target: string): boolean => {
    let sym = checker.getSymbolAtLocation(token);
    if (!sym && token.kind === ts.SyntaxKind.ThisKeyword) sym = checker.getTypeAtLocation(token).getSymbol();
    if (!sym) return false;
    if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const decls = checker.getRootSymbols(sym).flatMap((r) => r.declarations ?? []);
    return decls.some((d) => idFor(d) === target || (ts.isConstructorDeclaration(d) && idFor(d.parent) === target));
  };
  /** Whether a member name is reached through a union receiver (`(a: A | B).m()`). */
  const throughUnion = (token: ts.Node): boolean => {
    const p = token.parent;
    if (!p || !ts.isPropertyAccessExpression(p) || p.name !== token) return false;
    return checker.getNonNullableType(checker.getTypeAtLocation(p.expression)).isUnion();
  };
  /**
   * Graph ids the language service's go-to-definition reaches from a position. Where it lands on a
   * name destructured from a value (`const { f } = v`, without a default), it is asked again at the
   * property's name in the pattern, where it names the property's declaration (ADR 141): the
   * graph's callee of `f()` is `v.f`'s.
   */
  const definitionIds = (file: string, pos: number, depth = 0): Set<string> => {
    const out = new Set<string>();
    for (const def of ls.getDefinitionAtPosition(file, pos) ?? []) {
      const element = declarationAt(def.fileName, def.textSpan.start);
      if (depth < 4 && element && destructuredFromValue(element)) {
        const key = element.propertyName ?? element.name;
        if (key.getStart() !== pos || def.fileName !== file) {
          for (const id of definitionIds(def.fileName, key.getStart(), depth + 1)) out.add(id);
          continue;
        }
      }
      const decl = element;
      let id = decl && idFor(decl);
      if (!id && decl) {
        // A constructor stands for its class; a default export's keyword for its declaration.
        if (ts.isConstructorDeclaration(decl)) id = idFor(decl.parent);
        else if (decl.parent) id = idFor(decl.parent);
      }
      if (id) out.add(id);
    }
    return out;
  };
  /**
   * The innermost enclosing graph caller of a site, or its file: the nearest enclosing
   * declaration that holds code (a function, class, method, accessor, namespace, or a variable or
   * property initialised with a function or class) and has a node — whatever kind that node has,
   * since a class merged with an earlier interface is an `interface` node.
   */
  const callerOf = (token: ts.Node): string => {
    for (let p = token.parent; p; p = p.parent) {
      if (ts.isSourceFile(p)) break;
      if (!holdsCode(p)) continue;
      const id = idFor(p);
      if (id) return id;
    }
    return `file:${escapePart(rel(token.getSourceFile().fileName))}`;
  };

  const refPairs = new Map<string, { site: string }>();
  const excludedSites = { nonCall: 0, widened: 0, outsideGraph: 0 };
  const widenedSamples: string[] = [];
  const unpreparable: Record<string, number> = {};
  const preparable = new Set<string>();
  for (const node of graph.nodes) {
    if (!CALLER_KINDS.has(node.kind) || node.kind === 'namespace' || node.line === undefined) continue;
    const file = path.join(root, node.sourceFile as string);
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const pos = sf.getPositionOfLineAndCharacter((node.line as number) - 1, (node.column as number) - 1);
    const items = ls.prepareCallHierarchy(file, pos);
    const list = items === undefined ? [] : Array.isArray(items) ? items : [items];
    const item = list.find((i) => i.file === file && i.selectionSpan.start === pos);
    if (!item) {
      unpreparable[node.kind] = (unpreparable[node.kind] ?? 0) + 1;
      continue;
    }
    preparable.add(node.id);
    for (const call of ls.provideCallHierarchyIncomingCalls(file, pos)) {
      const fromSf = program.getSourceFile(call.from.file);
      if (!fromSf || !files.includes(call.from.file)) {
        excludedSites.outsideGraph += call.fromSpans.length;
        continue;
      }
      for (const span of call.fromSpans) {
        const token = tokenAt(fromSf, span.start);
        if (!token || !isCallTarget(token)) {
          excludedSites.nonCall++;
          continue;
        }
        if (isWidened(call.from.file, span.start, node)) {
          excludedSites.widened++;
          if (widenedSamples.length < 12 && excludedSites.widened % 50 === 1) {
            const lc = fromSf.getLineAndCharacterOfPosition(span.start);
            widenedSamples.push(
              `${rel(call.from.file)}:${lc.line + 1}:${lc.character + 1} listed under ${node.id}, defined at ${[...definitionIds(call.from.file, span.start)].join(', ') || '(nothing in the graph)'}`,
            );
          }
          continue;
        }
        const caller = callerOf(token);
        const key = `${caller}\u0000${node.id}`;
        if (!refPairs.has(key)) {
          const lc = fromSf.getLineAndCharacterOfPosition(span.start);
          refPairs.set(key, { site: `${rel(call.from.file)}:${lc.line + 1}:${lc.character + 1}` });
        }
      }
    }
  }

  const exact = graph.edges.filter((e) => e.relation === 'calls' && e.confidence === 'EXACT');
  const ours = new Map(exact.map((e) => [`${e.source}\u0000${e.target}`, e]));
  let confirmedByCallHierarchy = 0;
  let confirmedByDefinition = 0;
  let confirmedByReferences = 0;
  const referenceSites = new Map<string, Set<string>>();
  /** `file:offset` of every reference to a graph declaration, by find-all-references. */
  const referencesOf = (target: string): Set<string> => {
    let set = referenceSites.get(target);
    if (set) return set;
    set = new Set();
    const n = nodes.get(target) as GraphNode;
    const file = path.join(root, n.sourceFile as string);
    const sf = program.getSourceFile(file) as ts.SourceFile;
    const pos = sf.getPositionOfLineAndCharacter((n.line as number) - 1, (n.column as number) - 1);
    for (const r of ls.findReferences(file, pos) ?? []) for (const e of r.references) set.add(`${e.fileName}:${e.textSpan.start}`);
    referenceSites.set(target, set);
    return set;
  };
  const falsePositives: Disagreement[] = [];
  for (const e of exact) {
    const site = `${e.evidence?.file}:${e.evidence?.line}:${e.evidence?.column}`;
    if (refPairs.has(`${e.source}\u0000${e.target}`)) {
      confirmedByCallHierarchy++;
      continue;
    }
    let special = !preparable.has(e.target) || e.context === 'super' || e.context === 'conditional';
    if (!special && e.evidence) {
      // Sites the call hierarchy cannot see, since it finds calls by the name of the callee:
      // `new this()` and a branch of `new (a ? B : C)()`.
      const sf = program.getSourceFile(path.join(root, e.evidence.file)) as ts.SourceFile;
      const token = tokenAt(sf, sf.getPositionOfLineAndCharacter(e.evidence.line - 1, e.evidence.column - 1));
      special = !!token && (token.kind === ts.SyntaxKind.ThisKeyword || throughConditional(token) || calleeIsDestructured(checker, token));
    }
    if (special && e.evidence) {
      const file = path.join(root, e.evidence.file);
      const sf = program.getSourceFile(file) as ts.SourceFile;
      const pos = sf.getPositionOfLineAndCharacter(e.evidence.line - 1, e.evidence.column - 1);
      if (definitionIds(file, pos).has(e.target)) {
        confirmedByDefinition++;
        continue;
      }
      if (e.context !== 'super' && referencesOf(e.target).has(`${file}:${pos}`)) {
        confirmedByReferences++;
        continue;
      }
    }
    falsePositives.push({
      source: e.source,
      target: e.target,
      site,
      why: special ? 'neither definition nor references reach the target' : 'not in the call hierarchy',
    });
  }
  const misses: Disagreement[] = [];
  let found = 0;
  for (const [key, { site }] of refPairs) {
    if (ours.has(key)) found++;
    else {
      const [source, target] = key.split('\u0000');
      misses.push({ source, target, site, why: 'no EXACT edge' });
    }
  }
  /**
   * Every EXACT calls edge on its own: the callee by the language service's go-to-definition at
   * the evidence position, the caller by the innermost enclosing symbol around it.
   */
  const edgeCheck: EdgeCheck = {
    edges: exact.length,
    calleeByDefinition: 0,
    calleeBySymbol: 0,
    bySymbolSamples: [],
    callerConfirmed: 0,
    residuals: [],
  };
  for (const e of exact) {
    const site = `${e.evidence?.file}:${e.evidence?.line}:${e.evidence?.column}`;
    if (!e.evidence) {
      edgeCheck.residuals.push({ source: e.source, target: e.target, site, why: 'no evidence' });
      continue;
    }
    const file = path.join(root, e.evidence.file);
    const sf = program.getSourceFile(file) as ts.SourceFile;
    const pos = sf.getPositionOfLineAndCharacter(e.evidence.line - 1, e.evidence.column - 1);
    const token = tokenAt(sf, pos);
    let callee = '';
    if (definitionIds(file, pos).has(e.target)) {
      edgeCheck.calleeByDefinition++;
    } else if (token && symbolDeclares(token, e.target) && !throughUnion(token)) {
      // Not a union: an intersection property (a mixin's `this`), whose symbol declares the base's
      // member and the override; go-to-definition names one. Listed as a residual (ADR 82).
      callee = `callee: the symbol declares it, go-to-definition names ${[...definitionIds(file, pos)].join(', ') || 'nothing in the graph'} (intersection property)`;
    } else if (token && symbolDeclares(token, e.target)) {
      edgeCheck.calleeBySymbol++;
      if (edgeCheck.bySymbolSamples.length < 20)
        edgeCheck.bySymbolSamples.push(
          `${site} ${e.source} -> ${e.target} (go-to-definition: ${[...definitionIds(file, pos)].join(', ') || 'nothing in the graph'})`,
        );
    } else {
      callee = `callee: go-to-definition names ${[...definitionIds(file, pos)].join(', ') || 'nothing in the graph'}`;
    }
    const caller = token ? callerOf(token) : '';
    if (caller === e.source) edgeCheck.callerConfirmed++;
    const why = [callee, caller === e.source ? '' : `caller: the enclosing symbol is ${caller || 'unknown'}`]
      .filter((x) => x !== '')
      .join('; ');
    if (why !== '') edgeCheck.residuals.push({ source: e.source, target: e.target, site, why });
  }

  return {
    edgeCheck,
    exactPairs: exact.length,
    confirmedByCallHierarchy,
    confirmedByDefinition,
    confirmedByReferences,
    precision: exact.length === 0 ? 1 : (confirmedByCallHierarchy + confirmedByDefinition + confirmedByReferences) / exact.length,
    referencePairs: refPairs.size,
    found,
    recall: refPairs.size === 0 ? 1 : found / refPairs.size,
    excludedSites,
    widenedSamples,
    unpreparable,
    falsePositives,
    misses,
    pairKeys: [...refPairs.keys()],
    asked: [...preparable],
  };
}
