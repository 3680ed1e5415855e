// One workspace folder as the graph service holds it (src/host/graph-service.ts): its state, its
// worker, and the bookkeeping of what is stale — the manifest's verdict, the touches since it began,
// the unsaved files — with the plain functions over it that need no editor.

import * as fs from 'node:fs';
import type * as vscode from 'vscode';
import type { FolderGraphState } from './graph-access';
import type { GraphWorkerClient } from './graph-worker-client';

export interface Entry {
  folder: vscode.WorkspaceFolder;
  key: string;
  state: FolderGraphState;
  worker?: GraphWorkerClient;
  /** The load in progress: only the newest one may install its worker. */
  loadSeq: number;
  /** Size and time of the graph file the worker holds, to skip reloads of an unchanged file. */
  loadedStamp?: string;
  /** Files changed on disk since the build (the manifest's verdict). */
  diskStale: string[];
  /**
   * Files saved or changed on disk since the last verdict began, with the touch's sequence number:
   * stale at once, until a manifest verdict that began after the touch clears them (ADR 90).
   */
  touched: Map<string, number>;
  /** The SHA-256 the loaded graph's manifest records of each file it was built from (the last verdict's). */
  built: Record<string, string>;
  /** Which graph the worker holds (see graphOf). */
  graphNo: number;
  /** The build whose end is being waited for: the status says building until its graph is loaded. */
  buildNo: number;
  /** The load in flight, by the stamp of the file it reads: a second request for it waits on it. */
  pending?: { stamp: string; done: Promise<void> };
  disposables: vscode.Disposable[];
  reloadTimer?: ReturnType<typeof setTimeout>;
  statusTimer?: ReturnType<typeof setTimeout>;
}

/** Files changed since the build, and the last touch (sourceChanged) the verdict covers (-1: none). */
export interface Verdict {
  changed: string[];
  covers: number;
  /** The manifest's hashes (StatusInfo), when it could tell. */
  built?: Record<string, string>;
}

/** Files a build may read (sources, markdown, the configs that shape a project): a touch makes them stale at once. */
export const MAYBE_INPUT = /(\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|md)|(^|\/)(tsconfig[^/]*|jsconfig[^/]*|package)\.json)$/;

/** A folder's entry before its first load. */
export function newEntry(folder: vscode.WorkspaceFolder, graphPath: string): Entry {
  const key = folder.uri.toString();
  return {
    folder,
    key,
    state: {
      folder: key,
      folderName: folder.name,
      graphPath,
      kind: 'loading',
      callsLayer: false,
      staleFiles: [],
    },
    loadSeq: 0,
    diskStale: [],
    touched: new Map(),
    built: {},
    graphNo: 0,
    buildNo: 0,
    disposables: [],
  };
}

/** The files stale for a ready graph: changed on disk, touched since the verdict began, or unsaved (`dirty`). */
export function staleFilesOf(e: Entry, dirty: string[]): string[] {
  if (e.state.kind !== 'ready') return [];
  if (dirty.length === 0 && e.touched.size === 0) return e.diskStale;
  return [...new Set([...e.diskStale, ...e.touched.keys(), ...dirty])].sort();
}

/** Size, time and inode of a file, to tell a graph file replaced from the one loaded; undefined when absent. */
export function stampOf(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return undefined;
  }
}
