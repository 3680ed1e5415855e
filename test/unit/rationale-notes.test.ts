// Stamped notes (ADR 88) and `kg why` (ADR 89) over the rationale-notes fixture and small trees.
// Every expected position is computed from the fixture's own text; every graph is validated
// against the schema. The traps (a header in a string, a template, a regular expression, JSX
// text, a fenced or indented code block, a code span, and near misses of the syntax) each sit in
// the fixture beside a real note, so "no node" means the rule, not a missing file.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  answerQuery,
  buildGraph,
  buildTracked,
  indexGraph,
  memoryFileHost,
  parseId,
  parseManifest,
  rationaleId,
  runDoctor,
  serializeGraph,
  symbolAt,
  type Graph,
  type GraphEdge,
  type GraphNode,
  type WhyResult,
} from '../../src/graph';
import { whyHoverMarkdown } from '../../src/host/graph-text';
import { isCalendarDate, parseHeader } from '../../src/graph/indexer/rationale/notes';
import { copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { positionIn, positionInText } from '../helpers/positions';
import { graphOf } from '../helpers/graphs';
import { assertValidGraph } from '../helpers/schema';
import { fc } from '../helpers/seed';

const FIXTURE = 'rationale-notes';
const CACHE = 'src/cache.ts';
const VIEW = 'src/view.tsx';
const GUIDE = 'docs/guide.md';
const ADR1 = 'docs/adr/0001-keep-a-cache.md';

function validated(g: Graph): Graph {
  assertValidGraph(JSON.parse(JSON.stringify(g)));
  return g;
}

const buildFixture = (): Graph => validated(buildGraph({ root: copyFixture(FIXTURE) }).graph);

function buildTree(tree: Record<string, string>): Graph {
  const root = tempDir();
  writeTree(root, tree);
  return validated(buildGraph({ root }).graph);
}

const notes = (g: Graph): GraphNode[] => g.nodes.filter((n) => n.id.startsWith('rationale:'));

function node(g: Graph, id: string): GraphNode {
  const n = g.nodes.find((x) => x.id === id);
  assert.ok(
    n,
    `expected node ${id}; the notes are ${notes(g)
      .map((x) => x.id)
      .join(', ')}`,
  );
  return n;
}

function summary(e: GraphEdge): string {
  const at = e.evidence ? `${e.evidence.file}:${e.evidence.line}:${e.evidence.column}` : '-';
  return `${e.target} ${e.confidence} ${e.provenance}${e.reason ? ' ' + e.reason : ''} @${at}`;
}

const citesOf = (g: Graph, source: string): string[] => g.edges.filter((e) => e.relation === 'cites' && e.source === source).map(summary);

function at(file: string, needle: string, occurrence = 0): string {
  const p = positionIn(FIXTURE, file, needle, occurrence);
  return `${file}:${p.line}:${p.column}`;
}

describe('the stamped-note header', () => {
  it('accepts WHY(area@date): text at the start of a line, and nothing near it', () => {
    assert.deepEqual(parseHeader('WHY(cache@2026-08-10): keep it'), { area: 'cache', stamp: '2026-08-10' });
    assert.deepEqual(parseHeader('WHY(build/server.v2_x-y@2024-02-29):\tleap day'), { area: 'build/server.v2_x-y', stamp: '2024-02-29' });
    for (const line of [
      'why(cache@2026-08-10): lower case',
      'WHY (cache@2026-08-10): a space',
      'WHY(Cache@2026-08-10): capitals in the area',
      'WHY(cache@2026-8-10): a short month',
      'WHY(cache@2026-02-30): no such day',
      'WHY(cache@2025-02-29): not a leap year',
      'WHY(cache@2026-13-01): no such month',
      'WHY(cache@2026-08-10):',
      'WHY(cache@2026-08-10):    ',
      'WHY(cache@2026-08-10):text without a space',
      'WHY(@2026-08-10): no area',
      'WHY(-cache@2026-08-10): starts with a hyphen',
      'WHY(ca che@2026-08-10): a space in the area',
      'WHY(cache@v1.2.3): a version is not a stamp',
      'see WHY(cache@2026-08-10): not at the start',
      `WHY(${'a'.repeat(65)}@2026-08-10): an area of 65 characters`,
    ]) {
      assert.equal(parseHeader(line), undefined, line);
    }
    assert.ok(parseHeader(`WHY(${'a'.repeat(64)}@2026-08-10): 64 is the limit`));
  });

  it('knows the calendar', () => {
    assert.ok(isCalendarDate('2000-02-29'), '2000 is a leap year (divisible by 400)');
    assert.ok(!isCalendarDate('1900-02-29'), '1900 is not (divisible by 100)');
    assert.ok(isCalendarDate('2026-12-31'));
    assert.ok(!isCalendarDate('2026-04-31'));
    assert.ok(!isCalendarDate('2026-00-10'));
    assert.ok(!isCalendarDate('2026-01-00'));
  });

  it('makes ids that split back into their parts, escaped like every id', () => {
    const id = rationaleId('src/a#b@c.ts', 'build/server', '2026-08-10', 3);
    assert.equal(id, 'rationale:src/a%23b%40c.ts#build/server@2026-08-10~3');
    assert.deepEqual(parseId(id), { prefix: 'rationale', path: 'src/a#b@c.ts', area: 'build/server', stamp: '2026-08-10', index: 3 });
    assert.equal(parseId('rationale:src/a.ts#cache~0'), undefined, 'no stamp');
    assert.equal(parseId('rationale:src/a.ts#cache@2026-08-10'), undefined, 'no index');
  });
});

describe('stamped notes in the graph', () => {
  after(removeTempDirs);

  it('makes exactly the real headers nodes: none from strings, templates, regexes, JSX text, code blocks or near misses', () => {
    const g = buildFixture();
    assert.deepEqual(
      notes(g).map((n) => n.id),
      [
        `rationale:${ADR1}#records@2026-08-10~0`,
        `rationale:${GUIDE}#docs@2026-08-10~0`,
        `rationale:${GUIDE}#docs@2026-08-10~1`,
        `rationale:${GUIDE}#inline@2026-08-12~0`,
        `rationale:${CACHE}#cache@2026-08-10~0`,
        `rationale:${CACHE}#cache@2026-08-10~1`,
        `rationale:${CACHE}#cache@2026-08-10~2`,
        `rationale:${CACHE}#eviction@2026-09-01~0`,
        `rationale:${VIEW}#jsx@2026-03-01~0`,
      ],
    );
    // Each trap is in the fixture, so its absence is the rule at work.
    const text = (f: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', FIXTURE, f), 'utf8');
    for (const [file, area] of [
      [CACHE, 'string'],
      [CACHE, 'template'],
      [CACHE, 'regex'],
      [CACHE, 'lower'],
      [CACHE, 'space'],
      [CACHE, 'feb'],
      [CACHE, 'middle'],
      [CACHE, 'Upper'],
      [CACHE, 'empty'],
      [GUIDE, 'fenced'],
      [GUIDE, 'indented'],
      [GUIDE, 'span'],
    ]) {
      assert.ok(text(file).toLowerCase().includes(`(${area.toLowerCase()}@`), `the fixture has the ${area} trap`);
      assert.ok(!notes(g).some((n) => n.id.includes(`#${area}@`)), `no note for the ${area} trap`);
    }
    assert.ok(text(VIEW).includes('WHY(jsx@2026-01-01): JSX text'), 'the fixture has JSX text that looks like a header');
    assert.ok(!g.nodes.some((n) => n.id.includes('jsx@2026-01-01')), 'JSX text is not a comment');
    assert.equal(runDoctor(JSON.parse(serializeGraph(g))).ok, true);
  });

  it('labels a note with its header line, places it at the W, keeps its text without decoration', () => {
    const g = buildFixture();
    const file = node(g, `rationale:${CACHE}#cache@2026-08-10~0`);
    assert.equal(file.kind, 'rationale');
    assert.equal(file.label, 'WHY(cache@2026-08-10): a file-level note, then a blank line.');
    assert.equal(file.sourceFile, CACHE);
    assert.deepEqual({ line: file.line, column: file.column }, positionIn(FIXTURE, CACHE, 'WHY(cache@2026-08-10): a file-level'));
    assert.equal(
      file.text,
      'WHY(cache@2026-08-10): a file-level note, then a blank line.\nIt names ADR-1 and `src/store.ts#Store.get`.',
      'adjacent // lines are one comment',
    );
    // Two headers in one JSDoc block: each runs to the next header; ` * ` is decoration.
    const first = node(g, `rationale:${CACHE}#cache@2026-08-10~1`);
    assert.equal(first.text, 'WHY(cache@2026-08-10): entries live until the server restarts,\nbecause the worker owns them (ADR-2).');
    assert.deepEqual({ line: first.line, column: first.column }, positionIn(FIXTURE, CACHE, 'WHY(cache@2026-08-10): entries'));
    const second = node(g, `rationale:${CACHE}#eviction@2026-09-01~0`);
    assert.equal(
      second.text,
      'WHY(eviction@2026-09-01): no eviction yet; see `src/store.ts` and `src/gone.ts`.',
      'the closing */ line adds nothing',
    );
    // In markdown: an open comment is not cut by an indented line, and a header in it starts a second note.
    const docs0 = node(g, `rationale:${GUIDE}#docs@2026-08-10~0`);
    assert.equal(
      docs0.text,
      'WHY(docs@2026-08-10): the guide stays short (ADR-1),\nan indented line of an open comment is still the comment,',
    );
    assert.deepEqual({ line: docs0.line, column: docs0.column }, positionIn(FIXTURE, GUIDE, 'WHY(docs@2026-08-10): the guide'));
    const docs1 = node(g, `rationale:${GUIDE}#docs@2026-08-10~1`);
    assert.equal(
      docs1.text,
      'WHY(docs@2026-08-10): and a second header in it starts a second note\nthat names [the cache](../src/cache.ts#Cache).',
    );
    assert.deepEqual({ line: docs1.line, column: docs1.column }, positionIn(FIXTURE, GUIDE, 'WHY(docs@2026-08-10): and a second'));
    const inline = node(g, `rationale:${GUIDE}#inline@2026-08-12~0`);
    assert.equal(inline.text, 'WHY(inline@2026-08-12): an inline comment', 'the text stops before -->');
    assert.deepEqual({ line: inline.line, column: inline.column }, positionIn(FIXTURE, GUIDE, 'WHY(inline'));
  });

  it('cites what a note sits on, and the records, files and symbols it names', () => {
    const g = buildFixture();
    const n = (file: string, rest: string) => `rationale:${file}#${rest}`;
    assert.deepEqual(citesOf(g, n(CACHE, 'cache@2026-08-10~0')), [
      `adr:1 EXACT DECISION_RECORD @${at(CACHE, 'ADR-1')}`,
      `file:${CACHE} EXACT SYNTAX @${at(CACHE, 'WHY(cache@2026-08-10): a file-level')}`,
      `sym:src/store.ts#Store.get EXACT DECISION_RECORD @${at(CACHE, 'src/store.ts#Store.get')}`,
    ]);
    assert.deepEqual(citesOf(g, n(CACHE, 'cache@2026-08-10~1')), [
      `adr:2 EXACT DECISION_RECORD @${at(CACHE, 'ADR-2')}`,
      `sym:${CACHE}#Cache EXACT SYNTAX @${at(CACHE, 'WHY(cache@2026-08-10): entries')}`,
    ]);
    assert.deepEqual(citesOf(g, n(CACHE, 'eviction@2026-09-01~0')), [
      `file:src/store.ts EXACT DECISION_RECORD @${at(CACHE, 'src/store.ts`')}`,
      `sym:${CACHE}#Cache EXACT SYNTAX @${at(CACHE, 'WHY(eviction')}`,
      `unresolved:src/gone.ts UNRESOLVED NONE not-found @${at(CACHE, 'src/gone.ts')}`,
    ]);
    assert.deepEqual(citesOf(g, n(CACHE, 'cache@2026-08-10~2')), [
      `sym:${CACHE}#Cache.run EXACT SYNTAX @${at(CACHE, 'WHY(cache@2026-08-10): the third')}`,
    ]);
    assert.deepEqual(citesOf(g, n(VIEW, 'jsx@2026-03-01~0')), [
      `sym:${VIEW}#View EXACT SYNTAX @${at(VIEW, 'WHY(jsx@2026-03-01)')}`,
      `unresolved:ADR-9 UNRESOLVED NONE unknown-record @${at(VIEW, 'ADR-9')}`,
    ]);
    // Markdown: the section it sits in, the record it is written in; links relative to its file.
    assert.deepEqual(citesOf(g, n(GUIDE, 'docs@2026-08-10~0')), [
      `adr:1 EXACT DECISION_RECORD @${at(GUIDE, 'ADR-1')}`,
      `doc:${GUIDE}#guide~0 EXACT SYNTAX @${at(GUIDE, 'WHY(docs@2026-08-10): the guide')}`,
    ]);
    assert.deepEqual(citesOf(g, n(GUIDE, 'docs@2026-08-10~1')), [
      `doc:${GUIDE}#guide~0 EXACT SYNTAX @${at(GUIDE, 'WHY(docs@2026-08-10): and')}`,
      `sym:${CACHE}#Cache EXACT DECISION_RECORD @${at(GUIDE, '../src/cache.ts#Cache')}`,
    ]);
    assert.deepEqual(citesOf(g, n(GUIDE, 'inline@2026-08-12~0')), [`doc:${GUIDE}#usage~0 EXACT SYNTAX @${at(GUIDE, 'WHY(inline')}`]);
    assert.deepEqual(citesOf(g, n(ADR1, 'records@2026-08-10~0')), [`adr:1 EXACT SYNTAX @${at(ADR1, 'WHY(records')}`]);
    // Each note is contained by its file; the comments keep citing records as before (ADR 41).
    for (const x of notes(g))
      assert.ok(
        g.edges.some((e) => e.relation === 'contains' && e.source === `file:${x.sourceFile}` && e.target === x.id),
        x.id,
      );
    assert.ok(g.edges.some((e) => e.source === `sym:${CACHE}#Cache` && e.target === 'adr:2' && e.relation === 'cites'));
    // Holes are counted like every citation's: src/gone.ts (not-found); ADR-9 twice (the note and View's comment).
    assert.deepEqual(g.unresolved?.cites, { 'not-found': 1, 'unknown-record': 2 });
  });

  it('finds exactly the headers placed in comments, at their positions, among random code and traps', () => {
    // Each fragment is code, a comment holding a header (area c<i>), or a trap holding one (area t<i>)
    // in a string, a template, a regular expression or a comment that only looks like a header.
    type Fragment = { text: string; note?: { area: string; line: number; column: number } };
    const fragment = (kind: number, i: number): Fragment => {
      switch (kind) {
        case 0:
          return { text: `// WHY(c${i}@2026-01-0${1 + (i % 9)}): line note ${i}\n`, note: { area: `c${i}`, line: 0, column: 4 } };
        case 1:
          return { text: `/* WHY(c${i}@2026-02-0${1 + (i % 9)}): block note ${i} */\n`, note: { area: `c${i}`, line: 0, column: 4 } };
        case 2:
          return {
            text: `/**\n * Docs.\n * WHY(c${i}@2026-03-0${1 + (i % 9)}): jsdoc note ${i}\n */\n`,
            note: { area: `c${i}`, line: 2, column: 4 },
          };
        case 3:
          return { text: `export const s${i} = '// WHY(t${i}@2026-01-01): a string';\n` };
        case 4:
          return { text: `export const t${i} = \`\n// WHY(t${i}@2026-01-01): a template \${s}\n\`;\n`.replace('${s}', '${1}') };
        case 5:
          return { text: `export const r${i} = /WHY\\(t${i}@2026-01-01\\): re/;\n` };
        case 6:
          return { text: `// see WHY(t${i}@2026-01-01): not at the start\n` };
        default:
          return { text: `export function f${i}(): number {\n  return ${i};\n}\n\n` };
      }
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 12 }), (kinds) => {
        let text = '';
        let line = 1;
        const want: string[] = [];
        kinds.forEach((k, i) => {
          const f = fragment(k, i);
          if (f.note) want.push(`c${i} ${line + f.note.line}:${f.note.column}`);
          text += f.text;
          line += f.text.split('\n').length - 1;
        });
        const g = buildGraph({ root: '/r', host: memoryFileHost('/r', { 'tsconfig.json': '{}', 'src/a.ts': text }) }).graph;
        const got = notes(g).map((n) => `${(parseId(n.id) as { area: string }).area} ${n.line}:${n.column}`);
        assert.deepEqual(got.sort(), want.sort(), text);
      }),
      { numRuns: 40 },
    );
  });

  it('numbers notes of one area and stamp in file order, whatever comes between', () => {
    const tree = (extra: string) => ({
      'tsconfig.json': '{}',
      'src/a.ts': `${extra}// WHY(x@2026-01-01): one\nexport function f() {}\n\n/* WHY(y@2026-01-01): other\n   WHY(x@2026-01-01): two */\nexport function g() {}\n`,
    });
    const ids = (g: Graph) => notes(g).map((n) => n.id);
    const plain = buildTree(tree(''));
    assert.deepEqual(ids(plain), [
      'rationale:src/a.ts#x@2026-01-01~0',
      'rationale:src/a.ts#x@2026-01-01~1',
      'rationale:src/a.ts#y@2026-01-01~0',
    ]);
    // Another area added above renumbers nothing.
    const more = buildTree(tree('// WHY(z@2026-05-05): added above\n\n'));
    assert.deepEqual(ids(more), [...ids(plain), 'rationale:src/a.ts#z@2026-05-05~0']);
    assert.deepEqual(citesOf(plain, 'rationale:src/a.ts#x@2026-01-01~1'), [
      `sym:src/a.ts#g EXACT SYNTAX @src/a.ts:${positionInText(tree('')['src/a.ts'], 'WHY(x@2026-01-01): two').line}:4`,
    ]);
  });

  it('bounds the label and the text, never splitting a surrogate pair', () => {
    const long = 'é'.repeat(150) + '😀'.repeat(200);
    const body = Array.from({ length: 40 }, (_, i) => `// line ${i} ${'x'.repeat(60)}`).join('\n');
    const g = buildTree({ 'tsconfig.json': '{}', 'src/a.ts': `// WHY(long@2026-01-01): ${long}\n${body}\nexport const a = 1;\n` });
    const n = node(g, 'rationale:src/a.ts#long@2026-01-01~0');
    assert.ok(n.label.length <= 200 && n.label.endsWith('…'), `label of ${n.label.length}`);
    assert.ok((n.text ?? '').length <= 2000 && (n.text ?? '').endsWith('…'), `text of ${(n.text ?? '').length}`);
    for (const s of [n.label, n.text ?? '']) assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(s), 'no lone high surrogate');
  });

  it('builds the same bytes twice, and incrementally after adding, editing and removing notes', () => {
    const root = copyFixture(FIXTURE);
    const once = serializeGraph(buildGraph({ root }).graph);
    assert.equal(serializeGraph(buildGraph({ root }).graph), once);
    let previous = buildTracked({ root });
    const manifest = parseManifest(previous.manifestText);
    assert.ok('manifest' in manifest);
    assert.equal(manifest.manifest.files[CACHE].notes?.length, 4, 'the manifest keeps the four notes of src/cache.ts');
    const step = (edit: () => void) => {
      edit();
      const inc = buildTracked({ root, previous: { graphText: previous.text, manifestText: previous.manifestText } });
      assert.equal(inc.mode, 'incremental');
      assert.equal(inc.text, serializeGraph(buildGraph({ root }).graph));
      previous = inc;
    };
    const edit = (file: string, f: (s: string) => string) =>
      fs.writeFileSync(path.join(root, file), f(fs.readFileSync(path.join(root, file), 'utf8')));
    // A note added in store.ts that names Cache: cache.ts is carried, its notes come from the manifest.
    step(() => edit('src/store.ts', (s) => `// WHY(store@2026-07-01): kept apart from \`src/cache.ts#Cache\`.\n\n${s}`));
    assert.ok(previous.text.includes('"rationale:src/store.ts#store@2026-07-01~0"'));
    // Cache renamed: the guide's note and store's note now name a symbol that is not there.
    step(() => edit(CACHE, (s) => s.replace('export class Cache', 'export class Kept')));
    assert.ok(previous.text.includes('unresolved:src/cache.ts%23Cache'));
    step(() => edit(CACHE, (s) => s.replace(/\/\/ WHY\(cache@2026-08-10\): the third[^\n]*\n/, '')));
    assert.ok(!previous.text.includes('cache@2026-08-10~2'));
  });
});

describe('kg why', () => {
  after(removeTempDirs);

  it('lists the notes on a symbol, the records citing it and its file, and the records it cites', () => {
    const load = indexGraph(JSON.parse(serializeGraph(buildFixture())) as Graph);
    const why = answerQuery(load, { query: 'why', id: `sym:${CACHE}#Cache` });
    assert.ok(why.available && 'notes' in why);
    assert.deepEqual(
      why.notes.map((n) => `${n.id} ${n.sitsOn ? 'on' : 'names'} ${n.area}@${n.stamp}`),
      [
        `rationale:${GUIDE}#docs@2026-08-10~1 names docs@2026-08-10`,
        `rationale:${CACHE}#cache@2026-08-10~1 on cache@2026-08-10`,
        `rationale:${CACHE}#eviction@2026-09-01~0 on eviction@2026-09-01`,
      ],
    );
    const on = why.notes[1];
    assert.deepEqual(
      { file: on.file, line: on.line, column: on.column },
      { file: CACHE, ...positionIn(FIXTURE, CACHE, 'WHY(cache@2026-08-10): entries') },
    );
    assert.equal(on.text, 'WHY(cache@2026-08-10): entries live until the server restarts,\nbecause the worker owns them (ADR-2).');
    // adr:1 names `src/cache.ts#Cache` in a code span; the JSDoc of Cache names ADR-2.
    assert.deepEqual(
      why.records.map((r) => `${r.id} ${r.label}`),
      ['adr:1 ADR 1: Keep a cache'],
    );
    assert.deepEqual(
      why.cited.map((r) => r.id),
      ['adr:2'],
    );
    assert.deepEqual(
      why.fileNotes.map((n) => n.id),
      [`rationale:${CACHE}#cache@2026-08-10~0`],
    );
    assert.deepEqual(why.fileRecords, []);

    const method = answerQuery(load, { query: 'why', id: `sym:${CACHE}#Cache.run` });
    assert.ok(method.available && 'notes' in method);
    assert.deepEqual(
      method.notes.map((n) => n.id),
      [`rationale:${CACHE}#cache@2026-08-10~2`],
    );
    assert.deepEqual([method.records, method.cited], [[], []]);

    const file = answerQuery(load, { query: 'why', id: `file:${CACHE}` });
    assert.ok(file.available && 'notes' in file);
    assert.deepEqual(
      file.notes.map((n) => n.id),
      [`rationale:${CACHE}#cache@2026-08-10~0`],
    );
    assert.deepEqual(
      file.cited.map((r) => r.id),
      ['adr:1'],
      'the file-level comment names ADR-1: the note cites it, and so does the file (ADR 41)',
    );
  });

  it('counts EXACT cites from notes and records only, each once, sorted', () => {
    const F = 'sym:src/a.ts#f';
    const note = 'rationale:src/a.ts#x@2026-01-01~0';
    const g = graphOf([
      [note, F, 'cites'],
      [note, F, 'cites'],
      ['adr:1', F, 'cites'],
      ['adr:10', F, 'cites'],
      ['adr:5', F, 'cites', 'CANDIDATE'],
      ['doc:guide.md#h~0', F, 'cites'],
      ['adr:2', 'file:src/a.ts', 'cites'],
      [F, 'adr:3', 'cites'],
      [F, 'unresolved:ADR-4', 'cites'],
      ['sym:src/a.ts#g', F, 'calls'],
      ['file:src/a.ts', F, 'contains'],
    ]);
    const why = answerQuery(indexGraph(g), { query: 'why', id: F });
    assert.ok(why.available && 'notes' in why);
    assert.deepEqual(
      why.notes.map((n) => [n.id, n.area, n.stamp, n.sitsOn]),
      [[note, 'x', '2026-01-01', false]],
      'a cites edge that is not SYNTAX only names it',
    );
    assert.deepEqual(
      why.records.map((r) => r.id),
      ['adr:1', 'adr:10'],
      'a CANDIDATE citation and a heading are not records',
    );
    assert.deepEqual(
      why.cited.map((r) => r.id),
      ['adr:3'],
      'an unresolved record number is not listed',
    );
    assert.deepEqual(
      why.fileRecords.map((r) => r.id),
      ['adr:2'],
    );
    assert.deepEqual(why.fileNotes, []);
  });

  it('degrades on an unknown id, and answers for files it names and graphs without rationale', () => {
    const load = indexGraph(JSON.parse(serializeGraph(buildFixture())) as Graph);
    const missing = answerQuery(load, { query: 'why', id: 'sym:src/nowhere.ts#x' });
    assert.equal(missing.available, false);
    const store = answerQuery(load, { query: 'why', id: 'sym:src/store.ts#Store' });
    assert.ok(store.available && 'notes' in store);
    assert.deepEqual([store.notes, store.records, store.cited, store.fileRecords], [[], [], [], []]);
    // The eviction note names `src/store.ts` (the file), so it is about Store's file, not written on it.
    assert.deepEqual(
      store.fileNotes.map((n) => `${n.id} ${n.sitsOn}`),
      [`rationale:${CACHE}#eviction@2026-09-01~0 false`],
    );
    const plain = indexGraph(
      JSON.parse(serializeGraph(buildTree({ 'tsconfig.json': '{}', 'src/a.ts': 'export const a = 1;\n' }))) as Graph,
    );
    const none = answerQuery(plain, { query: 'why', id: 'sym:src/a.ts#a' });
    assert.ok(none.available && 'notes' in none, 'a graph without records or notes answers');
    assert.deepEqual([none.notes, none.records, none.cited, none.fileNotes, none.fileRecords], [[], [], [], [], []]);
  });
});

describe('the rationale hover', () => {
  after(removeTempDirs);

  it('finds the declaration whose name is under the cursor, and nothing beside it', () => {
    const g = buildFixture();
    const syms = g.nodes.filter((n) => n.sourceFile === CACHE && n.id.startsWith('sym:'));
    const cache = positionIn(FIXTURE, CACHE, 'Cache {');
    const run = positionIn(FIXTURE, CACHE, 'run()');
    const at = (line: number, column: number) => symbolAt(syms, line, column)?.id;
    assert.equal(at(cache.line, cache.column), `sym:${CACHE}#Cache`, 'the first character');
    assert.equal(at(cache.line, cache.column + 4), `sym:${CACHE}#Cache`, 'the last character');
    assert.equal(at(cache.line, cache.column + 5), `sym:${CACHE}#Cache`, 'just after it (where VS Code puts a cursor at the word end)');
    assert.equal(at(cache.line, cache.column + 6), undefined, 'the brace');
    assert.equal(at(cache.line, cache.column - 2), undefined, 'the keyword before it');
    assert.equal(at(run.line, run.column + 1), `sym:${CACHE}#Cache.run`, 'a method by its own name, not its dotted label');
    assert.equal(at(cache.line + 1, cache.column), undefined);
  });

  it('says the notes and records as markdown, escaping what the graph holds', () => {
    const load = indexGraph(JSON.parse(serializeGraph(buildFixture())) as Graph);
    const md = whyHoverMarkdown(answerQuery(load, { query: 'why', id: `sym:${CACHE}#Cache` }) as WhyResult);
    assert.ok(md);
    const line = positionIn(FIXTURE, CACHE, 'WHY(cache@2026-08-10): entries').line;
    assert.ok(
      md.includes(
        `- \`cache@2026-08-10\` entries live until the server restarts\\, because the worker owns them \\(ADR\\-2\\)\\. — src\\/cache\\.ts\\:${line}`,
      ),
      md,
    );
    assert.ok(md.includes('*Decision records citing it*\n\n- ADR 1\\: Keep a cache — docs\\/adr\\/0001\\-keep\\-a\\-cache\\.md\\:1'), md);
    assert.ok(md.includes('*(names it)*'), 'the guide only names Cache');
    assert.ok(md.includes('*Notes on its file*'));
    assert.ok(!md.includes('Decision records citing its file'), 'an empty section is left out');
    const hostile: WhyResult = {
      available: true,
      id: 'sym:a.ts#f',
      notes: [
        {
          id: 'rationale:a.ts#x@2026-01-01~0',
          label: 'x',
          area: 'x',
          stamp: '2026-01-01',
          text: 'WHY(x@2026-01-01): <img src=x> [link](command:evil) *bold*',
          sitsOn: true,
        },
      ],
      records: [],
      cited: [],
      fileNotes: [],
      fileRecords: [],
      evidenceClass: 'GRAPH_DERIVED',
    };
    const escaped = whyHoverMarkdown(hostile) ?? '';
    assert.ok(escaped.includes('\\<img src\\=x\\> \\[link\\]\\(command\\:evil\\) \\*bold\\*'), escaped);
    // With a link maker each location is a link (its target escaped for markdown); a record that
    // cites the declaration and that its comments name is listed once.
    const adr = { id: 'adr:1', label: 'ADR 1: One owner', file: 'docs/adr/0001-one owner (draft).md', line: 1 };
    const linked =
      whyHoverMarkdown(
        { ...hostile, notes: [{ ...hostile.notes[0], file: 'a.ts', line: 3 }], records: [adr], cited: [adr] },
        (file, line) => `file:///ws/${file}#L${line}`,
      ) ?? '';
    assert.ok(linked.includes(' — [a\\.ts\\:3](file:///ws/a.ts#L3)'), linked);
    assert.ok(
      linked.includes(
        '- ADR 1\\: One owner *(its comments name it too)* — [docs\\/adr\\/0001\\-one owner \\(draft\\)\\.md\\:1](file:///ws/docs/adr/0001-one%20owner%20%28draft%29.md#L1)',
      ),
      linked,
    );
    assert.ok(!linked.includes('Decision records it follows'), linked);
    const empty: WhyResult = { ...hostile, notes: [] };
    assert.equal(whyHoverMarkdown(empty), undefined, 'nothing written: no hover');
    assert.equal(
      whyHoverMarkdown({ available: false, reason: 'unknown node: x', code: 'UNKNOWN_NODE', evidenceClass: 'GRAPH_DERIVED' }),
      undefined,
    );
  });
});
