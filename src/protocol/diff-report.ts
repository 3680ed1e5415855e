// The JSON `kg diff` prints (docs/cli.md, "kg diff").
// Sender: `kg diff` (src/cli/diff.ts), on its stdout, one object.
// Receiver: the editor's Compare view (src/host/compare.ts), which runs the bundled `kg diff`.
// The receiver reads it with parseDiffReport: the version checked, and every field the view reads
// checked for its type, so output of another version or that is no report is a message naming
// what is wrong, never a half-read report shown as a diff.

import { DIFF_REPORT_VERSION, type DiffReport } from '../graph';

type Check = (v: unknown, at: string) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const string: Check = (v, at) => (typeof v === 'string' ? undefined : `${at} is not a string`);
const count: Check = (v, at) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? undefined : `${at} is not a count`);
const optional =
  (c: Check): Check =>
  (v, at) =>
    v === undefined ? undefined : c(v, at);
const flag: Check = (v, at) => (v === undefined || v === true ? undefined : `${at} is neither true nor absent`);
const boolean: Check = (v, at) => (typeof v === 'boolean' ? undefined : `${at} is not a boolean`);

function shape(fields: Record<string, Check>): Check {
  return (v, at) => {
    if (!isObject(v)) return `${at} is not an object`;
    for (const [k, c] of Object.entries(fields)) {
      const problem = c(v[k], `${at}.${k}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

function list(c: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return `${at} is not a list`;
    for (let i = 0; i < v.length; i++) {
      const problem = c(v[i], `${at}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

const place = { file: string, line: count, column: count };
const symbolRef = shape({ id: string, label: string, ...place });
const consumer = shape({ id: string, confidence: string, ...place, gone: flag, updated: flag });
const consumers = { proven: list(consumer), guessed: list(consumer) };

/** What the Compare view reads of a report, field by field. */
const REPORT = shape({
  base: shape({ spec: string, commit: optional(string) }),
  head: shape({ spec: string }),
  problems: list(string),
  summary: shape({ breaking: shape({ symbols: count, provenConsumers: count, guessedConsumers: count }) }),
  symbols: shape({
    removed: list(shape({ label: string, ...place, ...consumers })),
    renamed: list(shape({ from: symbolRef, to: symbolRef, matchedBy: string, ...consumers })),
    signatureChanged: list(shape({ label: string, file: string, now: shape({ line: count, column: count }), ...consumers })),
    added: list(shape({ label: string, ...place, exported: boolean })),
  }),
});

/** `kg diff`'s stdout as a report, or what keeps it from being one this reader knows. */
export function parseDiffReport(text: string): { report: DiffReport } | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { problem: 'kg diff printed no JSON' };
  }
  if (!isObject(v)) return { problem: 'kg diff printed no report' };
  if (v.reportVersion !== DIFF_REPORT_VERSION)
    return { problem: `kg diff printed a report of version ${String(v.reportVersion)}; this editor reads version ${DIFF_REPORT_VERSION}` };
  const problem = REPORT(v, 'report');
  return problem === undefined
    ? { report: v as unknown as DiffReport }
    : { problem: `kg diff printed a report this editor cannot read: ${problem}` };
}
