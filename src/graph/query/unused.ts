// `unused [--path P]`: the symbols no proven edge reaches, split into those nothing could reach
// (`unused`) and those something the graph cannot prove may reach (`possiblyUsed`, each with its
// reasons), with the symbols that are ways in left out of both (docs/adr/0157-what-kg-unused-calls-unused.md).
//
// What reaches a symbol is what makes a consumer (src/graph/consumers.ts, the one definition "what
// breaks" uses): an EXACT edge of a consumer relation from another symbol or file, not from inside
// the symbol itself; a member that implements an interface's member (the interface requires it);
// and dispatch: a member reached through a member it overrides or implements that something
// reaches. What may reach it without proof are the holes every "what breaks" answer names
// (unanalysed.ts): name-match candidates, unplaced calls carrying its name, files the graph does not
// read; and two this question adds: a computed access (`obj[key]`) and a package.json target that
// names no source file.

import { CONSUMER_RELATIONS } from '../consumers';
import { fileId } from '../ids';
import { isUnresolvedId, UNRESOLVED_PREFIX, type GraphNode } from '../model';
import { dispatchVias, inbound } from './callers';
import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';
import { referencesLayerDegrade } from './lookup';
import { holesOf } from './unanalysed';
import { answered, type PossibleUse, type QueryOptions, type UnusedResult, type UnusedSymbol } from './shapes';

export const DEFAULT_UNUSED_LIMIT = 100;

/**
 * Files a test runner, a framework or a tool loads by its own convention (ADR 157): their exported
 * symbols are ways in. Test files (node:test, Jest, Vitest, Mocha), stories, config files
 * (`vite.config.ts`, `.eslintrc.js`), file-system routes (Next.js `pages/` and `app/…/page.tsx`,
 * `routes/`, `middleware.ts`).
 */
const CONVENTIONS: readonly RegExp[] = [
  /(^|\/)(__tests__|__mocks__|tests?|spec|e2e)\//,
  /\.(test|spec|e2e|bench|stories|story)\.[cm]?[jt]sx?$/,
  /(^|\/)[^/]+\.config\.[cm]?[jt]s$/,
  /(^|\/)\.[^/]+rc\.[cm]?[jt]s$/,
  /(^|\/)(pages|routes)\//,
  /(^|\/)app\/(.+\/)?(page|layout|route|loading|error|global-error|not-found|template|default|head)\.[cm]?[jt]sx?$/,
  /(^|\/)middleware\.[cm]?[jt]s$/,
  // A component may be reached by a file convention or an auto-import (Nuxt, unplugin-vue-components,
  // SvelteKit) with no import to see; a Svelte component's props are set by whoever uses it (ADR 169).
  /\.(vue|svelte)$/,
];

/** A declaration file: it describes code the graph does not hold, so none of its symbols is unused. */
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'property']);

/** Whether `file` is under `scope` ('' is everywhere). */
function inScope(file: string, scope: string): boolean {
  return scope === '' || file === scope || file.startsWith(scope + '/');
}

/** A scope as a person writes it (`./src/`, `src`) in the graph's form (`src`; '' for everywhere). */
function normaliseScope(raw: string): string {
  let s = raw.trim().replace(/\/+$/, '');
  while (s.startsWith('./')) s = s.slice(2);
  return s === '.' ? '' : s;
}

/** The id of the top-level declaration holding a member (`sym:a.ts#C.m` → `sym:a.ts#C`), or the id itself. */
function topLevelId(id: string): string {
  const hash = id.indexOf('#');
  const dot = id.indexOf('.', hash + 1);
  return dot < 0 ? id : id.slice(0, dot);
}

function locationOf(n: GraphNode): string | undefined {
  if (n.sourceFile === undefined) return undefined;
  return n.line !== undefined ? `${n.sourceFile}:${n.line}:${n.column ?? 1}` : n.sourceFile;
}

interface Roots {
  /** Files whose exported symbols are ways in: entries, conventions, and what they re-export. */
  files: Set<string>;
  /** Folders of packages with a target placed on no source file, with those targets. */
  unplaced: Map<string, string[]>;
}

/** The entry files, the convention files and the files they re-export, up the re-export chain. */
function rootsOf(g: IndexedGraph): Roots {
  const files = new Set<string>();
  const unplaced = new Map<string, string[]>();
  for (const e of g.graph.entries ?? []) {
    if (e.unplaced) {
      const dir = e.from.includes('/') ? e.from.slice(0, e.from.lastIndexOf('/')) : '';
      unplaced.set(dir, [...(unplaced.get(dir) ?? []), `${e.path} (${e.from} ${e.field})`]);
    } else files.add(e.path);
  }
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r];
    if (n?.kind === 'file' && n.sourceFile !== undefined && CONVENTIONS.some((c) => c.test(n.sourceFile as string)))
      files.add(n.sourceFile);
  }
  const queue = [...files];
  while (queue.length > 0) {
    const r = g.rankOf.get(fileId(queue.shift() as string));
    if (r === undefined) continue;
    for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
      const e = g.outEdges[k];
      if (g.edgeRelation[e] !== 're-exports') continue;
      const target = g.nodeAt[g.edgeTarget[e]]?.sourceFile;
      if (target !== undefined && !files.has(target)) {
        files.add(target);
        queue.push(target);
      }
    }
  }
  return { files, unplaced };
}

/**
 * Where a computed access (`obj[key]`, UNRESOLVED `dynamic-access`) may lead: whether there is any
 * (it may name any member), and the files the files holding one import (it may name any export
 * of a module imported whole).
 */
function dynamicReach(g: IndexedGraph): { any: number; files: Map<string, number>; own: Map<string, number> } {
  const sites = new Map<string, number>();
  let any = 0;
  for (let e = 0; e < g.graph.edges.length; e++) {
    if (g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED || g.graph.edges[e].reason !== 'dynamic-access') continue;
    any++;
    const file = g.nodeAt[g.edgeSource[e]]?.sourceFile;
    if (file !== undefined) sites.set(file, (sites.get(file) ?? 0) + 1);
  }
  const files = new Map<string, number>();
  for (const [file, n] of sites) {
    files.set(file, (files.get(file) ?? 0) + n);
    const r = g.rankOf.get(fileId(file));
    if (r === undefined) continue;
    for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
      const e = g.outEdges[k];
      const rel = g.edgeRelation[e];
      if (rel !== 'imports' && rel !== 're-exports') continue;
      const target = g.nodeAt[g.edgeTarget[e]]?.sourceFile;
      if (target !== undefined) files.set(target, (files.get(target) ?? 0) + n);
    }
  }
  return { any, files, own: sites };
}

/**
 * Per file, the variables of that file named by an UNRESOLVED `indirect` call in it (`new X()`,
 * `X()` where the checker cannot name the function X holds: a destructured `require` of a value a
 * package's function made). Keyed `file#name`.
 */
function indirectlyCalled(g: IndexedGraph): Map<string, number> {
  const out = new Map<string, number>();
  for (let e = 0; e < g.graph.edges.length; e++) {
    if (g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED || g.edgeRelation[e] !== 'calls') continue;
    if (g.graph.edges[e].reason !== 'indirect') continue;
    const file = g.nodeAt[g.edgeSource[e]]?.sourceFile;
    const target = g.ids[g.edgeTarget[e]];
    if (file === undefined || !isUnresolvedId(target)) continue;
    const key = `${file}#${target.slice(UNRESOLVED_PREFIX.length)}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/**
 * A variable the checker sees through (ADR 167): a `require` binding (`const x = require('m')`,
 * `const { a } = require('m')`) is an alias, and a call of a variable that holds a function
 * (`const { parse: p } = api`, `const f = g`) is a call of that function. Either way the graph
 * credits the use to what the variable names, never to the variable's node, so no proven edge
 * reaches it even when it is used. Found from the graph alone: the variable's own EXACT reference
 * (its initializer names `t`), or a `require` import of its file on its line, after its name.
 */
interface SeenThrough {
  /** Ranks its uses are credited to: the named symbol, or every node of the required module's file. */
  targets: number[];
  /** What it names, for people: an id, or the unresolved require. */
  names: string;
  /**
   * Bound by a `require` of a file of the graph: what the checker credits its uses to may have no
   * node (the module's object, `module.exports = { … }`, or a value in it), so a use is an edge to
   * nothing (ADR 199).
   */
  required?: true;
}

type RequireSites = Map<string, Array<{ target?: number; line: number; column: number }>>;

/** Per file, its `require` imports: the target's rank (undefined when unresolved) and the position. */
function requiresByFile(g: IndexedGraph): RequireSites {
  const out: RequireSites = new Map();
  for (let e = 0; e < g.graph.edges.length; e++) {
    const edge = g.graph.edges[e];
    if (edge.relation !== 'imports' || edge.context !== 'require' || edge.evidence?.line === undefined) continue;
    const file = g.nodeAt[g.edgeSource[e]]?.sourceFile;
    if (file === undefined) continue;
    const list = out.get(file) ?? [];
    list.push({
      target: g.edgeConfidence[e] === CONFIDENCE_CODE.EXACT ? g.edgeTarget[e] : undefined,
      line: edge.evidence.line,
      column: edge.evidence.column ?? 0,
    });
    out.set(file, list);
  }
  return out;
}

/**
 * Whether imports of packages went uncounted as edges (the build's default: counted in the
 * `unresolved` summary, not listed): then `const x = require('pkg')` leaves no trace but the variable.
 */
function unlistedPackages(g: IndexedGraph): boolean {
  if ((g.graph.unresolved?.imports?.external ?? 0) === 0) return false;
  for (let e = 0; e < g.graph.edges.length; e++)
    if (g.edgeRelation[e] === 'imports' && g.graph.edges[e].reason === 'external') return false;
  return true;
}

const JAVASCRIPT = /\.[cm]?jsx?$/;

function seenThrough(g: IndexedGraph, r: number, requires: RequireSites, unlisted: boolean): SeenThrough | undefined {
  const n = g.nodeAt[r];
  if (n?.kind !== 'variable' || n.sourceFile === undefined || n.id.includes('.', n.id.indexOf('#'))) return undefined;
  const targets: number[] = [];
  for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
    const e = g.outEdges[k];
    if (g.edgeRelation[e] === 'references' && g.edgeConfidence[e] === CONFIDENCE_CODE.EXACT && g.edgeTarget[e] !== r)
      targets.push(g.edgeTarget[e]);
  }
  if (targets.length > 0) return { targets, names: targets.map((t) => g.ids[t]).join(', ') };
  const site = requires.get(n.sourceFile)?.find((q) => q.line === n.line && q.column > (n.column ?? 0));
  if (!site) {
    // A JavaScript variable whose initializer names nothing the graph holds, where requires of
    // packages are not listed: it may be `require('pkg')`, whose uses are calls on `any`.
    if (unlisted && JAVASCRIPT.test(n.sourceFile) && g.outStart[r] === g.outStart[r + 1])
      return {
        targets: [],
        names: 'an initializer naming nothing the graph holds, maybe a require() of a package the graph does not list',
      };
    return undefined;
  }
  if (site.target === undefined) return { targets: [], names: 'a require() the graph could not resolve' };
  const moduleFile = g.nodeAt[site.target]?.sourceFile;
  for (let t = 0; t < g.nodeCount; t++) if (g.nodeAt[t]?.sourceFile === moduleFile) targets.push(t);
  return { targets, names: `require() of ${moduleFile ?? g.ids[site.target]}`, required: true };
}

/**
 * Whether code that may use the variable uses what it names (an EXACT consumer edge other than
 * the variable's own and the require itself): code of its file, or any code when it is exported.
 */
function namedTargetUsed(g: IndexedGraph, r: number, s: SeenThrough): boolean {
  const n = g.nodeAt[r];
  for (const t of s.targets)
    for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
      const e = g.inEdges[k];
      const source = g.edgeSource[e];
      if (source === r || g.edgeConfidence[e] !== CONFIDENCE_CODE.EXACT) continue;
      if (g.edgeRelation[e] === 'imports' || !CONSUMER_RELATIONS.has(g.edgeRelation[e])) continue;
      if (n?.exported === true || g.nodeAt[source]?.sourceFile === n?.sourceFile) return true;
    }
  return false;
}

/**
 * Why a variable the checker sees through may be used though no edge reaches it, or undefined:
 * its uses cannot be traced (an unresolved require), what it names is used where it could be,
 * or it is bound by a `require` of a file of the graph, whose object or values may have no node
 * to credit a use to (`const s = require('./strategy')` stored as `{ host: s }`, ADR 199).
 */
function aliasReason(g: IndexedGraph, r: number, through: SeenThrough, file: string): string | undefined {
  if (through.targets.length === 0) return `bound by ${through.names}: its uses cannot be traced`;
  if (namedTargetUsed(g, r, through))
    return `the checker credits its uses to what it names (${through.names}), which is used${g.nodeAt[r]?.exported === true ? '' : ` in ${file}`}: the graph cannot tell whether through it`;
  if (through.required)
    return `bound by ${through.names}: the checker credits its uses to that module, whose object (or the value bound) may have no node, so a use (\`{ key: x }\`, \`f(x)\`) is an edge to nothing`;
  return undefined;
}

/** Whether a proven consumer edge from outside rank `r` itself (not from one of its members) reaches it. */
function provenFromOutside(g: IndexedGraph, r: number): boolean {
  const own = g.ids[r] + '.';
  return inbound(g, r, CONSUMER_RELATIONS, false).proven.some((s) => !g.ids[s].startsWith(own));
}

/**
 * Per file, the symbols and files outside it that use its module object whole (ADR 185): an EXACT
 * `references` edge to the file's node (`Object.keys(m)`, `{ ...m }`, `f(m)`, `export { m }` of an
 * `import * as m`), and, through `export *`, the files a file so used re-exports. Any export of
 * such a file may be read through the object, so none is proven unused.
 */
export function modulesUsedWhole(g: IndexedGraph): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (let e = 0; e < g.graph.edges.length; e++) {
    if (g.edgeConfidence[e] !== CONFIDENCE_CODE.EXACT || g.edgeRelation[e] !== 'references') continue;
    const target = g.nodeAt[g.edgeTarget[e]];
    if (!target || target.kind !== 'file' || target.id !== fileId(target.sourceFile ?? '')) continue;
    const file = target.sourceFile as string;
    if (g.nodeAt[g.edgeSource[e]]?.sourceFile === file) continue;
    let users = out.get(file);
    if (!users) out.set(file, (users = new Set()));
    users.add(g.ids[g.edgeSource[e]]);
  }
  // A file's module object holds what it re-exports whole, and so on down the chain.
  const queue = [...out.keys()];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    const users = out.get(file) as Set<string>;
    const r = g.rankOf.get(fileId(file));
    if (r === undefined) continue;
    for (let k = g.outStart[r]; k < g.outStart[r + 1]; k++) {
      const e = g.outEdges[k];
      if (g.edgeRelation[e] !== 're-exports') continue;
      const target = g.nodeAt[g.edgeTarget[e]];
      if (!target || target.kind !== 'file' || target.sourceFile === undefined) continue;
      let next = out.get(target.sourceFile);
      if (!next) out.set(target.sourceFile, (next = new Set()));
      const before = next.size;
      for (const u of users) next.add(u);
      if (next.size > before) queue.push(target.sourceFile);
    }
  }
  return new Map([...out].map(([file, users]) => [file, [...users].sort()]));
}

/**
 * What may read an exported symbol from outside the code the graph holds: its module's object used
 * whole (ADR 185), or a package.json way in placed on no source file (ADR 157).
 */
function publicReasons(
  n: GraphNode,
  isTop: boolean,
  exported: boolean,
  wholeModules: ReadonlyMap<string, string[]>,
  unplaced: ReadonlyMap<string, string[]>,
): PossibleUse[] {
  const reasons: PossibleUse[] = [];
  const file = n.sourceFile as string;
  // Exported from a module whose object is used whole: it may be read through it (ADR 185).
  const users = isTop && n.exported === true ? wholeModules.get(file) : undefined;
  if (users)
    reasons.push({
      reason: 'module-object',
      summary: `${file}'s exports are read as one object (\`Object.keys(m)\`, \`{ ...m }\`, the object passed or re-exported) by ${users.length} symbol${users.length === 1 ? '' : 's'} or file${users.length === 1 ? '' : 's'}: any export may be read through it`,
      via: users,
    });
  if (exported) {
    for (const [dir, targets] of unplaced) {
      if (!inScope(file, dir)) continue;
      reasons.push({
        reason: 'entry-unplaced',
        summary: `${dir === '' ? 'the' : `${dir}'s`} package.json names ${targets.length === 1 ? 'a way in' : 'ways in'} placed on no source file (${targets.join(', ')}): its exports may be public`,
      });
    }
  }
  return reasons;
}

/**
 * The variable whose object literal holds the function of rank `r` (ADR 200), by the `contains`
 * edge into it: in a namespace the id's first segment is the namespace, not the variable.
 */
function literalHolder(g: IndexedGraph, r: number): number | undefined {
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] === 'contains' && g.nodeAt[g.edgeSource[e]]?.kind === 'variable') return g.edgeSource[e];
  }
  return undefined;
}

/** Whether something proven reaches rank `r`: a consumer, the interface it implements, or dispatch. */
function reached(g: IndexedGraph, r: number): boolean {
  if (provenFromOutside(g, r)) return true;
  const vias = dispatchVias(g, r);
  // A member that implements an interface's member is required by it: removing it breaks the class.
  if (vias.some((v) => v.relation === 'implements')) return true;
  // Reached through dispatch: a member it overrides that something other than `r` reaches.
  return vias.some((v) => inbound(g, v.rank, CONSUMER_RELATIONS, false).proven.some((s) => s !== r));
}

export function queryUnused(g: IndexedGraph, path: string, offset: number, limit: number, opts?: QueryOptions): UnusedResult {
  const noLayer = referencesLayerDegrade(g, opts);
  if (noLayer) return noLayer;
  const scope = normaliseScope(path);
  const roots = rootsOf(g);
  const dynamic = dynamicReach(g);
  const requires = requiresByFile(g);
  const unlisted = unlistedPackages(g);
  const indirect = indirectlyCalled(g);
  const wholeModules = modulesUsedWhole(g);
  const unused: UnusedSymbol[] = [];
  const possiblyUsed: Array<UnusedSymbol & { reasons: PossibleUse[] }> = [];
  let symbols = 0;
  let entry = 0;
  let reachedCount = 0;
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r];
    if (!n || !n.id.startsWith('sym:') || n.sourceFile === undefined || !inScope(n.sourceFile, scope)) continue;
    symbols++;
    const file = n.sourceFile;
    const top = g.nodeAt[g.rankOf.get(topLevelId(n.id)) ?? r] ?? n;
    const exported = top.exported === true;
    // Ways in: a root file's exported symbols and their members, declaration files, decorated declarations.
    if (
      (exported && (roots.files.has(file) || CONVENTIONS.some((c) => c.test(file)))) ||
      DECLARATION_FILE.test(file) ||
      n.decorated === true ||
      top.decorated === true
    ) {
      entry++;
      continue;
    }
    if (reached(g, r)) {
      reachedCount++;
      continue;
    }
    const reasons: PossibleUse[] = [];
    // Its uses would be credited to what it names: when that is used where it could be, or
    // cannot be traced (an unresolved require), the variable may be what is used.
    const through = seenThrough(g, r, requires, unlisted);
    const aliasOf = through === undefined ? undefined : aliasReason(g, r, through, file);
    if (aliasOf !== undefined) reasons.push({ reason: 'alias', summary: aliasOf });
    const guessed = inbound(g, r, CONSUMER_RELATIONS, false).guessed;
    if (guessed.length > 0)
      reasons.push({
        reason: 'candidate',
        summary: `${guessed.length} name-match candidate${guessed.length === 1 ? '' : 's'} (a guess, not a fact)`,
        via: guessed.map((s) => g.ids[s]),
      });
    const holes = holesOf(g, r);
    if (holes.unresolvedNamed) reasons.push({ reason: 'unresolved-named', summary: holes.unresolvedNamed.summary });
    // A variable whose name an unplaced call of a value in its own file carries (`new X()` where X
    // holds what a package's function made): that call is most likely of it (ADR 172).
    const calledHere = n.kind === 'variable' && !n.id.includes('.', n.id.indexOf('#')) ? (indirect.get(`${file}#${n.label}`) ?? 0) : 0;
    if (calledHere > 0 && !holes.unresolvedNamed)
      reasons.push({
        reason: 'unresolved-named',
        summary: `+${calledHere} unresolved call${calledHere === 1 ? '' : 's'} named \`${n.label}\` in ${file} (indirect: the callee is a value the checker cannot name)`,
      });
    if (holes.unanalysed)
      reasons.push({
        reason: 'unanalysed',
        summary: holes.unanalysed.summary,
        ...(holes.unanalysed.importers.length > 0 ? { via: holes.unanalysed.importers } : {}),
      });
    const computed = MEMBER_KINDS.has(n.kind) ? dynamic.any : exported ? (dynamic.files.get(file) ?? 0) : 0;
    if (computed > 0)
      reasons.push({
        reason: 'dynamic-access',
        summary: `${computed} computed access${computed === 1 ? '' : 'es'} (\`obj[key]\`) ${MEMBER_KINDS.has(n.kind) ? 'in the repository' : `where ${file} is imported`} may name it`,
      });
    // A binding of a required module, in a file whose own computed calls (`m[key]()`) may be on
    // it: the graph records no receiver for them (ADR 172).
    else if (through && (dynamic.own.get(file) ?? 0) > 0) {
      const own = dynamic.own.get(file) ?? 0;
      reasons.push({
        reason: 'dynamic-access',
        summary: `${own} computed call${own === 1 ? '' : 's'} (\`obj[key]()\`) in ${file} may be on it`,
      });
    }
    // A function of an object literal bound to a name (ADR 200): code the object is passed to may
    // call it by its key, and the graph cannot tell a use of the object whole from `api.get()`.
    const holder = n.kind === 'method' ? literalHolder(g, r) : undefined;
    if (holder !== undefined) {
      const own = g.ids[holder] + '.';
      const users = inbound(g, holder, CONSUMER_RELATIONS, false).proven.filter((s) => !g.ids[s].startsWith(own));
      if (users.length > 0)
        reasons.push({
          reason: 'object-value',
          summary: `a function of the object \`${g.nodeAt[holder]?.label ?? g.ids[holder]}\`, which ${users.length} symbol${users.length === 1 ? '' : 's'} or file${users.length === 1 ? '' : 's'} use${users.length === 1 ? 's' : ''}: code the object is passed to may call it by its key`,
          via: users.map((u) => g.ids[u]).sort(),
        });
    }
    reasons.push(...publicReasons(n, n === top, exported, wholeModules, roots.unplaced));
    const row: UnusedSymbol = {
      id: n.id,
      kind: n.kind,
      label: n.label,
      ...(locationOf(n) !== undefined ? { location: locationOf(n) } : {}),
    };
    if (reasons.length > 0) possiblyUsed.push({ ...row, reasons });
    else unused.push(row);
  }
  const notes: string[] = [];
  if (!g.graph.entries || g.graph.entries.length === 0)
    notes.push(
      'No entry points are recorded (no package.json main/module/exports/bin, tsconfig files or configured entries placed on a file; a graph built before ADR 157 records none: rebuild it): only test, config and framework files count as ways in.',
    );
  return answered(
    {
      path: scope,
      unused: unused.slice(offset, offset + limit),
      possiblyUsed: possiblyUsed.slice(offset, offset + limit),
      totals: { symbols, entry, reached: reachedCount, unused: unused.length, possiblyUsed: possiblyUsed.length },
      notes,
    },
    opts,
  );
}
