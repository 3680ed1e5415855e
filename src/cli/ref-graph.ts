// The graph of one side of `kg diff` (ADR 106): a graph.json file as it is; a git ref's tree,
// exported into a private temporary folder and built there — incrementally from the nearest graph
// already built, cached by tree in this user's state folder (ADR 77) so a second run reads it —
// or the working tree, built in place without writing anything into it.

import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  KG_VERSION,
  buildTracked,
  defaultGraphFile,
  loadGraphFile,
  parseGraphText,
  readPrevious,
  userStateDir,
  type Graph,
  type PreviousBuild,
} from '../graph';
import type { DiffSide } from '../graph';
import { changedPaths, exportTree, resolveRef, RefError } from './git';

/** Cache entries kept; the least recently used go first. */
const CACHE_ENTRIES = 24;

export interface SideGraph {
  graph: Graph;
  side: DiffSide;
  /** The git tree, for a ref side (to find files git saw move with identical bytes). */
  tree?: string;
}

export interface SideContext {
  /** The repository (git's top level). */
  root: string;
  log(message: string): void;
  /** Graphs built or read in this run, to build the next side from (the nearest first). */
  built: Array<{ tree?: string; previous: PreviousBuild }>;
}

interface CacheMeta {
  tree: string;
  kg: string;
}

let engineHash: string | undefined;

/**
 * What a cached graph depends on besides the tree: this kg (its version and, when running from the
 * bundles, the builder bundle's bytes — a rebuilt kg must not read a stale graph).
 */
function engineIdentity(): string {
  if (engineHash === undefined) {
    const h = createHash('sha256').update(KG_VERSION);
    const bundle = path.join(__dirname, 'engine-build.js');
    try {
      h.update(fs.readFileSync(bundle));
    } catch {
      // Running from sources (tests): the version alone.
    }
    engineHash = h.digest('hex');
  }
  return engineHash;
}

function cacheDir(): string {
  return userStateDir('diff-cache');
}

const cacheKey = (tree: string) => createHash('sha256').update(`${engineIdentity()}\u0000${tree}`).digest('hex').slice(0, 40);

function entryPaths(dir: string, key: string) {
  return {
    graph: path.join(dir, `${key}.graph.json`),
    manifest: path.join(dir, `${key}.manifest.json`),
    meta: path.join(dir, `${key}.meta.json`),
  };
}

function writeAtomic(file: string, text: string | Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function storeInCache(tree: string, graphText: string | Buffer, manifestText: string): void {
  const dir = cacheDir();
  const p = entryPaths(dir, cacheKey(tree));
  writeAtomic(p.graph, graphText);
  writeAtomic(p.manifest, manifestText);
  // The meta file last: an entry without it is incomplete and never read.
  writeAtomic(p.meta, JSON.stringify({ tree, kg: KG_VERSION } satisfies CacheMeta) + '\n');
  const metas = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.meta.json'))
    .map((f) => ({ key: f.slice(0, -'.meta.json'.length), mtime: fs.statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || (a.key < b.key ? -1 : 1));
  for (const old of metas.slice(CACHE_ENTRIES)) {
    const q = entryPaths(dir, old.key);
    for (const f of [q.meta, q.graph, q.manifest]) fs.rmSync(f, { force: true });
  }
}

function readEntry(p: { graph: string; manifest: string }): PreviousBuild {
  const read = (f: string) => {
    try {
      const bytes = fs.readFileSync(f);
      return isUtf8(bytes) ? bytes : undefined;
    } catch {
      return undefined;
    }
  };
  const graph = read(p.graph);
  // The graph's hash from the bytes read: the build checks the manifest against it without encoding the text again.
  return {
    graphText: graph?.toString('utf8'),
    manifestText: read(p.manifest)?.toString('utf8'),
    ...(graph ? { graphSha256: createHash('sha256').update(graph).digest('hex') } : {}),
  };
}

function readCached(tree: string): { graph: Graph; previous: PreviousBuild } | undefined {
  const p = entryPaths(cacheDir(), cacheKey(tree));
  if (!fs.existsSync(p.meta)) return undefined;
  // The graph's text is read once: checked and indexed for the diff, kept for a build that starts from it.
  const previous = readEntry(p);
  if (previous.graphText === undefined) return undefined;
  const load = parseGraphText(previous.graphText);
  if (!load.ok) return undefined;
  const now = new Date();
  try {
    fs.utimesSync(p.meta, now, now);
  } catch {
    // only the eviction order
  }
  return { graph: load.graph.graph, previous };
}

/**
 * The cached graph whose tree differs from `tree` in the fewest paths, to build incrementally from:
 * taken from `read` (what this run already read, by tree) when it is there, else read now.
 */
function nearestCached(
  root: string,
  tree: string,
  read: ReadonlyArray<{ tree?: string; previous: PreviousBuild }>,
): { previous: PreviousBuild; distance: number } | undefined {
  const dir = cacheDir();
  let best: { key: string; tree: string; distance: number } | undefined;
  for (const f of fs
    .readdirSync(dir)
    .filter((x) => x.endsWith('.meta.json'))
    .sort()) {
    let meta: CacheMeta;
    try {
      meta = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CacheMeta;
    } catch {
      continue;
    }
    if (typeof meta.tree !== 'string' || !/^[0-9a-f]+$/.test(meta.tree)) continue;
    const distance = changedPaths(root, meta.tree, tree);
    if (distance === undefined) continue; // a tree of another repository
    if (!best || distance < best.distance) best = { key: f.slice(0, -'.meta.json'.length), tree: meta.tree, distance };
  }
  if (!best) return undefined;
  const near = best;
  const previous = read.find((b) => b.tree === near.tree)?.previous ?? readEntry(entryPaths(dir, near.key));
  return { previous, distance: near.distance };
}

/** A graph.json given by path: read as it is (unavailable when it cannot be used). */
export function graphSide(spec: string, file: string): SideGraph {
  const load = loadGraphFile(file);
  if (!load.ok) throw new RefError(`${spec}: ${load.unavailable.reason}`, 'unavailable');
  const graph = load.graph.graph;
  return { graph, side: { spec, kind: 'graph', graphSignature: graph.graphSignature } };
}

/** A git ref: from the cache, or exported and built (incrementally from the nearest graph at hand). */
export function refSide(spec: string, ctx: SideContext): SideGraph {
  const { commit, tree } = resolveRef(ctx.root, spec);
  const side = (graph: Graph): SideGraph => ({
    graph,
    side: { spec, kind: 'ref', commit, tree, graphSignature: graph.graphSignature },
    tree,
  });
  const cached = readCached(tree);
  if (cached) {
    ctx.log(`${spec} (${commit.slice(0, 12)}): graph of tree ${tree.slice(0, 12)} read from the cache`);
    ctx.built.unshift({ tree, previous: cached.previous });
    return side(cached.graph);
  }
  const near = nearestCached(ctx.root, tree, ctx.built);
  const userGraph = defaultGraphFile(ctx.root);
  const previous: PreviousBuild | undefined =
    near?.previous ?? ctx.built[0]?.previous ?? (fs.existsSync(userGraph) ? readPrevious(userGraph) : undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-diff-'));
  try {
    const files = exportTree(ctx.root, tree, dir);
    const result = buildTracked({ root: dir, previous, sink: { log: (_level, m) => ctx.log(`${spec}: ${m}`) } });
    ctx.log(
      `${spec} (${commit.slice(0, 12)}): ${files} files exported and built (${
        result.mode === 'incremental'
          ? `incremental: ${result.delta.extracted} parsed, ${result.delta.carried} carried forward${
              result.blanked > 0 ? `, ${result.blanked} of them read for their types with bodies blank` : ''
            }`
          : `full${result.fullReason ? `: ${result.fullReason}` : ''}`
      })`,
    );
    storeInCache(tree, result.bytes ?? result.text, result.manifestText);
    ctx.built.unshift({
      tree,
      previous: { graphText: result.text, manifestText: result.manifestText, graphSha256: result.manifest.graphSha256 },
    });
    return side(result.graph);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The working tree, built in place from the nearest graph at hand; nothing is written into it. */
export function worktreeSide(ctx: SideContext): SideGraph {
  const userGraph = defaultGraphFile(ctx.root);
  const previous = fs.existsSync(userGraph) ? readPrevious(userGraph) : ctx.built[0]?.previous;
  const result = buildTracked({ root: ctx.root, previous, sink: { log: (_level, m) => ctx.log(`working tree: ${m}`) } });
  ctx.log(
    `working tree: built (${result.mode === 'incremental' ? `incremental: ${result.delta.extracted} parsed, ${result.delta.carried} carried forward` : 'full'})`,
  );
  return { graph: result.graph, side: { spec: 'working tree', kind: 'worktree', graphSignature: result.graph.graphSignature } };
}
