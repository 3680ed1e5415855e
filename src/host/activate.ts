// Wiring of the extension host's services: each is built here and every disposable is pushed to
// the context. Returns the extension's API (what in-host tests and other extensions call).

import * as vscode from 'vscode';
import type { DiffReport } from '../graph';
import { AutoIndex } from './auto-index';
import { BreakingChangeGuard } from './breaking-guard';
import { BuildService, type BuildOutcome } from './build-service';
import { CallersLensProvider } from './callers-lens';
import { StoreCallers } from './store-callers';
import { CompareView, type DiffElement } from './compare';
import { FolderConfigs } from './folder-config';
import { Commands } from './commands';
import { GodNodesTree } from './god-nodes-tree';
import type { FolderGraphState } from './graph-access';
import { resolveGraphPath } from './graph-path';
import { registerGraphViews, type GraphViewsApi } from './panel';
import type { EditorGraphAccess } from './editor-graph-access';
import { GraphService } from './graph-service';
import { registerLanguageModelTools, registerMcpServers, type McpServerRegistration } from './lm-tools';
import { RationaleHoverProvider } from './rationale-hover';
import { editorSurfaces, SOURCE_LANGUAGES } from './modes';

/**
 * The documents the graph places lenses and hovers in: scripts by language, and Vue and Svelte
 * components by name, whatever language extension the user has (ADR 169).
 */
const GRAPH_DOCUMENTS: vscode.DocumentFilter[] = [
  ...SOURCE_LANGUAGES.map((language) => ({ language, scheme: 'file' })),
  { scheme: 'file', pattern: '**/*.{vue,svelte}' },
];
import { StatusBar } from './status-bar';

export type { BuildOutcome } from './build-service';

/** `vscode.extensions.getExtension('knowledge-graph.knowledge-graph').exports` */
export interface KnowledgeGraphApi {
  /** Builds the graph of one workspace folder (the folder containing `uri`) and reports it. */
  build(uri: vscode.Uri, opts?: { full?: boolean }): Promise<BuildOutcome>;
  /** Where the graph of the folder containing `uri` is written, or why it cannot be. */
  graphPath(uri: vscode.Uri): { ok: true; path: string } | { ok: false; reason: string };
  readonly isBuilding: boolean;
  /** Cancels the running build (what the progress notification's Cancel does); false when none runs. */
  cancelBuild(): boolean;
  /** The graph service every surface reads (one state per folder). */
  readonly graph: EditorGraphAccess;
  /** Every folder's state, once no load or staleness check is in progress. */
  settledStates(): Promise<FolderGraphState[]>;
  /** The status bar item's text now. */
  readonly statusText: string;
  /** What the graph explorer last drew (mode, node ids, folded count), for tests and other extensions. */
  explorerDrawn: GraphViewsApi['explorerDrawn'];
  /** How the configuration of the folder containing `uri` resolves now (its .knowledge-graph/config.json, ADR-70). */
  configOf(uri: vscode.Uri): { mode: string; autoIndex: boolean } | undefined;
  /** The breaking-change guard's diagnostics on a document now, once no check is pending. */
  guardDiagnostics(uri: vscode.Uri): Promise<readonly vscode.Diagnostic[]>;
  /** Whether `kg mcp` was offered to the editor as an MCP server, and why not (ADR 154). */
  readonly mcpServer: McpServerRegistration;
  /** Resolves once no autoIndex build waits or runs. */
  autoIndexIdle(): Promise<void>;
  /** "Compare With…" without the pick: the working tree of the folder holding `uri` against `ref`, shown in the view. */
  compareWith(uri: vscode.Uri, ref: string): Promise<{ ok: true; report: DiffReport } | { ok: false; message: string }>;
  /** The Structural Diff view's rows now. */
  readonly compareElements: readonly DiffElement[];
  /** Opens a row of the Structural Diff view as a click does. */
  openDiffEntry(e: DiffElement): Promise<vscode.TextEditor | undefined>;
}

function activateHost(context: vscode.ExtensionContext): KnowledgeGraphApi {
  const log = vscode.window.createOutputChannel('Knowledge Graph', { log: true });
  context.subscriptions.push(log);
  const graph = new GraphService(vscode.Uri.joinPath(context.extensionUri, 'dist', 'graph-worker.js').fsPath, log);
  context.subscriptions.push(graph);
  const builds = new BuildService(vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath, log, graph);
  context.subscriptions.push(builds);
  const commands = new Commands(graph, builds, log);
  context.subscriptions.push(...commands.register());
  // Each folder's .knowledge-graph/config.json: its mode decides the lenses and the guard, its
  // autoIndex the builds after a save (docs/configuration.md).
  const configs = new FolderConfigs(log);
  context.subscriptions.push(configs);
  // The organisation store's callers in other repositories, for folders with knowledgeGraph.store set (ADR 123).
  const others = new StoreCallers();
  context.subscriptions.push(others);
  const lenses = new CallersLensProvider(
    graph,
    {
      lensesOn: (folder) => editorSurfaces(configs.config(folder)?.resolved.mode ?? 'off').lenses,
      onDidChange: configs.onDidChange,
    },
    others,
  );
  context.subscriptions.push(
    lenses,
    vscode.languages.registerCodeLensProvider(GRAPH_DOCUMENTS, lenses),
    // Stamped notes and decision records on a declaration (ADR 88, ADR 89).
    vscode.languages.registerHoverProvider(GRAPH_DOCUMENTS, new RationaleHoverProvider(graph)),
  );
  const guard = new BreakingChangeGuard(graph, configs, log);
  const autoIndex = new AutoIndex(graph, configs, builds, log);
  context.subscriptions.push(guard, autoIndex);
  // The structural diff against a branch or commit (kg diff), in its own view.
  const compare = new CompareView(vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath, log);
  context.subscriptions.push(compare);
  const status = new StatusBar(graph);
  context.subscriptions.push(status, new GodNodesTree(graph));
  const mcp = registerMcpServers(
    vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath,
    String(context.extension.packageJSON.version),
    log,
  );
  // Chat agents in the editor: kg mcp's query tools, and kg mcp itself where the editor takes MCP servers.
  context.subscriptions.push(
    ...registerLanguageModelTools(
      graph,
      {
        cli: vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath,
        build: (folder, full) => builds.build(folder, { full, quiet: true }),
        whenIdle: () => builds.whenIdle(),
      },
      log,
    ),
    ...mcp.disposables,
  );
  // The explorer and the path finder (src/host/panel): registered now, synchronously, so that a
  // panel restored after a reload finds its serializer.
  const views = registerGraphViews(context, graph, log, {
    build: () => void vscode.commands.executeCommand('knowledgeGraph.build'),
    rebuild: () => void vscode.commands.executeCommand('knowledgeGraph.rebuild'),
    showLog: () => log.show(),
  });
  log.info(`Knowledge Graph ${String(context.extension.packageJSON.version)} activated`);
  void buildOnOpen(graph, builds);
  return {
    build: async (uri, opts) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      return folder ? builds.build(folder, opts) : { kind: 'no-folder' };
    },
    graphPath: (uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (!folder) return { ok: false, reason: `${uri.fsPath} is not in a workspace folder` };
      return resolveGraphPath(folder.uri.fsPath, vscode.workspace.getConfiguration('knowledgeGraph', folder.uri).get<string>('graphPath'));
    },
    get isBuilding() {
      return builds.isBuilding;
    },
    cancelBuild: () => builds.cancel(),
    graph,
    settledStates: async () => {
      await graph.settled();
      return graph.states();
    },
    get statusText() {
      return status.text;
    },
    explorerDrawn: () => views.explorerDrawn(),
    configOf: (uri) => {
      const folder = graph.folderOf(uri);
      const c = folder ? configs.config(folder)?.resolved : undefined;
      return c && { mode: c.mode, autoIndex: c.autoIndex };
    },
    guardDiagnostics: async (uri) => {
      await guard.settled();
      return guard.diagnosticsOf(uri);
    },
    mcpServer: mcp.registration,
    autoIndexIdle: () => autoIndex.idle(),
    compareWith: async (uri, ref) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      return folder ? compare.compare(folder, ref) : { ok: false, message: `${uri.fsPath} is not in a workspace folder` };
    },
    get compareElements() {
      return compare.elements;
    },
    openDiffEntry: async (e) => (e.type === 'symbol' || e.type === 'consumer' ? compare.open(e.at) : undefined),
  };
}

/** `knowledgeGraph.buildOnOpen`: builds each folder whose graph is missing or stale, once, after loading. */
async function buildOnOpen(graph: GraphService, builds: BuildService): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) =>
    vscode.workspace.getConfiguration('knowledgeGraph', f.uri).get<boolean>('buildOnOpen', false),
  );
  if (folders.length === 0) return;
  await graph.settled();
  for (const f of folders) {
    const s = graph.state(f.uri.toString());
    if (s && (s.kind === 'absent' || (s.kind === 'ready' && s.staleFiles.length > 0))) await builds.build(f);
  }
}

/**
 * activateHost, with a failure said to the user: VS Code logs an activation error only in its own
 * developer tools, so without this a broken activation would look like an extension that does
 * nothing. What the failed activation had already started (its log, watchers, a worker) is
 * disposed, so nothing half-started keeps running; the error is rethrown so that VS Code still
 * marks the extension as failed. `show` is the editor's error notification (the in-host test
 * passes its own to read the words).
 */
export function activateOrExplain(
  context: vscode.ExtensionContext,
  show: (message: string) => unknown = (m) => vscode.window.showErrorMessage(m),
): KnowledgeGraphApi {
  try {
    return activateHost(context);
  } catch (e) {
    for (const d of context.subscriptions.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // Disposing the rest matters more than one that fails.
      }
    }
    const message = e instanceof Error ? e.message : String(e);
    void show(
      `Knowledge Graph could not start: ${message}. Reload the window to try again; if it keeps failing, report it with this message.`,
    );
    throw e;
  }
}
