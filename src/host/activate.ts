// Wiring of the extension host's services: each is built here and every disposable is pushed to
// the context. Returns the extension's API (what in-host tests and other extensions call).

import * as vscode from 'vscode';
import { BuildService, SHOW_LOG_COMMAND, type BuildOutcome } from './build-service';
import { resolveGraphPath } from './graph-path';

export type { BuildOutcome } from './build-service';

/** `vscode.extensions.getExtension('knowledge-graph.knowledge-graph').exports` */
export interface KnowledgeGraphApi {
  /** Builds the graph of one workspace folder (the folder containing `uri`) and reports it. */
  build(uri: vscode.Uri): Promise<BuildOutcome>;
  /** Where the graph of the folder containing `uri` is written, or why it cannot be. */
  graphPath(uri: vscode.Uri): { ok: true; path: string } | { ok: false; reason: string };
  readonly isBuilding: boolean;
}

export function activateHost(context: vscode.ExtensionContext): KnowledgeGraphApi {
  const log = vscode.window.createOutputChannel('Knowledge Graph', { log: true });
  context.subscriptions.push(log);
  const builds = new BuildService(vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath, log);
  context.subscriptions.push(builds);
  context.subscriptions.push(
    vscode.commands.registerCommand('knowledgeGraph.build', (arg?: vscode.Uri | vscode.WorkspaceFolder) => builds.buildCommand(arg)),
    vscode.commands.registerCommand(SHOW_LOG_COMMAND, () => log.show()),
  );
  log.info(`Knowledge Graph ${String(context.extension.packageJSON.version)} activated`);
  return {
    build: async (uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      return folder ? builds.build(folder) : { kind: 'no-folder' };
    },
    graphPath: (uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (!folder) return { ok: false, reason: `${uri.fsPath} is not in a workspace folder` };
      return resolveGraphPath(folder.uri.fsPath, vscode.workspace.getConfiguration('knowledgeGraph', folder.uri).get<string>('graphPath'));
    },
    get isBuilding() {
      return builds.isBuilding;
    },
  };
}
