// What the native route does with a project's options (ADR 113, ADR 114): which TypeScript 7
// removed, where interop options it cannot express could change an answer, and the options as the
// tsconfig JSON it reads. TypeScript 6's side only: no TypeScript 7 import.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import type { ProjectCheck } from './checker';
import { DEFAULT_LIB_DIRECTORY } from './program';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  ModuleKind,
  ModuleResolutionKind,
  ScriptTarget,
  SyntaxKind,
  createScanner,
  forEachChild,
  getDefaultLibFileName,
  isArrayBindingPattern,
  isArrayLiteralExpression,
  isBinaryExpression,
  isForOfStatement,
  isIdentifier,
  isParenthesizedExpression,
  isPropertyAccessExpression,
  isSpreadElement,
  isStringLiteralLike,
  isVariableDeclaration,
  isExportAssignment,
  isExportDeclaration,
  isExternalModule,
  isExternalModuleReference,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isNamespaceExport,
  isNamespaceImport,
  isStringLiteral,
  isYieldExpression,
  LanguageVariant,
} = ts;

/** The pinned TypeScript 6.0.3's computed options (internal, as program.ts reads them): what it makes of options left unset. */
const { getEmitModuleKind, getEmitScriptTarget, getUseDefineForClassFields, isAssignmentTarget, libMap } = ts as unknown as {
  isAssignmentTarget(node: ts.Node): boolean;
  getEmitModuleKind(o: ts.CompilerOptions): ts.ModuleKind;
  getEmitScriptTarget(o: ts.CompilerOptions): ts.ScriptTarget;
  getUseDefineForClassFields(o: ts.CompilerOptions): boolean;
  libMap: Map<string, string>;
};

/**
 * Options TypeScript 6 deprecated and TypeScript 7 removed (TypeScript 6's `checkDeprecations("6.0")`
 * list, the same one semantics.ts silences): a project that has one is not the project TypeScript 7
 * would check, so it is declined. `esModuleInterop` / `allowSyntheticDefaultImports: false` are
 * declined only where they can change an answer (interopSensitive, ADR 114).
 */
export function removedOptions(o: ts.CompilerOptions): string[] {
  const found: string[] = [];
  if (o.target === ScriptTarget.ES3 || o.target === ScriptTarget.ES5) found.push(`target: ${ts.ScriptTarget[o.target]}`);
  if (o.moduleResolution === ModuleResolutionKind.Node10) found.push('moduleResolution: node10');
  if (o.moduleResolution === ModuleResolutionKind.Classic) found.push('moduleResolution: classic');
  if (o.module === ModuleKind.None || o.module === ModuleKind.AMD || o.module === ModuleKind.UMD || o.module === ModuleKind.System)
    found.push(`module: ${ts.ModuleKind[o.module]}`);
  if (o.outFile) found.push('outFile');
  if (o.baseUrl !== undefined) found.push('baseUrl');
  if (o.alwaysStrict === false) found.push('alwaysStrict: false');
  return found;
}

/**
 * Where `esModuleInterop: false` (or `allowSyntheticDefaultImports: false`), which TypeScript 7
 * cannot express, could make its answers differ: a default or namespace import, an `import =`, or
 * a `require` whose module is not a repository ES module without `export =` — or any CommonJS
 * JavaScript file. The first such file and specifier, or undefined when nothing depends on it.
 */
export function interopSensitive(check: ProjectCheck): string | undefined {
  const esModule = new Map<string, boolean>();
  const isPlainEsModule = (abs: string): boolean => {
    let v = esModule.get(abs);
    if (v === undefined) {
      const sf = check.sourceFile(abs);
      v = !!sf && isExternalModule(sf) && !sf.statements.some((s) => isExportAssignment(s) && s.isExportEquals);
      esModule.set(abs, v);
    }
    return v;
  };
  for (const file of check.roots) {
    const sf = check.sourceFile(file);
    if (!sf) continue;
    const rel = path.relative(check.root, file);
    if (/\.[cm]?jsx?$/.test(file) && !isExternalModule(sf)) return `${rel} is not an ES module`;
    for (const s of sf.statements) {
      let specifier: string | undefined;
      if (isImportDeclaration(s) && isStringLiteral(s.moduleSpecifier) && s.importClause && !s.importClause.isTypeOnly) {
        const c = s.importClause;
        if (c.name || (c.namedBindings && isNamespaceImport(c.namedBindings))) specifier = s.moduleSpecifier.text;
      } else if (
        isExportDeclaration(s) &&
        s.moduleSpecifier &&
        isStringLiteral(s.moduleSpecifier) &&
        s.exportClause &&
        isNamespaceExport(s.exportClause)
      ) {
        specifier = s.moduleSpecifier.text;
      } else if (isImportEqualsDeclaration(s) && isExternalModuleReference(s.moduleReference)) {
        const e = s.moduleReference.expression;
        if (isStringLiteral(e)) specifier = e.text;
      }
      if (specifier === undefined) continue;
      const target = check.resolveImport(file, specifier);
      if (!target || !isPlainEsModule(target)) return `${rel} imports '${specifier}' as a default or namespace`;
    }
  }
  return undefined;
}

interface OptionDeclaration {
  name: string;
  type: string | Map<string, number | string>;
  element?: OptionDeclaration;
}

/** The pinned TypeScript 6.0.3's table of options (internal; test/unit/native-checker.test.ts checks it). */
const optionTable = (): Map<string, OptionDeclaration> => {
  const list = (ts as unknown as { optionDeclarations?: OptionDeclaration[] }).optionDeclarations;
  if (!Array.isArray(list)) throw new Error('the bundled TypeScript lacks optionDeclarations');
  return new Map(list.map((d) => [d.name, d]));
};

/** Options that are about emitting, building or this process, never about what a name denotes. */
const DROPPED = new Set([
  'configFilePath',
  'pathsBasePath',
  'plugins',
  'ignoreDeprecations',
  'noEmit',
  'composite',
  'incremental',
  'tsBuildInfoFile',
  'build',
]);

/** A parsed TypeScript 6 options object as tsconfig `compilerOptions` JSON, which TypeScript 7 reads. */
export function optionsAsJson(options: ts.CompilerOptions): Record<string, unknown> {
  const table = optionTable();
  const out: Record<string, unknown> = {};
  const nameOf = (map: Map<string, number | string>, value: unknown): string | undefined => {
    for (const [k, v] of map) if (v === value) return k;
    return undefined;
  };
  for (const key of Object.keys(options).sort()) {
    if (DROPPED.has(key)) continue;
    const value = options[key];
    if (value === undefined) continue;
    const decl = table.get(key);
    if (key === 'lib' && Array.isArray(value)) {
      out.lib = (value as string[]).map((f) => f.replace(/^lib\./, '').replace(/\.d\.ts$/, ''));
    } else if (decl && decl.type instanceof Map) {
      const name = nameOf(decl.type, value);
      if (name === undefined) throw new Error(`option ${key} has a value TypeScript 6 cannot name (${String(value)})`);
      out[key] = name;
    } else if (decl?.element && decl.element.type instanceof Map && Array.isArray(value)) {
      const map = decl.element.type;
      out[key] = value.map((v) => nameOf(map, v) ?? v);
    } else {
      out[key] = value;
    }
  }
  out.noEmit = true;
  return out;
}

/** The lowest target TypeScript 7 accepts: an ES5 project is handed it (ADR 191). */
const RAISED_TARGET = ScriptTarget.ES2015;

/** The options TypeScript 7 is given for a project, and what was changed in them to serve it (said in the build's report). */
export interface NativeOptions {
  options: ts.CompilerOptions;
  /** How a removed target was replaced, when it was: `target ES5 (removed in TypeScript 7) raised to ES2015 (…)`. */
  adjusted?: string;
  /** Values an ES5 project iterates, which TypeScript 7 must find arrays before it serves the project. */
  iterated?: IterationSite[];
}

/**
 * The options TypeScript 7 can check a project with, or why it cannot (ADR 191). A removed option
 * declines the project, except a removed target where the target cannot change an answer: ES3,
 * which TypeScript 6 reads as its default target, is handed over as that target; ES5 is handed
 * over as ES2015 with the library set, module kind and class-field semantics the ES5 target
 * implied made explicit, unless a file iterates where the two targets type iteration differently,
 * has an empty array pattern, or spells an identifier only one of them scans as one.
 */
export function nativeOptions(check: ProjectCheck): NativeOptions | { declined: string } {
  const o = check.project.options;
  const removed = removedOptions(o);
  const targetOnly = removed.length === 1 && removed[0].startsWith('target: ');
  if (removed.length > 0 && !targetOnly) return { declined: `TypeScript 7 removed ${removed.join(', ')}` };
  if (!targetOnly) return { options: o };
  const from = ts.ScriptTarget[o.target as ts.ScriptTarget];
  const sensitive = o.target === ScriptTarget.ES5 ? targetSensitive(check, o) : [];
  if (typeof sensitive === 'string') return { declined: `TypeScript 7 removed target: ES5, and ${sensitive}` };
  const target = o.target === ScriptTarget.ES5 ? RAISED_TARGET : getEmitScriptTarget(o);
  const options: ts.CompilerOptions = { ...o, target };
  if (o.module === undefined) options.module = getEmitModuleKind(o);
  if (o.useDefineForClassFields === undefined) options.useDefineForClassFields = getUseDefineForClassFields(o);
  if (o.lib === undefined && !o.noLib) options.lib = defaultLibs(o);
  const lib = options.lib ? `, lib ${options.lib.map(libName).join(', ')}` : '';
  const module = String(optionsAsJson({ module: options.module }).module);
  const adjusted = `target ${from} (removed in TypeScript 7) raised to ${targetName(target)} (module ${module}${lib})`;
  return sensitive.length > 0 ? { options, adjusted, iterated: sensitive } : { options, adjusted };
}

/** `ES2015`, `ES2025`: the enum's own name, not an alias such as `LatestStandard`. */
const targetName = (t: ts.ScriptTarget): string =>
  Object.entries(ScriptTarget).find(([k, v]) => v === t && k.startsWith('ES'))?.[0] ?? String(t);

const libName = (file: string): string => file.replace(/^lib\./, '').replace(/\.d\.ts$/, '');

/** The libraries TypeScript 6's default library for the options references: `lib.d.ts` for ES5 is es5, dom, webworker.importscripts, scripthost. */
function defaultLibs(o: ts.CompilerOptions): string[] {
  const text = fs.readFileSync(`${DEFAULT_LIB_DIRECTORY}/${getDefaultLibFileName(o)}`, 'utf8');
  return [...text.matchAll(/^\/\/\/\s*<reference\s+lib="([^"]+)"/gm)].map((m) => libFile(m[1]));
}

const libFile = (name: string): string => libMap.get(name.toLowerCase()) ?? `lib.${name}.d.ts`;

/** Whether the libraries (file names) declare `Iterable`, following their references: then ES5 and ES2015 iterate differently. */
function declaresIterable(libs: readonly string[]): boolean {
  const seen = new Set<string>();
  const queue = [...libs];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (file === 'lib.es2015.iterable.d.ts') return true;
    let text: string;
    try {
      text = fs.readFileSync(`${DEFAULT_LIB_DIRECTORY}/${file}`, 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(/^\/\/\/\s*<reference\s+lib="([^"]+)"/gm)) queue.push(libFile(m[1]));
  }
  return false;
}

/**
 * A value an ES5 project iterates, which ES5 and ES2015 type alike only when it is an array, a
 * string or `any`: TypeScript 7 is asked what it is before the project is served (ADR 191).
 */
export interface IterationSite {
  /** Absolute path of the file. */
  file: string;
  /** Where the value's name starts (an identifier, or a property access's name). */
  position: number;
  /** `src/a.ts:3 (a for-of)`, for the note. */
  where: string;
}

/**
 * Where an ES5 project's files could be answered differently at ES2015 (TypeScript 6.0's checker,
 * every use of its `languageVersion`, ADR 191): the reason, or the iterated values TypeScript 7
 * must find arrays. With a library that declares `Iterable` and no `downlevelIteration`, ES5 types
 * a for-of, spread, array destructuring or `yield*` over a non-array as nothing, ES2015 by its
 * iterator; an array pattern with no element before its rest is `any[]` at ES5 and
 * `Iterable<any>` at ES2015; and the two targets scan identifiers with different Unicode tables
 * (and ES5 has no `\u{…}` escapes).
 */
function targetSensitive(check: ProjectCheck, o: ts.CompilerOptions): string | IterationSite[] {
  const libs = o.noLib ? [] : (o.lib ?? defaultLibs(o));
  const iterates = !o.downlevelIteration && declaresIterable(libs);
  const sites: IterationSite[] = [];
  for (const file of check.roots) {
    const sf = check.sourceFile(file);
    if (!sf) continue;
    const rel = path.relative(check.root, file);
    if (scansDifferently(sf)) return `${rel} has an identifier ES5 and ES2015 scan differently`;
    const found = iterationIn(sf, iterates, file, rel, sites);
    if (found) return `${rel} has ${found}, which ES5 and ES2015 type differently`;
  }
  return sites;
}

/**
 * The first construct in the file whose type the target decides and TypeScript 7 cannot be asked
 * about, named; the values it can be asked about go to `sites`.
 */
function iterationIn(sf: ts.SourceFile, iterates: boolean, file: string, rel: string, sites: IterationSite[]): string | undefined {
  let found: string | undefined;
  const value = (e: ts.Expression, what: string): void => {
    while (isParenthesizedExpression(e)) e = e.expression;
    // An array literal is an array and a string literal a string: nothing to ask.
    if (isArrayLiteralExpression(e) || isStringLiteralLike(e) || e.kind === SyntaxKind.TemplateExpression) return;
    const at = isIdentifier(e) ? e : isPropertyAccessExpression(e) && isIdentifier(e.name) ? e.name : undefined;
    if (!at) {
      found = what;
      return;
    }
    const position = at.getStart(sf);
    sites.push({ file, position, where: `${rel}:${sf.getLineAndCharacterOfPosition(position).line + 1} (${what})` });
  };
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (
      isArrayBindingPattern(n) &&
      (n.elements.length === 0 || (n.elements.length === 1 && !!(n.elements[0] as ts.BindingElement).dotDotDotToken))
    )
      found = 'an array pattern with no element before its rest';
    else if (iterates) {
      if (isForOfStatement(n)) value(n.expression, 'a for-of');
      else if (isSpreadElement(n)) value(n.expression, 'a spread');
      else if (isArrayBindingPattern(n)) {
        if (isVariableDeclaration(n.parent) && n.parent.name === n && n.parent.initializer)
          value(n.parent.initializer, 'an array destructuring');
        else found = 'an array destructuring';
      } else if (isYieldExpression(n) && n.asteriskToken) found = 'a yield*';
      else if (isArrayLiteralExpression(n) && isAssignmentTarget(n)) {
        const p = n.parent;
        if (isBinaryExpression(p) && p.left === n && p.operatorToken.kind === SyntaxKind.EqualsToken)
          value(p.right, 'an array destructuring');
        else found = 'an array destructuring';
      }
    }
    if (!found) forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** What TypeScript 7 can say of a value's type (a project's checker, either release). */
export interface IterationQuestions {
  getTypeAtPosition(file: string, positions: readonly number[]): ({ flags: number } | undefined)[];
  isArrayLikeType(type: never): boolean;
}

/**
 * The first iterated value TypeScript 7 does not find an array, a string or `any` (ES2015 would
 * type its iteration by its iterator, ES5 as nothing), or undefined when all are (ADR 191).
 */
export function notAnArray(
  checker: IterationQuestions,
  flags: { Any: number; StringLike: number },
  sites: readonly IterationSite[],
): string | undefined {
  const byFile = new Map<string, IterationSite[]>();
  for (const site of sites) byFile.set(site.file, [...(byFile.get(site.file) ?? []), site]);
  for (const [file, at] of byFile) {
    const types = checker.getTypeAtPosition(
      file,
      at.map((s) => s.position),
    );
    for (let i = 0; i < at.length; i++) {
      const t = types[i];
      if (t && (t.flags & (flags.Any | flags.StringLike)) !== 0) continue;
      if (!t || !checker.isArrayLikeType(t as never)) return `${at[i].where} iterates a value that is not an array`;
    }
  }
  return undefined;
}

/** Whether ES5's and ES2015's scanners split the file's text differently: only where it has a non-ASCII character or a `\u` escape. */
function scansDifferently(sf: ts.SourceFile): boolean {
  const text = sf.text;
  if (!/[^\t-\x7f]|\\u/.test(text)) return false;
  const variant = sf.languageVariant ?? LanguageVariant.Standard;
  const es5 = createScanner(ScriptTarget.ES5, false, variant, text);
  const es2015 = createScanner(ScriptTarget.ES2015, false, variant, text);
  for (;;) {
    const a = es5.scan();
    const b = es2015.scan();
    if (a !== b || es5.getTokenEnd() !== es2015.getTokenEnd()) return true;
    if (a === SyntaxKind.EndOfFileToken) return false;
  }
}
