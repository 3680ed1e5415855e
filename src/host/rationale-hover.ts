// The rationale hover: on a declaration the graph knows, the stamped notes written on it and the
// decision records around it (`kg why`, ADR 89), answered by the graph worker (ADR 60). Nothing is
// shown on a file changed since the build (the positions may have moved) or when nothing is
// written about the declaration.

import * as vscode from 'vscode';
import type { EditorGraphAccess } from './editor-graph-access';
import { whyHoverMarkdown } from './graph-text';
import { untrustedMarkdown } from './markdown-string';

export class RationaleHoverProvider implements vscode.HoverProvider {
  constructor(private readonly graph: EditorGraphAccess) {}

  async provideHover(
    doc: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    const folder = this.graph.folderOf(doc.uri);
    if (!folder) return undefined;
    const state = this.graph.state(folder);
    const rel = this.graph.relativePath(folder, doc.uri);
    if (!state || state.kind !== 'ready' || !rel || state.staleFiles.includes(rel) || doc.isDirty) return undefined;
    const found = await this.graph.whyAt(folder, rel, position.line + 1, position.character + 1);
    if (!found || token.isCancellationRequested) return undefined;
    // Each location links to the file, at its line (the editor opens `#L<line>` there).
    const text = whyHoverMarkdown(found.answer, (file, line) =>
      this.graph
        .fileUri(folder, file)
        ?.with({ fragment: line === undefined ? '' : `L${line}` })
        .toString(),
    );
    if (text === undefined) return undefined;
    // Graph text is escaped and the string is not trusted: no command links, no HTML (file links open).
    return new vscode.Hover(untrustedMarkdown(text), doc.getWordRangeAtPosition(position));
  }
}
