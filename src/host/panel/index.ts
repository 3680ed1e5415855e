// The graph explorer panel and the path finder view, wired as one unit: the integrator calls
// registerGraphViews from activate() with the graph service (as GraphAccess), the log and the
// build actions. Everything registered here is pushed to the context's subscriptions.

import * as vscode from 'vscode';
import { isUnresolvedId, parseId, UNRESOLVED_PREFIX } from '../../graph';
import type { ShowRequest } from '../../protocol/messages';
import type { GraphAccess } from '../graph-access';
import type { ConnectionDeps, ViewActions } from './webview-connection';
import { ExplorerPanels } from './explorer-panel';
import { PathFinderView } from './path-finder-view';
import { nodeAtCursor } from './symbol-at-cursor';

const GRAPH_VIEW_COMMANDS = {
  openExplorer: 'knowledgeGraph.openExplorer',
  exploreNeighbors: 'knowledgeGraph.exploreNeighbors',
  findPath: 'knowledgeGraph.findPath',
  findPathFrom: 'knowledgeGraph.findPathFrom',
  findPathTo: 'knowledgeGraph.findPathTo',
  /** Not in the palette: what the explorer drew, for the editor tests (docs/adr/0069). */
  explorerDrawn: 'knowledgeGraph.explorer.drawn',
} as const;

const DEFAULT_NODE_CAP = 500;
const DEFAULT_BUDGET = 40;

export interface GraphViewsApi {
  /** What the explorer last drew: its mode and the node ids drawn one by one (folded ones counted). */
  explorerDrawn(): { mode: string; nodes: string[]; aggregated: number } | undefined;
}

/** A node id from a command argument: an id string, or an object carrying one (tree items, lenses). */
function idFromArg(arg: unknown): string | undefined {
  if (typeof arg === 'string' && /^(sym|file|mod|adr|doc|rationale|unresolved):/.test(arg)) return arg;
  if (typeof arg === 'object' && arg !== null) {
    for (const key of ['id', 'nodeId']) {
      const v = (arg as Record<string, unknown>)[key];
      if (typeof v === 'string' && /^(sym|file|mod|adr|doc|rationale|unresolved):/.test(v)) return v;
    }
  }
  return undefined;
}

/** A folder key from a command argument (lenses pass it as a second argument), when it is a known folder. */
function folderFromArg(access: GraphAccess, arg: unknown): string | undefined {
  if (typeof arg === 'string' && access.states().some((s) => s.folder === arg)) return arg;
  if (typeof arg === 'object' && arg !== null) {
    const v = (arg as Record<string, unknown>).folder;
    if (typeof v === 'string' && access.states().some((s) => s.folder === v)) return v;
  }
  return undefined;
}

export function registerGraphViews(
  context: vscode.ExtensionContext,
  access: GraphAccess,
  log: vscode.LogOutputChannel,
  actions: ViewActions,
): GraphViewsApi {
  const pickFolder = (): string | undefined => {
    const editor = vscode.window.activeTextEditor;
    const fromEditor = editor ? access.folderOf(editor.document.uri) : undefined;
    if (fromEditor) return fromEditor;
    const states = access.states();
    return (states.find((s) => s.kind === 'ready') ?? states[0])?.folder;
  };

  const open = async (folder: string, id: string): Promise<void> => {
    const [node] = await access.nodes(folder, [id]);
    if (!node) {
      const p = parseId(id);
      void vscode.window.showInformationMessage(
        isUnresolvedId(id)
          ? `${id.slice(UNRESOLVED_PREFIX.length)} is an unresolved name: there is no declaration to open.`
          : p?.prefix === 'pkg'
            ? `${p.name} is declared in package ${p.pkg}@${p.version} (${p.path}): its source belongs to that package's repository, not to this graph.`
            : `The graph holds no node ${id}.`,
      );
      return;
    }
    // locationOf refuses a file outside the workspace folder (ADR 31's rule), so nothing else opens.
    const location = access.locationOf(folder, node);
    if (!location) {
      void vscode.window.showInformationMessage(`${node.label} has no source position inside the workspace folder.`);
      return;
    }
    await vscode.window.showTextDocument(location.uri, { selection: location.range, viewColumn: vscode.ViewColumn.One, preview: true });
  };

  const deps: ConnectionDeps = {
    access,
    log,
    actions,
    settings: (folder) => {
      const config = vscode.workspace.getConfiguration('knowledgeGraph', folder ? vscode.Uri.parse(folder) : undefined);
      const nodeCap = config.get<number>('explorer.nodeCap', DEFAULT_NODE_CAP);
      const budget = config.get<number>('explorer.budget', DEFAULT_BUDGET);
      return {
        nodeCap: Number.isInteger(nodeCap) && nodeCap >= 10 ? nodeCap : DEFAULT_NODE_CAP,
        budget: Number.isInteger(budget) && budget >= 1 ? Math.min(budget, 5000) : DEFAULT_BUDGET,
      };
    },
    open,
    showInExplorer: (folder, request) => explorer.show(folder, request),
  };
  const explorer = new ExplorerPanels(context.extensionUri, access, deps);
  const pathFinder = new PathFinderView(context.extensionUri, access, deps, pickFolder);

  /** The node a command is about: its argument, else the symbol at the cursor. */
  const target = async (arg: unknown, folderArg?: unknown): Promise<{ folder: string | undefined; id: string | undefined }> => {
    const id = idFromArg(arg);
    if (id) return { folder: folderFromArg(access, folderArg) ?? folderFromArg(access, arg) ?? pickFolder(), id };
    const at = await nodeAtCursor(access, vscode.window.activeTextEditor);
    return at ? { folder: at.folder, id: at.id } : { folder: pickFolder(), id: undefined };
  };

  const explore = async (arg?: unknown, folderArg?: unknown, required = true): Promise<void> => {
    const t = await target(arg, folderArg);
    if (!t.id && required) {
      void vscode.window.showInformationMessage(
        'Place the cursor in a function, class or method (or pick a node in the God Nodes tree) to explore its neighbours.',
      );
      return;
    }
    const request: ShowRequest | undefined = t.id ? { mode: 'neighbors', id: t.id } : undefined;
    explorer.show(t.folder, request);
  };

  const findPath = async (end: 'from' | 'to' | undefined, arg?: unknown, second?: unknown): Promise<void> => {
    if (end === undefined) {
      // findPath(from?, to?): both ids may come from a caller; otherwise From is the cursor's symbol.
      const from = idFromArg(arg);
      const to = idFromArg(second);
      const t = from ? { folder: pickFolder(), id: from } : await target(undefined);
      await pathFinder.show(t.folder, { mode: 'path', from: t.id ?? '', to: to ?? '' });
      return;
    }
    const t = await target(arg, second);
    if (!t.id) {
      void vscode.window.showInformationMessage('Place the cursor in a function, class or method to start or end a path there.');
      return;
    }
    await pathFinder.show(t.folder, end === 'from' ? { mode: 'path', from: t.id, to: '' } : { mode: 'path', from: '', to: t.id });
  };

  context.subscriptions.push(
    explorer,
    pathFinder,
    vscode.commands.registerCommand(GRAPH_VIEW_COMMANDS.openExplorer, (arg?: unknown, folderArg?: unknown) =>
      explore(arg, folderArg, false),
    ),
    vscode.commands.registerCommand(GRAPH_VIEW_COMMANDS.exploreNeighbors, (arg?: unknown, folderArg?: unknown) =>
      explore(arg, folderArg, true),
    ),
    vscode.commands.registerCommand(GRAPH_VIEW_COMMANDS.findPath, (from?: unknown, to?: unknown) => findPath(undefined, from, to)),
    vscode.commands.registerCommand(GRAPH_VIEW_COMMANDS.findPathFrom, (arg?: unknown, folderArg?: unknown) =>
      findPath('from', arg, folderArg),
    ),
    vscode.commands.registerCommand(GRAPH_VIEW_COMMANDS.findPathTo, (arg?: unknown, folderArg?: unknown) => findPath('to', arg, folderArg)),
    vscode.commands.registerCommand(GRAPH_VIEW_COMMANDS.explorerDrawn, () => explorer.drawn),
  );
  return { explorerDrawn: () => explorer.drawn };
}
