// The guard as the extension host holds it, one per workspace folder (ADR-73): the loaded graph's
// index, the resolved mode, and one call per edit that returns everything the host shows —
// diagnostics for guarded/strict, log lines for shadow. Parsing is injected (the facade passes
// declaredSymbols, which loads the compiler bundle lazily), so this file stays compiler-free and
// is tested with a stub.

import type { Graph } from '../model';
import { breakingChanges, buildGuardIndex, type BreakingChange, type CurrentSymbol, type GuardIndex } from './breaking';
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
  private mode: Mode = 'off';

  constructor(private readonly declare: (relPath: string, text: string) => readonly CurrentSymbol[]) {}

  /** On each graph load (and reload after autoIndex); undefined when the graph is unavailable. */
  setGraph(graph: Graph | undefined): void {
    this.index = graph ? buildGuardIndex(graph) : undefined;
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
    let changes: BreakingChange[];
    try {
      changes = breakingChanges(this.index as GuardIndex, relPath, this.declare(relPath, text));
    } catch (e) {
      return { changes: [], diagnostics: [], log: [`guard: ${relPath}: not compared (${(e as Error)?.message ?? String(e)})`] };
    }
    return { changes, diagnostics: guardDiagnostics(changes, this.mode), log: changes.map((c) => `guard: ${c.file}: ${formatBreakingChange(c)}`) };
  }
}
