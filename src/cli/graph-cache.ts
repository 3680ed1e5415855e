// The repository's graph cache (issue 50, ADR 166): every graph `kg build --apply` writes, kept once
// per repository under git's common folder (`<git-common-dir>/knowledge-graph/cache`, shared by all
// of its worktrees and never part of a commit), addressed by the tree it was built from, so a fresh
// worktree or a branch switch starts its build from the nearest graph already built.
//
// An entry is a hint, never an answer: it is handed to the ordinary incremental build as the "last
// build" (ADR 54), which checks every file's hash against the entry's manifest, so a key that lies
// costs time and never bytes. Its bytes are checked all the same: graph.json and the manifest are
// stored as chunks named by the SHA-256 of what they hold (gzip on disk), and an entry names its
// chunks and the hash of the whole; a chunk or a whole that does not hash to its name is never
// served, and the entry is removed. Chunks end at lines chosen by their content, so two graphs that
// differ in a few files' records share every other chunk: N worktrees cost one graph plus their
// differences. Every file is written under a temporary name and renamed; the entry last.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CONFIG_FILE, GRAPH_DIR, type PreviousBuild } from '../graph';
import { ancestorTrees, changedPaths, worktreeHead, worktreePathsFrom } from '../git/plumbing';

const ENTRY_VERSION = 1;
/** The budget when KG_CACHE_BUDGET says nothing: the least recently used entries go beyond it. */
const DEFAULT_BUDGET = 2 * 1024 ** 3;
/** HEAD's ancestors looked up in the cache, and the most recently used entries compared besides. */
const ANCESTORS = 1000;
const RECENT_CANDIDATES = 3;
/** A chunk no entry names is removed only once this old: an entry being written names it soon. */
const ORPHAN_GRACE_MS = 10 * 60 * 1000;

interface Stored {
  sha256: string;
  size: number;
  chunks: string[];
}

export interface CacheEntry {
  v: number;
  key: string;
  /** The commit checked out and its tree; `dirty` paths of the working tree differed from it. */
  commit: string;
  tree: string;
  dirty: number;
  /** What else the graph depends on: this kg, and the build's options. */
  engine: string;
  options: string;
  graph: Stored;
  manifest: Stored;
  /** Last used (ms since the epoch): the eviction order. */
  used: number;
}

/** The state of a worktree a build starts from: its checkout and what differs from it. */
export interface WorktreeState {
  commonDir: string;
  commit: string;
  tree: string;
  /** Paths of the working tree that differ from `tree` (kg's own outputs left out). */
  dirty: string[];
  /** The key of the content: the tree, or the tree and the dirty files' bytes. */
  fingerprint: string;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** The bytes `file` holds under `root` for the fingerprint: a link's target, `-` when absent. */
function contentOf(root: string, file: string): string {
  const abs = path.join(root, file);
  try {
    const st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) return 'l' + sha256(fs.readlinkSync(abs));
    if (st.isFile()) return 'f' + sha256(fs.readFileSync(abs));
    return 'o';
  } catch {
    return '-';
  }
}

/** kg's own files in the working tree, which are outputs, not inputs (its config is an input). */
const isOwnOutput = (p: string) => p.startsWith(`${GRAPH_DIR}/`) && p !== CONFIG_FILE;

/**
 * The worktree at `root` as the cache sees it, or undefined when the cache does not apply: not the
 * top of a git worktree, no commit yet, or git not answering.
 */
export function worktreeState(root: string): WorktreeState | undefined {
  let head: ReturnType<typeof worktreeHead>;
  try {
    head = worktreeHead(root);
  } catch {
    return undefined;
  }
  if (!head) return undefined;
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    return undefined;
  }
  if (fs.realpathSync(head.top) !== real) return undefined;
  let dirty: string[];
  try {
    dirty = worktreePathsFrom(root, head.tree).filter((p) => !isOwnOutput(p));
  } catch {
    return undefined;
  }
  const fingerprint =
    dirty.length === 0 ? head.tree : sha256([head.tree, ...dirty.map((p) => `${p}\u0000${contentOf(root, p)}`)].join('\n'));
  return { commonDir: head.commonDir, commit: head.commit, tree: head.tree, dirty, fingerprint };
}

/** Bytes from "512M", "2G", "100k" or a plain number; undefined for anything else. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.floor(Number(m[1]) * unit);
}

/** The budget from KG_CACHE_BUDGET, else the default. */
export function budgetFrom(env: NodeJS.ProcessEnv): number {
  const b = env.KG_CACHE_BUDGET === undefined ? undefined : parseSize(env.KG_CACHE_BUDGET);
  return b ?? DEFAULT_BUDGET;
}

/**
 * Where a line of graph.json or the manifest ends a chunk: chosen by the line's own bytes (its last
 * 32 and its length), so an inserted or removed record moves no boundary outside its neighbourhood.
 * About one line in 128 ends one; none before 32 lines, always at 4,096.
 */
function chunkText(buf: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  let lines = 0;
  let at = 0;
  while (at < buf.length) {
    let nl = buf.indexOf(0x0a, at);
    if (nl < 0) nl = buf.length - 1;
    lines++;
    let h = (nl - at) * 2654435761;
    for (let i = Math.max(at, nl - 32); i < nl; i++) h = Math.imul(h ^ buf[i], 16777619);
    at = nl + 1;
    if ((lines >= 32 && ((h >>> 7) & 127) === 0) || lines >= 4096 || at >= buf.length) {
      chunks.push(buf.subarray(start, at));
      start = at;
      lines = 0;
    }
  }
  return chunks;
}

export function writeAtomic(file: string, data: Buffer | string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/** A file of the cache: a chunk is named by its hash; a component's code is one file (ADR 182). */
interface CacheFile {
  file: string;
  size: number;
  mtimeMs: number;
  chunk?: string;
  component?: boolean;
}

/** A chunk or entry that does not hold what its name or its entry says: never served. */
class Corrupt extends Error {}

export interface CacheStatus {
  dir: string;
  entries: CacheEntry[];
  /** Bytes on disk: every chunk once, and the entries. */
  bytes: number;
  /** What the entries' graphs and manifests hold, uncompressed and unshared. */
  logicalBytes: number;
  chunks: number;
  /** Components' generated code kept between builds (ADR 182): files, and bytes on disk (in `bytes`). */
  components: number;
  componentBytes: number;
  budget: number;
}

export class GraphCache {
  private readonly chunksDir: string;
  private readonly entriesDir: string;
  /** Components' generated code, one file per component (ADR 182, component-code-cache.ts). */
  readonly componentsDir: string;

  constructor(
    readonly dir: string,
    readonly budget = DEFAULT_BUDGET,
  ) {
    this.chunksDir = path.join(dir, 'chunks');
    this.entriesDir = path.join(dir, 'entries');
    this.componentsDir = path.join(dir, 'components');
  }

  /** The cache of the repository whose git common folder is `commonDir`. */
  static of(commonDir: string, budget?: number): GraphCache {
    return new GraphCache(path.join(commonDir, 'knowledge-graph', 'cache'), budget);
  }

  static keyOf(fingerprint: string, engine: string, options: string): string {
    return sha256(`${ENTRY_VERSION}\u0000${engine}\u0000${options}\u0000${fingerprint}`).slice(0, 40);
  }

  private entryFile(key: string): string {
    return path.join(this.entriesDir, `${key}.json`);
  }

  private chunkFile(hash: string): string {
    return path.join(this.chunksDir, hash.slice(0, 2), `${hash}.gz`);
  }

  private storeText(data: Buffer): Stored {
    const chunks: string[] = [];
    const now = new Date();
    for (const c of chunkText(data)) {
      const hash = sha256(c);
      chunks.push(hash);
      const file = this.chunkFile(hash);
      try {
        // Already stored: made young again, so a concurrent prune's grace keeps it.
        fs.utimesSync(file, now, now);
        continue;
      } catch {
        // not there yet
      }
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeAtomic(file, gzipSync(c, { level: 6 }));
    }
    return { sha256: sha256(data), size: data.length, chunks };
  }

  private loadText(s: Stored): Buffer {
    const parts: Buffer[] = [];
    for (const hash of s.chunks) {
      const file = this.chunkFile(hash);
      let c: Buffer | undefined;
      try {
        c = gunzipSync(fs.readFileSync(file));
      } catch {
        c = undefined;
      }
      if (c === undefined || sha256(c) !== hash) {
        // Gone, so the next graph that holds these bytes writes them again.
        fs.rmSync(file, { force: true });
        throw new Corrupt(`chunk ${hash.slice(0, 12)} does not hold what its name says`);
      }
      parts.push(c);
    }
    const whole = Buffer.concat(parts);
    if (whole.length !== s.size || sha256(whole) !== s.sha256) throw new Corrupt('the chunks do not make the bytes the entry names');
    return whole;
  }

  /** Stores a build's graph and manifest under `key`. Chunks first, the entry last (until it is written, nothing names them). */
  put(
    key: string,
    state: Pick<WorktreeState, 'commit' | 'tree' | 'dirty'>,
    engine: string,
    options: string,
    graph: Buffer | string,
    manifest: Buffer | string,
  ): void {
    const g = typeof graph === 'string' ? Buffer.from(graph, 'utf8') : graph;
    const m = typeof manifest === 'string' ? Buffer.from(manifest, 'utf8') : manifest;
    const existing = this.readEntry(key);
    if (existing && existing.graph.sha256 === sha256(g) && existing.manifest.sha256 === sha256(m)) {
      this.touch(existing);
      return;
    }
    fs.mkdirSync(this.entriesDir, { recursive: true, mode: 0o700 });
    const entry: CacheEntry = {
      v: ENTRY_VERSION,
      key,
      commit: state.commit,
      tree: state.tree,
      dirty: state.dirty.length,
      engine,
      options,
      graph: this.storeText(g),
      manifest: this.storeText(m),
      used: Date.now(),
    };
    writeAtomic(this.entryFile(key), JSON.stringify(entry) + '\n');
    this.prune(this.budget);
  }

  private readEntry(key: string): CacheEntry | undefined {
    try {
      const e = JSON.parse(fs.readFileSync(this.entryFile(key), 'utf8')) as CacheEntry;
      return e.v === ENTRY_VERSION && e.key === key && Array.isArray(e.graph?.chunks) && Array.isArray(e.manifest?.chunks) ? e : undefined;
    } catch {
      return undefined;
    }
  }

  private touch(e: CacheEntry): void {
    try {
      writeAtomic(this.entryFile(e.key), JSON.stringify({ ...e, used: Date.now() }) + '\n');
    } catch {
      // only the eviction order
    }
  }

  /** Every readable entry, the most recently used first. */
  list(): CacheEntry[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.entriesDir);
    } catch {
      return [];
    }
    return names
      .filter((n) => /^[0-9a-f]{40}\.json$/.test(n))
      .map((n) => this.readEntry(n.slice(0, -5)))
      .filter((e): e is CacheEntry => e !== undefined)
      .sort((a, b) => b.used - a.used || (a.key < b.key ? -1 : 1));
  }

  /**
   * The entry's graph and manifest, every chunk and the whole checked against its hash; undefined
   * (and the entry removed) when anything does not match or cannot be read.
   */
  read(e: CacheEntry): PreviousBuild | undefined {
    try {
      const graph = this.loadText(e.graph);
      const manifest = this.loadText(e.manifest);
      this.touch(e);
      return { graphText: graph.toString('utf8'), manifestText: manifest.toString('utf8'), graphSha256: e.graph.sha256 };
    } catch (err) {
      if (!(err instanceof Corrupt)) throw err;
      fs.rmSync(this.entryFile(e.key), { force: true });
      return undefined;
    }
  }

  /**
   * The entries to start a build of the worktree's state from, each with how many paths its tree
   * differs from the state in (0 for the same content), the nearest first. An entry of this very
   * content ends the search. Else the trees are compared (one git process each) for a few entries
   * only: the nearest first-parent ancestor of HEAD that is cached (the merge base of a branch is
   * one, and its ancestors next), `also` (the graph beside the worktree), and the most recently
   * used. A tree this clone does not hold is left out.
   */
  nearest(
    root: string,
    state: WorktreeState,
    engine: string,
    options: string,
    also: (e: CacheEntry) => boolean = () => false,
  ): Array<{ entry: CacheEntry; distance: number }> {
    const exactKey = GraphCache.keyOf(state.fingerprint, engine, options);
    const entries = this.list().filter((e) => e.engine === engine && e.options === options);
    const exact = entries.find((e) => e.key === exactKey);
    if (exact) return [{ entry: exact, distance: 0 }];
    const byTree = new Map<string, CacheEntry>();
    for (const e of entries) if (e.dirty === 0 && !byTree.has(e.tree)) byTree.set(e.tree, e);
    const chosen = new Set<CacheEntry>();
    const ancestor = ancestorTrees(root, ANCESTORS).find((t) => byTree.has(t));
    if (ancestor) chosen.add(byTree.get(ancestor) as CacheEntry);
    for (const e of entries) if (also(e)) chosen.add(e);
    for (const e of entries.slice(0, RECENT_CANDIDATES)) chosen.add(e);
    const out: Array<{ entry: CacheEntry; distance: number }> = [];
    const between = new Map<string, number | undefined>();
    for (const entry of chosen) {
      if (!between.has(entry.tree)) between.set(entry.tree, entry.tree === state.tree ? 0 : changedPaths(root, entry.tree, state.tree));
      const d = between.get(entry.tree);
      if (d !== undefined) out.push({ entry, distance: d + entry.dirty + state.dirty.length });
    }
    return out.sort((a, b) => a.distance - b.distance || b.entry.used - a.entry.used);
  }

  status(): CacheStatus {
    const entries = this.list();
    let bytes = 0;
    let chunks = 0;
    let components = 0;
    let componentBytes = 0;
    for (const f of this.files()) {
      bytes += f.size;
      if (f.chunk) chunks++;
      if (f.component) {
        components++;
        componentBytes += f.size;
      }
    }
    const logicalBytes = entries.reduce((n, e) => n + e.graph.size + e.manifest.size, 0);
    return { dir: this.dir, entries, bytes, logicalBytes, chunks, components, componentBytes, budget: this.budget };
  }

  private files(): CacheFile[] {
    const out: CacheFile[] = [];
    const add = (file: string, chunk?: string, component?: boolean) => {
      try {
        const st = fs.statSync(file);
        out.push({ file, size: st.size, mtimeMs: st.mtimeMs, chunk, ...(component ? { component } : {}) });
      } catch {
        // gone meanwhile
      }
    };
    const list = (d: string) => {
      try {
        return fs.readdirSync(d);
      } catch {
        return [];
      }
    };
    for (const n of list(this.entriesDir)) add(path.join(this.entriesDir, n));
    for (const sub of list(this.chunksDir))
      for (const n of list(path.join(this.chunksDir, sub))) {
        const m = /^([0-9a-f]{64})\.gz$/.exec(n);
        add(path.join(this.chunksDir, sub, n), m?.[1]);
      }
    for (const sub of list(this.componentsDir))
      for (const n of list(path.join(this.componentsDir, sub)))
        add(path.join(this.componentsDir, sub, n), undefined, /^[0-9a-f]{64}\.gz$/.test(n));
    return out;
  }

  /**
   * Removes the least recently used entries and components' code until the cache fits `budget` bytes (on disk), then
   * every chunk no entry names and every temporary file, once they are older than a few minutes
   * (another process may be writing the entry that names them). Entries that cannot be read go too.
   */
  prune(budget: number, now = Date.now()): { entries: number; chunks: number; freed: number } {
    const before = this.files();
    const sizeOf = new Map(before.filter((f) => f.chunk).map((f) => [f.chunk as string, f.size]));
    const entries = this.list();
    const refs = new Map<string, number>();
    for (const e of entries) for (const c of new Set([...e.graph.chunks, ...e.manifest.chunks])) refs.set(c, (refs.get(c) ?? 0) + 1);
    let total = before.reduce((n, f) => n + f.size, 0);
    let removedEntries = 0;
    // The least recently used first, graphs (by their entry's last use) and components' code (by
    // their file's time, made young when read) alike; a graph frees the chunks only it named.
    const byAge: Array<{ used: number; entry?: CacheEntry; component?: CacheFile }> = [
      ...entries.map((entry) => ({ used: entry.used, entry })),
      ...before.filter((f) => f.component).map((component) => ({ used: component.mtimeMs, component })),
    ].sort((a, b) => a.used - b.used);
    for (const { entry: e, component } of byAge) {
      if (total <= budget) break;
      if (component) {
        fs.rmSync(component.file, { force: true });
        total -= component.size;
        continue;
      }
      if (!e) continue;
      fs.rmSync(this.entryFile(e.key), { force: true });
      removedEntries++;
      for (const c of new Set([...e.graph.chunks, ...e.manifest.chunks])) {
        const left = (refs.get(c) ?? 1) - 1;
        refs.set(c, left);
        if (left === 0) {
          total -= sizeOf.get(c) ?? 0;
          fs.rmSync(this.chunkFile(c), { force: true });
        }
      }
    }
    let removedChunks = 0;
    for (const f of before) {
      if (!fs.existsSync(f.file)) continue;
      if (f.component) continue;
      const unnamed = f.chunk !== undefined ? !refs.get(f.chunk) : f.file.endsWith('.tmp') || !this.readable(f.file);
      if (!unnamed || now - f.mtimeMs < ORPHAN_GRACE_MS) continue;
      fs.rmSync(f.file, { force: true });
      if (f.chunk !== undefined) removedChunks++;
    }
    const after = this.files().reduce((n, f) => n + f.size, 0);
    return { entries: removedEntries, chunks: removedChunks, freed: before.reduce((n, f) => n + f.size, 0) - after };
  }

  private readable(file: string): boolean {
    if (!file.startsWith(this.entriesDir + path.sep)) return true;
    const name = path.basename(file);
    return /^[0-9a-f]{40}\.json$/.test(name) && this.readEntry(name.slice(0, -5)) !== undefined;
  }
}
