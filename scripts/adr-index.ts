// `npm run adr-index`: writes docs/adr/README.md, the index of this repository's decision records,
// from the records' part of its own graph (ADR 160): the `adr:` nodes with their `status`, and the
// `cites` edges between records whose `context` says what a status line relates (amends,
// supersedes, amended-by, superseded-by). The graph's rationale layer reads the records exactly as
// `kg build` does; nothing here reads a record's text. test/unit/adr-index.test.ts fails when the
// checked-in index is not what this writes, and when a relation is said on one side only.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { walk } from '../src/graph/indexer/files/walk';
import { nodeFileHost } from '../src/graph/indexer/files/file-host';
import { DEFAULT_MAX_FILE_BYTES } from '../src/graph/indexer/files/read';
import { RationaleLayer } from '../src/graph/indexer/rationale/rationale';
import { compareStrings, edgeKey, type BuildDiagnostic, type GraphEdge, type GraphNode, type StatusRelation } from '../src/graph/model';

const REPO = path.resolve(__dirname, '..');
const INDEX = 'docs/adr/README.md';

/** The graph's decision records and the citations between them, as a build makes them. */
function recordGraph(root: string): { records: GraphNode[]; edges: GraphEdge[] } {
  const diagnostics: BuildDiagnostic[] = [];
  const layer = RationaleLayer.start({
    host: nodeFileHost,
    root,
    walk: walk(nodeFileHost, root),
    maxFileBytes: DEFAULT_MAX_FILE_BYTES,
    diagnostics,
    summary: {},
  });
  const out = layer.finish([]);
  // One edge per (source, target, relation), the first kept, as the build composes them.
  const edges = new Map<string, GraphEdge>();
  for (const e of out.edges)
    if (e.source.startsWith('adr:') && e.target.startsWith('adr:') && !edges.has(edgeKey(e))) edges.set(edgeKey(e), e);
  return { records: out.nodes.filter((n) => n.id.startsWith('adr:')), edges: [...edges.values()] };
}

const num = (id: string) => Number(id.slice('adr:'.length));

interface Row {
  node: GraphNode;
  amendedBy: Set<number>;
  supersededBy: Set<number>;
  amends: Set<number>;
  supersedes: Set<number>;
}

export interface RecordIndex {
  /** The index's markdown. */
  text: string;
  /** Relations a status line says that the other record's status line does not say back, and statuses that disagree with them. */
  problems: string[];
}

/** The index of the decision records under `root`, from its graph. */
export function recordIndex(root: string = REPO): RecordIndex {
  const { records, edges } = recordGraph(root);
  const rows = new Map<number, Row>();
  for (const node of records)
    rows.set(num(node.id), { node, amendedBy: new Set(), supersededBy: new Set(), amends: new Set(), supersedes: new Set() });
  const problems: string[] = [];
  // Each relation, said by either record, read as "newer changes older"; `said` remembers who said it.
  const said = new Map<string, Set<'newer' | 'older'>>();
  const relate = (newer: number, older: number, kind: 'amends' | 'supersedes', by: 'newer' | 'older') => {
    const n = rows.get(newer);
    const o = rows.get(older);
    if (!n || !o) return;
    n[kind].add(older);
    o[kind === 'amends' ? 'amendedBy' : 'supersededBy'].add(newer);
    const key = `${newer} ${kind} ${older}`;
    const who = said.get(key) ?? new Set();
    who.add(by);
    said.set(key, who);
  };
  const byContext: Record<StatusRelation, (source: number, target: number) => void> = {
    amends: (s, t) => relate(s, t, 'amends', 'newer'),
    supersedes: (s, t) => relate(s, t, 'supersedes', 'newer'),
    'amended-by': (s, t) => relate(t, s, 'amends', 'older'),
    'superseded-by': (s, t) => relate(t, s, 'supersedes', 'older'),
  };
  for (const e of edges) {
    const relation = e.context as StatusRelation | undefined;
    if (relation !== undefined && relation in byContext) byContext[relation](num(e.source), num(e.target));
  }
  for (const [key, who] of [...said].sort(([a], [b]) => compareStrings(a, b))) {
    const [newer, kind, older] = key.split(' ');
    if (!who.has('newer'))
      problems.push(
        `ADR ${older} says it is ${kind === 'amends' ? 'amended' : 'superseded'} by ADR ${newer}, which does not say it ${kind} ADR ${older}`,
      );
    if (!who.has('older')) problems.push(`ADR ${newer} ${kind} ADR ${older}, whose status line does not say so`);
  }
  const sorted = [...rows.entries()].sort(([a], [b]) => a - b);
  for (const [n, r] of sorted) {
    const expected = r.supersededBy.size > 0 ? 'superseded' : r.amendedBy.size > 0 ? 'amended' : undefined;
    if (r.node.status === undefined) problems.push(`ADR ${n} has no status the graph reads`);
    else if (expected !== undefined && r.node.status !== expected)
      problems.push(`ADR ${n} is ${expected} but its status says ${r.node.status}`);
    else if (expected === undefined && (r.node.status === 'amended' || r.node.status === 'superseded'))
      problems.push(
        `ADR ${n} says it is ${r.node.status} but names no record that ${r.node.status === 'amended' ? 'amends' : 'supersedes'} it`,
      );
  }

  const fileOf = (n: number) => path.posix.basename(rows.get(n)?.node.sourceFile ?? '');
  const links = (nums: Set<number>) =>
    [...nums]
      .sort((a, b) => a - b)
      .map((n) => `[${n}](${fileOf(n)})`)
      .join(', ');
  const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
  const title = (r: Row) => cell(r.node.label.replace(/^ADR[-: ]0*\d+\s*[:.—-]\s*/i, ''));
  const count = (s: string) => sorted.filter(([, r]) => r.node.status === s).length;
  const lines = [
    '# Decision records',
    '',
    '<!-- Generated by `npm run adr-index` from the graph of this repository (ADR 160). Do not edit: change the records, then run it. -->',
    '',
    `${sorted.length} records: ${['accepted', 'amended', 'superseded']
      .map((s) => `${count(s)} ${s}`)
      .join(', ')}. A record's status is the first word of its \`Status:\` line: **accepted** (it stands as written),`,
    '**amended** (a later record changes part of it: read both), **superseded** (a later record replaces it: read that one).',
    'The relations come from the status lines, on both sides: `amended by ADR N` in the older record, `amends ADR M` in the',
    'newer one. How to write them: [ADR 160](0160-the-index-of-decision-records.md) and',
    '[writing decision records](../writing-decision-records.md#status).',
    '',
    '| ADR | title | status | amended by | superseded by | amends | supersedes |',
    '|---:|---|---|---|---|---|---|',
  ];
  for (const [n, r] of sorted)
    lines.push(
      `| [${n}](${fileOf(n)}) | ${title(r)} | ${r.node.status ?? '—'} | ${links(r.amendedBy)} | ${links(r.supersededBy)} | ${links(r.amends)} | ${links(r.supersedes)} |`,
    );
  return { text: lines.join('\n') + '\n', problems };
}

function main(): void {
  const { text, problems } = recordIndex();
  fs.writeFileSync(path.join(REPO, INDEX), text);
  process.stdout.write(`wrote ${INDEX}\n`);
  for (const p of problems) process.stderr.write(`adr-index: ${p}\n`);
  if (problems.length > 0) process.exitCode = 1;
}

if (require.main === module) main();
