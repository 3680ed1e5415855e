// Where a declaration stands after edits: a line number carried through a document's content
// changes, so that a stale lens stays on its declaration while the text above it moves
// (docs/adr/0090-a-lens-shows-the-graph-it-came-from.md). Plain data, no `vscode`: unit-tested in Node.

/** One content change as VS Code reports it (0-based lines and characters of the replaced range). */
export interface LineEdit {
  startLine: number;
  startCharacter: number;
  endLine: number;
  /** The text that replaced the range. */
  text: string;
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The line (0-based) a declaration on `line` stands on after `edit`, or undefined when the edit
 * removed the line it stood on. A line below the edit moves by the lines it added or removed; an
 * insertion at the very start of the line pushes it down; an edit inside the line leaves it there.
 */
function lineAfterEdit(line: number, edit: LineEdit): number | undefined {
  const added = newlines(edit.text);
  const removed = edit.endLine - edit.startLine;
  if (line > edit.endLine) return line + added - removed;
  if (line < edit.startLine) return line;
  if (line === edit.startLine && line === edit.endLine) {
    // Typing Enter (or pasting lines) before the declaration's first character moves it down.
    return edit.startCharacter === 0 ? line + added : line;
  }
  if (line === edit.startLine) return line; // the range starts on it: the declaration's start stays
  // The line lay inside the replaced range past its first line: the declaration went with it,
  // unless the range ends on it and only its beginning was replaced (joined to the line above).
  return line === edit.endLine ? edit.startLine + added : undefined;
}

/** Each line of `lines` carried through `edits`, applied in order; removed lines are dropped. */
export function linesAfterEdits(lines: ReadonlyMap<string, number>, edits: readonly LineEdit[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, start] of lines) {
    let line: number | undefined = start;
    for (const e of edits) {
      line = lineAfterEdit(line, e);
      if (line === undefined) break;
    }
    if (line !== undefined) out.set(id, line);
  }
  return out;
}
