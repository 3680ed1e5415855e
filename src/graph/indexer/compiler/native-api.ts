// TypeScript 7's two releases behind the checker seam: the only file that imports `typescript7`
// (7.0.2, `typescript7/unstable/sync`) or `typescript71` (7.1, `typescript71/sync`), lint-enforced
// (ADR 113, ADR 186). The rest of the native route speaks 7.1's types; what differs between the
// releases — where the binary is, the enums' values, how a snapshot is made, the file system
// callbacks, the request's project handle, the client's cache of syntax trees — is said here once.
// 7.1 is the default; `KG_NATIVE_TS=7.0` selects 7.0.2 while both are installed.

import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import * as api70 from 'typescript7/unstable/sync';
import { SyntaxKind as Kind70 } from 'typescript7/unstable/ast';
import { version as VERSION_70 } from 'typescript7';
import * as api71 from 'typescript71/sync';
import { SyntaxKind as Kind71, type Expression as Expression71 } from 'typescript71/ast';
import { version as VERSION_71 } from 'typescript71';
import { serverFS, type FileSystemCallbacks } from 'typescript71/fs';

export type { API, Checker, NodeHandle, Project as NativeProject, Snapshot, Symbol as NativeSymbol } from 'typescript71/sync';
export type { Expression as NativeExpression, Node as NativeNode, SourceFile as NativeSourceFile } from 'typescript71/ast';

type API = api71.API;
type Snapshot = api71.Snapshot;
type NativeProject = api71.Project;

/** The releases the native route can run on, and the default (ADR 186). */
const NATIVE_RELEASES = ['7.1', '7.0'] as const;
export type NativeRelease = (typeof NATIVE_RELEASES)[number];
const DEFAULT_RELEASE: NativeRelease = '7.1';

/** The release `KG_NATIVE_TS` selects (7.1 when unset), or why its value names none. */
export function nativeRelease(env: NodeJS.ProcessEnv = process.env): NativeRelease | { invalid: string } {
  const v = env.KG_NATIVE_TS?.trim();
  if (v === undefined || v === '') return DEFAULT_RELEASE;
  const release = NATIVE_RELEASES.find((r) => r === v || PINNED[r] === v);
  return release ?? { invalid: `KG_NATIVE_TS is '${v}', not one of ${NATIVE_RELEASES.join(', ')}` };
}

/** Each release's exact npm version, as package.json pins its alias. */
const PINNED: Record<NativeRelease, string> = { '7.1': VERSION_71, '7.0': VERSION_70 };
/** Each release's npm alias: its platform package may be installed inside it (npm nests 7.1's, ADR 180). */
const ALIAS: Record<NativeRelease, string> = { '7.1': 'typescript71', '7.0': 'typescript7' };

/** The platform package that carries the Go binary. */
const PLATFORM_PACKAGE = `@typescript/typescript-${process.platform}-${process.arch}`;

/** Where the platform package's package.json may be, most specific first. */
function platformCandidates(release: NativeRelease): string[] {
  const out = [path.join(__dirname, 'native', PLATFORM_PACKAGE.slice('@typescript/'.length), 'package.json')];
  const from = (paths?: string[]) => {
    try {
      out.push(require.resolve(`${PLATFORM_PACKAGE}/package.json`, paths ? { paths } : undefined));
    } catch {
      // not there
    }
  };
  try {
    // npm installs a second version of the platform package inside the alias's own node_modules.
    from([path.dirname(require.resolve(`${ALIAS[release]}/package.json`))]);
  } catch {
    // the alias is bundled, not installed (a kg installed with npm, a .vsix)
  }
  from();
  return out;
}

const versionOf = (pkgJson: string): string => (JSON.parse(fs.readFileSync(pkgJson, 'utf8')) as { version: string }).version;

/**
 * The native binary of the selected release and its version, or why there is none (the build then
 * uses the JavaScript backend): beside the bundle in a platform-specific .vsix (dist/native/,
 * esbuild.mjs --native), else the platform package npm installed inside the release's alias or at
 * the top. A binary of another version than the release's API is never used.
 */
export function nativeBinary(
  release: NativeRelease | { invalid: string } = nativeRelease(),
): { exe: string; version: string } | { missing: string } {
  if (typeof release !== 'string') return { missing: release.invalid };
  const want = PINNED[release];
  const found = platformCandidates(release).filter((p) => fs.existsSync(p));
  const pkgJson = found.find((p) => versionOf(p) === want);
  if (!pkgJson) {
    const other = found.length > 0 ? ` (found ${versionOf(found[0])} at ${path.dirname(found[0])})` : '';
    // A universal .vsix has only the JavaScript checker; beside a kg installed with npm (ADR 158)
    // the platform package, installed the same way, is found by the resolve above.
    return {
      missing: `TypeScript 7's binary for ${process.platform}-${process.arch} (${PLATFORM_PACKAGE}@${want}) is not installed${other} (a universal package has only the JavaScript checker; beside a kg installed with npm: npm install -g ${PLATFORM_PACKAGE}@${want})`,
    };
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
  return { exe, version: want };
}

/**
 * The files TypeScript 7 reads through the build, in the release-neutral form: `'os'` lets it read
 * the real file system (its own default library), `null` is a missing file.
 */
export interface NativeFiles {
  readFile(f: string): string | null | 'os';
  fileExists(f: string): boolean | 'os';
  directoryExists(d: string): boolean | 'os';
  realpath(f: string): string | 'os';
  entries(d: string): { files: string[]; directories: string[] } | undefined | 'os';
}

/** What the native route asks of a snapshot change. */
interface SnapshotChange {
  open?: string[];
  close?: string[];
  changed?: string[];
}

/** One release's API as the native route uses it. */
export interface NativeLibrary {
  release: NativeRelease;
  SymbolFlags: typeof api71.SymbolFlags;
  TypeFlags: typeof api71.TypeFlags;
  SyntaxKind: typeof Kind71;
  /** Spawns TypeScript 7's process. */
  start(exe: string, cwd: string, files: NativeFiles): API;
  /** The next snapshot after `previous` (which goes), with these changes. */
  snapshot(api: API, previous: Snapshot | undefined, change: SnapshotChange): Snapshot;
  project(snapshot: Snapshot, config: string): NativeProject | undefined;
  /** The project as a request names it (sending ahead writes requests itself, ADR 136). */
  handle(project: NativeProject): unknown;
  /** What each alias denotes (`getAliasedSymbol`): 7.1 asks them in one batch, 7.0.2 one by one. */
  aliases(api: API, checker: api71.Checker, symbols: readonly api71.Symbol[]): api71.Symbol[];
  /**
   * For each object literal, under each of its keys' names, the property each member of its
   * contextual type declares (the type alone when it is not a union); undefined where the literal
   * has no contextual type or it is `any` or `unknown`. 7.1 asks every literal of the call in one
   * `api.batch` (three rounds: the types, the unions' members, the properties; ADR 192), 7.0.2 one
   * request at a time.
   */
  contextualProperties(api: API, checker: api71.Checker, literals: readonly ContextualLiteral[]): ContextualProperties[];
  /** Drops the client's syntax trees of files that changed, or all of them (ADR 138). */
  forgetTrees(api: API, changed: readonly string[] | 'all'): void;
}

/** An object literal as TypeScript 7's node, and the names of its keys asked about. */
interface ContextualLiteral {
  node: Expression71;
  names: readonly string[];
}

/** Under each name of a `ContextualLiteral`, each member's property (undefined where it has none). */
type ContextualProperties = ReadonlyArray<ReadonlyArray<api71.Symbol | undefined>> | undefined;

const untyped = (type: api71.Type | undefined, flags: typeof api71.TypeFlags): boolean =>
  !type || (type.flags & (flags.Any | flags.Unknown)) !== 0;

/** The properties asked name by name, each name's members together, cut back into one list per name. */
const perName = <T>(names: readonly string[], members: number, properties: readonly T[]): T[][] =>
  names.map((_, n) => properties.slice(n * members, (n + 1) * members));

const v71: NativeLibrary = {
  release: '7.1',
  SymbolFlags: api71.SymbolFlags,
  TypeFlags: api71.TypeFlags,
  SyntaxKind: Kind71,
  start(exe, cwd, files) {
    const s = serverFS;
    const os = <T>(v: T | 'os'): T | symbol => (v === 'os' ? s.useOS : v);
    const callbacks = {
      readFile: (f: string) => {
        const v = files.readFile(f);
        return v === null ? undefined : os(v);
      },
      fileExists: (f: string) => os(files.fileExists(f)),
      directoryExists: (d: string) => os(files.directoryExists(d)),
      realpath: (f: string) => os(files.realpath(f)),
      getAccessibleEntries: (d: string) => {
        const v = files.entries(d);
        return v === undefined ? { files: [], directories: [], symlinks: undefined } : os(v === 'os' ? v : { ...v, symlinks: undefined });
      },
      // The checker needs no times: a file that exists is stated as one, never read from the disk.
      stat: (f: string) => {
        const e = files.fileExists(f);
        return e === 'os' ? s.useOS : e ? s.fakeStat : undefined;
      },
      writeFile: s.noop,
      removeFile: s.noop,
    };
    // Said, not inferred: 7.1 infers it from its module's `import.meta.url`, which a bundle has not.
    const useCaseSensitiveFileNames = ts.sys.useCaseSensitiveFileNames;
    return new api71.API({ tsserverPath: exe, cwd, useCaseSensitiveFileNames, fs: callbacks as unknown as FileSystemCallbacks });
  },
  snapshot(api, previous, change) {
    const params = {
      ...(change.open && change.open.length > 0 ? { openProjects: change.open } : {}),
      ...(change.close && change.close.length > 0 ? { closeProjects: change.close } : {}),
      ...(change.changed && change.changed.length > 0 ? { fileNotifications: { changed: change.changed } } : {}),
      // 7.1 only marks a project whose files changed dirty; its program is updated when asked to be.
      ensurePrograms: true as const,
    };
    if (!previous) return api.createSnapshot(params);
    // 7.1 builds a snapshot on the one before it, which must still be held; an unchanged one comes back.
    const next = previous.update(params);
    if (next !== previous) previous.dispose();
    return next;
  },
  project: (snapshot, config) => snapshot.getConfiguredProject(config),
  aliases: (api, checker, symbols) =>
    symbols.length === 1
      ? [checker.getAliasedSymbol(symbols[0])]
      : (api.batch(...symbols.map((s) => checker.getAliasedSymbol.gen(s))) as api71.Symbol[]),
  contextualProperties(api, checker, literals) {
    const { TypeFlags } = api71;
    function* ask(literal: ContextualLiteral): api71.APIRequestGenerator<ContextualProperties> {
      const type = yield* checker.getContextualType.gen(literal.node);
      if (untyped(type, TypeFlags)) return undefined;
      const t = type as api71.Type;
      const members = t.flags & TypeFlags.Union ? yield* (t as api71.UnionType).getTypes.gen() : [t];
      const properties = yield* api71.all(...literal.names.flatMap((name) => members.map((m) => checker.getPropertyOfType.gen(m, name))));
      return perName(literal.names, members.length, properties as (api71.Symbol | undefined)[]);
    }
    return literals.length === 0 ? [] : (api.batch(...literals.map(ask)) as ContextualProperties[]);
  },
  handle: (project) => (project as unknown as { handle: unknown }).handle,
  // 7.1's client keeps a tree by the exact parse it came from, never another text's at the same path.
  forgetTrees: () => undefined,
};

type API70 = api70.API;
const as70 = (api: API): API70 => api as unknown as API70;

const v70: NativeLibrary = {
  release: '7.0',
  SymbolFlags: api70.SymbolFlags as unknown as typeof api71.SymbolFlags,
  TypeFlags: api70.TypeFlags as unknown as typeof api71.TypeFlags,
  SyntaxKind: Kind70 as unknown as typeof Kind71,
  start(exe, cwd, files) {
    // `undefined` tells 7.0.2 to read the real file system; `null` is a missing file.
    const os = <T>(v: T | 'os'): T | undefined => (v === 'os' ? undefined : v);
    const api = new api70.API({
      tsserverPath: exe,
      cwd,
      fs: {
        readFile: (f) => os(files.readFile(f)),
        fileExists: (f) => os(files.fileExists(f)),
        directoryExists: (d) => os(files.directoryExists(d)),
        realpath: (f) => os(files.realpath(f)),
        getAccessibleEntries: (d) => os(files.entries(d)),
      },
    });
    return api as unknown as API;
  },
  snapshot(api, previous, change) {
    previous?.dispose();
    const snapshot = as70(api).updateSnapshot({
      openProjects: change.open ?? [],
      ...(change.close && change.close.length > 0 ? { closeProjects: change.close } : {}),
      ...(change.changed && change.changed.length > 0 ? { fileChanges: { changed: change.changed } } : {}),
    });
    return snapshot as unknown as Snapshot;
  },
  project: (snapshot, config) => (snapshot as unknown as api70.Snapshot).getProject(config) as unknown as NativeProject | undefined,
  handle: (project) => project.id,
  aliases: (_api, checker, symbols) => symbols.map((s) => checker.getAliasedSymbol(s)),
  contextualProperties: (_api, checker, literals) =>
    literals.map((literal) => {
      const type = checker.getContextualType(literal.node);
      if (untyped(type, v70.TypeFlags)) return undefined;
      const t = type as api71.Type;
      const members = t.flags & v70.TypeFlags.Union ? (t as api71.UnionType).getTypes() : [t];
      const properties = literal.names.flatMap((name) => members.map((m) => checker.getPropertyOfType(m, name)));
      return perName(literal.names, members.length, properties);
    }),
  forgetTrees: (api, changed) => (changed === 'all' ? as70(api).clearSourceFileCache() : forgetTrees70(as70(api), changed)),
};

/** The selected release's API. */
export const nativeLibrary = (release: NativeRelease): NativeLibrary => (release === '7.1' ? v71 : v70);

/**
 * Drops the syntax trees 7.0.2's client fetched of files that changed. The client keeps trees by
 * path and carries them into the next snapshot unless TypeScript 7 reports the file changed, which
 * 7.0.2 does not do for changes the client itself sends, so a rebuild would read the old tree.
 * Every other tree stays (ADR 138). Without the cache this was written for, all go.
 */
function forgetTrees70(api: API70, changed: readonly string[]): void {
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
 * Why a build cannot share a running TypeScript 7 language server (the editor's), asked of the
 * selected release's own client: 7.1 and 7.0.2 both declare `API.fromLSPConnection`, for the pipe a
 * language server hands out on `custom/initializeAPISession` (the editor extension's
 * `initializeAPIConnection`), but their synchronous client, the one this route speaks, refuses any
 * pipe and spawns only a process of its own (ADR 197). With no pipe given, one that cannot exist is
 * named: a client that accepts pipes then fails to connect instead of refusing, and the answer says
 * the build does not attach yet. An API that does attach is closed at once: nothing uses it.
 */
export function editorServerUnshared(release: NativeRelease, pipe?: string): string {
  const where = pipe ?? path.join(tmpdir(), `kg-no-editor-server-${process.pid}`);
  try {
    const api = release === '7.1' ? api71.API.fromLSPConnection({ pipe: where }) : api70.API.fromLSPConnection({ pipe: where });
    api.close();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/not yet supported/i.test(message))
      return `TypeScript ${PINNED[release]}'s synchronous API cannot attach to a language server (${message})`;
  }
  return `the build does not attach to a language server yet, though TypeScript ${PINNED[release]}'s API may (ADR 197)`;
}
