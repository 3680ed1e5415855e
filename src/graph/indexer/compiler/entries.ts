// The files something outside the code names as ways in (ADR 157): what `kg unused` may never call
// unused, because code it cannot see (a package's users, a test runner, a bundler) starts there.
//
// - every package.json of the walk: `main`, `module`, `browser`, `types`, `typings`, each string
//   of `exports` (its conditions and subpaths) and of `bin`;
// - every tsconfig's own `files` list;
// - the repository config's `entries` patterns (gitignore's spelling).
//
// A package.json target usually names build output (`dist/index.js`): it is placed on a source
// file of the graph by its own name with a source extension, then through the `outDir` (or
// `declarationDir`) of a project, back under that project's `rootDir` (or its folder, or `src`).
// A target placed on nothing is kept, `unplaced`, so that the answer can say what it could not
// place rather than call a package's public API unused.

import * as path from 'node:path';
import * as ts from 'typescript';
import type { BuildDiagnostic, EntryFile } from '../../model';
import type { FileHost } from '../files/file-host';
import { patternRegex } from '../files/gitignore';
import { CONFIG_FILE, readRepositoryConfig } from '../files/repository-config';
import { readText, type Discovery } from './discover';

const STRING_FIELDS = ['main', 'module', 'browser', 'types', 'typings'] as const;
const OUTPUT_EXTENSION = /(\.d)?\.(m|c)?(j|t)sx?$/;
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** How deep an `exports` map is walked: conditions nest a few levels at most. */
const MAX_EXPORTS_DEPTH = 8;

/** Every string target of a package.json's entry fields, with its field. */
function packageTargets(pkg: Record<string, unknown>): Array<{ field: string; target: string }> {
  const out: Array<{ field: string; target: string }> = [];
  for (const field of STRING_FIELDS) if (typeof pkg[field] === 'string') out.push({ field, target: pkg[field] });
  const bin = pkg.bin;
  if (typeof bin === 'string') out.push({ field: 'bin', target: bin });
  else if (bin !== null && typeof bin === 'object' && !Array.isArray(bin))
    for (const v of Object.values(bin)) if (typeof v === 'string') out.push({ field: 'bin', target: v });
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') out.push({ field: 'exports', target: v });
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === 'object' && depth < MAX_EXPORTS_DEPTH) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(pkg.exports, 0);
  return out;
}

/** The source files of the graph a package.json target may be built from, sorted. */
function place(
  root: string,
  target: string,
  projects: Discovery['projects'],
  sources: ReadonlySet<string>,
  sorted: readonly string[],
): string[] {
  const star = target.indexOf('*');
  const bases = [target.replace(OUTPUT_EXTENSION, '')];
  for (const p of projects) {
    const dir = path.posix.dirname(p.configPath);
    for (const out of [p.options.outDir, p.options.declarationDir]) {
      if (out === undefined) continue;
      const outRel = path.posix.relative(root, out.replace(/\\/g, '/'));
      if (outRel === '' || !target.startsWith(outRel + '/')) continue;
      const rest = bases[0].slice(outRel.length + 1);
      const rootDir = p.options.rootDir?.replace(/\\/g, '/');
      const roots = rootDir !== undefined ? [path.posix.relative(root, rootDir)] : [dir, path.posix.join(dir, 'src')];
      for (const r of roots) bases.push(path.posix.normalize(path.posix.join(r === '' ? '.' : r, rest)));
    }
  }
  if (star >= 0) {
    // A subpath pattern (`./*` → `./dist/*.js`): every source file under what precedes the star.
    const found = new Set<string>();
    for (const b of bases) {
      const prefix = b.slice(0, b.indexOf('*'));
      if (prefix === '' || b.indexOf('*') < 0) continue;
      for (const f of sorted) if (f.startsWith(prefix)) found.add(f);
    }
    return [...found].sort();
  }
  if (sources.has(target)) return [target];
  for (const b of bases)
    for (const candidate of [b, `${b}/index`])
      for (const ext of SOURCE_EXTENSIONS) if (sources.has(candidate + ext)) return [candidate + ext];
  return [];
}

/** The entry files of the repository: sorted by path, from, field, each once. */
export function entryFiles(host: FileHost, d: Discovery, sources: ReadonlySet<string>, diagnostics: BuildDiagnostic[]): EntryFile[] {
  const root = d.root;
  const sorted = [...sources].sort();
  const out = new Map<string, EntryFile>();
  const add = (e: EntryFile) => out.set(`${e.path}\0${e.from}\0${e.field}`, e);
  for (const pj of d.packageJsonFiles) {
    let pkg: unknown;
    try {
      pkg = JSON.parse(readText(host, root + '/' + pj));
    } catch {
      continue; // a package.json that does not parse names nothing
    }
    if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg)) continue;
    const dir = path.posix.dirname(pj);
    for (const { field, target } of packageTargets(pkg as Record<string, unknown>)) {
      const rel = path.posix.normalize(path.posix.join(dir, target));
      if (rel.startsWith('../') || rel === '..' || path.posix.isAbsolute(rel)) continue;
      const placed = place(root, rel, d.projects, sources, sorted);
      if (placed.length === 0) add({ path: rel, from: pj, field, unplaced: true });
      for (const p of placed) add({ path: p, from: pj, field });
    }
  }
  for (const project of d.projects) {
    if (project.configPath === '') continue;
    const abs = root + '/' + project.configPath;
    const read = ts.readConfigFile(abs, (p) => {
      try {
        return readText(host, p);
      } catch {
        return undefined;
      }
    });
    const files = (read.config as { files?: unknown } | undefined)?.files;
    if (!Array.isArray(files)) continue;
    for (const f of files) {
      if (typeof f !== 'string') continue;
      const rel = path.posix.normalize(path.posix.join(path.posix.dirname(project.configPath), f));
      if (sources.has(rel)) add({ path: rel, from: project.configPath, field: 'files' });
    }
  }
  for (const pattern of configuredEntries(host, root, diagnostics)) {
    const re = patternRegex(pattern);
    for (const f of sorted) if (re.test(f)) add({ path: f, from: CONFIG_FILE, field: 'entries' });
  }
  return [...out.values()].sort((a, b) => compare(a.path, b.path) || compare(a.from, b.from) || compare(a.field, b.field));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The config's `entries`: gitignore-style patterns of files that are ways in; each bad one reported. */
function configuredEntries(host: FileHost, root: string, diagnostics: BuildDiagnostic[]): string[] {
  const v = readRepositoryConfig(host, root).value.entries;
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    diagnostics.push({ path: CONFIG_FILE, reason: 'config: "entries" must be a list of file patterns; ignored' });
    return [];
  }
  const out: string[] = [];
  for (const p of v) {
    if (typeof p === 'string' && p.trim() !== '' && !p.startsWith('!')) out.push(p.trim());
    else
      diagnostics.push({
        path: CONFIG_FILE,
        reason: `config: "entries" holds ${JSON.stringify(p).slice(0, 60)}, not a file pattern; ignored`,
      });
  }
  return out;
}
