// The rationale layer over real files: decision records, what they cite, what source comments
// cite, documentation headings, duplicates, config. Every expected position is computed here
// from the fixture's own text; every graph is validated against the schema.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, type Graph, type GraphEdge, type GraphNode } from '../../src/graph';
import { REPO, copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { positionIn, positionInText } from '../helpers/positions';
import { assertValidGraph } from '../helpers/schema';

const FIXTURE = 'rationale';
const ADR1 = 'docs/adr/0001-use-typescript.md';

function validated(g: Graph): Graph {
  assertValidGraph(JSON.parse(JSON.stringify(g)));
  return g;
}

function buildFixture(): Graph {
  return validated(buildGraph({ root: copyFixture(FIXTURE) }).graph);
}

function buildTree(tree: Record<string, string>): Graph {
  const root = tempDir();
  writeTree(root, tree);
  return validated(buildGraph({ root }).graph);
}

function node(g: Graph, id: string): GraphNode {
  const n = g.nodes.find((x) => x.id === id);
  assert.ok(n, `expected node ${id}`);
  return n;
}

function cites(g: Graph, source?: string): GraphEdge[] {
  return g.edges.filter((e) => e.relation === 'cites' && (source === undefined || e.source === source));
}

/** An edge summary that is easy to compare as a whole: target, outcome and where it was seen. */
function summary(e: GraphEdge): string {
  const at = e.evidence ? `${e.evidence.file}:${e.evidence.line}:${e.evidence.column}` : '-';
  return `${e.source} -> ${e.target} ${e.confidence}${e.reason ? ' ' + e.reason : ''} @${at}`;
}

function at(file: string, needle: string, occurrence = 0): string {
  const p = positionIn(FIXTURE, file, needle, occurrence);
  return `${file}:${p.line}:${p.column}`;
}

describe('rationale layer', () => {
  after(removeTempDirs);

  it('makes numbered markdown files in record folders adr: nodes, labelled by their first heading', () => {
    const g = buildFixture();
    const r1 = node(g, 'adr:1');
    assert.equal(r1.kind, 'rationale');
    assert.equal(r1.label, 'ADR 1: Use TypeScript everywhere');
    assert.equal(r1.sourceFile, ADR1);
    assert.deepEqual({ line: r1.line, column: r1.column }, positionIn(FIXTURE, ADR1, 'ADR 1: Use'));
    const r2 = node(g, 'adr:2');
    assert.equal(r2.label, 'Keep modules small', 'a setext heading is a heading');
    assert.deepEqual({ line: r2.line, column: r2.column }, { line: 1, column: 1 });
    // The record file is a file node in its module, and contains its record.
    assert.equal(node(g, `file:${ADR1}`).kind, 'file');
    assert.ok(g.edges.some((e) => e.source === 'mod:docs/adr' && e.target === `file:${ADR1}` && e.relation === 'contains'));
    assert.ok(g.edges.some((e) => e.source === `file:${ADR1}` && e.target === 'adr:1' && e.relation === 'contains'));
    assert.ok(!g.nodes.some((n) => n.kind === 'rationale' && n.sourceFile === 'docs/adr/README.md'), 'an unnumbered file is not a record');
    assert.ok(g.layers.includes('rationale') && g.layers.includes('docs'));
  });

  it('cites the files, symbols, headings, folders and records a record names — and nothing in code', () => {
    const g = buildFixture();
    const expected = [
      `adr:1 -> adr:2 EXACT @${at(ADR1, 'ADR-2')}`,
      `adr:1 -> doc:guide.md#getting-started~0 EXACT @${at(ADR1, '../../guide.md#getting-started')}`,
      `adr:1 -> doc:guide.md#usage~1 EXACT @${at(ADR1, '../../guide.md#usage-1')}`,
      `adr:1 -> file:docs/decisions/0002-duplicate-number.md EXACT @${at(ADR1, '../decisions/0002')}`,
      `adr:1 -> file:src/main.ts EXACT @${at(ADR1, '../../src/main.ts')}`,
      `adr:1 -> file:src/util.ts EXACT @${at(ADR1, '../../src/util.ts#L3')}`,
      `adr:1 -> file:src/view.tsx EXACT @${at(ADR1, 'src/view.tsx')}`,
      `adr:1 -> mod:src EXACT @${at(ADR1, 'src`. This')}`,
      `adr:1 -> sym:src/util.ts#Greeter.greet EXACT @${at(ADR1, '/src/util.ts#Greeter.greet')}`,
      `adr:1 -> sym:src/util.ts#helper EXACT @${at(ADR1, 'src/util.ts#helper')}`,
      `adr:1 -> unresolved:ADR-9 UNRESOLVED unknown-record @${at(ADR1, 'adr:9')}`,
      `adr:1 -> unresolved:data/config.json UNRESOLVED not-source @${at(ADR1, '../../data/config.json')}`,
      `adr:1 -> unresolved:guide.md%23nowhere UNRESOLVED not-found @${at(ADR1, '../../guide.md#nowhere')}`,
      `adr:1 -> unresolved:src/legacy/shim.ts UNRESOLVED not-found @${at(ADR1, 'src/legacy/shim.ts')}`,
      `adr:1 -> unresolved:src/old-main.ts UNRESOLVED not-found @${at(ADR1, '../../src/old-main.ts')}`,
      `adr:1 -> unresolved:src/util.ts%23missing UNRESOLVED not-found @${at(ADR1, 'src/util.ts#missing')}`,
    ];
    assert.deepEqual(cites(g, 'adr:1').map(summary), expected);
    for (const e of cites(g, 'adr:1')) {
      assert.equal(e.provenance, e.confidence === 'EXACT' ? 'DECISION_RECORD' : 'NONE');
    }
    // Mentioned only inside fenced, tilde-fenced, indented, list-indented code, an HTML comment,
    // an escaped bracket or a code span holding more than a path: never cited.
    assert.ok(!g.edges.some((e) => e.target === 'file:src/only-in-code.ts' && e.relation === 'cites'));
    assert.ok(!g.edges.some((e) => e.target === 'unresolved:ADR-3'));
    const adr2 = 'docs/adr/0002-keep-modules-small.md';
    assert.deepEqual(cites(g, 'adr:2').map(summary), [
      // The link text `ADR 1` and its destination both cite adr:1; the earlier evidence is kept.
      `adr:2 -> adr:1 EXACT @${at(adr2, 'ADR 1')}`,
      `adr:2 -> mod:src EXACT @${at(adr2, 'src`')}`,
    ]);
    assert.deepEqual(g.unresolved?.cites, { 'not-found': 4, 'not-source': 1, 'unknown-record': 2 });
  });

  it('cites records from real comments only, from the innermost symbol or the file', () => {
    const g = buildFixture();
    const main = 'src/main.ts';
    const view = 'src/view.tsx';
    const fromSource = cites(g).filter((e) => e.evidence?.file.startsWith('src/'));
    assert.deepEqual(fromSource.map(summary), [
      `file:${main} -> adr:1 EXACT @${at(main, 'ADR-1 at file level')}`,
      `file:${main} -> unresolved:ADR-99 UNRESOLVED unknown-record @${at(main, 'ADR-99')}`,
      `sym:${main}#Service.run -> adr:2 EXACT @${at(main, 'ADR 2 above a method')}`,
      `sym:${main}#answer -> adr:1 EXACT @${at(main, 'ADR-1 directly above')}`,
      `sym:${main}#arrow -> adr:2 EXACT @${at(main, 'ADR-2 trailing')}`,
      `sym:${main}#main -> adr:1 EXACT @${at(main, 'ADR-0001')}`,
      // `adr:2` in the body comes before the template-expression comment: the earliest evidence wins.
      `sym:${main}#main -> adr:2 EXACT @${at(main, 'adr:2 inside')}`,
      `sym:${view}#View -> adr:2 EXACT @${at(view, 'ADR-2 in a JSX comment')}`,
    ]);
    // ADR-3 appears only in a string, a template's text, a regex, a JSX attribute and JSX text.
    assert.ok(!g.edges.some((e) => e.target === 'unresolved:ADR-3'));
  });

  it('finds a comment in a template expression even when nothing else cites that record', () => {
    const g = buildTree({
      'docs/adr/0004-x.md': '# ADR 4: X\n',
      'a.ts': 'export const t = `ADR-9 ${1 /* ADR-4 */} ADR-9`;\n',
    });
    assert.deepEqual(cites(g).map(summary), [`sym:a.ts#t -> adr:4 EXACT @a.ts:1:${'export const t = `ADR-9 ${1 /* '.length + 1}`]);
  });

  it('makes a doc-concept node for each heading of a documentation file, nested by level', () => {
    const g = buildFixture();
    const docs = g.nodes.filter((n) => n.kind === 'doc-concept' && n.sourceFile === 'guide.md');
    assert.deepEqual(
      docs.map((n) => `${n.id} "${n.label}" ${n.line}:${n.column}`),
      [
        ['doc:guide.md#getting-started~0', 'Getting started', '## Getting started', 3],
        ['doc:guide.md#guide~0', 'Guide', '# Guide', 2],
        ['doc:guide.md#install~0', 'Install', '### Install', 4],
        ['doc:guide.md#kg-build--friends~0', 'kg build & friends', '## `kg build` & friends', 3],
        ['doc:guide.md#setext-section~0', 'Setext section', 'Setext *section*', 0],
        ['doc:guide.md#usage~0', 'Usage', '## Usage', 3],
        ['doc:guide.md#usage~1', 'Usage', '## Usage', 3, 1],
      ].map(([id, label, needle, skip, occurrence]) => {
        const p = positionIn(FIXTURE, 'guide.md', needle as string, (occurrence as number | undefined) ?? 0);
        return `${id} "${label}" ${p.line}:${p.column + (skip as number)}`;
      }),
    );
    const parent = (id: string) => g.edges.find((e) => e.relation === 'contains' && e.target === id)?.source;
    assert.equal(parent('doc:guide.md#guide~0'), 'file:guide.md');
    assert.equal(parent('doc:guide.md#getting-started~0'), 'doc:guide.md#guide~0');
    assert.equal(parent('doc:guide.md#install~0'), 'doc:guide.md#getting-started~0');
    assert.equal(parent('doc:guide.md#usage~1'), 'doc:guide.md#guide~0');
    assert.equal(parent('doc:guide.md#setext-section~0'), 'doc:guide.md#guide~0');
    assert.ok(node(g, 'doc:docs/adr/README.md#decision-log~0'), 'markdown in a record folder without a number is documentation');
    assert.ok(!g.nodes.some((n) => n.kind === 'doc-concept' && n.sourceFile === ADR1), "a record's headings are not doc concepts");
  });

  it('gives a duplicated record number to the first path in sorted order, whatever the creation order', () => {
    const tree = {
      'docs/adr/0003-second.md': '# ADR 3: Second\n\nNames [a](../../a.ts).\n',
      'adr/0003-first.md': '# ADR 3: First\n',
      'a.ts': 'export const a = 1; // ADR-3\n',
    };
    const forward = buildTree(tree);
    const reversed = buildTree(Object.fromEntries(Object.entries(tree).reverse()));
    assert.deepEqual(forward, reversed);
    assert.equal(node(forward, 'adr:3').sourceFile, 'adr/0003-first.md', "'adr/' sorts before 'docs/'");
    assert.equal(node(forward, 'file:docs/adr/0003-second.md').kind, 'file', 'the losing file is still a file');
    assert.deepEqual(cites(forward, 'adr:3'), [], 'the losing record cites nothing');
    assert.deepEqual(forward.diagnostics, [
      {
        path: 'docs/adr/0003-second.md',
        reason:
          'duplicate decision record number 3: adr:3 is adr/0003-first.md (the first path in sorted order); this file is not a record',
      },
    ]);
    assert.equal(cites(forward, 'sym:a.ts#a')[0].target, 'adr:3');
  });

  it('reports a heading that names another number; the file name decides', () => {
    const g = buildTree({ 'decisions/0007-x.md': '# ADR 8: Mislabelled\n', 'a.ts': 'export {};\n' });
    assert.equal(node(g, 'adr:7').label, 'ADR 8: Mislabelled');
    assert.deepEqual(g.diagnostics, [
      { path: 'decisions/0007-x.md', reason: 'the heading names ADR 8 but the file name numbers it 7; the file name decides (adr:7)' },
    ]);
  });

  it('reads record folders and documentation paths from .knowledge-graph/config.json', () => {
    const tree = {
      'architecture/decisions/12-custom.md': '# Custom folder\n\nSee `src/a.ts`.\n',
      'docs/adr/0001-default.md': '# Not a record here\n',
      'notes/guide.md': '# Guide\n',
      'README.md': '# Readme\n',
      'src/a.ts': 'export const a = 1;\n',
      '.knowledge-graph/config.json': JSON.stringify({ rationale: { recordFolders: ['./architecture/decisions/'], docPaths: ['notes'] } }),
    };
    const g = buildTree(tree);
    assert.deepEqual(
      g.nodes.filter((n) => n.kind === 'rationale').map((n) => n.id),
      ['adr:12'],
    );
    assert.deepEqual(
      cites(g).map((e) => `${e.source} -> ${e.target}`),
      ['adr:12 -> file:src/a.ts'],
    );
    assert.deepEqual(
      g.nodes.filter((n) => n.kind === 'doc-concept').map((n) => n.id),
      ['doc:notes/guide.md#guide~0'],
    );
    assert.ok(
      !g.nodes.some((n) => n.id === 'file:README.md' || n.id === 'file:docs/adr/0001-default.md'),
      'markdown outside both lists is not in the graph',
    );
    assert.equal(g.diagnostics, undefined);

    const off = buildTree({ ...tree, '.knowledge-graph/config.json': JSON.stringify({ rationale: { docPaths: [] } }) });
    assert.ok(!off.nodes.some((n) => n.kind === 'doc-concept'), 'docPaths [] turns documentation off');
    assert.ok(!off.layers.includes('docs'));
    assert.deepEqual(
      off.nodes.filter((n) => n.kind === 'rationale').map((n) => n.id),
      ['adr:1'],
      'the default folders apply again',
    );
  });

  it('turns a bad config into diagnostics and defaults, never a failed build', () => {
    const base = { 'docs/adr/0001-x.md': '# X\n', 'a.ts': 'export {};\n' };
    const broken = buildTree({ ...base, '.knowledge-graph/config.json': '{ "rationale": ' });
    assert.deepEqual(broken.diagnostics, [{ path: '.knowledge-graph/config.json', reason: 'config: not valid JSON; using defaults' }]);
    assert.ok(broken.nodes.some((n) => n.id === 'adr:1'));
    const wrong = buildTree({
      ...base,
      '.knowledge-graph/config.json': JSON.stringify({ rationale: { recordFolders: ['../outside', '/abs', 7, 'docs/adr'], docPath: [] } }),
    });
    assert.deepEqual(
      wrong.diagnostics?.map((d) => d.reason),
      [
        'config: "rationale.recordFolders" entry "../outside" is not a repository-relative path; ignored',
        'config: "rationale.recordFolders" entry "/abs" is not a repository-relative path; ignored',
        'config: "rationale.recordFolders" entry 7 is not a repository-relative path; ignored',
        'config: unknown key "rationale.docPath" (known: docPaths, recordFolders)',
      ],
    );
    assert.ok(
      wrong.nodes.some((n) => n.id === 'adr:1'),
      'the valid entry still applies',
    );
    const notAList = buildTree({ ...base, '.knowledge-graph/config.json': JSON.stringify({ rationale: { recordFolders: 'docs/adr' } }) });
    assert.deepEqual(
      notAList.diagnostics?.map((d) => d.reason),
      ['config: "rationale.recordFolders" must be a list of repository-relative paths; using the default'],
    );
  });

  it('adds no rationale or docs layer to a repository without markdown', () => {
    const g = buildTree({ 'a.ts': '// ADR-1 names a record, but there are none\nexport {};\n' });
    // calls and references ran and found nothing: an empty layer is still a layer (ADR 151).
    assert.deepEqual(g.layers, ['calls', 'rationale', 'references', 'structural'], 'the unresolved citation is still a cites edge');
    assert.deepEqual(
      cites(g).map((e) => `${e.target} ${e.reason}`),
      ['unresolved:ADR-1 unknown-record'],
    );
    const plain = buildTree({ 'a.ts': 'export const s = "ADR-1";\n' });
    assert.deepEqual(plain.layers, ['calls', 'references', 'structural']);
  });

  it('positions mentions in UTF-16 columns after astral characters, in markdown and in comments', () => {
    const g = buildTree({
      'docs/adr/0001-emoji.md': '# 😀 Emoji\n\n😀😀 see `a.ts` and ADR-2\n',
      'docs/adr/0002-other.md': '# Other\n',
      'a.ts': '/* 😀 */ export const a = 1; // 😀 ADR-1\n',
    });
    const md = '# 😀 Emoji\n\n😀😀 see `a.ts` and ADR-2\n';
    const ts = '/* 😀 */ export const a = 1; // 😀 ADR-1\n';
    assert.deepEqual(cites(g).map(summary), [
      `adr:1 -> adr:2 EXACT @docs/adr/0001-emoji.md:${Object.values(positionInText(md, 'ADR-2')).join(':')}`,
      `adr:1 -> file:a.ts EXACT @docs/adr/0001-emoji.md:${Object.values(positionInText(md, 'a.ts')).join(':')}`,
      `sym:a.ts#a -> adr:1 EXACT @a.ts:${Object.values(positionInText(ts, 'ADR-1')).join(':')}`,
    ]);
    assert.equal(positionInText(ts, 'ADR-1').column, 36, 'each emoji is two UTF-16 columns (34 if counted by code point)');
  });

  it("reads a record's status line: the node's status, and what it says of other records on the cites edges (ADR 160)", () => {
    const g = buildTree({
      'a.ts': 'export {};\n',
      'docs/adr/0001-old.md': '# Old\n\nStatus: superseded by [ADR 3](0003-new.md); amended by ADR 2\n',
      'docs/adr/0002-part.md': '# Part\n\nStatus: accepted (amends the order of ADR 1; see ADR 3)\n',
      'docs/adr/0003-new.md': '# New\n\nStatus: accepted (supersedes ADR 1\nand refines ADR-2: its `x`)\n',
      'docs/adr/0004-plain.md': '# Plain\n\n```\nStatus: rejected\n```\n\nStatus: Proposed. Names ADR 1.\n',
      'docs/adr/0005-none.md': '# None\n\nStatus: draft, amends ADR 1\n',
    });
    assert.deepEqual(
      g.nodes.filter((n) => n.id.startsWith('adr:')).map((n) => `${n.id} ${n.status ?? '-'}`),
      ['adr:1 superseded', 'adr:2 accepted', 'adr:3 accepted', 'adr:4 proposed', 'adr:5 -'],
      'the first word, when it is a status; a fenced line is code',
    );
    assert.deepEqual(
      cites(g)
        .filter((e) => e.target.startsWith('adr:'))
        .map((e) => `${e.source} ${e.target} ${e.context ?? '-'}`),
      [
        'adr:1 adr:2 amended-by',
        'adr:1 adr:3 superseded-by',
        'adr:2 adr:1 amends',
        'adr:2 adr:3 -',
        'adr:3 adr:1 supersedes',
        'adr:3 adr:2 amends',
        'adr:4 adr:1 -',
        'adr:5 adr:1 amends',
      ],
      'a relation word relates the records named after it in its clause; refines is amends',
    );
  });

  it("gives the project's own graph a rationale layer: its source cites its decision records", () => {
    const { graph } = buildGraph({ root: REPO, extractOnly: true });
    assertValidGraph(JSON.parse(JSON.stringify(graph)));
    assert.ok(graph.layers.includes('rationale') && graph.layers.includes('docs'));
    const records = fs.readdirSync(path.join(REPO, 'docs', 'adr')).filter((f) => /^\d+-.*\.md$/.test(f));
    for (const f of records)
      assert.ok(
        graph.nodes.some((n) => n.id === `adr:${Number(f.slice(0, f.indexOf('-')))}`),
        f,
      );
    const fromSrc = cites(graph).filter((e) => e.evidence?.file.startsWith('src/'));
    const pairs = new Set(fromSrc.map((e) => `${e.evidence?.file} ${e.target}`));
    for (const p of [
      'src/graph/indexer/files/walk.ts adr:2',
      'src/graph/indexer/compiler/compose.ts adr:3',
      'src/graph/io/canonical.ts adr:4',
      'src/graph/indexer/compiler/imports.ts adr:5',
    ]) {
      assert.ok(pairs.has(p), `expected ${p}`);
    }
    assert.deepEqual(
      fromSrc.filter((e) => e.confidence !== 'EXACT').map(summary),
      [],
      "the project's source names no record that does not exist",
    );
    assert.deepEqual(
      cites(graph)
        .filter((e) => e.evidence?.file.startsWith('docs/adr/') && e.confidence !== 'EXACT')
        .map(summary),
      [],
      "the project's records name nothing that does not exist",
    );
  });
});
