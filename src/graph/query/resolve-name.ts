// What a person (or an agent) means by a node, written the way they write it: an id
// (`sym:src/a.ts#run`), a name (`map`, `Subscriber.next`, `Ky.fetch`, `Model.save()`), a
// `path#name`, a file path (`src/a.ts`), or a place (`src/a.ts:12`, `src/a.ts:12:5`). Pure: the
// indexed graph in, one node or the candidates to choose from out — never a silent pick among
// several (docs/adr/0101-names-as-people-write-them.md). The CLI and the MCP server share it.

import { parseId, symbolId } from '../ids';
import { callerEdges } from './callers';
import type { IndexedGraph } from './indexed';
import { matchIds } from './search-ids';

/** How many candidates an ambiguous name lists (the total is reported beside them). */
const MAX_CANDIDATES = 20;

/** Longer than any id a real repository has; longer text is refused before any lookup. */
const MAX_TARGET_LENGTH = 4096;

export type Target =
  /** One node. */
  | { kind: 'node'; id: string; via: 'id' | 'name' | 'path' | 'location' }
  /**
   * Several nodes fit: at most MAX_CANDIDATES — for a name, those with the most proven callers
   * first, then in id order; for a place, the nearest first — `callers` the proven caller count
   * of each, `total` how many fit.
   */
  | { kind: 'ambiguous'; asked: string; why: string; candidates: string[]; callers: number[]; total: number }
  /** Nothing fits; `suggestions` are ids containing the text, when there are any. */
  | { kind: 'none'; asked: string; why: string; suggestions: string[] };

interface NameIndex {
  /** Full member names (`Subscriber.next`, and `Model.save` for `Model.static.save`) → ranks. */
  byName: Map<string, number[]>;
  /** The last segment (`next`) → ranks of members named so. */
  byMember: Map<string, number[]>;
  /** Lower-cased full names → ranks, for a second, case-insensitive reading. */
  byFolded: Map<string, number[]>;
  /** Repo-relative path → the file node's rank. */
  byPath: Map<string, number>;
  /** Repo-relative path → ranks of the `sym:` nodes declared in it, in id order. */
  symbolsOf: Map<string, number[]>;
}

const indexes = new WeakMap<IndexedGraph, NameIndex>();

function push(m: Map<string, number[]>, key: string, r: number): void {
  const row = m.get(key);
  if (row === undefined) m.set(key, [r]);
  else if (row[row.length - 1] !== r) row.push(r);
}

function nameIndex(g: IndexedGraph): NameIndex {
  let ix = indexes.get(g);
  if (ix) return ix;
  ix = { byName: new Map(), byMember: new Map(), byFolded: new Map(), byPath: new Map(), symbolsOf: new Map() };
  for (let r = 0; r < g.nodeCount; r++) {
    const id = g.ids[r];
    if (id.startsWith('file:')) {
      const p = parseId(id);
      if (p?.prefix === 'file') ix.byPath.set(p.path, r);
      continue;
    }
    if (!id.startsWith('sym:')) continue;
    const p = parseId(id);
    if (p?.prefix !== 'sym') continue;
    push(ix.symbolsOf, p.path, r);
    push(ix.byName, p.name, r);
    push(ix.byFolded, p.name.toLowerCase(), r);
    // A static member's id spells `Class.static.name` (the static twin of an instance member);
    // people write `Class.name` for both.
    const plain = p.name.replace(/\.static\./, '.');
    if (plain !== p.name) {
      push(ix.byName, plain, r);
      push(ix.byFolded, plain.toLowerCase(), r);
    }
    const dot = p.name.lastIndexOf('.');
    if (dot >= 0) push(ix.byMember, p.name.slice(dot + 1), r);
  }
  indexes.set(g, ix);
  return ix;
}

const ids = (g: IndexedGraph, ranks: readonly number[]): string[] => [...new Set(ranks)].sort((a, b) => a - b).map((r) => g.ids[r]);

/** Proven callers of rank `r`, as `callers` counts them. */
const provenCallers = (g: IndexedGraph, r: number): number => callerEdges(g, r).proven.length;

/** Candidates in the order given, each with its proven caller count. */
function ambiguous(g: IndexedGraph, asked: string, why: string, ranks: readonly number[], total = ranks.length): Target {
  const shown = ranks.slice(0, MAX_CANDIDATES);
  return { kind: 'ambiguous', asked, why, candidates: shown.map((r) => g.ids[r]), callers: shown.map((r) => provenCallers(g, r)), total };
}

/**
 * One node, or the candidates: the busiest (most proven callers) first, then in id order, so a
 * method with hundreds of callers is never hidden behind a helper of the same name.
 */
function many(g: IndexedGraph, asked: string, why: string, ranks: readonly number[]): Target {
  const all = [...new Set(ranks)];
  if (all.length === 1) return { kind: 'node', id: g.ids[all[0]], via: 'name' };
  const count = new Map(all.map((r) => [r, provenCallers(g, r)]));
  all.sort((a, b) => (count.get(b) ?? 0) - (count.get(a) ?? 0) || a - b);
  return ambiguous(g, asked, why, all);
}

/** `./src/a.ts`, `src\a.ts` and `/src/a.ts` as the repo-relative POSIX path the graph uses. */
function normalisePath(p: string): string {
  return p
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}

/** The file node a path names: exactly, or (when unique) as the end of a longer repo path. */
function fileRank(ix: NameIndex, text: string): number | number[] | undefined {
  const p = normalisePath(text);
  const exact = ix.byPath.get(p);
  if (exact !== undefined) return exact;
  if (!/[./]/.test(p)) return undefined;
  const ends: number[] = [];
  for (const [path, r] of ix.byPath) if (path.endsWith('/' + p)) ends.push(r);
  return ends.length === 0 ? undefined : ends.length === 1 ? ends[0] : ends;
}

/** `path:line` or `path:line:column`: the symbol declared there, or the declarations around it to choose from. */
function atLocation(g: IndexedGraph, ix: NameIndex, asked: string, file: number, line: number, column: number | undefined): Target {
  const path = (parseId(g.ids[file]) as { path: string }).path;
  const syms = ix.symbolsOf.get(path) ?? [];
  // An overloaded or merged symbol is one node on each of its declarations' lines (issue 48).
  const onLine = syms.filter((r) => g.nodeAt[r]?.line === line || g.nodeAt[r]?.declarationLines?.includes(line) === true);
  const spans = (r: number): boolean => {
    const n = g.nodeAt[r];
    const p = parseId(g.ids[r]);
    // The graph keeps the column of the first declaration only: on another one's line any column is its.
    if (column === undefined || n?.column === undefined || n.line !== line || p?.prefix !== 'sym') return true;
    const name = p.name.slice(p.name.lastIndexOf('.') + 1);
    return column >= n.column && column <= n.column + Math.max(1, name.length);
  };
  const hit = column === undefined ? onLine : onLine.filter(spans);
  if (hit.length === 1) return { kind: 'node', id: g.ids[hit[0]], via: 'location' };
  if (hit.length > 1)
    return ambiguous(
      g,
      asked,
      `${hit.length} declarations start on line ${line} of ${path}`,
      [...new Set(hit)].sort((a, b) => a - b),
    );
  // No declaration starts there. Nodes carry where a declaration starts, not where it ends, so the
  // enclosing one is not known: the nearest declarations above are offered, not chosen.
  const above = syms
    .filter((r) => (g.nodeAt[r]?.line ?? Infinity) <= line)
    .sort((a, b) => (g.nodeAt[b]?.line ?? 0) - (g.nodeAt[a]?.line ?? 0) || a - b)
    .slice(0, 5);
  if (above.length === 0) return { kind: 'node', id: g.ids[file], via: 'path' };
  return ambiguous(
    g,
    asked,
    `no declaration starts at ${path}:${line}${column === undefined ? '' : ':' + column}; the nearest declarations above it are listed (the graph records where declarations start, not where they end), and ${g.ids[file]} is the file itself`,
    above,
  );
}

/** Where the repository is: an absolute path inside it is read as the repo-relative path it names. */
interface ResolveOptions {
  /** The repository's folder, as given and as its real path (links followed): any of them. */
  roots?: readonly string[];
}

/** `/home/me/repo/src/a.ts:42`, `C:\\repo\\src\\a.ts`: an absolute path (a leading `/` alone may be repo-relative). */
const ABSOLUTE = /^(?:[A-Za-z]:[\\/]|[\\/]{2}|\/)/;

/**
 * An absolute path inside one of `roots` as the repo-relative text after it (`src/a.ts:42`);
 * `outside` when it is absolute and under none of them; the text itself otherwise.
 */
function underRoot(text: string, roots: readonly string[]): { text: string; outside: boolean } {
  if (roots.length === 0 || !ABSOLUTE.test(text)) return { text, outside: false };
  const slashed = text.replace(/\\/g, '/');
  for (const root of roots) {
    const r = root.replace(/\\/g, '/').replace(/\/+$/, '');
    if (r === '') continue;
    // Windows paths compare without case, as the file system does.
    const fold = /^[A-Za-z]:/.test(r) ? (s: string) => s.toLowerCase() : (s: string) => s;
    if (fold(slashed).startsWith(fold(r + '/'))) return { text: slashed.slice(r.length + 1), outside: false };
  }
  return { text, outside: true };
}

/** The node `text` names, or the candidates to choose from, or why there is none. */
export function resolveTarget(g: IndexedGraph, text: string, opts: ResolveOptions = {}): Target {
  const t = resolveText(g, text, opts);
  if (t.kind !== 'none' || text.length > MAX_TARGET_LENGTH) return t;
  const roots = opts.roots ?? [];
  // A path that is absolute and outside the repository names nothing in its graph: say so, not "no node is named".
  if (underRoot(text.trim(), roots).outside)
    return {
      kind: 'none',
      asked: text,
      why: `${text.trim()} is outside the repository (${roots[0]}): the graph holds only its files`,
      suggestions: [],
    };
  return t;
}

function resolveText(g: IndexedGraph, text: string, opts: ResolveOptions): Target {
  const asked = text;
  if (text.length > MAX_TARGET_LENGTH)
    return {
      kind: 'none',
      asked: text.slice(0, 80) + '…',
      why: `longer than ${MAX_TARGET_LENGTH} characters: not a name or id`,
      suggestions: [],
    };
  if (g.rankOf.has(text)) return { kind: 'node', id: text, via: 'id' };
  text = text.trim();
  if (g.rankOf.has(text)) return { kind: 'node', id: text, via: 'id' };
  text = underRoot(text, opts.roots ?? []).text;
  if (text === '') return { kind: 'none', asked, why: 'empty: give an id, a name or path:line', suggestions: [] };
  const ix = nameIndex(g);

  // `sym:path#name` with the name unescaped (`sym:src/ky.ts#Ky.#retry`, a private name's `#`
  // typed as written): the first `#` ends the path, the rest is the name.
  if (text.startsWith('sym:') && text.indexOf('#') > 4) {
    const at = text.indexOf('#');
    const id = symbolId(text.slice(4, at), text.slice(at + 1));
    if (g.rankOf.has(id)) return { kind: 'node', id, via: 'id' };
  }

  // `path#name`, as ids write it but unescaped and without the prefix.
  const hash = text.indexOf('#');
  if (hash > 0 && !text.includes(':')) {
    const id = symbolId(normalisePath(text.slice(0, hash)), text.slice(hash + 1));
    if (g.rankOf.has(id)) return { kind: 'node', id, via: 'id' };
  }

  // `path:line[:column]`.
  const loc = /^(.+?):(\d+)(?::(\d+))?$/.exec(text);
  if (loc) {
    const f = fileRank(ix, loc[1]);
    if (Array.isArray(f))
      return ambiguous(
        g,
        asked,
        `${f.length} files end with ${loc[1]}`,
        [...f].sort((a, b) => a - b),
      );
    if (f !== undefined) return atLocation(g, ix, asked, f, Number(loc[2]), loc[3] === undefined ? undefined : Number(loc[3]));
  }

  // A file path.
  const f = fileRank(ix, text);
  if (typeof f === 'number') return { kind: 'node', id: g.ids[f], via: 'path' };
  if (Array.isArray(f))
    return ambiguous(
      g,
      asked,
      `${f.length} files end with ${text}`,
      [...f].sort((a, b) => a - b),
    );

  // A name: `map`, `Subscriber.next`, `Model.save()`, `this.next`.
  const name = text.replace(/\(\s*\)$/, '').replace(/^this\./, '');
  const full = ix.byName.get(name) ?? [];
  const member = name.includes('.') ? [] : (ix.byMember.get(name) ?? []);
  // A bare name that top-level symbols and members share (`get`) is all of them: which one was
  // meant is the asker's to say, with each one's callers to go by (issue 48).
  if (full.length > 0 && member.length > 0) {
    const top = new Set(full).size;
    const members = new Set(member).size;
    return many(g, asked, `${top + members} symbols are named ${name} (${top} top-level, ${members} member${members === 1 ? '' : 's'})`, [
      ...full,
      ...member,
    ]);
  }
  if (full.length > 0) return many(g, asked, `${ids(g, full).length} symbols are named ${name}`, full);
  if (member.length > 0) return many(g, asked, `${ids(g, member).length} members are named ${name}`, member);
  // `Class.method` where the class part names the end of a longer dotted name (`Outer.Inner.m`).
  if (name.includes('.')) {
    const tail: number[] = [];
    for (const [n, rs] of ix.byName) if (n.endsWith('.' + name)) tail.push(...rs);
    if (tail.length > 0) return many(g, asked, `${ids(g, tail).length} symbols are named …${name}`, tail);
  }
  const folded = ix.byFolded.get(name.toLowerCase()) ?? [];
  if (folded.length > 0) return many(g, asked, `no symbol is named ${name}; ${ids(g, folded).length} are, ignoring case`, folded);

  return { kind: 'none', asked, why: `no node is named ${name}`, suggestions: matchIds(g, name, MAX_CANDIDATES).matches };
}
