// The one way the extension makes a MarkdownString from text that holds graph text (ADR 96): not
// trusted (no command links), no HTML. Build the text itself with markdownText / markdownCode.

import * as vscode from 'vscode';

export function untrustedMarkdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}
