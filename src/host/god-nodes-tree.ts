// The "God Nodes" tree in the Knowledge Graph activity-bar container: the most connected nodes
// (the CLI's `god-nodes`, in its order), each expandable to its neighbours grouped by relation and
// direction with each edge's confidence. With no graph the view's welcome content offers a build;
// an unusable or stale graph says so in the view's message, with the fix.

import * as vscode from 'vscode';
import type { GraphNode, NodeKind } from '../graph';
import { OPEN_NODE_COMMAND } from './commands';
import type { CallSite, FolderGraphState } from './graph-access';
import type { EditorGraphAccess } from './editor-graph-access';
import type { NeighbourGroup } from '../protocol/graph-worker';
import { codeOnlyNote, describeState, godNodeTooltip, isCodeNode, neighbourTooltip } from './graph-text';
import { untrustedMarkdown } from './markdown-string';

const GOD_NODES_VIEW = 'knowledgeGraph.godNodes';

type Element =
  | { type: 'folder'; folder: string; name: string }
  | { type: 'node'; folder: string; id: string; node?: GraphNode; degree: number }
  | { type: 'group'; folder: string; id: string; group: NeighbourGroup }
  /** `id` too, so the context menu's commands get the node as they do from a god node. */
  | { type: 'neighbour'; folder: string; id: string; site: CallSite; node?: GraphNode; group: NeighbourGroup }
  | { type: 'info'; label: string; tooltip?: string };

const ICONS: Record<NodeKind, string> = {
  module: 'folder',
  file: 'file-code',
  function: 'symbol-function',
  class: 'symbol-class',
  method: 'symbol-method',
  property: 'symbol-property',
  interface: 'symbol-interface',
  enum: 'symbol-enum',
  type: 'symbol-parameter',
  variable: 'symbol-variable',
  namespace: 'symbol-namespace',
  rationale: 'book',
  'doc-concept': 'note',
};

/** How a group of neighbours reads: "calls" out, "called by" in, and so on. */
const GROUP_LABEL: Record<string, [string, string]> = {
  calls: ['calls', 'called by'],
  imports: ['imports', 'imported by'],
  're-exports': ['re-exports', 're-exported by'],
  contains: ['contains', 'contained in'],
  extends: ['extends', 'extended by'],
  implements: ['implements', 'implemented by'],
  inherits: ['inherits', 'inherited by'],
  overrides: ['overrides', 'overridden by'],
  references: ['references', 'referenced by'],
  cites: ['cites', 'cited by'],
};
const GROUP_ORDER = ['calls', 'extends', 'implements', 'inherits', 'overrides', 'imports', 're-exports', 'references', 'cites', 'contains'];

/** A node's label as a row shows it: the folder at the root is "(root folder)", not ".". */
function displayLabel(node: GraphNode | undefined, id: string): string {
  if (!node) return id;
  return node.kind === 'module' && node.label === '.' ? '(root folder)' : node.label;
}

function groupLabel(g: { relation: string; direction: 'in' | 'out' }): string {
  const pair = GROUP_LABEL[g.relation] ?? [g.relation, `${g.relation} (in)`];
  return g.direction === 'out' ? pair[0] : pair[1];
}

export class GodNodesTree implements vscode.TreeDataProvider<Element>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Element | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<Element>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly graph: EditorGraphAccess) {
    this.view = vscode.window.createTreeView(GOD_NODES_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions = [
      this.changed,
      this.view,
      graph.onDidChangeState(() => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('knowledgeGraph.godNodes') || e.affectsConfiguration('knowledgeGraph.neighbors')) this.refresh();
      }),
    ];
    this.refresh();
  }

  private lastShape = '';

  private refresh(): void {
    const states = this.graph.states();
    this.updateMessage(states);
    // The welcome view ("Build Knowledge Graph") shows while no folder has a graph file at all.
    void vscode.commands.executeCommand(
      'setContext',
      'knowledgeGraph.noGraph',
      states.length > 0 && states.every((s) => s.kind === 'absent'),
    );
    void vscode.commands.executeCommand('setContext', 'knowledgeGraph.multiRoot', states.length > 1);
    // Only a new graph (or a change of kind) re-lists the nodes; staleness alone keeps the tree as it is.
    const shape = states.map((s) => `${s.folder}|${s.kind}|${s.nodes}|${s.edges}`).join(';') + `#${this.graph.generation}`;
    if (shape !== this.lastShape) {
      this.lastShape = shape;
      this.changed.fire(undefined);
    }
  }

  private updateMessage(states: FolderGraphState[]): void {
    const notes: string[] = [];
    for (const s of states) {
      const who = states.length > 1 ? `${s.folderName}: ` : '';
      // A failed build is said as one, with why and where, as the status bar says it: a build by
      // hand would fail again, so "stale … Build" would send the user round in a circle (ADR 91).
      if (!s.building && s.buildFailure !== undefined && s.kind !== 'unusable') notes.push(`${who}${describeState(s)}`);
      else if (s.kind === 'unusable')
        notes.push(`${who}the graph cannot be used: ${s.reason ?? 'unknown reason'}. Run "Knowledge Graph: Rebuild (full)".`);
      else if (s.kind === 'absent' && states.some((o) => o.kind !== 'absent'))
        notes.push(`${who}no graph yet. Run "Knowledge Graph: Build Knowledge Graph".`);
      else if (s.kind === 'ready' && s.staleFiles.length > 0)
        notes.push(
          `${who}stale: ${s.staleFiles.length} ${s.staleFiles.length === 1 ? 'file' : 'files'} changed since the build. Run "Knowledge Graph: Build Knowledge Graph" to refresh.`,
        );
      else if (s.kind === 'ready' && !s.callsLayer)
        notes.push(`${who}built without the calls layer: call edges are missing. Run "Knowledge Graph: Rebuild (full)".`);
      if (s.building)
        notes.push(`${who}building (${s.building.phase} ${s.building.done}/${s.building.total}); the current graph answers meanwhile.`);
      const left = s.kind === 'ready' ? (this.leftOut.get(s.folder) ?? 0) : 0;
      if (left > 0) notes.push(codeOnlyNote(left, who));
    }
    this.view.message = notes.length > 0 ? notes.join('\n') : undefined;
  }

  getTreeItem(e: Element): vscode.TreeItem {
    switch (e.type) {
      case 'folder': {
        const item = new vscode.TreeItem(e.name, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon('root-folder');
        item.description = this.graph.state(e.folder)?.kind === 'ready' ? undefined : this.graph.state(e.folder)?.kind;
        return item;
      }
      case 'info': {
        const item = new vscode.TreeItem(e.label, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('info');
        item.tooltip = e.tooltip;
        return item;
      }
      case 'node': {
        const item = new vscode.TreeItem(displayLabel(e.node, e.id), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${e.folder}\u0000${e.id}`;
        // Files are named by their base name (several may be index.ts): the folder follows the degree.
        const dir =
          e.node?.kind === 'file' && e.node.sourceFile?.includes('/')
            ? e.node.sourceFile.slice(0, e.node.sourceFile.lastIndexOf('/'))
            : undefined;
        item.description = dir ? `${e.degree} · ${dir}` : String(e.degree);
        item.iconPath = new vscode.ThemeIcon(e.node ? ICONS[e.node.kind] : 'circle-outline');
        item.tooltip = untrustedMarkdown(godNodeTooltip(e.id, e.node, e.degree));
        item.contextValue = 'kgNode';
        if (e.node) item.command = { title: 'Open Declaration', command: OPEN_NODE_COMMAND, arguments: [e.folder, e.node] };
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(groupLabel(e.group), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${e.folder}\u0000${e.id}\u0000${e.group.relation}\u0000${e.group.direction}`;
        item.iconPath = new vscode.ThemeIcon(e.group.direction === 'out' ? 'arrow-right' : 'arrow-left');
        // Proof and guesses apart in the count too: "40 of 473 · 12 proven" (ADR 91).
        const shown = e.group.total > e.group.items.length ? `${e.group.items.length} of ${e.group.total}` : String(e.group.total);
        item.description = e.group.proven < e.group.total ? `${shown} · ${e.group.proven} proven` : shown;
        return item;
      }
      case 'neighbour': {
        const s = e.site;
        const unresolved = s.confidence === 'UNRESOLVED' && !e.node;
        const item = new vscode.TreeItem(e.node ? displayLabel(e.node, s.id) : (s.name ?? s.id), vscode.TreeItemCollapsibleState.None);
        const where = e.node?.sourceFile ? `${e.node.sourceFile}${e.node.line ? `:${e.node.line}` : ''}` : '';
        item.description = [
          s.confidence === 'EXACT'
            ? 'exact'
            : s.confidence === 'CANDIDATE'
              ? 'candidate (by name)'
              : `unresolved${s.reason ? `: ${s.reason}` : ''}`,
          where,
        ]
          .filter(Boolean)
          .join(' · ');
        item.iconPath = unresolved
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
          : s.confidence === 'CANDIDATE'
            ? new vscode.ThemeIcon(e.node ? ICONS[e.node.kind] : 'question', new vscode.ThemeColor('descriptionForeground'))
            : new vscode.ThemeIcon(e.node ? ICONS[e.node.kind] : 'circle-outline');
        // A neighbour on the far end of an incoming edge (a caller, an importer, a record citing
        // it) opens where it uses this node, the edge's evidence, as the references peek does; an
        // outgoing one (a callee) opens its declaration (ADR 91).
        const atSite = e.group.direction === 'in' && s.evidence !== undefined;
        item.tooltip = untrustedMarkdown(
          neighbourTooltip(s.id, s.confidence, s.evidence) + (atSite ? '\n\nClick to open the call site; right-click for more.' : ''),
        );
        if (e.node) {
          item.contextValue = 'kgNode';
          item.command = atSite
            ? { title: 'Open Call Site', command: OPEN_NODE_COMMAND, arguments: [e.folder, e.node, s.evidence] }
            : { title: 'Open Declaration', command: OPEN_NODE_COMMAND, arguments: [e.folder, e.node] };
        }
        return item;
      }
    }
  }

  async getChildren(e?: Element): Promise<Element[]> {
    if (!e) {
      const states = this.graph.states();
      if (states.length > 1) return states.map((s) => ({ type: 'folder', folder: s.folder, name: s.folderName }));
      return states[0] ? this.godNodes(states[0].folder) : [];
    }
    switch (e.type) {
      case 'folder':
        return this.godNodes(e.folder);
      case 'node': {
        const budget = vscode.workspace.getConfiguration('knowledgeGraph.neighbors', vscode.Uri.parse(e.folder)).get<number>('budget', 40);
        const groups = await this.graph.neighbourGroups(e.folder, e.id, Math.max(1, budget));
        const rank = (g: NeighbourGroup) => GROUP_ORDER.indexOf(g.relation) * 2 + (g.direction === 'in' ? 0 : 1);
        return groups.sort((a, b) => rank(a) - rank(b)).map((group) => ({ type: 'group', folder: e.folder, id: e.id, group }));
      }
      case 'group': {
        const nodes = await this.graph.nodes(
          e.folder,
          e.group.items.map((s) => s.id),
        );
        return e.group.items.map((site, i) => ({ type: 'neighbour', folder: e.folder, id: site.id, site, node: nodes[i], group: e.group }));
      }
      default:
        return [];
    }
  }

  private async godNodes(folder: string): Promise<Element[]> {
    const state = this.graph.state(folder);
    if (!state || state.kind !== 'ready') {
      // The view's message (or its welcome content) says why; a folder row of a multi-root tree says it too.
      if (this.graph.states().length > 1 && state)
        return [
          {
            type: 'info',
            label:
              state.kind === 'absent'
                ? 'No graph yet: run Build Knowledge Graph'
                : state.kind === 'loading'
                  ? 'Loading…'
                  : `Unavailable: ${state.reason ?? ''}`,
          },
        ];
      return [];
    }
    const settings = vscode.workspace.getConfiguration('knowledgeGraph.godNodes', vscode.Uri.parse(folder));
    const count = Math.max(1, Math.floor(settings.get<number>('count', 25)));
    const codeOnly = settings.get<boolean>('codeOnly', true);
    // Code only (ADR 98): the CLI's ranking, read further down until `count` code nodes are found;
    // what was passed over is counted and said in the view's message.
    let ask = codeOnly ? count * 2 : count;
    for (;;) {
      const r = await this.graph.ask(folder, { query: 'god-nodes', top: ask });
      if (!r.available || !('godNodes' in r)) return [{ type: 'info', label: r.available ? 'No answer' : `Unavailable: ${r.reason}` }];
      const nodes = await this.graph.nodes(
        folder,
        r.godNodes.map((g) => g.id),
      );
      const rows = r.godNodes.map((g, i) => ({ type: 'node' as const, folder, id: g.id, node: nodes[i], degree: g.degree }));
      if (!codeOnly) return this.noteLeftOut(folder, 0, rows);
      const code = rows.filter((e) => isCodeNode({ id: e.id, kind: e.node?.kind ?? 'file' }));
      if (code.length >= count || r.godNodes.length < ask) {
        const kept = code.slice(0, count);
        const last = kept.length > 0 ? rows.indexOf(kept[kept.length - 1]) : rows.length - 1;
        return this.noteLeftOut(folder, last + 1 - kept.length, kept);
      }
      ask *= 2;
    }
  }

  /** Documentation left out of each folder's list, for the view's message. */
  private readonly leftOut = new Map<string, number>();

  private noteLeftOut(folder: string, n: number, rows: Element[]): Element[] {
    if ((this.leftOut.get(folder) ?? 0) !== n) {
      this.leftOut.set(folder, n);
      this.updateMessage(this.graph.states());
    }
    return rows;
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }
}
