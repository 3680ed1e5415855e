// Each workspace folder's `.knowledge-graph/config.json`, read with the engine's own resolver
// (readGraphConfig: never throws, clamps toward the safe side, ADR-70) when the folder opens and
// again whenever the file is created, changed or deleted. The resolved mode and problems go to
// the "Knowledge Graph" log; the lenses, the guard and autoIndex read `config(folder)` and listen
// to `onDidChange`. A small file read on the host's thread, like the settings: no graph here.

import * as vscode from 'vscode';
import { CONFIG_FILE, nodeFileHost, readGraphConfig, resolveGraphConfig, type GraphConfigReport } from '../graph';
import { configLogLines } from './modes';

const REREAD_DEBOUNCE_MS = 100;

interface FolderEntry {
  folder: vscode.WorkspaceFolder;
  config: GraphConfigReport;
  /** What was last written to the log, to say a change once. */
  logged: string;
  watcher?: vscode.Disposable[];
  timer?: ReturnType<typeof setTimeout>;
}

export class FolderConfigs implements vscode.Disposable {
  private readonly entries = new Map<string, FolderEntry>();
  private readonly emitter = new vscode.EventEmitter<string>();
  /** Fires with the folder key when that folder's resolved configuration changed. */
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];

  constructor(private readonly log: vscode.LogOutputChannel) {
    for (const f of vscode.workspace.workspaceFolders ?? []) this.add(f);
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders((e) => {
        for (const f of e.removed) this.remove(f.uri.toString());
        for (const f of e.added) this.add(f);
      }),
    );
  }

  /** The folder's configuration as it resolves now; undefined for a folder that is not open. */
  config(folder: string): GraphConfigReport | undefined {
    return this.entries.get(folder)?.config;
  }

  private read(folder: vscode.WorkspaceFolder): GraphConfigReport {
    if (folder.uri.scheme !== 'file') {
      // No file to read off the local disk (and no graph either): the shipped defaults.
      return { configFile: CONFIG_FILE, found: false, ...resolveGraphConfig(undefined) };
    }
    return readGraphConfig(nodeFileHost, folder.uri.fsPath);
  }

  private add(folder: vscode.WorkspaceFolder): void {
    const key = folder.uri.toString();
    const entry: FolderEntry = { folder, config: this.read(folder), logged: '' };
    this.entries.set(key, entry);
    this.say(entry);
    if (folder.uri.scheme === 'file') {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, CONFIG_FILE));
      const reread = () => this.schedule(entry);
      entry.watcher = [w, w.onDidCreate(reread), w.onDidChange(reread), w.onDidDelete(reread)];
    }
  }

  private schedule(entry: FolderEntry): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.reread(entry);
    }, REREAD_DEBOUNCE_MS);
  }

  /** Reads the file again now (the watcher does it on every change; tests may call it). */
  reread(entry: FolderEntry | string): void {
    const e = typeof entry === 'string' ? this.entries.get(entry) : entry;
    if (!e || this.entries.get(e.folder.uri.toString()) !== e) return;
    const before = JSON.stringify(e.config.resolved);
    e.config = this.read(e.folder);
    this.say(e);
    if (JSON.stringify(e.config.resolved) !== before) this.emitter.fire(e.folder.uri.toString());
  }

  private say(e: FolderEntry): void {
    const lines = configLogLines(e.folder.name, e.config);
    const text = lines.map((l) => l.text).join('\n');
    if (text === e.logged) return;
    e.logged = text;
    for (const l of lines) {
      if (l.level === 'warn') this.log.warn(l.text);
      else this.log.info(l.text);
    }
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    clearTimeout(e.timer);
    e.watcher?.forEach((d) => d.dispose());
    this.emitter.fire(key);
  }

  dispose(): void {
    for (const k of [...this.entries.keys()]) this.remove(k);
    this.disposables.forEach((d) => d.dispose());
  }
}
