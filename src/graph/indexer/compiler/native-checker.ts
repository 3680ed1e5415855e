// TypeScript 7's native checker behind the seam (checker.ts, ADR 8). The Go checker runs in a
// child process reached through TypeScript 7's synchronous API, 7.1's by default or 7.0.2's when
// `KG_NATIVE_TS=7.0` (ADR 113, ADR 186); native-api.ts is the one module that imports either
// (lint-enforced). Each project is opened from a tsconfig this module serves itself through the
// API's virtual file system, holding exactly the options and root files the JavaScript backend's
// program would use; native-answers.ts asks each file's questions, sent ahead by native-early.ts
// (ADR 136). What it cannot serve — an option TypeScript 7 removed, a missing platform binary, a
// crash or a protocol error — it declines, and the JavaScript backend serves that project (ADR 114).

import * as path from 'node:path';
import { componentKind } from '../components/kinds';
import type { CheckerBackend, CheckerFileSystem, CheckerProvider, ProjectCheck } from './checker';
import { NativeProjectBackend, type Placed } from './native-answers';
import {
  nativeBinary,
  nativeLibrary,
  nativeRelease,
  type API,
  type NativeFiles,
  type NativeLibrary,
  type NativeRelease,
  type Snapshot,
} from './native-api';
import { EarlyQuestions, type WatchedChannel } from './native-early';
import { interopSensitive, nativeOptions, notAnArray, optionsAsJson } from './native-options';
import { nativeDeadlines, NativeWatchdog, processEnd, type NativeDeadlines } from './native-process';

/** TypeScript 7's default library folder, beside its binary, with forward slashes and a final slash. */
const nativeLibDirectory = (exe: string): string => `${path.dirname(exe).split(path.sep).join('/')}/`;

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
  /** TypeScript 7's process id, once started. */
  private pid: number | undefined;
  /** The project released last, closed in the snapshot that opens the next (ADR 191). */
  private closing: string | undefined;
  private failed: string | undefined;
  private early: EarlyQuestions | undefined;
  /** Where each project's declarations were placed, by config (ADR 138). */
  private readonly placed = new Map<string, Map<string, Placed>>();
  private binary: ReturnType<typeof nativeBinary> | undefined;
  /** The release KG_NATIVE_TS selects, read once per checker, and its API. */
  private readonly selected = nativeRelease();
  private lib: NativeLibrary | undefined;
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

  /** The version of TypeScript 7 this checker runs (said in the build's report), or undefined when its binary is missing. */
  get version(): string | undefined {
    const b = (this.binary ??= nativeBinary(this.selected));
    return 'version' in b ? b.version : undefined;
  }

  open(check: ProjectCheck): CheckerBackend | { declined: string } {
    if (this.failed) return { declined: this.failed };
    const served = nativeOptions(check);
    if ('declined' in served) return served;
    // TypeScript 7.0 has no seam for a component's generated code (7.1's content mappers, later): ADR 169.
    const components = check.roots.filter((r) => componentKind(r) !== undefined).length;
    if (components > 0)
      return { declined: `${components} component file${components === 1 ? '' : 's'} (.vue/.svelte) need the JavaScript checker` };
    const o = served.options;
    if (o.esModuleInterop === false || o.allowSyntheticDefaultImports === false) {
      const why = interopSensitive(check);
      if (why)
        return {
          declined: `TypeScript 7 removed ${o.esModuleInterop === false ? 'esModuleInterop' : 'allowSyntheticDefaultImports'}: false, and ${why}`,
        };
    }
    // Looked for once per checker: a session's server does not find the binary again at every build.
    const binary = (this.binary ??= nativeBinary(this.selected));
    if ('missing' in binary) return { declined: binary.missing };
    // A binary was found, so KG_NATIVE_TS named a release (nativeBinary says why not otherwise).
    const lib = (this.lib ??= nativeLibrary(this.selected as NativeRelease));
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
      const opening = !this.open_.has(configFile);
      // The last project is closed in the snapshot that opens this one: the files they share are
      // parsed and bound once, not again for each project (ADR 191).
      const close = this.closing !== undefined && this.closing !== configFile ? [this.closing] : [];
      this.snapshot = lib.snapshot(api, this.snapshot, { open: opening ? [configFile] : [], changed, close });
      for (const c of close) this.open_.delete(c);
      this.closing = undefined;
      this.open_.add(configFile);
      // 7.0.2's client keeps the syntax trees it fetched by path, across snapshots: a changed file's
      // must go, and all of them when the options they were parsed with may have changed (ADR 138).
      if (changedConfig) lib.forgetTrees(api, 'all');
      else if (changed.length > 0) lib.forgetTrees(api, changed);
      const project = lib.project(this.snapshot, configFile);
      if (!project) throw new Error(`TypeScript 7 did not open ${configFile}`);
      // The options' problems are the config's: asked when the project is opened or its config changed.
      if (opening || changedConfig) {
        const problems = project.program.getConfigFileParsingDiagnostics();
        if (problems.length > 0)
          return { declined: `TypeScript 7 rejects the project's options (${String(problems[0].text).split('\n', 1)[0]})` };
      }
      // An ES5 project served as ES2015 iterates only arrays and strings, or is not served (ADR 191).
      const iterates = served.iterated && notAnArray(project.checker, lib.TypeFlags, served.iterated);
      if (iterates) return { declined: `TypeScript 7 removed target: ES5, and ${iterates}` };
      if (changedConfig || !this.placed.has(configFile)) this.placed.set(configFile, new Map());
      const route = { lib, api, libDir: nativeLibDirectory(binary.exe), early: this.early };
      const backend = new NativeProjectBackend(project, check, configFile, route, this.placed.get(configFile) as Map<string, Placed>);
      backend.adjusted = served.adjusted;
      return backend;
    } catch (e) {
      this.stop(e);
      return { declined: `the native checker could not open the project (${firstLine(e)})` };
    }
  }

  release(backend: CheckerBackend): void {
    this.watchdog?.project(false);
    if (this.opts.keep || !(backend instanceof NativeProjectBackend) || !this.api) return;
    // A process ended or gone while it served the project: no more native answers in this build.
    const gone = this.watchdog?.fired ?? (this.pid === undefined ? undefined : processEnd(this.pid));
    if (gone) return this.stop(new Error(gone));
    // At most two projects at a time: this one is closed when the next is opened (ADR 191), so
    // TypeScript 7 keeps the files they share; closed here, it parsed and bound them again for each.
    this.closing = backend.configFile;
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
    this.closing = undefined;
    this.served.clear();
    this.placed.clear();
  }

  private start(exe: string, root: string): API {
    if (this.api) return this.api;
    const via = () => this.fs as CheckerFileSystem;
    // TypeScript 7's own default library (beside its binary) it reads itself: those files are its
    // own, never the repository's, and lib.dom.d.ts alone is 2.4 MB through the pipe (ADR 130).
    const lib = nativeLibDirectory(exe);
    const own = (f: string) => f.startsWith(lib);
    const files: NativeFiles = {
      readFile: (f) => {
        if (own(f)) return 'os';
        const v = this.configs.get(f) ?? via().readFile(f) ?? null;
        this.served.set(f, v);
        return v;
      },
      fileExists: (f) => (own(f) ? 'os' : this.configs.has(f) || via().fileExists(f)),
      directoryExists: (d) => (own(d + '/') ? 'os' : via().directoryExists(d)),
      realpath: (f) => (own(f) ? 'os' : this.configs.has(f) ? f : via().realpath(f)),
      entries: (d) => (own(d + '/') ? 'os' : via().entries(d)),
    };
    this.api = withGoCollector(() => (this.lib as NativeLibrary).start(exe, root, files));
    this.watch(this.api);
    // Windows reaches the process by one named pipe both ways, whose buffers this was not measured on.
    if (this.opts.early !== false && process.platform !== 'win32')
      this.early = EarlyQuestions.over(this.api, (this.lib as NativeLibrary).handle);
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
    this.pid = child.pid;
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
