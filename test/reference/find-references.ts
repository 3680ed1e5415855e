// The correctness reference for the `references` layer (ADR 151, ADR 152): the TypeScript
// language service's find-all-references, asked about every declaration that has a graph node
// (top-level symbols and class and interface members, fields included), projected to the graph's
// granularity and compared with the graph's consumer edges. Nothing here uses the builder's code:
// the program is the language service's, and the mapping of declarations to graph ids is
// call-hierarchy.ts's own.
//
// Each reference site is projected to what the graph records:
//  - its file (the "what breaks" answer: which files a change of the declaration breaks);
//  - its referrer: for a call, `new`, tag, decorator or JSX tag, the innermost enclosing
//    declaration that holds code (the calls caller of call-hierarchy.ts); for any other use, the
//    innermost enclosing declaration of any kind the graph registers; the file at top level.
//
// Sites that are not consumers, each counted under its reason, never dropped silently:
//  - `declaration`: the name of one of the target symbol's own declarations (overloads and merged
//    declarations included);
//  - `outsideGraph`: a file the graph does not hold;
//  - `comment`: a name inside a comment (a JSDoc `{@link X}`): no code breaks;
//  - `widened`: find-all-references widens through bases and interfaces (a use of `Shape.area`
//    is listed under `Square.area`, and the interface's member declaration under the class's). A
//    site whose own symbol (through aliases, shorthand properties and root symbols) does not
//    denote the target is a use of something else. One exception is kept in: a member declared
//    where the graph proves it implements or overrides the target (an EXACT `implements` /
//    `overrides` edge from it) is a consumer, the dispatch tier (`dispatch` sites);
//  - `parameter`: a constructor's parameter property used as the parameter (in the constructor's
//    body or a default value): the checker's symbol there is the parameter, a local;
//  - `destructured`: a use of a module-level name bound by destructuring a value
//    (`const { isArray } = Array`), which the graph asks as the property it takes (ADR 141);
//  - `self`: a use inside the target's own declaration, other than a call (ADR 151: no consumer
//    of itself; a recursive call is a calls edge and is counted).
//
// Recall is measured on (declaration, referrer file) pairs against the files holding a source of
// an EXACT consumer edge (CONSUMER_RELATIONS) into the declaration's node, and on (referrer,
// declaration) pairs, reported without a bar. An import's name is dropped by the graph when the
// same file reaches the declaration otherwise (ADR 151): such a pair counts as found when any edge
// of the file reaches it (`importSubsumed`).
//
// Precision: every EXACT `references` edge's evidence must be among its target's
// find-all-references sites, and its source the projected referrer there. EXACT `calls` edges are
// checked the same way; a `super(...)` call, `new this()` and a call through a destructured name
// (ADR 141) have no name of the target at the site and are left to the call-hierarchy oracle
// (counted).

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import type { Graph, GraphEdge, GraphNode } from '../../src/graph/model';
import { CONSUMER_RELATIONS, DISPATCH_RELATIONS } from '../../src/graph/consumers';
import { destructuredFromValue, escapePart, graphName, hasInstanceTwin, holdsCode, isCallTarget, tokenAt } from './call-hierarchy';

const SYMBOL_KINDS = new Set(['function', 'class', 'method', 'property', 'interface', 'enum', 'type', 'variable', 'namespace']);

/** The syntax the graph registers symbols for (an independent list: the graph-format's symbols). */
function isSymbolDeclaration(node: ts.Node): boolean {
  switch (node.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.InterfaceDeclaration:
    case ts.SyntaxKind.EnumDeclaration:
    case ts.SyntaxKind.TypeAliasDeclaration:
    case ts.SyntaxKind.ModuleDeclaration:
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.BindingElement:
    case ts.SyntaxKind.ExportAssignment:
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.MethodSignature:
    case ts.SyntaxKind.GetAccessor:
    case ts.SyntaxKind.SetAccessor:
    case ts.SyntaxKind.PropertyDeclaration:
    case ts.SyntaxKind.PropertySignature:
    case ts.SyntaxKind.Parameter:
    case ts.SyntaxKind.PropertyAssignment: // `key: function` of an object literal bound to a name (ADR 200)
      return true;
    default:
      return false;
  }
}

type ExclusionReason = 'declaration' | 'outsideGraph' | 'comment' | 'widened' | 'discriminated' | 'self' | 'parameter' | 'destructured';

interface Disagreement {
  source: string;
  target: string;
  site: string;
  why: string;
}

export interface FindReferencesReport {
  /** Declarations asked about. */
  declarations: number;
  /** Reference sites find-all-references listed, in all. */
  sites: number;
  excluded: Record<ExclusionReason, number>;
  /** Sites kept as consumers that are member declarations linked by dispatch. */
  dispatchSites: number;
  references: {
    exact: number;
    confirmed: number;
    confirmedByDefinition: number;
    falsePositives: Disagreement[];
    sourceResiduals: Disagreement[];
  };
  calls: { exact: number; confirmed: number; leftToCallHierarchy: Record<string, number>; falsePositives: Disagreement[] };
  /** Of EXACT references edges, the share whose evidence find-all-references lists under the target. */
  precision: number;
  filePairs: number;
  filesFound: number;
  recallFiles: number;
  fileMisses: Disagreement[];
  /** Sites that are object literals' keys, counted as uses of their contextual type's property (ADR 155). */
  contextualSites: number;
  /** (declaration, file) pairs named only by object-literal keys, and how many of them the graph finds. */
  contextualOnly: number;
  contextualOnlyFound: number;
  symbolPairs: number;
  symbolsFound: number;
  importSubsumed: number;
  recallPairs: number;
  pairMisses: Disagreement[];
  /** Misses by the kind of site (what syntax the use is), to find the graph's gaps. */
  missesBySyntax: Record<string, number>;
  /** Per declaration asked, the files its uses are in after the exclusions (what `filePairs` counts), sorted. */
  referrerFiles: Map<string, string[]>;
}

export function compareWithFindReferences(
  root: string,
  graph: Graph,
  configFile = 'tsconfig.json',
  optionsOverride?: ts.CompilerOptions,
): FindReferencesReport {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const files = graph.nodes.filter((n) => n.kind === 'file').map((n) => path.join(root, n.sourceFile as string));
  const graphFiles = new Set(files);
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
  const checker = program.getTypeChecker();
  const rel = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
  const fileIdOf = (sf: ts.SourceFile) => `file:${escapePart(rel(sf.fileName))}`;
  const idFor = (decl: ts.Node): string | undefined => {
    const sf = decl.getSourceFile();
    // A static member with an instance twin is `<Class>.static.<member>` (ADR 80): whichever
    // spelling the graph has, the twin's first.
    const isStatic = ts.canHaveModifiers(decl) && !!ts.getModifiers(decl)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
    for (const twin of isStatic || hasInstanceTwin(decl) ? [true, false] : [false]) {
      const name = graphName(decl, sf, twin);
      if (name === undefined) return undefined;
      const id = `sym:${escapePart(rel(sf.fileName))}#${escapePart(name)}`;
      if (nodes.has(id)) return id;
    }
    return undefined;
  };
  const siteName = (sf: ts.SourceFile, pos: number) => {
    const lc = sf.getLineAndCharacterOfPosition(pos);
    return `${rel(sf.fileName)}:${lc.line + 1}:${lc.character + 1}`;
  };
  /** The innermost enclosing declaration the graph registers, or the file: a reference's source. */
  const ownerOf = (token: ts.Node): string => {
    for (let p = token.parent; p; p = p.parent) {
      if (ts.isSourceFile(p)) break;
      if (!isSymbolDeclaration(p)) continue;
      const id = idFor(p);
      if (id) return id;
    }
    return fileIdOf(token.getSourceFile());
  };
  /** The innermost enclosing declaration that holds code, or the file: a call's source. */
  const callerOf = (token: ts.Node): string => {
    for (let p = token.parent; p; p = p.parent) {
      if (ts.isSourceFile(p)) break;
      if (!holdsCode(p)) continue;
      const id = idFor(p);
      if (id) return id;
    }
    return fileIdOf(token.getSourceFile());
  };
  const declares = (d: ts.Node, target: string) =>
    idFor(d) === target || ((ts.isConstructorDeclaration(d) || ts.isClassStaticBlockDeclaration(d)) && idFor(d.parent) === target);
  /** Whether the symbol at a name (aliases, shorthand values and root symbols followed) has the target among its declarations. */
  const denotes = (token: ts.Node, target: string): boolean => {
    const symbols: ts.Symbol[] = [];
    const sym = checker.getSymbolAtLocation(token);
    if (sym) symbols.push(sym);
    if (token.parent && ts.isShorthandPropertyAssignment(token.parent)) {
      const value = checker.getShorthandAssignmentValueSymbol(token.parent);
      if (value) symbols.push(value);
    }
    for (const s of symbols) {
      const resolved = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      for (const r of checker.getRootSymbols(resolved)) if ((r.declarations ?? []).some((d) => declares(d, target))) return true;
    }
    return false;
  };

  // The graph's consumers: by target, the files and the sources of EXACT consumer edges.
  const consumerFiles = new Map<string, Set<string>>();
  const consumerPairs = new Set<string>();
  const dispatchPairs = new Set<string>();
  for (const e of graph.edges) {
    if (e.confidence !== 'EXACT' || !CONSUMER_RELATIONS.has(e.relation)) continue;
    const file = e.evidence?.file ?? nodes.get(e.source)?.sourceFile;
    if (file !== undefined) {
      let set = consumerFiles.get(e.target);
      if (!set) consumerFiles.set(e.target, (set = new Set()));
      set.add(file);
    }
    consumerPairs.add(`${e.source}\u0000${e.target}`);
    if (DISPATCH_RELATIONS.has(e.relation)) dispatchPairs.add(`${e.source}\u0000${e.target}`);
  }

  const excluded: Record<ExclusionReason, number> = {
    declaration: 0,
    outsideGraph: 0,
    comment: 0,
    widened: 0,
    discriminated: 0,
    self: 0,
    parameter: 0,
    destructured: 0,
  };
  let sites = 0;
  /**
   * (file, target) pairs object literals' keys name (`const o: Options = { retries: 3 }`, ADR 155:
   * the contextual type's property), and those other sites name: the report says how many pairs
   * only keys name, and how many of those the graph finds.
   */
  const contextualFiles = new Set<string>();
  const otherFiles = new Set<string>();
  let contextualSites = 0;
  let dispatchSites = 0;
  /** `absolute file:offset` of every site find-all-references lists under a target, for the precision check. */
  const farSites = new Map<string, Set<string>>();
  /** Per target: referrer file → first site; referrer symbol → first site, and whether it is an import's name. */
  const refFiles = new Map<string, Map<string, string>>();
  const refPairs = new Map<string, { site: string; imported: boolean; syntax: string }>();
  let declarations = 0;

  /** The graph ids go-to-definition reaches from a position. */
  const definedAs = (file: string, pos: number): Set<string> => {
    const out = new Set<string>();
    for (const def of ls.getDefinitionAtPosition(file, pos) ?? []) {
      const sf = program.getSourceFile(def.fileName);
      const token = sf && tokenAt(sf, def.textSpan.start);
      const id = token?.parent && isSymbolDeclaration(token.parent) ? idFor(token.parent) : undefined;
      if (id) out.add(id);
    }
    return out;
  };
  /** Whether an object literal's key has a union contextual type whose members declare it apart. */
  const discriminated = (token: ts.Node): boolean => {
    const literal = token.parent.parent as ts.ObjectLiteralExpression;
    const type = checker.getContextualType(literal);
    if (!type?.isUnion()) return false;
    const name = (token as ts.Identifier).text;
    const first = new Set<ts.Declaration>();
    let seen = false;
    for (const t of type.types) {
      const ds = checker.getPropertyOfType(t, name)?.declarations ?? [];
      if (ds.length === 0) continue;
      if (!seen) {
        ds.forEach((d) => first.add(d));
        seen = true;
      } else if (ds.length !== first.size || ds.some((d) => !first.has(d))) return true;
    }
    return false;
  };

  const ask = (n: GraphNode): Set<string> => {
    const known = farSites.get(n.id);
    if (known) return known;
    const set = new Set<string>();
    farSites.set(n.id, set);
    const file = path.join(root, n.sourceFile as string);
    const sf = program.getSourceFile(file);
    if (!sf || n.line === undefined || n.column === undefined) return set;
    declarations++;
    const pos = sf.getPositionOfLineAndCharacter(n.line - 1, n.column - 1);
    const nameToken = tokenAt(sf, pos);
    const own = new Set<string>();
    const sym = nameToken && checker.getSymbolAtLocation(nameToken);
    // Find-all-references keeps to the meaning of the declaration it is asked at (an interface's
    // name finds its uses as a type, not those of the `const` merged with it): it is asked once
    // at a declaration of each kind the symbol has.
    const askAt: Array<{ file: string; pos: number }> = [{ file, pos }];
    const kinds = new Set<ts.SyntaxKind>();
    for (const d of sym?.declarations ?? []) {
      const name = ts.getNameOfDeclaration(d as ts.Declaration) ?? d;
      const at = { file: d.getSourceFile().fileName, pos: name.getStart() };
      own.add(`${at.file}:${at.pos}`);
      if (at.file === file && at.pos === pos) kinds.add(d.kind);
    }
    for (const d of sym?.declarations ?? []) {
      const name = ts.getNameOfDeclaration(d as ts.Declaration) ?? d;
      const at = { file: d.getSourceFile().fileName, pos: name.getStart() };
      if (kinds.has(d.kind) || !graphFiles.has(at.file)) continue;
      kinds.add(d.kind);
      askAt.push(at);
    }
    own.add(`${file}:${pos}`);
    const files = new Map<string, string>();
    for (const group of askAt.flatMap((at) => ls.findReferences(at.file, at.pos) ?? [])) {
      for (const r of group.references) {
        const key = `${r.fileName}:${r.textSpan.start}`;
        if (set.has(key)) continue;
        set.add(key);
        sites++;
        if (!graphFiles.has(r.fileName)) {
          excluded.outsideGraph++;
          continue;
        }
        if (own.has(key)) {
          excluded.declaration++;
          continue;
        }
        const from = program.getSourceFile(r.fileName) as ts.SourceFile;
        const token = tokenAt(from, r.textSpan.start);
        // A string literal's span is its text, inside the quotes (`this['~validate']`).
        const start = token && ts.isStringLiteralLike(token) ? token.getStart(from) + 1 : token?.getStart(from);
        if (
          !token ||
          start !== r.textSpan.start ||
          !(
            ts.isIdentifier(token) ||
            ts.isPrivateIdentifier(token) ||
            ts.isStringLiteralLike(token) ||
            ts.isNumericLiteral(token) ||
            token.kind === ts.SyntaxKind.DefaultKeyword
          )
        ) {
          excluded.comment++;
          continue;
        }
        let source: string;
        let viaKey = false;
        if (denotes(token, n.id)) {
          if (isParameterUse(checker, token)) {
            excluded.parameter++;
            continue;
          }
          if (calleeDestructured(checker, token)) {
            // ADR 141: a name bound by destructuring a value is asked as the property it takes.
            excluded.destructured++;
            continue;
          }
          source = isCallTarget(token) ? callerOf(token) : ownerOf(token);
          if (source === n.id && !isCallTarget(token)) {
            excluded.self++;
            continue;
          }
        } else {
          // A member declared where the graph proves it implements or overrides the target.
          const decl =
            token.parent && isSymbolDeclaration(token.parent) && ts.getNameOfDeclaration(token.parent as ts.Declaration) === token
              ? idFor(token.parent)
              : undefined;
          // An object literal's key is a use of its contextual type's property whether or not the
          // key declares a symbol of its own (a literal's function is a method, ADR 200).
          if (isObjectLiteralKey(token) && definedAs(r.fileName, r.textSpan.start).has(n.id) && discriminated(token)) {
            // A key typed by a union whose members declare it apart (`{ code: 'custom' }` of an
            // issue union): which member the literal is, the checker's discrimination decides, and
            // neither backend exposes it (ADR 155): counted apart.
            excluded.discriminated++;
            continue;
          }
          if (isObjectLiteralKey(token) && definedAs(r.fileName, r.textSpan.start).has(n.id)) {
            // `const o: Options = { retries: 3 }`: the literal's own property, which its contextual
            // type relates to the target (go-to-definition there names it): a use from the
            // literal's owner (ADR 155). A key go-to-definition places elsewhere reaches the
            // target through a base or an interface: widened, as other such sites.
            contextualSites++;
            viaKey = true;
            contextualFiles.add(`${rel(r.fileName)}\u0000${n.id}`);
            source = ownerOf(token);
          } else if (decl === undefined || !dispatchPairs.has(`${decl}\u0000${n.id}`)) {
            excluded.widened++;
            continue;
          } else {
            dispatchSites++;
            source = decl;
          }
        }
        if (!viaKey) otherFiles.add(`${rel(r.fileName)}\u0000${n.id}`);
        const where = siteName(from, r.textSpan.start);
        const relFile = rel(r.fileName);
        if (!files.has(relFile)) files.set(relFile, where);
        const pairKey = `${source}\u0000${n.id}`;
        const imported = !!token.parent && (ts.isImportSpecifier(token.parent) || ts.isImportClause(token.parent));
        const prior = refPairs.get(pairKey);
        if (!prior || (prior.imported && !imported)) refPairs.set(pairKey, { site: where, imported, syntax: syntaxOf(token) });
      }
    }
    refFiles.set(n.id, files);
    return set;
  };

  for (const n of graph.nodes) if (n.id.startsWith('sym:') && SYMBOL_KINDS.has(n.kind)) ask(n);

  // Recall: files.
  let filePairs = 0;
  let filesFound = 0;
  const fileMisses: Disagreement[] = [];
  const missesBySyntax: Record<string, number> = {};
  for (const [target, files] of refFiles) {
    const have = consumerFiles.get(target);
    for (const [file, site] of files) {
      filePairs++;
      if (have?.has(file)) filesFound++;
      else fileMisses.push({ source: `file:${file}`, target, site, why: 'no consumer edge from the file' });
    }
  }
  // What counting the object literals' keys would add: the (target, file) pairs only they name.
  let contextualOnly = 0;
  let contextualOnlyFound = 0;
  for (const key of contextualFiles) {
    const [file, target] = key.split('\u0000');
    if (otherFiles.has(key)) continue;
    contextualOnly++;
    if (consumerFiles.get(target)?.has(file)) contextualOnlyFound++;
  }
  // Recall: referrer symbols. An import's name the graph subsumed counts when the file reaches the target.
  let symbolsFound = 0;
  let importSubsumed = 0;
  const pairMisses: Disagreement[] = [];
  for (const [key, { site, imported, syntax }] of refPairs) {
    const [source, target] = key.split('\u0000');
    if (consumerPairs.has(key)) symbolsFound++;
    else if (imported && consumerFiles.get(target)?.has(site.slice(0, site.indexOf(':')))) {
      symbolsFound++;
      importSubsumed++;
    } else {
      pairMisses.push({ source, target, site, why: syntax });
      missesBySyntax[syntax] = (missesBySyntax[syntax] ?? 0) + 1;
    }
  }

  // Precision: every EXACT references (and calls) edge's evidence among its target's sites.
  const references = {
    exact: 0,
    confirmed: 0,
    confirmedByDefinition: 0,
    /** EXACT references to a file: its module object used whole, confirmed by the checker (ADR 185). */
    moduleObjects: 0,
    falsePositives: [] as Disagreement[],
    sourceResiduals: [] as Disagreement[],
  };
  const calls = { exact: 0, confirmed: 0, leftToCallHierarchy: {} as Record<string, number>, falsePositives: [] as Disagreement[] };
  for (const e of graph.edges) {
    if (e.confidence !== 'EXACT' || (e.relation !== 'references' && e.relation !== 'calls')) continue;
    const target = nodes.get(e.target);
    const check = e.relation === 'references' ? references : calls;
    check.exact++;
    const site = `${e.evidence?.file}:${e.evidence?.line}:${e.evidence?.column}`;
    if (e.relation === 'references' && target?.kind === 'file' && e.evidence) {
      // A module object used whole (ADR 185): the checker's symbol at the site, its alias
      // followed, is the module whose file the edge names.
      const sf = program.getSourceFile(path.join(root, e.evidence.file)) as ts.SourceFile;
      const token = tokenAt(sf, sf.getPositionOfLineAndCharacter(e.evidence.line - 1, e.evidence.column - 1));
      const sym = token && checker.getSymbolAtLocation(token);
      const resolved = sym && sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      if ((resolved?.declarations ?? []).some((d) => ts.isSourceFile(d) && fileIdOf(d) === e.target)) {
        check.confirmed++;
        references.moduleObjects++;
      } else check.falsePositives.push({ ...brief(e), site, why: 'not a use of the module the target file is' });
      continue;
    }
    if (!target || !e.evidence || !e.target.startsWith('sym:')) {
      check.falsePositives.push({ source: e.source, target: e.target, site, why: 'no evidence or no target node' });
      continue;
    }
    const file = path.join(root, e.evidence.file);
    const sf = program.getSourceFile(file) as ts.SourceFile;
    const pos = sf.getPositionOfLineAndCharacter(e.evidence.line - 1, e.evidence.column - 1);
    const token = tokenAt(sf, pos);
    const listed = ask(target);
    if (listed.has(`${file}:${pos}`) || (!!token && ts.isStringLiteralLike(token) && listed.has(`${file}:${pos + 1}`))) {
      check.confirmed++;
      if (e.relation === 'references' && token) {
        const source = isCallTarget(token) ? callerOf(token) : ownerOf(token);
        if (source !== e.source) references.sourceResiduals.push({ ...brief(e), site, why: `the enclosing symbol is ${source}` });
      }
      continue;
    }
    if (e.relation === 'references' && token && ts.isStringLiteralLike(token) && definedAs(file, pos + 1).has(e.target)) {
      // `T['key']` on a type parameter: find-all-references does not search through its
      // constraint; go-to-definition at the site names the member.
      references.confirmedByDefinition++;
      continue;
    }
    if (e.relation === 'calls') {
      const why =
        e.context === 'super'
          ? 'super'
          : token?.kind === ts.SyntaxKind.ThisKeyword
            ? 'new this'
            : token && calleeDestructured(checker, token)
              ? 'destructured'
              : undefined;
      if (why) {
        calls.leftToCallHierarchy[why] = (calls.leftToCallHierarchy[why] ?? 0) + 1;
        continue;
      }
    }
    check.falsePositives.push({ ...brief(e), site, why: 'not among the target’s references' });
  }

  return {
    declarations,
    sites,
    excluded,
    dispatchSites,
    references,
    calls,
    precision: references.exact === 0 ? 1 : (references.confirmed + references.confirmedByDefinition) / references.exact,
    filePairs,
    filesFound,
    recallFiles: filePairs === 0 ? 1 : filesFound / filePairs,
    contextualSites,
    contextualOnly,
    contextualOnlyFound,
    fileMisses,
    referrerFiles: new Map([...refFiles].map(([target, files]) => [target, [...files.keys()].sort()])),
    symbolPairs: refPairs.size,
    symbolsFound,
    importSubsumed,
    recallPairs: refPairs.size === 0 ? 1 : symbolsFound / refPairs.size,
    pairMisses,
    missesBySyntax,
  };
}

function brief(e: GraphEdge): { source: string; target: string } {
  return { source: e.source, target: e.target };
}

/** Whether a name is a property's key in an object literal (`{ retries: 3 }`, `{ retries }`, `{ run() {} }`). */
function isObjectLiteralKey(token: ts.Node): boolean {
  const p = token.parent;
  return (
    !!p &&
    (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isAccessor(p)) &&
    p.name === token &&
    ts.isObjectLiteralExpression(p.parent)
  );
}

/**
 * Whether a name is a use of a constructor's parameter property as the parameter (`kind` in the
 * constructor's body or a default value): find-all-references lists it under the field, the
 * checker's symbol there is the parameter, a local the graph never asks about.
 */
function isParameterUse(checker: ts.TypeChecker, token: ts.Node): boolean {
  const sym = checker.getSymbolAtLocation(token);
  if (!sym || !(sym.flags & ts.SymbolFlags.FunctionScopedVariable)) return false;
  return (sym.declarations ?? []).some((d) => ts.isParameter(d) && ts.isParameterPropertyDeclaration(d, d.parent));
}

function calleeDestructured(checker: ts.TypeChecker, token: ts.Node): boolean {
  const sym = checker.getSymbolAtLocation(token);
  return !!sym && !(sym.flags & ts.SymbolFlags.Alias) && (sym.declarations ?? []).some(destructuredFromValue);
}

/** What syntax a use is, to sort the misses: its parent's kind, and the grandparent's for a member name. */
function syntaxOf(token: ts.Node): string {
  const p = token.parent;
  if (!p) return ts.SyntaxKind[token.kind];
  const g = p.parent;
  return `${ts.SyntaxKind[p.kind]}${g ? ' < ' + ts.SyntaxKind[g.kind] : ''}`;
}
