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
  // The range starts on it: the declaration's start stays, unless the whole line went with the range.
  if (line === edit.startLine) return edit.startCharacter === 0 ? undefined : line;
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

/** A content change with its place in the text before it (VS Code's rangeOffset and rangeLength). */
export interface TextChange extends LineEdit {
  /** UTF-16 offset of the replaced range in the text before the change. */
  offset: number;
  /** Its length in UTF-16 units. */
  length: number;
}

/** A declaration a lens stands over: its node id, 0-based line, the name calls to it are written with, and its kind. */
export interface TrackedDeclaration {
  id: string;
  line: number;
  name: string;
  kind: string;
}

const IDENT_PART = /[\w$\u0080-\uffff]/;
const IDENTS = /[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*/g;

/** The identifiers of `text[from, to)` widened to whole words of `text`. */
function wordsAround(text: string, from: number, to: number, into: Set<string>): void {
  while (from > 0 && IDENT_PART.test(text[from - 1])) from--;
  while (to < text.length && IDENT_PART.test(text[to])) to++;
  for (const m of text.slice(from, to).matchAll(IDENTS)) into.add(m[0]);
}

/**
 * The declarations of one document edited since it last matched the graph, and which of them the
 * edits may have given other callers (docs/adr/0147-an-edit-leaves-the-counts-it-cannot-change.md).
 * A call names its callee, so an edit changes a declaration's count only by writing or erasing its
 * name, or by editing the declaration itself; every other declaration keeps the graph's count at
 * the line the edits carried it to. A declaration's lines run from its own to the next
 * declaration's (an edit between two functions touches the one above: more stale, never less).
 */
export class EditedDeclarations<D extends TrackedDeclaration = TrackedDeclaration> {
  private text: string;
  private lines: Map<string, number>;
  private readonly declared: ReadonlyMap<string, D>;
  private readonly touched = new Set<string>();
  /** Identifiers the edits wrote or erased, each widened to the whole word it stood in. */
  private readonly words = new Set<string>();

  constructor(
    text: string,
    declarations: readonly D[],
    /** The graph (GraphService.graphOf) the lines are from. */
    readonly graphNo: number,
  ) {
    this.text = text;
    this.declared = new Map(declarations.map((d) => [d.id, d]));
    this.lines = new Map(declarations.map((d) => [d.id, d.line]));
  }

  /** Where each declaration stands now (0-based line by id); removed ones are absent. */
  get positions(): ReadonlyMap<string, number> {
    return this.lines;
  }

  /** The declarations still in the text, with the lines they stand on now. */
  current(): D[] {
    return [...this.lines].map(([id, line]) => ({ ...(this.declared.get(id) as D), line }));
  }

  /** Applies one event's changes, in the order VS Code reports them (each to the text the previous left). */
  apply(changes: readonly TextChange[]): void {
    for (const c of changes) {
      wordsAround(this.text, c.offset, c.offset + c.length, this.words);
      this.touch(c);
      this.text = this.text.slice(0, c.offset) + c.text + this.text.slice(c.offset + c.length);
      wordsAround(this.text, c.offset, c.offset + c.text.length, this.words);
      this.lines = linesAfterEdits(this.lines, [c]);
    }
  }

  /** Whether the graph's count of `id` may no longer hold for the edited text. */
  changed(id: string): boolean {
    const d = this.declared.get(id);
    if (!d || this.touched.has(id) || !this.lines.has(id) || this.words.has(d.name)) return true;
    // `super(…)` calls the base class without naming it.
    return d.kind === 'class' && this.words.has('super');
  }

  private touch(c: TextChange): void {
    // Whole lines inserted before a line (Enter at its start, a pasted block) belong above it.
    const before = c.length === 0 && c.startCharacter === 0 && c.text.endsWith('\n');
    const first = before ? c.startLine - 1 : c.startLine;
    const last = before ? c.startLine - 1 : c.endLine;
    if (last < 0) return;
    const starts = [...new Set(this.lines.values())].sort((a, b) => a - b);
    const next = new Map(starts.map((l, i) => [l, starts[i + 1] ?? Infinity]));
    for (const [id, line] of this.lines) if (line <= last && first < (next.get(line) as number)) this.touched.add(id);
  }
}
