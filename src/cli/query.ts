// The queries: `kg callers|affected|impact|neighbors|path|god-nodes|query|why|symbol`, one command per
// question of the query catalogue (src/graph/query/catalogue.ts) that the CLI offers. Each loads the
// graph once, answers, prints the result as JSON on stdout and exits 0 for any answer (an empty
// one included), 3 when the result is unavailable (the reason also goes to stderr, with the fix),
// 2 for a usage error (with the command's usage on stderr).

import * as path from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import {
  answerHoles,
  answerQuery,
  CATALOGUE,
  DEFAULT_GRAPH_PATH,
  describeUnavailable,
  defaultGraphFile,
  GRAPH_DIR,
  graphStatus,
  jsonForPeople,
  loadGraphFile,
  MAX_TEXT_PARAM,
  namesFor,
  paramsOf,
  readPrevious,
  repositoryOfGraph,
  type ParamSpec,
  type QueryName,
  type QueryRequest,
  type QueryResult,
  type Staleness,
  type Unavailable,
  LOADER_CHECKS,
  visible,
} from '../graph';
import { findRepositoryRoot } from './find-root';
import type { Command } from './command';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError, wrap } from './usage';

const EXITS = `Prints JSON on stdout. Exit codes: 0 answered (an empty answer included), 2 usage error,
3 unavailable: the result is {"available": false, "reason": …} — no graph, an unreadable or
invalid graph, a layer the question needs was not built, or an id that is not in the graph.

${wrap(LOADER_CHECKS)}`;

/** The question's CLI form, derived from its catalogue entry: positionals in order, integers as `--name N`. */
function positionalsOf(name: QueryName): string[] {
  return paramsOf(name)
    .filter(([, p]) => p.type === 'string' && p.positional)
    .map(([key]) => (name === 'query' ? 'substring' : key));
}

function switchesOf(name: QueryName): Array<[string, Extract<ParamSpec, { type: 'boolean' }>]> {
  return paramsOf(name).filter((e): e is [string, Extract<ParamSpec, { type: 'boolean' }>] => e[1].type === 'boolean');
}

function numericOf(name: QueryName): Array<[string, Extract<ParamSpec, { type: 'integer' }>]> {
  return paramsOf(name).filter((e): e is [string, Extract<ParamSpec, { type: 'integer' }>] => e[1].type === 'integer');
}

/** String parameters that are not positional: `--name TEXT` options, with their default. */
function textOptionsOf(name: QueryName): Array<[string, Extract<ParamSpec, { type: 'string' }>]> {
  return paramsOf(name).filter((e): e is [string, Extract<ParamSpec, { type: 'string' }>] => e[1].type === 'string' && !e[1].positional);
}

/** A question's options for a usage line: `[--path TEXT]` then `[--budget N]`. */
function optionsUsage(name: QueryName): string {
  return `${textOptionsOf(name)
    .map(([key]) => ` [--${key} TEXT]`)
    .join('')}${numericOf(name)
    .map(([key]) => ` [--${key} N]`)
    .join('')}${switchesOf(name)
    .map(([key]) => ` [--${key}]`)
    .join('')}`;
}

/** `<id>`-style arguments and `[--budget N]`-style options of a question, for a usage line. */
export function argumentsOf(name: QueryName): string {
  return `${positionalsOf(name)
    .map((p) => ` <${p}>`)
    .join('')}${optionsUsage(name)}`;
}

function usageOf(name: QueryName): string {
  const numeric = optionsUsage(name);
  return `Usage: kg ${name}${positionalsOf(name)
    .map((p) => ` <${p}>`)
    .join('')}${numeric} [--graph FILE]\n`;
}

function helpOf(name: QueryName): string {
  const options = optionLines([
    ...textOptionsOf(name).map(([key, p]): [string, string] => [`--${key} TEXT`, p.summary]),
    ...numericOf(name).map(([key, p]): [string, string] => [
      `--${key} N`,
      `${p.summary.replace(/\.$/, '')}${p.default !== undefined ? ` (default ${p.default})` : ''}.`,
    ]),
    ...switchesOf(name).map(([key, p]): [string, string] => [`--${key}`, p.summary]),
    [
      '--graph FILE',
      `The graph to read (default: ${DEFAULT_GRAPH_PATH} in the repository around\nthe working directory: the nearest folder above with ${GRAPH_DIR} or .git).`,
    ],
    COMMON_OPTIONS.help,
  ]);
  return `${usageOf(name)}\n${CATALOGUE[name].help}\n\nOptions:\n${options}\n\n${EXITS}\n`;
}

/** The queries as entries of the command table (run.ts): every `cli` question of the catalogue. */
export const QUERY_COMMANDS: Command[] = namesFor('cli').map((name) => ({
  name,
  group: 'query',
  summary: CATALOGUE[name].summary,
  help: helpOf(name as QueryName),
  run: (args, io) => runQuery(name as QueryName, args, io),
}));

function integerOption(flag: string, text: string | undefined, spec: Extract<ParamSpec, { type: 'integer' }>): number | undefined {
  if (text === undefined) return undefined;
  const atMost = spec.max !== undefined ? `, at most ${spec.max}` : '';
  if (
    !/^(0|[1-9][0-9]*)$/.test(text) ||
    !Number.isSafeInteger(Number(text)) ||
    Number(text) < spec.min ||
    (spec.max !== undefined && Number(text) > spec.max)
  )
    throw new UsageError(`--${flag} must be a whole number, at least ${spec.min}${atMost} (got "${text}")`);
  return Number(text);
}

/**
 * A question's command line, derived from its catalogue entry: its positionals and integer
 * options, plus the face's own string `options` (the file queries' --graph, the store's --store
 * and --repo), into a request and those options' values.
 */
export function parseQueryArgs(
  name: QueryName,
  args: string[],
  extra: readonly string[],
): { request: QueryRequest; values: Record<string, string | undefined> } {
  const positionals = positionalsOf(name);
  const numeric = numericOf(name);
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const o of extra) options[o] = { type: 'string' };
  for (const [key] of numeric) options[key] = { type: 'string' };
  const text = textOptionsOf(name);
  for (const [key] of text) options[key] = { type: 'string' };
  for (const [key] of switchesOf(name)) options[key] = { type: 'boolean' };
  const parsed = parseCommandArgs(args, options, true);
  const values = parsed.values as Record<string, string | undefined>;
  const switches = parsed.values as Record<string, unknown>;
  const p = parsed.positionals;
  if (p.length < positionals.length) throw new UsageError(`missing <${positionals[p.length]}>`);
  if (p.length > positionals.length) throw new UsageError(`unexpected argument "${p[positionals.length]}"`);
  const request: Record<string, unknown> = { query: name };
  paramsOf(name)
    .filter(([, spec]) => spec.type === 'string' && spec.positional)
    .forEach(([key, spec], i) => {
      if (p[i].length > MAX_TEXT_PARAM) throw new UsageError(`<${positionals[i]}> is longer than ${MAX_TEXT_PARAM} characters`);
      if (p[i] === '' && spec.type === 'string' && spec.nonEmpty)
        throw new UsageError(`<${positionals[i]}> is empty: every id would match; give part of a name or path`);
      request[key] = p[i];
    });
  for (const [key] of text) {
    const v = values[key];
    if (v === undefined) continue;
    if (v.length > MAX_TEXT_PARAM) throw new UsageError(`--${key} is longer than ${MAX_TEXT_PARAM} characters`);
    request[key] = v;
  }
  for (const [key, spec] of numeric) {
    const v = integerOption(key, values[key], spec);
    if (v !== undefined) request[key] = v;
  }
  for (const [key] of switchesOf(name)) if (switches[key] === true) request[key] = true;
  return { request: request as QueryRequest, values };
}

function parse(name: QueryName, args: string[]): { graph: string; request: QueryRequest } {
  const { request, values } = parseQueryArgs(name, args, ['graph']);
  return { graph: values.graph ?? '', request };
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
  io.stdout.write(jsonForPeople(result, 2) + '\n');
  // What the answer cannot see, in words (ADR 153): "0 proven · 2 .vue files import src/cart.ts, not analysed".
  const holes = answerHoles(result);
  if (holes !== undefined) io.stderr.write(`kg ${name}: ${visible(holes)}\n`);
  if (!result.available) {
    const shown = path.relative(io.cwd, file) || file;
    // stderr is read by people: the words, not the machine reason the JSON keeps (ADR 91); control
    // characters shown, never sent to the terminal (ADR 96).
    io.stderr.write(
      `kg ${name}: unavailable: ${visible(describeUnavailable(result, path.basename(file)))}\nkg ${name}: ${visible(hint(result, shown))}\n`,
    );
    return EXIT.UNAVAILABLE;
  }
  return EXIT.OK;
}
