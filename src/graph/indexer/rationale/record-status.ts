// A decision record's `Status:` line: what the record's state is, and which other records it
// amends or supersedes, or is amended or superseded by (ADR 160). The status becomes the `status`
// field of the record's `adr:` node; each relation becomes the `context` of the record's `cites`
// edge to the other record, so the graph can say which records still stand.

import { RECORD_STATUSES, type RecordStatus, type StatusRelation } from '../../model';

export interface StatusLine {
  status: RecordStatus | undefined;
  /** Each record the line relates this one to, in the order written; the first relation to a number wins. */
  relations: Array<{ num: number; relation: StatusRelation }>;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
/**
 * A relation word; a clause (up to `;`, `:`, a bracket or the end of a sentence) relates to the
 * records it names after it. A record that refines another changes part of it: it amends it.
 */
const RELATION_WORD = /\b(amended by|superseded by|refined by|amends|supersedes|refines)\b/gi;
const RELATION_OF: Record<string, StatusRelation> = {
  'amended by': 'amended-by',
  'superseded by': 'superseded-by',
  'refined by': 'amended-by',
  amends: 'amends',
  supersedes: 'supersedes',
  refines: 'amends',
};
const CLAUSE_END = /[;:()]|\.(?=\s|$)/;
/** A record named in prose, as the markdown reader reads mentions: `ADR 7`, `ADR-0007`, `adr:7`. */
const MENTION = /(?<![\w-])ADR[-: ]0*(\d{1,9})(?!\w)/gi;

/**
 * The record's status paragraph: its first line that starts with `Status:` outside fenced code,
 * with the lines that continue it (up to a blank line or a heading), joined with spaces.
 */
export function statusParagraph(text: string): string | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (fence !== undefined) {
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && lines[i].trim() === open[0].trim()) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    if (!/^Status:/i.test(lines[i])) continue;
    const parts = [lines[i]];
    for (let j = i + 1; j < lines.length && lines[j].trim() !== '' && !HEADING.test(lines[j]); j++) parts.push(lines[j].trim());
    return parts.join(' ');
  }
  return undefined;
}

/** Reads a status paragraph (`Status: amended by [ADR 97](0097-….md); amends ADR 23 and ADR 53`). */
export function parseStatusLine(paragraph: string): StatusLine {
  // Links read as their text: `[ADR 97](0097-….md)` is `ADR 97`.
  const plain = paragraph.replace(/^Status:\s*/i, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  const word = /^[a-z]+/i.exec(plain)?.[0].toLowerCase();
  const status = RECORD_STATUSES.find((s) => s === word);
  const relations: StatusLine['relations'] = [];
  const seen = new Set<number>();
  for (const clause of plain.split(CLAUSE_END)) {
    const words = [...clause.matchAll(RELATION_WORD)];
    words.forEach((kw, k) => {
      const relation = RELATION_OF[kw[1].toLowerCase().replace(/\s+/, ' ')];
      const named = clause.slice(kw.index + kw[0].length, words[k + 1]?.index ?? clause.length);
      for (const m of named.matchAll(MENTION)) {
        const num = Number(m[1]);
        if (seen.has(num)) continue;
        seen.add(num);
        relations.push({ num, relation });
      }
    });
  }
  return { status, relations };
}
