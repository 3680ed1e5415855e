// The questions an editor asks about one open file: which declarations get a callers lens, and
// which declaration's name a position is on (the rationale hover). Both need the graph's nodes by
// file, built once per indexed graph on first use and kept beside it.

import type { GraphNode, NodeKind } from '../model';
import { packageSymbolId, parseId } from '../ids';
import { CONFIDENCE_CODE, isPackageRank, type IndexedGraph } from './indexed';
import { queryWhy, symbolAt } from './why';
import type { WhyResult } from './shapes';

/** A declaration that gets a callers lens: where it is (1-based line and UTF-16 column). */
export interface FileSymbol {
  id: string;
  kind: NodeKind;
  label: string;
  line: number;
  column: number;
}

/** Kinds that always get a lens; a variable gets one only when something calls it (an arrow function). */
const LENS_KINDS: ReadonlySet<string> = new Set(['function', 'class', 'method']);

interface ByFile {
  /** Lens-worthy node ranks of each source file, by position. */
  lens: Map<string, number[]>;
  /** Every positioned `sym:` node of each source file. */
  symbols: Map<string, GraphNode[]>;
}

const byFileCache = new WeakMap<IndexedGraph, ByFile>();

function calledAtAll(g: IndexedGraph, r: number): boolean {
  for (let k = g.inStart[r]; k < g.inStart[r + 1]; k++) {
    const e = g.inEdges[k];
    if (g.edgeRelation[e] === 'calls' && g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED) return true;
  }
  return false;
}

function byFile(g: IndexedGraph): ByFile {
  const cached = byFileCache.get(g);
  if (cached) return cached;
  const lens = new Map<string, number[]>();
  const symbols = new Map<string, GraphNode[]>();
  const push = <T>(m: Map<string, T[]>, key: string, v: T) => {
    const list = m.get(key);
    if (list) list.push(v);
    else m.set(key, [v]);
  };
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r] as GraphNode;
    if (!n.sourceFile || n.line === undefined) continue;
    if (n.id.startsWith('sym:')) push(symbols, n.sourceFile, n);
    if (LENS_KINDS.has(n.kind) || (n.kind === 'variable' && calledAtAll(g, r))) push(lens, n.sourceFile, r);
  }
  const at = (r: number) => g.nodeAt[r] as GraphNode;
  for (const list of lens.values()) list.sort((a, b) => at(a).line! - at(b).line! || at(a).column! - at(b).column!);
  const made = { lens, symbols };
  byFileCache.set(g, made);
  return made;
}

/** The declarations of a repository-relative file that get a callers lens, by position. */
export function fileSymbols(g: IndexedGraph, file: string): FileSymbol[] {
  return (byFile(g).lens.get(file) ?? []).map((r) => {
    const n = g.nodeAt[r] as GraphNode;
    return { id: n.id, kind: n.kind, label: n.label, line: n.line as number, column: n.column ?? 1 };
  });
}

/** `why` for the declaration whose name spans a position (1-based line, UTF-16 column) of a file (ADR 89). */
export function whyAt(g: IndexedGraph, file: string, line: number, column: number): { id: string; answer: WhyResult } | undefined {
  const n = symbolAt(byFile(g).symbols.get(file) ?? [], line, column);
  return n ? { id: n.id, answer: queryWhy(g, n.id) } : undefined;
}

/**
 * The lenses of an installed package's source file (ADR 124): of its declarations (`declared`, as
 * the parser gives them for `path`, relative to the package's folder), those that this graph's edges
 * name as package-qualified targets of `pkg`@`version`, with those ids, by position. A declaration
 * no call of this repository reaches gets no lens: the graph says nothing about it.
 */
export function packageFileSymbols(
  g: IndexedGraph,
  pkg: string,
  version: string,
  path: string,
  declared: ReadonlyArray<{ id: string; kind: string; label: string; line: number; column: number }>,
): FileSymbol[] {
  const out: FileSymbol[] = [];
  for (const d of declared) {
    const name = parseId(d.id);
    if (name?.prefix !== 'sym' || !LENS_KINDS.has(d.kind)) continue;
    const id = packageSymbolId(pkg, version, path, name.name);
    const r = g.rankOf.get(id);
    if (r === undefined || !isPackageRank(g, r)) continue;
    out.push({ id, kind: d.kind as NodeKind, label: d.label, line: d.line, column: d.column });
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}
