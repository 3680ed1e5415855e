// The doctor of a build server (ADR 132). ADR 51 has every candidate graph.json examined before it
// becomes current; a server examines one candidate after another, each a few files' lines away
// from the last. So DoctorMemo keeps the last candidate that passed — its lines, the objects they
// parsed to, and the doctor's lookups (DoctorState) — and examines the next one by difference: the
// lines that are the same are the same objects, the others are parsed, and only what the change
// can affect is judged again. Its verdict is the one examineGraph gives the whole text parsed at
// once (test/unit/examine.test.ts holds the two to each other on random graphs and edits); any
// doubt — another layout, a finding — is settled by examining the whole text.

import { compareStrings } from '../model';
import { examineGraph, isRow, passingReport, recordedPackages, str, type DoctorReport, type Row } from './rules';
import { DoctorState, type RowDelta } from './delta';
import { itemMatchesSchema, shellMatchesSchema } from '../io/load';

/** graph.json split at its canonical layout: each top-level entry's value text, or its list's item texts. */
interface Layout {
  keys: string[];
  values: Map<string, string>;
  lists: Map<string, string[]>;
}

/** A top-level line: `  "key": value` with an optional trailing comma. */
const ENTRY = /^ {2}("(?:[^"\\]|\\.)*"): (.*?)(,?)$/;
const ITEM_INDENT = '    ';

/**
 * `text` split at graph.json's canonical layout (io/canonical.ts), or undefined for any other
 * layout. The layout: `{`; entries `  "key": value` separated by commas, each value a text on the
 * entry's line or a list — `[`, then items each on a line of its own indented four spaces and
 * separated by commas, then `  ]`; `}` and a final newline. Keys are distinct and none is
 * `__proto__`.
 *
 * Why the value parsed from such a split is JSON.parse(text): JSON allows the spaces and newlines
 * between those tokens, and a value or item text that JSON.parse accepts alone is one complete JSON
 * value, which parses to the same value in its place in the document. With distinct keys other than
 * `__proto__` (which JSON.parse makes an own property), an object built key by key in text order
 * has the same keys in the same order with the same values.
 */
function splitLayout(text: string): Layout | undefined {
  const lines = text.split('\n');
  const last = lines.length - 2;
  if (lines.length < 3 || lines[0] !== '{' || lines[last] !== '}' || lines[last + 1] !== '') return undefined;
  const layout: Layout = { keys: [], values: new Map(), lists: new Map() };
  let i = 1;
  while (i < last) {
    const m = ENTRY.exec(lines[i]);
    if (!m) return undefined;
    let key: string;
    try {
      key = JSON.parse(m[1]) as string;
    } catch {
      return undefined;
    }
    if (key === '__proto__' || layout.values.has(key) || layout.lists.has(key)) return undefined;
    layout.keys.push(key);
    let comma = m[3] === ',';
    if (m[2] === '[') {
      // Items up to `  ]`: a comma after each but the last. (An empty list is `[]` on the entry's line.)
      const items: string[] = [];
      for (i++; ; i++) {
        if (i >= last) return undefined;
        const line = lines[i];
        if (!line.startsWith(ITEM_INDENT)) return undefined;
        const more = line.endsWith(',');
        items.push(line.slice(ITEM_INDENT.length, more ? -1 : undefined));
        const next = lines[i + 1];
        const closing = next === '  ]' || next === '  ],';
        if (more === closing) return undefined;
        if (closing) {
          comma = next === '  ],';
          i++;
          break;
        }
      }
      layout.lists.set(key, items);
    } else {
      layout.values.set(key, m[2]);
    }
    i++;
    if (comma !== i < last) return undefined; // a comma exactly between two entries
  }
  return layout;
}

/** JSON.parse, or undefined for a text it refuses. */
function parsed(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The node and edge lists of the last graph that passed, line by line with their objects. */
interface Examined {
  keys: string[];
  nodes: { lines: string[]; rows: Row[] };
  edges: { lines: string[]; rows: Row[] };
  state: DoctorState;
}

const nodeKey = (r: unknown): string | undefined => (isRow(r) ? str(r.id) : undefined);
function compareNodeRows(a: Row, b: unknown): number | undefined {
  const kb = nodeKey(b);
  return kb === undefined ? undefined : compareStrings(a.id as string, kb);
}
function compareEdgeRows(a: Row, b: unknown): number | undefined {
  if (!isRow(b) || typeof b.source !== 'string' || typeof b.target !== 'string' || typeof b.relation !== 'string') return undefined;
  return (
    compareStrings(a.source as string, b.source) ||
    compareStrings(a.target as string, b.target) ||
    compareStrings(a.relation as string, b.relation)
  );
}

/**
 * The new list's rows, and which rows went and came, by walking the old and new lines together in
 * their sorted order: an equal line is the old line's object; another line is parsed. Whatever the
 * order, every old row is kept or removed and every new line kept or added, so the rows are those
 * of the new text; the order only decides how much is parsed. Undefined when a line does not parse.
 */
function mergeLines(
  before: { lines: string[]; rows: Row[] },
  lines: string[],
  compare: (a: Row, b: unknown) => number | undefined,
): { rows: unknown[]; removed: Row[]; added: unknown[] } | undefined {
  const rows: unknown[] = [];
  const removed: Row[] = [];
  const added: unknown[] = [];
  let i = 0;
  let j = 0;
  // The parse of lines[j], while it waits for the old rows that sort before it.
  let pending: { value: unknown } | undefined;
  while (i < before.lines.length || j < lines.length) {
    if (i < before.lines.length && j < lines.length && before.lines[i] === lines[j]) {
      rows.push(before.rows[i++]);
      j++;
      pending = undefined;
      continue;
    }
    if (j >= lines.length) {
      removed.push(before.rows[i++]);
      continue;
    }
    const p = pending ?? parsed(lines[j]);
    if (!p) return undefined;
    const order = i < before.lines.length ? compare(before.rows[i], p.value) : 1;
    if (order !== undefined && order < 0) {
      // The old row sorts first: it went. The new line is compared with the next old one.
      removed.push(before.rows[i++]);
      pending = p;
      continue;
    }
    pending = undefined;
    if (order === 0) removed.push(before.rows[i++]); // the same key, another line: changed
    added.push(p.value);
    rows.push(p.value);
    j++;
  }
  return { rows, removed, added };
}

/**
 * Examines graph texts one after another (a build server's candidates), by difference from the
 * last one that passed. `examine(text)` returns what `examineGraph(JSON.parse(text))` returns, and
 * throws what it throws.
 */
export class DoctorMemo {
  private last: Examined | undefined;
  /**
   * How the last text was examined: by its difference from the one before, in full line by line,
   * or parsed whole (another layout). Said in the build's log, and asserted by the tests.
   */
  judgedBy: 'difference' | 'full' | 'whole' | undefined;

  examine(text: string): DoctorReport {
    const layout = splitLayout(text);
    const last = this.last;
    // Kept again only if this text passes: a state is always that of a graph that passed.
    this.last = undefined;
    this.judgedBy = 'whole';
    if (!layout) return examineGraph(JSON.parse(text));
    if (last) {
      const report = this.byDifference(layout, last);
      this.judgedBy = 'difference';
      if (report) return report;
    }
    this.judgedBy = 'full';
    return this.inFull(layout, text);
  }

  /** The whole text examined; a graph that passes is remembered. */
  private inFull(layout: Layout, text: string): DoctorReport {
    const top: Record<string, unknown> = {};
    for (const key of layout.keys) {
      const items = layout.lists.get(key);
      const values = items ? items.map(parsed) : [parsed(layout.values.get(key) as string)];
      // A text JSON.parse refuses: the whole text is refused with JSON.parse's own message.
      if (values.some((v) => v === undefined)) {
        this.judgedBy = 'whole';
        return examineGraph(JSON.parse(text));
      }
      top[key] = items ? values.map((v) => v?.value) : values[0]?.value;
    }
    const report = examineGraph(top);
    if (report.ok) {
      this.last = {
        keys: layout.keys,
        nodes: { lines: layout.lists.get('nodes') ?? [], rows: top.nodes as Row[] },
        edges: { lines: layout.lists.get('edges') ?? [], rows: top.edges as Row[] },
        state: DoctorState.of(top),
      };
    }
    return report;
  }

  /** The text examined by its difference from `last`, or undefined when only the whole text can say. */
  private byDifference(layout: Layout, last: Examined): DoctorReport | undefined {
    if (layout.keys.length !== last.keys.length || layout.keys.some((k, i) => k !== last.keys[i])) return undefined;
    const top: Record<string, unknown> = {};
    for (const key of layout.keys) {
      if (key === 'nodes' || key === 'edges') continue;
      const items = layout.lists.get(key);
      const values = items ? items.map(parsed) : [parsed(layout.values.get(key) as string)];
      if (values.some((v) => v === undefined)) return undefined;
      top[key] = items ? values.map((v) => v?.value) : values[0]?.value;
    }
    // Both lists are written as lists (an empty one would be `[]`, a value: judged in full).
    const nodeLines = layout.lists.get('nodes');
    const edgeLines = layout.lists.get('edges');
    if (!nodeLines || !edgeLines) return undefined;
    const nodes = mergeLines(last.nodes, nodeLines, compareNodeRows);
    const edges = mergeLines(last.edges, edgeLines, compareEdgeRows);
    if (!nodes || !edges) return undefined;
    top.nodes = nodes.rows;
    top.edges = edges.rows;
    // The schema: the rest of the document, and each new row (a row unchanged passed before).
    if (!shellMatchesSchema(top)) return undefined;
    if (!nodes.added.every((n) => itemMatchesSchema('nodes', n)) || !edges.added.every((e) => itemMatchesSchema('edges', e)))
      return undefined;
    const delta: RowDelta = { removedNodes: nodes.removed, addedNodes: nodes.added, removedEdges: edges.removed, addedEdges: edges.added };
    if (!last.state.apply(delta, recordedPackages(top))) return undefined;
    this.last = {
      keys: layout.keys,
      nodes: { lines: nodeLines, rows: nodes.rows as Row[] },
      edges: { lines: edgeLines, rows: edges.rows as Row[] },
      state: last.state,
    };
    return passingReport(nodes.rows.length, edges.rows.length);
  }
}
