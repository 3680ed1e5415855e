// One tool call, answered: the arguments checked (the catalogue's own check, and the shared ones),
// node arguments resolved from what an agent writes (resolveTarget), the catalogue's answer over
// the root's current graph, cut to a context window (budget.ts). A degrade, an unknown or
// ambiguous name and a bad argument are tool errors whose text says what to do next — never an
// empty answer (docs/adr/0102-an-mcp-server-that-never-calls-a-guess-a-fact.md).

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  answerOn,
  checkArgs,
  isGraphError,
  nodeOf,
  paramsOf,
  resolveTarget,
  type GraphNode,
  type IndexedGraph,
  type QueryName,
  type Target,
  type Unavailable,
} from '../graph';
import { DEFAULT_LIMIT, DEFAULT_MAX_BYTES, fitAnswer, MAX_LIMIT, type NextPage } from './budget';
import type { Graphs, RootGraph } from './graphs';
import { ASKS, TARGET_PARAM, toolNameOf, type Ask, type QueryTool } from './tool-definitions';

/** A tool's answer: JSON for the model, or an error that says what to do. */
export type ToolAnswer = { ok: true; value: Record<string, unknown> } | { ok: false; text: string };

/** A bad argument: the call fails with this message (a tool error, so the model can correct it). */
export class ArgumentError extends Error {}

export const fail = (text: string): ToolAnswer => ({ ok: false, text });

/** The shared arguments: which repository, which page. */
export interface Shared {
  root: string;
  offset: number;
  limit: number;
}

function integer(args: Record<string, unknown>, key: string, fallback: number, min: number, max: number): number {
  const v = args[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
    throw new ArgumentError(`"${key}" must be a whole number from ${min} to ${max} (got ${JSON.stringify(v)?.slice(0, 40)})`);
  return v;
}

/** `dir` itself, or a folder inside it (both real paths). */
const within = (dir: string, root: string): boolean => dir === root || dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

function realFolder(dir: string): string | undefined {
  try {
    return fs.statSync(dir).isDirectory() ? fs.realpathSync(dir) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shared arguments out of `args` (removed from it), `root` resolved against the server's
 * folder. A `root` must be one of `allowed` (the server's configured roots) or a folder inside
 * one, after links are followed: anything else is refused before it is read or written (issue
 * 55, item 19). The repository it names is `findRoot`'s, kept inside the configured root.
 */
export function sharedArgs(
  args: Record<string, unknown>,
  defaultRoot: string,
  cwd: string,
  findRoot: (dir: string) => string,
  paged: boolean,
  allowed: readonly string[] = [defaultRoot],
): Shared {
  let root = defaultRoot;
  if (args.root !== undefined) {
    if (typeof args.root !== 'string' || args.root === '' || args.root.length > 4096)
      throw new ArgumentError('"root" must be a folder path');
    const dir = path.resolve(cwd, args.root);
    const real = realFolder(dir);
    if (real === undefined) throw new ArgumentError(`"root" is not a folder: ${dir}`);
    const home = allowed.find((r) => within(real, realFolder(r) ?? path.resolve(r)));
    if (home === undefined)
      throw new ArgumentError(
        `"root" ${dir} is outside the repositories this server answers about (${allowed.join(', ')}); it answers only about those and folders inside them (kg mcp --root DIR, once per repository)`,
      );
    const found = findRoot(dir);
    const foundReal = realFolder(found);
    root = foundReal !== undefined && within(foundReal, realFolder(home) ?? home) ? found : home;
  }
  delete args.root;
  if (!paged) return { root, offset: 0, limit: DEFAULT_LIMIT };
  const shared = {
    root,
    offset: integer(args, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    limit: integer(args, 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT),
  };
  delete args.offset;
  delete args.limit;
  return shared;
}

/** What to do about a degrade, written for a model that can call the build tool. */
function degradeText(u: Unavailable, rg: Pick<RootGraph, 'root' | 'file'>): string {
  const where = rg.file;
  switch (u.code) {
    case 'NO_GRAPH':
      return `No graph for ${rg.root}: there is no ${where}. Call the build tool (or run \`kg build --apply\` in ${rg.root}), then ask again.`;
    case 'LAYER_MISSING':
      return `${where} was built without call edges (kg build --extract-only): call the build tool with full: true (or run \`kg build --apply --full\`), then ask again.`;
    case 'UNKNOWN_NODE':
      return u.suggestions && u.suggestions.length > 0
        ? `${u.reason}. Did you mean one of: ${u.suggestions.join(', ')}? Use the find tool to search ids.`
        : `${u.reason}. Use the find tool to search ids; if the code is new, call the build tool first.`;
    case 'TOO_LARGE':
      return `${where} cannot be used: ${u.reason}. Start kg mcp with more memory (NODE_OPTIONS=--max-old-space-size=…).`;
    default:
      return `${where} cannot be used: ${u.reason}. Call the build tool with full: true (or run \`kg build --apply --full\`), then ask again.`;
  }
}

/** `path:line:column` of a node's declaration, its path when it has no position. */
function locationOf(n: GraphNode | undefined): string | undefined {
  if (n?.sourceFile === undefined) return undefined;
  return n.line !== undefined && n.column !== undefined ? `${n.sourceFile}:${n.line}:${n.column}` : n.sourceFile;
}

function describe(g: IndexedGraph, id: string, callers?: number): string {
  const n = nodeOf(g, id);
  const at = locationOf(n);
  const count = callers === undefined ? '' : `, ${callers} proven caller${callers === 1 ? '' : 's'}`;
  return `- ${id}${n ? ` (${n.kind}${at ? `, ${at}` : ''}${count})` : ''}`;
}

function unresolvedText(g: IndexedGraph, key: string, t: Exclude<Target, { kind: 'node' }>, entry?: string): string {
  if (entry !== undefined) key = ENTRY_WORDS[key] ?? key;
  if (t.kind === 'ambiguous') {
    const more =
      t.total > t.candidates.length ? `\n(${t.total - t.candidates.length} more: give a longer name, a path#name or path:line)` : '';
    return `"${t.asked}" (${key}) is ambiguous: ${t.why}. Call again with one of these ids as ${key}:\n${t.candidates.map((c, i) => describe(g, c, t.callers[i])).join('\n')}${more}`;
  }
  const tail =
    t.suggestions.length > 0
      ? ` Ids containing it:\n${t.suggestions.map((c) => describe(g, c)).join('\n')}`
      : ' Use the find tool to search ids; if the code is new, call the build tool first.';
  return `"${t.asked}" (${key}) names no node: ${t.why}.${tail}`;
}

export interface QueryCall {
  tool: QueryTool;
  args: Record<string, unknown>;
  shared: Shared;
  maxBytes?: number;
  /** Asked through the entry point (ADR 164): its name, for what the answer tells to call next. */
  entry?: string;
}

/** The entry point's words for a single-purpose tool's node parameters. */
const ENTRY_WORDS: Record<string, string> = { id: 'target', from: 'target', text: 'target' };

/** Asks that page their lists with `offset`. */
const PAGED_ASKS: ReadonlySet<Ask> = new Set(['callers', 'impact', 'why']);

/**
 * The entry point's request (`ask`, `target`, …) as the call of the single-purpose tool that
 * answers it, with that tool's arguments: the answer is that tool's. An argument the question
 * does not take is refused with what it is for.
 */
export function entryRequest(raw: Record<string, unknown>): { ask: Ask; args: Record<string, unknown> } {
  const { ask, target, to, offset, limit, ...rest } = raw;
  const asks = Object.keys(ASKS).join(', ');
  if (ask === undefined) throw new ArgumentError(`"ask" is missing: the question, one of ${asks}`);
  if (typeof ask !== 'string' || !Object.hasOwn(ASKS, ask))
    throw new ArgumentError(`"ask" must be one of ${asks} (got ${JSON.stringify(ask)?.slice(0, 40)})`);
  const a = ask as Ask;
  if (target === undefined)
    throw new ArgumentError(
      a === 'find'
        ? '"target" is missing: the text to look for'
        : '"target" is missing: the symbol asked about (a name, an id or path:line)',
    );
  if (typeof target !== 'string') throw new ArgumentError(`"target" must be text (got ${JSON.stringify(target)?.slice(0, 40)})`);
  const args: Record<string, unknown> = { ...rest, [TARGET_PARAM[a]]: target };
  if (a === 'path') {
    if (to === undefined) throw new ArgumentError('"to" is missing: with ask "path", where the path ends');
    if (typeof to !== 'string') throw new ArgumentError(`"to" must be text (got ${JSON.stringify(to)?.slice(0, 40)})`);
    args.to = to;
  } else if (to !== undefined) throw new ArgumentError(`"to" is only for ask "path"`);
  if (offset !== undefined) {
    if (!PAGED_ASKS.has(a)) throw new ArgumentError(`"offset" is only for ask callers, impact or why: ${a} answers in one page`);
    args.offset = offset;
  }
  if (limit !== undefined) {
    if (a === 'path' || a === 'find') throw new ArgumentError(`"limit" is not for ask "${a}"`);
    args.limit = limit;
  }
  return { ask: a, args };
}

/** How to get the rest of a list, by the tool that pages it. */
export function nextPageOf(tool: QueryTool, ids: Record<string, string>, entry?: string): NextPage {
  if (entry !== undefined && tool.paged) return (_field, next) => `call ${entry} again with the same ask and target, and offset ${next}`;
  if (tool.paged) return (_field, next) => `call ${tool.name} again with offset ${next}`;
  if (tool.query === 'symbol') {
    const id = ids.id ?? '';
    if (entry !== undefined)
      return (field, next) =>
        field === 'callers' || field === 'candidates'
          ? `call ${entry} with ask "callers", target ${id} and offset ${next} for the rest`
          : `call ${entry} again with a larger limit (up to 1000)`;
    return (field, next) =>
      field === 'callers' || field === 'candidates'
        ? `call ${toolNameOf('callers')} with id ${id} and offset ${next} for the rest`
        : `call symbol with a larger limit (up to 1000), or neighbors for ${id}`;
  }
  if (tool.query === 'unused')
    return (field) => `call unused again with a larger offset for the rest of "${field}" ("totals" counts it), or a narrower path`;
  return () => `ask a narrower question`;
}

/** The call's arguments as the catalogue checks them; a bad one is an argument error. */
export function checkedArgs(call: Pick<QueryCall, 'tool' | 'args'>): Record<string, unknown> {
  try {
    return checkArgs(call.tool.query, call.args) as Record<string, unknown>;
  } catch (e) {
    // The tool's name prefixes the message once (server.ts): the catalogue's own prefix goes.
    if (isGraphError(e))
      throw new ArgumentError(e.message.startsWith(`${call.tool.query}: `) ? e.message.slice(call.tool.query.length + 2) : e.message);
    throw e;
  }
}

/** A catalogue question over the graph `kg mcp` holds for the root (loaded again when it changed). */
export function answerQueryTool(call: QueryCall & { graphs: Graphs }): ToolAnswer {
  return answerQueryOn(call, call.graphs.get(call.shared.root));
}

/**
 * A catalogue question over one root's graph as it is now — the MCP server's, or the graph
 * worker's for the editor's language-model tools (src/host/lm-tools.ts): the same answer either way.
 */
export function answerQueryOn(call: QueryCall, rg: RootGraph): ToolAnswer {
  const { tool, shared } = call;
  if (!rg.load.ok) return fail(degradeText(rg.load.unavailable, rg));
  const g = rg.load.graph;
  const args = checkedArgs(call);
  const resolved: Record<string, { asked: string; id: string; via: string }> = {};
  // An absolute path inside the repository names its file (`/home/me/repo/src/a.ts:42`), links followed or not.
  const real = realFolder(rg.root);
  const roots = real !== undefined && real !== rg.root ? [rg.root, real] : [rg.root];
  for (const [key, spec] of paramsOf(tool.query)) {
    if (spec.type !== 'string' || spec.role !== 'id') continue;
    const asked = args[key] as string;
    const t = resolveTarget(g, asked, { roots });
    if (t.kind !== 'node') return fail(unresolvedText(g, key, t, call.entry));
    args[key] = t.id;
    if (t.id !== asked) resolved[call.entry !== undefined ? (ENTRY_WORDS[key] ?? key) : key] = { asked, id: t.id, via: t.via };
  }
  const result = answerOn(g, tool.query as QueryName, args as never, rg.staleness ? { staleness: rg.staleness } : undefined) as
    Unavailable | Record<string, unknown>;
  if (result.available === false) return fail(degradeText(result as Unavailable, rg));
  const fitted = fitAnswer(
    result as Record<string, unknown>,
    { offset: shared.offset, limit: tool.paged ? shared.limit : MAX_LIMIT, maxBytes: call.maxBytes ?? DEFAULT_MAX_BYTES },
    (id) => locationOf(nodeOf(g, id)),
    nextPageOf(tool, args as Record<string, string>, call.entry),
  );
  const value = { ...fitted.answer };
  if (Object.keys(resolved).length > 0) value.resolved = resolved;
  if (rg.stalenessUnknown !== undefined) value.stalenessUnknown = rg.stalenessUnknown;
  return { ok: true, value };
}
