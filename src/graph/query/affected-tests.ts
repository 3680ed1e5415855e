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
import type { CommonJsExports, Confidence } from '../model';
import { dispatchVias } from './callers';
import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';
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
  const exported: Array<{ file: string; path: readonly string[] }> = [];
  const exportedAt = new Map<string, number>();
  const exportState = (file: string, path: readonly string[]): number => {
    const key = `${file}\u0000${path.join('.')}`;
    let i = exportedAt.get(key);
    if (i === undefined) {
      i = exported.length;
      exported.push({ file, path });
      exportedAt.set(key, i);
    }
    return n + i;
  };
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
    const s = exportState(x.file, x.path);
    if (isSeen(s)) continue;
    markSeen(s);
    queue.push(s);
  }
  const idOf = (s: number): string => {
    if (s < n) return g.ids[s >> 1];
    const x = exported[s - n];
    return exportId(x.file, x.path);
  };
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
      // An exported function (ADR 196): the declarations of its exported name stand for it, the
      // files that export it again under a name of theirs, and whoever requires its file in a way
      // not read (their loading). Every step is a guess, so the proven tier, and a function whose
      // file has no declaration of the name, go on from the file's loading, as for any change in it.
      const x = exported[s - n];
      const next = exportsOf?.next(x.file, x.path);
      if (next === undefined) {
        const t = g.rankOf.get(`file:${x.file}`);
        if (t !== undefined) reach(s, t, true, { relation: 'contains', confidence: 'EXACT' });
        continue;
      }
      if (unread && unreadFiles) {
        for (const f of [x.file, declarations.get(x.file)])
          for (const u of (f === undefined ? undefined : unreadFiles.get(f)) ?? [])
            if (!unread.has(u)) unread.set(u, { file: u, via: idOf(s) });
      }
      if (maxClass < 1) continue;
      const guess: TestStep = { relation: 'describes', confidence: 'CANDIDATE', guess: 'declaration-file' };
      for (const d of next.declarations) reach(s, d, false, guess);
      for (const a of next.again)
        enter(s, exportState(a.file, a.path), { relation: 're-exports', confidence: 'CANDIDATE', guess: 'commonjs-export' });
      for (const t of next.loading) reach(s, t, true, { relation: 'imports', confidence: 'CANDIDATE', guess: 'commonjs-export' });
      for (const t of next.whole) reach(s, t, false, { relation: 'references', confidence: 'CANDIDATE', guess: 'commonjs-export' });
      for (const t of next.unresolvedImporters)
        reach(s, t, true, { relation: 'imports', confidence: 'CANDIDATE', guess: 'unresolved-import' });
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
    // The package's declaration file that stands for this JavaScript (ADR 172): from the file's
    // node, the declaration file, whose users load this one (Node runs the JavaScript); from a
    // symbol, the declaration there of the same name.
    const declaration = maxClass >= 1 && file !== undefined ? declarations.get(file) : undefined;
    if (declaration !== undefined) {
      const describes: TestStep = { relation: 'describes', confidence: 'CANDIDATE', guess: 'declaration-file' };
      if (isFile) {
        const t = g.rankOf.get(`file:${declaration}`);
        if (t !== undefined) reach(s, t, true, describes);
      } else if (node.id.startsWith(`sym:${file}#`)) {
        const t = g.rankOf.get(`sym:${declaration}#${node.id.slice(`sym:${file}#`.length)}`);
        if (t !== undefined) reach(s, t, false, describes);
        // A method of the JavaScript (`Boot.prototype.use = function`, ADR 188) that the
        // declaration file describes under another owner (`avvio.Server.use`): its members of
        // the same name, all of them.
        else if (node.kind === 'method')
          for (const m of declaredMembers.get(declaration)?.get(node.label.slice(node.label.lastIndexOf('.') + 1)) ?? [])
            reach(s, m, false, describes);
      }
    }
    for (const x of stepsIn(g, r, file, isFile && !loads, maxClass, isTest)) {
      // A file that only reads members of the function a declaration file's `export =` names
      // (`resolve.sync(…)`) does not run it: its members are declarations of their own (ADR 196).
      if (exportsOf?.membersOnly(r, x.source, x.edge) === true) continue;
      // A use in a file's own code that lies in functions or statements it exports, and only
      // there: those exported names use it, not the file's loading (ADR 196).
      const inExports = maxClass >= 1 ? exportsOf?.usesIn(x.source, x.edge) : undefined;
      if (inExports !== undefined)
        for (const p of inExports)
          enter(s, exportState(p.file, p.path), { relation: x.step.relation, confidence: 'CANDIDATE', guess: 'commonjs-export' });
      else reach(s, x.source, x.loads, x.step);
    }
    if (node.id.startsWith('sym:')) {
      for (const v of dispatchVias(g, r)) reach(s, v.rank, false, { relation: 'dispatch', confidence: 'EXACT' });
      // An unplaced call carrying the name is a hole, unless its file's unresolved relative
      // import names this symbol's file when read as Node reads it: then a guess (ADR 167).
      if (maxClass >= 1)
        for (const source of unresolvedNamedSources(g, r)) {
          const from = g.nodeAt[source]?.sourceFile;
          const named = file !== undefined && from !== undefined && nodeImports.get(from)?.has(file) === true;
          if (named) reach(s, source, true, { relation: 'calls', confidence: 'CANDIDATE', guess: 'unresolved-import' });
          else if (maxClass >= 2) reach(s, source, true, { relation: 'calls', confidence: 'UNRESOLVED', hole: 'unresolved-named' });
        }
      // A member whose name is a computed key, `[k] () {}`, called as `this[k]()`: the checker
      // places no call when `k` is no unique symbol (JavaScript's `Symbol()`). When the caller
      // names the declaration of `k` the member's key names, a guess; else a hole (ADR 172).
      if (maxClass >= 1)
        for (const { source, sameKey } of computedKeySources(g, r)) {
          if (sameKey) reach(s, source, true, { relation: 'calls', confidence: 'CANDIDATE', guess: 'computed-key' });
          else if (maxClass >= 2) reach(s, source, true, { relation: 'calls', confidence: 'UNRESOLVED', hole: 'unresolved-named' });
        }
    }
  }
  return found;
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

/** Extensions Node's CommonJS loader tries after a bare relative path, then a folder's index. */
const NODE_EXTENSIONS = ['.js', '.cjs', '.mjs', '.jsx', '.ts', '.cts', '.mts', '.tsx'];

/** A `/`-separated path with `.` and `..` segments applied ('' for the root; undefined above it). */
function normalisePath(p: string): string | undefined {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
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
    if (from === undefined || !target.startsWith('unresolved:.')) continue;
    const placed = place(from, target.slice('unresolved:'.length));
    if (placed === undefined) continue;
    const set = out.get(from) ?? new Set<string>();
    set.add(placed);
    out.set(from, set);
  }
  return out;
}

/** The graph's file a relative specifier of `from` names when read as Node reads it (ADR 167). */
function nodePlacer(g: IndexedGraph): (from: string, specifier: string) => string | undefined {
  const files = new Set<string>();
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r];
    if (n?.kind === 'file' && n.sourceFile !== undefined) files.add(n.sourceFile);
  }
  const mains = new Map<string, string>();
  for (const e of g.graph.entries ?? [])
    if (e.field === 'main' && !e.unplaced) mains.set(e.from.includes('/') ? e.from.slice(0, e.from.lastIndexOf('/')) : '', e.path);
  const place = (base: string): string | undefined => {
    if (files.has(base)) return base;
    for (const ext of NODE_EXTENSIONS) if (files.has(base + ext)) return base + ext;
    const main = mains.get(base);
    if (main !== undefined) return main;
    for (const ext of NODE_EXTENSIONS)
      if (files.has(`${base === '' ? '' : base + '/'}index${ext}`)) return `${base === '' ? '' : base + '/'}index${ext}`;
    return undefined;
  };
  return (from, specifier) => {
    if (!specifier.startsWith('.')) return undefined;
    const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '';
    const base = normalisePath(`${dir}/${specifier}`);
    return base === undefined ? undefined : place(base);
  };
}

/** The pseudo-id a chain names an exported function by: `cjs:lib/sync.js#module.exports.x`. */
function exportId(file: string, path: readonly string[]): string {
  return `cjs:${file}#${['module.exports', ...path].join('.')}`;
}

const JS_FILE = /\.[cm]?jsx?$/;

/** A bare specifier's package name: `a` of `a/b`, `@s/a` of `@s/a/b`. */
function packageOf(specifier: string): string {
  return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
}

/** The steps of the walk through CommonJS exports (ADR 196). */
interface ExportSteps {
  /**
   * From an exported function: the declarations of its exported name in its file's declaration
   * file; the files that export it again (`module.exports = require('./x')`, `a.b = require('./x')`
   * when `module.exports = a`); the files that require it some other way than into a name used
   * only as `name.member`, or whose text cannot be read (their loading); the users of the module
   * object whole (ADR 185); the files whose unresolved import names it (ADR 167). Undefined when
   * its file has no declaration file or that none of the name: then the file stands for it.
   */
  next(
    file: string,
    path: readonly string[],
  ):
    | {
        declarations: number[];
        again: Array<{ file: string; path: readonly string[] }>;
        loading: number[];
        whole: number[];
        unresolvedImporters: number[];
      }
    | undefined;
  /**
   * For an edge from a file's node: the exported names that use it, when every place the file's
   * own code names its target (by the target's name) is inside statements `module.exports…=`
   * (the function assigned, or the name assigned) and each has a declaration; else undefined.
   */
  usesIn(source: number, edge: number): Array<{ file: string; path: readonly string[] }> | undefined;
  /**
   * Whether a `references` edge into `target`, the function a declaration file's `export = Name`
   * names, comes from a JavaScript file whose text reads only members of it: every import of the
   * file is a top-level `var x = require('…')` used as `x.member` or `x(…)`; each relative one
   * names a JavaScript file that declaration file stands for and is used as `x.member` only, never
   * called (nor `x.call`, `x.apply`, `x.bind`); no other is one of the repository's own packages.
   */
  membersOnly(target: number, source: number, edge: number): boolean;
}

function exportSteps(
  g: IndexedGraph,
  commonJs: (file: string) => CommonJsExports | undefined,
  declarations: ReadonlyMap<string, string>,
  nodeImporters: ReadonlyMap<string, readonly string[]>,
  ownPackages: ReadonlySet<string> | undefined,
): ExportSteps {
  const cache = new Map<string, CommonJsExports | undefined>();
  const read = (f: string): CommonJsExports | undefined => {
    if (!cache.has(f)) cache.set(f, commonJs(f));
    return cache.get(f);
  };
  const place = nodePlacer(g);
  // Declaration file → the JavaScript files it stands for.
  const describedBy = new Map<string, Set<string>>();
  for (const [js, d] of declarations) describedBy.set(d, (describedBy.get(d) ?? new Set()).add(js));
  const declarationsOf = (file: string, path: readonly string[]): number[] => {
    const d = declarations.get(file);
    if (d === undefined) return [];
    const assigned = read(d)?.exportAssigned;
    const names = assigned !== undefined ? [assigned, ...path] : [...path];
    if (names.length === 0) return [];
    const r = g.rankOf.get(`sym:${d}#${names.join('.')}`);
    return r === undefined ? [] : [r];
  };
  // The files whose imports name `file` itself (`direct`) or its declaration file (which the
  // checker reads for an import of the JavaScript), and the sources of the references to either
  // module whole (ADR 185).
  const importersOf = (file: string): { direct: Set<string>; declared: Set<string>; whole: number[] } => {
    const direct = new Set<string>();
    const declared = new Set<string>();
    const whole = new Set<number>();
    for (const [f, into] of [
      [file, direct],
      [declarations.get(file), declared],
    ] as const) {
      const t = f === undefined ? undefined : g.rankOf.get(`file:${f}`);
      if (t === undefined) continue;
      for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
        const e = g.inEdges[k];
        const relation = g.edgeRelation[e];
        const source = g.edgeSource[e];
        if (relation === 'references' && g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED) whole.add(source);
        if (relation !== 'imports' && relation !== 're-exports') continue;
        const src = g.nodeAt[source]?.sourceFile;
        if (src !== undefined) into.add(src);
      }
    }
    return { direct, declared, whole: [...whole].sort((a, b) => a - b) };
  };
  return {
    next(file, path) {
      const decls = declarationsOf(file, path);
      if (decls.length === 0) return undefined;
      const again: Array<{ file: string; path: readonly string[] }> = [];
      const loading: number[] = [];
      const { direct, declared, whole } = importersOf(file);
      for (const j of [...new Set([...direct, ...declared])].sort()) {
        // A file that imports the declaration file reaches the function through the checker's
        // edges to its declarations: a TypeScript file always, a JavaScript file when its text
        // requires it into a name used only as `name.member` or `name()`, or exports it again.
        // One that imports the JavaScript itself reaches code the graph has no node for: only
        // `module.exports = require('./x')` is read there, any other import is its loading.
        if (!JS_FILE.test(j) && !direct.has(j)) continue;
        const cj = JS_FILE.test(j) ? read(j) : undefined;
        const mine = (spec: string) => place(j, spec) === file;
        const reexports = (cj?.bindings ?? []).filter(
          (b) => (b.value === 'require' || b.value === 'identifier') && b.specifier !== undefined && mine(b.specifier),
        );
        const requires = (cj?.requires ?? []).filter((q) => mine(q.specifier));
        const readable = direct.has(j)
          ? requires.length > 0 &&
            requires.length === reexports.filter((b) => b.value === 'require').length &&
            reexports.every((b) => b.value === 'require')
          : requires.length > 0 && requires.every((q) => q.recognized);
        if (!readable) {
          const jr = g.rankOf.get(`file:${j}`);
          if (jr !== undefined) loading.push(jr);
          continue;
        }
        for (const b of reexports) again.push({ file: j, path: [...b.path, ...path] });
      }
      const unresolvedImporters: number[] = [];
      for (const j of nodeImporters.get(file) ?? []) {
        const t = g.rankOf.get(`file:${j}`);
        if (t !== undefined) unresolvedImporters.push(t);
      }
      return { declarations: decls, again, loading, whole, unresolvedImporters };
    },
    membersOnly(target, source, edge) {
      if (ownPackages === undefined || g.edgeRelation[edge] !== 'references') return false;
      const id = g.ids[target];
      const hash = id.indexOf('#');
      if (!id.startsWith('sym:') || hash < 0) return false;
      const d = id.slice('sym:'.length, hash);
      const described = describedBy.get(d);
      if (described === undefined || read(d)?.exportAssigned !== id.slice(hash + 1)) return false;
      const j = g.nodeAt[source]?.sourceFile;
      const cj = j !== undefined && JS_FILE.test(j) ? read(j) : undefined;
      if (j === undefined || cj === undefined || cj.requires.length === 0) return false;
      return cj.requires.every((q) => {
        if (!q.recognized) return false;
        if (q.specifier.startsWith('.')) {
          const f = place(j, q.specifier);
          return f !== undefined && described.has(f) && q.membersOnly === true;
        }
        return !ownPackages.has(packageOf(q.specifier));
      });
    },
    usesIn(source, edge) {
      const node = g.nodeAt[source];
      const file = node?.sourceFile;
      if (node?.kind !== 'file' || file === undefined || !JS_FILE.test(file) || !declarations.has(file)) return undefined;
      const relation = g.edgeRelation[edge];
      if (relation !== 'calls' && relation !== 'references') return undefined;
      const evidence = g.graph.edges[edge].evidence;
      const label = g.nodeAt[g.edgeTarget[edge]]?.label;
      const cj = read(file);
      if (cj === undefined || evidence === undefined || label === undefined) return undefined;
      // The names the file's code may reach the target by: its own, and those of the requires of
      // the JavaScript its declaration file stands for (the checker credits their uses to it).
      // A require it cannot read, or of one of the repository's own packages, may bind another.
      if (cj.requires.some((q) => !q.recognized || (!q.specifier.startsWith('.') && ownPackages?.has(packageOf(q.specifier)) !== false)))
        return undefined;
      const targetFile = g.nodeAt[g.edgeTarget[edge]]?.sourceFile;
      const described = targetFile === undefined ? undefined : describedBy.get(targetFile);
      const names = new Set([label.slice(label.lastIndexOf('.') + 1)]);
      for (const q of cj.requires) {
        const placed = place(file, q.specifier);
        if (q.name !== undefined && placed !== undefined && (placed === targetFile || described?.has(placed) === true)) names.add(q.name);
      }
      const uses = [...names].flatMap((n) => (Object.prototype.hasOwnProperty.call(cj.uses, n) ? cj.uses[n] : []));
      if (!uses.some(([line, column]) => line === evidence.line && column === evidence.column)) return undefined;
      const bindings = [...new Set(uses.map((u) => u[2]).filter((b) => b !== -2))].sort((a, b) => a - b);
      if (bindings.some((b) => b < 0 || cj.bindings[b].value === 'other')) return undefined;
      const out = bindings.map((b) => ({ file, path: cj.bindings[b].path }));
      return out.every((x) => declarationsOf(x.file, x.path).length > 0) ? out : undefined;
    },
  };
}

const DECLARATION_OF_JS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\.d\.ts$/, '.js'],
  [/\.d\.mts$/, '.mjs'],
  [/\.d\.cts$/, '.cjs'],
];

/**
 * JavaScript file → the package's own declaration file that stands for it (ADR 172): `x.d.ts`
 * beside `x.js` (`.d.mts`/`.mjs`, `.d.cts`/`.cjs`), the file TypeScript reads for an import of
 * the JavaScript; and package.json's `types` (or `typings`) for its `main`, which is how the
 * checker reads a `require` of the package while Node loads the `main`. A sibling wins.
 */
function declarationFiles(g: IndexedGraph): Map<string, string> {
  const files = new Set<string>();
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r];
    if (n?.kind === 'file' && n.sourceFile !== undefined) files.add(n.sourceFile);
  }
  const out = new Map<string, string>();
  const isJs = (f: string) => /\.[cm]?jsx?$/.test(f);
  const byPackage = new Map<string, { main?: string; types?: string }>();
  for (const e of g.graph.entries ?? []) {
    if (e.unplaced || !files.has(e.path)) continue;
    const p = byPackage.get(e.from) ?? {};
    if (e.field === 'main' && isJs(e.path)) p.main = e.path;
    if ((e.field === 'types' || (e.field === 'typings' && p.types === undefined)) && DECLARATION.test(e.path)) p.types = e.path;
    byPackage.set(e.from, p);
  }
  for (const from of [...byPackage.keys()].sort()) {
    const { main, types } = byPackage.get(from) as { main?: string; types?: string };
    if (main !== undefined && types !== undefined) out.set(main, types);
  }
  for (const f of [...files].sort())
    for (const [ext, js] of DECLARATION_OF_JS)
      if (ext.test(f)) {
        const impl = f.replace(ext, js);
        if (files.has(impl)) out.set(impl, f);
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

// ---------------------------------------------------------------------------------------------
// Which files are tests.

/**
 * The test runners' own conventions (ADR 165): Jest's and Vitest's `*.test.*`/`*.spec.*` and
 * `__tests__/`; Playwright's `*.spec.*`/`*.test.*`; node:test's `*.test.*`, `*-test.*`, `*_test.*`,
 * `test-*.*`, `test.*` and every file under a `test/` folder; Mocha's files under `test/` (and
 * `tests/`, which many projects name). Fixtures, mocks and snapshots under those folders are data,
 * not tests. Declaration files never are.
 */
const TEST_NAME = /(^|\/)([^/]+[.\-_](test|spec)|test-[^/]+|test)\.[cm]?[jt]sx?$/;
const TEST_FOLDER = /(^|\/)(__tests__|tests?)\//;
const NOT_TESTS = /(^|\/)(__fixtures__|fixtures?|__mocks__|__snapshots__|snapshots?)\//;
const SOURCE = /\.[cm]?[jt]sx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** Runner configuration read from the repository (package.json `jest.testMatch`/`testRegex`). */
export interface TestConfig {
  /** Globs, as Jest writes them (`**`, `*`, `?`, `{a,b}`, `[ab]`, `?(x)`, `+(a|b)`, `@(a|b)`, `*(x)`; `<rootDir>/`). */
  globs?: readonly string[];
  /** Regular expressions, matched against `/` + the repository-relative path. */
  regexes?: readonly string[];
}

/** Whether a repository-relative path is a test file: a convention, or the configuration's patterns. */
export function testFileRule(config: TestConfig = {}): (file: string) => boolean {
  const extra: RegExp[] = [];
  for (const g of config.globs ?? []) {
    const re = globRegex(g);
    if (re) extra.push(re);
  }
  for (const r of config.regexes ?? []) {
    try {
      extra.push(new RegExp(r));
    } catch {
      // a pattern this engine cannot read adds nothing; the conventions still apply
    }
  }
  return (file: string) => {
    if (!SOURCE.test(file) || DECLARATION.test(file)) return false;
    if (extra.some((re) => re.test('/' + file))) return true;
    if (NOT_TESTS.test(file)) return false;
    return TEST_NAME.test(file) || TEST_FOLDER.test(file);
  };
}

/** A Jest glob as a regular expression over `/` + the path, or undefined for one it cannot read. */
function globRegex(glob: string): RegExp | undefined {
  let g = glob.replace(/^<rootDir>\//, '').replace(/^\.\//, '');
  if (g.startsWith('!')) return undefined;
  if (!g.startsWith('/')) g = '/' + g;
  let out = '';
  let i = 0;
  const groups: string[] = [];
  while (i < g.length) {
    const c = g[i];
    const next = g[i + 1];
    if ('?+@*!'.includes(c) && next === '(') {
      groups.push(c);
      out += '(?:';
      i += 2;
    } else if (c === ')' && groups.length > 0) {
      const op = groups.pop() as string;
      out += op === '?' ? ')?' : op === '+' ? ')+' : op === '*' ? ')*' : ')';
      i++;
    } else if (c === '|' && groups.length > 0) {
      out += '|';
      i++;
    } else if (c === '/' && g.startsWith('/**/', i)) {
      out += '/(?:.*/)?';
      i += 4;
    } else if (c === '*' && next === '*') {
      out += '.*';
      i += 2;
    } else if (c === '*') {
      out += '[^/]*';
      i++;
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '{') {
      const end = g.indexOf('}', i);
      if (end < 0) return undefined;
      out +=
        '(?:' +
        g
          .slice(i + 1, end)
          .split(',')
          .map(escape)
          .join('|') +
        ')';
      i = end + 1;
    } else if (c === '[') {
      const end = g.indexOf(']', i);
      if (end < 0) return undefined;
      out += g.slice(i, end + 1).replace(/\\/g, '\\\\');
      i = end + 1;
    } else {
      out += escape(c);
      i++;
    }
  }
  if (groups.length > 0) return undefined;
  try {
    return new RegExp('^' + out + '$');
  } catch {
    return undefined;
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
