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
//     function-typed property) and does not see through `(a ? f : g)()`. Such EXACT edges are
//     confirmed instead by the language service's go-to-definition at the call site
//     (`confirmedByDefinition`), never assumed.
//  4. It attributes `new C()` to the class C — as the graph does.
//  5. Its callers are at the granularity of every named function (nested ones too); the graph's
//     are module-level symbols. Reference callers are projected onto the innermost enclosing
//     graph node (function, method, class, namespace) or the file, by syntax containment.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import type { Graph, GraphNode } from '../../src/graph/model';

interface Disagreement {
  source: string;
  target: string;
  site: string;
  why: string;
}

export interface ReferenceReport {
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
}

const CALLER_KINDS = new Set(['function', 'method', 'class', 'namespace']);

function skipOuter(node: ts.Node): ts.Node {
  let n = node;
  while (
    n.parent &&
    (ts.isParenthesizedExpression(n.parent) || ts.isAsExpression(n.parent) || ts.isNonNullExpression(n.parent) || ts.isSatisfiesExpression(n.parent) || ts.isTypeAssertionExpression(n.parent))
  ) {
    n = n.parent;
  }
  return n;
}

/** Whether the name token at a reference site is the thing being called/constructed/tagged/decorated/rendered. */
function isCallTarget(token: ts.Node): boolean {
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

function tokenAt(sf: ts.SourceFile, pos: number): ts.Node | undefined {
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
function graphName(decl: ts.Node, sf: ts.SourceFile): string | undefined {
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
    } else if (ts.isModuleBlock(p) || ts.isClassLike(p) || ts.isVariableDeclarationList(p) || ts.isVariableStatement(p) || ts.isVariableDeclaration(p) || ts.isInterfaceDeclaration(p)) {
      continue;
    } else if (ts.isObjectBindingPattern(p) || ts.isArrayBindingPattern(p) || ts.isBindingElement(p)) {
      continue;
    } else {
      return undefined; // inside a body, an object literal, a parameter: no graph node
    }
  }
  return parts.join('.');
}

function escapePart(s: string): string {
  // eslint-disable-next-line no-control-regex -- ids escape control characters, as docs/graph-format.md says
  return s.replace(/[%#~@:\u0000-\u001f\u007f]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

export function compareWithCallHierarchy(root: string, graph: Graph, configFile = 'tsconfig.json'): ReferenceReport {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const files = graph.nodes.filter((n) => n.kind === 'file').map((n) => path.join(root, n.sourceFile as string));
  const config = ts.readConfigFile(path.join(root, configFile), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = { ...parsed.options, allowJs: true, noEmit: true };
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
    const name = graphName(decl, sf);
    if (name === undefined) return undefined;
    const id = `sym:${escapePart(rel(sf.fileName))}#${escapePart(name)}`;
    return nodes.has(id) ? id : undefined;
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
  /** Graph ids the language service's go-to-definition reaches from a position. */
  const definitionIds = (file: string, pos: number): Set<string> => {
    const out = new Set<string>();
    for (const def of ls.getDefinitionAtPosition(file, pos) ?? []) {
      const decl = declarationAt(def.fileName, def.textSpan.start);
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
  /** The innermost enclosing graph caller of a site, or its file. */
  const callerOf = (token: ts.Node): string => {
    for (let p = token.parent; p; p = p.parent) {
      if (ts.isSourceFile(p)) break;
      const id = idFor(p);
      if (id && CALLER_KINDS.has((nodes.get(id) as GraphNode).kind)) return id;
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
            widenedSamples.push(`${rel(call.from.file)}:${lc.line + 1}:${lc.character + 1} listed under ${node.id}, defined at ${[...definitionIds(call.from.file, span.start)].join(', ') || '(nothing in the graph)'}`);
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
    const special = !preparable.has(e.target) || e.context === 'super' || e.context === 'conditional';
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
    falsePositives.push({ source: e.source, target: e.target, site, why: special ? 'neither definition nor references reach the target' : 'not in the call hierarchy' });
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
  return {
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
  };
}
