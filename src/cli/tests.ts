// `kg tests [BASE] [HEAD]`: the test files a change can reach (ADR 165). The sides are read as
// `kg diff` reads them (a git ref built from its tree, cached; HEAD by default the working tree;
// BASE by default the merge base with the default branch). The symbols a change touched are those
// whose own code differs between the two sides' texts (codeHashes, the parser alone: nothing of
// the repository runs); the walk from them to the test files is the engine's (selectTests).

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  changedExports,
  codeHashes,
  commonJsExports,
  indexGraph,
  jsonForPeople,
  selectTests,
  testFileRule,
  type DiffSide,
  type Graph,
  type IndexedGraph,
  type SelectedTest,
  type TestConfig,
  type TestSelection,
} from '../graph';
import { mergeBaseSide, sideErrorExit } from './diff';
import { findRepositoryRoot } from './find-root';
import { gitTopLevel, pathsBetween, RefError, textAt, worktreePathsFrom } from '../git/plumbing';
import { refSide, worktreeSide, type SideContext } from './ref-graph';
import type { ServerContext } from './server';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError } from './usage';

export const TESTS_HELP = `Usage: kg tests [BASE] [HEAD] [--format json|list|markdown] [--tier proven|guessed|holes] [--root DIR] [--no-server]

The test files whose code can reach what a change touched, between BASE and HEAD (git refs; HEAD
by default the working tree, BASE by default the merge base of HEAD with the default branch, as
kg diff reads them: built from git's object store, cached, no repository code run).

A symbol is touched when its own code differs between the two sides (comments and white space do
not count; a class's methods are their own, and so are a JavaScript C.prototype.m = function's),
a file when its top-level statements do. From each
touched symbol the walk goes to who uses it — calls, references, imports, re-exports, heritage,
and calls through a member it implements or overrides — transitively, to code in test files. A
removed symbol is walked in BASE's graph. Three tiers, never mixed:
  proven   every step is an EXACT edge (the type checker's proof);
  guessed  a step is a CANDIDATE (a name match), or goes from JavaScript to the package's own
           declaration file that stands for it (a method: its members of the same name), or
           into a member [k] from a call obj[k](), or is read from a CommonJS file's text: a
           change only inside functions it exports (module.exports.x = function) starts from
           them by their exported names, not from the file's loading;
  holes    a step goes through what the graph cannot see: an UNRESOLVED call carrying the name,
           or a module whose top-level code uses the change without calling it (its importers).
Each test comes with the shortest chain of ids from a change to its code. Test files: *.test.*,
*.spec.*, *-test.*, *_test.*, test-*.*, test.*, files under __tests__/, test/ or tests/ (not their
fixtures, mocks or snapshots), and package.json's jest.testMatch and jest.testRegex.

Options:
  --format FORMAT  json (default): the whole answer (docs/cli.md); list: the selected test
                   files, one path per line, for a runner's arguments; markdown: a comment for
                   a pull request.
  --tier TIER      What list and markdown include: proven, guessed (default: proven and
                   guessed) or holes (all three).
${optionLines([COMMON_OPTIONS.root], 17)}
  --no-server      Build refs in this process, each in a private temporary folder.
${optionLines([COMMON_OPTIONS.help], 17)}

Exit codes: 0 the answer is printed; 2 bad usage or a ref git does not know; 3 a side is
unavailable (as for kg diff).
`;

const TIERS = ['proven', 'guessed', 'holes'] as const;
type Tier = (typeof TIERS)[number];

/** Rows of each tier a markdown comment lists before it says how many more there are. */
const MARKDOWN_ROWS = 100;

interface ChangedSymbol {
  id: string;
  change: 'added' | 'modified' | 'removed';
}

interface TestsAnswer {
  base: DiffSide;
  head: DiffSide;
  changed: { symbols: ChangedSymbol[]; unreadFiles: string[] };
  tests: Omit<TestSelection, 'unread'>;
  unread: TestSelection['unread'];
  totals: { testFiles: number; changedSymbols: number; proven: number; guessed: number; holes: number };
  notes: string[];
}

function fileSet(g: Graph): Set<string> {
  const out = new Set<string>();
  for (const n of g.nodes) if (n.kind === 'file' && n.sourceFile !== undefined) out.add(n.sourceFile);
  return out;
}

/** package.json's `jest.testMatch` and `jest.testRegex` (read as JSON: a config file that is code is never run). */
/** A package.json's `name`, when it is one. */
function packageName(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

function testConfig(text: string | undefined): TestConfig {
  if (text === undefined) return {};
  try {
    const jest = (JSON.parse(text) as { jest?: { testMatch?: unknown; testRegex?: unknown } }).jest;
    const strings = (v: unknown): string[] =>
      typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    return { globs: strings(jest?.testMatch), regexes: strings(jest?.testRegex) };
  } catch {
    return {};
  }
}

function readWorktree(root: string, file: string): string | undefined {
  const abs = path.join(root, ...file.split('/'));
  try {
    return fs.lstatSync(abs).isFile() ? fs.readFileSync(abs, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

export async function runTests(args: string[], io: CliIo, server?: ServerContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      format: { type: 'string', default: 'json' },
      tier: { type: 'string', default: 'guessed' },
      root: { type: 'string' },
      'no-server': { type: 'boolean', default: false },
    },
    true,
  );
  if (values.format !== 'json' && values.format !== 'list' && values.format !== 'markdown')
    throw new UsageError(`--format must be "json", "list" or "markdown", not "${values.format}"`);
  if (!(TIERS as readonly string[]).includes(values.tier))
    throw new UsageError(`--tier must be "proven", "guessed" or "holes", not "${values.tier}"`);
  if (positionals.length > 2) throw new UsageError(`at most two sides (BASE and HEAD), not ${positionals.length}`);
  const start = values.root !== undefined ? path.resolve(io.cwd, values.root) : findRepositoryRoot(io.cwd).root;
  const log = (m: string) => io.stderr.write(`kg: tests: ${m}\n`);
  try {
    const [baseSpec, headSpec] = positionals;
    for (const spec of positionals)
      if (spec.endsWith('.json') && fs.existsSync(path.resolve(io.cwd, spec)))
        throw new RefError(
          `${spec}: kg tests compares the files' code, so each side is a git ref (or the working tree), not a graph file`,
          'usage',
        );
    const root = gitTopLevel(start);
    if (root === undefined) throw new RefError(`${start} is not in a git repository: kg tests reads the change from git`, 'usage');
    const ctx: SideContext = { root, log, built: [], server: values['no-server'] ? undefined : server };
    const base = baseSpec !== undefined ? await refSide(baseSpec, ctx) : await mergeBaseSide(headSpec ?? 'HEAD', ctx);
    const head = headSpec !== undefined ? await refSide(headSpec, ctx) : worktreeSide(ctx);
    const baseTree = base.tree as string;
    const headText = (file: string): string | undefined =>
      head.tree !== undefined ? textAt(root, head.tree, file) : readWorktree(root, file);
    const paths = head.tree !== undefined ? pathsBetween(root, baseTree, head.tree) : worktreePathsFrom(root, baseTree);
    const answer = testsAnswer(base, head, paths, (f) => textAt(root, baseTree, f), headText);
    log(
      `${answer.totals.changedSymbols} changed symbols reach ${answer.totals.proven} test files proven, ${answer.totals.guessed} guessed, ${answer.totals.holes} through holes (of ${answer.totals.testFiles})`,
    );
    const tier = values.tier as Tier;
    if (values.format === 'list')
      io.stdout.write(
        listOf(answer, tier)
          .map((f) => f + '\n')
          .join(''),
      );
    else if (values.format === 'markdown') io.stdout.write(markdownOf(answer, tier));
    else io.stdout.write(jsonForPeople(answer) + '\n');
    return EXIT.OK;
  } catch (e) {
    return sideErrorExit(e, io, 'tests');
  }
}

/** The answer from the two sides' graphs, the paths that differ and each side's text of a path. */
function testsAnswer(
  base: { graph: Graph; side: DiffSide },
  head: { graph: Graph; side: DiffSide },
  paths: readonly string[],
  baseText: (file: string) => string | undefined,
  headText: (file: string) => string | undefined,
): TestsAnswer {
  const baseG = indexed(base.graph, base.side.spec);
  const headG = indexed(head.graph, head.side.spec);
  const baseFiles = fileSet(base.graph);
  const headFiles = fileSet(head.graph);
  const symbols: ChangedSymbol[] = [];
  const touched: string[] = [];
  const removed: string[] = [];
  const touchedExports: Array<{ file: string; path: string[] }> = [];
  const unreadFiles: string[] = [];
  const notes: string[] = [];
  for (const file of paths) {
    if (!baseFiles.has(file) && !headFiles.has(file)) {
      unreadFiles.push(file);
      continue;
    }
    const before = baseFiles.has(file) ? codeHashesOf(file, baseText(file)) : {};
    const after = headFiles.has(file) ? codeHashesOf(file, headText(file)) : {};
    let unplaced = false;
    for (const id of Object.keys(after).sort()) {
      if (before[id] === after[id]) continue;
      symbols.push({ id, change: before[id] === undefined ? 'added' : 'modified' });
      // A JavaScript file whose own code changed only inside functions it exports: those
      // functions, by their exported names, stand for the change, not the file's loading (ADR 196).
      const inExports =
        id === `file:${file}` && before[id] !== undefined ? exportsChanged(file, baseText(file), headText(file)) : undefined;
      if (inExports !== undefined) for (const p of inExports) touchedExports.push({ file, path: p });
      else if (headG.rankOf.has(id)) touched.push(id);
      else unplaced = true;
    }
    for (const id of Object.keys(before).sort()) {
      if (after[id] !== undefined) continue;
      symbols.push({ id, change: 'removed' });
      if (baseG.rankOf.has(id)) removed.push(id);
    }
    // Changed code the graph holds no node for: the file's loading stands for it.
    if (unplaced && headFiles.has(file)) touched.push(`file:${file}`);
  }
  if (unreadFiles.length > 0)
    notes.push(
      `${unreadFiles.length} changed file${unreadFiles.length === 1 ? ' is' : 's are'} not read by the graph (${unreadFiles.slice(0, 5).join(', ')}${unreadFiles.length > 5 ? ', …' : ''}): tests that load ${unreadFiles.length === 1 ? 'it' : 'them'} are not selected`,
    );
  const config = testConfig(headText('package.json'));
  const isTest = testFileRule(config);
  const exportsRead = new Map<string, ReturnType<typeof commonJsExports>>();
  const commonJs = (file: string) => {
    if (!/\.(?:[cm]?jsx?|d\.[cm]?ts)$/.test(file)) return undefined;
    if (!exportsRead.has(file)) {
      const text = headText(file);
      exportsRead.set(file, text === undefined ? undefined : commonJsExports(file, text));
    }
    return exportsRead.get(file);
  };
  // The repository's own package names: a require of one may load this code (ADR 196).
  const ownPackages = new Set<string>();
  for (const from of new Set(['package.json', ...(headG.graph.entries ?? []).map((e) => e.from)]))
    if (from.endsWith('package.json')) {
      const name = packageName(headText(from));
      if (name !== undefined) ownPackages.add(name);
    }
  const selection = selectTests({ head: headG, base: baseG, touched, removed, isTest, headFiles, touchedExports, commonJs, ownPackages });
  const testFiles = [...headFiles].filter(isTest).length;
  symbols.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    base: base.side,
    head: head.side,
    changed: { symbols, unreadFiles },
    tests: { proven: selection.proven, guessed: selection.guessed, holes: selection.holes },
    unread: selection.unread,
    totals: {
      testFiles,
      changedSymbols: symbols.length,
      proven: selection.proven.length,
      guessed: selection.guessed.length,
      holes: selection.holes.length,
    },
    notes,
  };
}

function indexed(graph: Graph, spec: string): IndexedGraph {
  const load = indexGraph(graph);
  if (!load.ok) throw new RefError(`${spec}: ${load.unavailable.reason}`, 'unavailable');
  return load.graph;
}

function exportsChanged(file: string, before: string | undefined, after: string | undefined): string[][] | undefined {
  if (before === undefined || after === undefined || !/\.[cm]?jsx?$/.test(file)) return undefined;
  return changedExports(file, before, after);
}

function codeHashesOf(file: string, text: string | undefined): Record<string, string> {
  return text === undefined ? {} : codeHashes(file, text);
}

function tiersUpTo(tier: Tier): Tier[] {
  return TIERS.slice(0, TIERS.indexOf(tier) + 1);
}

function listOf(answer: TestsAnswer, tier: Tier): string[] {
  return tiersUpTo(tier)
    .flatMap((t) => answer.tests[t].map((s) => s.file))
    .sort();
}

function chainText(s: SelectedTest): string {
  let out = '`' + s.path[0] + '`';
  for (let i = 0; i < s.steps.length; i++) {
    const step = s.steps[i];
    const how = step.hole ?? (step.confidence === 'EXACT' ? step.relation : `${step.relation} ${step.confidence}`);
    out += ` ←${how}─ \`${s.path[i + 1]}\``;
  }
  return s.graph === 'base' ? out + ' (in BASE)' : out;
}

const TIER_TITLE: Record<Tier, string> = {
  proven: 'Proven (every step an EXACT edge)',
  guessed: 'Guessed (through a name match)',
  holes: 'Through holes (what the graph cannot see)',
};

function markdownOf(answer: TestsAnswer, tier: Tier): string {
  const t = answer.totals;
  const lines = [
    '### Tests this change can reach',
    '',
    `${t.changedSymbols} changed symbol${t.changedSymbols === 1 ? '' : 's'} reach ${t.proven} test file${t.proven === 1 ? '' : 's'} proven, ${t.guessed} guessed and ${t.holes} through holes, of ${t.testFiles}.`,
  ];
  for (const n of answer.notes) lines.push('', `> ${n}`);
  for (const name of tiersUpTo(tier)) {
    const rows = answer.tests[name];
    if (rows.length === 0) continue;
    lines.push(
      '',
      `<details><summary>${TIER_TITLE[name]}: ${rows.length}</summary>`,
      '',
      '| Test file | Path from the change |',
      '|---|---|',
    );
    for (const s of rows.slice(0, MARKDOWN_ROWS)) lines.push(`| \`${s.file}\` | ${chainText(s).replace(/\|/g, '\\|')} |`);
    if (rows.length > MARKDOWN_ROWS) lines.push('', `…and ${rows.length - MARKDOWN_ROWS} more (kg tests --format json lists them all).`);
    lines.push('', '</details>');
  }
  return lines.join('\n') + '\n';
}
