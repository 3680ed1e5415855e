// The editor's face for chat agents: the query tools of `kg mcp` as VS Code language-model tools
// (`vscode.lm.registerTool`, contributed in package.json's `languageModelTools`), answered by the
// folder's graph worker exactly as kg mcp answers them (src/mcp/answer.ts). Where the editor offers
// MCP server definitions (VS Code 1.101+, feature-detected: 1.100 stays supported), `kg mcp` is
// registered too, one server per workspace folder (docs/agents.md).

import * as vscode from 'vscode';
import { languageModelToolName, TOOLS } from '../mcp/tools';
import type { GraphService } from './graph-service';

function folderFor(graph: GraphService): string | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const fromEditor = active && graph.folderOf(active);
  if (fromEditor) return fromEditor;
  const states = graph.states();
  return (states.find((s) => s.kind === 'ready') ?? states[0])?.folder;
}

/** The query tools, registered with the editor's language-model API. */
export function registerLanguageModelTools(graph: GraphService, log: vscode.LogOutputChannel): vscode.Disposable[] {
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  const out: vscode.Disposable[] = [];
  for (const tool of TOOLS) {
    if (tool.kind !== 'query') continue;
    out.push(
      vscode.lm.registerTool<Record<string, unknown>>(languageModelToolName(tool), {
        prepareInvocation: () => ({ invocationMessage: `Asking the knowledge graph: ${tool.title.toLowerCase()}` }),
        invoke: async (options) => {
          const folder = folderFor(graph);
          if (folder === undefined) throw new Error('No workspace folder is open: open the repository to ask about its graph.');
          const reply = await graph.agent(folder, tool.name, { ...(options.input ?? {}) });
          log.debug(`language-model tool ${tool.name}: ${reply.ok ? 'answered' : 'failed'}`);
          if (!reply.ok) throw new Error(reply.text);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(reply.value))]);
        },
      }),
    );
  }
  return out;
}

/** What VS Code 1.101+ offers for MCP servers; absent from 1.100's API, so looked up at run time. */
interface McpApi {
  registerMcpServerDefinitionProvider?: (id: string, provider: { provideMcpServerDefinitions(): unknown[] }) => vscode.Disposable;
}
type StdioDefinition = new (
  label: string,
  command: string,
  args: string[],
  env?: Record<string, string>,
  version?: string,
) => { cwd?: vscode.Uri };

/** `kg mcp` for each workspace folder, where the editor has the API (feature-detected). */
export function registerMcpServers(cli: string, version: string, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const register = (vscode.lm as unknown as McpApi).registerMcpServerDefinitionProvider;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinition }).McpStdioServerDefinition;
  if (typeof register !== 'function' || typeof Definition !== 'function') return [];
  // An editor with an earlier shape of the API (1.100 asks for another contribution point) refuses
  // the registration: the tools above still work, and activation must not fail over it.
  try {
    return [registerOne(register, Definition, cli, version)];
  } catch (e) {
    log.info(`kg mcp is not registered as an MCP server here: ${(e as Error).message}`);
    return [];
  }
}

function registerOne(
  register: NonNullable<McpApi['registerMcpServerDefinitionProvider']>,
  Definition: StdioDefinition,
  cli: string,
  version: string,
): vscode.Disposable {
  return register.call(vscode.lm, 'knowledgeGraph.mcp', {
    provideMcpServerDefinitions: () =>
      (vscode.workspace.workspaceFolders ?? []).map((f) => {
        const d = new Definition(
          `Knowledge Graph (${f.name})`,
          process.execPath,
          [cli, 'mcp', '--root', f.uri.fsPath],
          { ELECTRON_RUN_AS_NODE: '1' },
          version,
        );
        d.cwd = f.uri;
        return d;
      }),
  });
}
