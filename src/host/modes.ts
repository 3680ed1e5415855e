// What the resolved mode of a folder's `.knowledge-graph/config.json` turns on in the editor
// (docs/configuration.md, "What each mode does"), which saves rebuild the graph (autoIndex,
// ADR-74), and the log lines a configuration gives. No `vscode` here: the unit tests check the
// table in Node.

import { GRAPH_DIR, type GraphConfigReport, type Mode } from '../graph';

export interface EditorSurfaces {
  /** "N callers" above declarations (and the god-nodes tree, which works in every mode anyway). */
  lenses: boolean;
  /** Edits are compared with the graph (the guard runs in the worker). */
  guard: boolean;
  /** What the guard finds is shown inline: warnings (guarded) or errors (strict). */
  diagnostics: boolean;
}

/**
 * off: nothing inline. shadow (ADR-84): the guard runs and writes to the log only ("nothing inline", so
 * no lenses either: shadow ranks below advisory). advisory: lenses. guarded and strict: lenses
 * and diagnostics.
 */
export function editorSurfaces(mode: Mode): EditorSurfaces {
  switch (mode) {
    case 'off':
      return { lenses: false, guard: false, diagnostics: false };
    case 'shadow':
      return { lenses: false, guard: true, diagnostics: false };
    case 'advisory':
      return { lenses: true, guard: false, diagnostics: false };
    case 'guarded':
    case 'strict':
      return { lenses: true, guard: true, diagnostics: true };
  }
}

/** Quiet time after the last keystroke before the guard compares the buffer (the issue's ~150 ms). */
export const GUARD_DEBOUNCE_MS = 150;

/** The languages the guard compares and whose saves rebuild the graph. */
export const SOURCE_LANGUAGES: readonly string[] = ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'];

const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * Whether saving this file (repository-relative, POSIX) may change the graph and so rebuilds it
 * under autoIndex: a TypeScript or JavaScript source outside the graph's own folder and outside
 * installed packages. A declaration file counts: it declares symbols too.
 */
export function rebuildsOnSave(relPath: string | undefined): boolean {
  if (relPath === undefined || relPath === '' || relPath.startsWith('../')) return false;
  if (!SOURCE_FILE.test(relPath)) return false;
  const parts = relPath.split('/');
  return !parts.includes('node_modules') && parts[0] !== GRAPH_DIR;
}

/**
 * The log lines for a folder's configuration, as read: the resolved mode with the rule that
 * decided it and what was asked, autoIndex, and one line per problem (docs/configuration.md,
 * "Malformed values").
 */
export function configLogLines(folderName: string, c: GraphConfigReport): Array<{ level: 'info' | 'warn'; text: string }> {
  const asked = c.requested.mode !== c.resolved.mode ? ` (requested ${c.requested.mode}: ${c.ruleText})` : '';
  const source = c.found ? c.configFile : `no ${c.configFile}, the shipped defaults`;
  const out: Array<{ level: 'info' | 'warn'; text: string }> = [
    {
      level: 'info',
      text: `${folderName}: mode ${c.resolved.mode}${asked}; autoIndex ${c.resolved.autoIndex ? 'on' : 'off'}; level ${c.resolved.level} (${source})`,
    },
  ];
  for (const p of c.problems) out.push({ level: 'warn', text: `${folderName}: ${c.configFile}: ${p}` });
  return out;
}
