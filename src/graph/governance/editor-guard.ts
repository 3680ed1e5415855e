// The guard as the extension host holds it, one per workspace folder (ADR-73): the loaded graph's
// index, the resolved mode, and one call per edit that returns everything the host shows —
// diagnostics for guarded/strict, log lines for shadow. Parsing is injected (the facade passes
// declaredSymbols, which loads the compiler bundle lazily), so this file stays compiler-free and
// is tested with a stub.

import type { IndexedGraph } from '../graph-index';
import type { Graph } from '../model';
import {
  breakingChanges,
  buildGuardIndex,
  withBaseline,
  type BreakingChange,
  type CurrentSymbol,
  type Guarded,
  type GuardIndex,
} from './breaking';
import type { Mode } from './config';
import { formatBreakingChange, guardDiagnostics, type GuardDiagnostic } from './diagnostics';

export interface GuardResult {
  /** What the edit breaks (computed in shadow, guarded and strict; [] otherwise). */
  changes: BreakingChange[];
  /** What to show: guarded → warnings, strict → errors, other modes → []. */
  diagnostics: GuardDiagnostic[];
  /** One line per change, for the log (the only output in shadow). */
  log: string[];
}

const NOTHING: GuardResult = { changes: [], diagnostics: [], log: [] };

export class EditorGuard {
  private index: GuardIndex | undefined;
  private graphIndex: GuardIndex | undefined;
  private mode: Mode = 'off';
  /**
   * Per file, the baseline of each symbol its last check reported as breaking: what the graph
   * said before the edit. A rebuild from the edited file (autoIndex, on save) records the new
   * signature; without this the warning would vanish on save while the consumers stay broken.
   * It lasts until the edit is undone or accepted (ADR-73).
   */
  private readonly pending = new Map<string, Map<string, Guarded>>();

  constructor(private readonly declare: (relPath: string, text: string) => readonly CurrentSymbol[]) {}

  /**
   * On each graph load (and reload after autoIndex); undefined when the graph is unavailable.
   * Then check the open documents again: their consumers may have changed.
   */
  setGraph(graph: Graph | IndexedGraph | undefined): void {
    this.graphIndex = graph ? buildGuardIndex(graph) : undefined;
    this.rebase();
  }

  /** "The change is intended": forget the pending baseline of `relPath` (or of every file); check again after. */
  accept(relPath?: string): void {
    if (relPath === undefined) this.pending.clear();
    else this.pending.delete(relPath);
    this.rebase();
  }

  /**
   * The baselines held for reported breaks, per file, as plain data: a host that moves to a new
   * graph in a new place (the editor's worker per load, ADR-60) hands them to the next guard's
   * `restoreHeld`, so a break survives the rebuild its own save triggers.
   */
  held(): Array<[string, Guarded[]]> {
    return [...this.pending].map(([file, entries]) => [file, [...entries.values()]]);
  }

  /** Takes over baselines another guard held (`held()`); entries for files already held here are kept. */
  restoreHeld(held: ReadonlyArray<readonly [string, readonly Guarded[]]>): void {
    for (const [file, entries] of held) {
      if (this.pending.has(file) || entries.length === 0) continue;
      this.pending.set(file, new Map(entries.map((g) => [g.node.id, g])));
    }
    this.rebase();
  }

  /** Files with breaking changes held over a rebuild, sorted. */
  pendingFiles(): string[] {
    return [...this.pending.keys()].sort();
  }

  private rebase(): void {
    let index = this.graphIndex;
    if (index) for (const [file, entries] of this.pending) index = withBaseline(index, file, [...entries.values()]);
    this.index = index;
  }

  /** On each change of the resolved mode (`readGraphConfig(...).resolved.mode`). */
  setMode(mode: Mode): void {
    this.mode = mode;
  }

  /** Whether edits are compared at all: shadow, guarded and strict, with a graph that has the calls layer. */
  get active(): boolean {
    return (this.mode === 'shadow' || this.mode === 'guarded' || this.mode === 'strict') && this.index !== undefined && this.index.calls;
  }

  /** Whether an edit of this file (repository-relative, POSIX) can break anything: skip the parse when not. */
  guards(relPath: string): boolean {
    return this.active && (this.index as GuardIndex).guarded.has(relPath);
  }

  /** The edited buffer's text → what it breaks and what to show. Never throws. */
  check(relPath: string, text: string): GuardResult {
    if (!this.guards(relPath)) return NOTHING;
    const index = this.index as GuardIndex;
    let changes: BreakingChange[];
    try {
      changes = breakingChanges(index, relPath, this.declare(relPath, text));
    } catch (e) {
      return { changes: [], diagnostics: [], log: [`guard: ${relPath}: not compared (${(e as Error)?.message ?? String(e)})`] };
    }
    // Remember the baseline of what breaks now (the oldest one wins); forget what was undone.
    const before = this.pending.get(relPath);
    const now = new Map<string, Guarded>();
    const recorded = new Map((index.guarded.get(relPath) ?? []).map((g) => [g.node.id, g]));
    for (const c of changes) {
      const entry = before?.get(c.symbol) ?? recorded.get(c.symbol);
      if (entry) now.set(c.symbol, entry);
    }
    if (now.size > 0) this.pending.set(relPath, now);
    else this.pending.delete(relPath);
    return {
      changes,
      diagnostics: guardDiagnostics(changes, this.mode),
      log: changes.map((c) => `guard: ${c.file}: ${formatBreakingChange(c)}`),
    };
  }
}
