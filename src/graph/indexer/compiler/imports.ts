// Import resolution with the compiler's own module resolver, per owning project (its `paths`,
// `baseUrl`, `moduleResolution`, package `exports`), plus the repository's workspace packages so
// `@scope/pkg` reaches `packages/pkg` even before anything is installed.

import * as path from 'node:path';
import * as ts from 'typescript';
import { isSourceFileName, readText, type Project } from './discover';
import type { ImportRef } from './extract';
import type { FileHost } from '../files/file-host';
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

export class ModuleResolver {
  private readonly statCache = new Map<string, 'file' | 'directory' | undefined>();
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
  ) {
    this.workspaces = workspaces;
    this.resolutionHost = {
      fileExists: (p) => this.kind(p) === 'file',
      directoryExists: (p) => this.kind(p) === 'directory',
      readFile: (p) => {
        try {
          return readText(this.host, this.mapWorkspace(p) ?? p);
        } catch {
          return undefined;
        }
      },
      realpath: (p) => {
        try {
          return this.host.realpath(this.mapWorkspace(p) ?? p);
        } catch {
          return p;
        }
      },
      getCurrentDirectory: () => this.root,
      useCaseSensitiveFileNames: true,
    };
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

  private kind(p: string): 'file' | 'directory' | undefined {
    if (this.statCache.has(p)) return this.statCache.get(p);
    let k: 'file' | 'directory' | undefined;
    if (p.startsWith(this.root + '/') && this.graphFiles.has(p.slice(this.root.length + 1))) {
      // A source file this build's discovery just found is a file: no stat for it (a large
      // repository's imports probe thousands of them on every build).
      k = 'file';
    } else if (this.isVirtualWorkspaceDir(p)) {
      k = 'directory';
    } else {
      const s = this.host.stat(this.mapWorkspace(p) ?? p);
      k = s?.type === 'file' ? 'file' : s?.type === 'directory' ? 'directory' : undefined;
    }
    this.statCache.set(p, k);
    return k;
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
    const key = project.configPath + '\u0000' + absPath;
    if (this.formats.has(key)) return this.formats.get(key);
    const cache = this.cacheFor(project);
    const format = ts.getImpliedNodeFormatForFile(absPath, cache.getPackageJsonInfoCache(), this.resolutionHost, project.options);
    this.formats.set(key, format);
    return format;
  }

  /** Outcomes already computed this build (an incremental build asks twice: to plan, then to emit). */
  private readonly outcomes = new Map<string, ImportOutcome>();

  resolve(project: Project, fromRel: string, ref: ImportRef): ImportOutcome {
    const key = `${project.configPath}\u0000${fromRel}\u0000${ref.syntax}\u0000${ref.specifier}`;
    let outcome = this.outcomes.get(key);
    if (!outcome) {
      outcome = this.resolveUncached(project, fromRel, ref);
      this.outcomes.set(key, outcome);
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
          : this.impliedFormat(project, from);
    const result = ts.resolveModuleName(ref.specifier, from, project.options, this.resolutionHost, this.cacheFor(project), undefined, mode);
    const resolved = result.resolvedModule;
    if (resolved) {
      const abs = resolved.resolvedFileName;
      const inside = abs.startsWith(this.root + '/');
      const rel = inside ? abs.slice(this.root.length + 1) : undefined;
      if (rel === undefined || rel.split('/').includes('node_modules')) return { kind: 'unresolved', reason: 'external' };
      if (this.graphFiles.has(rel)) return { kind: 'file', path: rel };
      return { kind: 'unresolved', reason: isSourceFileName(rel) ? 'excluded' : 'not-source' };
    }
    if (isRelativeSpecifier(ref.specifier)) {
      const target = path.posix.resolve(path.posix.dirname(from), ref.specifier);
      if (this.kind(target) === 'file') return { kind: 'unresolved', reason: isSourceFileName(target) ? 'excluded' : 'not-source' };
      return { kind: 'unresolved', reason: 'not-found' };
    }
    if (matchesPathsAlias(ref.specifier, project.options.paths)) return { kind: 'unresolved', reason: 'not-found' };
    if (this.workspaces.has(packageNameOf(ref.specifier))) return { kind: 'unresolved', reason: 'not-found' };
    return { kind: 'unresolved', reason: 'external' };
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
