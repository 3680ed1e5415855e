// The extension under test, activated: its API and the path of the CLI it bundles. Every in-host
// suite starts here, so each asserts the same thing about the installed extension.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnowledgeGraphApi } from '../../../src/extension';
import { EXTENSION_ID } from '../expected';

export async function activated(): Promise<{ api: KnowledgeGraphApi; cli: string }> {
  const ext = vscode.extensions.getExtension<KnowledgeGraphApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  const api = await ext.activate();
  return { api, cli: path.join(ext.extensionPath, 'dist', 'cli.js') };
}
