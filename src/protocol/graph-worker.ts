// The messages between the graph service and its worker thread.
// Sender of WorkerRequestMessage: the graph service in the extension host (src/host/graph-service.ts
// and graph-folders.ts, through graph-worker-client.ts). Sender of WorkerReplyMessage: the worker (src/host/graph-worker.ts),
// one reply per request, echoing its `seq`. Both ends are this extension's own code in one process,
// so messages are typed, not re-validated; the graph questions' arguments are the query
// catalogue's (src/graph/query/catalogue.ts). The worker holds
// the graph and its indexes; the host only ever receives small answers (counts, a few ids, one
// node's neighbours), so a million-edge graph never crosses into, nor blocks, the shared extension
// host (docs/adr/0060-the-graph-lives-in-a-worker-thread.md). No `vscode` here: the benchmark and
// unit tests drive the worker from plain Node.

import type {
  ArgsOf,
  DegradeCode,
  EditorQueryName,
  FileSymbol,
  Guarded,
  GuardDiagnostic,
  Mode,
  QueryRequest,
  QueryResult,
  ResultOf,
} from '../graph';

/** What a load found: the graph's size and layers, or the loader's degrade. */
type LoadInfo =
  | {
      ok: true;
      nodes: number;
      edges: number;
      layers: string[];
      callsLayer: boolean;
      signature: string;
      /** graph.json's `repository` (ADR 108), when it names one. */
      repository?: string;
      loadMs: number;
    }
  | { ok: false; code: DegradeCode; reason: string };

/** The manifest's verdict on the working tree: which files changed since the build, or why it cannot tell. */
/**
 * The manifest's verdict on the working tree, and the SHA-256 it records of each file the build
 * read (sources, markdown, other inputs) by repository-relative path.
 */
type StatusInfo = { known: true; changedFiles: string[]; built: Record<string, string> } | { known: false; reason: string };

// The answers' types are the query catalogue's (src/graph/query).
export type { CallerCounts, FileSymbol, NeighbourGroup } from '../graph';

/** A language-model tool's answer: the JSON for the model, or the error that says what to do. */
export type AgentReply = { ok: true; value: Record<string, unknown> } | { ok: false; text: string };

/** What the guard says about one edited buffer (ADR-73): diagnostics to show (guarded, strict), lines to log. */
export interface GuardReply {
  diagnostics: GuardDiagnostic[];
  log: string[];
}

/** The baselines the guard holds for reported breaks, per file (EditorGuard.held), carried from one worker to the next. */
export type HeldBaselines = Array<[string, Guarded[]]>;

/**
 * The editor's graph questions are the query catalogue's (src/graph/query/catalogue.ts): one
 * request per entry of the `editor` face, its arguments and answer typed by the catalogue.
 */
type CatalogueRequests = { [K in EditorQueryName]: { args: ArgsOf<K>; result: ResultOf<K> } };

/** The worker's own requests: loading, the manifest's verdict, the doctor and the guard. */
interface WorkerOwnRequests {
  load: { args: { file: string }; result: LoadInfo };
  status: { args: { root: string; file: string }; result: StatusInfo };
  /**
   * A tool of `kg mcp` that asks a catalogue question, answered as kg mcp answers it (names
   * resolved, the answer fitted to a context window): the editor's language-model tools.
   */
  agent: {
    args: { tool: string; input: Record<string, unknown>; root: string; file: string; changedFiles?: string[] };
    result: AgentReply;
  };
  /** A question of the query contract (kg callers, …), answered as the CLI answers it. */
  query: { args: { request: QueryRequest }; result: QueryResult };
  doctor: { args: { file: string }; result: { ok: boolean; text: string } };
  /** The breaking-change guard on an unsaved buffer (repository-relative path), parser only. */
  guard: { args: { file: string; text: string; mode: Mode }; result: GuardReply };
  /** Loads the parser the guard uses, so the first edit does not pay for it; the milliseconds it took. */
  guardWarm: { args: Record<string, never>; result: number };
  /** The baselines held over rebuilds, to hand to the next worker. */
  guardHeld: { args: Record<string, never>; result: HeldBaselines };
  guardRestore: { args: { held: HeldBaselines }; result: null };
  /** "The change is intended": forget the held baseline of one file (all files when absent). */
  guardAccept: { args: { file?: string }; result: null };
  /**
   * The declarations of an installed package's source file (`path` relative to the package's
   * folder) that this graph's calls reach, as package-qualified ids (ADR 124): parser only.
   */
  packageFileSymbols: { args: { pkg: string; version: string; path: string; text: string }; result: FileSymbol[] };
}

export type WorkerRequests = WorkerOwnRequests & CatalogueRequests;

export type WorkerOp = keyof WorkerRequests;

export interface WorkerRequestMessage<K extends WorkerOp = WorkerOp> {
  seq: number;
  op: K;
  args: WorkerRequests[K]['args'];
}

export type WorkerReplyMessage = { seq: number; ok: true; result: unknown } | { seq: number; ok: false; error: string };
