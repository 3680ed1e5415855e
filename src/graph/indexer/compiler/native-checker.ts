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
import type {
  Checker,
  NodeHandle,
  Project as NativeProject,
  Snapshot,
  Symbol as NativeSymbol,
  Type as NativeType,
  UnionType as NativeUnionType,
} from 'typescript7/unstable/sync';
import { SyntaxKind as NativeKind } from 'typescript7/unstable/ast';
import { version as PINNED_VERSION } from 'typescript7';
import { componentKind } from '../components/kinds';
import type { Expression as NativeExpression, Node as NativeNode, SourceFile as NativeSourceFile } from 'typescript7/unstable/ast';
import {
  DESTRUCTURING_HOPS,
  destructuredProperty,
  isPatternKey,
  distinctDeclarations,
  isCallableDeclaration,
  nodeAt,
  objectLiteralKey,
  unionProperty,
  type CheckerBackend,
  type CheckerFileSystem,
  type CheckerProvider,
  type DeclarationRef,
  type ProjectCheck,
  type SymbolAnswer,
  type SymbolQuery,
} from './checker';
import { declarationNameStart } from './extract';
import { nativeDeadlines, NativeWatchdog, processEnd, type NativeDeadlines } from './native-process';
import { DEFAULT_LIB_DIRECTORY } from './program';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  ModuleKind,
  ModuleResolutionKind,
  ScriptTarget,
  forEachChild,
  isElementAccessExpression,
  isExportAssignment,
  isExportDeclaration,
  isExternalModule,
  isExternalModuleReference,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isNamespaceExport,
  isNamespaceImport,
  isPropertyAccessExpression,
  isStringLiteral,
} = ts;

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
      // A universal .vsix has only the JavaScript checker; beside a kg installed with npm (ADR 158)
      // the platform package, installed the same way, is found by the resolve above.
      return {
        missing: `TypeScript 7's binary for ${process.platform}-${process.arch} (${PLATFORM_PACKAGE}) is not installed (a universal package has only the JavaScript checker; beside a kg installed with npm: npm install -g ${PLATFORM_PACKAGE}@${PINNED_VERSION})`,
      };
    }
  }
  const exe = path.join(path.dirname(pkgJson), 'lib', process.platform === 'win32' ? 'tsc.exe' : 'tsc');
  if (!fs.existsSync(exe)) return { missing: `${PLATFORM_PACKAGE} has no binary at ${exe}` };
  // Spawning a file that is not executable fails after the build has gone on (issue 55): said here instead.
  if (process.platform !== 'win32')
    try {
      fs.accessSync(exe, fs.constants.X_OK);
    } catch {
      return { missing: `TypeScript 7's binary ${exe} is not executable` };
    }
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

const kindOf6 = (kind: NativeKind): ts.SyntaxKind | undefined =>
  (ts.SyntaxKind as unknown as Record<string, ts.SyntaxKind>)[NativeKind[kind]];

/** The TypeScript 6 node of the builder's parse with this span and kind (the same text parses to the same spans). */
function sameNode(sf: ts.SourceFile, pos: number, end: number, kind: ts.SyntaxKind | undefined): ts.Node | undefined {
  let current: ts.Node = sf;
  for (;;) {
    if (current.pos === pos && current.end === end && current.kind === kind) return current;
    let next: ts.Node | undefined;
    forEachChild(current, (child) => {
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

  constructor(
    private readonly project: NativeProject,
    private readonly check: ProjectCheck,
    readonly configFile: string,
    /** TypeScript 7's default library folder (beside its binary), ending in a slash. */
    private readonly libDir: string,
    /** The process's channel for questions sent before they are asked (ADR 136), when it has one. */
    private readonly early: EarlyQuestions | undefined,
    /** Declarations placed so far, by declaring file: a session's checker keeps them between builds (ADR 138). */
    private readonly placed: Map<string, Placed>,
  ) {
    this.checker = project.checker;
  }

  /** The builder's nodes of the queries, and which of them name something (the rest are `this`). */
  private sorted(sf: ts.SourceFile, queries: readonly SymbolQuery[]) {
    const nodes = queries.map((q) => (q.hint as ts.Node | undefined) ?? nodeAt(sf, q.position));
    const named: number[] = [];
    const thisAt: number[] = [];
    nodes.forEach((n, i) => {
      if (!n) return;
      if (n.kind === ts.SyntaxKind.ThisKeyword) thisAt.push(i);
      else named.push(i);
    });
    return { nodes, named, thisAt };
  }

  /** Sends the file's symbol questions now; TypeScript 7 answers them while the builder goes on (ADR 136). */
  prefetch(file: string, queries: readonly SymbolQuery[]): void {
    const sf = this.check.sourceFile(file);
    if (!this.early || !sf || queries.length === 0) return;
    const { named } = this.sorted(sf, queries);
    if (named.length === 0) return;
    const positions = named.map((i) => queries[i].position);
    this.early.send(this.project, file, positions, () => this.checker.getSymbolAtPosition(file, positions));
  }

  declarationsAt(file: string, queries: readonly SymbolQuery[]): SymbolAnswer[] {
    const sf = this.check.sourceFile(file);
    const answers: SymbolAnswer[] = queries.map(() => ({ kind: 'none', reason: 'no-declaration' }));
    if (!sf || queries.length === 0) return answers;
    const { nodes, named, thisAt } = this.sorted(sf, queries);
    const symbols = new Map<number, NativeSymbol>();
    if (named.length > 0) {
      const positions = named.map((i) => queries[i].position);
      // The answer sent ahead, if this file's questions went early (ADR 136).
      const found =
        (this.early?.take(this.project, file, positions) as (NativeSymbol | undefined)[] | undefined) ??
        this.checker.getSymbolAtPosition(file, positions);
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
      answers[i] = this.answerOf(symbol, isPatternKey(n));
    });
    this.contextualKeys(file, nodes, answers);
    return answers;
  }

  /**
   * An object literal's keys: the property the literal's contextual type declares under the key,
   * each member of a union asked apart; a shorthand names its value as well (as
   * TsCheckerBackend.answer, ADR 155). One contextual type per literal.
   */
  private contextualKeys(file: string, nodes: readonly (ts.Node | undefined)[], answers: SymbolAnswer[]): void {
    let nsf: NativeSourceFile | undefined;
    const typeOf = new Map<ts.Node, NativeType | undefined>();
    nodes.forEach((n, i) => {
      const key = n && objectLiteralKey(n);
      if (!key) return;
      nsf ??= this.project.program.getSourceFile(file);
      if (!nsf) {
        if (!key.shorthand) answers[i] = { kind: 'none', reason: 'no-declaration' };
        return;
      }
      let type = typeOf.get(key.literal);
      if (!typeOf.has(key.literal)) {
        const literal = sameNativeNode(nsf, key.literal.pos, key.literal.end, NativeKind.ObjectLiteralExpression);
        type = literal ? this.checker.getContextualType(literal as NativeExpression) : undefined;
        typeOf.set(key.literal, type);
      }
      // A key written in full is the literal's own property: only its contextual type's is an answer.
      if (!key.shorthand) answers[i] = { kind: 'none', reason: 'no-declaration' };
      if (!type || type.flags & (TypeFlags.Any | TypeFlags.Unknown)) return;
      const members = type.flags & TypeFlags.Union ? (type as NativeUnionType).getTypes() : [type];
      const refs = unionProperty(
        members.map((t) => (this.checker.getPropertyOfType(t, key.name)?.declarations ?? []).map((h) => this.refOf(h))),
        (a, b) => a.file === b.file && a.nameStart === b.nameStart,
      );
      if (refs.length === 0) return;
      const was = answers[i];
      answers[i] = {
        kind: 'declarations',
        declarations: distinctDeclarations(key.shorthand && was.kind === 'declarations' ? [...was.declarations, ...refs] : refs),
      };
    });
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

  /** The declarations a symbol denotes, followed as TsCheckerBackend.answer follows them. */
  private answerOf(symbol: NativeSymbol, readsKey = false): SymbolAnswer {
    let s = symbol;
    let handles: readonly NodeHandle[];
    for (let hops = 0; ; hops++) {
      // Follow import/export aliases and re-export chains to the real declaration.
      if (s.flags & SymbolFlags.Alias) s = this.aliasOf(s);
      handles = s.declarations;
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
      // A destructured name holds a property of the value destructured: follow it (ADR 141).
      const taken =
        handles.length === 1 && handles[0].kind === NativeKind.BindingElement
          ? this.destructured(handles[0], readsKey && hops === 0)
          : undefined;
      if (taken === undefined) break;
      if (taken === 'unprovable' || hops === DESTRUCTURING_HOPS) return { kind: 'none', reason: 'indirect' };
      const type = this.checker.getTypeAtLocation(taken.pattern);
      if (!type || type.flags & (TypeFlags.Any | TypeFlags.Unknown)) return { kind: 'none', reason: 'any-receiver' };
      const property = this.checker.getPropertyOfType(type, taken.name);
      if (!property) return { kind: 'none', reason: 'no-declaration' };
      s = property;
    }
    if (handles.length === 0) return { kind: 'none', reason: 'no-declaration' };
    return { kind: 'declarations', declarations: handles.map((h) => this.refOf(h)) };
  }

  /**
   * The rule of `destructuredProperty` (checker.ts) read on the builder's parse of the binding
   * element, and the pattern as TypeScript 7's node; undefined where the file has no parse of the
   * builder's (outside the graph: the declaration is reported as it is, as the JavaScript backend's
   * lands outside the graph too).
   */
  private destructured(h: NodeHandle, readsKey: boolean): { pattern: NativeNode; name: string } | 'unprovable' | undefined {
    const sf = this.check.sourceFile(h.path as string);
    const node = sf && h.resolve(this.project);
    const decl = node && sameNode(sf, node.pos, node.end, ts.SyntaxKind.BindingElement);
    const taken = decl && destructuredProperty(decl, readsKey);
    if (taken === undefined || taken === 'unprovable') return taken;
    const pattern = (node as NativeNode).parent;
    if (pattern.kind !== NativeKind.ObjectBindingPattern || pattern.pos !== taken.pattern.pos || pattern.end !== taken.pattern.end)
      return undefined;
    return { pattern, name: taken.name };
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
    const file = h.path as string;
    // TypeScript 7's own default library: reported where the JavaScript backend reports its
    // declarations, in the bundled compiler's default library, which holds no graph node and
    // belongs to no package (ADR 107). Neither its syntax tree nor a TypeScript 6 parse of it is
    // needed, and lib.dom.d.ts alone is megabytes of both (ADR 130).
    const lib = file.startsWith(this.libDir);
    const sf = lib ? undefined : this.check.sourceFile(file);
    let placed = this.placed.get(file);
    // A file parsed again (its text changed) has other nodes on both sides: place them afresh.
    if (!placed || placed.sf !== sf) {
      placed = { sf, at: new Map() };
      this.placed.set(file, placed);
    }
    let ref = placed.at.get(h.index);
    if (ref) return ref;
    ref = lib
      ? { file: `${DEFAULT_LIB_DIRECTORY}/${file.slice(this.libDir.length)}`, nameStart: -1, callable: false }
      : { file, nameStart: -1, callable: false };
    if (sf) {
      const node = h.resolve(this.project);
      const decl = node && sameNode(sf, node.pos, node.end, kindOf6(h.kind));
      if (decl) {
        ref = {
          file,
          nameStart: declarationNameStart(decl as ts.Declaration, sf),
          callable: isCallableDeclaration(decl as ts.Declaration),
        };
        // A module's file itself, as the JavaScript backend says it (ADR 185).
        if (decl.kind === ts.SyntaxKind.SourceFile) ref.module = true;
      }
    }
    placed.at.set(h.index, ref);
    return ref;
  }
}

/**
 * The declarations of one file placed in the builder's parse of it, by TypeScript 7's node index
 * (ADR 138). Valid while the builder's parse is the same tree: the same text, parsed the same way,
 * which TypeScript 7 parses to the same nodes. A file outside the graph (no parse) places every
 * declaration nowhere, whatever its text.
 */
interface Placed {
  sf: ts.SourceFile | undefined;
  at: Map<number, DeclarationRef>;
}

/** The parts of 7.0.2's synchronous channel (`SyncRpcChannel`, not exported) that sending ahead uses. */
interface RawChannel {
  getMethodBuf(method: string): Buffer;
  writeTuple(type: number, name: Buffer, payload: string): void;
  readTuple(): void;
  handleCall(name: string, payload: Buffer): void;
  _msgType: number;
  _msgName: Buffer;
  _msgPayload: Buffer;
}

/** The channel as the watchdog sees it (7.0.2's syncChannel.js): the process, and the two calls that block. */
interface WatchedChannel {
  child?: { pid?: number; on(event: 'error', listener: (e: Error) => void): unknown };
  readTuple(): void;
  writeTuple(type: number, name: Buffer, payload: string): void;
}

interface RawClient {
  channel: RawChannel;
  apiRequest(method: string, params: unknown): unknown;
  apiRequestBinary(method: string, params: unknown): unknown;
}

/** The channel's message types (7.0.2's syncChannel.js). */
const MSG = { request: 1, response: 4, error: 5, call: 6 } as const;
/**
 * How many files' questions may wait for their answer, and how many bytes of questions may wait
 * unread in TypeScript 7's input pipe. The bytes stay below the smallest pipe buffer a platform
 * gives (16 KB), so writing a question never blocks: the Go process may be blocked writing an
 * answer nobody reads yet, and a blocked write on each side would be a deadlock.
 */
const EARLY_FILES = 16;
const EARLY_BYTES = 16 * 1024;

/**
 * Questions sent to TypeScript 7 before they are asked (ADR 136). The 7.0 API is synchronous: each
 * request waits for its answer, so the Go process is idle while the builder parses and extracts,
 * and the builder idle while the Go process checks. Here a file's symbol questions are written to
 * the pipe as soon as the builder knows them, and their answer read later (when EARLY_FILES
 * files' or EARLY_BYTES of questions wait, or when asked): the Go process checks one file while the
 * builder works on the next. TypeScript 7 answers requests in the order they come, so every other request first
 * reads the answers still in the pipe. Only this module knows the channel's internals; the package
 * is pinned exactly, and without them nothing is sent early.
 */
class EarlyQuestions {
  /** Sent and not yet read, oldest first. */
  private readonly pending: { key: string; bytes: number; decode: () => unknown }[] = [];
  private pendingBytes = 0;
  /** Answers read, decoded into the API's own objects as soon as they arrive (raw, they weigh more). */
  private readonly answered = new Map<string, { value: unknown } | { error: Error }>();
  /** Once the channel failed here, every later request fails the same way (the build falls back). */
  private broken: Error | undefined;
  /** The answer an API call about to be made should return instead of asking (see `take`). */
  private preset: { method: string; data: unknown } | undefined;
  /** Files whose questions went early, for the tests and the benchmark. */
  sent = 0;

  private constructor(private readonly channel: RawChannel) {}

  /** Wraps the API's client, or undefined when its channel is not the one this was written for. */
  static over(api: API): EarlyQuestions | undefined {
    const client = (api as unknown as { client?: RawClient }).client;
    const ch = client?.channel;
    if (
      !client ||
      !ch ||
      typeof client.apiRequest !== 'function' ||
      typeof client.apiRequestBinary !== 'function' ||
      typeof ch.getMethodBuf !== 'function' ||
      typeof ch.writeTuple !== 'function' ||
      typeof ch.readTuple !== 'function' ||
      typeof ch.handleCall !== 'function'
    )
      return undefined;
    const early = new EarlyQuestions(ch);
    const request = client.apiRequest.bind(client);
    const binary = client.apiRequestBinary.bind(client);
    client.apiRequest = (method, params) => {
      const preset = early.preset;
      if (preset) {
        early.preset = undefined;
        if (preset.method === method) return preset.data;
      }
      early.drain();
      return request(method, params);
    };
    client.apiRequestBinary = (method, params) => {
      early.drain();
      return binary(method, params);
    };
    return early;
  }

  /**
   * Writes the file's symbol questions to the pipe; never throws (a failure is met when asked).
   * `decode` is the API's own call for them, which gets the answer in place of asking.
   */
  send(project: NativeProject, file: string, positions: number[], decode: () => unknown): void {
    if (this.broken) return;
    const key = keyOf(project, file, positions);
    if (this.answered.has(key) || this.pending.some((p) => p.key === key)) return;
    try {
      const payload = JSON.stringify({ snapshot: snapshotOf(project), project: project.id, file, positions });
      // The framing's few bytes besides the payload and the method's name.
      const bytes = Buffer.byteLength(payload) + SYMBOLS.length + 16;
      while (this.pending.length > 0 && (this.pending.length >= EARLY_FILES || this.pendingBytes + bytes > EARLY_BYTES)) this.readOne();
      if (this.broken) return;
      this.channel.writeTuple(MSG.request, this.channel.getMethodBuf(SYMBOLS), payload);
      this.pending.push({ key, bytes, decode });
      this.pendingBytes += bytes;
      this.sent++;
    } catch (e) {
      this.fail(e);
    }
  }

  /** The answer sent ahead for these questions, as `send`'s `decode` made it, or undefined when they were not sent. */
  take(project: NativeProject, file: string, positions: number[]): unknown {
    const key = keyOf(project, file, positions);
    if (!this.answered.has(key) && !this.pending.some((p) => p.key === key)) {
      if (this.broken) throw this.broken;
      return undefined;
    }
    while (!this.answered.has(key)) {
      if (this.broken) throw this.broken;
      this.readOne();
    }
    const answer = this.answered.get(key) as { value: unknown } | { error: Error };
    this.answered.delete(key);
    if ('error' in answer) throw answer.error;
    return answer.value;
  }

  /** Reads every answer still in the pipe (before any other request is written). */
  drain(): void {
    if (this.broken) throw this.broken;
    while (this.pending.length > 0) {
      this.readOne();
      if (this.broken) throw this.broken;
    }
  }

  /** Reads the oldest pending answer, running the file system callbacks TypeScript 7 makes meanwhile; `keep: false` drops it. */
  private readOne(keep = true): void {
    const next = this.pending[0];
    if (!next || this.broken) return;
    const ch = this.channel;
    const name = ch.getMethodBuf(SYMBOLS);
    try {
      for (;;) {
        ch.readTuple();
        if (ch._msgType === MSG.call) {
          ch.handleCall(ch._msgName.toString('utf-8'), ch._msgPayload);
          continue;
        }
        if (!name.equals(ch._msgName))
          throw new Error(`name mismatch for response: expected \`${SYMBOLS}\`, got \`${ch._msgName.toString('utf-8')}\``);
        this.pending.shift();
        this.pendingBytes -= next.bytes;
        if (!keep) return;
        const text = ch._msgPayload.toString('utf-8');
        if (ch._msgType === MSG.response) {
          this.preset = { method: SYMBOLS, data: text.length > 0 ? JSON.parse(text) : undefined };
          try {
            this.answered.set(next.key, { value: next.decode() });
          } finally {
            this.preset = undefined;
          }
        } else if (ch._msgType === MSG.error) this.answered.set(next.key, { error: new Error(text) });
        else throw new Error(`Invalid message type from child: ${ch._msgType}`);
        return;
      }
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * Forgets the answers no file took (a build that fell back part-way leaves some), before the
   * snapshot they belong to goes: those still in the pipe are read and dropped undecoded (decoding
   * needs their snapshot), and a session's next build never meets them.
   */
  forget(): void {
    while (this.pending.length > 0 && !this.broken) this.readOne(false);
    this.answered.clear();
  }

  private fail(e: unknown): void {
    this.broken ??= e instanceof Error ? e : new Error(String(e));
    this.pending.length = 0;
    this.pendingBytes = 0;
  }
}

const SYMBOLS = 'getSymbolsAtPositions';

/** The snapshot the project belongs to, the project, the file, the positions: an answer is never taken for another snapshot's. */
const keyOf = (project: NativeProject, file: string, positions: number[]): string =>
  `${snapshotOf(project)}\u0000${project.id}\u0000${file}\u0000${positions.join(',')}`;

const snapshotOf = (project: NativeProject): number => (project.checker as unknown as { snapshotId: number }).snapshotId;

function receiverOf(node: ts.Node): ts.Expression | undefined {
  const parent = node.parent;
  if (parent && isPropertyAccessExpression(parent) && parent.name === node) return parent.expression;
  if (parent && isElementAccessExpression(parent) && parent.argumentExpression === node) return parent.expression;
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
  private early: EarlyQuestions | undefined;
  /** Where each project's declarations were placed, by config (ADR 138). */
  private readonly placed = new Map<string, Map<string, Placed>>();
  private binary: ReturnType<typeof nativeBinary> | undefined;
  /** Ends the process when an answer is overdue (ADR 145). */
  private watchdog: NativeWatchdog | undefined;
  private readonly deadlines: NativeDeadlines;

  /**
   * `keep`: a session's checker (see above). `early: false` asks every question when it is asked,
   * as the API alone does (the benchmark's comparison, ADR 136).
   */
  constructor(private readonly opts: { keep?: boolean; early?: boolean; deadlines?: NativeDeadlines } = {}) {
    this.deadlines = opts.deadlines ?? nativeDeadlines();
  }

  /** How many files' questions went to TypeScript 7 before they were asked (ADR 136). */
  get sentEarly(): number {
    return this.early?.sent ?? 0;
  }

  /** TypeScript 7's version, or undefined when its binary is missing. */
  get version(): string | undefined {
    const b = nativeBinary();
    return 'version' in b ? b.version : undefined;
  }

  open(check: ProjectCheck): CheckerBackend | { declined: string } {
    if (this.failed) return { declined: this.failed };
    const removed = removedOptions(check.project.options);
    if (removed.length > 0) return { declined: `TypeScript 7 removed ${removed.join(', ')}` };
    // TypeScript 7.0 has no seam for a component's generated code (7.1's content mappers, later): ADR 169.
    const components = check.roots.filter((r) => componentKind(r) !== undefined).length;
    if (components > 0)
      return { declined: `${components} component file${components === 1 ? '' : 's'} (.vue/.svelte) need the JavaScript checker` };
    const o = check.project.options;
    if (o.esModuleInterop === false || o.allowSyntheticDefaultImports === false) {
      const why = interopSensitive(check);
      if (why)
        return {
          declined: `TypeScript 7 removed ${o.esModuleInterop === false ? 'esModuleInterop' : 'allowSyntheticDefaultImports'}: false, and ${why}`,
        };
    }
    // Looked for once per checker: a session's server does not find the binary again at every build.
    const binary = (this.binary ??= nativeBinary());
    if ('missing' in binary) return { declined: binary.missing };
    const configDir = check.project.configPath ? path.posix.dirname(`${check.root}/${check.project.configPath}`) : check.root;
    const configFile = `${configDir}/tsconfig.kg-native.json`;
    const text = JSON.stringify({ compilerOptions: optionsAsJson(o), files: [...check.roots] });
    const changedConfig = this.configs.has(configFile) && this.configs.get(configFile) !== text;
    this.configs.set(configFile, text);
    this.fs = check.host;
    try {
      const api = this.start(binary.exe, check.root);
      this.watchdog?.project(true);
      const changed = this.opts.keep ? this.changedFiles(check.host) : [];
      if (changedConfig) changed.push(configFile);
      this.early?.forget();
      this.snapshot?.dispose();
      const opening = !this.open_.has(configFile);
      this.snapshot = api.updateSnapshot({
        openProjects: opening ? [configFile] : [],
        ...(changed.length > 0 ? { fileChanges: { changed } } : {}),
      });
      this.open_.add(configFile);
      // The client keeps the syntax trees it fetched by path, across snapshots: a changed file's
      // must go, and all of them when the options they were parsed with may have changed (ADR 138).
      if (changedConfig) api.clearSourceFileCache();
      else if (changed.length > 0) forgetTrees(api, changed);
      const project = this.snapshot.getProject(configFile);
      if (!project) throw new Error(`TypeScript 7 did not open ${configFile}`);
      // The options' problems are the config's: asked when the project is opened or its config changed.
      if (opening || changedConfig) {
        const problems = project.program.getConfigFileParsingDiagnostics();
        if (problems.length > 0)
          return { declined: `TypeScript 7 rejects the project's options (${String(problems[0].text).split('\n', 1)[0]})` };
      }
      if (changedConfig || !this.placed.has(configFile)) this.placed.set(configFile, new Map());
      return new NativeProjectBackend(
        project,
        check,
        configFile,
        nativeLibDirectory(binary.exe),
        this.early,
        this.placed.get(configFile) as Map<string, Placed>,
      );
    } catch (e) {
      this.stop(e);
      return { declined: `the native checker could not open the project (${firstLine(e)})` };
    }
  }

  release(backend: CheckerBackend): void {
    this.watchdog?.project(false);
    if (this.opts.keep || !(backend instanceof NativeProjectBackend) || !this.api) return;
    // One project at a time, as the JavaScript backend holds one program at a time.
    try {
      this.early?.forget();
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
    this.watchdog?.close();
    this.watchdog = undefined;
    this.early = undefined;
    this.open_.clear();
    this.served.clear();
    this.placed.clear();
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
    this.watch(this.api);
    // Windows reaches the process by one named pipe both ways, whose buffers this was not measured on.
    if (this.opts.early !== false && process.platform !== 'win32') this.early = EarlyQuestions.over(this.api);
    return this.api;
  }

  /**
   * Puts every blocking read and write of the API's channel under the watchdog's deadlines, and
   * names how the process ended when one fails (ADR 145). A process that could not be spawned
   * (its error comes after the build went on: unheard, it would end kg) fails here.
   */
  private watch(api: API): void {
    const ch = (api as unknown as { client?: { channel?: WatchedChannel } }).client?.channel;
    const child = ch?.child;
    if (!ch || !child || typeof child.on !== 'function') return;
    let spawnError: Error | undefined;
    child.on('error', (e: Error) => (spawnError = e));
    if (child.pid === undefined) throw new Error(`${processEnd(undefined)}${spawnError ? ` (${spawnError.message})` : ''}`);
    if (typeof ch.readTuple !== 'function' || typeof ch.writeTuple !== 'function') return;
    const watchdog = new NativeWatchdog(child.pid, this.deadlines);
    this.watchdog = watchdog;
    const ended = () => processEnd(child.pid);
    const read = ch.readTuple.bind(ch);
    const write = ch.writeTuple.bind(ch);
    ch.readTuple = () => watchdog.waiting(read, ended);
    ch.writeTuple = (type, name, payload) => watchdog.waiting(() => write(type, name, payload), ended);
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
 * Drops the syntax trees the API's client fetched of files that changed. The client keeps trees by
 * path and carries them into the next snapshot unless TypeScript 7 reports the file changed, which
 * 7.0.2 does not do for changes the client itself sends, so a rebuild would read the old tree.
 * Every other tree stays (ADR 138). Without the cache this was written for, all go.
 */
function forgetTrees(api: API, changed: readonly string[]): void {
  const inner = api as unknown as { sourceFileCache?: { cache?: unknown }; toPath?: unknown };
  const cache = inner.sourceFileCache?.cache;
  const toPath = inner.toPath;
  if (!(cache instanceof Map) || typeof toPath !== 'function') {
    api.clearSourceFileCache();
    return;
  }
  for (const f of changed) {
    cache.delete(f);
    cache.delete((toPath as (f: string) => string)(f));
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
