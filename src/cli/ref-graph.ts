// The graph of one side of `kg diff` (ADR 106): a graph.json file as it is; a git ref's tree,
// exported and built — incrementally from the nearest graph already built, cached by tree in this
// user's state folder (ADR 77) so a second run reads it — or the working tree, built in place
// without writing anything into it. Where a build server may run, a ref is exported into the
// repository's kept folder by the files that differ from the tree it held, and built there by that
// folder's warm server (ADR 135); else into a private temporary folder, built in this process.

import { isUtf8 } from 'node:buffer';
import { spawn } from 'node:child_process';
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
  type IndexedGraph,
  type PreviousBuild,
} from '../graph';
import { manifestPathFor, tryLockFile, type DiffSide } from '../graph';
import { runBuild } from './build';
import { changedPaths, exportTree, resolveRef, RefError, UnwritableTreeError, updateTree } from '../git/plumbing';
import type { ServerContext } from './server';
import { buildOnServer, serverDirProblem, serverPaths } from '../build-server/client';

/** Cache entries kept; the least recently used go first. */
const CACHE_ENTRIES = 24;

export interface SideGraph {
  graph: Graph;
  /** The graph as its loader indexed it, when it was loaded from a file (the diff reads it rather than indexing again). */
  indexed?: IndexedGraph;
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
  /** Set when builds may use a build server (`kg build`'s rules, ADR 57): refs are built in the kept folder (ADR 135). */
  server?: ServerContext;
  /** Work for this process while a build server builds a ref (reading the other side's graph), done once. */
  meanwhile?: () => void;
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
export function engineIdentity(): string {
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

/** Writes `text` at `file` by rename; `{ linkTo }` links that file there instead, copying where links fail. */
function writeAtomic(file: string, text: string | Buffer | { linkTo: string }): void {
  const tmp = `${file}.${process.pid}.tmp`;
  if (typeof text === 'object' && 'linkTo' in text) {
    fs.rmSync(tmp, { force: true });
    try {
      fs.linkSync(text.linkTo, tmp);
    } catch {
      fs.copyFileSync(text.linkTo, tmp);
    }
  } else fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Stores a tree's graph. `{ linkTo }` names a file holding its bytes that is only ever replaced by
 * rename, never written in place (the kept folder's graph.json, ADR 135): the entry shares it.
 */
function storeInCache(tree: string, graphText: string | Buffer | { linkTo: string }, manifestText: string): void {
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
  return withBytesHash({ graphText: graph?.toString('utf8'), manifestText: read(p.manifest)?.toString('utf8') }, graph);
}

/**
 * `previous` with the hash of the bytes its graph text was decoded from, computed when a build
 * first asks (ADR 129: the build checks the manifest against it without encoding the text again),
 * not for every graph read: most are only diffed.
 */
function withBytesHash(previous: PreviousBuild, bytes: Buffer | undefined): PreviousBuild {
  if (!bytes) return previous;
  let hash: string | undefined;
  return Object.defineProperty(previous, 'graphSha256', {
    enumerable: true,
    get: () => (hash ??= createHash('sha256').update(bytes).digest('hex')),
  });
}

function readCached(tree: string): { graph: IndexedGraph; previous: PreviousBuild } | undefined {
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
  return { graph: load.graph, previous };
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

/** Whether the graph of `spec`'s tree is in the cache (false for a ref git does not know: reading it says why). */
export function isCachedRef(root: string, spec: string): boolean {
  try {
    return fs.existsSync(entryPaths(cacheDir(), cacheKey(resolveRef(root, spec).tree)).meta);
  } catch {
    return false;
  }
}

/** A graph.json given by path: read as it is (unavailable when it cannot be used). */
export function graphSide(spec: string, file: string): SideGraph {
  const load = loadGraphFile(file);
  if (!load.ok) throw new RefError(`${spec}: ${load.unavailable.reason}`, 'unavailable');
  const graph = load.graph.graph;
  return { graph, indexed: load.graph, side: { spec, kind: 'graph', graphSignature: graph.graphSignature } };
}

/** A git ref: from the cache, or exported and built (incrementally from the nearest graph at hand). */
export async function refSide(spec: string, ctx: SideContext): Promise<SideGraph> {
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
    return { ...side(cached.graph.graph), indexed: cached.graph };
  }
  // The graph to build from, read only when a build needs it: the kept folder holds its own.
  const previousBuild = (): PreviousBuild | undefined => {
    const near = nearestCached(ctx.root, tree, ctx.built);
    const userGraph = defaultGraphFile(ctx.root);
    return near?.previous ?? ctx.built[0]?.previous ?? (fs.existsSync(userGraph) ? readPrevious(userGraph) : undefined);
  };
  const label = `${spec} (${commit.slice(0, 12)})`;
  const kept =
    ctx.server && ctx.server.off === undefined ? await buildInKeptFolder(label, tree, previousBuild, ctx, ctx.server) : undefined;
  if (kept) return side(kept);
  const previous = previousBuild();
  sweepTempFolders();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  const owner = tryLockFile(path.join(dir, TEMP_OWNER));
  const watcher = removeWhenGone(dir);
  const root = path.join(dir, 'tree');
  try {
    fs.mkdirSync(root, { mode: 0o700 });
    const files = exportTree(ctx.root, tree, root);
    const result = buildTracked({ root, previous, sink: { log: (_level, m) => ctx.log(`${spec}: ${m}`) } });
    ctx.log(
      `${label}: ${files} files exported and built (${
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
    if ('release' in owner) owner.release();
    watcher?.end();
  }
}

/**
 * The private temporary folders of the one-shot route: `<tmp>/kg-diff-XXXXXX/`, holding the tree
 * (`tree/`) and a lock file naming the process that uses it (`owner`). The export and build run
 * synchronously, so a signal cannot be handled while the folder exists without holding the
 * process until the build ends. A watcher process removes the folder when kg ends by any signal
 * (removeWhenGone, ADR 177); a folder left all the same (no shell, a machine that stopped) is
 * removed by the next run (ADR 144).
 */
const TEMP_PREFIX = 'kg-diff-';
const TEMP_OWNER = 'owner';
/** A folder of ours without an owner (left by a kg before ADR 144, or one being made) is stale after this long. */
const OWNERLESS_GRACE_MS = 60 * 60 * 1000;

/**
 * Starts a process that removes `dir` once this one is gone, however it ends: a shell that reads its
 * standard input, a pipe from kg, to its end — the end of a pipe comes when its writer closes it
 * (`end()`, once kg has removed `dir` itself) or when the kernel does, at kg's death by Ctrl+C,
 * SIGTERM or SIGKILL — and then removes the folder. It runs in a process group of its own, so the
 * Ctrl+C that stops kg does not stop it; it holds no open handle of kg's, so kg exits as before. No
 * code of the repository runs: the shell runs `cat` and `rm` on a folder kg made. Undefined where
 * there is no POSIX shell (the next run's sweep removes the folder then).
 */
function removeWhenGone(dir: string): { end(): void } | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const child = spawn('/bin/sh', ['-c', 'cat >/dev/null; rm -rf -- "$1"', 'kg-diff-cleanup', dir], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', () => undefined);
    child.unref();
    const stdin = child.stdin as (NodeJS.WritableStream & { unref?: () => void; destroy(): void }) | null;
    if (!stdin) return undefined;
    stdin.on('error', () => undefined);
    stdin.unref?.();
    return { end: () => stdin.destroy() };
  } catch {
    return undefined;
  }
}

/**
 * Removes the temporary folders earlier runs of this user left: those whose owner is no longer
 * running, and those without an owner older than an hour. Another user's folder, a link, or a name
 * mkdtemp would not make is never touched.
 */
function sweepTempFolders(tmp = os.tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(tmp);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    if (!/^kg-diff-[A-Za-z0-9]{6}$/.test(name)) continue;
    const dir = path.join(tmp, name);
    try {
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      const ownerFile = path.join(dir, TEMP_OWNER);
      if (!fs.existsSync(ownerFile)) {
        if (Date.now() - st.mtimeMs < OWNERLESS_GRACE_MS) continue;
      } else {
        // Taking the owner's lock succeeds only when its holder is gone (lock.ts breaks a dead holder's lock).
        const held = tryLockFile(ownerFile);
        if ('heldBy' in held) continue;
      }
      fs.rmSync(dir, { recursive: true, force: true });
      removed++;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return removed;
}

/**
 * Builds `tree` in the repository's kept folder (ADR 135): `<state>/diff-trees/<repository>/tree`
 * holds the tree last built there, `tree.id` names it (written only once the folder holds all of
 * it), `out/graph.json` is that tree's graph. The folder is turned into `tree` by the paths that
 * differ, and built by `kg build --apply` on it: by its warm build server when one answers, else
 * here (which starts one for the next ref). Undefined when another `kg diff` holds the folder:
 * the caller builds in a private temporary folder instead.
 */
async function buildInKeptFolder(
  label: string,
  tree: string,
  previousBuild: () => PreviousBuild | undefined,
  ctx: SideContext,
  server: ServerContext,
): Promise<Graph | undefined> {
  const base = userStateDir('diff-trees');
  const key = createHash('sha256').update(fs.realpathSync(ctx.root)).digest('hex').slice(0, 20);
  const lock = tryLockFile(path.join(base, `${key}.lock`));
  if ('heldBy' in lock) {
    ctx.log(`${label}: another kg diff of this repository is using its kept folder; building in a private temporary folder`);
    return undefined;
  }
  try {
    const home = path.join(base, key);
    const treeDir = path.join(home, 'tree');
    const marker = path.join(home, 'tree.id');
    const outFile = path.join(home, 'out', 'graph.json');
    fs.mkdirSync(path.dirname(outFile), { recursive: true, mode: 0o700 });
    let held: string | undefined;
    try {
      held = fs.readFileSync(marker, 'utf8').trim();
    } catch {
      held = undefined;
    }
    const started = performance.now();
    // The marker goes first: a folder half turned into another tree is never taken for either.
    fs.rmSync(marker, { force: true });
    let exported: string | undefined;
    if (held !== undefined && /^[0-9a-f]{40,64}$/.test(held) && fs.existsSync(treeDir)) {
      try {
        const n = updateTree(ctx.root, held, tree, treeDir);
        exported = `${n} path${n === 1 ? '' : 's'} changed in the kept folder since tree ${held.slice(0, 12)}`;
      } catch (e) {
        if (e instanceof UnwritableTreeError) {
          // Refused before the folder was touched: it still holds the tree it held.
          fs.writeFileSync(marker, held + '\n', { mode: 0o600 });
          throw e;
        }
        if (!(e instanceof RefError)) throw e;
        // A tree git no longer has (garbage-collected, another clone at this path): exported afresh.
      }
    }
    if (exported === undefined) {
      fs.rmSync(treeDir, { recursive: true, force: true });
      fs.mkdirSync(treeDir, { mode: 0o700 });
      exported = `${exportTree(ctx.root, tree, treeDir)} files exported into the kept folder`;
    }
    fs.writeFileSync(marker, tree + '\n', { mode: 0o600 });
    // A folder without a graph yet starts from the nearest one at hand.
    const previous = fs.existsSync(outFile) ? undefined : previousBuild();
    if (previous?.graphText !== undefined && previous.manifestText !== undefined) {
      fs.writeFileSync(manifestPathFor(outFile), previous.manifestText, { mode: 0o600 });
      fs.writeFileSync(outFile, previous.graphText, { mode: 0o600 });
    }
    const say = (text: string) => {
      for (const line of text.split('\n')) if (line.trim() !== '') ctx.log(`${label}: ${line.replace(/^kg: /, '')}`);
    };
    const args = ['--apply', '--root', treeDir, '--out', outFile];
    const io = { stdout: { write: say }, stderr: { write: say }, cwd: treeDir };
    // The folder's server, asked directly so this process can do other work while it builds
    // (ctx.meanwhile); without one, `kg build` builds here and starts one for the next ref.
    const paths = serverPaths(server, fs.realpathSync(treeDir));
    // What this process spends on the other work while the server builds, said beside the total.
    let meanwhileMs = 0;
    const meanwhile = ctx.meanwhile;
    const timedMeanwhile = meanwhile
      ? () => {
          const t = performance.now();
          try {
            meanwhile();
          } finally {
            meanwhileMs = performance.now() - t;
          }
        }
      : undefined;
    const onServer =
      serverDirProblem(path.dirname(paths.lockFile)) === undefined
        ? await buildOnServer(paths, args, io, undefined, timedMeanwhile)
        : undefined;
    const code = typeof onServer === 'number' ? onServer : await runBuild(args, io, {}, server);
    if (code !== 0)
      throw new RefError(`${label}: building its tree failed (kg build exited ${code}; its messages are above)`, 'unavailable');
    const bytes = fs.readFileSync(outFile);
    const manifestText = fs.readFileSync(manifestPathFor(outFile), 'utf8');
    const graphText = bytes.toString('utf8');
    const load = parseGraphText(graphText);
    if (!load.ok) throw new RefError(`${label}: the graph built for it cannot be read: ${load.unavailable.reason}`, 'unavailable');
    const during = meanwhileMs > 0 ? ` (${Math.round(meanwhileMs)} ms of it this process spent reading BASE meanwhile)` : '';
    ctx.log(`${label}: ${exported}, and built there in ${Math.round(performance.now() - started)} ms${during}`);
    storeInCache(tree, { linkTo: outFile }, manifestText);
    ctx.built.unshift({ tree, previous: withBytesHash({ graphText, manifestText }, isUtf8(bytes) ? bytes : undefined) });
    return load.graph.graph;
  } finally {
    lock.release();
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
