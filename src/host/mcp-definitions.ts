// What `kg mcp` is offered to the editor as (src/host/lm-tools.ts registers it where VS Code has
// MCP server definitions): one server per workspace folder, and when the editor must ask for the
// list again, and which of the two sets of tools chat is offered. Kept free of `vscode` so the unit
// tier checks it without an editor (issue 48, item 6).

/** A workspace folder as the definitions need it. */
export interface DefinitionFolder {
  name: string;
  /** The folder's path on disk. */
  fsPath: string;
  /** Its knowledgeGraph.store setting, trimmed ('' when unset). */
  store: string;
}

/** One stdio server definition, before the editor's class is made of it. */
export interface DefinitionSpec {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** `kg mcp --root <folder>` for each folder, run by the editor's own Node (`command`). */
export function definitionSpecs(folders: readonly DefinitionFolder[], command: string, cli: string): DefinitionSpec[] {
  return folders.map((f) => ({
    label: `Knowledge Graph (${f.name})`,
    command,
    args: [cli, 'mcp', '--root', f.fsPath],
    // A folder's store reaches its kg mcp as KG_STORE, never an argument a process list shows.
    env: { ELECTRON_RUN_AS_NODE: '1', ...(f.store !== '' ? { KG_STORE: f.store } : {}) },
  }));
}

/**
 * Which of the editor's two routes to the same tools chat is offered, by `knowledgeGraph.chatTools`
 * (ADR 178): the language-model tools (the default: answered in the editor's own graph worker, on
 * every editor the extension supports), the `kg mcp` server, or both. Never both unless asked:
 * an agent offered the same twelve tools twice, with the same descriptions, reads every
 * description twice and must pick between twins. An unknown value is the default.
 */
type ChatTools = 'languageModelTools' | 'mcpServer' | 'both';
export const CHAT_TOOLS_SETTING = 'knowledgeGraph.chatTools';

export function chatToolsOffered(setting: unknown): { languageModelTools: boolean; mcpServer: boolean } {
  const value: ChatTools = setting === 'mcpServer' || setting === 'both' ? setting : 'languageModelTools';
  return { languageModelTools: value !== 'mcpServer', mcpServer: value !== 'languageModelTools' };
}

type Listen<T> = (listener: (e: T) => unknown) => { dispose(): unknown };

/** The editor's events that change the list: folders added or removed, a folder's store setting, the chat tools setting. */
export interface DefinitionEvents {
  onDidChangeWorkspaceFolders: Listen<unknown>;
  onDidChangeConfiguration: Listen<{ affectsConfiguration(section: string): boolean }>;
}

/** Calls `changed` whenever the definitions would differ; dispose what it returns to stop. */
export function watchDefinitions(events: DefinitionEvents, changed: () => void): Array<{ dispose(): unknown }> {
  return [
    events.onDidChangeWorkspaceFolders(() => changed()),
    events.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('knowledgeGraph.store') || e.affectsConfiguration(CHAT_TOOLS_SETTING)) changed();
    }),
  ];
}
