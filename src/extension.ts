// activate() only wires: services are built in src/host, every disposable is pushed to the context.

import type * as vscode from 'vscode';
import { activateHost } from './host/activate';

export function activate(context: vscode.ExtensionContext): void {
  activateHost(context);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
