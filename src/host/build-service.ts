// "Knowledge Graph: Build Knowledge Graph": runs the bundled CLI on a workspace folder in a child
// process with a cancellable progress notification, one build at a time, and reports the outcome
// in a notification and the log channel. The previous graph survives a failed or cancelled
// build because the CLI replaces it by an atomic rename or not at all (ADR 31).

import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { runCliBuild, type BuildSummary, type CliEvent } from './cli-build';
import { resolveGraphPath } from './graph-path';
import { skippedText } from '../protocol/build-events';
import type { BuildListener } from './editor-graph-access';

export type BuildOutcome =
  | ({ kind: 'built'; folder: string } & BuildSummary)
  | { kind: 'failed'; folder: string; code: string; message: string }
  | { kind: 'cancelled'; folder: string }
  /** Another build was running; nothing was started. */
  | { kind: 'busy' }
  /** No folder was open or chosen. */
  | { kind: 'no-folder' };

export const SHOW_LOG_COMMAND = 'knowledgeGraph.showLog';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function summaryText(s: BuildSummary): string {
  return `${plural(s.nodes, 'node')}, ${plural(s.edges, 'edge')}, layers ${s.layers.join(', ') || '(none)'}, ${skippedText(s.skipped, s.skippedBy)}`;
}

/**
 * `quiet`: a build nobody asked for by hand (autoIndex after a save, ADR-74): its progress is in
 * the status bar, not a notification, success says nothing, and a failure is said by the status
 * bar and the log instead of a pop-up.
 */
export interface EditorBuildOptions {
  full?: boolean;
  quiet?: boolean;
}

export class BuildService implements vscode.Disposable {
  private running: { folder: string; abort: AbortController; done: Promise<unknown> } | undefined;

  constructor(
    private readonly cli: string,
    private readonly log: vscode.LogOutputChannel,
    /** The graph service: shows "building 120/252" while the previous graph still answers. */
    private readonly listener?: BuildListener,
  ) {}

  get isBuilding(): boolean {
    return this.running !== undefined;
  }

  /** Resolves once no build runs (at once when none does). */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running.done.catch(() => undefined);
  }

  /** Stops the running build, as its notification's Cancel button does. */
  cancel(): boolean {
    if (!this.running) return false;
    this.log.info('Cancel requested: stopping the build process.');
    this.running.abort.abort();
    return true;
  }

  /** Picks the folder(s) to build: the argument, the only folder, or the user's choice. */
  async pickFolders(arg?: vscode.Uri | vscode.WorkspaceFolder): Promise<vscode.WorkspaceFolder[]> {
    if (arg) {
      const uri = arg instanceof vscode.Uri ? arg : arg.uri;
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      return folder ? [folder] : [];
    }
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length <= 1) return [...folders];
    const all = { label: '$(files) All folders', description: `${folders.length} graphs, one per folder`, folders: [...folders] };
    const picked = await vscode.window.showQuickPick(
      [...folders.map((f) => ({ label: f.name, description: f.uri.fsPath, folders: [f] })), all],
      { title: 'Build Knowledge Graph', placeHolder: 'Which folder? Each folder has its own graph.' },
    );
    return picked?.folders ?? [];
  }

  /** The command: builds each chosen folder in turn and returns the last outcome. */
  async buildCommand(arg?: vscode.Uri | vscode.WorkspaceFolder, opts: { full?: boolean } = {}): Promise<BuildOutcome> {
    if (this.running) return this.busy();
    const folders = await this.pickFolders(arg);
    if (folders.length === 0) {
      if (!vscode.workspace.workspaceFolders?.length) {
        void vscode.window.showWarningMessage('Knowledge Graph: open a folder first; the graph is built per workspace folder.');
      }
      return { kind: 'no-folder' };
    }
    let last: BuildOutcome = { kind: 'no-folder' };
    for (const f of folders) {
      last = await this.build(f, opts);
      if (last.kind === 'cancelled' || last.kind === 'busy') break;
    }
    return last;
  }

  private busy(): BuildOutcome {
    const folder = this.running?.folder ?? '';
    this.log.info(`Build requested while the build of ${folder} is running; ignored.`);
    void vscode.window.showInformationMessage(`Knowledge Graph: a build of "${folder}" is already running.`);
    return { kind: 'busy' };
  }

  async build(folder: vscode.WorkspaceFolder, opts: EditorBuildOptions = {}): Promise<BuildOutcome> {
    if (this.running) return opts.quiet ? { kind: 'busy' } : this.busy();
    let finished: () => void = () => {};
    const done = new Promise<void>((r) => (finished = r));
    try {
      return await this.run(folder, opts, done);
    } finally {
      finished();
    }
  }

  private async run(folder: vscode.WorkspaceFolder, opts: EditorBuildOptions, done: Promise<unknown>): Promise<BuildOutcome> {
    const name = folder.name;
    if (folder.uri.scheme !== 'file') {
      return this.fail(
        name,
        'UNSUPPORTED_FOLDER',
        `"${name}" is not on the local file system (${folder.uri.scheme}:)`,
        undefined,
        opts.quiet,
      );
    }
    const root = folder.uri.fsPath;
    const setting = vscode.workspace.getConfiguration('knowledgeGraph', folder.uri).get<string>('graphPath');
    const where = resolveGraphPath(root, setting);
    if (!where.ok) return this.fail(name, 'BAD_GRAPH_PATH', where.reason, undefined, opts.quiet);
    const out = where.path;
    const checker = vscode.workspace.getConfiguration('knowledgeGraph', folder.uri).get<string>('checker') === 'native' ? 'native' : 'js';
    const abort = new AbortController();
    this.running = { folder: name, abort, done };
    this.log.info(`${opts.full ? 'Full build' : opts.quiet ? 'Build after a save (autoIndex)' : 'Build'} started: ${root} → ${out}`);
    let built = false;
    let failure: string | undefined;
    this.listener?.buildStarted(folder);
    try {
      const result = await vscode.window.withProgress(
        opts.quiet
          ? { location: vscode.ProgressLocation.Window, title: `Knowledge Graph: indexing "${name}"` }
          : {
              location: vscode.ProgressLocation.Notification,
              title: `Knowledge Graph: ${opts.full ? 'rebuilding' : 'building'} "${name}"`,
              cancellable: true,
            },
        (progress, token) => {
          token.onCancellationRequested(() => {
            this.log.info('Cancel requested: stopping the build process.');
            abort.abort();
          });
          return runCliBuild({
            cli: this.cli,
            root,
            out,
            full: opts.full,
            checker,
            signal: abort.signal,
            onEvent: (e) => this.onEvent(e, progress, folder),
            onText: (line) => this.log.warn(line),
          });
        },
      );
      if (result.kind === 'cancelled') {
        this.log.info(`Build of ${name} cancelled; ${this.previous(out)}`);
        void vscode.window.showInformationMessage(`Knowledge Graph: build of "${name}" cancelled; ${this.previous(out)}`);
        return { kind: 'cancelled', folder: name };
      }
      if (result.kind === 'failed') {
        failure = result.message;
        return this.fail(name, result.code, result.message, out, opts.quiet);
      }
      built = true;
      const s = result.summary;
      const text = summaryText(s);
      this.log.info(`Built ${name}: ${text} (${s.files} source files, ${s.seconds.toFixed(2)} s) → ${s.out}`);
      if (!opts.quiet) void this.notify('info', `Knowledge Graph: built "${name}": ${text}.`);
      return { kind: 'built', folder: name, ...s };
    } finally {
      this.running = undefined;
      this.listener?.buildEnded(folder, built, failure);
    }
  }

  private onEvent(e: CliEvent, progress: vscode.Progress<{ message?: string }>, folder: vscode.WorkspaceFolder): void {
    switch (e.event) {
      case 'log':
        if (e.level === 'warn') this.log.warn(e.message);
        else this.log.info(e.message);
        if (e.level === 'info') progress.report({ message: e.message });
        break;
      case 'progress':
        this.log.debug(`${e.phase} ${e.done}/${e.total}`);
        progress.report({ message: `${e.phase}: ${e.done} of ${e.total} files` });
        this.listener?.buildProgress(folder, { phase: e.phase, done: e.done, total: e.total });
        break;
      case 'note':
        this.log.info(`skipped or noted: ${e.path}: ${e.reason}`);
        break;
      case 'error':
        this.log.error(`${e.code}: ${e.message}`);
        break;
      case 'done':
        break;
    }
  }

  private previous(out: string | undefined): string {
    if (!out) return 'nothing was written.';
    return fs.existsSync(out) ? 'the previous graph is unchanged.' : 'no graph was written.';
  }

  private fail(name: string, code: string, message: string, out: string | undefined, quiet = false): BuildOutcome {
    this.log.error(`Build of ${name} failed (${code}): ${message}`);
    if (quiet) return { kind: 'failed', folder: name, code, message };
    const reason = message.replace(/[.\s]+$/, ''); // the sentence below supplies the full stop
    void this.notify('error', `Knowledge Graph: the build of "${name}" failed: ${reason}. ${capitalize(this.previous(out))}`);
    return { kind: 'failed', folder: name, code, message };
  }

  private async notify(level: 'info' | 'error', message: string): Promise<void> {
    const show = level === 'info' ? vscode.window.showInformationMessage : vscode.window.showErrorMessage;
    const choice = await show(message, 'Show Log');
    if (choice === 'Show Log') this.log.show(true);
  }

  dispose(): void {
    this.running?.abort.abort();
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
