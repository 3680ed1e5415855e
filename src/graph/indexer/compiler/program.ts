// One TypeScript program per project, sharing parsed files across projects: a source file is
// parsed once per distinct set of parse-affecting options, whichever program asks first, the way
// the language service's document registry shares them between projects.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import type { Project } from './discover';
import type { FileHost } from '../files/file-host';
import type { ModuleResolver } from './imports';
import type { ScreenParser } from './screen';
import type { SourceInput } from './sources';
import { componentScriptKind } from '../components/component-code';
import { componentKind } from '../components/kinds';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const { JSDocParsingMode, createProgram, createSourceFile, forEachChild, getDefaultLibFilePath } = ts;

/**
 * The compiler's default libraries (lib.*.d.ts, bundled and immutable), parsed — and, once a
 * checker has used them, bound — once per process and shared by every build, as the language
 * service's document registry shares them between projects. They are most of a small build's
 * time; a warm rebuild and the tests would otherwise parse and bind them again every time.
 */
const defaultLibFiles = new Map<string, ts.SourceFile>();

/** How many default-library files this process has parsed: none under the native checker, which reads its own (ADR 130, ADR 192). */
export const defaultLibrariesParsed = (): number => defaultLibFiles.size;

/** The folder of the bundled compiler's default libraries (lib.*.d.ts), with forward slashes. */
export const DEFAULT_LIB_DIRECTORY = path.dirname(getDefaultLibFilePath({})).split(path.sep).join('/');

/**
 * What a long-lived build (a session) keeps between builds: each project's last program, for the
 * compiler's structural reuse, and the parsed files, reused while their text is the same.
 */
export interface ProgramStore {
  programs: Map<string, ts.Program>;
  files: Map<string, ts.SourceFile>;
}

/** Parsed files shared by every program of one build (and, with a store, by later builds). */
export class SourceFileCache {
  private readonly files: Map<string, ts.SourceFile>;
  private readonly libDir = DEFAULT_LIB_DIRECTORY;

  constructor(
    /** Repository source texts (absolute path → decoded text, BOM removed). */
    private readonly texts: ReadonlyMap<string, string>,
    private readonly host: FileHost,
    /** Parsed files kept from earlier builds; each is checked against the text read now. */
    private readonly kept?: Map<string, ts.SourceFile>,
  ) {
    this.files = kept ?? new Map();
  }

  get defaultLibDirectory(): string {
    return this.libDir;
  }

  /** The compiler's own default libraries come from the bundle, never from the injected host. */
  isDefaultLib(fileName: string): boolean {
    return fileName.startsWith(this.libDir + '/');
  }

  readText(fileName: string): string | undefined {
    const repo = this.texts.get(fileName);
    if (repo !== undefined) return repo;
    try {
      if (this.isDefaultLib(fileName)) return fs.readFileSync(fileName, 'utf8');
      const text = new TextDecoder('utf-8').decode(this.host.readFile(fileName));
      return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    } catch {
      return undefined;
    }
  }

  listDirectories(dir: string): string[] {
    return this.host
      .readDir(dir)
      .filter((e) => e.type === 'directory' || (e.type === 'symlink' && this.host.stat(`${dir}/${e.name}`)?.type === 'directory'))
      .map((e) => e.name);
  }

  /**
   * Keeps a tree parsed elsewhere with exactly these options (the screen's, ADR 137), for the
   * programs and the builder to take instead of parsing the text again.
   */
  put(fileName: string, options: ts.CreateSourceFileOptions, variant: string, sf: ts.SourceFile): void {
    // Not a tree of another text: a carried file's programs read its body blanked (ADR 129).
    if (this.texts.get(fileName) !== sf.text) return;
    this.files.set(cacheKey(fileName, options, variant), sf);
  }

  get(fileName: string, options: ts.CreateSourceFileOptions, variant: string): ts.SourceFile | undefined {
    const key = cacheKey(fileName, options, variant);
    const lib = this.isDefaultLib(fileName);
    const files = lib ? defaultLibFiles : this.files;
    const cached = files.get(key);
    if (cached && (lib || !this.kept)) return cached;
    const text = this.readText(fileName);
    if (text === undefined) return undefined;
    if (cached && cached.text === text) return cached;
    // A component's code parses as the tools wrote it (TS or TSX), whatever its file's extension says.
    const sf = createSourceFile(fileName, text, options, false, componentScriptKind(fileName, text));
    files.set(key, sf);
    return sf;
  }
}

function cacheKey(fileName: string, options: ts.CreateSourceFileOptions, variant: string): string {
  return `${fileName}\u0000${options.languageVersion}\u0000${options.impliedNodeFormat}\u0000${options.jsDocParsingMode}\u0000${variant}`;
}

/** Options a program needs beyond the project's own: we never emit, and never load plugins. */
function programOptions(project: Project): ts.CompilerOptions {
  const options: ts.CompilerOptions = { ...project.options, noEmit: true };
  delete options.plugins;
  // A component is a root file under its own name (`Cart.vue`), read as its code (ADR 169).
  if (hasComponents(project)) options.allowNonTsExtensions = true;
  return options;
}

function hasComponents(project: Project): boolean {
  return project.files.some((f) => componentKind(f) !== undefined);
}

/** The compiler's own rules for parse options (internal to the pinned TypeScript 6.0.3; test/unit/native-checker.test.ts checks they exist). */
const compilerInternals = ts as unknown as {
  getEmitScriptTarget(options: ts.CompilerOptions): ts.ScriptTarget;
  getSetExternalModuleIndicator(options: ts.CompilerOptions): (file: ts.SourceFile) => void;
};

/** How a project's program parses a file of this format: the options, and the variant its cache entry is kept under. */
interface ProgramParse {
  options: ts.CreateSourceFileOptions;
  variant: string;
  /** What the tree depends on besides the text and the dialect: the options and the variant, as one string. */
  tag: string;
}

function programParse(project: Project, impliedNodeFormat: ts.ResolutionMode): ProgramParse {
  const options = programOptions(project);
  const languageVersion = compilerInternals.getEmitScriptTarget(options);
  const variant = parseVariant(options);
  return {
    options: {
      languageVersion,
      impliedNodeFormat,
      setExternalModuleIndicator: compilerInternals.getSetExternalModuleIndicator(options),
      jsDocParsingMode: JSDocParsingMode.ParseForTypeErrors,
    },
    variant,
    tag: `${languageVersion}\u0000${impliedNodeFormat}\u0000${variant}`,
  };
}

/** The screen's parse in a build with programs: each file as its project's program parses it (ADR 137). */
export function programScreenParser(root: string, resolver: ModuleResolver): ScreenParser {
  return (input) => {
    const abs = `${root}/${input.path}`;
    const parse = programParse(input.project, resolver.impliedFormat(input.project, abs));
    return { tag: parse.tag, parse: () => createSourceFile(abs, input.text, parse.options, false) };
  };
}

/**
 * Puts the trees the screen parsed (by path) into the cache, under the key their programs ask
 * with, and empties the map: from here only the cache holds them.
 */
export function takeScreenedTrees(
  cache: SourceFileCache,
  trees: Map<string, ts.SourceFile>,
  inputs: ReadonlyMap<string, SourceInput>,
  root: string,
  resolver: ModuleResolver,
): void {
  for (const [rel, sf] of trees) {
    const input = inputs.get(rel);
    if (!input) continue;
    const abs = `${root}/${rel}`;
    const parse = programParse(input.project, resolver.impliedFormat(input.project, abs));
    cache.put(abs, parse.options, parse.variant, sf);
  }
  trees.clear();
}

/**
 * A repository file parsed exactly as the project's program would parse it (same options, same
 * cache entry), for a build whose checker needs no program (a provider's backend, ADR 113).
 */
export function parseAsProgram(
  cache: SourceFileCache,
  project: Project,
  fileName: string,
  impliedNodeFormat: ts.ResolutionMode,
): ts.SourceFile | undefined {
  const parse = programParse(project, impliedNodeFormat);
  const sf = cache.get(fileName, parse.options, parse.variant);
  // No checker binds it, which is what would set the parents the call-site walk reads.
  if (sf && sf.statements.length > 0 && sf.statements[0].parent === undefined) setParents(sf);
  return sf;
}

/** Sets every node's parent, with an explicit stack (a 100,000-term expression must not overflow). */
function setParents(sf: ts.SourceFile): void {
  const stack: ts.Node[] = [sf];
  while (stack.length > 0) {
    const node = stack.pop() as ts.Node;
    forEachChild(node, (child) => {
      (child as { parent: ts.Node }).parent = node;
      stack.push(child);
    });
  }
}

function parseVariant(options: ts.CompilerOptions): string {
  // setExternalModuleIndicator depends on these; files parsed under other values are not shared.
  return `${options.moduleDetection}\u0000${options.jsx}`;
}

export function createProjectProgram(
  root: string,
  project: Project,
  rootNames: readonly string[],
  cache: SourceFileCache,
  resolver: ModuleResolver,
  oldProgram?: ts.Program,
): ts.Program {
  const options = programOptions(project);
  const rh = resolver.resolutionHost;
  const variant = parseVariant(options);
  const host: ts.CompilerHost = {
    // As tsc parses: JSDoc in TypeScript files only where a type error could need it (ADR 137).
    // The program passes this on in every file's options; without it the program asks for every
    // comment parsed, and no tree would be shared with the builder's own parse or the screen's.
    jsDocParsingMode: JSDocParsingMode.ParseForTypeErrors,
    getSourceFile: (fileName, languageVersionOrOptions) => {
      const opts: ts.CreateSourceFileOptions =
        typeof languageVersionOrOptions === 'object' ? languageVersionOrOptions : { languageVersion: languageVersionOrOptions };
      return cache.get(fileName, { jsDocParsingMode: JSDocParsingMode.ParseForTypeErrors, ...opts }, variant);
    },
    getDefaultLibFileName: (o) => `${cache.defaultLibDirectory}/${ts.getDefaultLibFileName(o)}`,
    getDefaultLibLocation: () => cache.defaultLibDirectory,
    writeFile: () => {
      // never emits (noEmit)
    },
    getCurrentDirectory: () => root,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (f) => (cache.isDefaultLib(f) ? fs.existsSync(f) : rh.fileExists(f)),
    // Through the resolution host when the cache has no text: a workspace package's package.json
    // is read at `<root>/node_modules/<name>`, where ADR-5 shows it before anything is installed.
    // A package.json always goes through it: the resolver bounds how deep one may nest (issue 55).
    readFile: (f) =>
      f.endsWith('/package.json') ? rh.readFile(f) : (cache.readText(f) ?? (cache.isDefaultLib(f) ? undefined : rh.readFile(f))),
    directoryExists: (d) => (cache.isDefaultLib(d + '/') ? true : (rh.directoryExists?.(d) ?? false)),
    realpath: (f) => (cache.isDefaultLib(f) ? f : (rh.realpath?.(f) ?? f)),
    getDirectories: (d) => {
      // Used to enumerate node_modules/@types for automatic type inclusion.
      try {
        return cache.listDirectories(d);
      } catch {
        return [];
      }
    },
    getModuleResolutionCache: () => resolver.cacheFor(project),
    // Over the last build's program, its resolutions hold only while the disk answers the same.
    hasInvalidatedResolutions: () => !resolver.worldKept,
  };
  if (hasComponents(project)) host.resolveModuleNameLiterals = componentAwareResolution(resolver, project);
  return createProgram({ rootNames, options, host, oldProgram });
}

/**
 * The compiler's resolution, with `./Cart.vue` placed on the component file itself: the resolver
 * answers it as `Cart.vue.ts` (its code's twin, which exists for no one else), and the program
 * reads the component under its own name, as TypeScript (ADR 169).
 */
function componentAwareResolution(resolver: ModuleResolver, project: Project): NonNullable<ts.CompilerHost['resolveModuleNameLiterals']> {
  return (literals, containingFile, redirected, options, containingSourceFile) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, options);
      const result = ts.resolveModuleName(
        literal.text,
        containingFile,
        options,
        resolver.resolutionHost,
        resolver.cacheFor(project),
        redirected,
        mode,
      );
      const resolved = result.resolvedModule;
      const component = resolved ? resolver.componentOfTwin(resolved.resolvedFileName) : undefined;
      if (!resolved || component === undefined) return result;
      return { ...result, resolvedModule: { ...resolved, resolvedFileName: component, extension: ts.Extension.Ts } };
    });
}
