// Every command the extension contributes, in one place: the palette's (Build, Rebuild, Show
// Callers, Run Doctor, Show Log), and those the lenses, the tree and the status bar invoke. The
// explorer and the path finder add theirs here too.

import * as vscode from 'vscode';
import { LOADER_CHECKS, type Evidence, type GraphNode } from '../graph';
import { SHOW_LOG_COMMAND, type BuildService } from './build-service';
import { BUILD_COMMAND, REBUILD_COMMAND, SHOW_CALLERS_OF_COMMAND } from './callers-lens';
import type { CallSite } from './graph-access';
import { describeState } from './graph-text';
import type { EditorGraphAccess } from './editor-graph-access';

const SHOW_CALLERS_COMMAND = 'knowledgeGraph.showCallers';
const RUN_DOCTOR_COMMAND = 'knowledgeGraph.runDoctor';
const COPY_ID_COMMAND = 'knowledgeGraph.copyId';
export const OPEN_NODE_COMMAND = 'knowledgeGraph.openNode';
export const STATUS_ACTIONS_COMMAND = 'knowledgeGraph.statusActions';
const FOCUS_TREE_COMMAND = 'knowledgeGraph.godNodes.focus';

/** What the tree passes to its context-menu commands. */
interface NodeRef {
  folder: string;
  id: string;
}

function isNodeRef(v: unknown): v is NodeRef {
  return typeof v === 'object' && v !== null && typeof (v as NodeRef).folder === 'string' && typeof (v as NodeRef).id === 'string';
}

type CallerItem = vscode.QuickPickItem & { location?: vscode.Location };

export class Commands {
  constructor(
    private readonly graph: EditorGraphAccess,
    private readonly builds: BuildService,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  register(): vscode.Disposable[] {
    const folderArg = (arg: unknown) =>
      arg instanceof vscode.Uri ? arg : isNodeRef(arg) ? vscode.Uri.parse(arg.folder) : (arg as vscode.WorkspaceFolder | undefined);
    return [
      vscode.commands.registerCommand(BUILD_COMMAND, (arg?: vscode.Uri | vscode.WorkspaceFolder) =>
        this.builds.buildCommand(folderArg(arg)),
      ),
      vscode.commands.registerCommand(REBUILD_COMMAND, (arg?: vscode.Uri | vscode.WorkspaceFolder) =>
        this.builds.buildCommand(folderArg(arg), { full: true }),
      ),
      vscode.commands.registerCommand(SHOW_LOG_COMMAND, () => this.log.show()),
      vscode.commands.registerCommand(SHOW_CALLERS_OF_COMMAND, (folder: string, id: string, uri?: vscode.Uri, at?: vscode.Position) =>
        this.showCallersOf(folder, id, uri, at, true),
      ),
      vscode.commands.registerCommand(SHOW_CALLERS_COMMAND, (arg?: unknown) =>
        isNodeRef(arg) ? this.showCallersOf(arg.folder, arg.id) : this.showCallersAtCursor(),
      ),
      vscode.commands.registerCommand(RUN_DOCTOR_COMMAND, () => this.runDoctor()),
      vscode.commands.registerCommand(COPY_ID_COMMAND, async (arg?: unknown) => {
        if (!isNodeRef(arg)) return;
        await vscode.env.clipboard.writeText(arg.id);
        vscode.window.setStatusBarMessage(`Copied ${arg.id}`, 3000);
      }),
      vscode.commands.registerCommand(OPEN_NODE_COMMAND, (folder: string, node: GraphNode, at?: Evidence) => this.open(folder, node, at)),
      vscode.commands.registerCommand(STATUS_ACTIONS_COMMAND, () => this.statusActions()),
    ];
  }

  /** The folder the user means: the active editor's, the only one, or their choice. */
  private async pickFolder(title: string): Promise<string | undefined> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const fromEditor = active && this.graph.folderOf(active);
    if (fromEditor) return fromEditor;
    const states = this.graph.states();
    if (states.length <= 1) return states[0]?.folder;
    const picked = await vscode.window.showQuickPick(
      states.map((s) => ({ label: s.folderName, description: s.kind, folder: s.folder })),
      { title, placeHolder: 'Which folder? Each folder has its own graph.' },
    );
    return picked?.folder;
  }

  /** A node's declaration, or with `at` (an edge's evidence) the place the edge was seen, inside the folder. */
  private async open(folder: string, node: GraphNode, at?: Evidence): Promise<void> {
    const site =
      at && typeof at.file === 'string' && Number.isInteger(at.line) && Number.isInteger(at.column)
        ? this.siteLocation(folder, { id: node.id, confidence: 'EXACT', evidence: at })
        : undefined;
    const loc = site ?? this.graph.locationOf(folder, node);
    if (!loc) {
      void vscode.window.showInformationMessage(`Knowledge Graph: ${node.id} has no place in a source file to open.`);
      return;
    }
    await vscode.window.showTextDocument(loc.uri, { selection: new vscode.Range(loc.range.start, loc.range.start) });
  }

  private siteLocation(folder: string, s: CallSite): vscode.Location | undefined {
    if (!s.evidence) return undefined;
    const uri = this.graph.fileUri(folder, s.evidence.file);
    return uri && new vscode.Location(uri, new vscode.Position(s.evidence.line - 1, Math.max(0, s.evidence.column - 1)));
  }

  /**
   * Callers of one node. From a lens (`peek`): the references peek when all are proven. Otherwise,
   * and whenever there are guesses, a quick pick with proven callers first and guesses marked.
   */
  async showCallersOf(folder: string, id: string, uri?: vscode.Uri, at?: vscode.Position, peek = false): Promise<void> {
    const d = await this.graph.details(folder, id);
    if (!d) {
      void vscode.window.showWarningMessage(
        `Knowledge Graph: ${id} is not in the graph (${this.graph.state(folder)?.reason ?? 'rebuild it'}).`,
      );
      return;
    }
    const showCandidates = vscode.workspace.getConfiguration('knowledgeGraph.codeLens', uri).get<boolean>('showCandidates', true);
    const candidates = showCandidates ? d.candidates : [];
    const proven = d.callers.map((c) => this.siteLocation(folder, c)).filter((l): l is vscode.Location => !!l);
    const origin =
      uri && at
        ? { uri, at }
        : this.graph.locationOf(folder, d.node) && {
            uri: this.graph.locationOf(folder, d.node)!.uri,
            at: this.graph.locationOf(folder, d.node)!.range.start,
          };
    // Callers through a member it implements or overrides (ADR 151): their own section, after the guesses.
    const own = new Set([d.node.id, ...d.callers.map((c) => c.id)]);
    const through = d.dispatched.flatMap((x) => x.callers.filter((c) => !own.has(c.id)).map((c) => ({ site: c, via: x.via })));
    if (d.callers.length === 0 && candidates.length === 0 && through.length === 0) {
      void vscode.window.showInformationMessage(`Knowledge Graph: ${d.node.label} has no caller in the graph, proven or guessed.`);
      return;
    }
    if (peek && candidates.length === 0 && through.length === 0 && origin && proven.length > 0) {
      await vscode.commands.executeCommand('editor.action.showReferences', origin.uri, origin.at, proven);
      return;
    }
    const labels = await this.graph.nodes(
      folder,
      [...d.callers, ...candidates, ...through.map((t) => t.site)].map((c) => c.id),
    );
    const viaLabels = await this.graph.nodes(
      folder,
      through.map((t) => t.via),
    );
    const item = (c: CallSite, i: number, icon: string): CallerItem => {
      const n = labels[i];
      const loc = this.siteLocation(folder, c);
      return {
        label: `$(${icon}) ${n?.label ?? c.id}`,
        description: c.evidence ? `${c.evidence.file}:${c.evidence.line}` : n?.sourceFile,
        detail: c.confidence === 'CANDIDATE' ? 'a guess by name, not proven' : undefined,
        location: loc,
      };
    };
    const items: CallerItem[] = [
      { label: `Proven callers (${d.callers.length})`, kind: vscode.QuickPickItemKind.Separator },
      ...d.callers.map((c, i) => item(c, i, 'check')),
      { label: `Candidates: guesses by name (${candidates.length})`, kind: vscode.QuickPickItemKind.Separator },
      ...candidates.map((c, i) => item(c, d.callers.length + i, 'question')),
      ...(through.length > 0
        ? [
            { label: `Through a member it implements or overrides (${through.length})`, kind: vscode.QuickPickItemKind.Separator },
            ...through.map((t, i) => ({
              ...item(t.site, d.callers.length + candidates.length + i, 'type-hierarchy-sub'),
              detail: `calls ${viaLabels[i]?.label ?? t.via}, proven; a call there may run this one`,
            })),
          ]
        : []),
    ];
    const reached = new Set(through.map((t) => t.site.id)).size;
    const dispatchedNote = reached > 0 ? ` · ${reached} through what it implements or overrides` : '';
    const picked = await vscode.window.showQuickPick(items, {
      title: `Callers of ${d.node.label}: ${d.callers.length} proven · ${candidates.length} ${candidates.length === 1 ? 'candidate' : 'candidates'}${dispatchedNote}`,
      placeHolder: 'Proven callers first; candidates are name matches the type checker did not confirm',
      matchOnDescription: true,
    });
    if (picked?.location) await vscode.window.showTextDocument(picked.location.uri, { selection: picked.location.range });
  }

  /** Show Callers at the cursor: the declaration the cursor is on, or the nearest one above it. */
  async showCallersAtCursor(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const folder = editor && this.graph.folderOf(editor.document.uri);
    const rel = folder && this.graph.relativePath(folder, editor.document.uri);
    if (!editor || !folder || !rel) {
      void vscode.window.showInformationMessage(
        'Knowledge Graph: open a source file of a workspace folder and put the cursor on a function, class or method.',
      );
      return;
    }
    const state = this.graph.state(folder);
    if (state?.kind !== 'ready') {
      void this.offerBuild(folder, `Knowledge Graph: callers are unavailable: ${state?.reason ?? 'no graph'}`);
      return;
    }
    if (state.staleFiles.includes(rel)) {
      const choice = await vscode.window.showWarningMessage(
        `Knowledge Graph: ${rel} changed since the graph was built; its callers may be out of date.`,
        'Rebuild',
        'Show Anyway',
      );
      if (choice === 'Rebuild') return void vscode.commands.executeCommand(BUILD_COMMAND, vscode.Uri.parse(folder));
      if (choice !== 'Show Anyway') return;
    }
    const line = editor.selection.active.line + 1;
    const symbols = await this.graph.fileSymbols(folder, rel);
    const here = symbols.filter((s) => s.line <= line).pop();
    if (!here) {
      void vscode.window.showInformationMessage('Knowledge Graph: the cursor is not in a function, class or method the graph knows.');
      return;
    }
    await this.showCallersOf(folder, here.id, editor.document.uri, new vscode.Position(here.line - 1, here.column - 1));
  }

  private async offerBuild(folder: string, message: string): Promise<void> {
    const choice = await vscode.window.showWarningMessage(message, 'Build Knowledge Graph', 'Show Log');
    if (choice === 'Build Knowledge Graph') await vscode.commands.executeCommand(BUILD_COMMAND, vscode.Uri.parse(folder));
    if (choice === 'Show Log') this.log.show(true);
  }

  async runDoctor(): Promise<{ ok: boolean; text: string } | undefined> {
    const folder = await this.pickFolder('Run Doctor');
    if (!folder) return undefined;
    const report = await this.graph.doctor(folder);
    if (!report) {
      void this.offerBuild(folder, 'Knowledge Graph: there is no graph.json to check in this folder.');
      return undefined;
    }
    for (const line of report.text.split('\n')) (report.ok ? this.log.info : this.log.warn).call(this.log, line);
    this.log.info(LOADER_CHECKS);
    const failing = report.text.split('\n').filter((l) => l.startsWith('FAIL')).length;
    const verdict = report.ok ? 'the schema and all six rules pass' : `${failing} check${failing === 1 ? '' : 's'} fail`;
    const show = report.ok ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(`Knowledge Graph doctor: ${verdict}.`, 'Show Log').then((c) => c && this.log.show(true));
    return report;
  }

  /** The status bar's quick pick: the actions that fit the folder's state. */
  async statusActions(): Promise<void> {
    const folder = await this.pickFolder('Knowledge Graph');
    const state = folder ? this.graph.state(folder) : undefined;
    type Action = vscode.QuickPickItem & { run?: () => unknown };
    const uri = folder ? vscode.Uri.parse(folder) : undefined;
    const actions: Action[] = [];
    const build: Action = {
      label: '$(play) Build Knowledge Graph',
      description: 'incremental when possible',
      run: () => vscode.commands.executeCommand(BUILD_COMMAND, uri),
    };
    const rebuild: Action = {
      label: '$(refresh) Rebuild (full)',
      description: 'everything from scratch',
      run: () => vscode.commands.executeCommand(REBUILD_COMMAND, uri),
    };
    if (state?.building) {
      actions.push({
        label: `$(sync~spin) Building: ${state.building.phase} ${state.building.done}/${state.building.total}`,
        description: 'cancel it from its notification',
      });
    } else if (!state || state.kind === 'absent') {
      actions.push(build);
    } else if (state.kind === 'unusable') {
      actions.push(rebuild, { label: '$(checklist) Run Doctor', run: () => vscode.commands.executeCommand(RUN_DOCTOR_COMMAND) });
    } else if (state.kind === 'ready') {
      if (state.staleFiles.length > 0 || !state.callsLayer) actions.push(build, rebuild);
      actions.push({ label: '$(type-hierarchy) Show God Nodes', run: () => vscode.commands.executeCommand(FOCUS_TREE_COMMAND) });
      if (state.staleFiles.length === 0 && state.callsLayer) actions.push(build, rebuild);
      actions.push({ label: '$(checklist) Run Doctor', run: () => vscode.commands.executeCommand(RUN_DOCTOR_COMMAND) });
    }
    actions.push({ label: '$(output) Show Log', run: () => this.log.show() });
    const picked = await vscode.window.showQuickPick(actions, {
      title: `Knowledge Graph${state ? `: ${state.folderName}` : ''}`,
      placeHolder: state ? describeState(state) : 'No workspace folder',
    });
    await picked?.run?.();
  }
}
