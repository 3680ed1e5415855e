// Why a build skipped files, counted by a short reason ("generated, by .gitattributes", "build
// output", "binary"): the summary line of `kg build` and the editor's build notification say
// "148 files skipped (148 generated, by .gitattributes)" instead of a bare count (issue 55). The
// full reason of each file stays in the build's diagnostics.

/** Short reason → how many files were skipped for it. */
export type SkipCounts = Record<string, number>;

/** Counts `n` files skipped for `why`. */
export function countSkip(counts: SkipCounts, why: string, n = 1): void {
  counts[why] = (counts[why] ?? 0) + n;
}

/** The counts of several stages added up, keys in sorted order (the counts are deterministic). */
export function mergeSkips(...parts: readonly SkipCounts[]): SkipCounts {
  const all: SkipCounts = {};
  for (const p of parts) for (const [why, n] of Object.entries(p)) countSkip(all, why, n);
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
