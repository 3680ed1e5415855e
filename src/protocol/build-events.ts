// The lines of `kg build --progress json` (docs/cli.md).
// Sender: the `kg build` process (src/cli/build.ts), on its stderr, one JSON object per line.
// Receiver: the tools that run it — the editor extension's build service (src/host/cli-build.ts).
// The receiver validates each line with parseBuildEvent: a line that is not an event (a usage
// error, a crash's stack) is text, never a half-read event.

export type BuildEvent =
  | { event: 'log'; level: 'info' | 'warn'; message: string }
  | { event: 'progress'; phase: string; done: number; total: number }
  | { event: 'note'; path: string; reason: string }
  | {
      event: 'done';
      out: string | null;
      nodes: number;
      edges: number;
      layers: string[];
      files: number;
      skipped: number;
      /** The skipped files counted by short reason (src/graph/indexer/files/skips.ts); absent from an older `kg`. */
      skippedBy?: Record<string, number>;
    }
  | { event: 'error'; code: string; message: string };

const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isCounts = (v: unknown): v is Record<string, number> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isCount);

/**
 * "148 files skipped (148 generated, by .gitattributes)": how many files a build skipped and why,
 * the most first (issue 55: a bare count did not say why). The line of `kg build` and of the
 * editor's build notification; `by` absent or empty gives the bare count.
 */
export function skippedText(skipped: number, by?: Readonly<Record<string, number>>): string {
  const head = `${skipped} file${skipped === 1 ? '' : 's'} skipped`;
  const reasons = Object.entries(by ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
    .map(([why, n]) => `${n} ${why}`);
  return reasons.length === 0 ? head : `${head} (${reasons.join('; ')})`;
}

/** An event as the line `kg build --progress json` writes for it (the sender's one way to write one). */
export function buildEventLine(e: BuildEvent): string {
  return JSON.stringify(e) + '\n';
}

/** The event a line holds, checked field by field, or undefined when it is not one. */
export function parseBuildEvent(line: string): BuildEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  switch (v.event) {
    case 'log':
      return (v.level === 'info' || v.level === 'warn') && isString(v.message) ? (v as BuildEvent) : undefined;
    case 'progress':
      return isString(v.phase) && isCount(v.done) && isCount(v.total) ? (v as BuildEvent) : undefined;
    case 'note':
      return isString(v.path) && isString(v.reason) ? (v as BuildEvent) : undefined;
    case 'done':
      return (v.out === null || isString(v.out)) &&
        isCount(v.nodes) &&
        isCount(v.edges) &&
        Array.isArray(v.layers) &&
        v.layers.every(isString) &&
        isCount(v.files) &&
        isCount(v.skipped) &&
        (v.skippedBy === undefined || isCounts(v.skippedBy))
        ? (v as BuildEvent)
        : undefined;
    case 'error':
      return isString(v.code) && isString(v.message) ? (v as BuildEvent) : undefined;
    default:
      return undefined;
  }
}
