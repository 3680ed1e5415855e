// Loading graph.json for the queries: read it (under a size cap), parse it, check it against
// schema/graph.schema.json — the one definition of the format — and index it. Every way this can
// fail is a degrade with a reason, never an exception and never an empty graph: a missing file,
// an unreadable one, one too large to hold in memory, bytes that are not UTF-8, text that is not
// JSON, JSON that is not a graph, a schemaVersion this reader does not know, and a graph the
// schema accepts but no query could trust (a duplicated node id, an edge to nowhere). See ADR-21
// (the reasons) and ADR-23 (validation, the cap, the index).

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import schema from '../../../schema/graph.schema.json';
import { SCHEMA_VERSION, type Graph } from '../model';
import { indexGraph, type GraphLoad } from '../query/indexed';
import { REASONS, unavailable, type DegradeCode } from '../query/shapes';
import { previewJson } from './display';
import { repositoryOfGraph } from './graph-location';

/** The most a graph file may weigh, whatever the heap: V8 cannot hold a longer string (512 MiB less a little). */
export const MAX_GRAPH_BYTES = 500 * 1024 * 1024;

/**
 * Heap allowed per byte of graph.json. Parsing and indexing the 1,000,000-edge benchmark graph
 * (385 MB) needed about 2.5 bytes of heap per byte (it loads with --max-old-space-size=900 and runs
 * out of memory with 750); 4 leaves room for graphs with longer ids or more nodes per edge. A file
 * the heap cannot hold is refused up front with a message, rather than crashing the process out
 * of memory half-way.
 */
const HEAP_BYTES_PER_FILE_BYTE = 4;

export interface LoadOptions {
  /** Refuse files larger than this many bytes (default: the smaller of MAX_GRAPH_BYTES and what the heap can hold). */
  maxBytes?: number;
  /** Handed the file's bytes as read, before they are parsed: a caller that hashes them need not read the file again. */
  onBytes?: (bytes: Buffer) => void;
}

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The default cap, and whether the heap (not the format) is what limits it. */
function defaultMaxBytes(): { bytes: number; heapBound: boolean } {
  const heapCap = Math.floor(v8.getHeapStatistics().heap_size_limit / HEAP_BYTES_PER_FILE_BYTE);
  return heapCap < MAX_GRAPH_BYTES ? { bytes: heapCap, heapBound: true } : { bytes: MAX_GRAPH_BYTES, heapBound: false };
}

function degrade(code: DegradeCode, reason: string): GraphLoad {
  return { ok: false, unavailable: unavailable(code, reason) };
}

/**
 * Why a repository's graph is not read, or undefined: a graph in a `.knowledge-graph` folder belongs
 * to that folder's parent, and one whose real path leaves it through a symbolic link (a committed
 * `graph.json` linked to another file of the user's) is refused, not read — reading it showed that
 * file's first bytes in the parse error (issue 55). The editor refuses the same graph where it
 * resolves its setting (src/host/graph-path.ts); a graph elsewhere is one the user named.
 */
export function graphOutsideItsRepository(file: string): string | undefined {
  const repository = repositoryOfGraph(file);
  if (repository === undefined) return undefined;
  let realRepository: string;
  let real: string;
  try {
    realRepository = fs.realpathSync(repository);
    real = fs.realpathSync(file);
  } catch {
    return undefined; // missing or unreadable: the load says which
  }
  const rel = path.relative(realRepository, real);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel)
    ? 'the graph path leads outside its repository through a symbolic link: refused, not read'
    : undefined;
}

/** Reads, checks and indexes the graph file at `file`. Never throws for a bad or missing file. */
export function loadGraphFile(file: string, opts: LoadOptions = {}): GraphLoad {
  const outside = graphOutsideItsRepository(file);
  if (outside !== undefined) return degrade('UNREADABLE', REASONS.unparsable(outside));
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return degrade('NO_GRAPH', REASONS.noGraph);
    return degrade('UNREADABLE', REASONS.unparsable(`cannot read the file (${code ?? String(e)})`));
  }
  if (stat.isDirectory()) return degrade('UNREADABLE', REASONS.unparsable('the graph path is a directory, not a file'));
  // A device or a pipe could block or never end: only a regular file has a size to check.
  if (!stat.isFile()) return degrade('UNREADABLE', REASONS.unparsable('the graph path is not a regular file'));
  const cap = opts.maxBytes !== undefined ? { bytes: opts.maxBytes, heapBound: false } : defaultMaxBytes();
  if (stat.size > cap.bytes) {
    const why = cap.heapBound
      ? `more than this process's heap can index (a larger heap: NODE_OPTIONS=--max-old-space-size=<MB>)`
      : `more than kg loads`;
    return degrade('TOO_LARGE', REASONS.unparsable(`the file is ${mb(stat.size)}, over the ${mb(cap.bytes)} limit: ${why}`));
  }
  let bytes: Buffer | undefined;
  try {
    bytes = readExactly(file, stat.size);
  } catch (e) {
    return degrade('UNREADABLE', REASONS.unparsable(`cannot read the file (${(e as NodeJS.ErrnoException).code ?? String(e)})`));
  }
  if (!bytes)
    return degrade('UNREADABLE', REASONS.unparsable('the file changed while it was being read (is a build writing it?); try again'));
  if (!isUtf8(bytes)) return degrade('UNPARSABLE', REASONS.unparsable('the file is not UTF-8 text'));
  opts.onBytes?.(bytes);
  return parseGraphText(bytes.toString('utf8'));
}

/** The file's `size` bytes, or undefined when it grew or shrank meanwhile. */
function readExactly(file: string, size: number): Buffer | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const n = fs.readSync(fd, bytes, done, size - done, done);
      if (n === 0) break;
      done += n;
    }
    const more = fs.readSync(fd, Buffer.alloc(1), 0, 1, size);
    return done === size && more === 0 ? bytes : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Parses, checks and indexes the text of a graph.json. */
export function parseGraphText(text: string): GraphLoad {
  let value: unknown;
  try {
    // A byte-order mark is not JSON, but an editor may have added one; it carries no meaning here.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return degrade('UNPARSABLE', REASONS.unparsable((e as Error).message));
  }
  return checkGraph(value);
}

/** Checks a parsed value against the format and indexes it. */
export function checkGraph(value: unknown): GraphLoad {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return degrade('MISSING_ARRAYS', REASONS.missingArrays);
  const top = value as Record<string, unknown>;
  // The version first: a future format may have renamed everything else.
  if (Object.hasOwn(top, 'schemaVersion') && top.schemaVersion !== SCHEMA_VERSION) {
    return degrade('UNSUPPORTED_VERSION', REASONS.unsupportedVersion(previewJson(top.schemaVersion)));
  }
  if (!Array.isArray(top.nodes) || !Array.isArray(top.edges)) return degrade('MISSING_ARRAYS', REASONS.missingArrays);
  if (!validator('first')(value)) {
    const v = schemaViolations(value);
    const more =
      v.count > 1
        ? ` (and ${v.count - 1} more schema violation${v.count === 2 ? '' : 's'}; kg doctor lists up to ${SCHEMA_SAMPLE_LIMIT})`
        : '';
    return degrade('INVALID', REASONS.unparsable(v.samples[0] + more));
  }
  return indexGraph(value as Graph);
}

/** At most this many schema violations are described; the rest are only counted. */
const SCHEMA_SAMPLE_LIMIT = 20;

export interface SchemaViolations {
  /** How many places break the schema: each node or edge counts once, and each other field. */
  count: number;
  /** The first SCHEMA_SAMPLE_LIMIT of them, described. */
  samples: string[];
}

/**
 * Every place `value` breaks schema/graph.schema.json, counted in one pass, the first few
 * described. Linear in the graph (ADR 76): the schema's validator asked for all errors of a whole
 * graph at once slows down with every error it has already collected — quadratic in a graph with
 * one bad field per edge (a minute at 36 MB) — so each node and edge is checked on its own, and
 * the rest of the document with its two lists left out.
 */
export function schemaViolations(value: unknown): SchemaViolations {
  const v = validators();
  const samples: string[] = [];
  let count = 0;
  const note = (errors: ErrorObject[] | null | undefined, prefix: string, item?: Record<string, unknown>, list?: 'nodes' | 'edges') => {
    count++;
    if (samples.length >= SCHEMA_SAMPLE_LIMIT) return;
    const best = mostTelling(errors ?? []);
    samples.push(describeError(best ? { ...best, instancePath: prefix + best.instancePath } : undefined, item, list));
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { count: 1, samples: ['the top level must be an object'] };
  const top = value as Record<string, unknown>;
  const shell: Record<string, unknown> = { ...top };
  for (const list of ['nodes', 'edges'] as const) if (Array.isArray(top[list])) shell[list] = [];
  if (!v.shell(shell)) for (const e of v.shell.errors ?? []) note([e], '');
  for (const list of ['nodes', 'edges'] as const) {
    const items = top[list];
    if (!Array.isArray(items)) continue;
    const check = list === 'nodes' ? v.node : v.edge;
    items.forEach((item, i) => {
      if (!check(item)) note(check.errors, `/${list}/${i}`, item as Record<string, unknown>, list);
    });
  }
  return { count, samples };
}

/**
 * The schema check split as schemaViolations splits it (ADR 76), for a caller that checks only the
 * rows that changed (doctor/memo.ts, ADR 132): whether everything but the two lists matches, and
 * whether one node or edge matches its definition. A graph matches the schema exactly when its
 * shell and each of its items do.
 */
export function shellMatchesSchema(top: Record<string, unknown>): boolean {
  const shell: Record<string, unknown> = { ...top };
  for (const list of ['nodes', 'edges'] as const) if (Array.isArray(top[list])) shell[list] = [];
  return validators().shell(shell);
}

export function itemMatchesSchema(list: 'nodes' | 'edges', item: unknown): boolean {
  const v = validators();
  return (list === 'nodes' ? v.node : v.edge)(item);
}

let perItem: { shell: ValidateFunction; node: ValidateFunction; edge: ValidateFunction } | undefined;

function validators(): { shell: ValidateFunction; node: ValidateFunction; edge: ValidateFunction } {
  if (perItem) return perItem;
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
  ajv.addSchema(schema);
  const id = (schema as { $id: string }).$id;
  const node = ajv.getSchema(`${id}#/definitions/node`) as ValidateFunction;
  const edge = ajv.getSchema(`${id}#/definitions/edge`) as ValidateFunction;
  return (perItem = { shell: ajv.getSchema(id) as ValidateFunction, node, edge });
}

const compiled: { first?: ValidateFunction } = {};

function validator(kind: 'first'): ValidateFunction {
  // Compiled once per process, on first use: loading the engine costs nothing until a graph is read.
  // The schema is not checked against JSON Schema's own here (more than half the compile, on the
  // first query's path: ADR 168); test/unit/graph-load.test.ts compiles it with that check.
  compiled[kind] ??= new Ajv({
    allErrors: false,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
    validateSchema: false,
  }).compile(schema);
  return compiled[kind];
}

/** Errors about a field's own type or value say more than those about the rule that combined them. */
const COMBINATORS = new Set(['if', 'then', 'else', 'not', 'allOf', 'anyOf', 'oneOf']);

function mostTelling(errors: ErrorObject[]): ErrorObject | undefined {
  const plain = errors.filter((e) => !COMBINATORS.has(e.keyword));
  const pool = plain.length > 0 ? plain : errors;
  // The deepest place is the nearest to the field at fault; there, a wrong type explains the
  // rest, and a `const` usually comes from a rule that keyed on the broken field.
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  const rank = (e: ErrorObject) => (e.keyword === 'type' ? 0 : e.keyword === 'const' ? 2 : 1);
  let best: ErrorObject | undefined;
  for (const e of pool) if (!best || depth(e) > depth(best) || (depth(e) === depth(best) && rank(e) < rank(best))) best = e;
  return best;
}

function clip(s: string, max = 80): string {
  return s.length > max ? s.slice(0, max) + '…' : s;
}

/** One schema error as a sentence: where (with the node or edge it is in), and what is wrong. */
function describeError(err: ErrorObject | undefined, item?: Record<string, unknown>, list?: 'nodes' | 'edges'): string {
  if (!err) return 'does not match the graph.json schema';
  const where = err.instancePath === '' ? 'the top level' : err.instancePath;
  let what = '';
  if (list === 'nodes' && typeof item?.id === 'string') what = ` (node ${clip(item.id)})`;
  if (list === 'edges' && typeof item?.source === 'string' && typeof item?.target === 'string')
    what = ` (edge ${clip(item.source)} -> ${clip(item.target)})`;
  const params = err.params as Record<string, unknown>;
  let detail = err.message ?? 'is invalid';
  if (err.keyword === 'enum' && Array.isArray(params.allowedValues)) detail = `must be one of ${params.allowedValues.join(', ')}`;
  if (err.keyword === 'additionalProperties')
    detail = `has a field the format does not define: ${JSON.stringify(params.additionalProperty)}`;
  if (err.keyword === 'const') detail = `must be ${JSON.stringify(params.allowedValue)}`;
  if (err.keyword === 'not') detail = `breaks a rule of the format (${err.schemaPath})`;
  return `${where}${what} ${detail}`;
}
