// The path finder: a webview view in the Knowledge Graph side bar. Its From field is offered the
// symbol at the cursor; the rest is the shared connection (src/host/panel/webview-connection.ts).

import * as vscode from 'vscode';
import type { ShowRequest } from '../../protocol/messages';
import type { GraphAccess } from '../graph-access';
import { WebviewConnection, type ConnectionDeps } from './webview-connection';
import { htmlFor, webviewOptions } from './explorer-panel';
import { nodeViews } from './graph-answers';
import { nodeAtCursor } from './symbol-at-cursor';

const PATH_FINDER_VIEW_ID = 'knowledgeGraph.pathFinder';

export class PathFinderView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private connection: WebviewConnection | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private pending: ShowRequest | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly access: GraphAccess,
    private readonly deps: ConnectionDeps,
    private readonly pickFolder: () => string | undefined,
  ) {
    this.disposables.push(
      vscode.window.registerWebviewViewProvider(PATH_FINDER_VIEW_ID, this),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        const folder = e ? this.access.folderOf(e.document.uri) : undefined;
        if (folder) this.connection?.setFolder(folder);
        void this.offerDefault();
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    const connection = new WebviewConnection(view.webview, 'path finder', this.deps, this.pickFolder(), () => {
      void this.offerDefault();
      if (this.pending) {
        connection.post({ type: 'show', request: this.pending });
        this.pending = undefined;
      }
    });
    this.connection = connection;
    view.webview.html = htmlFor(view.webview, this.extensionUri, 'path-finder');
    // Collapsed or its side bar switched away, the view's page is gone (WebviewConnection.hidden).
    view.onDidChangeVisibility(() => {
      if (!view.visible) connection.hidden();
    });
    view.onDidDispose(() => {
      connection.dispose();
      if (this.view === view) {
        this.view = undefined;
        this.connection = undefined;
      }
    });
  }

  /** The symbol at the cursor, offered as From (the webview keeps a From the user typed). */
  private async offerDefault(): Promise<void> {
    const c = this.connection;
    if (!c?.isReady) return;
    const at = await nodeAtCursor(this.access, vscode.window.activeTextEditor);
    if (!at || at.folder !== c.folder) return;
    const [node] = await nodeViews(this.access, at.folder, [at.id]);
    c.post({ type: 'defaultEndpoint', node: node ?? null });
  }

  /** Reveals the view and fills From/To (finding the path when both are given). */
  async show(folder: string | undefined, request: ShowRequest): Promise<void> {
    await vscode.commands.executeCommand(`${PATH_FINDER_VIEW_ID}.focus`);
    if (this.connection) {
      this.connection.setFolder(folder);
      this.connection.post({ type: 'show', request });
    } else this.pending = request;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
