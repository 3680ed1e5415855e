// What the editor's own surfaces ask of the graph service beyond GraphAccess (src/host/graph-access.ts),
// and what the build service tells it while a build runs. src/host/graph-service.ts implements both.

import type * as vscode from 'vscode';
import type { WhyResult } from '../graph';
import type { BuildProgress, GraphAccess } from './graph-access';
import type { CallerCounts, FileSymbol, NeighbourGroup } from '../protocol/graph-worker';

/** What the editor's own surfaces ask beyond GraphAccess: the per-file requests the lenses make. */
export interface EditorGraphAccess extends GraphAccess {
  /** The lens-worthy declarations of one file (repo-relative POSIX path), by position. */
  fileSymbols(folder: string, file: string): Promise<FileSymbol[]>;
  /** The same, from the graph `graphNo` (graphOf) only: undefined once it was replaced. */
  fileSymbolsOf(folder: string, file: string, graphNo: number): Promise<FileSymbol[] | undefined>;
  /**
   * The lens-worthy declarations of an installed package's source file that the graph's calls reach,
   * as package-qualified ids (ADR 124), from the graph `graphNo` only.
   */
  packageFileSymbolsOf(
    folder: string,
    args: { pkg: string; version: string; path: string; text: string },
    graphNo: number,
  ): Promise<FileSymbol[] | undefined>;
  /** Caller counts, exactly as `kg callers` lists them, for many ids in one round trip. */
  counts(folder: string, ids: string[], graphNo?: number): Promise<Array<CallerCounts | undefined>>;
  /** A node's neighbours grouped by relation and direction, each group cut at `budget`. */
  neighbourGroups(folder: string, id: string, budget: number): Promise<NeighbourGroup[]>;
  /** The doctor's report on the folder's graph.json. */
  doctor(folder: string): Promise<{ ok: boolean; text: string } | undefined>;
  /** `kg why` for the declaration at a position of a file (1-based line, UTF-16 column), if one is there. */
  whyAt(folder: string, file: string, line: number, column: number): Promise<{ id: string; answer: WhyResult } | undefined>;
  /** `uri` as a repo-relative POSIX path of its folder, if it lies inside it. */
  relativePath(folder: string, uri: vscode.Uri): string | undefined;
  /** A repo-relative path as a URI inside the folder, or undefined when it would leave it (ADR 31). */
  fileUri(folder: string, file: string): vscode.Uri | undefined;
  /** Whether the file (repo-relative) changed since the folder's graph was built, or is unsaved. */
  isStale(folder: string, file: string): boolean;
  /**
   * Which graph the folder holds now: changes whenever its graph is replaced. A surface that
   * drew from one graph asks again with this number, and gets nothing from another (ADR 90).
   */
  graphOf(folder: string): number;
  /** A number that changes whenever any folder's graph is replaced (for caches). */
  readonly generation: number;
}

/** What the build service tells the graph service while a build runs. */
export interface BuildListener {
  buildStarted(folder: vscode.WorkspaceFolder): void;
  buildProgress(folder: vscode.WorkspaceFolder, p: BuildProgress): void;
  /** `failure`: why the build failed (the status bar says it until a build succeeds); undefined when it did not fail. */
  buildEnded(folder: vscode.WorkspaceFolder, built: boolean, failure?: string): void;
}
