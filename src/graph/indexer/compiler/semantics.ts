// The project's own compiler semantics (ADR 81). The bundled TypeScript 6 changed defaults that
// decide types: `strict` on when unset, `types` empty when unset, a newer default target (and with
// it the module, module resolution and interop defaults), `target: ES3` removed, and options such
// as `moduleResolution: node` deprecated as errors. A repository written for TypeScript 5 is
// analysed with the options its own `tsc` and editor use: each option the config leaves to its
// default gets TypeScript 5's default explicitly, removed values their nearest supported one, and
// deprecations are silenced. Which TypeScript the repository uses is read from its lockfile or
// package.json (never loaded); unknown counts as 5.

import * as path from 'node:path';
import * as ts from 'typescript';
import type { FileHost } from '../files/file-host';

export interface RepositoryTypeScript {
  /** Major version, or undefined when nothing names it. */
  major: number | undefined;
  /** Where it was read, for the report: `package-lock.json`, `package.json`, … */
  from: string | undefined;
  /** The version or range as written there. */
  version: string | undefined;
}

function read(host: FileHost, abs: string): string | undefined {
  try {
    return new TextDecoder('utf-8').decode(host.readFile(abs));
  } catch {
    return undefined;
  }
}

function majorOf(version: string): number | undefined {
  const m = /(?:^|[^\d.])(\d+)(?:\.|$)/.exec(version.replace(/^npm:typescript@/, ''));
  return m ? Number(m[1]) : undefined;
}

/** The TypeScript version a lockfile at the root installs, if it names one. */
function fromLockfile(host: FileHost, root: string): RepositoryTypeScript | undefined {
  for (const name of ['package-lock.json', 'npm-shrinkwrap.json']) {
    const text = read(host, `${root}/${name}`);
    if (text === undefined) continue;
    try {
      const lock = JSON.parse(text) as {
        packages?: Record<string, { version?: string }>;
        dependencies?: Record<string, { version?: string }>;
      };
      const version = lock.packages?.['node_modules/typescript']?.version ?? lock.dependencies?.typescript?.version;
      if (version !== undefined) return { major: majorOf(version), from: name, version };
    } catch {
      // an unreadable lockfile names nothing
    }
  }
  const pnpm = read(host, `${root}/pnpm-lock.yaml`);
  const pm = pnpm && /\n\s+'?typescript'?:\s*\n\s+specifier:[^\n]*\n\s+version:\s*'?(\d+\.\d+[^\s'(]*)/.exec(pnpm);
  if (pm) return { major: majorOf(pm[1]), from: 'pnpm-lock.yaml', version: pm[1] };
  const yarn = read(host, `${root}/yarn.lock`);
  const ym = yarn && /(?:^|\n)"?typescript@[^\n]*:\n\s+version:?\s+"?(\d+\.\d+[^"\s]*)/.exec(yarn);
  if (ym) return { major: majorOf(ym[1]), from: 'yarn.lock', version: ym[1] };
  return undefined;
}

/** The TypeScript a package.json between `dir` and the root depends on, nearest first. */
function fromPackageJson(host: FileHost, root: string, dir: string): RepositoryTypeScript | undefined {
  for (let d = dir; d === root || d.startsWith(root + '/'); d = path.posix.dirname(d)) {
    const text = read(host, `${d}/package.json`);
    if (text !== undefined) {
      try {
        const pkg = JSON.parse(text) as Record<string, Record<string, string> | undefined>;
        const version = pkg.devDependencies?.typescript ?? pkg.dependencies?.typescript ?? pkg.peerDependencies?.typescript;
        if (typeof version === 'string') {
          const rel = path.posix.relative(root, `${d}/package.json`);
          return { major: majorOf(version), from: rel, version };
        }
      } catch {
        // an unparsable package.json names nothing
      }
    }
    if (d === root) break;
  }
  return undefined;
}

/** Which TypeScript the project whose config sits in `configDir` is written for. */
export function repositoryTypeScript(host: FileHost, root: string, configDir: string): RepositoryTypeScript {
  return fromLockfile(host, root) ?? fromPackageJson(host, root, configDir) ?? { major: undefined, from: undefined, version: undefined };
}

const target = (t: ts.ScriptTarget) => (t === ts.ScriptTarget.ESNext ? 'ESNext' : ts.ScriptTarget[t]);

/**
 * TypeScript 5's defaults for what `options` leaves unset, and the nearest supported value of
 * what TypeScript 6 removed, as explicit options; with the list of adjustments made. The rules
 * are TypeScript 5.9's computed options (`target`, `module`, `moduleResolution`,
 * `esModuleInterop`, `allowSyntheticDefaultImports`, `getStrictOptionValue`, automatic `types`).
 */
export function withTypeScript5Semantics(options: ts.CompilerOptions): { options: ts.CompilerOptions; adjustments: string[] } {
  const o: ts.CompilerOptions = { ...options };
  const adjustments: string[] = [];
  if (o.strict === undefined) {
    o.strict = false;
    adjustments.push('strict: false');
  }
  if (o.types === undefined) {
    o.types = ['*'];
    adjustments.push('types: ["*"]');
  }
  if (o.target === ts.ScriptTarget.ES3) {
    o.target = ts.ScriptTarget.ES5;
    adjustments.push('target: ES5 (ES3 is removed)');
  } else if (o.target === undefined) {
    const m = o.module;
    o.target =
      m === ts.ModuleKind.Node16 || m === ts.ModuleKind.Node18
        ? ts.ScriptTarget.ES2022
        : m === ts.ModuleKind.Node20
          ? ts.ScriptTarget.ES2023
          : m === ts.ModuleKind.NodeNext
            ? ts.ScriptTarget.ESNext
            : ts.ScriptTarget.ES5;
    adjustments.push(`target: ${target(o.target)}`);
  }
  if (o.module === undefined) {
    o.module = o.target >= ts.ScriptTarget.ES2015 ? ts.ModuleKind.ES2015 : ts.ModuleKind.CommonJS;
    adjustments.push(`module: ${ts.ModuleKind[o.module]}`);
  }
  const module = o.module;
  if (o.moduleResolution === undefined) {
    o.moduleResolution =
      module === ts.ModuleKind.CommonJS
        ? ts.ModuleResolutionKind.Node10
        : module === ts.ModuleKind.Node16 || module === ts.ModuleKind.Node18 || module === ts.ModuleKind.Node20
          ? ts.ModuleResolutionKind.Node16
          : module === ts.ModuleKind.NodeNext
            ? ts.ModuleResolutionKind.NodeNext
            : module === ts.ModuleKind.Preserve
              ? ts.ModuleResolutionKind.Bundler
              : ts.ModuleResolutionKind.Classic;
    if (o.moduleResolution !== ts.ModuleResolutionKind.Bundler) {
      adjustments.push(`moduleResolution: ${ts.ModuleResolutionKind[o.moduleResolution]}`);
    }
  }
  const nodeLike =
    module === ts.ModuleKind.Node16 ||
    module === ts.ModuleKind.Node18 ||
    module === ts.ModuleKind.Node20 ||
    module === ts.ModuleKind.NodeNext ||
    module === ts.ModuleKind.Preserve;
  if (o.esModuleInterop === undefined && !nodeLike) {
    o.esModuleInterop = false;
    adjustments.push('esModuleInterop: false');
  }
  if (o.allowSyntheticDefaultImports === undefined) {
    const synthetic =
      (o.esModuleInterop ?? nodeLike) || module === ts.ModuleKind.System || o.moduleResolution === ts.ModuleResolutionKind.Bundler;
    if (!synthetic) {
      o.allowSyntheticDefaultImports = false;
      adjustments.push('allowSyntheticDefaultImports: false');
    }
  }
  if (o.ignoreDeprecations === undefined && deprecatedIn6(o)) {
    o.ignoreDeprecations = '6.0';
    adjustments.push('ignoreDeprecations: "6.0"');
  }
  return { options: o, adjustments };
}

/** Whether TypeScript 6 reports one of the options as deprecated (its `checkDeprecations("6.0")`). */
function deprecatedIn6(o: ts.CompilerOptions): boolean {
  return (
    o.alwaysStrict === false ||
    o.target === ts.ScriptTarget.ES5 ||
    o.moduleResolution === ts.ModuleResolutionKind.Node10 ||
    o.moduleResolution === ts.ModuleResolutionKind.Classic ||
    o.baseUrl !== undefined ||
    o.esModuleInterop === false ||
    o.allowSyntheticDefaultImports === false ||
    !!o.outFile ||
    o.module === ts.ModuleKind.None ||
    o.module === ts.ModuleKind.AMD ||
    o.module === ts.ModuleKind.UMD ||
    o.module === ts.ModuleKind.System
  );
}
