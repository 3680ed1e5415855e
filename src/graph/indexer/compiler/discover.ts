// Discovery: walk the repository once (honouring .gitignore, never entering node_modules or
// .git, never following symbolic links), then read every tsconfig/jsconfig project — including
// the configs their `references` name — and give each source file one owning project.

import * as path from 'node:path';
import * as ts from 'typescript';
import { GraphError } from '../../errors';
import type { BuildDiagnostic } from '../../model';
import { compareStrings } from '../../model';
import type { FileHost } from '../files/file-host';
import { countSkip, type SkipCounts } from '../files/skips';
import { walk, type WalkResult } from '../files/walk';
import { repositoryTypeScript, withTypeScript5Semantics } from './semantics';
import { COMPONENT_EXTENSIONS } from '../components/kinds';

export { isSourceFileName } from '../files/walk';

export interface Project {
  /** Repo-relative path of the config file; '' for the project of files outside every config. */
  configPath: string;
  options: ts.CompilerOptions;
  projectReferences: readonly ts.ProjectReference[] | undefined;
  /** Repo-relative paths of the discovered source files this project includes. */
  files: string[];
}

export interface Discovery extends WalkResult {
  /** Problems in config files (unknown options, missing `extends`); nothing was skipped for them. */
  configDiagnostics: BuildDiagnostic[];
  /** How many source files the walk and the project rules passed over. */
  skippedFiles: number;
  projects: Project[];
  /** The project that owns each source file (repo-relative path → project). */
  owner: Map<string, Project>;
  /** Repo-relative output folders (`outDir`, `declarationDir`) whose unowned files are skipped as build output. */
  outputDirs: string[];
}

/** Components a config's `include` can name, as `vue-tsc` and `svelte-check` let it (ADR 169). */
const COMPONENT_FILES: readonly ts.FileExtensionInfo[] = COMPONENT_EXTENSIONS.map((extension) => ({
  extension,
  isMixedContent: true,
  scriptKind: ts.ScriptKind.Deferred,
}));

/** Options for files no config includes: what an editor would infer for them. */
export function looseOptions(): ts.CompilerOptions {
  return {
    allowJs: true,
    checkJs: false,
    jsx: ts.JsxEmit.Preserve,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ESNext,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    esModuleInterop: true,
    noEmit: true,
    skipLibCheck: true,
  };
}

type MatchFiles = (
  path: string,
  extensions: readonly string[] | undefined,
  excludes: readonly string[] | undefined,
  includes: readonly string[] | undefined,
  useCaseSensitiveFileNames: boolean,
  currentDirectory: string,
  depth: number | undefined,
  getFileSystemEntries: (path: string) => { files: readonly string[]; directories: readonly string[] },
  realpath: (path: string) => string,
) => string[];

/**
 * TypeScript's own include/exclude matcher. It is not part of the public API, but the compiler
 * is pinned and bundled, so the internal function is a fixed dependency, checked here.
 */
function tsMatchFiles(): MatchFiles {
  const fn = (ts as unknown as { matchFiles?: MatchFiles }).matchFiles;
  if (typeof fn !== 'function') throw new Error('the bundled TypeScript lacks matchFiles');
  return fn;
}

function toPosixPath(p: string): string {
  return p.replace(/\\/g, '/').replace(/\/+$/, '');
}

export function readText(host: FileHost, abs: string): string {
  const text = new TextDecoder('utf-8').decode(host.readFile(abs));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A path that is not plain segments: `//`, `/./`, `/../`, or a trailing `/`, `/.`, `/..`. */
const ODD_SEGMENT = /\/(\.\.?)?(\/|$)/;

/** The compiler's host for parsing configs: folders as the walk listed them, files read through `host`. */
function parseHostOf(host: FileHost, root: string, entries: WalkResult['entries']): ts.ParseConfigHost {
  const matchFiles = tsMatchFiles();
  return {
    useCaseSensitiveFileNames: true,
    readDirectory: (rootDir, extensions, excludes, includes, depth) =>
      matchFiles(
        rootDir,
        extensions,
        excludes,
        includes,
        true,
        root,
        depth,
        (p) => {
          return entries.get(p.replace(/\/+$/, '')) ?? { files: [], directories: [] };
        },
        (p) => p,
      ),
    fileExists: (p) => host.stat(p)?.type === 'file',
    readFile: (p) => {
      try {
        return readText(host, p);
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * The project's own compiler semantics (ADR 81): TypeScript 5's defaults where the repository is
 * written for TypeScript 5 (or does not say) and the config leaves an option unset.
 */
function ownSemantics(
  host: FileHost,
  root: string,
  abs: string,
  configRel: string,
  parsed: ts.CompilerOptions,
  configDiagnostics: BuildDiagnostic[],
): ts.CompilerOptions {
  let options = parsed;
  const own = repositoryTypeScript(host, root, path.posix.dirname(abs));
  if (own.major === undefined || own.major < 6) {
    const adjusted = withTypeScript5Semantics(options);
    options = adjusted.options;
    if (adjusted.adjustments.length > 0) {
      const which = own.from === undefined ? 'no TypeScript version found' : `typescript ${own.version} in ${own.from}`;
      configDiagnostics.push({ path: configRel, reason: `TypeScript 5 semantics (${which}): ${adjusted.adjustments.join(', ')}` });
    }
  }
  return options;
}

/** Each file's owner: the including project whose config sits deepest, ties by config path. */
function ownersOf(projects: readonly Project[]): Map<string, Project> {
  const owner = new Map<string, Project>();
  const depth = (p: Project) => path.posix.dirname(p.configPath).split('/').length;
  for (const project of projects) {
    for (const f of project.files) {
      const cur = owner.get(f);
      if (!cur || depth(project) > depth(cur)) owner.set(f, project);
    }
  }
  return owner;
}

/** Parses every config the walk found and every config their references name. */
export function discover(host: FileHost, root: string): Discovery {
  const walked = walk(host, root);
  const diagnostics = walked.diagnostics;
  const configDiagnostics: BuildDiagnostic[] = [...walked.configDiagnostics];
  let skippedFiles = walked.skippedFiles;
  const skippedBy: SkipCounts = { ...walked.skippedBy };
  const sourceSet = new Set(walked.sourceFiles);
  // Most paths are the compiler's normalized ones under the root: a slice, not path.relative's work.
  const rel = (abs: string) =>
    abs.startsWith(root + '/') && !ODD_SEGMENT.test(abs) ? abs.slice(root.length + 1) : path.posix.relative(root, abs);
  const insideRoot = (abs: string) => abs === root || abs.startsWith(root + '/');
  const parseHost = parseHostOf(host, root, walked.entries);

  const projects: Project[] = [];
  const seen = new Set<string>();
  const queue = [...walked.configFiles.map((c) => root + '/' + c)];
  while (queue.length > 0) {
    const abs = queue.shift() as string;
    if (seen.has(abs)) continue;
    seen.add(abs);
    const configRel = rel(abs);
    const read = ts.readConfigFile(abs, parseHost.readFile);
    if (read.error) {
      if (host.stat(abs) === undefined) {
        configDiagnostics.push({ path: configRel, reason: 'referenced project config does not exist' });
        continue;
      }
      const where =
        read.error.file && read.error.start !== undefined
          ? (() => {
              const lc = read.error.file.getLineAndCharacterOfPosition(read.error.start);
              return `:${lc.line + 1}:${lc.character + 1}`;
            })()
          : '';
      throw new GraphError(
        'TSCONFIG_UNPARSABLE',
        `${configRel}${where}: cannot parse: ${ts.flattenDiagnosticMessageText(read.error.messageText, ' ')}`,
      );
    }
    const existing = path.posix.basename(abs) === 'jsconfig.json' ? { allowJs: true } : undefined;
    const parsed = ts.parseJsonConfigFileContent(
      read.config,
      parseHost,
      path.posix.dirname(abs),
      existing,
      abs,
      undefined,
      COMPONENT_FILES,
    );
    for (const err of parsed.errors) {
      // "No inputs were found" is normal for solution-style configs.
      if (err.code === 18003) continue;
      configDiagnostics.push({ path: configRel, reason: `config: ${ts.flattenDiagnosticMessageText(err.messageText, ' ')}` });
    }
    const files = parsed.fileNames
      .filter(insideRoot)
      .map(rel)
      .filter((f) => sourceSet.has(f))
      .sort(compareStrings);
    const options = ownSemantics(host, root, abs, configRel, parsed.options, configDiagnostics);
    projects.push({
      configPath: configRel,
      options,
      projectReferences: parsed.projectReferences,
      files: [...new Set(files)],
    });
    for (const ref of parsed.projectReferences ?? []) {
      const target = ts.resolveProjectReferencePath(ref);
      if (insideRoot(target) && !seen.has(target)) queue.push(target);
    }
  }
  projects.sort((a, b) => compareStrings(a.configPath, b.configPath));

  const owner = ownersOf(projects);
  // Files outside every project but inside a project's output folder are its build output.
  const outputs = new Map<string, string>();
  for (const p of projects) {
    for (const dir of [p.options.outDir, p.options.declarationDir]) {
      if (dir && insideRoot(toPosixPath(dir)) && toPosixPath(dir) !== root) outputs.set(rel(toPosixPath(dir)), p.configPath);
    }
  }
  const looseFiles: string[] = [];
  const outputCounts = new Map<string, number>();
  for (const f of walked.sourceFiles) {
    if (owner.has(f)) continue;
    const out = [...outputs.keys()].find((d) => f.startsWith(d + '/'));
    if (out !== undefined) outputCounts.set(out, (outputCounts.get(out) ?? 0) + 1);
    else looseFiles.push(f);
  }
  for (const [dir, count] of outputCounts) {
    skippedFiles += count;
    countSkip(skippedBy, 'build output', count);
    diagnostics.push({ path: dir, reason: `${count} file${count === 1 ? '' : 's'} skipped: build output of ${outputs.get(dir)}` });
  }
  const loose: Project = {
    configPath: '',
    options: looseOptions(),
    projectReferences: undefined,
    files: looseFiles,
  };
  for (const f of loose.files) owner.set(f, loose);
  if (loose.files.length > 0) projects.push(loose);
  diagnostics.sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason));
  configDiagnostics.sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason));
  const outputDirs = [...outputs.keys()].sort(compareStrings);
  return {
    ...walked,
    sourceFiles: walked.sourceFiles.filter((f) => owner.has(f)),
    // A page or component in a project's output folder is build output too (ADR 153).
    unanalysedFiles: walked.unanalysedFiles.filter((f) => !outputDirs.some((d) => f.startsWith(d + '/'))),
    configDiagnostics,
    skippedFiles,
    skippedBy,
    projects,
    owner,
    outputDirs,
  };
}
