// `kg tests [BASE] [HEAD]`: the test files whose code can reach what a change touched, in three
// tiers kept apart (docs/adr/0165-the-tests-a-change-can-reach.md): proven (every step an EXACT
// edge), guessed (a step is a CANDIDATE name match) and holes (a step goes through what the graph
// cannot see: an UNRESOLVED call carrying the name, or a module's top-level use of the change,
// which its importers may run). Each selected test comes with the shortest chain of ids from a
// changed symbol to the test file's code, found breadth-first from the changed ids in id order,
// so the same two sides always give the same chain.
//
// The walk goes inbound along the consumer relations (src/graph/consumers.ts): calls and the uses
// (references, imports, re-exports, heritage). Dispatch goes the other way: a changed method is run
// by every call to a member it implements or overrides, so the walk steps up to that member and
// on to its consumers. An `implements`/`overrides` edge into a changed member is not followed: a
// sibling implementation does not run it. A file's node is reached when its top-level code uses
// the change. Loading that file runs the change only through a call (or when the file's own code
// changed, or it imports a file that does): then its importers are reached, proven. A top-level
// use that is not a call (`app.use(handler)`, or only the named import) may or may not run it, so
// its importers are a hole.
//
// A package's own declaration file stands for its JavaScript (ADR 172): the checker reads
// `require('..')` as the `types` file, so a test's calls are proven against the declarations and
// reach nothing of the code that runs. When the walk reaches the JavaScript a declaration file
// describes (its sibling `x.d.ts` of `x.js`, or package.json's `types` beside its `main`), it goes
// on to the declaration file, as a guess: which declaration stands for which function is not proven.
// A JavaScript method (`C.prototype.m = function`, a node of its own: ADR 188) with no declaration
// of its id there goes on to the declaration file's members of its name, as the same guess.

import { USE_RELATIONS } from '../consumers';
import { unresolvedId } from '../ids';
import { UNRESOLVED_PREFIX, type CommonJsExports, type Confidence } from '../model';
import { dispatchVias } from './callers';
import { declarationFiles, exportId, ExportStates, exportSteps, nodePlacer, type ExportSteps } from './commonjs-steps';
import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';
export { testFileRule, type TestConfig } from './test-files';
import { unanalysedImporters, unresolvedNamedSources } from './unanalysed';

/** What the walk follows inbound: calls and the uses (USE_RELATIONS has no dispatch: it is followed outbound). */
const WALKED: ReadonlySet<string> = new Set(['calls', ...USE_RELATIONS]);

/** Relations by which a file that reaches a loading file loads it too. */
const LOADS_THROUGH: ReadonlySet<string> = new Set(['calls', 'imports', 're-exports']);

interface TestStep {
  /** A relation of the graph, `dispatch` (up to a member it implements or overrides) or `unresolved-named`. */
  relation: string;
  confidence: Confidence;
  /** Why a step of the holes tier is one: `unresolved-named`, or `top-level-use` (an importer of a file whose top-level code names the change). */
  hole?: 'unresolved-named' | 'top-level-use';
  /**
   * Why a step of the guessed tier that is no CANDIDATE edge is a guess: `unresolved-import`, an
   * UNRESOLVED call carrying the name from a file whose unresolved relative import names the
   * changed symbol's file when read as Node reads it (ADR 167); `declaration-file`, a step
   * (relation `describes`) from reached JavaScript to the package's declaration file that stands
   * for it, or to the declaration there of the same name (ADR 172); `computed-key`, an UNRESOLVED
   * `obj[k]()` call into a member declared `[k]`, from code that names the same declaration of
   * `k` as the member's key (ADR 172); `commonjs-export`, a step read from a JavaScript file's
   * text (ADR 196): from a function it exports to a file that exports it again, or from a use
   * inside exported functions to those functions.
   */
  guess?: 'unresolved-import' | 'declaration-file' | 'computed-key' | 'commonjs-export';
}

export interface SelectedTest {
  file: string;
  /** The changed id the chain starts from. */
  change: string;
  /** The chain of ids from the change to code of the test file; `steps[i]` leads from `path[i]` to `path[i + 1]`. */
  path: string[];
  steps: TestStep[];
  /** `base` when the chain is in BASE's graph (from a symbol the change removed). */
  graph?: 'base';
}

interface UnreadUse {
  /** A file of a type the graph does not read whose text imports the file of `via` (ADR 153). */
  file: string;
  via: string;
}

export interface TestSelection {
  proven: SelectedTest[];
  guessed: SelectedTest[];
  holes: SelectedTest[];
  /** Files the graph does not read that import reached code: tests that load them are not followed. */
  unread: UnreadUse[];
}

export interface TestSelectionInput {
  head: IndexedGraph;
  /** BASE's graph, walked from the removed ids. */
  base?: IndexedGraph;
  /** Ids of HEAD's graph the change added or modified (symbols; files whose own top-level code changed). */
  touched: readonly string[];
  /** Ids of BASE's graph the change removed. */
  removed: readonly string[];
  /** Whether a file is a test file (testFileRule). */
  isTest: (file: string) => boolean;
  /** HEAD's files: a test only BASE has cannot run. */
  headFiles: ReadonlySet<string>;
  /**
   * Functions of JavaScript files the change touched in place of their file (ADR 196): each a
   * function a top-level `module.exports…=` statement assigns, by its exported path ([] for
   * `module.exports`), when the file's other top-level code did not change.
   */
  touchedExports?: ReadonlyArray<{ file: string; path: readonly string[] }>;
  /** HEAD's files' CommonJS exports (a declaration file's `export =`), read on demand (ADR 196). */
  commonJs?: (file: string) => CommonJsExports | undefined;
  /** The names of the repository's own packages (package.json `name`): a require of one may be of this code (ADR 196). */
  ownPackages?: ReadonlySet<string>;
}

const TIER_OF = ['proven', 'guessed', 'holes'] as const;

interface Hit {
  tier: number;
  test: SelectedTest;
}

/**
 * The steps back along the walked edges into rank `r` (of `file`), each with whether its source
 * runs the change when loaded. `unloadedFile`: `r` is a file's node reached without loading it.
 */
function stepsIn(
  g: IndexedGraph,
  r: number,
  file: string | undefined,
  unloadedFile: boolean,
  maxClass: number,
  isTest: (file: string) => boolean,
): Array<{ source: number; loads: boolean; step: TestStep; edge: number }> {
  const out: Array<{ source: number; loads: boolean; step: TestStep; edge: number }> = [];
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    const relation = g.edgeRelation[e];
    if (!WALKED.has(relation)) continue;
    const conf = g.edgeConfidence[e];
    if (conf === CONFIDENCE_CODE.UNRESOLVED) continue;
    const source = g.edgeSource[e];
    if (source === r) continue;
    // A barrel's `export { x } from './x'` names x at top level; its importers reach x itself
    // (the checker follows the alias), so the barrel's importers are no hole.
    if (relation === 'references' && file !== undefined && reexportsFrom(g, source, file) && !isTest(g.nodeAt[source]?.sourceFile ?? ''))
      continue;
    let cls = conf === CONFIDENCE_CODE.EXACT ? 0 : 1;
    let hole: TestStep['hole'];
    // An importer of a file whose top-level code only names the change may not run it: a hole.
    // A test file is the exception: loading it registers and runs its tests (node:test, tape,
    // Mocha's describe), so whoever loads it runs what it reaches (ADR 167).
    if (unloadedFile && !(file !== undefined && isTest(file)) && (relation === 'imports' || relation === 're-exports')) {
      cls = 2;
      hole = 'top-level-use';
    }
    if (cls > maxClass) continue;
    const step: TestStep = { relation, confidence: conf === CONFIDENCE_CODE.EXACT ? 'EXACT' : 'CANDIDATE' };
    if (hole) step.hole = hole;
    // A file that calls the change at top level, or imports a file reached, runs it when loaded.
    out.push({ source, loads: LOADS_THROUGH.has(relation), step, edge: e });
  }
  return out;
}

/**
 * One breadth-first walk of `g` from `starts` using steps of class at most `maxClass` (0 EXACT,
 * 1 CANDIDATE, 2 hole). States are a rank and, for a file's node, whether loading the file runs
 * the change (`loads`): state = rank * 2 + loads. Returns the first state reached in each test file.
 */
function walk(
  g: IndexedGraph,
  starts: readonly number[],
  maxClass: number,
  isTest: (file: string) => boolean,
  nodeImports: ReadonlyMap<string, ReadonlySet<string>>,
  nodeImporters: ReadonlyMap<string, readonly string[]>,
  declarations: ReadonlyMap<string, string>,
  declaredMembers: ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>,
  exportsOf: ExportSteps | undefined,
  exportStarts: ReadonlyArray<{ file: string; path: readonly string[] }>,
  unread?: Map<string, UnreadUse>,
  unreadFiles?: Map<string, string[]>,
): Map<string, { path: string[]; steps: TestStep[] }> {
  const n = g.ids.length * 2;
  // States past `n` are exported functions of JavaScript files (ADR 196), numbered as reached.
  const ex = new ExportStates(n);
  const seenNodes = new Uint8Array(n);
  const seenExported = new Set<number>();
  const isSeen = (s: number) => (s < n ? seenNodes[s] === 1 : seenExported.has(s));
  const markSeen = (s: number) => (s < n ? (seenNodes[s] = 1) : seenExported.add(s));
  const parent = new Map<number, number>();
  const stepOf = new Map<number, TestStep>();
  const queue: number[] = [];
  const found = new Map<string, { path: string[]; steps: TestStep[] }>();
  for (const r of starts) {
    const s = r * 2 + (g.nodeAt[r]?.kind === 'file' ? 1 : 0);
    if (isSeen(s)) continue;
    markSeen(s);
    queue.push(s);
  }
  for (const x of exportStarts) {
    const s = ex.state(x.file, x.path);
    if (isSeen(s)) continue;
    markSeen(s);
    queue.push(s);
  }
  const idOf = (s: number): string => (s < n ? g.ids[s >> 1] : exportId(ex.of(s).file, ex.of(s).path));
  const chain = (s: number): { path: string[]; steps: TestStep[] } => {
    const path: string[] = [];
    const steps: TestStep[] = [];
    for (let at: number | undefined = s; at !== undefined; at = parent.get(at)) {
      path.push(idOf(at));
      const step = stepOf.get(at);
      if (step) steps.push(step);
    }
    return { path: path.reverse(), steps: steps.reverse() };
  };
  const enter = (from: number, s: number, step: TestStep) => {
    if (isSeen(s)) return;
    markSeen(s);
    parent.set(s, from);
    stepOf.set(s, step);
    queue.push(s);
  };
  const reach = (from: number, r: number, loads: boolean, step: TestStep) =>
    enter(from, r * 2 + (loads && g.nodeAt[r]?.kind === 'file' ? 1 : 0), step);
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    if (s >= n) {
      const here = unread && unreadFiles ? (f: string) => unreadFiles.get(f) ?? [] : undefined;
      const reads = stepFromExport(
        g,
        ex.of(s),
        s,
        maxClass,
        exportsOf,
        declarations,
        { reach, enter: (a, step) => enter(s, ex.state(a.file, a.path), step) },
        here,
      );
      for (const u of reads) if (unread && !unread.has(u)) unread.set(u, { file: u, via: idOf(s) });
      continue;
    }
    const r = s >> 1;
    const loads = (s & 1) === 1;
    const node = g.nodeAt[r];
    if (!node) continue;
    const file = node.sourceFile;
    if (file !== undefined && isTest(file) && !found.has(file)) found.set(file, chain(s));
    if (unread && unreadFiles && file !== undefined) {
      for (const u of unreadFiles.get(file) ?? []) if (!unread.has(u)) unread.set(u, { file: u, via: g.ids[r] });
    }
    const isFile = node.kind === 'file';
    // A file whose unresolved relative import names this one when read as Node reads it loads
    // it, and its uses of what it bound are unplaced: when this file's code is reached, it may
    // use the change (a guess, ADR 167).
    if (isFile && maxClass >= 1 && file !== undefined)
      for (const importer of nodeImporters.get(file) ?? []) {
        const t = g.rankOf.get(`file:${importer}`);
        if (t !== undefined) reach(s, t, true, { relation: 'imports', confidence: 'CANDIDATE', guess: 'unresolved-import' });
      }
    // The package's declaration file that stands for this JavaScript (ADR 172).
    for (const d of declarationSteps(g, r, maxClass, declarations, declaredMembers)) reach(s, d.rank, d.loads, DESCRIBES);
    for (const x of stepsIn(g, r, file, isFile && !loads, maxClass, isTest)) {
      // A file that only reads members of the function a declaration file's `export =` names
      // (`resolve.sync(…)`) does not run it: its members are declarations of their own (ADR 196).
      if (exportsOf?.membersOnly(r, x.source, x.edge) === true) continue;
      // A use in a file's own code that lies in functions or statements it exports, and only
      // there: those exported names use it, not the file's loading (ADR 196).
      const inExports = maxClass >= 1 ? exportsOf?.usesIn(x.source, x.edge) : undefined;
      if (inExports !== undefined)
        for (const p of inExports)
          enter(s, ex.state(p.file, p.path), { relation: x.step.relation, confidence: 'CANDIDATE', guess: 'commonjs-export' });
      else reach(s, x.source, x.loads, x.step);
    }
    for (const x of symbolSteps(g, r, maxClass, nodeImports)) reach(s, x.rank, x.loads, x.step);
  }
  return found;
}

const DESCRIBES: TestStep = { relation: 'describes', confidence: 'CANDIDATE', guess: 'declaration-file' };

/**
 * The package's declaration file that stands for the JavaScript of rank `r` (ADR 172): from the
 * file's node, the declaration file, whose users load this one (Node runs the JavaScript); from a
 * symbol, the declaration there of the same name; from a method of the JavaScript (`Boot.prototype.use
 * = function`, ADR 188) that the declaration file describes under another owner (`avvio.Server.use`),
 * its members of the same name, all of them. Guesses: none in the proven tier.
 */
function declarationSteps(
  g: IndexedGraph,
  r: number,
  maxClass: number,
  declarations: ReadonlyMap<string, string>,
  declaredMembers: ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>,
): Array<{ rank: number; loads: boolean }> {
  const node = g.nodeAt[r];
  const file = node?.sourceFile;
  const declaration = maxClass >= 1 && file !== undefined ? declarations.get(file) : undefined;
  if (node === undefined || declaration === undefined) return [];
  if (node.kind === 'file') {
    const t = g.rankOf.get(`file:${declaration}`);
    return t === undefined ? [] : [{ rank: t, loads: true }];
  }
  if (!node.id.startsWith(`sym:${file}#`)) return [];
  const t = g.rankOf.get(`sym:${declaration}#${node.id.slice(`sym:${file}#`.length)}`);
  if (t !== undefined) return [{ rank: t, loads: false }];
  if (node.kind !== 'method') return [];
  return (declaredMembers.get(declaration)?.get(node.label.slice(node.label.lastIndexOf('.') + 1)) ?? []).map((m) => ({
    rank: m,
    loads: false,
  }));
}

/**
 * From a symbol of rank `r`: up to the members it implements or overrides (dispatch); an unplaced
 * call carrying the name, a hole unless its file's unresolved relative import names this symbol's
 * file when read as Node reads it, then a guess (ADR 167); a member whose name is a computed key,
 * `[k] () {}`, called as `this[k]()` — the checker places no call when `k` is no unique symbol
 * (JavaScript's `Symbol()`) — a guess when the caller names the declaration of `k` the member's
 * key names, else a hole (ADR 172).
 */
function symbolSteps(
  g: IndexedGraph,
  r: number,
  maxClass: number,
  nodeImports: ReadonlyMap<string, ReadonlySet<string>>,
): Array<{ rank: number; loads: boolean; step: TestStep }> {
  const out: Array<{ rank: number; loads: boolean; step: TestStep }> = [];
  const node = g.nodeAt[r];
  if (node === undefined || !node.id.startsWith('sym:')) return out;
  const file = node.sourceFile;
  for (const v of dispatchVias(g, r)) out.push({ rank: v.rank, loads: false, step: { relation: 'dispatch', confidence: 'EXACT' } });
  const hole: TestStep = { relation: 'calls', confidence: 'UNRESOLVED', hole: 'unresolved-named' };
  if (maxClass >= 1)
    for (const source of unresolvedNamedSources(g, r)) {
      const from = g.nodeAt[source]?.sourceFile;
      const named = file !== undefined && from !== undefined && nodeImports.get(from)?.has(file) === true;
      if (named) out.push({ rank: source, loads: true, step: { relation: 'calls', confidence: 'CANDIDATE', guess: 'unresolved-import' } });
      else if (maxClass >= 2) out.push({ rank: source, loads: true, step: hole });
    }
  if (maxClass >= 1)
    for (const { source, sameKey } of computedKeySources(g, r)) {
      if (sameKey) out.push({ rank: source, loads: true, step: { relation: 'calls', confidence: 'CANDIDATE', guess: 'computed-key' } });
      else if (maxClass >= 2) out.push({ rank: source, loads: true, step: hole });
    }
  return out;
}

/**
 * The steps from an exported function's state `s` (ADR 196): the declarations of its exported name
 * stand for it, the files that export it again under a name of theirs, and whoever requires its
 * file in a way not read (their loading). Every step is a guess, so in the proven tier it steps
 * nowhere; a function whose file has no declaration of the name goes on from the file's loading,
 * as for any change in it. Returns the unread files (ADR 153) that import its file, in the holes tier.
 */
function stepFromExport(
  g: IndexedGraph,
  x: { file: string; path: readonly string[] },
  s: number,
  maxClass: number,
  exportsOf: ExportSteps | undefined,
  declarations: ReadonlyMap<string, string>,
  to: {
    reach: (from: number, r: number, loads: boolean, step: TestStep) => void;
    enter: (again: { file: string; path: readonly string[] }, step: TestStep) => void;
  },
  unreadOf: ((file: string) => readonly string[]) | undefined,
): string[] {
  const next = exportsOf?.next(x.file, x.path);
  if (next === undefined) {
    const t = g.rankOf.get(`file:${x.file}`);
    if (t !== undefined) to.reach(s, t, true, { relation: 'contains', confidence: 'EXACT' });
    return [];
  }
  const reads: string[] = [];
  if (unreadOf) for (const f of [x.file, declarations.get(x.file)]) if (f !== undefined) reads.push(...unreadOf(f));
  if (maxClass < 1) return reads;
  const read = (relation: string, guess: TestStep['guess'] = 'commonjs-export'): TestStep => ({ relation, confidence: 'CANDIDATE', guess });
  for (const d of next.declarations) to.reach(s, d, false, read('describes', 'declaration-file'));
  for (const a of next.again) to.enter(a, read('re-exports'));
  for (const t of next.loading) to.reach(s, t, true, read('imports'));
  for (const t of next.whole) to.reach(s, t, false, read('references'));
  for (const t of next.unresolvedImporters) to.reach(s, t, true, read('imports', 'unresolved-import'));
  return reads;
}

/** The EXACT `references` targets of rank `r` whose name (a label's last segment) is `name`. */
function referencedNamed(g: IndexedGraph, r: number, name: string): Set<number> {
  const out = new Set<number>();
  for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
    const e = g.outEdges[k];
    if (g.edgeRelation[e] !== 'references' || g.edgeConfidence[e] !== CONFIDENCE_CODE.EXACT) continue;
    const label = g.nodeAt[g.edgeTarget[e]]?.label;
    if (label !== undefined && label.slice(label.lastIndexOf('.') + 1) === name) out.add(g.edgeTarget[e]);
  }
  return out;
}

/**
 * The sources of the UNRESOLVED `dynamic-access` calls into the computed name of member rank `r`
 * (`unresolved:[k]` for a member labelled `….[k]`), in source rank order; `sameKey` when the
 * source names (an EXACT reference) a declaration of `k` that the member's key names too.
 */
function computedKeySources(g: IndexedGraph, r: number): Array<{ source: number; sameKey: boolean }> {
  const label = g.nodeAt[r]?.label;
  if (label === undefined || !label.endsWith(']')) return [];
  const open = label.lastIndexOf('[');
  if (open < 0) return [];
  const key = label.slice(open + 1, -1);
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(key)) return [];
  const t = g.rankOf.get(unresolvedId(`[${key}]`));
  if (t === undefined) return [];
  const keys = referencedNamed(g, r, key);
  const out: Array<{ source: number; sameKey: boolean }> = [];
  for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] !== 'calls' || g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED) continue;
    if (g.graph.edges[e].reason !== 'dynamic-access') continue;
    const source = g.edgeSource[e];
    if (source === r || out.some((o) => o.source === source)) continue;
    const named = referencedNamed(g, source, key);
    out.push({ source, sameKey: [...named].some((x) => keys.has(x)) });
  }
  return out.sort((a, b) => a.source - b.source);
}

/** Whether rank `source` is a file's node with a `re-exports` edge to `file`. */
function reexportsFrom(g: IndexedGraph, source: number, file: string): boolean {
  if (g.nodeAt[source]?.kind !== 'file') return false;
  for (let k = g.outStart[source]; k < g.outStart[source + 1]; k++) {
    const e = g.outEdges[k];
    if (g.edgeRelation[e] === 're-exports' && g.nodeAt[g.edgeTarget[e]]?.sourceFile === file) return true;
  }
  return false;
}

/** The test files a change can reach, by tier, each with its chain (ADR 165). */
export function selectTests(input: TestSelectionInput): TestSelection {
  const best = new Map<string, Hit>();
  const unread = new Map<string, UnreadUse>();
  // Without the files' exports, an exported function's file stands for it, as for any change in it.
  const headIds = input.commonJs ? input.touched : [...input.touched, ...(input.touchedExports ?? []).map((x) => `file:${x.file}`)];
  const sides: Array<{ g: IndexedGraph; ids: readonly string[]; side?: 'base' }> = [{ g: input.head, ids: headIds }];
  if (input.base) sides.push({ g: input.base, ids: input.removed, side: 'base' });
  for (const { g, ids, side } of sides) {
    const exportStarts = side === undefined && input.commonJs ? (input.touchedExports ?? []) : [];
    const starts = [...new Set(ids)]
      .map((id) => g.rankOf.get(id))
      .filter((r): r is number => r !== undefined && r < g.nodeCount)
      .sort((a, b) => a - b);
    if (starts.length === 0 && exportStarts.length === 0) continue;
    const unreadFiles = unreadByFile(g);
    const nodeImports = unresolvedRelativeImports(g);
    const declarations = declarationFiles(g);
    const declaredMembers = membersByName(g, new Set(declarations.values()));
    const nodeImporters = new Map<string, string[]>();
    for (const [from, targets] of [...nodeImports].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
      for (const t of targets) nodeImporters.set(t, [...(nodeImporters.get(t) ?? []), from]);
    const exportsOf =
      side === undefined && input.commonJs ? exportSteps(g, input.commonJs, declarations, nodeImporters, input.ownPackages) : undefined;
    for (let tier = 0; tier < 3; tier++) {
      const found = walk(
        g,
        starts,
        tier,
        input.isTest,
        nodeImports,
        nodeImporters,
        declarations,
        declaredMembers,
        exportsOf,
        exportStarts,
        tier === 2 ? unread : undefined,
        unreadFiles,
      );
      for (const [file, { path, steps }] of found) {
        if (!input.headFiles.has(file)) continue;
        const had = best.get(file);
        if (had && had.tier <= tier) continue;
        const test: SelectedTest = { file, change: path[0], path, steps };
        if (side) test.graph = side;
        best.set(file, { tier, test });
      }
    }
  }
  const out: TestSelection = { proven: [], guessed: [], holes: [], unread: [] };
  for (const file of [...best.keys()].sort()) {
    const hit = best.get(file) as Hit;
    out[TIER_OF[hit.tier]].push(hit.test);
  }
  out.unread = [...unread.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return out;
}

/**
 * File → the graph's files its UNRESOLVED relative imports name when read as Node reads them
 * (ADR 167): the path itself, with an extension Node tries, the folder's package.json `main`
 * (graph.json's `entries`) or its index. The project's own resolution may not find them (a
 * tsconfig whose settings select Classic resolution reads `require('..')` as nothing); Node does.
 */
function unresolvedRelativeImports(g: IndexedGraph): Map<string, Set<string>> {
  const place = nodePlacer(g);
  const out = new Map<string, Set<string>>();
  for (let e = 0; e < g.graph.edges.length; e++) {
    if (g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED) continue;
    const relation = g.edgeRelation[e];
    if (relation !== 'imports' && relation !== 're-exports') continue;
    const target = g.ids[g.edgeTarget[e]];
    const from = g.nodeAt[g.edgeSource[e]]?.sourceFile;
    if (from === undefined || !target.startsWith(`${UNRESOLVED_PREFIX}.`)) continue;
    const placed = place(from, target.slice(UNRESOLVED_PREFIX.length));
    if (placed === undefined) continue;
    const set = out.get(from) ?? new Set<string>();
    set.add(placed);
    out.set(from, set);
  }
  return out;
}

/** Declaration file → member name (a label's last segment) → the ranks of its methods and properties so named, in rank order (ADR 188). */
function membersByName(g: IndexedGraph, files: ReadonlySet<string>): Map<string, Map<string, number[]>> {
  const out = new Map<string, Map<string, number[]>>();
  if (files.size === 0) return out;
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r];
    if (!n || (n.kind !== 'method' && n.kind !== 'property') || n.sourceFile === undefined || !files.has(n.sourceFile)) continue;
    const name = n.label.slice(n.label.lastIndexOf('.') + 1);
    let byName = out.get(n.sourceFile);
    if (!byName) out.set(n.sourceFile, (byName = new Map()));
    const list = byName.get(name);
    if (list) list.push(r);
    else byName.set(name, [r]);
  }
  return out;
}

/** File → the unanalysed files whose text imports it (through re-exports too), ADR 153. */
function unreadByFile(g: IndexedGraph): Map<string, string[]> {
  return unanalysedImporters(g.graph);
}
