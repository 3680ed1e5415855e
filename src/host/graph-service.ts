// THE graph service: what every editor surface asks of the folders' graphs (GraphAccess, and the
// editor's own per-file requests), answered by each folder's worker, and what the build service
// tells it while a build runs. How the folders are held, loaded and judged stale:
// src/host/graph-folders.ts.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GraphNode, Mode, QueryRequest, QueryResult, WhyResult } from '../graph';
import type { BuildProgress, FolderGraphState, NodeDetails, NodeSearch } from './graph-access';
import type { BuildListener, EditorGraphAccess } from './editor-graph-access';
import type { Entry } from './graph-entry';
import { GraphFolders } from './graph-folders';
import { fileInsideFolder } from './graph-path';
import { BUILT_PHASE } from './graph-text';
import { GraphWorkerClient } from './graph-worker-client';
import type { AgentReply, CallerCounts, FileSymbol, GuardReply, NeighbourGroup } from '../protocol/graph-worker';

export class GraphService extends GraphFolders implements EditorGraphAccess, BuildListener {
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
}
