// "N callers" above every function, class and method the graph has a node for. The ranges come
// first from one per-file request; the titles are resolved lazily, and the lenses VS Code resolves
// together are counted in one request to the worker. A file changed since the build gets a stale
// marker instead of a number (a wrong count is worse than none), and a graph built without its
// calls layer gets one lens saying so (docs/adr/0061-what-a-callers-lens-says.md). The folder's
// mode decides whether there are lenses at all: none in off and shadow (docs/configuration.md).

import * as vscode from 'vscode';
import type { EditorGraphAccess } from './graph-service';
import type { CallerCounts, FileSymbol } from '../protocol/graph-worker';
import { callersTitle } from './graph-text';

/** Whether a folder's mode shows lenses, and when that may have changed (FolderConfigs). */
export interface LensGate {
  lensesOn(folder: string): boolean;
  readonly onDidChange: vscode.Event<string>;
}

export const SHOW_CALLERS_OF_COMMAND = 'knowledgeGraph.showCallersOf';
export const BUILD_COMMAND = 'knowledgeGraph.build';
export const REBUILD_COMMAND = 'knowledgeGraph.rebuild';

class CallersLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly folder: string,
    readonly symbol: FileSymbol,
    readonly uri: vscode.Uri,
  ) {
    super(range);
  }
}

/** The name as it appears in source: a method's label may carry its class (`Greeter.hello`). */
function sourceName(s: FileSymbol): string {
  const dot = s.label.lastIndexOf('.');
  return dot >= 0 ? s.label.slice(dot + 1) : s.label;
}

export class CallersLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Lenses waiting for their counts; flushed as one request per folder. */
  private batch = new Map<string, Array<{ id: string; resolve(c: CallerCounts | undefined): void }>>();
  private flushScheduled = false;

  constructor(
    private readonly graph: EditorGraphAccess,
    private readonly gate?: LensGate,
  ) {
    this.subscriptions = [
      this.changed,
      graph.onDidChangeState(() => this.changed.fire()),
      ...(gate ? [gate.onDidChange(() => this.changed.fire())] : []),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('knowledgeGraph.codeLens')) this.changed.fire();
      }),
    ];
  }

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!vscode.workspace.getConfiguration('knowledgeGraph.codeLens', doc.uri).get<boolean>('enabled', true)) return [];
    const folder = this.graph.folderOf(doc.uri);
    if (!folder || (this.gate && !this.gate.lensesOn(folder))) return [];
    const state = this.graph.state(folder);
    const rel = this.graph.relativePath(folder, doc.uri);
    // Absent and unusable graphs are said once, by the status bar and the tree, not on every file.
    if (!state || state.kind !== 'ready' || !rel) return [];
    const symbols = await this.graph.fileSymbols(folder, rel);
    if (token.isCancellationRequested || symbols.length === 0) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    if (!state.callsLayer) {
      return [
        new vscode.CodeLens(top, {
          title: 'callers: the graph was built without its calls layer — Rebuild',
          tooltip:
            'This graph holds files, symbols and imports only (built with --extract-only), so callers are unknown, not zero. Rebuild to add them.',
          command: REBUILD_COMMAND,
          arguments: [vscode.Uri.parse(folder)],
        }),
      ];
    }
    const placed = symbols.filter((s) => s.line - 1 < doc.lineCount);
    if (state.staleFiles.includes(rel)) {
      const stale = (range: vscode.Range) =>
        new vscode.CodeLens(range, {
          title: 'callers: graph is stale — Rebuild',
          tooltip: `${rel} changed since the graph was built${doc.isDirty ? ' (unsaved changes)' : ''}: the counts would be out of date. Save and rebuild to see them again.`,
          command: BUILD_COMMAND,
          arguments: [vscode.Uri.parse(folder)],
        });
      // Only where the declaration still stands on its recorded line; else once, at the top.
      const still = placed.filter((s) => doc.lineAt(s.line - 1).text.includes(sourceName(s)));
      return still.length > 0 ? still.map((s) => stale(new vscode.Range(s.line - 1, 0, s.line - 1, 0))) : [stale(top)];
    }
    return placed.map((s) => {
      const pos = new vscode.Position(s.line - 1, Math.max(0, s.column - 1));
      return new CallersLens(new vscode.Range(pos, pos), folder, s, doc.uri);
    });
  }

  async resolveCodeLens(lens: vscode.CodeLens): Promise<vscode.CodeLens> {
    if (!(lens instanceof CallersLens)) return lens;
    const counts = await this.count(lens.folder, lens.symbol.id);
    if (!counts) {
      lens.command = { title: 'callers: unknown (the graph is reloading)', command: '' };
      return lens;
    }
    const showCandidates = vscode.workspace.getConfiguration('knowledgeGraph.codeLens', lens.uri).get<boolean>('showCandidates', true);
    const title = callersTitle(counts, showCandidates);
    const clickable = counts.callers > 0 || (showCandidates && counts.candidates > 0);
    lens.command = clickable
      ? {
          title,
          tooltip:
            counts.candidates > 0 && showCandidates
              ? 'Proven callers (the type checker) and guesses (matched by name), kept apart'
              : 'Callers proven by the type checker',
          command: SHOW_CALLERS_OF_COMMAND,
          arguments: [lens.folder, lens.symbol.id, lens.uri, lens.range.start],
        }
      : { title, tooltip: 'No caller in the graph (proven or guessed)', command: '' };
    return lens;
  }

  private count(folder: string, id: string): Promise<CallerCounts | undefined> {
    return new Promise((resolve) => {
      let list = this.batch.get(folder);
      if (!list) this.batch.set(folder, (list = []));
      list.push({ id, resolve });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const batch = this.batch;
    this.batch = new Map();
    this.flushScheduled = false;
    for (const [folder, list] of batch) {
      this.graph
        .counts(
          folder,
          list.map((x) => x.id),
        )
        .then(
          (counts) => list.forEach((x, i) => x.resolve(counts[i])),
          () => list.forEach((x) => x.resolve(undefined)),
        );
    }
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }
}
