// The folders the graph service holds (src/host/graph-service.ts answers over them): one graph
// per workspace folder, each held by a worker thread, reloaded when graph.json changes on disk (a
// build here, a `git pull`, a CLI build), and one state per folder published on one event.
// Staleness is the manifest's verdict on the working tree (the same one `kg status` gives) plus
// the editors with unsaved changes. Why a worker, and why a new one per load:
// docs/adr/0060-the-graph-lives-in-a-worker-thread.md.

import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeUnavailable, GRAPH_DIR } from '../graph';
import type { FolderGraphState } from './graph-access';
import { type Entry, MAYBE_INPUT, newEntry, stampOf, staleFilesOf, type Verdict } from './graph-entry';
import { resolveGraphPath } from './graph-path';
import { Quiet } from './quiet';
import { GraphWorkerClient } from './graph-worker-client';
import type { HeldBaselines } from '../protocol/graph-worker';

const RELOAD_DEBOUNCE_MS = 150;
const STATUS_DEBOUNCE_MS = 400;

export class GraphFolders implements vscode.Disposable {
  protected readonly entries = new Map<string, Entry>();
  private readonly emitter = new vscode.EventEmitter<string>();
  readonly onDidChangeState = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];
  protected gen = 0;
  private touchSeq = 0;

  constructor(
    protected readonly workerScript: string,
    protected readonly log: vscode.LogOutputChannel,
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

  folderOf(uri: vscode.Uri): string | undefined {
    const f = vscode.workspace.getWorkspaceFolder(uri);
    return f && this.entries.has(f.uri.toString()) ? f.uri.toString() : undefined;
  }

  relativePath(folder: string, uri: vscode.Uri): string | undefined {
    const e = this.entries.get(folder);
    if (!e || uri.scheme !== e.folder.uri.scheme) return undefined;
    const rel = path.relative(e.folder.uri.fsPath, uri.fsPath);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  private loads = 0;
  protected readonly quiet = new Quiet(
    () =>
      this.loads > 0 ||
      this.inFlight.size > 0 ||
      [...this.entries.values()].some((e) => e.state.kind === 'loading' || e.reloadTimer !== undefined || e.statusTimer !== undefined),
  );

  // ---- internals -----------------------------------------------------------------------------

  private readonly inFlight = new Set<Promise<unknown>>();

  private graphPathOf(folder: vscode.WorkspaceFolder): { ok: true; path: string } | { ok: false; reason: string } {
    if (folder.uri.scheme !== 'file')
      return { ok: false, reason: `"${folder.name}" is not on the local file system (${folder.uri.scheme}:)` };
    return resolveGraphPath(folder.uri.fsPath, vscode.workspace.getConfiguration('knowledgeGraph', folder.uri).get<string>('graphPath'));
  }

  private add(folder: vscode.WorkspaceFolder): void {
    const where = this.graphPathOf(folder);
    const entry = newEntry(folder, where.ok ? where.path : '');
    this.entries.set(entry.key, entry);
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

  protected staleFiles(e: Entry): string[] {
    return staleFilesOf(e, e.state.kind === 'ready' ? this.dirtyFiles(e) : []);
  }

  protected publicState(e: Entry): FolderGraphState {
    return { ...e.state, staleFiles: this.staleFiles(e) };
  }

  protected fire(e: Entry): void {
    this.emitter.fire(e.key);
    this.quiet.changed();
  }

  protected load(e: Entry): Promise<void> {
    const where = this.graphPathOf(e.folder);
    const stamp = where.ok ? stampOf(where.path) : undefined;
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
    const stamp = stampOf(file);
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
