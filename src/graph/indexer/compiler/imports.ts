// Import resolution with the compiler's own module resolver, per owning project (its `paths`,
// `baseUrl`, `moduleResolution`, package `exports`), plus the repository's workspace packages so
// `@scope/pkg` reaches `packages/pkg` even before anything is installed.

import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as ts from 'typescript';
import { isSourceFileName, readText, type Project } from './discover';
import { componentKind } from '../components/kinds';
import type { ImportRef } from './extract';
import type { EntryType, FileHost } from '../files/file-host';
import type { ImportOutcome } from '../facts';
// Persisted per-file facts live below the compiler (../facts.ts); re-exported for this side's users.
export type { ImportOutcome } from '../facts';

function isRelativeSpecifier(spec: string): boolean {
  return spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..' || spec.startsWith('/');
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageNameOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function matchesPathsAlias(spec: string, paths: ts.MapLike<string[]> | undefined): boolean {
  if (!paths) return false;
  for (const pattern of Object.keys(paths)) {
    const star = pattern.indexOf('*');
    if (star < 0 ? spec === pattern : spec.startsWith(pattern.slice(0, star)) && spec.endsWith(pattern.slice(star + 1))) {
      return true;
    }
  }
  return false;
}

type Kind = 'file' | 'directory' | undefined;

/**
 * How deep a package.json may nest before the resolver reads it without its `exports` and
 * `imports` (issue 55): the compiler walks those maps recursively, a frame a level, and 5,000
 * levels overflow the stack of the whole build (a RangeError). A published package's conditions
 * nest a handful of levels; 64 is far above that and far below the stack.
 */
export const PACKAGE_JSON_DEPTH = 64;

/** The deepest nesting of `{` and `[` in a JSON text, strings skipped: one pass, no recursion. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return max;
}

/**
 * A package.json as the compiler may read it: as it is, or without its `exports` and `imports`
 * when it nests deeper than PACKAGE_JSON_DEPTH, or not at all when it still does; with the note
 * the build reports for it.
 */
export function boundedPackageJson(text: string): { text: string | undefined; note?: string } {
  const depth = jsonDepth(text);
  if (depth <= PACKAGE_JSON_DEPTH) return { text };
  const deep = `nests ${depth} levels deep (the limit is ${PACKAGE_JSON_DEPTH})`;
  try {
    // JSON.parse does not recurse; JSON.stringify does, and throws on what is still too deep.
    const pkg = JSON.parse(text) as unknown;
    if (pkg !== null && typeof pkg === 'object' && !Array.isArray(pkg)) {
      const rest: Record<string, unknown> = { ...(pkg as Record<string, unknown>) };
      delete rest.exports;
      delete rest.imports;
      const kept = JSON.stringify(rest);
      if (jsonDepth(kept) <= PACKAGE_JSON_DEPTH) {
        return { text: kept, note: `${deep}: read without its "exports" and "imports"; imports of it resolve as if it had none` };
      }
    }
  } catch {
    // Not JSON, or too deep even without them: read as absent, below.
  }
  return { text: undefined, note: `${deep}: not read; imports of it resolve as if it had no package.json` };
}

/** What a resolution asked the disk beyond the walk's listings, and what it was told. */
interface Probes {
  kinds: Map<string, Kind>;
  texts: Map<string, string | undefined>;
  reals: Map<string, string>;
}

/** Everything an import's outcome was decided on, and the outcomes decided on it. */
interface ResolutionWorld {
  graphFiles: ReadonlySet<string>;
  listed: ReadonlyMap<string, ReadonlyMap<string, EntryType>>;
  workspaces: ReadonlyMap<string, string>;
  /** Each project's compiler options, by config path, as its outcomes were decided with them. */
  options: Map<string, ts.CompilerOptions>;
  /** By config path, then by the file, syntax and specifier of the import. */
  outcomes: Map<string, Map<string, ImportOutcome>>;
  probes: Probes;
  /** The package.json files read bounded, and why (the build's diagnostics). */
  notes: Map<string, string>;
}

/**
 * Import outcomes kept from build to build by a build session (ADR 134). An outcome is a function of
 * the project's options, the set of graph files, and what the disk answered the resolver; a build
 * takes the last build's outcomes only when each of these is the same: the graph files and every
 * walked directory's listing equal, each answer the disk gave outside the listings given again.
 */
export class ResolutionMemo {
  last: ResolutionWorld | undefined;
  /** Whether the last resolver took the outcomes before it (for tests and the build's log). */
  reused = false;
}

function sameMap<K, V>(a: ReadonlyMap<K, V>, b: ReadonlyMap<K, V>, same: (x: V, y: V) => boolean = (x, y) => x === y): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined && !b.has(k)) return false;
    if (!same(v, w as V)) return false;
  }
  return true;
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

export class ModuleResolver {
  private readonly statCache = new Map<string, Kind>();
  /** Package.json files read bounded (PACKAGE_JSON_DEPTH), by absolute path, with why: reported by the build. */
  readonly notes = new Map<string, string>();
  /** What the disk answered beyond the listings, for the next build to ask again (ADR 134). */
  private readonly probes: Probes = { kinds: new Map(), texts: new Map(), reals: new Map() };
  /**
   * With a memo, this resolver's own questions are recorded while `recording`, and it keeps caches of
   * its own apart from the programs' (a cache the program filled would hide what an outcome was
   * decided on); paths whose kind came from a stat, to record again when asked from the cache.
   */
  private readonly recordsProbes: boolean;
  private recording = false;
  private readonly fromDisk = new Set<string>();
  private readonly ownCaches = new Map<Project, ts.ModuleResolutionCache>();
  private readonly ownFormats = new Map<string, ts.ResolutionMode>();
  /** Outcomes by config path, then by file, syntax and specifier; the last build's when its world is this one. */
  private readonly outcomes = new Map<string, Map<string, ImportOutcome>>();
  /** This build's compiler options by config path, and whether the last build's outcomes for it hold. */
  private readonly options = new Map<string, ts.CompilerOptions>();
  /** The outcomes the last build left, when its world is this one. */
  private inherited: ResolutionWorld | undefined;
  /** The memo the constructor was given, until `settle` has compared its world with this one. */
  private memo: ResolutionMemo | undefined;
  /** Whether an absent name in a listing means an absent file: false on a case-insensitive disk. */
  private listingTrusted: boolean | undefined;
  private readonly caches = new Map<Project, ts.ModuleResolutionCache>();
  private readonly formats = new Map<string, ts.ResolutionMode>();
  readonly resolutionHost: ts.ModuleResolutionHost;
  /** Workspace package name → its directory (absolute). */
  private readonly workspaces: Map<string, string>;

  constructor(
    private readonly host: FileHost,
    private readonly root: string,
    /** Repo-relative source files that are in the graph. */
    private readonly graphFiles: ReadonlySet<string>,
    workspaces: Map<string, string>,
    /** The walk's listings of the directories it read (ADR 134); without them, every question is a stat. */
    private readonly listed: ReadonlyMap<string, ReadonlyMap<string, EntryType>> = new Map(),
    /** Outcomes kept between builds (a build session's); taken when the world is the same. */
    memo?: ResolutionMemo,
  ) {
    this.workspaces = workspaces;
    this.resolutionHost = {
      fileExists: (p) => this.kind(p) === 'file' || this.componentOfTwin(p) !== undefined,
      directoryExists: (p) => this.kind(p) === 'directory',
      readFile: (p) => {
        const text = this.readFileUncached(p);
        if (this.recording) this.probes.texts.set(p, text);
        return text;
      },
      realpath: (p) => {
        const real = this.realpathUncached(p);
        if (this.recording) this.probes.reals.set(p, real);
        return real;
      },
      getCurrentDirectory: () => this.root,
      useCaseSensitiveFileNames: true,
    };
    this.recordsProbes = memo !== undefined;
    this.memo = memo;
  }

  /**
   * The component (absolute path) whose code's twin `p` is: `Cart.vue.ts` for a `Cart.vue` in the
   * graph, where no such file exists. The compiler's resolution finds `./Cart.vue` there, as it
   * tries extensions after a name it does not know (ADR 169).
   */
  componentOfTwin(p: string): string | undefined {
    if (!p.endsWith('.ts') || !p.startsWith(this.root + '/')) return undefined;
    const component = p.slice(0, -3);
    if (componentKind(component) === undefined || !this.graphFiles.has(component.slice(this.root.length + 1))) return undefined;
    return this.kind(p) === 'file' ? undefined : component;
  }

  /**
   * Whether the disk answers the last build's resolutions were decided on hold now (ADR 134): a
   * program built over the last one may keep its resolutions only then. The compiler keeps an
   * unchanged file's resolutions, failed ones included, unless told they are invalid, so a package
   * installed since, or a file put in an ignored folder, would stay unfound (ADR 195).
   */
  get worldKept(): boolean {
    return this.inherited !== undefined;
  }

  /**
   * Takes the last build's outcomes when its world is this one. The graph files are known only
   * once the screen has passed them, after this resolver gave the screen each file's format (ADR
   * 137): the build calls this then, and the first resolution calls it in any case.
   */
  settle(): void {
    const memo = this.memo;
    if (!memo) return;
    this.memo = undefined;
    const last = memo.last;
    if (last && this.sameWorld(last)) {
      this.inherited = last;
      for (const [p, k] of last.probes.kinds) this.probes.kinds.set(p, k);
      for (const [p, t] of last.probes.texts) this.probes.texts.set(p, t);
      for (const [p, r] of last.probes.reals) this.probes.reals.set(p, r);
      // The outcomes taken were decided on these reads: their notes stand for this build too.
      for (const [p, n] of last.notes) this.notes.set(p, n);
    }
    memo.reused = this.inherited !== undefined;
    memo.last = {
      graphFiles: this.graphFiles,
      listed: this.listed,
      workspaces: this.workspaces,
      options: this.options,
      outcomes: this.outcomes,
      probes: this.probes,
      notes: this.notes,
    };
  }

  /**
   * True when every outcome `last` holds would be decided the same way now: the same graph files,
   * listings and workspace packages, and each thing the disk told the last build beyond the
   * listings told again (a stat or a read each: a package in node_modules, a file in an ignored
   * folder). Each project's options are compared when the project is first asked about.
   */
  private sameWorld(last: ResolutionWorld): boolean {
    if (!sameSet(last.graphFiles, this.graphFiles) || !sameMap(last.workspaces, this.workspaces)) return false;
    if (last.listed !== this.listed && !sameMap(last.listed, this.listed, (a, b) => sameMap(a, b))) return false;
    for (const [p, k] of last.probes.kinds) if (this.kindUncached(p) !== k) return false;
    for (const [p, t] of last.probes.texts) if (this.readFileUncached(p) !== t) return false;
    for (const [p, r] of last.probes.reals) if (this.realpathUncached(p) !== r) return false;
    return true;
  }

  private readFileUncached(p: string): string | undefined {
    let text: string;
    try {
      text = readText(this.host, this.mapWorkspace(p) ?? p);
    } catch {
      return undefined;
    }
    if (!p.endsWith('/package.json')) return text;
    const bounded = boundedPackageJson(text);
    if (bounded.note) this.notes.set(p, bounded.note);
    return bounded.text;
  }

  private realpathUncached(p: string): string {
    try {
      return this.host.realpath(this.mapWorkspace(p) ?? p);
    } catch {
      return p;
    }
  }

  /**
   * Workspace packages appear at `<root>/node_modules/<name>` as a package manager would link
   * them; a path there that is not installed maps to the package's own folder (ADR-5).
   */
  private mapWorkspace(p: string): string | undefined {
    const base = this.root + '/node_modules/';
    if (this.workspaces.size === 0 || !p.startsWith(base)) return undefined;
    const rest = p.slice(base.length);
    const name = packageNameOf(rest);
    const dir = this.workspaces.get(name);
    if (!dir || this.host.stat(p)) return undefined;
    return dir + rest.slice(name.length);
  }

  private kind(p: string): Kind {
    let k: Kind;
    if (this.statCache.has(p)) k = this.statCache.get(p);
    else {
      k = this.kindUncached(p, this.fromDisk);
      this.statCache.set(p, k);
    }
    if (this.recording && this.fromDisk.has(p)) this.probes.kinds.set(p, k);
    return k;
  }

  /** What `p` is, from what this build already knows where it can; `disk` gets `p` when a stat told. */
  private kindUncached(asked: string, disk?: Set<string>): Kind {
    // The compiler asks for a folder with a trailing slash (`'..'`, `'./'` and the other bare
    // directory specifiers end up as `<dir>/`): the name is the folder's, not an empty one in it,
    // which no listing holds (issue 55).
    const p = asked.length > 1 && asked.endsWith('/') ? asked.replace(/\/+$/, '') || '/' : asked;
    if (p.startsWith(this.root + '/') && this.graphFiles.has(p.slice(this.root.length + 1))) {
      // A source file this build's discovery just found is a file: no stat for it (a large
      // repository's imports probe thousands of them on every build).
      return 'file';
    }
    if (this.isVirtualWorkspaceDir(p)) return 'directory';
    const slash = p.lastIndexOf('/');
    const listing = slash > 0 ? this.listed.get(p.slice(0, slash)) : undefined;
    const entry = listing?.get(p.slice(slash + 1));
    // A walked directory's listing says what is in it (ADR 134): most probes ask for names that are
    // not there (an `x.tsx`, an `x.d.ts`, an index file in a folder `x`), a stat each otherwise. A link is followed by a stat.
    if (listing && (entry === 'file' || entry === 'directory')) return entry;
    if (listing && entry === undefined && this.trustsListings()) return undefined;
    const s = this.host.stat(this.mapWorkspace(p) ?? p);
    const k = s?.type === 'file' ? 'file' : s?.type === 'directory' ? 'directory' : undefined;
    disk?.add(asked);
    return k;
  }

  /**
   * Whether a name missing from a listing is missing from the disk: not on a case-insensitive
   * file system, where `Foo.ts` opens `foo.ts`. One stat decides it, of a root entry's name in
   * the other case.
   */
  private trustsListings(): boolean {
    if (this.listingTrusted !== undefined) return this.listingTrusted;
    const top = this.listed.get(this.root);
    let trusted = false;
    for (const name of top?.keys() ?? []) {
      const other = name.toUpperCase() === name ? name.toLowerCase() : name.toUpperCase();
      if (other === name || top?.has(other)) continue;
      trusted = this.host.stat(this.root + '/' + other) === undefined;
      break;
    }
    this.listingTrusted = trusted;
    return trusted;
  }

  /** `<root>/node_modules` and `<root>/node_modules/@scope` exist for workspace packages to live in. */
  private isVirtualWorkspaceDir(p: string): boolean {
    if (this.workspaces.size === 0) return false;
    if (p === this.root + '/node_modules') return true;
    const scope = p.startsWith(this.root + '/node_modules/@') ? p.slice(this.root.length + '/node_modules/'.length) : undefined;
    return scope !== undefined && !scope.includes('/') && [...this.workspaces.keys()].some((n) => n.startsWith(scope + '/'));
  }

  cacheFor(project: Project): ts.ModuleResolutionCache {
    let cache = this.caches.get(project);
    if (!cache) {
      cache = ts.createModuleResolutionCache(this.root, (f) => f, project.options);
      this.caches.set(project, cache);
    }
    return cache;
  }

  /** The module format TypeScript implies for a file (by extension and package.json `type`). */
  impliedFormat(project: Project, absPath: string): ts.ResolutionMode {
    return this.formatWith(this.formats, this.cacheFor(project), project, absPath);
  }

  private formatWith(
    formats: Map<string, ts.ResolutionMode>,
    cache: ts.ModuleResolutionCache,
    project: Project,
    absPath: string,
  ): ts.ResolutionMode {
    const key = project.configPath + '\u0000' + absPath;
    if (formats.has(key)) return formats.get(key);
    const format = ts.getImpliedNodeFormatForFile(absPath, cache.getPackageJsonInfoCache(), this.resolutionHost, project.options);
    formats.set(key, format);
    return format;
  }

  /** The resolution cache this resolver's own outcomes use: the programs' one, or its own when it records (see `recording`). */
  private ownCacheFor(project: Project): ts.ModuleResolutionCache {
    if (!this.recordsProbes) return this.cacheFor(project);
    let cache = this.ownCaches.get(project);
    if (!cache) {
      cache = ts.createModuleResolutionCache(this.root, (f) => f, project.options);
      this.ownCaches.set(project, cache);
    }
    return cache;
  }

  /**
   * The outcomes of `project`'s imports so far: this build's, and the last build's when its world
   * was this one and the project's options are the same (an incremental build asks twice: to plan,
   * then to emit; a build session's next build asks again).
   */
  private outcomesOf(project: Project): Map<string, ImportOutcome> {
    this.settle();
    let mine = this.outcomes.get(project.configPath);
    if (mine) return mine;
    const before = this.inherited?.options.get(project.configPath);
    const kept = this.inherited?.outcomes.get(project.configPath);
    mine = kept && before && isDeepStrictEqual(before, project.options) ? kept : new Map<string, ImportOutcome>();
    this.outcomes.set(project.configPath, mine);
    this.options.set(project.configPath, project.options);
    return mine;
  }

  resolve(project: Project, fromRel: string, ref: ImportRef): ImportOutcome {
    const mine = this.outcomesOf(project);
    const key = `${fromRel}\u0000${ref.syntax}\u0000${ref.specifier}`;
    let outcome = mine.get(key);
    if (!outcome) {
      this.recording = this.recordsProbes;
      try {
        outcome = this.resolveUncached(project, fromRel, ref);
      } finally {
        this.recording = false;
      }
      mine.set(key, outcome);
    }
    return outcome;
  }

  private resolveUncached(project: Project, fromRel: string, ref: ImportRef): ImportOutcome {
    const from = this.root + '/' + fromRel;
    const mode: ts.ResolutionMode =
      ref.syntax === 'require'
        ? ts.ModuleKind.CommonJS
        : ref.syntax === 'dynamic'
          ? ts.ModuleKind.ESNext
          : this.recordsProbes
            ? this.formatWith(this.ownFormats, this.ownCacheFor(project), project, from)
            : this.impliedFormat(project, from);
    const result = ts.resolveModuleName(
      ref.specifier,
      from,
      project.options,
      this.resolutionHost,
      this.ownCacheFor(project),
      undefined,
      mode,
    );
    const resolved = result.resolvedModule;
    if (resolved) {
      const abs = resolved.resolvedFileName;
      const inside = abs.startsWith(this.root + '/');
      const rel = inside ? abs.slice(this.root.length + 1) : undefined;
      if (rel === undefined || rel.split('/').includes('node_modules')) return { kind: 'unresolved', reason: 'external' };
      if (this.graphFiles.has(rel)) return { kind: 'file', path: rel };
      const component = this.componentOfTwin(abs);
      if (component !== undefined) return { kind: 'file', path: component.slice(this.root.length + 1) };
      return { kind: 'unresolved', reason: isSourceFileName(rel) ? 'excluded' : 'not-source' };
    }
    if (isRelativeSpecifier(ref.specifier)) {
      const target = path.posix.resolve(path.posix.dirname(from), ref.specifier);
      if (this.kind(target) === 'file') return { kind: 'unresolved', reason: isSourceFileName(target) ? 'excluded' : 'not-source' };
      return { kind: 'unresolved', reason: 'not-found' };
    }
    if (matchesPathsAlias(ref.specifier, project.options.paths)) return { kind: 'unresolved', reason: 'not-found' };
    if (this.workspaces.has(packageNameOf(ref.specifier))) return { kind: 'unresolved', reason: 'not-found' };
    return { kind: 'unresolved', reason: 'external', absent: true };
  }
}

/** Workspace packages: every package.json in the repository with a name, name → absolute dir. */
export function workspacePackages(host: FileHost, root: string, packageJsonFiles: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of packageJsonFiles) {
    try {
      const pkg = JSON.parse(readText(host, root + '/' + rel)) as { name?: unknown };
      const dir = path.posix.dirname(rel);
      if (typeof pkg.name === 'string' && pkg.name !== '' && dir !== '.' && !out.has(pkg.name)) {
        out.set(pkg.name, root + '/' + dir);
      }
    } catch {
      // A package.json that does not parse names no package.
    }
  }
  return out;
}
