// The status bar item: the graph's state for the active editor's folder (or the only folder) in a
// few characters — "1,234 nodes · 5,678 edges", "building 120/252", "stale: 3 files",
// "unavailable" — with the full sentence in its tooltip; a click offers the actions that fit. A
// fresh graph also names the commit it is of ("· 3f2a9c1 +2"), asked of git after each change of
// state (docs/worktrees.md).

import * as vscode from 'vscode';
import { readCheckout, type Checkout } from './checkout';
import { STATUS_ACTIONS_COMMAND } from './commands';
import type { FolderGraphState } from './graph-access';
import { isFresh, statusText, statusTooltip } from './graph-text';
import { untrustedMarkdown } from './markdown-string';
import type { EditorGraphAccess } from './editor-graph-access';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('knowledgeGraph.status', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[];
  /** Per folder: the checkout git named for the state `key` at `at`, and whether a read is running. */
  private readonly checkouts = new Map<string, { key: string; at: number; checkout?: Checkout; reading: boolean }>();
  private disposed = false;

  constructor(private readonly graph: EditorGraphAccess) {
    this.item.name = 'Knowledge Graph';
    this.item.command = STATUS_ACTIONS_COMMAND;
    this.subscriptions = [
      this.item,
      graph.onDidChangeState(() => this.update()),
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
    ];
    this.update();
  }

  /** The folder the item speaks for: the active editor's, else the first. */
  private current(): FolderGraphState | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const key = uri && this.graph.folderOf(uri);
    return (key && this.graph.state(key)) || this.graph.states()[0];
  }

  update(): void {
    const s = this.current();
    if (!s) {
      this.item.hide();
      return;
    }
    const checkout = this.checkoutOf(s);
    const { text, warning, error } = statusText(s, checkout);
    this.item.text = text;
    this.item.tooltip = untrustedMarkdown(statusTooltip(s, this.graph.states().length > 1 ? s.folderName : undefined, checkout));
    this.item.backgroundColor = error
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : warning
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    this.item.show();
  }

  /**
   * The checkout a fresh graph describes, once git has said it for this state; a read starts when
   * the state changed (a build, a reload) or the last is 10 s old (a branch made or switched without
   * changing a file changes no state). Never for a stale, building or failed graph: its files are
   * not the commit's, or not yet.
   */
  private checkoutOf(s: FolderGraphState): Checkout | undefined {
    if (!isFresh(s)) return undefined;
    const folder = vscode.Uri.parse(s.folder);
    if (folder.scheme !== 'file') return undefined;
    const key = `${s.signature ?? ''}\0${s.graphPath}`;
    let entry = this.checkouts.get(s.folder);
    if (!entry) this.checkouts.set(s.folder, (entry = { key: '', at: 0, reading: false }));
    const current = entry.key === key;
    if (current && Date.now() - entry.at < 10_000) return entry.checkout;
    if (!entry.reading) {
      entry.reading = true;
      const e = entry;
      void readCheckout(folder.fsPath)
        .catch(() => undefined)
        .then((checkout) => {
          Object.assign(e, { key, at: Date.now(), checkout, reading: false });
          // The state may have moved on meanwhile: update() then asks again.
          if (!this.disposed) this.update();
        });
    }
    // Until git answers, the checkout last read for the same graph stands.
    return current ? entry.checkout : undefined;
  }

  /** What the item shows now (for the in-host tests). */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.disposed = true;
    this.subscriptions.forEach((d) => d.dispose());
  }
}
