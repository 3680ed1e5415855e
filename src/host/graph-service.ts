// THE graph service: one graph per workspace folder, each held by a worker thread, reloaded when
// graph.json changes on disk (a build here, a `git pull`, a CLI build), and one state per folder
// published to every surface (lenses, tree, status bar, explorer). Staleness is the manifest's
// verdict on the working tree (the same one `kg status` gives) plus the editors with unsaved
// changes. Why a worker, and why a new one per load: docs/adr/0060-the-graph-lives-in-a-worker-thread.md.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeUnavailable, GRAPH_DIR, type GraphNode, type Mode, type QueryRequest, type QueryResult, type WhyResult } from '../graph';
import type { BuildProgress, FolderGraphState, GraphAccess, NodeDetails, NodeSearch } from './graph-access';
import { fileInsideFolder, resolveGraphPath } from './graph-path';
import { BUILT_PHASE } from './graph-text';
import { Quiet } from './quiet';
import { GraphWorkerClient } from './graph-worker-client';
import type { AgentReply, CallerCounts, FileSymbol, GuardReply, HeldBaselines, NeighbourGroup } from '../protocol/graph-worker';

/** What the editor's own surfaces ask beyond GraphAccess: the per-file requests the lenses make. */
export interface EditorGraphAccess extends GraphAccess {
  /** The lens-worthy declarations of one file (repo-relative POSIX path), by position. */
  fileSymbols(folder: string, file: string): Promise<FileSymbol[]>;
  /** The same, from the graph `graphNo` (graphOf) only: undefined once it was replaced. */
  fileSymbolsOf(folder: string, file: string, graphNo: number): Promise<FileSymbol[] | undefined>;
  /**
   * The lens-worthy declarations of an installed package's source file that the graph's calls reach,
   * as package-qualified ids (ADR 124), from the graph `graphNo` only.
   */
  packageFileSymbolsOf(
    folder: string,
    args: { pkg: string; version: string; path: string; text: string },
    graphNo: number,
  ): Promise<FileSymbol[] | undefined>;
  /** Caller counts, exactly as `kg callers` lists them, for many ids in one round trip. */
  counts(folder: string, ids: string[], graphNo?: number): Promise<Array<CallerCounts | undefined>>;
  /** A node's neighbours grouped by relation and direction, each group cut at `budget`. */
  neighbourGroups(folder: string, id: string, budget: number): Promise<NeighbourGroup[]>;
  /** The doctor's report on the folder's graph.json. */
  doctor(folder: string): Promise<{ ok: boolean; text: string } | undefined>;
  /** `kg why` for the declaration at a position of a file (1-based line, UTF-16 column), if one is there. */
  whyAt(folder: string, file: string, line: number, column: number): Promise<{ id: string; answer: WhyResult } | undefined>;
  /** `uri` as a repo-relative POSIX path of its folder, if it lies inside it. */
  relativePath(folder: string, uri: vscode.Uri): string | undefined;
  /** A repo-relative path as a URI inside the folder, or undefined when it would leave it (ADR 31). */
  fileUri(folder: string, file: string): vscode.Uri | undefined;
  /** Whether the file (repo-relative) changed since the folder's graph was built, or is unsaved. */
  isStale(folder: string, file: string): boolean;
  /**
   * Which graph the folder holds now: changes whenever its graph is replaced. A surface that
   * drew from one graph asks again with this number, and gets nothing from another (ADR 90).
   */
  graphOf(folder: string): number;
  /** A number that changes whenever any folder's graph is replaced (for caches). */
  readonly generation: number;
}

interface Entry {
  folder: vscode.WorkspaceFolder;
  key: string;
  state: FolderGraphState;
  worker?: GraphWorkerClient;
  /** The load in progress: only the newest one may install its worker. */
  loadSeq: number;
  /** Size and time of the graph file the worker holds, to skip reloads of an unchanged file. */
  loadedStamp?: string;
  /** Files changed on disk since the build (the manifest's verdict). */
  diskStale: string[];
  /**
   * Files saved or changed on disk since the last verdict began, with the touch's sequence number:
   * stale at once, until a manifest verdict that began after the touch clears them (ADR 90).
   */
  touched: Map<string, number>;
  /** The SHA-256 the loaded graph's manifest records of each file it was built from (the last verdict's). */
  built: Record<string, string>;
  /** Which graph the worker holds (see graphOf). */
  graphNo: number;
  /** The build whose end is being waited for: the status says building until its graph is loaded. */
  buildNo: number;
  /** The load in flight, by the stamp of the file it reads: a second request for it waits on it. */
  pending?: { stamp: string; done: Promise<void> };
  disposables: vscode.Disposable[];
  reloadTimer?: ReturnType<typeof setTimeout>;
  statusTimer?: ReturnType<typeof setTimeout>;
}

/** Files changed since the build, and the last touch (sourceChanged) the verdict covers (-1: none). */
interface Verdict {
  changed: string[];
  covers: number;
  /** The manifest's hashes (StatusInfo), when it could tell. */
  built?: Record<string, string>;
}

/** Files a build may read (sources, markdown, the configs that shape a project): a touch makes them stale at once. */
const MAYBE_INPUT = /(\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|md)|(^|\/)(tsconfig[^/]*|jsconfig[^/]*|package)\.json)$/;

const RELOAD_DEBOUNCE_MS = 150;
const STATUS_DEBOUNCE_MS = 400;

/** What the build service tells the graph service while a build runs. */
export interface BuildListener {
  buildStarted(folder: vscode.WorkspaceFolder): void;
  buildProgress(folder: vscode.WorkspaceFolder, p: BuildProgress): void;
  /** `failure`: why the build failed (the status bar says it until a build succeeds); undefined when it did not fail. */
  buildEnded(folder: vscode.WorkspaceFolder, built: boolean, failure?: string): void;
}

export class GraphService implements EditorGraphAccess, BuildListener, vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly emitter = new vscode.EventEmitter<string>();
  readonly onDidChangeState = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];
  private gen = 0;
  private touchSeq = 0;

  constructor(
    private readonly workerScript: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    for (const f of vscode.workspace.workspaceFolders ?? []) this.add(f);
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.remove(f.uri.toString());
        for (const f of e.added) this.add(f);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        for (const entry of this.entries.values()) {
          if (e.affectsConfiguration('knowledgeGraph.graphPath', entry.folder.uri)) {
            entry.disposables.forEach((d) => d.dispose());
            entry.disposables = this.watch(entry);
            entry.loadedStamp = undefined;
            void this.load(entry);
          }
        }
      }),
      // Unsaved changes make a file stale at once; saving (or reverting) hands it back to the
      // manifest's verdict, which is checked again.
      vscode.workspace.onDidChangeTextDocument((e) => this.dirtyMaybeChanged(e.document)),
      vscode.workspace.onDidSaveTextDocument((d) => this.sourceChanged(d.uri, d.getText())),
      vscode.workspace.onDidCloseTextDocument((d) => this.dirtyMaybeChanged(d)),
    );
  }

  get generation(): number {
    return this.gen;
  }

  // ---- GraphAccess -------------------------------------------------------------------------

  states(): FolderGraphState[] {
    return (vscode.workspace.workspaceFolders ?? [])
      .map((f) => this.entries.get(f.uri.toString()))
      .filter((e): e is Entry => !!e)
      .map((e) => this.publicState(e));
  }

  state(folder: string): FolderGraphState | undefined {
    const e = this.entries.get(folder);
    return e && this.publicState(e);
  }

  folderOf(uri: vscode.Uri): string | undefined {
    const f = vscode.workspace.getWorkspaceFolder(uri);
    return f && this.entries.has(f.uri.toString()) ? f.uri.toString() : undefined;
  }

  async ask(folder: string, request: QueryRequest): Promise<QueryResult> {
    const e = this.entries.get(folder);
    if (!e?.worker || e.state.kind !== 'ready') {
      return {
        available: false,
        code: e?.state.code ?? 'NO_GRAPH',
        reason: e?.state.reason ?? 'no committed graph projection',
        evidenceClass: 'GRAPH_DERIVED',
      };
    }
    return e.worker.request('query', { request });
  }

  /** A kg mcp tool's answer over the folder's graph (src/host/lm-tools.ts): the same answer `kg mcp` gives. */
  async agent(folder: string, tool: string, input: Record<string, unknown>): Promise<AgentReply> {
    const e = this.entries.get(folder);
    if (!e?.worker || e.state.kind !== 'ready') {
      const why = e?.state.reason ?? 'this folder has no knowledge graph yet';
      return {
        ok: false,
        text: `No usable graph for ${e?.folder.name ?? folder}: ${why}. Run the command "Knowledge Graph: Build Knowledge Graph" (or \`kg build --apply\` in the folder), then ask again.`,
      };
    }
    return e.worker.request('agent', {
      tool,
      input,
      root: e.folder.uri.fsPath,
      file: e.state.graphPath,
      changedFiles: this.staleFiles(e),
    });
  }

  async details(folder: string, id: string): Promise<NodeDetails | undefined> {
    return this.call(folder, (w) => w.request('details', { id }), undefined);
  }

  async search(folder: string, text: string, limit: number): Promise<NodeSearch> {
    return this.call(folder, (w) => w.request('search', { text, limit }), { matches: [], total: 0 });
  }

  async nodes(folder: string, ids: string[]): Promise<Array<GraphNode | undefined>> {
    return this.call(
      folder,
      (w) => w.request('nodes', { ids }),
      ids.map(() => undefined),
    );
  }

  locationOf(folder: string, node: GraphNode): vscode.Location | undefined {
    const e = this.entries.get(folder);
    if (!e || !node.sourceFile) return undefined;
    const uri = this.fileUri(e, node.sourceFile);
    if (!uri) return undefined;
    const pos = new vscode.Position(Math.max(0, (node.line ?? 1) - 1), Math.max(0, (node.column ?? 1) - 1));
    return new vscode.Location(uri, pos);
  }

  // ---- the editor's own requests -------------------------------------------------------------

  fileSymbols(folder: string, file: string): Promise<FileSymbol[]> {
    return this.call(folder, (w) => w.request('fileSymbols', { file }), []);
  }

  fileSymbolsOf(folder: string, file: string, graphNo: number): Promise<FileSymbol[] | undefined> {
    if (this.graphOf(folder) !== graphNo) return Promise.resolve(undefined);
    return this.call<FileSymbol[] | undefined>(folder, (w) => w.request('fileSymbols', { file }), undefined);
  }

  packageFileSymbolsOf(
    folder: string,
    args: { pkg: string; version: string; path: string; text: string },
    graphNo: number,
  ): Promise<FileSymbol[] | undefined> {
    if (this.graphOf(folder) !== graphNo) return Promise.resolve(undefined);
    return this.call<FileSymbol[] | undefined>(folder, (w) => w.request('packageFileSymbols', args), undefined);
  }

  /** `graphNo` (graphOf): counted only by that graph; undefined for every id once it was replaced. */
  counts(folder: string, ids: string[], graphNo?: number): Promise<Array<CallerCounts | undefined>> {
    const none = ids.map(() => undefined);
    if (graphNo !== undefined && this.graphOf(folder) !== graphNo) return Promise.resolve(none);
    return this.call(folder, (w) => w.request('counts', { ids }), none);
  }

  neighbourGroups(folder: string, id: string, budget: number): Promise<NeighbourGroup[]> {
    return this.call(folder, (w) => w.request('neighbourGroups', { id, budget }), []);
  }

  whyAt(folder: string, file: string, line: number, column: number): Promise<{ id: string; answer: WhyResult } | undefined> {
    return this.call(folder, (w) => w.request('whyAt', { file, line, column }), undefined);
  }

  /**
   * The breaking-change guard on an unsaved buffer, run in the folder's worker (ADR-73): plain
   * diagnostics and log lines. Undefined when the folder's graph cannot answer.
   */
  guard(folder: string, file: string, text: string, mode: Mode): Promise<GuardReply | undefined> {
    return this.call(folder, (w) => w.request('guard', { file, text, mode }), undefined);
  }

  /** Loads the guard's parser in the folder's worker ahead of the first edit; its time in ms. */
  guardWarm(folder: string): Promise<number | undefined> {
    return this.call(folder, (w) => w.request('guardWarm', {}), undefined);
  }

  /** "The change is intended": the guard forgets the baseline it held for `file` over rebuilds. */
  guardAccept(folder: string, file: string): Promise<null> {
    return this.call(folder, (w) => w.request('guardAccept', { file }), null);
  }

  async doctor(folder: string): Promise<{ ok: boolean; text: string } | undefined> {
    const e = this.entries.get(folder);
    if (!e || !fs.existsSync(e.state.graphPath)) return undefined;
    // A worker of its own: the doctor reads the file as it is now, even when the graph is unusable.
    const w = new GraphWorkerClient(this.workerScript);
    try {
      return await w.request('doctor', { file: e.state.graphPath });
    } finally {
      void w.terminate();
    }
  }

  relativePath(folder: string, uri: vscode.Uri): string | undefined {
    const e = this.entries.get(folder);
    if (!e || uri.scheme !== e.folder.uri.scheme) return undefined;
    const rel = path.relative(e.folder.uri.fsPath, uri.fsPath);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  isStale(folder: string, file: string): boolean {
    const e = this.entries.get(folder);
    return !!e && this.staleFiles(e).includes(file);
  }

  /** The SHA-256 the loaded graph's manifest records of a repo-relative file, if it records one. */
  builtHash(folder: string, file: string): string | undefined {
    return this.entries.get(folder)?.built[file];
  }

  graphOf(folder: string): number {
    return this.entries.get(folder)?.graphNo ?? -1;
  }

  /** A location inside the folder for a repo-relative path, or undefined when it would leave it (ADR 31). */
  fileUri(e: Entry | string, file: string): vscode.Uri | undefined {
    const entry = typeof e === 'string' ? this.entries.get(e) : e;
    if (!entry) return undefined;
    const norm = path.posix.normalize(file);
    if (norm.startsWith('../') || norm === '..' || path.posix.isAbsolute(norm)) return undefined;
    // On disk, through symbolic links too: a graph's path that is a link out of the folder is never opened.
    if (entry.folder.uri.scheme === 'file') {
      const inside = fileInsideFolder(entry.folder.uri.fsPath, norm);
      if (!inside.ok) {
        this.log.warn(`not opening ${norm}: ${inside.reason}`);
        return undefined;
      }
    }
    return vscode.Uri.joinPath(entry.folder.uri, ...norm.split('/'));
  }

  /** Reads the folder's graph again now (after a build, or when asked). */
  reload(folder: string, force = false): Promise<void> {
    const e = this.entries.get(folder);
    if (!e) return Promise.resolve();
    if (force) e.loadedStamp = undefined;
    return this.load(e);
  }

  /**
   * Resolves once no load, reload, verdict or request is waiting or running in any folder (for the
   * tests, the language-model build tool and the benchmark): a promise told by the work itself
   * (src/host/quiet.ts), not a polling loop.
   */
  settled(): Promise<void> {
    return this.quiet.whenQuiet();
  }

  /** Loads running now (a load awaits several requests; it is busy between them too). */
  private loads = 0;
  private readonly quiet = new Quiet(
    () =>
      this.loads > 0 ||
      this.inFlight.size > 0 ||
      [...this.entries.values()].some((e) => e.state.kind === 'loading' || e.reloadTimer !== undefined || e.statusTimer !== undefined),
  );

  // ---- BuildListener -------------------------------------------------------------------------

  buildStarted(folder: vscode.WorkspaceFolder): void {
    const e = this.entries.get(folder.uri.toString());
    if (e) e.buildNo++;
    this.setBuilding(folder, { phase: 'starting', done: 0, total: 0 });
  }

  buildProgress(folder: vscode.WorkspaceFolder, p: BuildProgress): void {
    this.setBuilding(folder, p);
  }

  buildEnded(folder: vscode.WorkspaceFolder, built: boolean, failure?: string): void {
    const e = this.entries.get(folder.uri.toString());
    if (!e) return;
    if (built) delete e.state.buildFailure;
    else if (failure !== undefined) e.state.buildFailure = failure;
    if (!built) return this.setBuilding(folder, undefined);
    // The status says "building" until the graph this build wrote is loaded and its verdict is in:
    // never the previous graph's counts as if fresh, then stale again, then fresh (ADR 90). The
    // watcher sees the new graph too; this covers a graph path the watcher cannot see.
    const build = e.buildNo;
    this.setBuilding(folder, { phase: BUILT_PHASE, done: e.state.building?.total ?? 0, total: e.state.building?.total ?? 0 });
    void this.reload(folder.uri.toString()).finally(() => {
      if (e.buildNo === build) this.setBuilding(folder, undefined);
    });
  }

  private setBuilding(folder: vscode.WorkspaceFolder, p: BuildProgress | undefined): void {
    const e = this.entries.get(folder.uri.toString());
    if (!e) return;
    e.state = { ...e.state, building: p };
    if (!p) delete e.state.building;
    this.fire(e);
  }

  // ---- internals -----------------------------------------------------------------------------

  private readonly inFlight = new Set<Promise<unknown>>();

  private async call<T>(folder: string, f: (w: GraphWorkerClient) => Promise<T>, fallback: T): Promise<T> {
    const e = this.entries.get(folder);
    if (!e?.worker || e.state.kind !== 'ready') return fallback;
    try {
      return await f(e.worker);
    } catch (err) {
      this.log.debug(`graph request failed: ${(err as Error).message}`);
      return fallback;
    }
  }

  private graphPathOf(folder: vscode.WorkspaceFolder): { ok: true; path: string } | { ok: false; reason: string } {
    if (folder.uri.scheme !== 'file')
      return { ok: false, reason: `"${folder.name}" is not on the local file system (${folder.uri.scheme}:)` };
    return resolveGraphPath(folder.uri.fsPath, vscode.workspace.getConfiguration('knowledgeGraph', folder.uri).get<string>('graphPath'));
  }

  private add(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    const where = this.graphPathOf(folder);
    const entry: Entry = {
      folder,
      key,
      state: {
        folder: key,
        folderName: folder.name,
        graphPath: where.ok ? where.path : '',
        kind: 'loading',
        callsLayer: false,
        staleFiles: [],
      },
      loadSeq: 0,
      diskStale: [],
      touched: new Map(),
      built: {},
      graphNo: 0,
      buildNo: 0,
      disposables: [],
    };
    this.entries.set(key, entry);
    entry.disposables = this.watch(entry);
    void this.load(entry);
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    e.disposables.forEach((d) => d.dispose());
    clearTimeout(e.reloadTimer);
    clearTimeout(e.statusTimer);
    void e.worker?.terminate();
    this.emitter.fire(key);
    this.quiet.changed();
  }

  /** Watches the graph file (and its manifest) and the folder's sources. */
  private watch(e: Entry): vscode.Disposable[] {
    const out: vscode.Disposable[] = [];
    const where = this.graphPathOf(e.folder);
    if (where.ok) {
      const rel = path.relative(e.folder.uri.fsPath, where.path).split(path.sep).join('/');
      // graph.json and graph.manifest.json: a build replaces both by renames.
      const pattern = rel.replace(/\.json$/, '') + '*.json';
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(e.folder, pattern));
      const onGraph = () => this.scheduleReload(e);
      out.push(w, w.onDidCreate(onGraph), w.onDidChange(onGraph), w.onDidDelete(onGraph));
    }
    // Sources changed outside the editor (a git pull, a formatter): the manifest's verdict again.
    const src = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(e.folder, '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,md,json}'),
    );
    const onSource = (uri: vscode.Uri) => this.sourceChanged(uri);
    out.push(src, src.onDidCreate(onSource), src.onDidChange(onSource), src.onDidDelete(onSource));
    return out;
  }

  private scheduleReload(e: Entry): void {
    clearTimeout(e.reloadTimer);
    e.reloadTimer = setTimeout(() => {
      e.reloadTimer = undefined;
      void this.load(e);
      this.quiet.changed();
    }, RELOAD_DEBOUNCE_MS);
  }

  /**
   * A file was saved or changed on disk: stale at once (before the manifest's verdict, which takes
   * a walk of the tree), and checked again. Only a verdict that began after this touch clears it.
   */
  private sourceChanged(uri: vscode.Uri, text?: string): void {
    const key = this.folderOf(uri);
    const e = key ? this.entries.get(key) : undefined;
    if (!e || (e.state.kind !== 'ready' && e.state.kind !== 'loading')) return;
    const rel = this.relativePath(e.key, uri);
    if (!rel || rel.startsWith(GRAPH_DIR + '/') || uri.fsPath.startsWith(path.dirname(e.state.graphPath) + path.sep)) return;
    // Saved or reverted to the very bytes the graph was built from (the manifest's SHA-256 of the
    // file): fresh at once, with no verdict to wait for (issue 55, item 5).
    if (
      text !== undefined &&
      e.state.kind === 'ready' &&
      e.built[rel] !== undefined &&
      e.built[rel] === createHash('sha256').update(text).digest('hex')
    ) {
      const before = this.staleFiles(e).join('\n');
      e.touched.delete(rel);
      e.diskStale = e.diskStale.filter((f) => f !== rel);
      if (this.staleFiles(e).join('\n') !== before) this.fire(e);
      return;
    }
    // Only what a build reads is stale at once; other files (editor settings, a JSON of the app's)
    // wait for the verdict, which knows the inputs.
    if (MAYBE_INPUT.test(rel)) {
      const first = !e.touched.has(rel);
      e.touched.set(rel, ++this.touchSeq);
      if (first && !e.diskStale.includes(rel)) this.fire(e);
    }
    this.scheduleStatus(e);
  }

  private scheduleStatus(e: Entry): void {
    clearTimeout(e.statusTimer);
    e.statusTimer = setTimeout(() => {
      e.statusTimer = undefined;
      void this.refreshStatus(e);
      this.quiet.changed();
    }, STATUS_DEBOUNCE_MS);
  }

  private dirtyKeys = new Set<string>();

  private dirtyMaybeChanged(doc: vscode.TextDocument): void {
    const k = doc.uri.toString();
    const dirty = doc.isDirty && !doc.isClosed;
    if (dirty === this.dirtyKeys.has(k)) return;
    if (dirty) this.dirtyKeys.add(k);
    else this.dirtyKeys.delete(k);
    // Dirty to clean without closing: saved (or reverted). Either way the file is what the disk
    // holds now, which the manifest has not judged yet: it stays stale until it has (ADR 90),
    // unless it is what the graph was built from.
    if (!dirty && !doc.isClosed) this.sourceChanged(doc.uri, doc.getText());
    // The dirty set changed, so the stale set may have: say so even when the touch above did not
    // (a saved file the build may not read leaves the stale set at once).
    const key = this.folderOf(doc.uri);
    const e = key ? this.entries.get(key) : undefined;
    if (e) this.fire(e);
  }

  /** Unsaved files a build may read (an unsaved editor setting or an app's JSON leaves the graph as it is). */
  private dirtyFiles(e: Entry): string[] {
    const out: string[] = [];
    for (const k of this.dirtyKeys) {
      const rel = this.relativePath(e.key, vscode.Uri.parse(k));
      if (rel && MAYBE_INPUT.test(rel)) out.push(rel);
    }
    return out;
  }

  private staleFiles(e: Entry): string[] {
    if (e.state.kind !== 'ready') return [];
    const dirty = this.dirtyFiles(e);
    if (dirty.length === 0 && e.touched.size === 0) return e.diskStale;
    return [...new Set([...e.diskStale, ...e.touched.keys(), ...dirty])].sort();
  }

  private publicState(e: Entry): FolderGraphState {
    return { ...e.state, staleFiles: this.staleFiles(e) };
  }

  private fire(e: Entry): void {
    this.emitter.fire(e.key);
    this.quiet.changed();
  }

  private stampOf(file: string): string | undefined {
    try {
      const st = fs.statSync(file);
      return `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch {
      return undefined;
    }
  }

  private load(e: Entry): Promise<void> {
    const where = this.graphPathOf(e.folder);
    const stamp = where.ok ? this.stampOf(where.path) : undefined;
    // The watcher and the end of a build both ask for the graph a build wrote: it is read once.
    if (stamp !== undefined && e.pending?.stamp === stamp) return e.pending.done;
    this.loads++;
    const done = this.loadNow(e).finally(() => {
      this.loads--;
      this.quiet.changed();
    });
    if (stamp !== undefined) e.pending = { stamp, done };
    return done.finally(() => {
      if (e.pending?.done === done) e.pending = undefined;
    });
  }

  private async loadNow(e: Entry): Promise<void> {
    const seq = ++e.loadSeq;
    const where = this.graphPathOf(e.folder);
    const base = {
      folder: e.key,
      folderName: e.folder.name,
      callsLayer: false,
      staleFiles: [] as string[],
      building: e.state.building,
      buildFailure: e.state.buildFailure,
    };
    if (!where.ok) {
      this.install(e, undefined);
      e.state = { ...base, graphPath: '', kind: 'unusable', reason: `${where.reason}. Fix the knowledgeGraph.graphPath setting.` };
      return this.fire(e);
    }
    const file = where.path;
    const stamp = this.stampOf(file);
    if (stamp === undefined) {
      this.install(e, undefined);
      e.loadedStamp = undefined;
      e.state = { ...base, graphPath: file, kind: 'absent', reason: 'No graph has been built for this folder yet.' };
      this.log.info(`${e.folder.name}: no graph at ${file}`);
      return this.fire(e);
    }
    // The same graph: its manifest may be new (a build writes it after the graph), so judge again.
    if (stamp === e.loadedStamp && e.worker?.alive) return this.refreshStatus(e);
    if (!e.worker) {
      e.state = { ...base, graphPath: file, kind: 'loading' };
      this.fire(e);
    }
    const t0 = Date.now();
    const worker: GraphWorkerClient = new GraphWorkerClient(this.workerScript, (reason) => {
      if (e.worker !== worker) return;
      this.log.error(`${e.folder.name}: ${reason}`);
      this.install(e, undefined);
      e.state = { ...base, graphPath: file, kind: 'unusable', reason: `${reason}. Show the log, then rebuild or reload the window.` };
      this.fire(e);
    });
    const job = worker.request('load', { file });
    this.inFlight.add(job);
    let info;
    try {
      info = await job;
    } catch (err) {
      info = { ok: false as const, code: 'UNREADABLE' as const, reason: (err as Error).message };
    } finally {
      this.inFlight.delete(job);
      this.quiet.changed();
    }
    if (seq !== e.loadSeq || !this.entries.has(e.key)) {
      void worker.terminate();
      return;
    }
    if (!info.ok) {
      void worker.terminate();
      this.install(e, undefined);
      e.loadedStamp = stamp;
      // The words a person reads; the code stays the machine's (ADR 91).
      const reason = describeUnavailable(info, path.basename(file));
      e.state = { ...base, graphPath: file, kind: 'unusable', code: info.code, reason };
      this.log.warn(`${e.folder.name}: the graph at ${file} cannot be used: ${reason}`);
      return this.fire(e);
    }
    // The guard's baselines for breaks it reported survive the rebuild their own save triggered
    // (ADR-73, ADR-84): the old worker hands them to the new one before it answers anything.
    const held = await this.heldBaselines(e.worker);
    if (held.length > 0) await worker.request('guardRestore', { held }).catch(() => null);
    if (seq !== e.loadSeq || !this.entries.has(e.key)) {
      void worker.terminate();
      return;
    }
    // The verdict on the working tree comes from the new graph's manifest before the graph is shown:
    // a file saved during the build, or a graph built from older text, is never shown fresh (ADR 90).
    const verdict = await this.verdict(e, worker, file);
    if (seq !== e.loadSeq || !this.entries.has(e.key)) {
      void worker.terminate();
      return;
    }
    this.install(e, worker, verdict);
    // Touched while the verdict ran: judged again, or they would stay stale until the next touch.
    if ([...e.touched.values()].some((t) => t > (verdict?.covers ?? -1))) this.scheduleStatus(e);
    e.loadedStamp = stamp;
    this.gen++;
    e.state = {
      ...base,
      graphPath: file,
      kind: 'ready',
      nodes: info.nodes,
      edges: info.edges,
      layers: info.layers,
      callsLayer: info.callsLayer,
      signature: info.signature,
      ...(info.repository !== undefined ? { repository: info.repository } : {}),
    };
    this.log.info(
      `${e.folder.name}: graph loaded in ${Date.now() - t0} ms (${info.nodes} nodes, ${info.edges} edges, layers ${info.layers.join(', ')})`,
    );
    this.fire(e);
  }

  private async heldBaselines(w: GraphWorkerClient | undefined): Promise<HeldBaselines> {
    if (!w?.alive) return [];
    try {
      return await w.request('guardHeld', {});
    } catch {
      return [];
    }
  }

  /** Makes `worker` the folder's graph (or none), stopping the one it replaces, with its verdict. */
  private install(e: Entry, worker: GraphWorkerClient | undefined, verdict?: Verdict): void {
    const old = e.worker;
    e.worker = worker;
    e.graphNo++;
    e.diskStale = [];
    e.built = {};
    if (verdict) this.apply(e, verdict);
    if (old && old !== worker) void old.terminate();
  }

  /**
   * The manifest's verdict on the working tree for the graph `w` holds, and the touches it covers
   * (those before it began). Unknown (no manifest yet, or one of another graph): no touch is cleared.
   */
  private async verdict(e: Entry, w: GraphWorkerClient, file: string): Promise<Verdict | undefined> {
    const covers = this.touchSeq;
    const job = w.request('status', { root: e.folder.uri.fsPath, file });
    this.inFlight.add(job);
    try {
      const s = await job;
      if (!s.known) {
        this.log.info(`${e.folder.name}: cannot tell whether the graph is stale: ${s.reason}`);
        return { changed: [], covers: -1 };
      }
      return { changed: s.changedFiles, covers, built: s.built };
    } catch (err) {
      this.log.debug(`status failed: ${(err as Error).message}`);
      return undefined;
    } finally {
      this.inFlight.delete(job);
      this.quiet.changed();
    }
  }

  /** Takes a verdict in; true when the stale set changed. */
  private apply(e: Entry, v: Verdict): boolean {
    const before = this.staleFiles(e).join('\n');
    e.diskStale = v.changed;
    if (v.built) e.built = v.built;
    for (const [f, seq] of e.touched) if (seq <= v.covers) e.touched.delete(f);
    const after = this.staleFiles(e);
    if (after.join('\n') === before) return false;
    if (v.changed.length > 0)
      this.log.info(
        `${e.folder.name}: ${v.changed.length} file(s) changed since the build: ${v.changed.slice(0, 10).join(', ')}${v.changed.length > 10 ? ', …' : ''}`,
      );
    return true;
  }

  private async refreshStatus(e: Entry): Promise<void> {
    const w = e.worker;
    if (!w || e.state.kind !== 'ready') return;
    const v = await this.verdict(e, w, e.state.graphPath);
    if (!v) return;
    // The graph was replaced meanwhile: this verdict was the old graph's; the new one judges again.
    if (e.worker !== w) return this.refreshStatus(e);
    if (this.apply(e, v)) this.fire(e);
  }

  dispose(): void {
    for (const k of [...this.entries.keys()]) this.remove(k);
    this.disposables.forEach((d) => d.dispose());
  }
}
