// The breaking-change guard in the editor (ADR-73; docs/configuration.md, "What each mode does"):
// while the user edits a TypeScript or JavaScript file, the unsaved buffer goes to the folder's
// graph worker (debounced), which compares what the file declares now with the graph, parser
// only, and answers with plain diagnostics and log lines. Here they become `vscode.Diagnostic`s
// in the "knowledgeGraph" collection (guarded: warnings, strict: errors), each consumer's use
// site a related location; in shadow they only go to the log. The host never sees the graph
// (docs/adr/0084-the-guard-runs-where-the-graph-is.md).

import * as vscode from 'vscode';
import { GUARD_CODE, GUARD_SOURCE, type GuardDiagnostic, type Mode } from '../graph';
import type { FolderConfigs } from './folder-config';
import type { GraphService } from './graph-service';
import { editorSurfaces, GUARD_DEBOUNCE_MS, SOURCE_LANGUAGES } from './modes';
import { Quiet } from './quiet';

const ACCEPT_BREAKING_CHANGE_COMMAND = 'knowledgeGraph.acceptBreakingChange';

export class BreakingChangeGuard implements vscode.Disposable, vscode.CodeActionProvider {
  private readonly collection = vscode.languages.createDiagnosticCollection('knowledgeGraph');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Per document, the newest check: an older answer arriving late is dropped. */
  private readonly seq = new Map<string, number>();
  /** Per document, the log lines last written, so each finding is logged once, not per keystroke. */
  private readonly logged = new Map<string, string>();
  /** Per folder, the graph generation and state the documents were last checked against. */
  private readonly seen = new Map<string, string>();
  /** Folder and graph generation whose worker has loaded the parser (a new graph is a new worker). */
  private readonly warmed = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly graph: GraphService,
    private readonly configs: FolderConfigs,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions = [
      this.collection,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document);
      }),
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      graph.onDidChangeState((folder) => this.graphChanged(folder)),
      configs.onDidChange((folder) => this.recheck(folder)),
      vscode.commands.registerCommand(ACCEPT_BREAKING_CHANGE_COMMAND, (folder: string, file: string) => this.accept(folder, file)),
      vscode.languages.registerCodeActionsProvider(
        SOURCE_LANGUAGES.map((language) => ({ language, scheme: 'file' })),
        this,
        { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
      ),
    ];
    for (const d of vscode.workspace.textDocuments) this.schedule(d);
  }

  /** The folder's resolved mode; off for a file outside every folder. */
  private modeOf(folder: string | undefined): Mode {
    return (folder && this.configs.config(folder)?.resolved.mode) || 'off';
  }

  private graphChanged(folder: string): void {
    // The state fires for every dirty flag; only a new graph (or one that can no longer answer)
    // changes what the guard says.
    const s = this.graph.state(folder);
    const key = `${this.graph.generation}:${s?.kind}`;
    if (this.seen.get(folder) === key) return;
    this.seen.set(folder, key);
    this.recheck(folder);
  }

  /** Checks every open document of the folder again (a new graph, a new mode). */
  private recheck(folder: string): void {
    const warm = `${folder}\u0000${this.graph.generation}`;
    if (editorSurfaces(this.modeOf(folder)).guard && this.graph.state(folder)?.kind === 'ready' && !this.warmed.has(warm)) {
      this.warmed.add(warm);
      // The first edit would otherwise pay for loading the parser (ADR-73).
      void this.graph.guardWarm(folder).then((ms) => ms !== undefined && this.log.debug(`guard: parser loaded in ${Math.round(ms)} ms`));
    }
    for (const d of vscode.workspace.textDocuments) {
      if (this.graph.folderOf(d.uri) === folder) this.schedule(d, 0);
    }
  }

  private schedule(doc: vscode.TextDocument, delay = GUARD_DEBOUNCE_MS): void {
    if (doc.uri.scheme !== 'file' || !SOURCE_LANGUAGES.includes(doc.languageId)) return;
    const k = doc.uri.toString();
    clearTimeout(this.timers.get(k));
    this.timers.set(
      k,
      setTimeout(() => {
        this.timers.delete(k);
        const job = this.check(doc);
        this.inFlight.add(job);
        void job.finally(() => {
          this.inFlight.delete(job);
          this.quiet.changed();
        });
      }, delay),
    );
  }

  private async check(doc: vscode.TextDocument): Promise<void> {
    const k = doc.uri.toString();
    const n = (this.seq.get(k) ?? 0) + 1;
    this.seq.set(k, n);
    if (doc.isClosed) return this.forget(doc.uri);
    const folder = this.graph.folderOf(doc.uri);
    const mode = this.modeOf(folder);
    const rel = folder && this.graph.relativePath(folder, doc.uri);
    if (!folder || !rel || !editorSurfaces(mode).guard || this.graph.state(folder)?.kind !== 'ready') {
      this.collection.delete(doc.uri);
      this.logged.delete(k);
      return;
    }
    const reply = await this.graph.guard(folder, rel, doc.getText(), mode);
    if (this.seq.get(k) !== n || doc.isClosed) return;
    // No answer (the graph is being replaced): keep what is shown until the next check.
    if (!reply) return;
    const diagnostics = editorSurfaces(mode).diagnostics ? reply.diagnostics.map((d) => this.toDiagnostic(folder, d)) : [];
    this.collection.set(doc.uri, diagnostics);
    const lines = reply.log.map((line) => `${mode}: ${line}`);
    const text = lines.join('\n');
    if (text !== (this.logged.get(k) ?? '')) {
      this.logged.set(k, text);
      for (const line of lines) this.log.info(line);
    }
  }

  private toDiagnostic(folder: string, d: GuardDiagnostic): vscode.Diagnostic {
    const range = new vscode.Range(d.range.line - 1, d.range.column - 1, d.range.endLine - 1, d.range.endColumn - 1);
    const out = new vscode.Diagnostic(
      range,
      d.message,
      d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
    );
    out.source = GUARD_SOURCE;
    out.code = d.code;
    out.relatedInformation = d.related.flatMap((r) => {
      const uri = this.graph.fileUri(folder, r.file);
      return uri
        ? [
            new vscode.DiagnosticRelatedInformation(
              new vscode.Location(uri, new vscode.Position(r.line - 1, Math.max(0, r.column - 1))),
              r.message,
            ),
          ]
        : [];
    });
    return out;
  }

  private forget(uri: vscode.Uri): void {
    const k = uri.toString();
    clearTimeout(this.timers.get(k));
    this.timers.delete(k);
    this.quiet.changed();
    this.seq.set(k, (this.seq.get(k) ?? 0) + 1);
    this.logged.delete(k);
    this.collection.delete(uri);
  }

  /** "The change is intended" on a guard diagnostic: after the rebuild, the new signature is the baseline. */
  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === GUARD_SOURCE && d.code === GUARD_CODE);
    const folder = this.graph.folderOf(doc.uri);
    const rel = folder && this.graph.relativePath(folder, doc.uri);
    if (ours.length === 0 || !folder || !rel) return [];
    const action = new vscode.CodeAction(
      'Knowledge Graph: the change is intended (stop reporting it once the graph is rebuilt)',
      vscode.CodeActionKind.QuickFix,
    );
    action.diagnostics = ours;
    action.command = { title: action.title, command: ACCEPT_BREAKING_CHANGE_COMMAND, arguments: [folder, rel] };
    return [action];
  }

  private async accept(folder: string, file: string): Promise<void> {
    await this.graph.guardAccept(folder, file);
    this.log.info(`guard: ${file}: breaking changes accepted; the graph's next build is the baseline`);
    const uri = this.graph.fileUri(folder, file);
    const doc = uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (doc) this.schedule(doc, 0);
  }

  /** What the collection shows for a document now (for the in-host tests). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private readonly quiet = new Quiet(() => this.timers.size > 0 || this.inFlight.size > 0);

  /** Resolves once no check is waiting or running (told by the checks themselves, src/host/quiet.ts). */
  settled(): Promise<void> {
    return this.quiet.whenQuiet();
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.quiet.changed();
    this.subscriptions.forEach((d) => d.dispose());
  }
}
