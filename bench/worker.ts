// One measurement in a fresh process: `node --import tsx bench/worker.ts <task> <root>`.
// Prints {"ms": wall time of the measured part, "maxRssKb": the process's peak RSS, "cpuMs": CPU
// time of the measured part in this process and in the TypeScript 7 process a native build runs,
// not in a `kg` process a CLI task spawns}.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { BuildSession, buildGraph, loadGraphFile, readPrevious, serializeGraph } from '../src/graph';
import { EDIT_FILE, editOneLine } from './corpus';
import { DIFF_TASKS, diffChildRssKb } from './diff';
import { EDIT_KINDS, editOf, restoreNames } from './names';
import { runCliBuild } from '../src/host/cli-build';
import { discover } from '../src/graph/indexer/compiler/discover';
import { parseSource } from '../src/graph/indexer/compiler/extract';
import { nodeFileHost } from '../src/graph/indexer/files/file-host';
import { NativeChecker } from '../src/graph/indexer/compiler/native-checker';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  JSDocParsingMode,
  ModuleKind,
  createCompilerHost,
  forEachChild,
  isCallExpression,
  isDecorator,
  isJsxOpeningLikeElement,
  isNewExpression,
  isPropertyAccessExpression,
  isTaggedTemplateExpression,
} = ts;

type Measured = () => void | Promise<void>;
/** Prepares one measurement (untimed) and returns the measured part. */
type Task = (root: string) => Measured | Promise<Measured>;

/** The parse floor: read + createSourceFile over exactly the files the build reads, nothing else. */
const parseFloor: Task = (root) => {
  const files = discover(nodeFileHost, fs.realpathSync(root)).sourceFiles.map((f) => `${fs.realpathSync(root)}/${f}`);
  return () => {
    for (const f of files) parseSource(f, fs.readFileSync(f, 'utf8'), ModuleKind.ESNext);
  };
};

const extractOnly: Task = (root) => () => {
  serializeGraph(buildGraph({ root, extractOnly: true }).graph);
};

/**
 * TypeScript's own compiler host, parsing as `tsc` does: JSDoc in TypeScript files only where a
 * type error could need it. The builder's programs parse that way too (ADR 137); a floor that
 * parsed every comment would be a slower floor than a type-check is.
 */
function tscHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = createCompilerHost(options);
  host.jsDocParsingMode = JSDocParsingMode.ParseForTypeErrors;
  return host;
}

/**
 * The type-check floor: for each project the build would create, `createProgram` (TypeScript's
 * own compiler host, as `tsc` parses) + `getTypeChecker` + `getResolvedSignature` on every
 * call-like expression of the project's files. Nothing else: no extraction, no graph, no output.
 */
const typecheckFloor: Task = (root) => {
  const real = fs.realpathSync(root);
  const d = discover(nodeFileHost, real);
  const projects = d.projects.map((p) => ({ options: { ...p.options, noEmit: true }, files: p.files.map((f) => `${real}/${f}`) }));
  return () => {
    let resolved = 0;
    for (const p of projects) {
      if (p.files.length === 0) continue;
      const program = ts.createProgram(p.files, p.options, tscHost(p.options));
      const checker = program.getTypeChecker();
      for (const f of p.files) {
        const sf = program.getSourceFile(f);
        if (!sf) continue;
        const visit = (n: ts.Node): void => {
          if (isCallExpression(n) || isNewExpression(n) || isTaggedTemplateExpression(n) || isDecorator(n) || isJsxOpeningLikeElement(n)) {
            if (checker.getResolvedSignature(n)) resolved++;
          }
          forEachChild(n, visit);
        };
        visit(sf);
      }
    }
    if (resolved === 0) throw new Error('the floor resolved no call');
  };
};

const fullBuild: Task = (root) => () => {
  serializeGraph(buildGraph({ root }).graph);
};

/** The `/proc` folders of this process's TypeScript 7 checkers still running (`tsc --api`); none off Linux. */
function checkerProcesses(): string[] {
  if (!fs.existsSync('/proc/self/stat')) return [];
  const out: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--api')) out.push(`/proc/${pid}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * Peak resident memory (kB) of this process's TypeScript 7 checkers still running. Not every
 * child: tsx, which runs this worker, keeps an esbuild service of its own (about 12 MB), which no
 * build of the product starts.
 */
function childrenPeakKb(): number {
  let kb = 0;
  for (const dir of checkerProcesses()) {
    try {
      kb += Number(/^VmHWM:\s+(\d+)/m.exec(fs.readFileSync(`${dir}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb;
}

/**
 * CPU time (ms, user and system, every thread) of this process's TypeScript 7 checkers still
 * running: `/proc/<pid>/stat`'s utime and stime, in Linux's USER_HZ ticks (100 a second).
 */
function childrenCpuMs(): number | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  let ms = 0;
  for (const dir of checkerProcesses()) {
    try {
      const stat = fs.readFileSync(`${dir}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // gone meanwhile
    }
  }
  return ms;
}

/**
 * The full build with TypeScript 7's native checker (ADR 113), in the order a build runs it
 * (src/graph/indexer/compiler/incremental.ts): the checker ends once the graph is built, then the
 * graph is serialized. Its memory is both processes': this one's peak plus the checker process's
 * own peak, read before it ends (a sum of peaks, so never less than the peak of the sum).
 */
const nativeBuild =
  (early: boolean): Task =>
  (root) =>
  () => {
    const native = new NativeChecker({ early });
    let checkerKb: number;
    try {
      const r = buildGraph({ root, checker: native });
      if (r.checker.served.length === 0) throw new Error(`the native checker served no project: ${JSON.stringify(r.checker.fallbacks)}`);
      checkerKb = childrenPeakKb();
      checkerCpuMs = childrenCpuMs();
      native.close();
      serializeGraph(r.graph);
    } finally {
      native.close();
    }
    childRssKb = process.resourceUsage().maxRSS + checkerKb;
  };
const fullNativeBuild = nativeBuild(true);
/** The same with every question asked when it is asked, as TypeScript 7's API alone does (ADR 136). */
const fullNativePlain = nativeBuild(false);

/** The floor for loading a graph (`root` is the graph file): read it and JSON.parse it, nothing else. */
const graphParseFloor: Task = (file) => () => {
  JSON.parse(fs.readFileSync(file, 'utf8'));
};

/** What every query command does first: read, check UTF-8, parse, validate against the schema, index. */
const graphLoad: Task = (file) => () => {
  const load = loadGraphFile(file);
  if (!load.ok) throw new Error(load.unavailable.reason);
};

// The incremental items work on a corpus copy that run.ts prepared with a built graph, whose
// graph.json, manifest and one source file are kept in <root>.saved. Each sample puts them back
// and makes the same one-line edit, untimed, so every sample rebuilds after exactly one edit.
function restore(root: string): void {
  const saved = root + '.saved';
  for (const f of ['graph.json', 'graph.manifest.json']) fs.copyFileSync(path.join(saved, f), path.join(root, '.knowledge-graph', f));
  fs.copyFileSync(path.join(saved, path.basename(EDIT_FILE)), path.join(root, EDIT_FILE));
}

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
let childRssKb: number | undefined;
/** The CPU time of the TypeScript 7 process a native build ran, added to this process's own; undefined where it cannot be read. */
let checkerCpuMs: number | undefined = 0;

/**
 * The `kg` command as a user runs it: a fresh `node dist/cli.js build --apply …` process, timed
 * from spawn to exit (Node's start and loading the CLI included, on both sides of a ratio). Its
 * peak memory comes from GNU time when the machine has it.
 */
function cliBuild(root: string, args: string[], expect: RegExp, env: NodeJS.ProcessEnv): void {
  const timeBin = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const cmd = timeBin ? [timeBin, '-f', 'maxrss=%M', process.execPath] : [process.execPath];
  const r = spawnSync(cmd[0], [...cmd.slice(1), CLI, 'build', '--apply', '--root', root, ...args], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0 || !expect.test(r.stderr)) throw new Error(`kg build ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  const m = /maxrss=(\d+)/.exec(r.stderr);
  childRssKb = m ? Number(m[1]) : undefined;
}

/** The environment of a one-shot build: no build server used or started. */
const oneShot = (): NodeJS.ProcessEnv => ({ ...process.env, KG_SERVER: 'off' });

const editedCopy = (root: string) => {
  restore(root);
  fs.writeFileSync(path.join(root, EDIT_FILE), editOneLine(fs.readFileSync(path.join(root, EDIT_FILE), 'utf8')));
};

/** The reference: a full build from scratch by a one-shot process. */
const cliFull: Task = (root) => {
  editedCopy(root);
  return () => cliBuild(root, ['--full'], /full build: a full build was asked for/, oneShot());
};

/** The same with the native checker (ADR 113). */
const cliFullNative: Task = (root) => {
  editedCopy(root);
  return () => cliBuild(root, ['--full', '--checker', 'native'], /full build: a full build was asked for[\s\S]*native checker/, oneShot());
};

/** `kg build --checker native` after the edit, done by a build server whose native session is warm (ADR 115). */
const cliIncrementalNative: Task = (root) => {
  editedCopy(root);
  if (!process.env.KG_SERVER_DIR) throw new Error('cli-incremental-native needs the build server run.ts starts');
  return () =>
    cliBuild(
      root,
      ['--checker', 'native'],
      /built by the build server[\s\S]*incremental build: 1 changed, 0 added, 0 deleted; 1 file parsed[\s\S]*native checker \(TypeScript 7\) in all/,
      { ...process.env, KG_SERVER: 'on' },
    );
};

/** The incremental build of a one-shot process, without a build server (reported without a bar). */
const cliIncrementalCold: Task = (root) => {
  editedCopy(root);
  return () => cliBuild(root, [], /incremental build: 1 changed, 0 added, 0 deleted; 1 file parsed/, oneShot());
};

/**
 * `kg build` after the edit as a user gets it: the repository's build server (ADR 57), which
 * run.ts started and warmed before the samples (KG_SERVER_DIR points at it), does the build.
 */
const cliIncremental: Task = (root) => {
  editedCopy(root);
  if (!process.env.KG_SERVER_DIR) throw new Error('cli-incremental needs the build server run.ts starts');
  return () =>
    cliBuild(root, [], /built by the build server[\s\S]*incremental build: 1 changed, 0 added, 0 deleted; 1 file parsed/, {
      ...process.env,
      KG_SERVER: 'on',
    });
};

/** The extension's warm rebuild: a session that has built once (untimed), then one edit. */
const warmRebuild: Task = (root) => {
  restore(root);
  const session = new BuildSession({ root, previous: readPrevious(path.join(root, '.knowledge-graph', 'graph.json')) });
  session.warm();
  fs.writeFileSync(path.join(root, EDIT_FILE), editOneLine(fs.readFileSync(path.join(root, EDIT_FILE), 'utf8')));
  return () => {
    const r = session.rebuild();
    if (r.mode !== 'incremental' || r.delta.extracted !== 1)
      throw new Error(`the warm rebuild was ${r.mode}, ${r.delta.extracted} files parsed`);
  };
};

/**
 * What any one-shot process must pay to resolve the edited file's calls again, and nothing else:
 * `createProgram` rooted at that file and the files that declare globals (the compiler brings the
 * default libraries and what the file imports), the checker, and the symbol of every callee in
 * that file. No discovery, no extraction, no graph. Reported beside the CLI's incremental build,
 * without a bar, to show how much of it is the compiler's cold start.
 */
const oneFileFloor: Task = (root) => {
  restore(root);
  fs.writeFileSync(path.join(root, EDIT_FILE), editOneLine(fs.readFileSync(path.join(root, EDIT_FILE), 'utf8')));
  const real = fs.realpathSync(root);
  const project = discover(nodeFileHost, real).projects.find((p) => p.files.includes(EDIT_FILE));
  if (!project) throw new Error(`no project owns ${EDIT_FILE}`);
  const options = { ...project.options, noEmit: true };
  const roots = [`${real}/${EDIT_FILE}`, `${real}/src/internal/types.ts`, `${real}/src/Rx.global.js`];
  return () => {
    const program = ts.createProgram(roots, options, tscHost(options));
    const checker = program.getTypeChecker();
    const sf = program.getSourceFile(roots[0]) as ts.SourceFile;
    let asked = 0;
    const visit = (n: ts.Node): void => {
      if (isCallExpression(n) || isNewExpression(n)) {
        const callee = isPropertyAccessExpression(n.expression) ? n.expression.name : n.expression;
        checker.getSymbolAtLocation(callee);
        asked++;
      }
      forEachChild(n, visit);
    };
    visit(sf);
    if (asked === 0) throw new Error('the floor asked about no call');
  };
};

/** The name-level invalidation's reference (bench/names.ts): a one-shot full build of the prepared copy. */
const namesFull: Task = (root) => {
  restoreNames(root);
  return () => cliBuild(root, ['--full'], /full build: a full build was asked for/, oneShot());
};

/** Each edit of bench/names.ts, then `kg build` through the warm build server run.ts started. */
const NAMES_TASKS: Record<string, Task> = Object.fromEntries(
  EDIT_KINDS.map((kind) => [
    `names-${kind}`,
    (root: string) => {
      const edit = editOf(root, restoreNames(root), kind);
      if (edit) fs.writeFileSync(path.join(root, edit.file), edit.text);
      if (!process.env.KG_SERVER_DIR) throw new Error(`names-${kind} needs the build server run.ts starts`);
      return () => cliBuild(root, [], /built by the build server[\s\S]*incremental build: /, { ...process.env, KG_SERVER: 'on' });
    },
  ]),
);

/** A build that, when given them, checks that each pattern matches one of its log lines. */
type CheckedBuild = (expect?: RegExp[]) => Promise<void>;

/**
 * A build the editor's way (ADR 119): src/host/cli-build.ts asks the warm server run.ts started
 * itself, with no `kg` process in between — what autoIndex costs after a save.
 */
function editorBuild(root: string, checker: 'js' | 'native'): CheckedBuild {
  if (!process.env.KG_SERVER_DIR) throw new Error('an editor build needs the build server run.ts starts');
  const env: NodeJS.ProcessEnv = { ...process.env, KG_SERVER: 'on' };
  delete env.CI;
  return async (expect = []) => {
    const logs: string[] = [];
    const r = await runCliBuild({
      cli: CLI,
      root,
      out: path.join(root, '.knowledge-graph', 'graph.json'),
      env,
      checker,
      onEvent: (e) => {
        if (e.event === 'log') logs.push(e.message);
      },
    });
    if (r.kind !== 'built' || r.via !== 'server') throw new Error(`the editor's build was not the server's: ${JSON.stringify(r)}`);
    for (const x of expect) if (!logs.some((l) => x.test(l))) throw new Error(`no log line says ${String(x)}:\n${logs.join('\n')}`);
  };
}

/**
 * As after a save in the editor, the server's last build is the graph on disk: the restored files
 * are built once untimed first (the restored graph.json is another writer's to the server, which
 * it reads and parses again) once graph.json has been still for 2 s, as a graph built at the last
 * save has been (the server trusts its stamp then, ADR 125); then the edit is made and the build
 * that follows is timed. (Until this setup, each timed build also paid for reading and parsing the
 * restored graph: no save does that.)
 */
async function afterSave(build: CheckedBuild, edit: () => void, expect?: RegExp[]): Promise<() => Promise<void>> {
  await new Promise((r) => setTimeout(r, 2_100));
  await build();
  edit();
  return () => build(expect);
}

/** The same edits of bench/names.ts built the editor's way. */
const NAMES_EDITOR_TASKS: Record<string, Task> = Object.fromEntries(
  EDIT_KINDS.map((kind) => [
    `names-${kind}-editor`,
    async (root: string) => {
      const edit = editOf(root, restoreNames(root), kind);
      return afterSave(editorBuild(root, 'js'), () => {
        if (edit) fs.writeFileSync(path.join(root, edit.file), edit.text);
      });
    },
  ]),
);

/** The one-line edit of the incremental items, built the editor's way by the warm native session (ADR 115, 130). */
const cliIncrementalNativeEditor: Task = (root) => {
  restore(root);
  return afterSave(
    editorBuild(root, 'native'),
    () => fs.writeFileSync(path.join(root, EDIT_FILE), editOneLine(fs.readFileSync(path.join(root, EDIT_FILE), 'utf8'))),
    [/incremental build: 1 changed, 0 added, 0 deleted; 1 file parsed/, /native checker \(TypeScript 7\) in all/],
  );
};

export const TASKS: Record<string, Task> = {
  'names-full': namesFull,
  ...NAMES_TASKS,
  ...NAMES_EDITOR_TASKS,
  'one-file-floor': oneFileFloor,
  'parse-floor': parseFloor,
  extract: extractOnly,
  'typecheck-floor': typecheckFloor,
  full: fullBuild,
  'full-native': fullNativeBuild,
  'full-native-plain': fullNativePlain,
  'cli-full-native': cliFullNative,
  'cli-incremental-native': cliIncrementalNative,
  'cli-incremental-native-editor': cliIncrementalNativeEditor,
  'graph-parse-floor': graphParseFloor,
  'graph-load': graphLoad,
  'cli-full': cliFull,
  'cli-incremental': cliIncremental,
  'cli-incremental-cold': cliIncrementalCold,
  'warm-rebuild': warmRebuild,
  ...DIFF_TASKS,
};

async function main(): Promise<void> {
  const [task, root] = process.argv.slice(2);
  const make = TASKS[task];
  if (!make || !root) {
    process.stderr.write(`usage: worker.ts <${Object.keys(TASKS).join('|')}> <root>\n`);
    process.exit(2);
  }
  const measured = await make(root);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await measured();
  const ms = performance.now() - t0;
  // Every thread of this process (the collector's and the compiler's included), and the checker's.
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = checkerCpuMs === undefined ? undefined : (cpu.user + cpu.system) / 1000 + checkerCpuMs;
  process.stdout.write(JSON.stringify({ ms, maxRssKb: childRssKb ?? diffChildRssKb() ?? process.resourceUsage().maxRSS, cpuMs }) + '\n');
}

void main();
