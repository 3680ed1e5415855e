// A ref typed into "Compare With…" (issue 55, item 9): any name git accepts for a commit (HEAD~1, a
// tag, a SHA, main@{yesterday}), validated by the very function `kg diff` validates its ref with
// (resolveRef in src/git/plumbing.ts), so the pick accepts exactly what the command it runs accepts.
// No `vscode`: tested against a real repository (test/integration/host-typed-ref.test.ts).

import { RefError, resolveRef } from '../git/plumbing';

export type TypedRef = { ok: true; ref: string; commit: string } | { ok: false; reason: string };

/** What `text` names in the repository at `root`; undefined for blank text. */
export function typedRef(root: string, text: string): TypedRef | undefined {
  const ref = text.trim();
  if (ref === '') return undefined;
  try {
    return { ok: true, ref, commit: resolveRef(root, ref).commit };
  } catch (e) {
    if (e instanceof RefError) return { ok: false, reason: e.message };
    throw e;
  }
}
