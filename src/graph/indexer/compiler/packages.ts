// Package-qualified symbols (ADR 107): the checker placed a call on a declaration in a package's
// declaration file (`.d.ts`); this module decides whether the step from that file to the
// package's source is proven, and by what.
//
// - The package's own declaration map (`x.d.ts.map` beside `x.d.ts`) names the source file and
//   position of the declaration's name: EXACT_TYPECHECKED.
// - Its build configuration does: package.json declares its types (`types`, `typings` or an
//   `exports` `types` condition) under the declaration output of a tsconfig the package ships
//   (`tsconfig.json` or a project it references), whose `rootDir` maps the file back to a source
//   file the package ships or the workspace holds: EXACT_PACKAGE_MAPPED.
// - Otherwise nothing is proven and the call stays UNRESOLVED `external`.
//
// Only `.d.ts`, `.d.ts.map`, `package.json` and tsconfig files of a package are ever read (and a
// source file's existence checked); nothing of it is run.

import * as path from 'node:path';
import * as ts from 'typescript';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { parseId } from '../../ids';
import type { FileHost } from '../files/file-host';
import { readText } from './discover';
import { extractFile } from './extract';
import { boundedPackageJson } from './imports';

/** Where a declaration in a declaration file was placed in source, and by which proof. */
export type Placement =
  /** In an installed package: a package-qualified symbol (`path` relative to the package root). */
  | { kind: 'package'; pkg: string; version: string; path: string; name: string; proof: 'map' | 'config' }
  /**
   * In a file of this graph (a workspace package's built output): at the name's position (0-based
   * line and UTF-16 character) when a map gave one, and by the declared name otherwise.
   */
  | { kind: 'graph'; path: string; position?: { line: number; character: number }; name: string; proof: 'map' | 'config' };

interface PackageInfo {
  /** Absolute directory of the package. */
  dir: string;
  name?: string;
  version?: string;
  /** Absolute paths package.json declares its types at (types, typings, `types` conditions of exports). */
  typesEntries: string[];
  /** Declaration output folder → source folder, from the package's tsconfigs; computed on first use. */
  outputs?: Array<{ declDir: string; rootDir: string }>;
}

const DECLARATION_EXTENSIONS: ReadonlyArray<[string, string[]]> = [
  ['.d.mts', ['.mts']],
  ['.d.cts', ['.cts']],
  ['.d.ts', ['.ts', '.tsx']],
];

/** How many tsconfig files of one package are read at most (a reference cycle or a huge solution). */
const MAX_CONFIGS = 16;

function declarationExtension(file: string): [string, string[]] | undefined {
  return DECLARATION_EXTENSIONS.find(([ext]) => file.endsWith(ext));
}

function inside(dir: string, file: string): boolean {
  return file.startsWith(dir + '/');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every string under a `types` key of an `exports` value (conditions nest), plus bare `.d.ts` targets. */
function exportTypes(value: unknown, out: string[], underTypes: boolean): void {
  if (typeof value === 'string') {
    if (underTypes || declarationExtension(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) exportTypes(v, out, underTypes);
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) exportTypes(v, out, underTypes || k === 'types');
  }
}

export class PackageSymbols {
  private readonly packages = new Map<string, PackageInfo | undefined>();
  private readonly maps = new Map<string, TraceMap | undefined>();
  private readonly names = new Map<string, ReadonlyMap<number, string>>();

  constructor(
    private readonly host: FileHost,
    /** Absolute repository root. */
    private readonly root: string,
    /** Whether a repository-relative path is a file of this graph. */
    private readonly isGraphFile: (rel: string) => boolean,
  ) {}

  /**
   * The placement of the declaration whose name starts at `nameStart` in the declaration file
   * `dsf`, or undefined when nothing proves where its source is.
   */
  place(dsf: ts.SourceFile, nameStart: number): Placement | undefined {
    const file = dsf.fileName;
    if (!declarationExtension(file)) return undefined;
    const name = this.declaredName(dsf, nameStart);
    if (name === undefined) return undefined;
    const pkg = this.packageOf(file);
    if (!pkg) return undefined;
    return this.byMap(dsf, nameStart, name, pkg) ?? this.byConfig(file, name, pkg);
  }

  /** The name the extraction gives the declaration (`Class.method`, `default`), from the declaration file itself. */
  private declaredName(dsf: ts.SourceFile, nameStart: number): string | undefined {
    let names = this.names.get(dsf.fileName);
    if (!names) {
      const byStart = new Map<number, string>();
      for (const [start, id] of extractFile(dsf, 'x.d.ts').declarations) {
        const p = parseId(id);
        if (p?.prefix === 'sym') byStart.set(start, p.name);
      }
      names = byStart;
      this.names.set(dsf.fileName, names);
    }
    return names.get(nameStart);
  }

  /** The package a declaration file belongs to: below the last `node_modules`, or the nearest package.json in the repository. */
  private packageOf(file: string): PackageInfo | undefined {
    const parts = file.split('/');
    const nm = parts.lastIndexOf('node_modules');
    let dir: string | undefined;
    if (nm >= 0) {
      const scoped = parts[nm + 1]?.startsWith('@');
      const end = nm + (scoped ? 3 : 2);
      if (end >= parts.length) return undefined;
      dir = parts.slice(0, end).join('/');
    } else if (inside(this.root, file)) {
      for (let d = path.posix.dirname(file); d.length > this.root.length; d = path.posix.dirname(d)) {
        if (this.host.stat(d + '/package.json')?.type === 'file') {
          dir = d;
          break;
        }
      }
    }
    if (dir === undefined) return undefined;
    if (this.packages.has(dir)) return this.packages.get(dir);
    const info = this.readPackage(dir, nm >= 0);
    this.packages.set(dir, info);
    return info;
  }

  private readPackage(dir: string, installed: boolean): PackageInfo | undefined {
    let json: unknown;
    try {
      // Bounded as the resolver reads it, which reports it: `exports` is walked recursively below.
      const text = boundedPackageJson(readText(this.host, dir + '/package.json')).text;
      if (text === undefined) return undefined;
      json = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isObject(json)) return undefined;
    const name = typeof json.name === 'string' && json.name !== '' ? json.name : undefined;
    const version = typeof json.version === 'string' && json.version !== '' ? json.version : undefined;
    // An installed package is named by its name and version, or not at all.
    if (installed && (name === undefined || version === undefined)) return undefined;
    const entries: string[] = [];
    for (const key of ['types', 'typings']) if (typeof json[key] === 'string') entries.push(json[key]);
    exportTypes(json.exports, entries, false);
    const typesEntries = entries.map((e) => path.posix.resolve(dir, e)).filter((e) => inside(dir, e));
    return { dir, name, version, typesEntries };
  }

  private placed(pkg: PackageInfo, source: string, name: string, proof: 'map' | 'config'): Placement | undefined {
    if (pkg.name !== undefined && pkg.version !== undefined && inside(pkg.dir, source) && pkg.dir.split('/').includes('node_modules')) {
      return { kind: 'package', pkg: pkg.name, version: pkg.version, path: source.slice(pkg.dir.length + 1), name, proof };
    }
    if (!inside(this.root, source)) return undefined;
    const rel = source.slice(this.root.length + 1);
    if (rel.split('/').includes('node_modules') || !this.isGraphFile(rel)) return undefined;
    return { kind: 'graph', path: rel, name, proof };
  }

  private traceMap(file: string): TraceMap | undefined {
    const mapFile = file + '.map';
    if (this.maps.has(mapFile)) return this.maps.get(mapFile);
    let map: TraceMap | undefined;
    try {
      if (this.host.stat(mapFile)?.type === 'file') map = new TraceMap(readText(this.host, mapFile), mapFile);
    } catch {
      map = undefined; // a map that does not parse proves nothing
    }
    this.maps.set(mapFile, map);
    return map;
  }

  /** The package's declaration map names the source file and position of the declaration's name. */
  private byMap(dsf: ts.SourceFile, nameStart: number, name: string, pkg: PackageInfo): Placement | undefined {
    const map = this.traceMap(dsf.fileName);
    if (!map) return undefined;
    const at = dsf.getLineAndCharacterOfPosition(nameStart);
    const orig = originalPositionFor(map, { line: at.line + 1, column: at.character });
    if (orig.source === null || orig.line === null || orig.column === null) return undefined;
    // A source named by URL (`webpack://…`, `file://…`) is no file of the package.
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(orig.source)) return undefined;
    const source = path.posix.resolve(path.posix.dirname(dsf.fileName), orig.source);
    if (!inside(pkg.dir, source)) return undefined;
    const placement = this.placed(pkg, source, name, 'map');
    if (placement?.kind === 'graph') return { ...placement, position: { line: orig.line - 1, character: orig.column } };
    return placement;
  }

  /** The package's build configuration maps the declaration file back to a source file. */
  private byConfig(file: string, name: string, pkg: PackageInfo): Placement | undefined {
    const ext = declarationExtension(file);
    if (!ext) return undefined;
    for (const { declDir, rootDir } of this.outputsOf(pkg)) {
      if (!inside(declDir, file)) continue;
      // package.json must declare its types from this build's output.
      if (!pkg.typesEntries.some((e) => inside(declDir, e))) continue;
      const stem = file.slice(declDir.length + 1, file.length - ext[0].length);
      for (const sourceExt of ext[1]) {
        const source = rootDir + '/' + stem + sourceExt;
        if (!inside(pkg.dir, source) || this.host.stat(source)?.type !== 'file') continue;
        const placement = this.placed(pkg, source, name, 'config');
        if (placement) return placement;
      }
    }
    return undefined;
  }

  /** Declaration output → source folders of the package's tsconfig.json and the projects it references. */
  private outputsOf(pkg: PackageInfo): Array<{ declDir: string; rootDir: string }> {
    if (pkg.outputs) return pkg.outputs;
    const outputs: Array<{ declDir: string; rootDir: string }> = [];
    const queue = [pkg.dir + '/tsconfig.json'];
    const seen = new Set<string>();
    const parseHost: ts.ParseConfigHost = {
      useCaseSensitiveFileNames: true,
      // The file list is not needed, only the options: no directory is listed.
      readDirectory: () => [],
      fileExists: (f) => f.endsWith('.json') && this.host.stat(f)?.type === 'file',
      readFile: (f) => {
        if (!f.endsWith('.json')) return undefined;
        try {
          return readText(this.host, f);
        } catch {
          return undefined;
        }
      },
    };
    while (queue.length > 0 && seen.size < MAX_CONFIGS) {
      const config = queue.shift() as string;
      if (seen.has(config) || !inside(pkg.dir, config)) continue;
      seen.add(config);
      const text = parseHost.readFile(config);
      if (text === undefined) continue;
      const json = ts.parseConfigFileTextToJson(config, text);
      if (json.error || !isObject(json.config)) continue;
      const dir = path.posix.dirname(config);
      const parsed = ts.parseJsonConfigFileContent(json.config, parseHost, dir, undefined, config);
      const o = parsed.options;
      const declDir = o.declarationDir ?? o.outDir;
      const rootDir = o.rootDir ?? (o.composite ? dir : undefined);
      if ((o.declaration || o.composite) && declDir !== undefined && rootDir !== undefined) {
        outputs.push({ declDir: path.posix.resolve(declDir), rootDir: path.posix.resolve(rootDir) });
      }
      for (const ref of parsed.projectReferences ?? []) {
        const target = path.posix.resolve(ref.path);
        queue.push(target.endsWith('.json') ? target : target + '/tsconfig.json');
      }
    }
    pkg.outputs = outputs;
    return outputs;
  }
}
