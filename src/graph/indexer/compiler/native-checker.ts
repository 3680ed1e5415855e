// TypeScript 7's native checker behind the seam (checker.ts, ADR 8): the only file that imports
// `typescript7` (lint-enforced). The Go checker runs in a child process reached through 7.0's
// `typescript/unstable/sync` API (ADR 113); each project is opened from a tsconfig this module
// serves itself through the API's virtual file system, holding exactly the options and root files
// the JavaScript backend's program would use, and every file's questions go over the pipe in one
// batch (`getSymbolAtPosition` with all positions, then one batch per follow-up kind). What it
// cannot serve — an option TypeScript 7 removed, a missing platform binary, a crash or a protocol
// error — it declines, and the JavaScript backend serves that project (ADR 114).

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { API, SymbolFlags, TypeFlags } from 'typescript7/unstable/sync';
import type { Checker, NodeHandle, Project as NativeProject, Snapshot, Symbol as NativeSymbol } from 'typescript7/unstable/sync';
import { SyntaxKind as NativeKind } from 'typescript7/unstable/ast';
import type { Node as NativeNode, SourceFile as NativeSourceFile } from 'typescript7/unstable/ast';
import {
  isCallableDeclaration,
  nodeAt,
  type CheckerBackend,
  type CheckerFileSystem,
  type CheckerProvider,
  type DeclarationRef,
  type ProjectCheck,
  type SymbolAnswer,
  type SymbolQuery,
} from './checker';
import { declarationNameStart } from './extract';
import { DEFAULT_LIB_DIRECTORY } from './program';

/** The platform package that carries the Go binary, as npm installs it beside `typescript7`. */
const PLATFORM_PACKAGE = `@typescript/typescript-${process.platform}-${process.arch}`;

/**
 * The native binary and its version, or why there is none (the build then uses the JavaScript
 * backend): beside the bundle in a platform-specific .vsix (dist/native/, esbuild.mjs --native),
 * else the platform package npm installed.
 */
export function nativeBinary(): { exe: string; version: string } | { missing: string } {
  let pkgJson = path.join(__dirname, 'native', PLATFORM_PACKAGE.slice('@typescript/'.length), 'package.json');
  if (!fs.existsSync(pkgJson)) {
    try {
      pkgJson = require.resolve(`${PLATFORM_PACKAGE}/package.json`);
    } catch {
      return {
        missing: `TypeScript 7's binary for ${process.platform}-${process.arch} (${PLATFORM_PACKAGE}) is not installed (a universal package has only the JavaScript checker)`,
      };
    }
  }
  const exe = path.join(path.dirname(pkgJson), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
  if (!fs.existsSync(exe)) return { missing: `${PLATFORM_PACKAGE} has no binary at ${exe}` };
  const version = (JSON.parse(fs.readFileSync(pkgJson, 'utf8')) as { version: string }).version;
  return { exe, version };
}

/** TypeScript 7's default library folder, beside its binary, with forward slashes and a final slash. */
const nativeLibDirectory = (exe: string): string => `${path.dirname(exe).split(path.sep).join('/')}/`;

/**
 * Options TypeScript 6 deprecated and TypeScript 7 removed (TypeScript 6's `checkDeprecations("6.0")`
 * list, the same one semantics.ts silences): a project that has one is not the project TypeScript 7
 * would check, so it is declined. `esModuleInterop` / `allowSyntheticDefaultImports: false` are
 * declined only where they can change an answer (interopSensitive, ADR 114).
 */
export function removedOptions(o: ts.CompilerOptions): string[] {
  const found: string[] = [];
  if (o.target === ts.ScriptTarget.ES3 || o.target === ts.ScriptTarget.ES5) found.push(`target: ${ts.ScriptTarget[o.target]}`);
  if (o.moduleResolution === ts.ModuleResolutionKind.Node10) found.push('moduleResolution: node10');
  if (o.moduleResolution === ts.ModuleResolutionKind.Classic) found.push('moduleResolution: classic');
  if (
    o.module === ts.ModuleKind.None ||
    o.module === ts.ModuleKind.AMD ||
    o.module === ts.ModuleKind.UMD ||
    o.module === ts.ModuleKind.System
  )
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
      v = !!sf && ts.isExternalModule(sf) && !sf.statements.some((s) => ts.isExportAssignment(s) && s.isExportEquals);
      esModule.set(abs, v);
    }
    return v;
  };
  for (const file of check.roots) {
    const sf = check.sourceFile(file);
    if (!sf) continue;
    const rel = path.relative(check.root, file);
    if (/\.[cm]?jsx?$/.test(file) && !ts.isExternalModule(sf)) return `${rel} is not an ES module`;
    for (const s of sf.statements) {
      let specifier: string | undefined;
      if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.importClause && !s.importClause.isTypeOnly) {
        const c = s.importClause;
        if (c.name || (c.namedBindings && ts.isNamespaceImport(c.namedBindings))) specifier = s.moduleSpecifier.text;
      } else if (
        ts.isExportDeclaration(s) &&
        s.moduleSpecifier &&
        ts.isStringLiteral(s.moduleSpecifier) &&
        s.exportClause &&
        ts.isNamespaceExport(s.exportClause)
      ) {
        specifier = s.moduleSpecifier.text;
      } else if (ts.isImportEqualsDeclaration(s) && ts.isExternalModuleReference(s.moduleReference)) {
        const e = s.moduleReference.expression;
        if (ts.isStringLiteral(e)) specifier = e.text;
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

const kindOf6 = (kind: NativeKind): ts.SyntaxKind | undefined =>
  (ts.SyntaxKind as unknown as Record<string, ts.SyntaxKind>)[NativeKind[kind]];

/** The TypeScript 6 node of the builder's parse with this span and kind (the same text parses to the same spans). */
function sameNode(sf: ts.SourceFile, pos: number, end: number, kind: ts.SyntaxKind | undefined): ts.Node | undefined {
  let current: ts.Node = sf;
  for (;;) {
    if (current.pos === pos && current.end === end && current.kind === kind) return current;
    let next: ts.Node | undefined;
    ts.forEachChild(current, (child) => {
      if (next === undefined && child.pos <= pos && end <= child.end) next = child;
    });
    if (!next) return undefined;
    current = next;
  }
}

/** The TypeScript 7 node with this span and kind. */
function sameNativeNode(sf: NativeSourceFile, pos: number, end: number, kind: NativeKind): NativeNode | undefined {
  let current: NativeNode = sf;
  for (;;) {
    if (current.pos === pos && current.end === end && current.kind === kind) return current;
    let next: NativeNode | undefined;
    current.forEachChild((child) => {
      if (next === undefined && child.pos <= pos && end <= child.end) next = child;
      return undefined;
    });
    if (!next) return undefined;
    current = next;
  }
}

const nativeKindOf = (kind: ts.SyntaxKind): NativeKind => (NativeKind as unknown as Record<string, NativeKind>)[ts.SyntaxKind[kind]];

/** One opened project: answers a file's questions in batches. */
class NativeProjectBackend implements CheckerBackend {
  private readonly checker: Checker;
  private readonly aliased = new Map<number, NativeSymbol>();
  private readonly refs = new Map<string, DeclarationRef>();

  constructor(
    private readonly project: NativeProject,
    private readonly check: ProjectCheck,
    readonly configFile: string,
    /** TypeScript 7's default library folder (beside its binary), ending in a slash. */
    private readonly libDir: string,
  ) {
    this.checker = project.checker;
  }

  declarationsAt(file: string, queries: readonly SymbolQuery[]): SymbolAnswer[] {
    const sf = this.check.sourceFile(file);
    const answers: SymbolAnswer[] = queries.map(() => ({ kind: 'none', reason: 'no-declaration' }));
    if (!sf || queries.length === 0) return answers;
    const nodes = queries.map((q) => (q.hint as ts.Node | undefined) ?? nodeAt(sf, q.position));
    const named: number[] = [];
    const thisAt: number[] = [];
    nodes.forEach((n, i) => {
      if (!n) return;
      if (n.kind === ts.SyntaxKind.ThisKeyword) thisAt.push(i);
      else named.push(i);
    });
    const symbols = new Map<number, NativeSymbol>();
    if (named.length > 0) {
      const found = this.checker.getSymbolAtPosition(
        file,
        named.map((i) => queries[i].position),
      );
      named.forEach((i, k) => {
        const s = found[k];
        if (s) symbols.set(i, s);
      });
    }
    if (thisAt.length > 0) this.classesOfThis(file, thisAt, queries, symbols);
    // No symbol: a property access on an `any` (or untyped) receiver says so.
    const receivers: { i: number; node: ts.Node }[] = [];
    for (const i of named) {
      if (symbols.has(i)) continue;
      const receiver = receiverOf(nodes[i] as ts.Node);
      if (receiver) receivers.push({ i, node: receiver });
    }
    const anyReceiver = this.anyReceivers(file, receivers);
    nodes.forEach((n, i) => {
      if (!n) return;
      const symbol = symbols.get(i);
      if (!symbol) {
        answers[i] = { kind: 'none', reason: anyReceiver.has(i) ? 'any-receiver' : 'no-declaration' };
        return;
      }
      const declarations = this.declarationsOf(symbol);
      answers[i] = declarations.length === 0 ? { kind: 'none', reason: 'no-declaration' } : { kind: 'declarations', declarations };
    });
    return answers;
  }

  /** The class `this` denotes where its type is the class's static side (as TsCheckerBackend.classOfThis). */
  private classesOfThis(file: string, at: number[], queries: readonly SymbolQuery[], into: Map<number, NativeSymbol>): void {
    const types = this.checker.getTypeAtPosition(
      file,
      at.map((i) => queries[i].position),
    );
    const candidates: { i: number; symbol: NativeSymbol; typeId: number }[] = [];
    at.forEach((i, k) => {
      const type = types[k];
      const symbol = type?.getSymbol();
      if (type && symbol && symbol.flags & SymbolFlags.Class) candidates.push({ i, symbol, typeId: type.id });
    });
    if (candidates.length === 0) return;
    const statics = this.checker.getTypeOfSymbol(candidates.map((c) => c.symbol));
    candidates.forEach((c, k) => {
      if (statics[k]?.id === c.typeId) into.set(c.i, c.symbol);
    });
  }

  private anyReceivers(file: string, receivers: { i: number; node: ts.Node }[]): Set<number> {
    const out = new Set<number>();
    if (receivers.length === 0) return out;
    const nsf = this.project.program.getSourceFile(file);
    if (!nsf) return out;
    const located: { i: number; node: NativeNode }[] = [];
    for (const r of receivers) {
      const n = sameNativeNode(nsf, r.node.pos, r.node.end, nativeKindOf(r.node.kind));
      if (n) located.push({ i: r.i, node: n });
    }
    if (located.length === 0) return out;
    const types = this.checker.getTypeAtLocation(located.map((l) => l.node));
    located.forEach((l, k) => {
      const t = types[k];
      if (t && (t.flags & (TypeFlags.Any | TypeFlags.Unknown)) !== 0) out.add(l.i);
    });
    return out;
  }

  private declarationsOf(symbol: NativeSymbol): DeclarationRef[] {
    let s = symbol;
    // Follow import/export aliases and re-export chains to the real declaration.
    if (s.flags & SymbolFlags.Alias) s = this.aliasOf(s);
    let handles: readonly NodeHandle[] = s.declarations;
    // `{ add }` in an object literal names the value `add`: follow it, as references do.
    if (handles.length > 0 && handles.every((h) => h.kind === NativeKind.ShorthandPropertyAssignment)) {
      const values: NodeHandle[] = [];
      for (const h of handles) {
        const node = h.resolve(this.project);
        const v = node && this.checker.getShorthandAssignmentValueSymbol(node);
        if (v) values.push(...(v.flags & SymbolFlags.Alias ? this.aliasOf(v) : v).declarations);
      }
      handles = values;
    }
    return handles.map((h) => this.refOf(h));
  }

  private aliasOf(s: NativeSymbol): NativeSymbol {
    let a = this.aliased.get(s.id);
    if (!a) {
      a = this.checker.getAliasedSymbol(s);
      this.aliased.set(s.id, a);
    }
    return a;
  }

  /** A declaration as the seam says it: the builder's parse of the file decides the name's start. */
  private refOf(h: NodeHandle): DeclarationRef {
    const key = `${h.path}\u0000${h.index}`;
    let ref = this.refs.get(key);
    if (ref) return ref;
    const file = h.path as string;
    if (file.startsWith(this.libDir)) {
      // TypeScript 7's own default library: reported where the JavaScript backend reports its
      // declarations, in the bundled compiler's default library, which holds no graph node and
      // belongs to no package (ADR 107). Neither its syntax tree nor a TypeScript 6 parse of it is
      // needed, and lib.dom.d.ts alone is megabytes of both (ADR 130).
      ref = { file: `${DEFAULT_LIB_DIRECTORY}/${file.slice(this.libDir.length)}`, nameStart: -1, callable: false };
      this.refs.set(key, ref);
      return ref;
    }
    const sf = this.check.sourceFile(file);
    ref = { file, nameStart: -1, callable: false };
    if (sf) {
      const node = h.resolve(this.project);
      const decl = node && sameNode(sf, node.pos, node.end, kindOf6(h.kind));
      if (decl)
        ref = {
          file,
          nameStart: declarationNameStart(decl as ts.Declaration, sf),
          callable: isCallableDeclaration(decl as ts.Declaration),
        };
    }
    this.refs.set(key, ref);
    return ref;
  }
}

function receiverOf(node: ts.Node): ts.Expression | undefined {
  const parent = node.parent;
  if (parent && ts.isPropertyAccessExpression(parent) && parent.name === node) return parent.expression;
  if (parent && ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return parent.expression;
  return undefined;
}

/**
 * The native checker for one build, or for a session's life (`keep`: the process and its
 * snapshot stay between builds and a rebuild sends only the files whose text changed).
 */
export class NativeChecker implements CheckerProvider {
  readonly name = 'native';
  private api: API | undefined;
  private snapshot: Snapshot | undefined;
  private fs: CheckerFileSystem | undefined;
  /** Virtual configs by path: what this module serves in place of a tsconfig. */
  private readonly configs = new Map<string, string>();
  /** What TypeScript 7 was given of each file it read through us, to tell it what changed. */
  private readonly served = new Map<string, string | null>();
  private readonly open_ = new Set<string>();
  private failed: string | undefined;

  constructor(private readonly opts: { keep?: boolean } = {}) {}

  /** TypeScript 7's version, or undefined when its binary is missing. */
  get version(): string | undefined {
    const b = nativeBinary();
    return 'version' in b ? b.version : undefined;
  }

  open(check: ProjectCheck): CheckerBackend | { declined: string } {
    if (this.failed) return { declined: this.failed };
    const removed = removedOptions(check.project.options);
    if (removed.length > 0) return { declined: `TypeScript 7 removed ${removed.join(', ')}` };
    const o = check.project.options;
    if (o.esModuleInterop === false || o.allowSyntheticDefaultImports === false) {
      const why = interopSensitive(check);
      if (why)
        return {
          declined: `TypeScript 7 removed ${o.esModuleInterop === false ? 'esModuleInterop' : 'allowSyntheticDefaultImports'}: false, and ${why}`,
        };
    }
    const binary = nativeBinary();
    if ('missing' in binary) return { declined: binary.missing };
    const configDir = check.project.configPath ? path.posix.dirname(`${check.root}/${check.project.configPath}`) : check.root;
    const configFile = `${configDir}/tsconfig.kg-native.json`;
    const text = JSON.stringify({ compilerOptions: optionsAsJson(o), files: [...check.roots] });
    const changedConfig = this.configs.has(configFile) && this.configs.get(configFile) !== text;
    this.configs.set(configFile, text);
    this.fs = check.host;
    try {
      const api = this.start(binary.exe, check.root);
      const changed = this.opts.keep ? this.changedFiles(check.host) : [];
      if (changedConfig) changed.push(configFile);
      this.snapshot?.dispose();
      this.snapshot = api.updateSnapshot({
        openProjects: this.open_.has(configFile) ? [] : [configFile],
        ...(changed.length > 0 ? { fileChanges: { changed } } : {}),
      });
      this.open_.add(configFile);
      // The client keeps the syntax trees it fetched by path, across snapshots: a changed file's must go.
      if (changed.length > 0) api.clearSourceFileCache();
      const project = this.snapshot.getProject(configFile);
      if (!project) throw new Error(`TypeScript 7 did not open ${configFile}`);
      const problems = project.program.getConfigFileParsingDiagnostics();
      if (problems.length > 0)
        return { declined: `TypeScript 7 rejects the project's options (${String(problems[0].text).split('\n', 1)[0]})` };
      return new NativeProjectBackend(project, check, configFile, nativeLibDirectory(binary.exe));
    } catch (e) {
      this.stop(e);
      return { declined: `the native checker could not open the project (${firstLine(e)})` };
    }
  }

  release(backend: CheckerBackend): void {
    if (this.opts.keep || !(backend instanceof NativeProjectBackend) || !this.api) return;
    // One project at a time, as the JavaScript backend holds one program at a time.
    try {
      this.snapshot?.dispose();
      this.snapshot = this.api.updateSnapshot({ closeProjects: [backend.configFile] });
      this.open_.delete(backend.configFile);
    } catch (e) {
      this.stop(e);
    }
  }

  /** Ends the child process. */
  close(): void {
    this.snapshot = undefined;
    try {
      this.api?.close();
    } catch {
      // already gone
    }
    this.api = undefined;
    this.open_.clear();
    this.served.clear();
  }

  private start(exe: string, root: string): API {
    if (this.api) return this.api;
    const via = () => this.fs as CheckerFileSystem;
    // TypeScript 7's own default library (beside its binary) it reads itself: those files are its
    // own, never the repository's, and lib.dom.d.ts alone is 2.4 MB through the pipe (ADR 130).
    // `undefined` tells it to read the real file system.
    const lib = nativeLibDirectory(exe);
    const own = (f: string) => f.startsWith(lib);
    this.api = withGoCollector(
      () =>
        new API({
          tsserverPath: exe,
          cwd: root,
          fs: {
            readFile: (f) => {
              if (own(f)) return undefined;
              const v = this.configs.get(f) ?? via().readFile(f) ?? null;
              this.served.set(f, v);
              return v;
            },
            fileExists: (f) => (own(f) ? undefined : this.configs.has(f) || via().fileExists(f)),
            directoryExists: (d) => (own(d + '/') ? undefined : via().directoryExists(d)),
            realpath: (f) => (own(f) ? undefined : this.configs.has(f) ? f : via().realpath(f)),
            getAccessibleEntries: (d) => (own(d + '/') ? undefined : via().entries(d)),
          },
        }),
    );
    return this.api;
  }

  /** Files TypeScript 7 read whose text is not what it read (a session's rebuild). */
  private changedFiles(fsys: CheckerFileSystem): string[] {
    const changed: string[] = [];
    for (const [f, before] of this.served) {
      if (this.configs.has(f)) continue;
      const now = fsys.readFile(f) ?? null;
      if (now !== before) changed.push(f);
    }
    return changed;
  }

  /** After a crash or a protocol error: no more native answers in this build; the process goes. */
  private stop(e: unknown): void {
    this.failed = `the native checker failed earlier in this build (${firstLine(e)})`;
    this.close();
  }
}

/**
 * The Go runtime's collector target for TypeScript 7's process (ADR 130): a collection when the
 * heap has grown by half since the last one, not by all of it (Go's default of 100). Measured on
 * zod, the process's peak went from about 245 MB to about 200 MB for about 5% more of its CPU
 * time; 25 saved 30 MB more for 40% more. A GOGC or GOMEMLIMIT the user set is theirs.
 */
const NATIVE_GOGC = '50';

/** Runs `start` (which spawns the process: the API passes this process's environment on) with GOGC set. */
function withGoCollector<T>(start: () => T): T {
  if (process.env.GOGC !== undefined || process.env.GOMEMLIMIT !== undefined) return start();
  process.env.GOGC = NATIVE_GOGC;
  try {
    return start();
  } finally {
    delete process.env.GOGC;
  }
}

function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n', 1)[0].slice(0, 300);
}
