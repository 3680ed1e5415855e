// The symbols and files of one side of a diff, read from its indexed graph (src/graph/graph-index.ts:
// the symbols by file, each one's parent), and the small helpers the diff's parts share: a symbol's
// reference, sorting, grouping, pairing what is unique on both sides, folding members.

import { parentRank, symbolsByFile, type IndexedGraph } from '../graph-index';
import { compareStrings, type GraphNode } from '../model';
import type { SymbolRef } from './report-shape';

export interface Sym {
  node: GraphNode;
  file: string;
  /** The part of the id after `#` (escaped as in the id): `f`, `Class.method`. */
  name: string;
  parent?: string;
}

export function symbolsOf(g: IndexedGraph): Map<string, Sym> {
  const out = new Map<string, Sym>();
  for (const [file, ranks] of symbolsByFile(g)) {
    for (const r of ranks) {
      const node = g.nodeAt[r] as GraphNode;
      const s: Sym = { node, file, name: node.id.slice(node.id.indexOf('#') + 1) };
      const p = parentRank(g, r);
      if (p >= 0) s.parent = g.ids[p];
      out.set(node.id, s);
    }
  }
  return out;
}

export function filesOf(g: IndexedGraph): Set<string> {
  const out = new Set<string>();
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r] as GraphNode;
    if (n.kind === 'file' && n.sourceFile !== undefined) out.add(n.sourceFile);
  }
  return out;
}

export const ref = (s: Sym): SymbolRef => ({
  id: s.node.id,
  kind: s.node.kind,
  label: s.node.label,
  file: s.file,
  line: s.node.line ?? 1,
  column: s.node.column ?? 1,
});

export const sorted = (xs: Iterable<string>): string[] => [...xs].sort(compareStrings);

export function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** Groups items by key; keeps only keys held by exactly one item on each side. */
export function uniquePairs<T>(
  left: Iterable<T>,
  right: Iterable<T>,
  keyLeft: (t: T) => string | undefined,
  keyRight: (t: T) => string | undefined = keyLeft,
): Array<[T, T]> {
  const l = new Map<string, T[]>();
  const r = new Map<string, T[]>();
  for (const x of left) {
    const k = keyLeft(x);
    if (k !== undefined) push(l, k, x);
  }
  for (const x of right) {
    const k = keyRight(x);
    if (k !== undefined) push(r, k, x);
  }
  const out: Array<[T, T]> = [];
  for (const k of sorted(l.keys())) {
    const a = l.get(k) as T[];
    const b = r.get(k);
    if (a.length === 1 && b?.length === 1) out.push([a[0], b[0]]);
  }
  return out;
}

/** Members of `id` (by the `contains` tree of one side) that are in `pool`. */
export function foldMembers(ids: readonly string[], syms: ReadonlyMap<string, Sym>): Map<string, string[]> {
  // A member folds into its nearest ancestor that is in `ids` too.
  const set = new Set(ids);
  const folded = new Map<string, string[]>();
  for (const id of ids) {
    let up = syms.get(id)?.parent;
    let into: string | undefined;
    while (up !== undefined) {
      if (set.has(up)) into = up;
      up = syms.get(up)?.parent;
    }
    if (into !== undefined) push(folded, into, id);
  }
  return folded;
}
