// The graph node at the editor's cursor: the innermost declaration around it (from the editor's
// document symbols) whose id the graph holds — `Class.method` before `method` — or else the file.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { fileId, symbolId } from '../../graph';
import type { GraphAccess } from '../graph-access';

export interface NodeAt {
  folder: string;
  id: string;
}

/** The repo-relative POSIX path of a document inside a folder, or undefined when it lies outside. */
function relativePath(folder: string, uri: vscode.Uri): string | undefined {
  const root = vscode.Uri.parse(folder).fsPath;
  const rel = path.relative(root, uri.fsPath);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

export async function nodeAtCursor(access: GraphAccess, editor: vscode.TextEditor | undefined): Promise<NodeAt | undefined> {
  if (!editor) return undefined;
  const folder = access.folderOf(editor.document.uri);
  if (!folder) return undefined;
  const rel = relativePath(folder, editor.document.uri);
  if (!rel) return undefined;
  const position = editor.selection.active;
  let symbols: vscode.DocumentSymbol[] | undefined;
  try {
    symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', editor.document.uri);
  } catch {
    symbols = undefined;
  }
  // The chain of declarations around the cursor, outermost first.
  const chain: vscode.DocumentSymbol[] = [];
  let level = (symbols ?? []).filter((s) => 'children' in s);
  for (;;) {
    const hit = level.find((s) => s.range.contains(position));
    if (!hit) break;
    chain.push(hit);
    level = hit.children ?? [];
  }
  const candidates: string[] = [];
  for (let i = chain.length - 1; i >= 0; i--) {
    const name = chain[i].name;
    if (i > 0) candidates.push(symbolId(rel, `${chain[i - 1].name}.${name}`));
    candidates.push(symbolId(rel, name));
  }
  candidates.push(fileId(rel));
  const nodes = await access.nodes(folder, candidates);
  const found = candidates.find((_, i) => nodes[i] !== undefined);
  return found ? { folder, id: found } : undefined;
}
