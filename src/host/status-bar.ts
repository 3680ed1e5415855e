// The status bar item: the graph's state for the active editor's folder (or the only folder) in a
// few characters — "1,234 nodes · 5,678 edges", "building 120/252", "stale: 3 files",
// "unavailable" — with the full sentence in its tooltip; a click offers the actions that fit.

import * as vscode from 'vscode';
import { STATUS_ACTIONS_COMMAND } from './commands';
import type { FolderGraphState } from './graph-access';
import { statusText, statusTooltip } from './graph-text';
import { untrustedMarkdown } from './markdown-string';
import type { EditorGraphAccess } from './graph-service';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('knowledgeGraph.status', vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[];

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
    const { text, warning, error } = statusText(s);
    this.item.text = text;
    this.item.tooltip = untrustedMarkdown(statusTooltip(s, this.graph.states().length > 1 ? s.folderName : undefined));
    this.item.backgroundColor = error
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : warning
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
    this.item.show();
  }

  /** What the item shows now (for the in-host tests). */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }
}
