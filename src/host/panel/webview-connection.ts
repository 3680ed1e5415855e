// One webview's conversation with the host, shared by the explorer panel and the path finder view:
// messages queue until the webview says `ready`; what arrives is validated against the protocol's
// schema, and anything else is logged and dropped; requests are answered through GraphAccess for
// the view's workspace folder; the banner follows the folder's state as it changes.

import * as vscode from 'vscode';
import type { BannerAction, HostMessage, ShowRequest, WebviewMessage } from '../../protocol/messages';
import type { GraphAccess } from '../graph-access';
import { bannerFor, summaryOf } from './banner';
import { detailsMessage, neighborhoodMessage, pathMessage, suggestionsMessage } from './graph-answers';
import { checkWebviewMessage, hostMessageProblem, preview } from './validate';

export interface ViewActions {
  build(): void;
  rebuild(): void;
  showLog(): void;
}

export interface ConnectionDeps {
  access: GraphAccess;
  log: vscode.LogOutputChannel;
  actions: ViewActions;
  /** The explorer's settings for the folder (node cap, neighbourhood budget). */
  settings(folder: string | undefined): { nodeCap: number; budget: number };
  /** Opens a node's declaration (inside the folder only). */
  open(folder: string, id: string): Promise<void>;
  showInExplorer(folder: string, request: ShowRequest): void;
}

export class WebviewConnection implements vscode.Disposable {
  private ready = false;
  private queue: HostMessage[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  /** What the webview last reported drawing: the test hook of docs/adr/0069. */
  lastDrawn: Extract<WebviewMessage, { type: 'drawn' }> | undefined;
  private readyWaiters: Array<() => void> = [];

  constructor(
    private readonly webview: vscode.Webview,
    private readonly name: string,
    private readonly deps: ConnectionDeps,
    public folder: string | undefined,
    private readonly onReady?: () => void,
    private readonly onDrawn?: (m: Extract<WebviewMessage, { type: 'drawn' }>) => void,
  ) {
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      deps.access.onDidChangeState((f) => {
        if (f === this.folder) this.sendStatus();
      }),
    );
  }

  get isReady(): boolean {
    return this.ready;
  }

  whenReady(): Promise<void> {
    return this.ready ? Promise.resolve() : new Promise((r) => this.readyWaiters.push(r));
  }

  post(m: HostMessage): void {
    // A message off the protocol is the host's bug: said in the log, and sent (the webview copes with what it cannot use).
    const problem = hostMessageProblem(m);
    if (problem) this.deps.log.error(`${this.name}: posting a ${m.type} message that is off the protocol (${problem}): ${preview(m)}`);
    if (!this.ready) this.queue.push(m);
    else void this.webview.postMessage(m);
  }

  /**
   * The webview's page is gone: a panel or view hidden without retainContextWhenHidden (ADR 68)
   * loses its page, and a message posted to it is dropped. What is posted from now on waits for
   * the `ready` of the page that is loaded when it is shown again (issue 55: Explore Neighbors run
   * from an editor in the explorer's own tab group brought the tab forward and drew nothing, its
   * `show` posted to the page that was gone).
   */
  hidden(): void {
    this.ready = false;
  }

  setFolder(folder: string | undefined): void {
    if (folder === this.folder) return;
    this.folder = folder;
    this.sendStatus();
  }

  sendStatus(): void {
    const state = this.folder ? this.deps.access.state(this.folder) : undefined;
    const { nodeCap, budget } = this.deps.settings(this.folder);
    this.post({
      type: 'status',
      banner: bannerFor(state),
      summary: summaryOf(state),
      nodeCap,
      budget,
      ...(this.folder ? { folder: this.folder } : {}),
      ...(state?.kind === 'ready' && state.signature ? { signature: state.signature } : {}),
    });
  }

  private async receive(raw: unknown): Promise<void> {
    const checked = checkWebviewMessage(raw);
    if (!checked.ok) {
      this.deps.log.warn(`${this.name}: ignored a message that is not in the protocol (${checked.problem}): ${preview(raw)}`);
      return;
    }
    const m = checked.message;
    try {
      await this.handle(m);
    } catch (e) {
      this.deps.log.error(`${this.name}: ${m.type} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if ('requestId' in m)
        this.post({
          type: 'unavailable',
          requestId: m.requestId,
          reason: `the request failed: ${e instanceof Error ? e.message : String(e)} (see the log)`,
          suggestions: [],
        });
    }
  }

  /** The folder, when its graph can answer; otherwise the reason, sent as the request's answer. */
  private answering(requestId: number): string | undefined {
    const folder = this.folder;
    const banner = bannerFor(folder ? this.deps.access.state(folder) : undefined);
    if (!folder || banner?.blocking) {
      this.post({ type: 'unavailable', requestId, reason: banner?.reason ?? 'no workspace folder', suggestions: [] });
      return undefined;
    }
    return folder;
  }

  private async handle(m: WebviewMessage): Promise<void> {
    const { access } = this.deps;
    switch (m.type) {
      case 'ready': {
        this.ready = true;
        this.sendStatus();
        const queued = this.queue.splice(0);
        // The status just sent goes first; queued messages follow in order.
        for (const q of queued) if (q.type !== 'status') void this.webview.postMessage(q);
        this.onReady?.();
        for (const w of this.readyWaiters.splice(0)) w();
        return;
      }
      case 'runAction':
        return this.run(m.action);
      case 'neighbors': {
        const folder = this.answering(m.requestId);
        if (folder) this.post(await neighborhoodMessage(access, folder, m.requestId, m.id, m.budget, m.expand));
        return;
      }
      case 'path': {
        const folder = this.answering(m.requestId);
        if (folder) this.post(await pathMessage(access, folder, m.requestId, m.from, m.to));
        return;
      }
      case 'details': {
        const folder = this.answering(m.requestId);
        if (folder) this.post(await detailsMessage(access, folder, m.requestId, m.id));
        return;
      }
      case 'suggest': {
        const folder = this.folder;
        const state = folder ? access.state(folder) : undefined;
        this.post(
          folder && state?.kind === 'ready'
            ? await suggestionsMessage(access, folder, m.requestId, m.text)
            : { type: 'suggestions', requestId: m.requestId, items: [] },
        );
        return;
      }
      case 'open':
        if (this.folder) await this.deps.open(this.folder, m.id);
        return;
      case 'showInExplorer':
        if (this.folder) this.deps.showInExplorer(this.folder, m.request);
        return;
      case 'savePng':
        return this.savePng(m.dataUrl);
      case 'drawn':
        this.lastDrawn = m;
        this.onDrawn?.(m);
        this.deps.log.debug(`${this.name}: drew ${m.nodes.length} nodes (${m.mode}${m.aggregated ? `, ${m.aggregated} folded` : ''})`);
        return;
    }
  }

  private run(action: BannerAction): void {
    this.deps.actions[action]();
  }

  private async savePng(dataUrl: string): Promise<void> {
    const folderUri = this.folder ? vscode.Uri.parse(this.folder) : undefined;
    const target = await vscode.window.showSaveDialog({
      title: 'Export the graph as PNG',
      filters: { 'PNG image': ['png'] },
      ...(folderUri ? { defaultUri: vscode.Uri.joinPath(folderUri, 'knowledge-graph.png') } : {}),
    });
    if (!target) return;
    const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
    await vscode.workspace.fs.writeFile(target, bytes);
    this.post({ type: 'saved', message: `Saved ${target.fsPath} (${Math.round(bytes.length / 1024)} KB).` });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
