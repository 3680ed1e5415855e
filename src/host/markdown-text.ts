// Graph text on its way into a MarkdownString (ADR 96): ids, paths, labels, reasons and folder
// names come from graph.json and the working tree, so markdown must read them as text. Every
// tooltip and hover builds its markdown from these two helpers, and `untrustedMarkdown` (in
// markdown-string.ts) is the one way a MarkdownString is made. Plain code: unit-tested without an
// editor (test/unit/host-markdown.test.ts renders the output with a CommonMark parser).

import { visible } from '../graph';

/**
 * Text as literal markdown: every ASCII punctuation character is backslash-escaped (CommonMark
 * lets any of them be), so no emphasis, link, image, HTML, autolink (`https:`, `www.`, `@`) or
 * list can start; control characters are shown as `\u001b`.
 */
export function markdownText(text: string): string {
  return visible(text).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * Text in a code span: fenced with one backtick more than its longest run of backticks, padded
 * when it starts or ends with one, control characters (newlines included) shown as `\u000a`.
 * Nothing inside a code span is markdown.
 */
export function markdownCode(text: string): string {
  const shown = visible(text);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown === '' ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}
