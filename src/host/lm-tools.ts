// The editor's face for chat agents: the query tools of `kg mcp` as VS Code language-model tools
// (`vscode.lm.registerTool`, contributed in package.json's `languageModelTools`), answered by the
// folder's graph worker exactly as kg mcp answers them (src/agent/answer.ts). Where the editor offers
// MCP server definitions (VS Code 1.101+, feature-detected: 1.100 stays supported), `kg mcp` is
// registered too, one server per workspace folder, offered to chat instead of the language-model
// tools when knowledgeGraph.chatTools says so (ADR 178, docs/agents.md).

import * as vscode from 'vscode';
import { sharedArgs, ArgumentError, type ToolAnswer } from '../agent/answer';
import { answerCheckTool } from '../agent/command-tools';
import { answerOrganisationTool, scopeArg } from '../agent/organisation';
import { languageModelToolName, TOOLS, type QueryTool, type Tool } from '../agent/tool-definitions';
import { loadStore } from './store-callers';
import type { BuildOutcome } from './build-service';
import { resolveGraphPath } from './graph-path';
import { MCP_SERVER_DEFINITIONS_SINCE, takesMcpServerDefinitions } from './editor-version';
import { CHAT_TOOLS_SETTING, chatToolsOffered, definitionSpecs, watchDefinitions } from './mcp-definitions';
import type { GraphService } from './graph-service';

/** What the check and build tools need from the extension: its bundled kg, and its own builds. */
export interface LanguageModelCommands {
  /** Absolute path of the bundled dist/cli.js (check runs it as `kg check` does). */
  cli: string;
  /** A build of the folder through the extension's build service (its progress, its lock, its reload). */
  build(folder: vscode.WorkspaceFolder, full: boolean): Promise<BuildOutcome>;
  /** Resolves once no build runs. */
  whenIdle(): Promise<void>;
}

function folderFor(graph: GraphService): string | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const fromEditor = active && graph.folderOf(active);
  if (fromEditor) return fromEditor;
  const states = graph.states();
  return (states.find((s) => s.kind === 'ready') ?? states[0])?.folder;
}

/** The query tools, registered with the editor's language-model API. */
export function registerLanguageModelTools(
  graph: GraphService,
  commands: LanguageModelCommands,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  const out: vscode.Disposable[] = [];
  for (const tool of TOOLS) {
    out.push(
      vscode.lm.registerTool<Record<string, unknown>>(languageModelToolName(tool), {
        prepareInvocation: () => ({
          invocationMessage:
            tool.kind === 'build' ? 'Rebuilding the knowledge graph' : `Asking the knowledge graph: ${tool.title.toLowerCase()}`,
        }),
        invoke: async (options, token) => {
          const folder = folderFor(graph);
          if (folder === undefined) throw new Error('No workspace folder is open: open the repository to ask about its graph.');
          const reply = await answer(tool, folder, { ...(options.input ?? {}) }, graph, commands, token);
          log.debug(`language-model tool ${tool.name}: ${reply.ok ? 'answered' : 'failed'}`);
          if (!reply.ok) throw new Error(reply.text);
          // The JSON as text only: VS Code 1.100 has LanguageModelDataPart but refuses a JSON one in a
          // tool result ("Invalid MIME type"), failing the call (ADR 178).
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(reply.value))]);
        },
      }),
    );
  }
  return out;
}

/**
 * One tool call. A question goes to the folder's graph worker (as kg mcp answers it); `check` runs
 * the bundled kg check against the folder's graph, so it prints what the CLI prints; `build` is the
 * extension's own build (the status bar shows it, one build at a time), and answers once the new
 * graph is loaded, so the next question is answered from it (docs/agents.md).
 */
async function answer(
  tool: Tool,
  key: string,
  input: Record<string, unknown>,
  graph: GraphService,
  commands: LanguageModelCommands,
  token: vscode.CancellationToken,
): Promise<ToolAnswer> {
  if (tool.kind === 'query') return input.scope === 'organisation' ? askOrganisation(tool, key, input) : graph.agent(key, tool.name, input);
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === key);
  if (!folder || folder.uri.scheme !== 'file') return { ok: false, text: 'The workspace folder is not on the local file system.' };
  const root = folder.uri.fsPath;
  const abort = new AbortController();
  const cancel = token.onCancellationRequested(() => abort.abort());
  try {
    if (tool.kind === 'check') {
      delete input.root;
      let shared;
      try {
        shared = sharedArgs(input, root, root, (d) => d, true);
      } catch (e) {
        if (e instanceof ArgumentError) return { ok: false, text: e.message };
        throw e;
      }
      const where = resolveGraphPath(root, vscode.workspace.getConfiguration('knowledgeGraph', folder.uri).get<string>('graphPath'));
      if (!where.ok) return { ok: false, text: where.reason };
      const kg = { execPath: process.execPath, script: commands.cli, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } };
      return await answerCheckTool(shared, kg, abort.signal, where.path);
    }
    const full = input.full ?? false;
    if (typeof full !== 'boolean') return { ok: false, text: '"full" must be true or false' };
    // A build already running (autoIndex after the agent's own save) is waited for, then this one
    // runs: it costs little when nothing changed since, and it surely covers every edit made so far.
    await commands.whenIdle();
    if (token.isCancellationRequested) return { ok: false, text: 'The build was cancelled before it started; the graph is unchanged.' };
    const outcome = await commands.build(folder, full);
    switch (outcome.kind) {
      case 'built':
        await graph.settled();
        return {
          ok: true,
          value: {
            built: true,
            root,
            summary: `${outcome.nodes} nodes, ${outcome.edges} edges`,
            nodes: outcome.nodes,
            edges: outcome.edges,
          },
        };
      case 'failed':
        return { ok: false, text: `The build of ${folder.name} failed: ${outcome.message}. The previous graph, if any, is unchanged.` };
      case 'cancelled':
        return { ok: false, text: 'The build was cancelled; the graph is unchanged.' };
      case 'busy':
        return { ok: false, text: 'Another build started first; call build again when it ends.' };
      default:
        return { ok: false, text: 'No workspace folder to build.' };
    }
  } finally {
    cancel.dispose();
  }
}

const NO_STORE =
  'scope "organisation" needs the organisation store: set the knowledgeGraph.store setting to its PostgreSQL connection string (docs/organisation.md). Without one, ask with scope "repository".';

/**
 * A question about every repository (ADR 123): asked of the store in the folder's
 * `knowledgeGraph.store`, answered as `kg mcp --store` and `kg store` answer it.
 */
async function askOrganisation(tool: QueryTool, key: string, input: Record<string, unknown>): Promise<ToolAnswer> {
  const uri = vscode.Uri.parse(key);
  const url = vscode.workspace.getConfiguration('knowledgeGraph', uri).get<string>('store', '').trim();
  const args = { ...input };
  delete args.root; // the editor answers about the folder it asked for
  try {
    const shared = sharedArgs(args, uri.fsPath, uri.fsPath, (d) => d, tool.paged);
    scopeArg(args, tool.scoped);
    return await answerOrganisationTool({ tool, args, shared }, url, { noStore: NO_STORE, ...(url !== '' ? { store: loadStore() } : {}) });
  } catch (e) {
    if (e instanceof ArgumentError) return { ok: false, text: `${tool.name}: ${e.message}. See the tool's input schema.` };
    throw e;
  }
}

/** What VS Code 1.101+ offers for MCP servers; absent from 1.100's API, so looked up at run time. */
interface McpApi {
  registerMcpServerDefinitionProvider?: (
    id: string,
    provider: { onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(): unknown[] },
  ) => vscode.Disposable;
}
type StdioDefinition = new (
  label: string,
  command: string,
  args: string[],
  env?: Record<string, string>,
  version?: string,
) => { cwd?: vscode.Uri };

/**
 * Whether `kg mcp` was offered to the editor as an MCP server: `registered`; `unsupported` on an
 * editor before VS Code 1.101, which is never asked (its proposed API refuses the registration and
 * logs it, ADR 154); `refused` with the editor's words when a later one refused it anyway.
 */
export type McpServerRegistration =
  { kind: 'registered' } | { kind: 'unsupported'; version: string } | { kind: 'refused'; message: string };

/** `kg mcp` for each workspace folder, where the editor has the API (by version, then by feature). */
export function registerMcpServers(
  cli: string,
  version: string,
  log: vscode.LogOutputChannel,
): { disposables: vscode.Disposable[]; registration: McpServerRegistration } {
  if (!takesMcpServerDefinitions(vscode.version)) {
    log.debug(`kg mcp is offered as an MCP server from VS Code ${MCP_SERVER_DEFINITIONS_SINCE}; this is ${vscode.version}`);
    return { disposables: [], registration: { kind: 'unsupported', version: vscode.version } };
  }
  const register = (vscode.lm as unknown as McpApi).registerMcpServerDefinitionProvider;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinition }).McpStdioServerDefinition;
  if (typeof register !== 'function' || typeof Definition !== 'function') {
    return { disposables: [], registration: { kind: 'unsupported', version: vscode.version } };
  }
  // An editor whose API still refuses (a build of another shape) must not fail activation over it:
  // the language-model tools above still work.
  try {
    return { disposables: [registerOne(register, Definition, cli, version)], registration: { kind: 'registered' } };
  } catch (e) {
    const message = (e as Error).message;
    log.info(`kg mcp is not registered as an MCP server here: ${message}`);
    return { disposables: [], registration: { kind: 'refused', message } };
  }
}

function registerOne(
  register: NonNullable<McpApi['registerMcpServerDefinitionProvider']>,
  Definition: StdioDefinition,
  cli: string,
  version: string,
): vscode.Disposable {
  // The list follows the workspace's folders and their store settings (mcp-definitions.ts).
  const changed = new vscode.EventEmitter<void>();
  const watches = watchDefinitions(vscode.workspace, () => changed.fire());
  const registration = register.call(vscode.lm, 'knowledgeGraph.mcp', {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      // Chat is offered the MCP server only when knowledgeGraph.chatTools asks for it (ADR 178).
      if (!chatToolsOffered(vscode.workspace.getConfiguration().get(CHAT_TOOLS_SETTING)).mcpServer) return [];
      const folders = vscode.workspace.workspaceFolders ?? [];
      const specs = definitionSpecs(
        folders.map((f) => ({
          name: f.name,
          fsPath: f.uri.fsPath,
          store: vscode.workspace.getConfiguration('knowledgeGraph', f.uri).get<string>('store', '').trim(),
        })),
        process.execPath,
        cli,
      );
      return specs.map((spec, i) => {
        const d = new Definition(spec.label, spec.command, spec.args, spec.env, version);
        d.cwd = folders[i].uri;
        return d;
      });
    },
  });
  return vscode.Disposable.from(registration, ...watches, changed);
}
