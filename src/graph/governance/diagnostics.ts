// What the editor shows for breaking changes, as plain data the extension host turns into
// `vscode.Diagnostic`s (ADR-73): the mode decides whether there is anything to show and how
// severe it is; the message says what changed, how many consumers it breaks and where the first
// ones are; related information points at every consumer's use site. No `vscode` here, so it is
// unit-tested without an editor.

import type { Mode } from './config';
import { consumerCount, type BreakingChange, type ConsumerSite } from './breaking';

export const GUARD_SOURCE = 'Knowledge Graph';
export const GUARD_CODE = 'breaks-consumers';

/** 1-based lines and UTF-16 columns, end exclusive (as graph.json's positions). */
interface GuardRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

interface GuardRelated {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface GuardDiagnostic {
  /** The edited file (repository-relative): where the diagnostic goes. */
  file: string;
  range: GuardRange;
  severity: 'warning' | 'error';
  message: string;
  source: typeof GUARD_SOURCE;
  code: typeof GUARD_CODE;
  symbol: string;
  change: BreakingChange['change'];
  /** One per consumer site, in file/line order. */
  related: GuardRelated[];
}

/** guarded → warnings, strict → errors; off, shadow and advisory show none (shadow logs: formatBreakingChange). */
function guardSeverity(mode: Mode): 'warning' | 'error' | undefined {
  return mode === 'strict' ? 'error' : mode === 'guarded' ? 'warning' : undefined;
}

/** How far the message lists consumers by name before "and N more" (the related list has them all). */
const MESSAGE_CONSUMERS = 3;

/** The consuming symbol's name; undefined for a file's top-level code. */
function consumerName(c: ConsumerSite): string | undefined {
  const hash = c.id.indexOf('#');
  return hash >= 0 ? c.id.slice(hash + 1) : undefined;
}

/** `run (src/app.ts:4)`, or `src/app.ts:4 (top level)` for top-level code. */
function consumerAt(c: ConsumerSite): string {
  const name = consumerName(c);
  return name !== undefined ? `${name} (${c.file}:${c.line})` : `${c.file}:${c.line} (top level)`;
}

const RELATION_VERB: Readonly<Record<string, string>> = {
  calls: 'calls',
  extends: 'extends',
  implements: 'implements',
  inherits: 'inherits from',
  references: 'references',
  're-exports': 're-exports',
  imports: 'imports',
};

function what(change: BreakingChange): string {
  switch (change.change) {
    case 'removed':
      return `Removing ${change.kind} ${change.label}`;
    case 'renamed':
      return `Renaming ${change.kind} ${change.label} to ${(change.renamedTo ?? '').slice((change.renamedTo ?? '').indexOf('#') + 1)}`;
    case 'unexported':
      return `Unexporting ${change.kind} ${change.label}`;
    default:
      return `Changing the signature of ${change.kind} ${change.label}`;
  }
}

/** One line that says what breaks and where: the diagnostic's message, the log line, the CLI's note. */
export function formatBreakingChange(change: BreakingChange): string {
  const n = consumerCount(change);
  const files = new Set(change.consumers.map((c) => c.file)).size;
  const seen = new Set<string>();
  const named: string[] = [];
  for (const c of change.consumers) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    if (named.length < MESSAGE_CONSUMERS) named.push(consumerAt(c));
  }
  const more = n - named.length;
  return `${what(change)} breaks ${n} consumer${n === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}: ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

/**
 * The diagnostics for one edited file's breaking changes under `mode` (none below guarded). A
 * symbol that is still there is marked at its name where it is now; a removed or renamed one at
 * the top of the file, since its declaration is gone.
 */
export function guardDiagnostics(changes: readonly BreakingChange[], mode: Mode): GuardDiagnostic[] {
  const severity = guardSeverity(mode);
  if (!severity) return [];
  return changes.map((c) => {
    const name = c.label.slice(c.label.lastIndexOf('.') + 1);
    const range: GuardRange = c.now
      ? { line: c.now.line, column: c.now.column, endLine: c.now.line, endColumn: c.now.column + Math.max(1, name.length) }
      : { line: 1, column: 1, endLine: 1, endColumn: 1 };
    return {
      file: c.file,
      range,
      severity,
      message: formatBreakingChange(c),
      source: GUARD_SOURCE,
      code: GUARD_CODE,
      symbol: c.symbol,
      change: c.change,
      related: c.consumers.map((s) => ({
        file: s.file,
        line: s.line,
        column: s.column,
        message: `${consumerName(s) ?? 'top-level code'} ${RELATION_VERB[s.relation] ?? s.relation} ${c.label} here`,
      })),
    };
  });
}
