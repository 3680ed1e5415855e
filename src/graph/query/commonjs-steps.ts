// The walk of `kg tests` through CommonJS exports (ADR 196): where a relative `require` leads
// when read as Node reads it, and the steps from a function a JavaScript file exports, by its
// exported name, to the declarations and files that stand for it (src/graph/query/affected-tests.ts);
// and the declaration file that stands for a JavaScript file (ADR 172).

import type { CommonJsBinding, CommonJsExports } from '../model';
import { CONFIDENCE_CODE, type IndexedGraph } from './indexed';

/** Extensions Node's CommonJS loader tries after a bare relative path, then a folder's index. */
const NODE_EXTENSIONS = ['.js', '.cjs', '.mjs', '.jsx', '.ts', '.cts', '.mts', '.tsx'];

/** A `/`-separated path with `.` and `..` segments applied ('' for the root; undefined above it). */
function normalisePath(p: string): string | undefined {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** The graph's file a relative specifier of `from` names when read as Node reads it (ADR 167). */
export function nodePlacer(g: IndexedGraph): (from: string, specifier: string) => string | undefined {
  const files = new Set<string>();
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r];
    if (n?.kind === 'file' && n.sourceFile !== undefined) files.add(n.sourceFile);
  }
  const mains = new Map<string, string>();
  for (const e of g.graph.entries ?? [])
    if (e.field === 'main' && !e.unplaced) mains.set(e.from.includes('/') ? e.from.slice(0, e.from.lastIndexOf('/')) : '', e.path);
  const place = (base: string): string | undefined => {
    if (files.has(base)) return base;
    for (const ext of NODE_EXTENSIONS) if (files.has(base + ext)) return base + ext;
    const main = mains.get(base);
    if (main !== undefined) return main;
    for (const ext of NODE_EXTENSIONS)
      if (files.has(`${base === '' ? '' : base + '/'}index${ext}`)) return `${base === '' ? '' : base + '/'}index${ext}`;
    return undefined;
  };
  return (from, specifier) => {
    if (!specifier.startsWith('.')) return undefined;
    const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '';
    const base = normalisePath(`${dir}/${specifier}`);
    return base === undefined ? undefined : place(base);
  };
}

/** The walk's states for exported functions: numbers from `n` on, one per file and path, as reached. */
export class ExportStates {
  private readonly list: Array<{ file: string; path: readonly string[] }> = [];
  private readonly at = new Map<string, number>();
  constructor(private readonly n: number) {}
  state(file: string, path: readonly string[]): number {
    const key = `${file}\u0000${path.join('.')}`;
    let i = this.at.get(key);
    if (i === undefined) {
      i = this.list.length;
      this.list.push({ file, path });
      this.at.set(key, i);
    }
    return this.n + i;
  }
  of(s: number): { file: string; path: readonly string[] } {
    return this.list[s - this.n];
  }
}

/** The pseudo-id a chain names an exported function by: `cjs:lib/sync.js#module.exports.x`. */
export function exportId(file: string, path: readonly string[]): string {
  return `cjs:${file}#${['module.exports', ...path].join('.')}`;
}

const JS_FILE = /\.[cm]?jsx?$/;

/** A bare specifier's package name: `a` of `a/b`, `@s/a` of `@s/a/b`. */
function packageOf(specifier: string): string {
  return specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
}

/** The steps of the walk through CommonJS exports (ADR 196). */
export interface ExportSteps {
  /**
   * From an exported function: the declarations of its exported name in its file's declaration
   * file; the files that export it again (`module.exports = require('./x')`, `a.b = require('./x')`
   * when `module.exports = a`); the files that require it some other way than into a name used
   * only as `name.member`, or whose text cannot be read (their loading); the users of the module
   * object whole (ADR 185); the files whose unresolved import names it (ADR 167). Undefined when
   * its file has no declaration file or that none of the name: then the file stands for it.
   */
  next(
    file: string,
    path: readonly string[],
  ):
    | {
        declarations: number[];
        again: Array<{ file: string; path: readonly string[] }>;
        loading: number[];
        whole: number[];
        unresolvedImporters: number[];
      }
    | undefined;
  /**
   * For an edge from a file's node: the exported names that use it, when every place the file's
   * own code names its target (by the target's name) is inside statements `module.exports…=`
   * or members of the object literal one assigns (the function assigned, or the name assigned);
   * else undefined. A name its file's declaration file does not declare goes on from the file's
   * loading, as a guess (ADR 198).
   */
  usesIn(source: number, edge: number): Array<{ file: string; path: readonly string[] }> | undefined;
  /**
   * Whether a `references` edge into `target`, the function a declaration file's `export = Name`
   * names, comes from a JavaScript file whose text reads only members of it: every import of the
   * file is a top-level `var x = require('…')` used as `x.member` or `x(…)`; each relative one
   * names a JavaScript file that declaration file stands for and is used as `x.member` only, never
   * called (nor `x.call`, `x.apply`, `x.bind`); no other is one of the repository's own packages.
   */
  membersOnly(target: number, source: number, edge: number): boolean;
}

// The files whose imports name `file` itself (`direct`) or its declaration file (which the
// checker reads for an import of the JavaScript), and the sources of the references to either
// module whole (ADR 185).
function importersOf(
  g: IndexedGraph,
  declarations: ReadonlyMap<string, string>,
  file: string,
): { direct: Set<string>; declared: Set<string>; whole: number[] } {
  const direct = new Set<string>();
  const declared = new Set<string>();
  const whole = new Set<number>();
  for (const [f, into] of [
    [file, direct],
    [declarations.get(file), declared],
  ] as const) {
    const t = f === undefined ? undefined : g.rankOf.get(`file:${f}`);
    if (t === undefined) continue;
    for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
      const e = g.inEdges[k];
      const relation = g.edgeRelation[e];
      const source = g.edgeSource[e];
      if (relation === 'references' && g.edgeConfidence[e] !== CONFIDENCE_CODE.UNRESOLVED) whole.add(source);
      if (relation !== 'imports' && relation !== 're-exports') continue;
      const src = g.nodeAt[source]?.sourceFile;
      if (src !== undefined) into.add(src);
    }
  }
  return { direct, declared, whole: [...whole].sort((a, b) => a - b) };
}

export function exportSteps(
  g: IndexedGraph,
  commonJs: (file: string) => CommonJsExports | undefined,
  declarations: ReadonlyMap<string, string>,
  nodeImporters: ReadonlyMap<string, readonly string[]>,
  ownPackages: ReadonlySet<string> | undefined,
): ExportSteps {
  const cache = new Map<string, CommonJsExports | undefined>();
  const read = (f: string): CommonJsExports | undefined => {
    if (!cache.has(f)) cache.set(f, commonJs(f));
    return cache.get(f);
  };
  const place = nodePlacer(g);
  // Declaration file → the JavaScript files it stands for.
  const describedBy = new Map<string, Set<string>>();
  for (const [js, d] of declarations) describedBy.set(d, (describedBy.get(d) ?? new Set()).add(js));
  const declarationsOf = (file: string, path: readonly string[]): number[] => {
    const d = declarations.get(file);
    if (d === undefined) return [];
    const assigned = read(d)?.exportAssigned;
    const names = assigned !== undefined ? [assigned, ...path] : [...path];
    if (names.length === 0) return [];
    const r = g.rankOf.get(`sym:${d}#${names.join('.')}`);
    return r === undefined ? [] : [r];
  };
  return {
    next(file, path) {
      const decls = declarationsOf(file, path);
      if (decls.length === 0) return undefined;
      const again: Array<{ file: string; path: readonly string[] }> = [];
      const loading: number[] = [];
      const { direct, declared, whole } = importersOf(g, declarations, file);
      for (const j of [...new Set([...direct, ...declared])].sort()) {
        // A file that imports the declaration file reaches the function through the checker's
        // edges to its declarations: a TypeScript file always, a JavaScript file when its text
        // requires it into a name used only as `name.member` or `name()`, or exports it again.
        // One that imports the JavaScript itself reaches code the graph has no node for: only
        // `module.exports = require('./x')` is read there, any other import is its loading.
        if (!JS_FILE.test(j) && !direct.has(j)) continue;
        const cj = JS_FILE.test(j) ? read(j) : undefined;
        const mine = (spec: string) => place(j, spec) === file;
        const reexports = (cj?.bindings ?? []).filter(
          (b) => (b.value === 'require' || b.value === 'identifier') && b.specifier !== undefined && mine(b.specifier),
        );
        const requires = (cj?.requires ?? []).filter((q) => mine(q.specifier));
        const readable = direct.has(j)
          ? requires.length > 0 &&
            requires.length === reexports.filter((b) => b.value === 'require').length &&
            reexports.every((b) => b.value === 'require')
          : requires.length > 0 && requires.every((q) => q.recognized);
        if (!readable) {
          const jr = g.rankOf.get(`file:${j}`);
          if (jr !== undefined) loading.push(jr);
          continue;
        }
        for (const b of reexports) again.push({ file: j, path: [...b.path, ...path] });
      }
      const unresolvedImporters: number[] = [];
      for (const j of nodeImporters.get(file) ?? []) {
        const t = g.rankOf.get(`file:${j}`);
        if (t !== undefined) unresolvedImporters.push(t);
      }
      return { declarations: decls, again, loading, whole, unresolvedImporters };
    },
    membersOnly(target, source, edge) {
      if (ownPackages === undefined || g.edgeRelation[edge] !== 'references') return false;
      const id = g.ids[target];
      const hash = id.indexOf('#');
      if (!id.startsWith('sym:') || hash < 0) return false;
      const d = id.slice('sym:'.length, hash);
      const described = describedBy.get(d);
      if (described === undefined || read(d)?.exportAssigned !== id.slice(hash + 1)) return false;
      const j = g.nodeAt[source]?.sourceFile;
      const cj = j !== undefined && JS_FILE.test(j) ? read(j) : undefined;
      if (j === undefined || cj === undefined || cj.requires.length === 0) return false;
      return cj.requires.every((q) => {
        if (!q.recognized) return false;
        if (q.specifier.startsWith('.')) {
          const f = place(j, q.specifier);
          return f !== undefined && described.has(f) && q.membersOnly === true;
        }
        return !ownPackages.has(packageOf(q.specifier));
      });
    },
    usesIn(source, edge) {
      const node = g.nodeAt[source];
      const file = node?.sourceFile;
      if (node?.kind !== 'file' || file === undefined || !JS_FILE.test(file)) return undefined;
      const relation = g.edgeRelation[edge];
      if (relation !== 'calls' && relation !== 'references') return undefined;
      const evidence = g.graph.edges[edge].evidence;
      const label = g.nodeAt[g.edgeTarget[edge]]?.label;
      const cj = read(file);
      if (cj === undefined || evidence === undefined || label === undefined) return undefined;
      // The names the file's code may reach the target by: its own, and those of the requires of
      // the JavaScript its declaration file stands for (the checker credits their uses to it).
      // A require it cannot read, or of one of the repository's own packages, may bind another.
      if (cj.requires.some((q) => !q.recognized || (!q.specifier.startsWith('.') && ownPackages?.has(packageOf(q.specifier)) !== false)))
        return undefined;
      const targetFile = g.nodeAt[g.edgeTarget[edge]]?.sourceFile;
      const described = targetFile === undefined ? undefined : describedBy.get(targetFile);
      const names = new Set([label.slice(label.lastIndexOf('.') + 1)]);
      for (const q of cj.requires) {
        const placed = place(file, q.specifier);
        if (q.name !== undefined && placed !== undefined && (placed === targetFile || described?.has(placed) === true)) names.add(q.name);
      }
      const uses = [...names].flatMap((n) => (Object.prototype.hasOwnProperty.call(cj.uses, n) ? cj.uses[n] : []));
      if (!uses.some(([line, column]) => line === evidence.line && column === evidence.column)) return undefined;
      const bindings = [...new Set(uses.map((u) => u[2]).filter((b) => b !== -2))].sort((a, b) => a - b);
      if (bindings.some((b) => b < 0 || cj.bindings[b].value === 'other')) return undefined;
      // An exported name without a declaration goes on from the file's loading (stepFromExport).
      const out = bindings.map((b) => cj.bindings[b]).filter((x) => declarationsOf(file, x.path).length > 0 || !ownName(x));
      return out.length > 0 ? out.map((x) => ({ file, path: x.path })) : undefined;
    },
  };
}

/**
 * A binding that exports a name under its own name (`{ a }`, `a: a`, `exports.a = a`): an
 * importer's `{ a } = require()` or `m.a()` is the checker's own edge to it, so without a
 * declaration no step from the exported name is needed; under another key (`storage:
 * HostStorage`) the importer's `m.storage()` is a property the checker places on no node, and a
 * function stored under `module.exports` runs wherever an importer reads it (ADR 198).
 */
function ownName(x: CommonJsBinding): boolean {
  return x.value === 'identifier' && x.name === x.path[x.path.length - 1];
}

const DECLARATION_FILE = /\.d\.[cm]?ts$/;

const DECLARATION_OF_JS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\.d\.ts$/, '.js'],
  [/\.d\.mts$/, '.mjs'],
  [/\.d\.cts$/, '.cjs'],
];

/**
 * JavaScript file → the package's own declaration file that stands for it (ADR 172): `x.d.ts`
 * beside `x.js` (`.d.mts`/`.mjs`, `.d.cts`/`.cjs`), the file TypeScript reads for an import of
 * the JavaScript; and package.json's `types` (or `typings`) for its `main`, which is how the
 * checker reads a `require` of the package while Node loads the `main`. A sibling wins.
 */
export function declarationFiles(g: IndexedGraph): Map<string, string> {
  const files = new Set<string>();
  for (let r = 0; r < g.nodeCount; r++) {
    const n = g.nodeAt[r];
    if (n?.kind === 'file' && n.sourceFile !== undefined) files.add(n.sourceFile);
  }
  const out = new Map<string, string>();
  const isJs = (f: string) => /\.[cm]?jsx?$/.test(f);
  const byPackage = new Map<string, { main?: string; types?: string }>();
  for (const e of g.graph.entries ?? []) {
    if (e.unplaced || !files.has(e.path)) continue;
    const p = byPackage.get(e.from) ?? {};
    if (e.field === 'main' && isJs(e.path)) p.main = e.path;
    if ((e.field === 'types' || (e.field === 'typings' && p.types === undefined)) && DECLARATION_FILE.test(e.path)) p.types = e.path;
    byPackage.set(e.from, p);
  }
  for (const from of [...byPackage.keys()].sort()) {
    const { main, types } = byPackage.get(from) as { main?: string; types?: string };
    if (main !== undefined && types !== undefined) out.set(main, types);
  }
  for (const f of [...files].sort())
    for (const [ext, js] of DECLARATION_OF_JS)
      if (ext.test(f)) {
        const impl = f.replace(ext, js);
        if (files.has(impl)) out.set(impl, f);
      }
  return out;
}
