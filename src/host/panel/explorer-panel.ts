// The graph explorer panel: one at a time, opened beside the code, restored after a reload by a
// WebviewPanelSerializer from the webview's own state (getState/setState) rather than kept alive
// with retainContextWhenHidden (docs/adr/0068).

import * as vscode from 'vscode';
import type { ShowRequest } from '../../protocol/messages';
import type { GraphAccess } from '../graph-access';
import { WebviewConnection, type ConnectionDeps } from './webview-connection';
import { buildWebviewHtml } from './html';

const EXPLORER_VIEW_TYPE = 'knowledgeGraph.explorer';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    // Only the bundle and the stylesheet: nothing else of the extension, nothing of the workspace.
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export function htmlFor(webview: vscode.Webview, extensionUri: vscode.Uri, kind: 'explorer' | 'path-finder'): string {
  return buildWebviewHtml({
    kind,
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', `${kind}.js`)).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview.css')).toString(),
  });
}

export class ExplorerPanels implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private connection: WebviewConnection | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly access: GraphAccess,
    private readonly deps: ConnectionDeps,
  ) {
    this.disposables.push(
      vscode.window.registerWebviewPanelSerializer(EXPLORER_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => this.adopt(panel, this.restoredFolder(state)),
      }),
    );
  }

  /** The folder a restored panel showed, only if it is one of the workspace's folders now. */
  private restoredFolder(state: unknown): string | undefined {
    const folder = typeof state === 'object' && state !== null ? (state as { folder?: unknown }).folder : undefined;
    const known = this.access.states().map((s) => s.folder);
    return typeof folder === 'string' && known.includes(folder) ? folder : known[0];
  }

  private adopt(panel: vscode.WebviewPanel, folder: string | undefined): void {
    this.panel = panel;
    panel.webview.options = webviewOptions(this.extensionUri);
    // The tab names what is shown ("Graph: main", "Graph: main → add"), so two panels' worth of
    // history in the tab bar stays readable.
    const connection = new WebviewConnection(panel.webview, 'explorer', this.deps, folder, undefined, (m) => {
      panel.title = m.title ? `Graph: ${m.title}` : 'Graph Explorer';
    });
    this.connection = connection;
    panel.webview.html = htmlFor(panel.webview, this.extensionUri, 'explorer');
    // Hidden (another editor of its tab group in front), the panel's page is gone: what is posted
    // waits for the page loaded when it is revealed (WebviewConnection.hidden).
    panel.onDidChangeViewState(() => {
      if (!panel.visible) connection.hidden();
    });
    panel.onDidDispose(() => {
      connection.dispose();
      if (this.panel === panel) {
        this.panel = undefined;
        this.connection = undefined;
      }
    });
  }

  /** Opens (or reveals) the explorer on a folder and, when given, shows a neighbourhood or path. */
  show(folder: string | undefined, request?: ShowRequest): void {
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(
        EXPLORER_VIEW_TYPE,
        'Graph Explorer',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        webviewOptions(this.extensionUri),
      );
      this.adopt(panel, folder);
    } else {
      this.panel.reveal(undefined, false);
      this.connection?.setFolder(folder);
    }
    if (request) this.connection?.post({ type: 'show', request });
  }

  /** What the explorer last drew (node ids), for the editor tests. */
  get drawn(): WebviewConnection['lastDrawn'] {
    return this.connection?.lastDrawn;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
