// What the UI tests ask of the kg CLI (the repository's dist/cli.js, built in the test's own
// process, never through a build server), and the editor settings for tests that type.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

/** Runs `kg <args>` and returns its stdout; fails the test on a non-zero exit. */
export function kg(...args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, KG_SERVER: 'off' },
    maxBuffer: 1 << 26,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/**
 * Typing in the editor types exactly what is typed: no brackets or quotes closed for us, no
 * suggestion list over the code, no formatting. And no auto-save (the web workbench saves after a
 * second by default): a buffer stays unsaved until the test saves it.
 */
export const PLAIN_TYPING: Record<string, unknown> = {
  'files.autoSave': 'off',
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.suggestOnTriggerCharacters': false,
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.autoIndent': 'none',
  'editor.formatOnType': false,
  'editor.formatOnSave': false,
};
