// What every editor surface (lenses, tree, status bar, explorer, path finder) may ask of the
// graph service: one state per workspace folder, published on one event, and queries answered off
// the extension host's thread. The surfaces depend on this interface only, never on how the
// service loads, watches or indexes (src/host/graph-service.ts implements it).

import type * as vscode from 'vscode';
import type { DegradeCode, GraphNode, NodeDetails, NodeSearch, QueryRequest, QueryResult } from '../graph';

/** Why a folder's graph cannot answer, or that it can. Exactly one per folder at any time. */
type GraphStateKind =
  /** No graph.json at the folder's graph path. */
  | 'absent'
  /** graph.json exists and is being read (first load or a reload after it changed on disk). */
  | 'loading'
  /** graph.json exists but the loader refused it (`code` and `reason` say why). */
  | 'unusable'
  /** The graph answers. `callsLayer` and `staleFiles` qualify how far. */
  | 'ready';

export interface BuildProgress {
  phase: string;
  done: number;
  total: number;
}

export interface FolderGraphState {
  /** The workspace folder's URI (string form): the key of every per-folder call. */
  folder: string;
  folderName: string;
  /** Absolute path of the graph file (the `knowledgeGraph.graphPath` setting resolved). */
  graphPath: string;
  kind: GraphStateKind;
  /** For `absent` and `unusable`: a sentence a user understands. */
  reason?: string;
  /** For `unusable`: the loader's code (the same codes the CLI's degrades carry). */
  code?: DegradeCode;
  /** For `ready`. */
  nodes?: number;
  edges?: number;
  layers?: string[];
  /** For `ready`: graph.json's `graphSignature` (changes with any node or relation; the explorer checks a restored picture against it). */
  signature?: string;
  /** For `ready`: the repository the graph names (graph.json's `repository`, ADR 108); the key the store knows it by. */
  repository?: string;
  /** False when the graph was built without the calls layer (`--extract-only`). */
  callsLayer: boolean;
  /** Repo-relative POSIX paths changed since the build (disk and unsaved editors), sorted; [] when fresh. */
  staleFiles: string[];
  /** Set while a build of this folder runs (the previous graph, if any, still answers). */
  building?: BuildProgress;
  /** Why the last build of this folder failed, until one succeeds (the previous graph, if any, still answers). */
  buildFailure?: string;
}

// The answers' types are the query catalogue's (src/graph/query).
export type { CallSite, NodeDetails, NodeSearch } from '../graph';

export interface GraphAccess {
  /** Fires with the folder key whenever that folder's state or graph changed. */
  readonly onDidChangeState: vscode.Event<string>;
  /** Every workspace folder's state, in workspace-folder order. */
  states(): FolderGraphState[];
  state(folder: string): FolderGraphState | undefined;
  /** The folder key of the workspace folder holding `uri`, if any. */
  folderOf(uri: vscode.Uri): string | undefined;
  /** The CLI's answer to a query (the same JSON `kg <query>` prints, degrades included). */
  ask(folder: string, request: QueryRequest): Promise<QueryResult>;
  /** Details of one node, or undefined when the graph cannot answer or has no such node. */
  details(folder: string, id: string): Promise<NodeDetails | undefined>;
  /** Nodes whose name or place holds `text`, best first, at most `limit` (empty when the graph cannot answer). */
  search(folder: string, text: string, limit: number): Promise<NodeSearch>;
  /** The nodes for these ids (undefined for ids the graph does not hold), in the same order. */
  nodes(folder: string, ids: string[]): Promise<Array<GraphNode | undefined>>;
  /**
   * Where a node's declaration is, as a location inside the folder; undefined when it has no
   * position or its file would lie outside the workspace folder (never opened, ADR 31's rule).
   */
  locationOf(folder: string, node: GraphNode): vscode.Location | undefined;
}
