// The query catalogue (src/graph/query/catalogue.ts): every answer of every question matches the
// schema the catalogue promises (on the golden snapshot graphs, real extractor output), arguments
// from outside are checked, the `symbol` picture is worked out by hand, and the CLI's commands and
// help are the catalogue's.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import {
  answerOn,
  answerQuery,
  CATALOGUE,
  CATALOGUE_NAMES,
  checkArgs,
  isGraphError,
  MAX_TEXT_PARAM,
  namesFor,
  parseGraphText,
  QUERY_NAMES,
  RESULT_SCHEMAS,
  UNAVAILABLE_SCHEMA,
  type CatalogueName,
  type GraphLoad,
  type IndexedGraph,
} from '../../src/graph';
import { run } from '../../src/cli/run';
import { CONSUMER_RELATIONS } from '../../src/graph/consumers';
import { SNAPSHOTS } from '../helpers/fixtures';
import { graphOf, indexed, ok } from '../helpers/graphs';

const ajv = new Ajv({ allErrors: true, strict: true });
const validators = new Map(CATALOGUE_NAMES.map((n) => [n, ajv.compile(RESULT_SCHEMAS[n])]));
const unavailable = ajv.compile(UNAVAILABLE_SCHEMA);

/** What a face sends on: JSON, where `undefined` in an array is null and at the top is absent. */
const asJson = (v: unknown): unknown => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

function assertSchema(name: CatalogueName, value: unknown, what: string): void {
  const json = asJson(value) as { available?: boolean };
  if (json !== null && typeof json === 'object' && json.available === false) {
    assert.ok(unavailable(json), `${what}: degrade off its schema: ${ajv.errorsText(unavailable.errors)}`);
    return;
  }
  const v = validators.get(name)!;
  assert.ok(v(json), `${what}: answer off its schema: ${ajv.errorsText(v.errors)}\n${JSON.stringify(json).slice(0, 400)}`);
}

function snapshotLoads(): Array<[string, GraphLoad]> {
  return fs
    .readdirSync(SNAPSHOTS)
    .filter((c) => fs.existsSync(path.join(SNAPSHOTS, c, 'graph.json')))
    .map((c) => [c, parseGraphText(fs.readFileSync(path.join(SNAPSHOTS, c, 'graph.json'), 'utf8'))]);
}

describe('the catalogue', () => {
  it('offers the query contract to the CLI and agents, and the editor its own questions', () => {
    assert.deepEqual(namesFor('cli'), [...QUERY_NAMES]);
    assert.deepEqual(namesFor('agent'), [...QUERY_NAMES]);
    assert.deepEqual(namesFor('editor').sort(), ['counts', 'details', 'fileSymbols', 'neighbourGroups', 'nodes', 'search', 'whyAt']);
    for (const n of CATALOGUE_NAMES) assert.ok(CATALOGUE[n].summary.length > 10 && CATALOGUE[n].help.length > 10, n);
  });

  it('every answer on every snapshot graph matches its declared schema', () => {
    let checked = 0;
    for (const [name, load] of snapshotLoads()) {
      assert.ok(load.ok, name);
      const g: IndexedGraph = load.graph;
      const ids = g.ids.slice(0, g.nodeCount);
      for (const id of ids) {
        for (const q of ['callers', 'affected', 'impact', 'why', 'symbol'] as const)
          assertSchema(q, answerQuery(load, { query: q, id }), `${name} ${q} ${id}`);
        assertSchema('neighbors', answerQuery(load, { query: 'neighbors', id, budget: 8 }), `${name} neighbors ${id}`);
        assertSchema('path', answerQuery(load, { query: 'path', from: ids[0], to: id }), `${name} path ${id}`);
        assertSchema('details', answerOn(g, 'details', { id }), `${name} details ${id}`);
        assertSchema('neighbourGroups', answerOn(g, 'neighbourGroups', { id, budget: 3 }), `${name} groups ${id}`);
        const n = g.nodeAt[g.rankOf.get(id)!]!;
        if (n.sourceFile && n.line !== undefined && n.column !== undefined)
          assertSchema('whyAt', answerOn(g, 'whyAt', { file: n.sourceFile, line: n.line, column: n.column }), `${name} whyAt ${id}`);
        if (id.startsWith('file:')) assertSchema('fileSymbols', answerOn(g, 'fileSymbols', { file: id.slice(5) }), `${name} symbols ${id}`);
        checked++;
      }
      assertSchema('counts', answerOn(g, 'counts', { ids: [...ids, 'sym:nowhere.ts#x'] }), `${name} counts`);
      assertSchema('nodes', answerOn(g, 'nodes', { ids: [...ids, 'sym:nowhere.ts#x'] }), `${name} nodes`);
      assertSchema('god-nodes', answerQuery(load, { query: 'god-nodes' }), `${name} god-nodes`);
      assertSchema('query', answerQuery(load, { query: 'query', text: 'src' }), `${name} query`);
      assertSchema('unused', answerQuery(load, { query: 'unused' }), `${name} unused`);
      assertSchema('unused', answerQuery(load, { query: 'unused', path: 'src', offset: 1, limit: 2 }), `${name} unused src`);
      for (const text of ['src', 'a', 'zzz-none']) assertSchema('search', answerOn(g, 'search', { text }), `${name} search ${text}`);
      assertSchema('callers', answerQuery(load, { query: 'callers', id: 'sym:nowhere.ts#x' }), `${name} unknown`);
    }
    assert.ok(checked > 200, `only ${checked} nodes checked`);
  });

  it('a schema refuses what its answer must not hold (the check can fail)', () => {
    const v = validators.get('callers')!;
    assert.equal(v({ available: true, callers: ['a'], candidates: [], evidenceClass: 'GRAPH_DERIVED' }), true);
    assert.equal(v({ available: true, callers: ['a'], evidenceClass: 'GRAPH_DERIVED' }), false, 'candidates missing');
    assert.equal(v({ available: true, callers: [1], candidates: [], evidenceClass: 'GRAPH_DERIVED' }), false, 'a number for an id');
    assert.equal(v({ available: true, callers: [], candidates: [], proven: [], evidenceClass: 'GRAPH_DERIVED' }), false, 'an extra field');
  });

  it("affected's help names every relation that makes a consumer, as consumers.ts defines them", () => {
    const help = CATALOGUE.affected.help.replace(/\s+/g, ' ');
    for (const r of CONSUMER_RELATIONS) assert.match(help, new RegExp(`\\b${r}\\b`), r);
  });
});

describe('arguments from outside', () => {
  const bad = (name: CatalogueName, raw: unknown, pattern: RegExp) =>
    assert.throws(
      () => checkArgs(name, raw),
      (e: unknown) => isGraphError(e) && e.code === 'INVALID_ARGUMENT' && pattern.test(e.message),
    );

  it('fills in defaults and keeps what was given', () => {
    assert.deepEqual(checkArgs('neighbors', { id: 'x' }), { id: 'x', budget: 40 });
    assert.deepEqual(checkArgs('unused', {}), { path: '', offset: 0, limit: 100 });
    assert.deepEqual(checkArgs('god-nodes', {}), { top: 10 });
    assert.deepEqual(checkArgs('symbol', { id: 'x', limit: 5 }), { id: 'x', limit: 5 });
  });

  it('refuses unknown arguments, wrong types, texts past the limit and numbers out of range', () => {
    bad('callers', { id: 'x', depth: 2 }, /unknown argument "depth"/);
    bad('callers', { id: 7 }, /"id" must be a string/);
    bad('callers', {}, /^callers: "id" is missing$/);
    bad('query', { text: '' }, /"text" is empty/);
    bad('callers', { id: 'x'.repeat(MAX_TEXT_PARAM + 1) }, /longer than/);
    bad('neighbors', { id: 'x', budget: 0 }, /at least 1/);
    bad('neighbors', { id: 'x', budget: 1.5 }, /whole number/);
    bad('symbol', { id: 'x', limit: 1001 }, /at most 1000/);
    bad('counts', { ids: ['a', 3] }, /array of strings/);
    bad('callers', null, /must be an object/);
    bad('callers', ['x'], /must be an object/);
  });
});

describe('symbol', () => {
  const s = (n: string, f = 'src/a.ts') => `sym:${f}#${n}`;
  // t is called by a (EXACT), b (EXACT), c (CANDIDATE); t calls u (EXACT), v (CANDIDATE) and two
  // names nobody could place. An ADR cites t.
  const graph = graphOf([
    [s('a'), s('t')],
    [s('b', 'src/b.ts'), s('t')],
    [s('c', 'src/c.ts'), s('t'), 'calls', 'CANDIDATE'],
    [s('t'), s('u')],
    [s('t'), s('v'), 'calls', 'CANDIDATE'],
    [s('t'), 'unresolved:fetch'],
    [s('t'), 'unresolved:lodash'],
    ['adr:1', s('t'), 'cites'],
  ]);
  for (const e of graph.edges) if (e.target.startsWith('unresolved:')) e.reason = 'external';
  const t = graph.nodes.find((n) => n.id === s('t'))!;
  Object.assign(t, { sourceFile: 'src/a.ts', line: 3, column: 17 });
  const g = indexed(graph);
  const ids = (list: Array<{ id: string }>) => list.map((c) => c.id);

  it('puts declaration, proof, guesses, holes and rationale apart', () => {
    const r = ok(answerOn(g, 'symbol', { id: s('t') }));
    assert.equal(r.location, 'src/a.ts:3:17');
    assert.deepEqual(ids(r.callers), [s('a'), s('b', 'src/b.ts')]);
    assert.deepEqual(ids(r.candidates), [s('c', 'src/c.ts')]);
    assert.deepEqual(ids(r.callees), [s('u')]);
    assert.deepEqual(ids(r.calleeCandidates), [s('v')]);
    assert.deepEqual(
      r.unresolved.map((c) => [c.name, c.reason]),
      [
        ['fetch', 'external'],
        ['lodash', 'external'],
      ],
    );
    assert.deepEqual(ids(r.records), ['adr:1']);
    assert.deepEqual(r.totals, { callers: 2, candidates: 1, callees: 1, calleeCandidates: 1, unresolved: 2 });
  });

  it('cuts each list at the limit and still counts them all', () => {
    const r = ok(answerOn(g, 'symbol', { id: s('t'), limit: 1 }));
    assert.deepEqual(ids(r.callers), [s('a')]);
    assert.equal(r.unresolved.length, 1);
    assert.equal(r.totals.callers, 2);
    assert.equal(r.totals.unresolved, 2);
  });

  it('agrees with callers on the same graph', () => {
    const c = ok(answerOn(g, 'callers', { id: s('t') }));
    const r = ok(answerOn(g, 'symbol', { id: s('t') }));
    assert.deepEqual([ids(r.callers), ids(r.candidates)], [c.callers, c.candidates]);
  });

  it('neighbour groups list proof before guesses', () => {
    const groups = answerOn(g, 'neighbourGroups', { id: s('t'), budget: 10 });
    const callsIn = groups.find((x) => x.relation === 'calls' && x.direction === 'in')!;
    assert.deepEqual(
      callsIn.items.map((i) => i.confidence),
      ['EXACT', 'EXACT', 'CANDIDATE'],
    );
    const callsOut = groups.find((x) => x.relation === 'calls' && x.direction === 'out')!;
    assert.deepEqual(
      callsOut.items.map((i) => i.confidence),
      ['EXACT', 'CANDIDATE', 'UNRESOLVED', 'UNRESOLVED'],
    );
  });
});

describe('the CLI is the catalogue', () => {
  const cli = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await run(argv, {
      stdout: { write: (c: string) => (out += c) },
      stderr: { write: (c: string) => (err += c) },
      cwd: SNAPSHOTS,
    });
    return { code, out, err };
  };

  it('has one command per cli question, with the catalogue help and the parameters as options', async () => {
    const top = await cli(['--help']);
    for (const name of namesFor('cli')) {
      assert.match(top.out, new RegExp(`\\b${name}\\b`), `kg --help lists ${name}`);
      const h = await cli([name, '--help']);
      assert.equal(h.code, 0);
      assert.ok(h.out.includes(CATALOGUE[name].help), `kg ${name} --help shows the catalogue's help`);
    }
    assert.match((await cli(['symbol', '--help'])).out, /--limit N +At most this many entries .*\(default 20\)/);
  });

  it('checks integer options against the catalogue limits', async () => {
    const r = await cli(['symbol', 'x', '--limit', '5000', '--graph', path.join(SNAPSHOTS, 'calls-callers', 'graph.json')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /--limit must be a whole number, at least 1, at most 1000 \(got "5000"\)/);
  });

  it('kg symbol answers what the catalogue answers', async () => {
    const file = path.join(SNAPSHOTS, 'calls-callers', 'graph.json');
    const load = parseGraphText(fs.readFileSync(file, 'utf8'));
    assert.ok(load.ok);
    const id = load.graph.byDegree.length > 0 ? load.graph.ids[load.graph.byDegree[0]] : '';
    const r = await cli(['symbol', id, '--graph', file]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), asJson(answerQuery(load, { query: 'symbol', id })));
  });
});
