// What the native route does with a project's options (ADR 113, ADR 114): which TypeScript 7
// removed, where interop options it cannot express could change an answer, and the options as the
// tsconfig JSON it reads. TypeScript 6's side only: no TypeScript 7 import.

import * as path from 'node:path';
import * as ts from 'typescript';
import type { ProjectCheck } from './checker';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  ModuleKind,
  ModuleResolutionKind,
  ScriptTarget,
  isExportAssignment,
  isExportDeclaration,
  isExternalModule,
  isExternalModuleReference,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isNamespaceExport,
  isNamespaceImport,
  isStringLiteral,
} = ts;

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
