// The messages between the graph service (extension host) and its worker thread. The worker holds
// the graph and its indexes; the host only ever receives small answers (counts, a few ids, one
// node's neighbours), so a million-edge graph never crosses into, nor blocks, the shared extension
// host (docs/adr/0060-the-graph-lives-in-a-worker-thread.md). No `vscode` here: the benchmark and
// unit tests drive the worker from plain Node.

import type { DegradeCode, GraphNode, Guarded, GuardDiagnostic, Mode, NodeKind, QueryRequest, QueryResult, WhyResult } from '../graph';
import type { CallSite, NodeDetails } from './graph-access';

/** What a load found: the graph's size and layers, or the loader's degrade. */
type LoadInfo =
  | { ok: true; nodes: number; edges: number; layers: string[]; callsLayer: boolean; loadMs: number }
  | { ok: false; code: DegradeCode; reason: string };

/** The manifest's verdict on the working tree: which files changed since the build, or why it cannot tell. */
type StatusInfo = { known: true; changedFiles: string[] } | { known: false; reason: string };

/** A declaration that gets a callers lens: where it is (1-based line and UTF-16 column). */
export interface FileSymbol {
  id: string;
  kind: NodeKind;
  label: string;
  line: number;
  column: number;
}

/** Proven callers and guesses, counted exactly as `kg callers` lists them. */
export interface CallerCounts {
  callers: number;
  candidates: number;
}

/** One group of a node's neighbours: one relation, one direction. */
export interface NeighbourGroup {
  relation: string;
  direction: 'in' | 'out';
  /** At most the budget asked for: EXACT first, then CANDIDATE, then UNRESOLVED, each in id order (ADR 91). */
  items: CallSite[];
  /** How many there are in all (more than `items.length` when the budget cut them). */
  total: number;
  /** How many of `total` are EXACT (proven). */
  proven: number;
}

/** What the guard says about one edited buffer (ADR-73): diagnostics to show (guarded, strict), lines to log. */
export interface GuardReply {
  diagnostics: GuardDiagnostic[];
  log: string[];
}

/** The baselines the guard holds for reported breaks, per file (EditorGuard.held), carried from one worker to the next. */
export type HeldBaselines = Array<[string, Guarded[]]>;

export interface WorkerRequests {
  load: { args: { file: string }; result: LoadInfo };
  status: { args: { root: string; file: string }; result: StatusInfo };
  query: { args: { request: QueryRequest }; result: QueryResult };
  details: { args: { id: string }; result: NodeDetails | undefined };
  nodes: { args: { ids: string[] }; result: Array<GraphNode | undefined> };
  fileSymbols: { args: { file: string }; result: FileSymbol[] };
  counts: { args: { ids: string[] }; result: Array<CallerCounts | undefined> };
  neighbourGroups: { args: { id: string; budget: number }; result: NeighbourGroup[] };
  doctor: { args: { file: string }; result: { ok: boolean; text: string } };
  /** `kg why` for the declaration whose name spans a position (1-based line, UTF-16 column) of a file (ADR 89). */
  whyAt: { args: { file: string; line: number; column: number }; result: { id: string; answer: WhyResult } | undefined };
  /** The breaking-change guard on an unsaved buffer (repository-relative path), parser only. */
  guard: { args: { file: string; text: string; mode: Mode }; result: GuardReply };
  /** Loads the parser the guard uses, so the first edit does not pay for it; the milliseconds it took. */
  guardWarm: { args: Record<string, never>; result: number };
  /** The baselines held over rebuilds, to hand to the next worker. */
  guardHeld: { args: Record<string, never>; result: HeldBaselines };
  guardRestore: { args: { held: HeldBaselines }; result: null };
  /** "The change is intended": forget the held baseline of one file (all files when absent). */
  guardAccept: { args: { file?: string }; result: null };
}

export type WorkerOp = keyof WorkerRequests;

export interface WorkerRequestMessage<K extends WorkerOp = WorkerOp> {
  seq: number;
  op: K;
  args: WorkerRequests[K]['args'];
}

export type WorkerReplyMessage = { seq: number; ok: true; result: unknown } | { seq: number; ok: false; error: string };
