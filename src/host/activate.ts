// Wiring of the extension host's services. Filled in by the editor issues; the build command
// is registered here so the manifest's command always has a handler.

import * as vscode from 'vscode';

export function activateHost(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Knowledge Graph', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(
    vscode.commands.registerCommand('knowledgeGraph.build', async () => {
      log.info('Build requested');
      await vscode.window.showInformationMessage('Knowledge Graph: the build command is not wired yet.');
    }),
  );
}
