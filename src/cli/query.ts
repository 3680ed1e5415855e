// The eight queries: `kg callers|affected|impact|neighbors|path|god-nodes|query|why`. Each loads the
// graph once, answers, prints the result as JSON on stdout and exits 0 for any answer (an empty
// one included), 3 when the result is unavailable (the reason also goes to stderr, with the fix),
// 2 for a usage error (with the command's usage on stderr).

import * as path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import {
  answerQuery,
  DEFAULT_BUDGET,
  DEFAULT_GRAPH_PATH,
  DEFAULT_TOP,
  defaultGraphFile,
  GRAPH_DIR,
  graphStatus,
  loadGraphFile,
  QUERY_LIMIT,
  QUERY_NAMES,
  readPrevious,
  repositoryOfGraph,
  type QueryName,
  type QueryRequest,
  type QueryResult,
  type Staleness,
  type Unavailable,
  LOADER_CHECKS,
  visible,
} from '../graph';
import { findRepositoryRoot } from './find-root';
import type { Command } from './run';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError, wrap } from './usage';

const EXITS = `Prints JSON on stdout. Exit codes: 0 answered (an empty answer included), 2 usage error,
3 unavailable: the result is {"available": false, "reason": …} — no graph, an unreadable or
invalid graph, a layer the question needs was not built, or an id that is not in the graph.

${wrap(LOADER_CHECKS)}`;

interface CommandSpec {
  positionals: string[];
  summary: string;
  help: string;
  numeric?: 'budget' | 'top';
  /** The option this query adds to --graph and --help. */
  option?: [string, string];
}

const SPECS: Record<QueryName, CommandSpec> = {
  callers: {
    positionals: ['id'],
    summary: 'Who calls a symbol: proven callers and name-match guesses, apart.',
    help: `Lists the callers of a function, method or class (\`new C()\` calls the class).

  "callers"     sources of EXACT calls edges: the TypeScript checker proved the call
  "candidates"  sources of CANDIDATE calls edges only: a guess by name, not a fact

A recursive symbol lists itself. Needs the calls layer: on a graph built with --extract-only
the answer is unavailable, not an empty list.`,
  },
  affected: {
    positionals: ['id'],
    summary: 'What depends on a node directly, and whether a change breaks it.',
    help: `Lists the direct consumers of a node: sources of inbound calls, imports, re-exports,
references, extends, implements and inherits edges (the node itself excluded).

  "consumers"   through at least one EXACT edge
  "breaks"      true when there is such a consumer: changing or removing the node breaks it
  "candidates"  through CANDIDATE (name-match) edges only

For a symbol (sym:) it needs the calls layer; files and modules answer from any graph.`,
  },
  impact: {
    positionals: ['id'],
    summary: 'Callers and consumers together, with the blast radius.',
    help: `Callers and consumers of a node (as "callers" and "affected" give them, the node itself
excluded), "blastRadius" = how many distinct nodes that is, counting proof only, and the guesses
apart in "candidates" / "candidateRadius".`,
  },
  neighbors: {
    positionals: ['id'],
    numeric: 'budget',
    summary: 'The neighbourhood of a node, bounded, never expanded through hubs.',
    help: `Walks the graph breadth-first from the node, both edge directions, neighbours in sorted id
order, until --budget nodes (the start included). A hub — a node whose degree is over
"hubThreshold" (the 99th-percentile degree, at least 50) — is reached but never expanded
through; those reached are listed in "excludedHubs". "edges" lists every edge between two of
the returned nodes. An unresolved: target is reached but never walked through.`,
    option: ['--budget N', `At most N nodes, the start included (default ${DEFAULT_BUDGET}).`],
  },
  path: {
    positionals: ['from', 'to'],
    summary: 'A shortest path between two nodes (either edge direction).',
    help: `A shortest path (fewest hops) between two nodes, edges taken in either direction; among
equally short paths, the first in sorted id order. "edges" gives the edge of each hop in its
real direction. Not connected is an answer: "path": []. Paths never pass through an
unresolved: target (unplaced calls that merely share a name).`,
  },
  'god-nodes': {
    positionals: [],
    numeric: 'top',
    summary: 'The most connected nodes, by in + out degree.',
    help: `The nodes with the most edges (in + out), ties by id; unresolved: targets are not ranked.`,
    option: ['--top N', `How many (default ${DEFAULT_TOP}).`],
  },
  query: {
    positionals: ['substring'],
    summary: 'Node ids containing a substring.',
    help: `Node ids that contain the text (case-sensitive, as the ids are written — e.g. "#" inside a
name is "%23"), sorted, at most ${QUERY_LIMIT}; "truncated" says whether there were more.`,
  },
  why: {
    positionals: ['id'],
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
  },
};

function usageOf(name: QueryName): string {
  const spec = SPECS[name];
  const numeric = spec.numeric ? ` [--${spec.numeric} N]` : '';
  return `Usage: kg ${name}${spec.positionals.map((p) => ` <${p}>`).join('')}${numeric} [--graph FILE]\n`;
}

function helpOf(name: QueryName): string {
  const spec = SPECS[name];
  const options = optionLines([
    ...(spec.option ? [spec.option] : []),
    [
      '--graph FILE',
      `The graph to read (default: ${DEFAULT_GRAPH_PATH} in the repository around\nthe working directory: the nearest folder above with ${GRAPH_DIR} or .git).`,
    ],
    COMMON_OPTIONS.help,
  ]);
  return `${usageOf(name)}\n${spec.help}\n\nOptions:\n${options}\n\n${EXITS}\n`;
}

/** The eight queries as entries of the command table (run.ts). */
export const QUERY_COMMANDS: Command[] = QUERY_NAMES.map((name) => ({
  name,
  group: 'query',
  summary: SPECS[name].summary,
  help: helpOf(name),
  run: (args, io) => runQuery(name, args, io),
}));

function positiveInteger(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text)))
    throw new UsageError(`--${flag} must be a whole number, at least 1 (got "${text}")`);
  return Number(text);
}

function request(name: QueryName, p: string[], values: { budget?: string; top?: string }): QueryRequest {
  switch (name) {
    case 'callers':
    case 'affected':
    case 'impact':
    case 'why':
      return { query: name, id: p[0] };
    case 'neighbors':
      return { query: name, id: p[0], budget: positiveInteger('budget', values.budget) };
    case 'path':
      return { query: name, from: p[0], to: p[1] };
    case 'god-nodes':
      return { query: name, top: positiveInteger('top', values.top) };
    case 'query':
      return { query: name, text: p[0] };
  }
}

function parse(name: QueryName, args: string[]): { graph: string; request: QueryRequest } {
  const spec = SPECS[name];
  const options: NonNullable<ParseArgsConfig['options']> = { graph: { type: 'string' } };
  if (spec.numeric) options[spec.numeric] = { type: 'string' };
  const parsed = parseCommandArgs(args, options, true);
  const values = parsed.values as { graph?: string; budget?: string; top?: string };
  const p = parsed.positionals;
  if (p.length < spec.positionals.length) throw new UsageError(`missing <${spec.positionals[p.length]}>`);
  if (p.length > spec.positionals.length) throw new UsageError(`unexpected argument "${p[spec.positionals.length]}"`);
  return { graph: values.graph ?? '', request: request(name, p, values) };
}

/** What to do about an unavailable answer, for the person reading stderr. */
function hint(u: Unavailable, graphShown: string): string {
  switch (u.code) {
    case 'NO_GRAPH':
      return `no graph at ${graphShown}: build one with "kg build --apply", or name it with --graph`;
    case 'LAYER_MISSING':
      return `${graphShown} was built without call edges (--extract-only?): rebuild it with "kg build --apply"`;
    case 'UNKNOWN_NODE':
      return u.suggestions && u.suggestions.length > 0
        ? `did you mean: ${u.suggestions.join(', ')}`
        : `find ids with "kg query <text>"; if the code is new, rebuild the graph with "kg build --apply"`;
    case 'TOO_LARGE':
      // A rebuild makes the same size again: the remedy is more heap, which the reason names.
      return `${graphShown} is too large for this process to load; see the reason above`;
    default:
      return `${graphShown} cannot be used: rebuild it with "kg build --apply"`;
  }
}

/**
 * Whether the graph is older than the working tree (ADR 50), from the manifest beside it, when
 * the repository it describes is known — a graph in a `.knowledge-graph` folder describes that
 * folder's parent — and the manifest can tell; otherwise the result says nothing about it.
 */
function stalenessOf(graphFile: string): Staleness | undefined {
  const root = repositoryOfGraph(graphFile);
  if (root === undefined) return undefined;
  try {
    const status = graphStatus(root, readPrevious(graphFile));
    return status.available ? { stale: status.stale, changedFiles: status.changedFiles } : undefined;
  } catch {
    return undefined;
  }
}

function runQuery(name: QueryName, args: string[], io: CliIo): number {
  const parsed = parse(name, args);
  // No --graph: the graph of the repository around the working directory (ADR 79).
  const file = parsed.graph !== '' ? path.resolve(io.cwd, parsed.graph) : defaultGraphFile(findRepositoryRoot(io.cwd).root);
  const load = loadGraphFile(file);
  const staleness = load.ok ? stalenessOf(file) : undefined;
  const result: QueryResult = answerQuery(load, parsed.request, staleness ? { staleness } : undefined);
  io.stdout.write(JSON.stringify(result, null, 2) + '\n');
  if (!result.available) {
    const shown = path.relative(io.cwd, file) || file;
    io.stderr.write(`kg ${name}: unavailable: ${visible(result.reason)}\nkg ${name}: ${visible(hint(result, shown))}\n`);
    return EXIT.UNAVAILABLE;
  }
  return EXIT.OK;
}
