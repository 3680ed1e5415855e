// autoIndex (ADR-74; docs/configuration.md): when a folder's configuration resolves `autoIndex`
// to true, saving a TypeScript or JavaScript file of the folder rebuilds its graph incrementally
// through the same path as the Build command (a `kg build` child process, which hands the work to
// the warm build server, ADR-57). One BuildScheduler per folder: saves are debounced, one build
// runs and at most one waits. The graph service reloads the new graph.json, and the lenses, the
// tree and the guard follow; a failed build leaves the previous graph, and the status bar says
// why. autoIndex keeps an existing graph fresh; it never builds a folder's first graph
// (docs/adr/0083-auto-index-keeps-a-graph-fresh-it-never-starts-one.md).

import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { AUTO_INDEX_DELAY_MS, BuildScheduler } from '../graph';
import type { BuildOutcome, BuildService } from './build-service';
import type { FolderConfigs } from './folder-config';
import type { GraphService } from './graph-service';
import { rebuildsOnSave } from './modes';
import { SaveCoalescer } from './save-coalescer';

export class AutoIndex implements vscode.Disposable {
  private readonly schedulers = new Map<string, BuildScheduler<BuildOutcome>>();
  /** Per folder, which saves a build already reads (issue 55, item 3). */
  private readonly coalescers = new Map<string, SaveCoalescer>();
  /** When the save that the pending or running build answers happened, for the log's timing. */
  private readonly savedAt = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly graph: GraphService,
    private readonly configs: FolderConfigs,
    private readonly builds: BuildService,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidSaveTextDocument((d) => this.saved(d)),
      configs.onDidChange((folder) => {
        if (!this.configs.config(folder)?.resolved.autoIndex) this.stop(folder);
      }),
    ];
  }

  private saved(doc: vscode.TextDocument): void {
    const folder = this.graph.folderOf(doc.uri);
    if (!folder || !this.configs.config(folder)?.resolved.autoIndex) return;
    const state = this.graph.state(folder);
    // No graph yet: building the first one is the user's call (Build, or buildOnOpen).
    if (!state || state.kind === 'absent') return;
    const rel = this.graph.relativePath(folder, doc.uri);
    if (!rebuildsOnSave(rel)) return;
    // A save of the text a build reads already (Ctrl+S after the autosave) queues no second build.
    if (rel !== undefined && !this.coalescer(folder).saved(rel, createHash('sha256').update(doc.getText()).digest('hex'))) {
      this.log.debug(`autoIndex: ${rel} saved with the text a build already reads; no build for it`);
      return;
    }
    if (!this.savedAt.has(folder)) this.savedAt.set(folder, Date.now());
    this.scheduler(folder).request();
  }

  private coalescer(folder: string): SaveCoalescer {
    let c = this.coalescers.get(folder);
    if (!c) {
      c = new SaveCoalescer(
        (file) => this.graph.builtHash(folder, file),
        () => this.graph.graphOf(folder),
      );
      this.coalescers.set(folder, c);
    }
    return c;
  }

  private scheduler(folder: string): BuildScheduler<BuildOutcome> {
    let s = this.schedulers.get(folder);
    if (!s) {
      s = new BuildScheduler<BuildOutcome>(() => this.build(folder), {
        delayMs: AUTO_INDEX_DELAY_MS,
        onSettled: (o) => this.settled(folder, o),
      });
      this.schedulers.set(folder, s);
    }
    return s;
  }

  private async build(folder: string): Promise<BuildOutcome> {
    const wf = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folder));
    if (!wf) return { kind: 'no-folder' };
    // A build by hand (or of another folder) is running: this one follows it, never fails as busy.
    for (;;) {
      await this.builds.whenIdle();
      const started = Date.now();
      const saved = this.savedAt.get(folder) ?? started;
      this.savedAt.delete(folder);
      const coalescer = this.coalescer(folder);
      coalescer.started();
      const outcome = await this.builds.build(wf, { quiet: true });
      if (outcome.kind === 'busy') {
        this.savedAt.set(folder, saved);
        continue;
      }
      if (outcome.kind !== 'built') coalescer.failed();
      if (outcome.kind === 'built')
        this.log.info(`autoIndex: ${wf.name} rebuilt ${Date.now() - saved} ms after the save (the build took ${Date.now() - started} ms)`);
      return outcome;
    }
  }

  private settled(folder: string, o: { ok: true; value: BuildOutcome } | { ok: false; error: unknown }): void {
    if (!o.ok) {
      const reason = (o.error as Error)?.message ?? String(o.error);
      this.log.error(`autoIndex: the build of ${folder} failed: ${reason}`);
    }
  }

  private stop(folder: string): void {
    this.schedulers.get(folder)?.dispose();
    this.schedulers.delete(folder);
    this.coalescers.delete(folder);
    this.savedAt.delete(folder);
  }

  /** Resolves once no autoIndex build waits or runs in any folder (for the in-host tests). */
  async idle(): Promise<void> {
    for (const s of this.schedulers.values())
      while (s.state !== 'idle') await (s.state === 'waiting' ? new Promise((r) => setTimeout(r, 50)) : s.idle());
  }

  dispose(): void {
    for (const k of [...this.schedulers.keys()]) this.stop(k);
    this.subscriptions.forEach((d) => d.dispose());
  }
}
