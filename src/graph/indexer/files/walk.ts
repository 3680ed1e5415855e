// The walk: the repository's files, once, in sorted order — honouring .gitignore, never entering
// node_modules, .git or .knowledge-graph, never following symbolic links, leaving out vendored and
// generated sources and Markdown (vendored.ts, ADR 98) unless the repository config keeps them. It needs no compiler, so
// what reads the tree without building (staleness, for queries and the editor) stays light.

import * as path from 'node:path';
import type { BuildDiagnostic } from '../../model';
import { compareStrings } from '../../model';
import type { EntryType, FileHost } from './file-host';
import { matcherFor, parseGitignore, type IgnoreRule } from './gitignore';
import { GRAPH_DIR } from '../../io/graph-location';
import { inputFile } from './git-info';
import { countSkip, type SkipCounts } from './skips';
import { CONFIG_FILE, configSection, readRepositoryConfig, reportUnknownKeys } from './repository-config';
import { leftOut, linguistOf, parseGitattributes, type AttributeRule, type VendoredSettings } from './vendored';
import { COMPONENT_EXTENSIONS } from '../components/kinds';

/** Scripts, and the single-file components the language tools turn into TypeScript (ADR 169). */
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', ...COMPONENT_EXTENSIONS];
const CONFIG_NAMES = new Set(['tsconfig.json', 'jsconfig.json']);
/** Directories never entered: version control, installed packages, our own output. */
const NEVER_ENTER = new Set(['.git', 'node_modules', GRAPH_DIR]);

export function isSourceFileName(name: string): boolean {
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext)) && !name.endsWith('.json');
}

/**
 * Files of types the graph does not read but which can use TypeScript and JavaScript code: single-file
 * components, pages and templates (ADR 153). Lower case; a type the graph comes to read leaves this list.
 */
const UNANALYSED_EXTENSIONS: readonly string[] = ['.astro', '.htm', '.html', '.mdx'];

/** The extension of a file the graph does not read but that may use its code (lower case), or undefined. */
function unanalysedExtension(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const ext = name.slice(dot).toLowerCase();
  return UNANALYSED_EXTENSIONS.includes(ext) ? ext : undefined;
}

export interface WalkResult {
  /** Absolute POSIX root, no trailing slash. */
  root: string;
  /** Repo-relative source files, sorted. */
  sourceFiles: string[];
  /** Repo-relative config files found by the walk, sorted. */
  configFiles: string[];
  /** Repo-relative markdown files, sorted. */
  markdownFiles: string[];
  /** Repo-relative package.json files, sorted. */
  packageJsonFiles: string[];
  /**
   * Repo-relative files of the types the graph does not read but which may use its code (`.astro`,
   * `.html`, `.htm`, `.mdx`; a component the language tools could not read, ADR 169), sorted;
   * vendored and generated ones left out (ADR 153).
   */
  unanalysedFiles: string[];
  /** Walked directories (absolute) → their non-ignored entries, for tsconfig `include` globs. */
  entries: Map<string, { files: string[]; directories: string[] }>;
  /**
   * Walked directories (absolute) → every entry read there, ignored ones too, by name and type (not
   * following links): what exists in them as the walk saw it, so import resolution need not ask the
   * disk again (ADR 134). A directory with a name that is not valid UTF-8 is left out.
   */
  listed: Map<string, ReadonlyMap<string, EntryType>>;
  diagnostics: BuildDiagnostic[];
  /** Source files and folders passed over because a .gitignore rule matched them. */
  ignoredByGitignore: number;
  /** How many files the diagnostics stand for (one diagnostic may stand for a vendored folder's files). */
  skippedFiles: number;
  /** The skipped files counted by short reason (skips.ts); they add up to `skippedFiles`. */
  skippedBy: SkipCounts;
  /** Source and Markdown files left out as vendored or generated (ADR 98). */
  vendoredFiles: number;
  /** Problems in the repository config's `files` section (nothing was skipped for them). */
  configDiagnostics: BuildDiagnostic[];
}

const FILES_SECTION = 'files';

/** The `files` section of .knowledge-graph/config.json: whether vendored and generated files are kept. */
function vendoredSettings(host: FileHost, root: string, diagnostics: BuildDiagnostic[]): VendoredSettings {
  const section = configSection(readRepositoryConfig(host, root).value, FILES_SECTION, diagnostics);
  reportUnknownKeys(section, FILES_SECTION, ['includeGenerated', 'includeVendored'], diagnostics);
  const flag = (key: string): boolean => {
    const v = section[key];
    if (v === undefined || typeof v === 'boolean') return v === true;
    diagnostics.push({ path: CONFIG_FILE, reason: `config: "${FILES_SECTION}.${key}" must be true or false; using false` });
    return false;
  };
  return { includeVendored: flag('includeVendored'), includeGenerated: flag('includeGenerated') };
}

function readAttributes(host: FileHost, abs: string, base: string): AttributeRule[] | undefined {
  try {
    return parseGitattributes(new TextDecoder().decode(host.readFile(abs)), base);
  } catch {
    return undefined;
  }
}

function errorCode(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'error';
}

/**
 * A backslash in a name: the TypeScript compiler reads every `\` in a path as a folder separator
 * (`src/a\b.ts` is `src/a/b.ts` to it), so it would read another file or none, and a graph path
 * never holds one (schema/graph.schema.json's `repoPath`). The file, or the folder with all it
 * holds, is skipped with this reason (issue 55).
 */
const BACKSLASH = 'skipped: the name holds a backslash, which the TypeScript compiler reads as a folder separator';

/** Why a symbolic link was skipped: links are reported, never followed (ADR-2). */
function describeLink(host: FileHost, abs: string): string {
  let real: string;
  try {
    real = host.realpath(abs);
  } catch (e) {
    return errorCode(e) === 'ELOOP' ? 'symbolic link loop (not followed)' : 'dangling symbolic link (not followed)';
  }
  const parent = path.posix.dirname(abs);
  if (parent === real || parent.startsWith(real + '/')) return 'symbolic link loop (not followed)';
  return 'symbolic link (not followed)';
}

/** A directory's own ignore rules and attributes, added to those of the directories above it. */
function readFolderRules(
  host: FileHost,
  absDir: string,
  dir: string,
  entries: ReturnType<FileHost['readDir']>,
  rules: Map<string, IgnoreRule[]>,
  attributes: Map<string, AttributeRule[]>,
  skip: (d: BuildDiagnostic, short: string) => void,
): void {
  const gitignore = entries.find((e) => e.name === '.gitignore' && e.type === 'file');
  if (gitignore) {
    try {
      const text = new TextDecoder().decode(host.readFile(absDir + '/.gitignore'));
      rules.set(dir, [...(rules.get(dir) ?? []), ...parseGitignore(text, dir)]);
    } catch (e) {
      skip({ path: (dir ? dir + '/' : '') + '.gitignore', reason: `unreadable file (${errorCode(e)})` }, 'unreadable');
    }
  }
  if (entries.some((e) => e.name === '.gitattributes' && e.type === 'file')) {
    const rules = readAttributes(host, absDir + '/.gitattributes', dir);
    if (rules === undefined) skip({ path: (dir ? dir + '/' : '') + '.gitattributes', reason: 'unreadable file' }, 'unreadable');
    else if (rules.length > 0) attributes.set(dir, rules);
  }
}

/** Counts the skipped files, and adds one diagnostic per vendored or generated group. */
function countVendored(out: WalkResult, vendored: Iterable<{ at: string; why: string; short: string; files: string[] }>): void {
  out.skippedFiles = out.diagnostics.length;
  const keep = `set "${FILES_SECTION}": {"includeVendored": true} (or "includeGenerated") in ${CONFIG_FILE} to keep them`;
  for (const g of vendored) {
    out.vendoredFiles += g.files.length;
    out.skippedFiles += g.files.length;
    countSkip(out.skippedBy, g.short, g.files.length);
    out.diagnostics.push(
      g.files.length === 1
        ? { path: g.files[0], reason: `skipped: ${g.why}; ${keep.replace('them', 'it')}` }
        : { path: g.at, reason: `${g.files.length} files skipped: ${g.why}; ${keep}` },
    );
  }
}

/** A walk that has found nothing yet. */
function emptyWalk(root: string): WalkResult {
  return {
    root,
    sourceFiles: [],
    configFiles: [],
    markdownFiles: [],
    packageJsonFiles: [],
    unanalysedFiles: [],
    entries: new Map(),
    listed: new Map(),
    diagnostics: [],
    ignoredByGitignore: 0,
    skippedFiles: 0,
    skippedBy: {},
    vendoredFiles: 0,
    configDiagnostics: [],
  };
}

/** Walks the tree under `root` with an explicit stack, in sorted order. */
export function walk(host: FileHost, root: string): WalkResult {
  const out = emptyWalk(root);

  const settings = vendoredSettings(host, root, out.configDiagnostics);
  const attributes = new Map<string, AttributeRule[]>();
  const infoAttributes = readAttributes(host, inputFile(host, root, '.git/info/attributes'), '') ?? [];
  /** Vendored or generated files, grouped by the folder (or file) and reason their diagnostic names. */
  const vendored = new Map<string, { at: string; why: string; short: string; files: string[] }>();
  /** Records a diagnostic that stands for one skipped file or folder, counted under `short`. */
  const skip = (d: BuildDiagnostic, short: string) => {
    out.diagnostics.push(d);
    countSkip(out.skippedBy, short);
  };
  const rules = new Map<string, IgnoreRule[]>();
  try {
    const exclude = new TextDecoder().decode(host.readFile(inputFile(host, root, '.git/info/exclude')));
    rules.set('', parseGitignore(exclude, ''));
  } catch {
    // no repository-local excludes
  }
  const stack: string[] = [''];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    const absDir = dir === '' ? root : root + '/' + dir;
    let entries;
    try {
      entries = host.readDir(absDir);
    } catch (e) {
      skip({ path: dir === '' ? '.' : dir, reason: `unreadable directory (${errorCode(e)})` }, 'unreadable');
      continue;
    }
    entries.sort((a, b) => compareStrings(a.name, b.name));
    readFolderRules(host, absDir, dir, entries, rules, attributes, skip);
    const listing = { files: [] as string[], directories: [] as string[] };
    out.entries.set(absDir, listing);
    if (entries.every((e) => e.validName)) out.listed.set(absDir, new Map(entries.map((e) => [e.name, e.type])));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const rel = dir === '' ? entry.name : dir + '/' + entry.name;
      if (!entry.validName) {
        skip({ path: rel, reason: 'file name is not valid UTF-8' }, 'name not UTF-8');
        continue;
      }
      if (entry.type === 'directory') {
        if (NEVER_ENTER.has(entry.name)) continue;
        if (matcherFor(rules, rel, true)) {
          out.ignoredByGitignore++;
          continue;
        }
        if (entry.name.includes('\\')) {
          skip({ path: rel, reason: BACKSLASH }, 'backslash in name');
          continue;
        }
        listing.directories.push(entry.name);
        subdirs.push(rel);
        continue;
      }
      if (matcherFor(rules, rel, false)) {
        if (isSourceFileName(entry.name)) out.ignoredByGitignore++;
        continue;
      }
      if (entry.name.includes('\\')) {
        if (isSourceFileName(entry.name) || /\.(md|markdown)$/i.test(entry.name))
          skip({ path: rel, reason: BACKSLASH }, 'backslash in name');
        continue;
      }
      if (entry.type === 'symlink') {
        const target = host.stat(root + '/' + rel);
        if (isSourceFileName(entry.name) || target === undefined || target.type === 'directory') {
          skip({ path: rel, reason: describeLink(host, root + '/' + rel) }, 'symbolic link');
        }
        continue;
      }
      if (entry.type !== 'file') {
        if (isSourceFileName(entry.name)) skip({ path: rel, reason: 'not a regular file' }, 'not a regular file');
        continue;
      }
      const markdown = /\.(md|markdown)$/i.test(entry.name);
      if (isSourceFileName(entry.name) || markdown) {
        const out_ = leftOut(rel, linguistOf(attributes, rel, infoAttributes), settings);
        if (out_) {
          const key = `${out_.at}\0${out_.why}`;
          const group = vendored.get(key) ?? { ...out_, files: [] };
          group.files.push(rel);
          vendored.set(key, group);
          continue;
        }
      }
      listing.files.push(entry.name);
      if (unanalysedExtension(entry.name) !== undefined) {
        // Vendored and generated ones are left out as sources are, but silently: they were never read.
        if (!leftOut(rel, linguistOf(attributes, rel, infoAttributes), settings)) out.unanalysedFiles.push(rel);
        continue;
      }
      if (isSourceFileName(entry.name)) out.sourceFiles.push(rel);
      else if (CONFIG_NAMES.has(entry.name)) out.configFiles.push(rel);
      else if (entry.name === 'package.json') out.packageJsonFiles.push(rel);
      else if (markdown) out.markdownFiles.push(rel);
    }
    // Push in reverse so the stack pops directories in sorted order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]);
  }
  for (const list of [out.sourceFiles, out.configFiles, out.markdownFiles, out.packageJsonFiles, out.unanalysedFiles]) {
    list.sort(compareStrings);
  }
  countVendored(out, vendored.values());
  out.diagnostics.sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason));
  return out;
}
