// Answers written for a context window (docs/adr/0103-answers-for-a-context-window.md): every list
// of an answer is cut to a page (`offset`, `limit`), then, while the answer is still over its byte
// budget, the longest list is halved; what is left after the page is counted per list in `omitted`
// (entries before `offset` are not: docs/adr/0161-directed-paths-ambiguous-names-and-pages.md), and
// `more` says, in a sentence, how to ask for the rest. Each node the answer names is placed in
// `locations` as `path:line:column`. The answer's own fields are never renamed or reshaped, so
// what remains is exactly the CLI's answer, shorter.

/** About 4,000 tokens of JSON (ids and paths tokenise at roughly three bytes a token). */
export const DEFAULT_MAX_BYTES = 12_000;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;
/** The most changed files an answer lists (the count of the rest is in `omitted`). */
const MAX_CHANGED_FILES = 20;

export interface AnswerPage {
  offset: number;
  limit: number;
  maxBytes: number;
}

/** How to ask for the next page of a list, for the `more` sentence. */
export type NextPage = (field: string, nextOffset: number) => string;

const size = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/** Every node id an answer names: in lists of ids, in `{id}` objects, and its own `id`. */
function namedIds(answer: Record<string, unknown>, isId: (s: string) => boolean): string[] {
  const out = new Set<string>();
  const visit = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      if (isId(v)) out.add(v);
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
    } else if (v !== null && typeof v === 'object' && depth < 3) {
      const o = v as Record<string, unknown>;
      for (const k of ['id', 'source', 'target']) if (typeof o[k] === 'string') visit(o[k], depth + 1);
    }
  };
  for (const [k, v] of Object.entries(answer)) if (k !== 'changedFiles' && k !== 'locations') visit(v, 0);
  return [...out];
}

export interface Fitted {
  answer: Record<string, unknown>;
  /** Per list, how many entries come after the page and are not shown (ADR 161). */
  omitted: Record<string, number>;
}

/**
 * Cuts `answer` to the page and the byte budget, adds `locations`, `omitted` and `more`.
 * `locate` gives `path:line:column` of a node id (undefined for ids without a position).
 */
export function fitAnswer(
  answer: Record<string, unknown>,
  page: AnswerPage,
  locate: (id: string) => string | undefined,
  nextPage: NextPage,
): Fitted {
  const out: Record<string, unknown> = { ...answer };
  const omitted: Record<string, number> = {};
  const totals: Record<string, number> = {};
  const lists = Object.keys(out).filter((k) => Array.isArray(out[k]) && k !== 'changedFiles');
  // An answer that cut its own lists says how long they are in `totals` (symbol does).
  const own = (typeof answer.totals === 'object' && answer.totals !== null ? answer.totals : {}) as Record<string, unknown>;
  for (const k of lists) {
    const all = out[k] as unknown[];
    const said = own[k];
    totals[k] = typeof said === 'number' && said > all.length ? said : all.length;
    out[k] = all.slice(page.offset, page.offset + page.limit);
  }
  if (Array.isArray(out.changedFiles) && out.changedFiles.length > MAX_CHANGED_FILES) {
    omitted.changedFiles = out.changedFiles.length - MAX_CHANGED_FILES;
    out.changedFiles = out.changedFiles.slice(0, MAX_CHANGED_FILES);
  }
  const withExtras = (): Record<string, unknown> => {
    for (const k of lists) {
      const shown = (out[k] as unknown[]).length;
      // What is after the page: the entries before `offset` were read already (ADR 161), so a
      // client paging until nothing is omitted stops.
      const left = totals[k] - page.offset - shown;
      if (left > 0) omitted[k] = left;
      else delete omitted[k];
    }
    const locations: Record<string, string> = {};
    for (const id of namedIds(out, (s) => s.includes(':') && locate(s) !== undefined)) locations[id] = locate(id) as string;
    const extras: Record<string, unknown> = { locations };
    if (Object.keys(omitted).length > 0 || out.truncated === true) {
      extras.omitted = { ...omitted };
      extras.more = moreSentence(lists, totals, out, page, omitted, nextPage);
    }
    return { ...out, ...extras };
  };
  let fitted = withExtras();
  // Halve the longest list until the answer fits (or nothing is left to cut).
  while (size(fitted) > page.maxBytes) {
    let longest: string | undefined;
    let longestSize = 0;
    for (const k of lists) {
      const arr = out[k] as unknown[];
      if (arr.length === 0) continue;
      const s = size(arr);
      if (s > longestSize) {
        longest = k;
        longestSize = s;
      }
    }
    if (longest === undefined) break;
    const arr = out[longest] as unknown[];
    out[longest] = arr.slice(0, Math.floor(arr.length / 2));
    fitted = withExtras();
  }
  return { answer: fitted, omitted: { ...omitted } };
}

function moreSentence(
  lists: string[],
  totals: Record<string, number>,
  out: Record<string, unknown>,
  page: AnswerPage,
  omitted: Record<string, number>,
  nextPage: NextPage,
): string {
  const parts: string[] = [];
  for (const k of lists) {
    if (!omitted[k]) continue;
    const shown = (out[k] as unknown[]).length;
    const from = page.offset;
    const head = `${k}: ${shown} of ${totals[k]} shown${from > 0 ? ` (from ${from})` : ''}`;
    const next = from + shown;
    parts.push(next < totals[k] ? `${head}; ${nextPage(k, next)}` : head);
  }
  if (out.truncated === true) parts.push('more ids match than are listed: ask with a longer substring');
  if (omitted.changedFiles) parts.push(`changedFiles: ${MAX_CHANGED_FILES} shown, ${omitted.changedFiles} more (kg status lists them all)`);
  return parts.join('. ') + '.';
}
