// The parts of `npm run bench:mutation` (bench/mutation.ts, ADR 167) that a test can drive on a
// small package: a package's files copied into a fresh git repository, the functions of its
// source found with the parser, one function broken (its body throws), the package's own test
// files run one process each, `kg tests` asked which test files the break can reach, and the
// symbols `kg unused` calls unused deleted one at a time and checked by the compiler and the tests.
//
// The package's code runs only here, inside its own test run, in the temporary repository: that
// is the point of the harness. The graph's side never runs it (kg builds with the checker only).

import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ts from 'typescript';

const REPO = path.join(__dirname, '..');
export const CLI = process.env.KG_MUTATION_CLI ?? path.join(REPO, 'dist', 'cli.js');

const GIT_IDENTITY = ['-c', 'user.name=kg-bench', '-c', 'user.email=kg-bench@example.invalid', '-c', 'commit.gpgsign=false'];

export function git(root: string, args: string[]): string {
  return execFileSync('git', [...GIT_IDENTITY, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Copies `source` (no node_modules, no .git) into a fresh git repository at `dest`, one commit. */
export function prepareRepository(source: string, dest: string): void {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  fs.cpSync(source, dest, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|\.git|\.knowledge-graph)$/.test(src),
  });
  git(dest, ['init', '-q', '-b', 'main']);
  // The graph is written beside the sources and never committed.
  fs.appendFileSync(path.join(dest, '.git', 'info', 'exclude'), '.knowledge-graph/\n');
  git(dest, ['add', '-A']);
  git(dest, ['commit', '-q', '-m', 'the package as published']);
}

/** Every file of the repository (git's list), repository-relative with `/`. */
export function repositoryFiles(root: string): string[] {
  return git(root, ['ls-files', '-z'])
    .split('\0')
    .filter((f) => f !== '')
    .sort();
}

// ---------------------------------------------------------------------------------------------
// Running the package's tests.

export interface TestRun {
  /** Test files whose process exited with a failure (or ran out of time). */
  failing: string[];
  /** Test files that ran out of time (also in `failing`). */
  timedOut: string[];
  ms: number;
}

export interface RunOptions {
  /** NODE_PATH for the tests' `require` of their runner (tape, …) from the bench's node_modules. */
  nodePath?: string;
  timeoutMs: number;
  concurrency: number;
}

function runOne(root: string, file: string, opts: RunOptions, coverageDir?: string): Promise<'pass' | 'fail' | 'timeout'> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: opts.nodePath ?? '' };
    delete env.NODE_OPTIONS;
    if (coverageDir !== undefined) env.NODE_V8_COVERAGE = coverageDir;
    else delete env.NODE_V8_COVERAGE;
    const child = spawn(process.execPath, [file], { cwd: root, env, stdio: 'ignore' });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(timedOut ? 'timeout' : code === 0 ? 'pass' : 'fail');
    });
  });
}

/** Runs each test file as its own `node FILE` process (node:test and tape both exit non-zero on a failure). */
export async function runSuite(root: string, files: readonly string[], opts: RunOptions): Promise<TestRun> {
  const started = Date.now();
  const failing: string[] = [];
  const timedOut: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const r = await runOne(root, file, opts);
      if (r !== 'pass') failing.push(file);
      if (r === 'timeout') timedOut.push(file);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  return { failing: failing.sort(), timedOut: timedOut.sort(), ms: Date.now() - started };
}

interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

/**
 * The test files whose run executes each site's body, one list per site (ADR 190): each file run
 * once, unchanged, as `node FILE` with V8's coverage on (NODE_V8_COVERAGE), and a body executed
 * when the innermost range of the file's coverage that holds the body's first character counted
 * more than zero (V8 nests block ranges, the innermost count is the one that holds). A test that
 * does not execute a body cannot fail because that body throws, so no selection with full recall
 * of the harness's mutations is smaller than this: the floor of any selection, tighter than the
 * failing share only where an executed body's throw is caught. Offsets are the file's UTF-16
 * positions, which is what V8 counts and what the parser gives.
 */
export async function executedBy(
  root: string,
  files: readonly string[],
  sites: readonly FunctionSite[],
  opts: RunOptions,
): Promise<string[][]> {
  const runs = await coverageRuns(root, files, opts);
  return sites.map((site) => files.filter((_, i) => executes(runs[i].ranges, site)));
}

/**
 * A failing test file the selection missed, run once more with the break in place and V8's
 * coverage on: whether it fails again, and whether that run executes the broken body. A file
 * that fails without executing it fails for a reason of its own (the runs are the same program
 * up to the body's entry): a timing test under the machine's load, not a miss of the walk.
 */
export async function rerunMissed(
  root: string,
  file: string,
  site: FunctionSite,
  opts: RunOptions,
): Promise<{ fails: boolean; executes: boolean }> {
  const [run] = await coverageRuns(root, [file], { ...opts, concurrency: 1 });
  return { fails: run.result !== 'pass', executes: executes(run.ranges, site) };
}

/** Each file run once as `node FILE` with NODE_V8_COVERAGE: its result and the ranges by repository path. */
async function coverageRuns(
  root: string,
  files: readonly string[],
  opts: RunOptions,
): Promise<Array<{ result: 'pass' | 'fail' | 'timeout'; ranges: Map<string, CoverageRange[]> }>> {
  const covRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-mutation-coverage-'));
  const runs = files.map(() => ({ result: 'pass' as 'pass' | 'fail' | 'timeout', ranges: new Map<string, CoverageRange[]>() }));
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      const dir = path.join(covRoot, String(i));
      runs[i].result = await runOne(root, files[i], opts, dir);
      for (const name of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
        const report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as {
          result: Array<{ url: string; functions: Array<{ ranges: CoverageRange[] }> }>;
        };
        for (const script of report.result) {
          if (!script.url.startsWith('file:')) continue;
          const rel = path.relative(root, fileURLToPath(script.url)).split(path.sep).join('/');
          if (rel.startsWith('..')) continue;
          runs[i].ranges.set(rel, [...(runs[i].ranges.get(rel) ?? []), ...script.functions.flatMap((f) => f.ranges)]);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  } finally {
    fs.rmSync(covRoot, { recursive: true, force: true });
  }
  return runs;
}

/** Whether the innermost range holding the body's first character counted more than zero. */
function executes(ranges: Map<string, CoverageRange[]>, site: FunctionSite): boolean {
  let inner: CoverageRange | undefined;
  for (const r of ranges.get(site.file) ?? [])
    if (
      r.startOffset <= site.start &&
      site.start < r.endOffset &&
      (!inner || r.endOffset - r.startOffset < inner.endOffset - inner.startOffset)
    )
      inner = r;
  return inner !== undefined && inner.count > 0;
}

// ---------------------------------------------------------------------------------------------
// Functions, and breaking one.

export interface FunctionSite {
  file: string;
  /** A readable name: the declaration's, or the property or variable it is assigned to. */
  name: string;
  line: number;
  /** The body's span in the file's text. */
  start: number;
  end: number;
  /** Whether the body is a block (else an arrow's expression). */
  block: boolean;
}

function scriptKind(file: string): ts.ScriptKind {
  if (/\.[cm]?tsx$/.test(file)) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(file)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(file)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
}

function siteName(node: ts.FunctionLikeDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) {
    const own = node.name.text;
    const owner = node.parent && (ts.isClassLike(node.parent) ? node.parent.name?.text : undefined);
    return owner ? `${owner}.${own}` : own;
  }
  if (ts.isConstructorDeclaration(node)) return `${(node.parent as ts.ClassLikeDeclaration).name?.text ?? 'class'}.constructor`;
  const p = node.parent;
  if (p && (ts.isPropertyAssignment(p) || ts.isVariableDeclaration(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name))
    return p.name.text;
  if (p && ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText();
  return '(anonymous)';
}

/** The functions of a file that have a body: declarations, methods, accessors, constructors, function expressions, arrows. */
export function functionSites(file: string, text: string): FunctionSite[] {
  const sf = parse(file, text);
  const out: FunctionSite[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const fn = node as ts.FunctionLikeDeclaration;
      const body = fn.body as ts.Node;
      out.push({
        file,
        name: siteName(fn),
        line: sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line + 1,
        start: body.getStart(sf),
        end: body.end,
        block: ts.isBlock(body),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

export const MUTANT_ERROR = 'kg-bench mutation';

/** The file's text with the site's body replaced by one that throws. */
export function breakFunction(text: string, site: FunctionSite): string {
  return text.slice(0, site.start) + `{ throw new Error(${JSON.stringify(MUTANT_ERROR)}); }` + text.slice(site.end);
}

/** Deterministic sample: sites in (file, position) order, shuffled by the seeded generator, the first `n`. */
export function sample<T>(items: readonly T[], n: number, random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

// ---------------------------------------------------------------------------------------------
// What kg says.

export interface Selection {
  proven: string[];
  guessed: string[];
  holes: string[];
  changed: string[];
  testFiles: number;
}

/** `kg tests BASE HEAD` in the repository (no build server: each side built in this call or read from the cache). */
export function kgTests(root: string, base: string, head: string): Selection {
  const out = execFileSync(process.execPath, [CLI, 'tests', base, head, '--no-server', '--format', 'json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, KG_SERVER: 'off' },
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const a = JSON.parse(out) as {
    changed: { symbols: Array<{ id: string }> };
    tests: Record<'proven' | 'guessed' | 'holes', Array<{ file: string }>>;
    totals: { testFiles: number };
  };
  const files = (t: 'proven' | 'guessed' | 'holes') => a.tests[t].map((s) => s.file).sort();
  return {
    proven: files('proven'),
    guessed: files('guessed'),
    holes: files('holes'),
    changed: a.changed.symbols.map((s) => s.id),
    testFiles: a.totals.testFiles,
  };
}

/** `kg build --apply` of the working tree; returns the graph's path. */
export function kgBuild(root: string): string {
  execFileSync(process.execPath, [CLI, 'build', '--apply', '--no-server', '--root', root], {
    cwd: root,
    env: { ...process.env, KG_SERVER: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return path.join(root, '.knowledge-graph', 'graph.json');
}

export interface UnusedSymbol {
  id: string;
  kind: string;
  label: string;
  location: string;
}

/** `kg unused` over the graph at `graphPath`: the symbols it calls unused. */
export function kgUnused(root: string, graphPath: string): UnusedSymbol[] {
  const out = execFileSync(process.execPath, [CLI, 'unused', '--limit', '10000', '--graph', graphPath], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  return (JSON.parse(out) as { unused: UnusedSymbol[] }).unused;
}

// ---------------------------------------------------------------------------------------------
// Deleting a declaration.

/** Declarations deleted whole (or, in an object literal, as one element of its list). */
const WHOLE_DECLARATIONS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.MethodSignature,
]);

/** The declaration to delete for a symbol declared at `line:column` (1-based), or why there is none. */
function deletionSpan(sf: ts.SourceFile, line: number, column: number): { start: number; end: number } | string {
  let pos: number;
  try {
    pos = sf.getPositionOfLineAndCharacter(line - 1, column - 1);
  } catch {
    return 'no such position';
  }
  let name: ts.Node | undefined;
  const find = (n: ts.Node) => {
    if (name) return;
    if (n.getStart(sf) <= pos && pos < n.end) {
      if ((ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteral(n)) && n.getStart(sf) === pos) name = n;
      else ts.forEachChild(n, find);
    }
  };
  find(sf);
  if (!name) return 'no name at the location';
  const decl = name.parent;
  // An element of a comma-separated list: the element, with one comma next to it.
  const listElement = (node: ts.Node) => ({ start: node.getStart(sf), end: node.end, list: true as const });
  let span: { start: number; end: number; list?: true } | undefined;
  if (ts.isVariableDeclaration(decl)) {
    const list = decl.parent as ts.VariableDeclarationList;
    if (list.declarations.length > 1) span = listElement(decl);
    else if (ts.isVariableStatement(list.parent)) span = { start: list.parent.getStart(sf), end: list.parent.end };
    else return 'a variable outside a statement';
  } else if (ts.isBindingElement(decl)) span = listElement(decl);
  else if (WHOLE_DECLARATIONS.has(decl.kind)) {
    span = ts.isObjectLiteralExpression(decl.parent) ? listElement(decl) : { start: decl.getStart(sf), end: decl.end };
  } else if (ts.isPropertyAssignment(decl) || ts.isShorthandPropertyAssignment(decl)) span = listElement(decl);
  else if (ts.isEnumMember(decl)) span = listElement(decl);
  else return `a ${ts.SyntaxKind[decl.kind]}`;
  if (!span.list) return span;
  const text = sf.text;
  let end = span.end;
  while (end < text.length && /\s/.test(text[end])) end++;
  if (text[end] === ',') return { start: span.start, end: end + 1 };
  let start = span.start;
  while (start > 0 && /\s/.test(text[start - 1])) start--;
  if (text[start - 1] === ',') return { start: start - 1, end: span.end };
  return { start: span.start, end: span.end };
}

/** The file's text without the declaration of the symbol at `line:column`, or a reason it cannot say which text that is. */
export function deleteDeclaration(file: string, text: string, line: number, column: number): string | { skipped: string } {
  const span = deletionSpan(parse(file, text), line, column);
  if (typeof span === 'string') return { skipped: span };
  return text.slice(0, span.start) + text.slice(span.end);
}

// ---------------------------------------------------------------------------------------------
// The type-check: the real compiler over the repository's JavaScript and TypeScript, JavaScript
// checked too (checkJs), so a name a deletion leaves unbound is an error in either language.

const CHECK_OPTIONS: ts.CompilerOptions = {
  allowJs: true,
  checkJs: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: [],
};

export class TypeCheck {
  private readonly host: ts.CompilerHost;
  private override: { abs: string; text: string } | undefined;

  constructor(
    private readonly root: string,
    private readonly files: readonly string[],
  ) {
    const host = ts.createCompilerHost(CHECK_OPTIONS, true);
    const getSourceFile = host.getSourceFile.bind(host);
    const readFile = host.readFile.bind(host);
    // Unchanged files (the default library's above all) are parsed once for every check.
    const parsed = new Map<string, ts.SourceFile | undefined>();
    host.readFile = (f) => (this.override?.abs === path.resolve(f) ? this.override.text : readFile(f));
    host.getSourceFile = (f, lang, onError, fresh) => {
      const abs = path.resolve(f);
      if (this.override?.abs === abs) return ts.createSourceFile(f, this.override.text, lang, true);
      if (!parsed.has(abs)) parsed.set(abs, getSourceFile(f, lang, onError, fresh));
      return parsed.get(abs);
    };
    this.host = host;
  }

  /** Error diagnostics as `file: TS1234 message` lines (no positions: a deletion moves them), one per diagnostic. */
  errors(override?: { file: string; text: string }): string[] {
    this.override = override ? { abs: path.resolve(this.root, override.file), text: override.text } : undefined;
    const roots = this.files.map((f) => path.join(this.root, f));
    const program = ts.createProgram({ rootNames: roots, options: CHECK_OPTIONS, host: this.host });
    const out: string[] = [];
    for (const d of [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()]) {
      if (d.category !== ts.DiagnosticCategory.Error) continue;
      const where = d.file ? path.relative(this.root, d.file.fileName).split(path.sep).join('/') : '(global)';
      out.push(`${where}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    }
    this.override = undefined;
    return out.sort();
  }
}

/** The diagnostics of `after` that `before` does not have (counted: a second copy of one is new). */
export function newErrors(before: readonly string[], after: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const d of before) count.set(d, (count.get(d) ?? 0) + 1);
  const out: string[] = [];
  for (const d of after) {
    const c = count.get(d) ?? 0;
    if (c > 0) count.set(d, c - 1);
    else out.push(d);
  }
  return out;
}

/** A temporary folder for the bench's repositories. */
export function benchTemp(name: string): string {
  return path.join(os.tmpdir(), 'kg-bench', 'mutation', name);
}
