// `kg mcp`: the knowledge graph as a Model Context Protocol server over stdio, on the official
// TypeScript SDK's low-level Server (docs/adr/0100-the-mcp-sdk-1-x-line.md). Tools are listed
// from src/agent/tool-definitions.ts (the query catalogue, plus check and build); a call is
// answered by src/agent/answer.ts or src/agent/command-tools.ts. An unknown tool is a protocol
// error; a bad argument, a degrade, an unknown or ambiguous name is a tool error with what to do,
// so the model can correct itself (docs/adr/0102-an-mcp-server-that-never-calls-a-guess-a-fact.md).
// stdout carries the protocol only: everything else goes to stderr.

import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { jsonForPeople, KG_VERSION, redactCredentials, visible } from '../graph';
import { answerQueryTool, ArgumentError, entryRequest, sharedArgs, type QueryCall, type ToolAnswer } from '../agent/answer';
import { answerCommandTool, OneAtATime, type KgProcess } from '../agent/command-tools';
import { Graphs } from '../agent/graphs';
import { answerOrganisationTool, scopeArg } from '../agent/organisation';
import { ASKS, ENTRY_NAME, toolsFor, type QueryTool, type Tool } from '../agent/tool-definitions';
import { LineTransport } from './transport';

export const MCP_HELP = `Usage: kg mcp [--root DIR]... [--graph FILE] [--store URL] [--all-tools]

Serves the knowledge graph to coding agents over the Model Context Protocol (stdio): JSON-RPC on
stdin and stdout, logs on stderr. Register it with an MCP client as the command "kg" with the
argument "mcp" (docs/agents.md has a snippet for each common client).

Tools: explore_code, whose "ask" is one of symbol (start here), callers, impact, path, find or
why, each answered as the tool of that name answers it; check; build. With --all-tools (or
KG_MCP_TOOLS=all) every single-purpose tool is listed too: symbol, callers, affected, impact,
neighbors, path, god-nodes, find, why, unused. Every answer keeps proof (EXACT), guesses
(CANDIDATE) and unplaced calls (UNRESOLVED, with the reason) apart, places nodes as
path:line:column, says "stale" with the changed files when the graph is older than the working
tree, and stays under about 4,000 tokens ("omitted" and "more" say what was cut and how to ask
for it). Node arguments take an id, a name as written in code (map, Subscriber.next) or
path:line. The graph is read again whenever graph.json changes; the build tool rebuilds it (kg
build --apply).

Options:
  --root DIR     A repository the tools answer about; repeat it for more. The first is the one a
                 call without "root" asks about (default: the repository around the working
                 directory, as for kg build). A call's "root" must be one of them or a folder
                 inside one: any other folder is refused, never read or written.
  --graph FILE   The graph of that repository (default: <root>/.knowledge-graph/graph.json).
  --store URL    The organisation's store, a PostgreSQL connection string (default: $KG_STORE):
                 explore_code (and callers, affected, impact, neighbors, path, god-nodes, find
                 and why) then take scope "organisation" and answer across every repository in
                 it (kg store). Without a store no tool takes scope.
  --all-tools    List every single-purpose tool beside explore_code (also KG_MCP_TOOLS=all).
  -h, --help     Show this help.

The check and build tools run one kg process per repository at a time: a call that comes while
one runs waits for it, and the calls that waited share the next run. A build server (kg server
--help) that the build tool started ends with the session; one that ran before it is left running.

Runs until the client closes stdin. Exit codes: 0 the client went away, 2 bad usage.
`;

const INSTRUCTIONS = `This server answers questions about a TypeScript/JavaScript repository from its knowledge graph, where a call is EXACT only when the TypeScript type checker proved it; name matches are CANDIDATE (guesses — check the code before relying on one) and calls nobody could place are UNRESOLVED with the reason. Call ${ENTRY_NAME} with ask "symbol" for any function, class or method you are about to read or change (target takes a name as written in code, or path:line); ask "impact" before changing a signature, "find" to look up ids, and call check after editing to see which proven consumers your edits break. If an answer says "stale": true about files you edited, call build, then ask again.`;

export interface McpOptions {
  /** The repository a call without `root` asks about. */
  defaultRoot: string;
  /**
   * The repositories a call may name as `root` (with the folders inside them): the server's
   * configured ones (default: `defaultRoot` alone). Anything else is refused (ADR 146).
   */
  roots?: readonly string[];
  /** The server's working folder: relative `root` arguments are read from it. */
  cwd: string;
  /** Where a root's graph is (default: <root>/.knowledge-graph/graph.json). */
  graphFileOf?: (root: string) => string;
  /** The repository a folder belongs to (kg's own rule, ADR 79). */
  findRoot: (dir: string) => string;
  /** How to run this kg for the check and build tools. */
  kg: KgProcess;
  /** The organisation's store (a PostgreSQL connection string) for calls with scope "organisation". */
  store?: string;
  log: (line: string) => void;
  /** Registers what to do when the process is told to stop (SIGTERM, SIGINT): clients send it after closing stdin. */
  onStop?: (handler: () => void) => void;
  /**
   * The repositories' build servers (ADR 57): the pid of the one running for a root, and how to
   * stop one. A build server that a session's build started ends with the session (ADR 164),
   * unless it serves other worktrees of the repository by then (ADR 187): they keep it warm.
   */
  buildServers?: {
    running(root: string): number | undefined;
    /** The worktrees other than `own` that the server of `root` holds warm sessions for. */
    alsoServes(root: string, own: string[]): string[];
    stop(pid: number): void;
  };
  /** List every single-purpose tool beside the entry point (kg mcp --all-tools, KG_MCP_TOOLS=all; ADR 164). */
  allTools?: boolean;
}

/** How long a session's end waits for a build server its last build started to be seen. */
const SERVER_SEEN_MS = 1500;

/** A command tool's arguments: only those its schema names (the catalogue's check does this for queries). */
function rejectUnknown(schema: { properties?: unknown }, args: Record<string, unknown>): void {
  const known = Object.keys((schema.properties ?? {}) as object);
  for (const k of Object.keys(args)) if (!known.includes(k)) throw new ArgumentError(`unknown argument "${k.slice(0, 100)}"`);
}

function toResult(a: ToolAnswer): CallToolResult {
  // Nothing sent to the agent holds a store's password (issue 55, item 20).
  if (!a.ok) return { content: [{ type: 'text', text: redactCredentials(a.text) }], isError: true };
  return { content: [{ type: 'text', text: jsonForPeople(a.value) }], structuredContent: a.value };
}

/** What one session's calls share (createMcpServer). */
interface Session {
  options: McpOptions;
  graphs: Graphs;
  runs: OneAtATime;
  roots: readonly string[];
  /** The tools the entry point's asks are answered by, listed or not. */
  answerers: Map<string, QueryTool>;
  /** Roots where no build server ran when this session built: the one its build starts is the session's. */
  ownServers: Set<string>;
  log: (line: string) => void;
}

/** One call of a listed tool, answered (an ArgumentError for arguments it does not take). */
async function answerCall(s: Session, listed: Tool, given: Record<string, unknown>, signal: AbortSignal): Promise<ToolAnswer> {
  const { options } = s;
  const name = listed.name;
  let args = given;
  // The entry point asks the single-purpose tool that answers its question (ADR 164).
  let tool: Exclude<Tool, { kind: 'entry' }>;
  let entry: string | undefined;
  if (listed.kind === 'entry') {
    const request = entryRequest(args);
    tool = s.answerers.get(ASKS[request.ask]) as QueryTool;
    args = request.args;
    entry = listed.name;
  } else tool = listed;
  // Only tools that page take offset/limit; anywhere else they are unknown arguments.
  const paged = tool.kind === 'check' || (tool.kind === 'query' && tool.paged);
  const shared = sharedArgs(args, options.defaultRoot, options.cwd, options.findRoot, paged, s.roots);
  let answer: ToolAnswer;
  if (tool.kind === 'query') {
    const scope = scopeArg(args, tool.scoped, tool.storeFace);
    const call: QueryCall = { tool, args, shared, ...(entry !== undefined ? { entry } : {}) };
    answer = scope === 'organisation' ? await answerOrganisationTool(call, options.store) : answerQueryTool({ ...call, graphs: s.graphs });
  } else {
    rejectUnknown(tool.inputSchema, args);
    if (tool.kind === 'build' && options.buildServers && options.buildServers.running(shared.root) === undefined)
      s.ownServers.add(shared.root);
    answer = await answerCommandTool(tool, args, shared, options.kg, signal, s.runs, (l) => s.log(`kg mcp: ${name}: ${l}`));
  }
  return answer;
}

/** Stops the build servers this session's builds started (a server starts in the background, so it may take a moment to be seen). */
async function stopOwnServers(
  servers: NonNullable<McpOptions['buildServers']>,
  ownServers: Set<string>,
  log: (line: string) => void,
): Promise<void> {
  for (const root of ownServers) {
    const until = Date.now() + SERVER_SEEN_MS;
    let pid = servers.running(root);
    while (pid === undefined && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      pid = servers.running(root);
    }
    if (pid === undefined) continue;
    const others = servers.alsoServes(root, [...ownServers]);
    if (others.length > 0) {
      log(`kg mcp: left the build server (pid ${pid}) running: it also serves ${others.join(', ')}`);
      continue;
    }
    servers.stop(pid);
    log(`kg mcp: stopped the build server (pid ${pid}) that this session's build started for ${root}`);
  }
  ownServers.clear();
}

/** The SDK Server with kg's tools, not yet connected (tests connect it to an in-memory transport). */
export function createMcpServer(options: McpOptions): {
  server: Server;
  close: () => void;
  endSession: () => Promise<void>;
  warm: () => void;
} {
  const graphs = new Graphs(options.graphFileOf);
  const runs = new OneAtATime();
  const roots = options.roots ?? [options.defaultRoot];
  // One line per entry, whatever the text held: control characters escaped (an ESC from a tool's
  // name would drive the terminal), passwords redacted (issue 55, items 20 and 21).
  const log = (line: string) => options.log(visible(redactCredentials(line)));
  const inFlight = new Set<AbortController>();
  /** Set once the client has gone: calls that arrive after it start nothing. */
  let stopped = false;
  /** Roots where no build server ran when this session built: the one its build starts is the session's. */
  const ownServers = new Set<string>();
  const server = new Server(
    { name: 'knowledge-graph', title: 'Knowledge Graph', version: KG_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );

  const store = options.store !== undefined && options.store !== '';
  const tools: Tool[] = toolsFor({ all: options.allTools === true, store });
  const byName = new Map(tools.map((t) => [t.name, t]));
  /** The tools the entry point's asks are answered by, listed or not. */
  const answerers = new Map(
    toolsFor({ all: true, store })
      .filter((t): t is QueryTool => t.kind === 'query')
      .map((t) => [t.query, t]),
  );
  const session: Session = { options, graphs, runs, roots, answerers, ownServers, log };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object'; [k: string]: unknown },
      outputSchema: t.outputSchema as { type: 'object'; [k: string]: unknown },
      annotations: { readOnlyHint: t.kind !== 'build', destructiveHint: false, idempotentHint: t.kind !== 'build', openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const listed = byName.get(name);
    if (!listed)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool "${name.slice(0, 100)}"; the tools are: ${tools.map((t) => t.name).join(', ')}${options.allTools ? '' : ` (kg mcp --all-tools lists the single-purpose ones)`}`,
      );
    const args: Record<string, unknown> = { ...(request.params.arguments ?? {}) };
    const abort = new AbortController();
    // A call the SDK hands over after the client went away starts nothing (no check or build child).
    if (stopped) abort.abort();
    const onAbort = () => abort.abort();
    extra.signal.addEventListener('abort', onAbort, { once: true });
    inFlight.add(abort);
    const started = performance.now();
    try {
      const answer = await answerCall(session, listed, args, abort.signal);
      log(`kg mcp: ${name} ${answer.ok ? 'answered' : 'failed'} in ${(performance.now() - started).toFixed(1)} ms`);
      return toResult(answer);
    } catch (e) {
      if (e instanceof ArgumentError) return toResult({ ok: false, text: `${name}: ${e.message}. See the tool's input schema.` });
      log(`kg mcp: ${name}: internal error: ${(e as Error)?.stack ?? String(e)}`);
      return toResult({
        ok: false,
        text: `${name} failed inside kg: ${(e as Error)?.message ?? String(e)}. This is a bug in kg; other tools still work.`,
      });
    } finally {
      extra.signal.removeEventListener('abort', onAbort);
      inFlight.delete(abort);
    }
  });

  const close = () => {
    stopped = true;
    for (const a of inFlight) a.abort();
  };
  /** Stops the build servers this session's builds started (a server starts in the background, so it may take a moment to be seen). */
  const endSession = async () => {
    if (options.buildServers) await stopOwnServers(options.buildServers, ownServers, log);
  };
  /**
   * Loads the default root's graph and looks at its tree before the first call asks (ADR 168): a
   * client that connects and asks later is answered in milliseconds from its first question.
   */
  const warm = () => {
    if (stopped) return;
    try {
      graphs.get(options.defaultRoot);
    } catch (e) {
      log(`kg mcp: the graph could not be read ahead of the first call: ${(e as Error)?.message ?? String(e)}`);
    }
  };
  return { server, close, endSession, warm };
}

/** Serves over stdin/stdout until the client closes stdin (or the transport fails). */
export async function serveStdio(options: McpOptions, stdin: Readable, stdout: Writable): Promise<void> {
  const { server, close, endSession, warm } = createMcpServer(options);
  const transport: Transport = new LineTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
    // A client that closes stdin and then signals (the SDK's does, after a grace period) must not
    // leave a check or build child running: stopping ends the calls in flight first.
    options.onStop?.(() => {
      close();
      resolve();
    });
  });
  server.onerror = (e) => options.log(visible(redactCredentials(`kg mcp: ${e.message}`)));
  await server.connect(transport);
  // A call that arrives meanwhile waits for it: that call would have loaded the graph itself.
  setImmediate(warm);
  const others = (options.roots ?? []).filter((r) => r !== options.defaultRoot);
  options.log(
    visible(
      `kg mcp: serving ${options.defaultRoot}${others.length > 0 ? ` and ${others.join(', ')}` : ''} (${toolsFor({ all: options.allTools === true, store: options.store !== undefined && options.store !== '' }).length} tools) on stdio`,
    ),
  );
  await closed;
  close();
  await server.close().catch(() => undefined);
  stdin.destroy();
  await endSession();
}
