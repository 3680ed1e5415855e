// activate/deactivate: wiring only; services are built in src/host, every disposable is pushed to
// the context.

import type * as vscode from 'vscode';
import { activateOrExplain, type KnowledgeGraphApi } from './host/activate';

export type { KnowledgeGraphApi, BuildOutcome } from './host/activate';

export function activate(context: vscode.ExtensionContext): KnowledgeGraphApi {
  return activateOrExplain(context);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions (a running build is stopped there).
}
