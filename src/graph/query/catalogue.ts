// The query catalogue: every question the product answers over one indexed graph, each with its
// name, typed parameters (defaults and limits), a summary, the longer help a person or a model
// reads, which faces offer it, the schema of its answer, and the function that answers it. The
// faces are derived from this table and hold no question of their own: the CLI's commands, their
// parsing and `--help` (src/cli/query.ts), the graph worker's requests (src/host/graph-worker.ts),
// and every later face — an MCP server, language-model tools, a remote store — so each answers
// exactly what the others answer (docs/adr/0116-one-query-catalogue.md).
//
// Two kinds of entry: the questions of the query contract (faces `cli`, `agent`), whose answers
// are `{available: true, …}` or a degrade and take staleness options; and the editor's own small
// questions (face `editor`: lens counts, a file's lens symbols, a details pane, neighbour groups,
// the rationale at a position), answered from the same functions and never re-implemented.

import { GraphError } from '../errors';
import type { GraphNode } from '../model';
import { queryAffected } from './affected';
import { queryCallers } from './callers';
import { fileSymbols, whyAt, type FileSymbol } from './file-symbols';
import { DEFAULT_TOP, queryGodNodes } from './god-nodes';
import { queryImpact } from './impact';
import type { GraphLoad, IndexedGraph } from './indexed';
import { DEFAULT_BUDGET, queryNeighbors } from './neighbors';
import {
  callerCounts,
  neighbourGroups,
  nodeDetails,
  nodesByIds,
  type CallerCounts,
  type NeighbourGroup,
  type NodeDetails,
} from './node-details';
import { RESULT_SCHEMAS, type JsonSchema } from './result-schemas';
import { QUERY_LIMIT, queryIds } from './search-ids';
import { SEARCH_LIMIT, searchNodes, type NodeSearch } from './search-ranked';
import {
  withStaleness,
  type AffectedResult,
  type CallersResult,
  type GodNodesResult,
  type ImpactResult,
  type NeighborsResult,
  type PathResult,
  type QueryIdsResult,
  type QueryOptions,
  type SymbolResult,
  type UnusedResult,
  type WhyResult,
} from './shapes';
import { queryPath } from './shortest-path';
import { DEFAULT_SYMBOL_LIMIT, querySymbol } from './symbol';
import { DEFAULT_UNUSED_LIMIT, queryUnused } from './unused';
import { queryWhy } from './why';

/**
 * Who offers a question: the `kg` CLI, agents (MCP, language-model tools), the editor's surfaces,
 * and the organisation store (`kg store <question>`, answered in SQL: src/graph/store/queries.ts).
 */
export type Face = 'cli' | 'agent' | 'editor' | 'store';

/** The longest text a string parameter takes: no id or search text comes near it. */
export const MAX_TEXT_PARAM = 10_000;
/** The most ids one editor request carries (a file's lenses). */
const MAX_IDS = 100_000;

/** One parameter of a question. `positional` ones are the CLI's arguments, the rest its `--name N` options. */
export type ParamSpec =
  | { type: 'string'; role: 'id' | 'text' | 'path'; summary: string; positional?: true; default?: string; nonEmpty?: true }
  | { type: 'integer'; summary: string; default?: number; min: number; max?: number; positional?: true; flag?: string }
  | { type: 'strings'; summary: string }
  /** A switch, off unless given: the CLI's `--name`, a boolean elsewhere. */
  | { type: 'boolean'; summary: string };

interface EntrySpec<A, R> {
  summary: string;
  /** What the answer holds and how to read it: the CLI's `--help` body and a tool's description. */
  help: string;
  faces: readonly Face[];
  params: { readonly [K in keyof A]-?: ParamSpec };
  /** The JSON Schema of an answer (`available: true`; degrades have one shared schema). */
  result: JsonSchema;
  /** Defaulted parameters are optional in A and filled in before `answer` sees them. */
  answer: (g: IndexedGraph, args: Required<A>, opts?: QueryOptions) => R;
}

function entry<A, R>(spec: EntrySpec<A, R>): EntrySpec<A, R> {
  return spec;
}

const ID = (summary: string): ParamSpec => ({ type: 'string', role: 'id', summary, positional: true });

export const CATALOGUE = {
  callers: entry<{ id: string }, CallersResult>({
    summary: 'Who calls a symbol: proven callers and name-match guesses, apart.',
    help: `Lists the callers of a function, method or class (\`new C()\` calls the class).

  "callers"     sources of EXACT calls edges: the TypeScript checker proved the call
  "candidates"  sources of CANDIDATE calls edges only: a guess by name, not a fact

  "dispatched"  for a member that implements an interface's member or overrides a base's:
                each such member ("via", up the chain) with its proven callers, who may run
                this one through dispatch. Kept apart, never added to "callers".

A recursive symbol lists itself. Needs the calls layer: on a graph built with --extract-only
the answer is unavailable, not an empty list.

Calls only: no caller does not mean unused. A function passed as a callback, a class used as a
type, a name imported or re-exported is a consumer that "affected" and "impact" list.`,
    faces: ['cli', 'agent', 'store'],
    params: {
      id: ID(
        'The symbol: a node id such as sym:src/util.ts#helper, or a package-qualified symbol this graph calls (pkg:rxjs@7.8.2:src/internal/Observable.ts#Observable.pipe).',
      ),
    },
    result: RESULT_SCHEMAS.callers,
    answer: (g, a, o) => queryCallers(g, a.id, o),
  }),
  affected: entry<{ id: string }, AffectedResult>({
    summary: 'What depends on a node directly, and whether a change breaks it.',
    help: `Lists the direct consumers of a node: sources of inbound calls, imports, re-exports,
references, extends, implements, inherits and overrides edges (the node itself excluded).

  "consumers"   through at least one EXACT edge
  "breaks"      true when there is such a consumer: changing or removing the node breaks it
  "candidates"  through CANDIDATE (name-match) edges only

For a symbol (sym:) it needs the calls and references layers; files and modules answer from
any graph.`,
    faces: ['cli', 'agent', 'store'],
    params: { id: ID('The node: a symbol, file or module id.') },
    result: RESULT_SCHEMAS.affected,
    answer: (g, a, o) => queryAffected(g, a.id, o),
  }),
  impact: entry<{ id: string }, ImpactResult>({
    summary: 'Callers and consumers together, with the blast radius.',
    help: `Callers and consumers of a node (as "callers" and "affected" give them, the node itself
excluded), "blastRadius" = how many distinct nodes that is, counting proof only, and the guesses
apart in "candidates" / "candidateRadius". "dispatched" lists, as "callers" does, the callers
that reach the node through a member it implements or overrides; they are not in the radius.`,
    faces: ['cli', 'agent', 'store'],
    params: { id: ID('The node: a symbol, file or module id.') },
    result: RESULT_SCHEMAS.impact,
    answer: (g, a, o) => queryImpact(g, a.id, o),
  }),
  neighbors: entry<{ id: string; budget?: number }, NeighborsResult>({
    summary: 'The neighbourhood of a node, bounded, never expanded through hubs.',
    help: `Walks the graph breadth-first from the node, both edge directions, neighbours in sorted id
order, until the budget of nodes (the start included). A hub — a node whose degree is over
"hubThreshold" (the 99th-percentile degree, at least 50) — is reached but never expanded
through; those reached are listed in "excludedHubs". "edges" lists every edge between two of
the returned nodes. An unresolved: target is reached but never walked through.`,
    faces: ['cli', 'agent', 'store'],
    params: {
      id: ID('The node to start from.'),
      budget: { type: 'integer', summary: 'At most this many nodes, the start included.', default: DEFAULT_BUDGET, min: 1 },
    },
    result: RESULT_SCHEMAS.neighbors,
    answer: (g, a, o) => queryNeighbors(g, a.id, a.budget, o),
  }),
  path: entry<{ from: string; to: string; undirected?: boolean }, PathResult>({
    summary: 'How one node reaches another: a chain of proven calls, else a shortest connection.',
    help: `How "from" reaches "to", fewest hops:

  "directed": true    a chain of proven calls: from calls … calls to (EXACT calls edges, in
                      that direction; guesses, references and dispatch are not links)
  "directed": false   there is no such chain: a shortest path with edges taken in either
                      direction, and "note" says so. Two callers of one helper are connected
                      this way; neither reaches the other.

"edges" gives the edge of each hop in its real direction. Among equally short paths, the first
in sorted id order. Not connected is an answer: "path": []. Paths never pass through an
unresolved: target (unplaced calls that merely share a name). "undirected" skips the chain and
asks for the shortest connection in either direction.`,
    faces: ['cli', 'agent', 'store'],
    params: {
      from: ID('Where the path starts.'),
      to: ID('Where it ends.'),
      undirected: { type: 'boolean', summary: 'Any shortest connection, edges in either direction, instead of a call chain first.' },
    },
    result: RESULT_SCHEMAS.path,
    answer: (g, a, o) => queryPath(g, a.from, a.to, a.undirected, o),
  }),
  'god-nodes': entry<{ top?: number }, GodNodesResult>({
    summary: 'The most connected nodes, by in + out degree.',
    help: `The nodes with the most edges (in + out), ties by id; unresolved: targets are not ranked.`,
    faces: ['cli', 'agent', 'store'],
    params: { top: { type: 'integer', summary: 'How many.', default: DEFAULT_TOP, min: 1 } },
    result: RESULT_SCHEMAS['god-nodes'],
    answer: (g, a, o) => queryGodNodes(g, a.top, o),
  }),
  query: entry<{ text: string }, QueryIdsResult>({
    summary: 'Node ids containing a substring.',
    help: `Node ids that contain the text (case-sensitive), sorted, at most ${QUERY_LIMIT}; "truncated" says
whether there were more. A private name's "#" matches typed as written (#retry, Ky.#retry) or as
ids escape it (%23retry).`,
    faces: ['cli', 'agent', 'store'],
    // Every id contains "": an empty text would answer 50 arbitrary ids.
    params: { text: { type: 'string', role: 'text', summary: 'The substring to look for (not empty).', positional: true, nonEmpty: true } },
    result: RESULT_SCHEMAS.query,
    answer: (g, a, o) => queryIds(g, a.text, o),
  }),
  why: entry<{ id: string }, WhyResult>({
    summary: 'The rationale around a node: stamped notes and decision records.',
    help: `The reasons written down about a node (docs/adr/0089-kg-why.md):

  "notes"        stamped notes (WHY(area@date): … comments) that cite it; "sitsOn" is true
                 for a note written on it, false for one that only names it
  "records"      decision records that cite it
  "cited"        decision records it cites (its comments name them)
  "fileNotes"    for a node inside a file: the notes and records that cite the file
  "fileRecords"

Each entry has its id, label and position; a note adds its area, stamp and text. Needs no
layer: a graph without records or notes answers with empty lists.`,
    faces: ['cli', 'agent', 'store'],
    params: { id: ID('The node.') },
    result: RESULT_SCHEMAS.why,
    answer: (g, a, o) => queryWhy(g, a.id, o),
  }),
  symbol: entry<{ id: string; limit?: number }, SymbolResult>({
    summary: "One node's whole picture: declaration, callers, callees, unplaced calls, rationale.",
    help: `Everything the graph knows about one node, in one answer:

  "location"          path:line:column of the declaration's name
  "callers"           proven (EXACT) callers, each with the call site ("evidence")
  "candidates"        guessed callers (CANDIDATE: a name match, not a fact)
  "callees"           what it calls, proven; "calleeCandidates" what it may call, guessed
  "unresolved"        calls nobody could place, with the name and the reason
  "notes", "records", "cited"   as "why" lists them
  "totals"            how many of each there are: each list is cut at the limit

For a symbol (sym:) it needs the calls layer, as "callers" does.`,
    faces: ['cli', 'agent'],
    params: {
      id: ID('The node.'),
      limit: {
        type: 'integer',
        summary: 'At most this many entries in each list ("totals" counts them all).',
        default: DEFAULT_SYMBOL_LIMIT,
        min: 1,
        max: 1000,
      },
    },
    result: RESULT_SCHEMAS.symbol,
    answer: (g, a, o) => querySymbol(g, a.id, a.limit, o),
  }),
  unused: entry<{ path?: string; offset?: number; limit?: number }, UnusedResult>({
    summary: 'Symbols no proven edge reaches: unused, and possibly used with the reason.',
    help: `Every symbol (under --path, when given) that no proven edge reaches — no EXACT call,
reference, import, re-export, heritage or dispatch from outside it — in two lists
(docs/adr/0157-what-kg-unused-calls-unused.md):

  "unused"        nothing reaches it and nothing the graph cannot see could: no name-match
                  candidate, no unplaced call of its name, no computed access (obj[key]) that
                  may name it, no unread file (.vue, .svelte, …) that may import it
  "possiblyUsed"  nothing proven reaches it, but one of those may: each with its "reasons"
                  ("candidate", "unresolved-named", "dynamic-access", "unanalysed",
                  "entry-unplaced", "alias", "module-object", "object-value"), a summary
                  and what they are ("via")

Never listed (counted in "totals.entry"): the exported symbols, and their members, of the files
a package.json (main, module, browser, types, exports, bin), a tsconfig's files or the config's
"entries" name, of test, story, config and file-system route files, and of what those files
re-export; declarations in .d.ts files; decorated declarations and their members. A member that
implements an interface's member, or that is reached through a member it overrides, is used.
"totals" counts every list before the page; "notes" says what the answer could not rely on.
Needs the calls and references layers.`,
    faces: ['cli', 'agent'],
    params: {
      path: {
        type: 'string',
        role: 'path',
        summary: "Only symbols in this file or folder (repository-relative, e.g. src/cart); '' for all.",
        default: '',
      },
      offset: { type: 'integer', summary: 'Skip this many entries of each list.', default: 0, min: 0 },
      limit: {
        type: 'integer',
        summary: 'At most this many entries in each list ("totals" counts them all).',
        default: DEFAULT_UNUSED_LIMIT,
        min: 1,
        max: 10_000,
      },
    },
    result: RESULT_SCHEMAS.unused,
    answer: (g, a, o) => queryUnused(g, a.path, a.offset, a.limit, o),
  }),

  // The editor's own questions: plain data, never degraded (the worker refuses them without a graph).
  counts: entry<{ ids: string[] }, Array<CallerCounts | undefined>>({
    summary: 'Caller counts of many nodes at once, as `callers` counts them: what the lenses say.',
    help: 'For each id, the number of proven callers and of guesses, the callers that reach it only through what it implements or overrides, and the proven uses that are not calls (referrers) (undefined for an id that is not a node).',
    faces: ['editor'],
    params: { ids: { type: 'strings', summary: 'Node ids.' } },
    result: RESULT_SCHEMAS.counts,
    answer: (g, a) => callerCounts(g, a.ids),
  }),
  fileSymbols: entry<{ file: string }, FileSymbol[]>({
    summary: 'The declarations of a file that get a callers lens, by position.',
    help: 'Functions, classes and methods of the file, and variables something calls (arrow functions).',
    faces: ['editor'],
    params: { file: { type: 'string', role: 'path', summary: 'A repository-relative POSIX path.' } },
    result: RESULT_SCHEMAS.fileSymbols,
    answer: (g, a) => fileSymbols(g, a.file),
  }),
  details: entry<{ id: string }, NodeDetails | undefined>({
    summary: "A details pane's node: its callers, callees and who cites it, with call sites.",
    help: 'The node, its degree, proven callers, guesses, the callers of what it implements or overrides, callees (unplaced ones with their reasons) and citing nodes.',
    faces: ['editor'],
    params: { id: { type: 'string', role: 'id', summary: 'The node.' } },
    result: RESULT_SCHEMAS.details,
    answer: (g, a) => nodeDetails(g, a.id),
  }),
  nodes: entry<{ ids: string[] }, Array<GraphNode | undefined>>({
    summary: 'The nodes with these ids, for labels and positions.',
    help: 'The node of each id, in order (undefined where there is none).',
    faces: ['editor'],
    params: { ids: { type: 'strings', summary: 'Node ids.' } },
    result: RESULT_SCHEMAS.nodes,
    answer: (g, a) => nodesByIds(g, a.ids),
  }),
  neighbourGroups: entry<{ id: string; budget: number }, NeighbourGroup[]>({
    summary: "A node's edges grouped by relation and direction: the God Nodes tree's rows.",
    help: 'Each group proven first, then guesses, then unplaced names, cut at the budget; "total" counts the group.',
    faces: ['editor'],
    params: {
      id: { type: 'string', role: 'id', summary: 'The node.' },
      budget: { type: 'integer', summary: 'At most this many items per group.', min: 1 },
    },
    result: RESULT_SCHEMAS.neighbourGroups,
    answer: (g, a) => neighbourGroups(g, a.id, a.budget),
  }),
  search: entry<{ text: string; limit?: number }, NodeSearch>({
    summary: 'Autocomplete: nodes whose name or place holds the text, ranked, then cut (ADR 93).',
    help: `Every node whose label, member name or place (file path, module directory) holds the text,
case-insensitively, ranked first — the name itself, then names starting with it, then labels, then
places; shallower, better-connected, shorter first — and only then cut at the limit. Unlike "query"
(a sorted substring match over ids), a name is found however many ids sort before it.`,
    faces: ['editor'],
    params: {
      text: { type: 'string', role: 'text', summary: 'What was typed.' },
      limit: { type: 'integer', summary: 'At most this many matches ("total" counts them all).', default: SEARCH_LIMIT, min: 1, max: 1000 },
    },
    result: RESULT_SCHEMAS.search,
    answer: (g, a) => searchNodes(g, a.text, a.limit),
  }),
  whyAt: entry<{ file: string; line: number; column: number }, { id: string; answer: WhyResult } | undefined>({
    summary: '`why` for the declaration whose name spans a position of a file (the rationale hover, ADR 89).',
    help: 'The declaration at a 1-based line and UTF-16 column, and its `why`; undefined off a declaration name.',
    faces: ['editor'],
    params: {
      file: { type: 'string', role: 'path', summary: 'A repository-relative POSIX path.' },
      line: { type: 'integer', summary: '1-based line.', min: 1 },
      column: { type: 'integer', summary: '1-based UTF-16 column.', min: 1 },
    },
    result: RESULT_SCHEMAS.whyAt,
    answer: (g, a) => whyAt(g, a.file, a.line, a.column),
  }),
};

export type CatalogueName = keyof typeof CATALOGUE;
type Entry<K extends CatalogueName> = (typeof CATALOGUE)[K];
export type ArgsOf<K extends CatalogueName> = Entry<K> extends EntrySpec<infer A, unknown> ? A : never;
export type ResultOf<K extends CatalogueName> = ReturnType<Entry<K>['answer']>;

/** Every name, in the catalogue's order. */
export const CATALOGUE_NAMES = Object.keys(CATALOGUE) as CatalogueName[];

/** The names a face offers, in the catalogue's order. */
export function namesFor(face: Face): CatalogueName[] {
  return CATALOGUE_NAMES.filter((n) => (CATALOGUE[n].faces as readonly Face[]).includes(face));
}

/** The questions of the query contract: what `kg` and the agents ask. */
export const QUERY_NAMES = ['callers', 'affected', 'impact', 'neighbors', 'path', 'god-nodes', 'query', 'why', 'symbol', 'unused'] as const;
export type QueryName = (typeof QUERY_NAMES)[number];
/** The editor's own questions. */
export type EditorQueryName = Exclude<CatalogueName, QueryName>;

/** A request as a face sends it: the question's name and its arguments (defaulted ones may be left out). */
type RequestOf<K extends CatalogueName> = { query: K } & ArgsOf<K>;
export type QueryRequest = { [K in QueryName]: RequestOf<K> }[QueryName];

/** The spec of one parameter (for faces that build their own forms from it). */
export function paramsOf(name: CatalogueName): ReadonlyArray<[string, ParamSpec]> {
  return Object.entries(CATALOGUE[name].params as Record<string, ParamSpec>);
}

/**
 * Checks and completes arguments that came from outside (a tool call, a message): the type of
 * each parameter, its limits, no unknown ones; defaults filled in. Throws GraphError
 * INVALID_ARGUMENT with a sentence that names the parameter.
 */
export function checkArgs<K extends CatalogueName>(name: K, raw: unknown): Required<ArgsOf<K>> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new GraphError('INVALID_ARGUMENT', `${name}: arguments must be an object`);
  const given = raw as Record<string, unknown>;
  const specs = CATALOGUE[name].params as Record<string, ParamSpec>;
  for (const key of Object.keys(given)) {
    if (key === 'query') continue;
    if (!Object.hasOwn(specs, key)) throw new GraphError('INVALID_ARGUMENT', `${name}: unknown argument "${key}"`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) out[key] = checkValue(name, key, spec, given[key]);
  return out as Required<ArgsOf<K>>;
}

function checkValue(name: string, key: string, spec: ParamSpec, v: unknown): string | string[] | number | boolean {
  const bad = (what: string) => new GraphError('INVALID_ARGUMENT', `${name}: "${key}" ${what}`);
  switch (spec.type) {
    case 'string':
      if (v === undefined && spec.default !== undefined) return spec.default;
      if (v === undefined) throw bad('is missing');
      if (typeof v !== 'string') throw bad('must be a string');
      if (v === '' && spec.nonEmpty) throw bad('is empty: every id would match; give part of a name or path');
      if (v.length > MAX_TEXT_PARAM) throw bad(`is longer than ${MAX_TEXT_PARAM} characters`);
      return v;
    case 'boolean':
      if (v === undefined) return false;
      if (typeof v !== 'boolean') throw bad('must be true or false');
      return v;
    case 'strings':
      if (v === undefined) throw bad('is missing');
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw bad('must be an array of strings');
      if (v.length > MAX_IDS) throw bad(`holds more than ${MAX_IDS} entries`);
      return v as string[];
    case 'integer': {
      if (v === undefined && spec.default !== undefined) return spec.default;
      if (v === undefined) throw bad('is missing');
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad('must be a whole number');
      if (v < spec.min) throw bad(`must be at least ${spec.min}`);
      if (spec.max !== undefined && v > spec.max) throw bad(`must be at most ${spec.max}`);
      return v;
    }
  }
}

/** Answers a question of the catalogue over an indexed graph. Arguments are trusted: check outside ones with checkArgs first. */
export function answerOn<K extends CatalogueName>(g: IndexedGraph, name: K, args: ArgsOf<K>, opts?: QueryOptions): ResultOf<K> {
  const e = CATALOGUE[name] as unknown as EntrySpec<ArgsOf<K>, ResultOf<K>>;
  return e.answer(g, withDefaults(name, args), opts);
}

function withDefaults<K extends CatalogueName>(name: K, args: ArgsOf<K>): Required<ArgsOf<K>> {
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const [key, spec] of paramsOf(name))
    if (out[key] === undefined && (spec.type === 'integer' || spec.type === 'string') && spec.default !== undefined)
      out[key] = spec.default;
    else if (out[key] === undefined && spec.type === 'boolean') out[key] = false;
  return out as Required<ArgsOf<K>>;
}

/**
 * One entry point for every face's query-contract questions: a loaded graph (or the degrade that
 * says why there is none) and a request in, a result out. A load failure is answered as the
 * degrade it is, whatever was asked.
 */
export function answerQuery<R extends QueryRequest>(load: GraphLoad, request: R, opts?: QueryOptions): ResultOf<R['query']> {
  if (!load.ok) return withStaleness(load.unavailable, opts) as ResultOf<R['query']>;
  const { query, ...args } = request;
  return answerOn(load.graph, query, args as ArgsOf<QueryName>, opts) as ResultOf<R['query']>;
}
