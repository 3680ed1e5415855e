// The diff report as a pull-request comment (ADR 105): one summary line, then a collapsed section
// per kind of change with its count and its top entries, each entry a repository-relative link with
// a line anchor. Bounded: at most MARKDOWN_LIMIT characters — past it, sections show fewer entries
// and say how many more there are. Stable between runs: nothing but the report goes in, and a
// hidden marker on the first line lets a CI job find and update its own comment.

import type {
  Consumer,
  Consumers,
  DiffReport,
  DiffSide,
  EdgeCounts,
  RemovedSymbol,
  RenamedSymbol,
  SignatureChange,
  SymbolRef,
} from './report-shape';
import { breaks } from './consumed';
import { DIFF_PICTURE_MAX_NODES, diffPicture } from './change-picture';
import { mermaidPicture } from '../picture/mermaid';

export const MARKDOWN_LIMIT = 60_000;
const COMMENT_MARKER = '<!-- knowledge-graph:diff -->';
/** Entries per section before the size bound starts cutting. */
const TOP = 25;
/** Consumers listed under one symbol. */
const TOP_CONSUMERS = 5;
const LABEL_MAX = 120;

export interface MarkdownOptions {
  /**
   * Prefixes for links, per side: `https://github.com/o/r/blob/<commit>/`. Default: none, so links
   * are repository-relative (`src/a.ts#L3`). `{commit}` is replaced by the side's commit.
   */
  linkBase?: string;
  linkHead?: string;
  limit?: number;
}

// Characters a page acts on rather than shows — C1 controls, line and paragraph separators and the
// bidirectional controls that reorder a line (a file `a\u202Egnp.ts` reads `ast.png`): written as
// `\uXXXX` wherever a path or an id is shown (ADR 144). The same set as io/display.ts's, which this
// pure module may not import.
const SHOWN_RAW = /[\u0080-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const shownRaw = (s: string) => s.replace(SHOWN_RAW, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));

/** Text as markdown shows it literally: escaped, one line, bounded. */
function text(s: string): string {
  const one = shownRaw(s).replace(/[\r\n]+/g, ' ');
  const cut = one.length > LABEL_MAX ? one.slice(0, LABEL_MAX - 1) + '…' : one;
  return cut.replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => '\\' + c);
}

function code(s: string): string {
  const one = shownRaw(s).replace(/[\r\n]+/g, ' ');
  const cut = one.length > LABEL_MAX ? one.slice(0, LABEL_MAX - 1) + '…' : one;
  return '`' + cut.replace(/`/g, "'") + '`';
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

class Links {
  constructor(
    private readonly base: string,
    private readonly head: string,
  ) {}
  static of(report: DiffReport, opts: MarkdownOptions): Links {
    const fill = (t: string | undefined, side: DiffSide) => (t ?? '').replace(/\{commit\}/g, side.commit ?? side.spec);
    return new Links(fill(opts.linkBase, report.base), fill(opts.linkHead, report.head));
  }
  at(side: 'base' | 'head', file: string, line?: number, column?: number): string {
    const target = encodeURI(file)
      .replace(/[()[\]]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
      .replace(/#/g, '%23');
    const shown = text(line === undefined ? file : `${file}:${line}${column === undefined ? '' : `:${column}`}`);
    return `[${shown}](${side === 'base' ? this.base : this.head}${target}${line === undefined ? '' : `#L${line}`})`;
  }
}

function consumerLine(c: Consumer, links: Links): string {
  return `${code(c.id)} ${c.relation} at ${links.at('base', c.file, c.line, c.column)}${c.gone ? ' (gone in head)' : c.updated ? ' (follows the move)' : ''}`;
}

function consumersText(c: Consumers, links: Links): string[] {
  const live = c.proven.filter(breaks);
  const r = c.reach;
  const radius = `reach ${r.proven}${r.capped ? '+' : ''} proven (${plural(r.files, 'file')})${r.guessed > 0 ? `, ${r.guessed} more guessed` : ''}`;
  const distinct = new Set(live.map((x) => x.id)).size;
  const uses = live.length > distinct ? ` (${plural(live.length, 'use')})` : '';
  const head = `  - breaks ${plural(distinct, 'proven consumer')}${uses}${c.guessed.length > 0 ? `, ${c.guessed.length} guessed (name matches)` : ''}; ${radius}`;
  const lines = [head];
  for (const x of c.proven.slice(0, TOP_CONSUMERS)) lines.push(`    - ${consumerLine(x, links)}`);
  if (c.proven.length > TOP_CONSUMERS) lines.push(`    - and ${c.proven.length - TOP_CONSUMERS} more proven`);
  for (const x of c.guessed.slice(0, Math.max(0, TOP_CONSUMERS - c.proven.length))) lines.push(`    - guess: ${consumerLine(x, links)}`);
  return lines;
}

const symLine = (s: SymbolRef, side: 'base' | 'head', links: Links) => `${code(s.label)} (${s.kind}) ${links.at(side, s.file, s.line)}`;

interface Section {
  title: string;
  total: number;
  entries: string[][];
  /** Shown instead of entries: counts by relation and confidence. */
  intro?: string[];
}

function render(report: DiffReport, sections: Section[], top: number, picture: string[]): string {
  const s = report.summary;
  const side = (d: DiffSide) => code(d.commit !== undefined ? d.commit.slice(0, 12) : d.spec);
  const parts: string[] = [];
  if (s.breaking.symbols > 0)
    parts.push(
      `**${plural(s.breaking.symbols, 'changed symbol')} break${s.breaking.symbols === 1 ? 's' : ''} ${plural(s.breaking.provenConsumers, 'proven consumer')}**`,
    );
  else parts.push('**nothing proven breaks**');
  if (s.breaking.guessedConsumers > 0) parts.push(`${s.breaking.guessedConsumers} guessed`);
  parts.push(
    `symbols +${s.symbols.added} −${s.symbols.removed} renamed ${s.symbols.renamed} signature ${s.symbols.signatureChanged}`,
    `files +${s.files.added} −${s.files.removed} renamed ${s.files.renamed}`,
    `edges +${s.edges.added} −${s.edges.removed}`,
  );
  const lines = [
    COMMENT_MARKER,
    '### Knowledge Graph: what this change does to the code graph',
    '',
    `${parts.join(' · ')} — ${side(report.base)} → ${side(report.head)}`,
    '',
    ...picture,
  ];
  for (const sec of sections) {
    if (sec.total === 0) continue;
    lines.push(`<details><summary>${sec.title} (${sec.total})</summary>`, '');
    if (sec.intro) lines.push(...sec.intro, '');
    for (const e of sec.entries.slice(0, top)) lines.push(...e);
    if (!sec.intro && sec.total > Math.min(top, sec.entries.length))
      lines.push(`- and ${sec.total - Math.min(top, sec.entries.length)} more`);
    lines.push('', '</details>', '');
  }
  lines.push(
    '<sub>EXACT consumers are proven by the TypeScript checker; guesses are name matches and are never counted as proof. Full report: `kg diff --format json`.</sub>',
    '',
  );
  return lines.join('\n').replace(/\n*$/, '\n');
}

function countsIntro(counts: EdgeCounts): string[] {
  return Object.entries(counts).map(
    ([rel, c]) =>
      `- ${rel}: ${Object.entries(c)
        .map(([conf, n]) => `${n} ${conf}`)
        .join(', ')}`,
  );
}

/**
 * The picture of the changed symbols and their consumers (diff/change-picture.ts), as a Mermaid block
 * GitHub draws; when it would be too large to read, one line that says so. Its text holds no
 * backtick (mermaid.ts writes each as an entity), so no name can close the fence.
 */
function pictureLines(report: DiffReport): string[] {
  const p = diffPicture(report);
  if (p.picture === undefined)
    return p.nodes === 0
      ? []
      : [
          `<sub>No picture: the changed symbols and their consumers are ${p.nodes} nodes, more than ${DIFF_PICTURE_MAX_NODES}; \`kg export --format mermaid --node <id>\` draws one symbol's neighbourhood.</sub>`,
          '',
        ];
  return [
    `<details open><summary>Picture: the changed symbols and what uses them (${plural(p.nodes, 'node')})</summary>`,
    '',
    '```mermaid',
    mermaidPicture(p.picture).trimEnd(),
    '```',
    '',
    '</details>',
    '',
  ];
}

export function diffMarkdown(report: DiffReport, opts: MarkdownOptions = {}): string {
  const links = Links.of(report, opts);
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const sy = report.symbols;
  const byBreaks = <T extends Consumers>(xs: T[]) =>
    [...xs].sort((a, b) => b.proven.length - a.proven.length || b.reach.proven - a.reach.proven);
  const removed = (r: RemovedSymbol) => [
    `- ${symLine(r, 'base', links)}${r.members ? ` with ${plural(r.members.length, 'member')}` : ''}`,
    ...consumersText(r, links),
  ];
  const renamed = (r: RenamedSymbol) => [
    `- ${symLine(r.from, 'base', links)} → ${code(r.to.label)} ${links.at('head', r.to.file, r.to.line)} (matched by ${r.matchedBy})`,
    ...consumersText(r, links),
  ];
  const changed = (r: SignatureChange) => [
    `- ${code(r.label)} (${r.kind}) ${links.at('head', r.file, r.now.line)}${r.exported.before && !r.exported.after ? ' — no longer exported' : ''}`,
    ...consumersText(r, links),
  ];
  const sections: Section[] = [
    { title: 'Removed symbols', total: sy.removed.length, entries: byBreaks(sy.removed).map(removed) },
    { title: 'Changed signatures', total: sy.signatureChanged.length, entries: byBreaks(sy.signatureChanged).map(changed) },
    { title: 'Renamed or moved to another file', total: sy.renamed.length, entries: byBreaks(sy.renamed).map(renamed) },
    {
      title: 'Possible renames (a guess: listed as removed and added)',
      total: sy.renameCandidates.length,
      entries: sy.renameCandidates.map((c) => [
        `- ${code(c.from)} → ${code(c.to)}: same file, kind and signature; ${c.consumersFollowed} of ${plural(c.consumers, 'proven consumer')} now call${c.consumersFollowed === 1 ? 's' : ''} the new name`,
      ]),
    },
    {
      title: 'Added symbols',
      total: sy.added.length,
      entries: sy.added.map((a) => [`- ${symLine(a, 'head', links)}${a.exported ? ' exported' : ''}`]),
    },
    {
      title: 'New callers of existing symbols',
      total: report.newCallers.length,
      entries: report.newCallers.map((n) => [
        `- ${symLine(n, 'head', links)} ← ${n.callers
          .slice(0, TOP_CONSUMERS)
          .map((c) => `${code(c.id)}${c.confidence === 'EXACT' ? '' : ' (guess)'} at ${links.at('head', c.file, c.line, c.column)}`)
          .join(', ')}${n.callers.length > TOP_CONSUMERS ? `, and ${n.callers.length - TOP_CONSUMERS} more` : ''}`,
      ]),
    },
    {
      title: 'New unresolved calls',
      total: report.newUnresolved.length,
      entries: report.newUnresolved.map((u) => [
        `- ${code(u.name)} (${u.reason}) from ${code(u.source)}${u.file !== undefined ? ` at ${links.at('head', u.file, u.line, u.column)}` : ''}`,
      ]),
    },
    {
      title: 'Records and notes citing what changed',
      total: report.rationale.length,
      entries: report.rationale.map((r) => [
        `- ${code(r.recordLabel)}${r.recordFile !== undefined ? ` ${links.at(r.link === 'removed' ? 'base' : 'head', r.recordFile)}` : ''} ${r.direction === 'record-cites' ? 'cites' : 'is cited by'} ${code(r.cites)} (${r.change}; link ${r.link})`,
      ]),
    },
    {
      title: 'Files',
      total: report.files.added.length + report.files.removed.length + report.files.renamed.length,
      entries: [
        ...report.files.renamed.map((f) => [`- renamed ${code(f.from)} → ${links.at('head', f.to)} (matched by ${f.matchedBy})`]),
        ...report.files.removed.map((f) => [`- removed ${code(f)}`]),
        ...report.files.added.map((f) => [`- added ${links.at('head', f)}`]),
      ],
    },
    {
      title: 'Moved within their file (position only)',
      total: sy.moved.length,
      entries: sy.moved.map((m) => [`- ${code(m.label)} ${links.at('head', m.file, m.to.line)} (was line ${m.from.line})`]),
    },
    { title: 'Edges added', total: report.summary.edges.added, entries: [], intro: countsIntro(report.edges.added.counts) },
    { title: 'Edges removed', total: report.summary.edges.removed, entries: [], intro: countsIntro(report.edges.removed.counts) },
  ];
  // Fewer entries per section until the comment fits; at the last resort, only counts.
  const picture = pictureLines(report);
  for (let top = TOP; ; top = Math.floor(top / 2)) {
    const out = render(report, sections, top, picture);
    if (out.length <= limit || top === 0) return out.length <= limit ? out : out.slice(0, limit - 40) + '\n\n… (cut to fit)\n';
  }
}
