// The seven queries on hand-built graphs: every expectation below is worked out by hand from the
// edges written next to it, not copied from the code's output.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  answerQuery,
  GraphError,
  indexGraph,
  nodeOf,
  queryAffected,
  queryCallers,
  queryGodNodes,
  queryIds,
  queryImpact,
  queryNeighbors,
  queryPath,
  queryUnused,
  type Graph,
} from '../../src/graph';
import { degraded, graphOf, indexed, indexedOf, ok, type EdgeSpec } from '../helpers/graphs';

const sym = (name: string, file = 'src/a.ts') => `sym:${file}#${name}`;

describe('callers', () => {
  // target is called by: a (EXACT), c (EXACT), itself (EXACT, recursion); b and d guess by name;
  // x makes an unresolved call; f imports the file (not a call).
  const g = indexedOf([
    [sym('a'), sym('target')],
    [sym('b'), sym('target'), 'calls', 'CANDIDATE'],
    [sym('c', 'src/c.ts'), sym('target')],
    [sym('d', 'src/d.ts'), sym('target'), 'calls', 'CANDIDATE'],
    [sym('target'), sym('target')],
    [sym('x'), 'unresolved:target'],
    ['file:src/f.ts', 'file:src/a.ts', 'imports'],
    ['file:src/a.ts', sym('target'), 'contains'],
  ]);

  it('splits proof from guesses, sorted, and lists a recursive symbol as its own caller', () => {
    const r = ok(queryCallers(g, sym('target')));
    assert.deepEqual(r.callers, [sym('a'), sym('target'), sym('c', 'src/c.ts')].sort());
    assert.deepEqual(r.candidates, [sym('b'), sym('d', 'src/d.ts')]);
    assert.equal(r.evidenceClass, 'GRAPH_DERIVED');
  });

  it('an uncalled symbol is a real, empty answer', () => {
    const r = ok(queryCallers(g, sym('a')));
    assert.deepEqual([r.callers, r.candidates], [[], []]);
  });

  it('a proven caller is never also listed as a guess', () => {
    // A hand-edited file may hold the same pair twice; the proof wins.
    const graph = graphOf([[sym('a'), sym('t')]]);
    graph.edges.push({ ...graph.edges[0], confidence: 'CANDIDATE', provenance: 'NAME_MATCH', evidenceClass: 'HEURISTIC' });
    const r = ok(queryCallers(indexed(graph), sym('t')));
    assert.deepEqual([r.callers, r.candidates], [[sym('a')], []]);
  });

  it('an id not in the graph is unavailable, with suggestions by label', () => {
    const r = degraded(queryCallers(g, 'target'));
    assert.equal(r.code, 'UNKNOWN_NODE');
    assert.equal(r.reason, 'unknown node: target');
    assert.deepEqual(r.suggestions, [sym('target')]);
  });

  it('an unresolved: target is a name, not a node', () => {
    const r = degraded(queryCallers(g, 'unresolved:target'));
    assert.equal(r.code, 'UNKNOWN_NODE');
    assert.match(r.reason, /^not a node: unresolved:target /);
  });

  it('without a calls layer the answer is unavailable, not empty', () => {
    const noCalls = indexedOf([
      ['file:a.ts', 'file:b.ts', 'imports'],
      ['file:a.ts', sym('f', 'a.ts'), 'contains'],
    ]);
    const r = degraded(queryCallers(noCalls, sym('f', 'a.ts')));
    assert.deepEqual(r, {
      available: false,
      reason: 'calls layer not built in this projection',
      code: 'LAYER_MISSING',
      evidenceClass: 'GRAPH_DERIVED',
    });
  });
});

describe('affected and impact', () => {
  // f is called by a (EXACT) and b (CANDIDATE), extended by class K (EXACT), calls itself, and
  // is contained in its file (containment is not a dependency). The file src/a.ts is imported by
  // src/i.ts and re-exported by src/index.ts.
  const g = indexedOf([
    [sym('a', 'src/u.ts'), sym('f')],
    [sym('b', 'src/v.ts'), sym('f'), 'calls', 'CANDIDATE'],
    [sym('K', 'src/k.ts'), sym('f'), 'extends'],
    [sym('f'), sym('f')],
    ['file:src/a.ts', sym('f'), 'contains'],
    ['file:src/i.ts', 'file:src/a.ts', 'imports'],
    ['file:src/index.ts', 'file:src/a.ts', 're-exports'],
    [sym('g'), sym('h'), 'calls', 'CANDIDATE'],
  ]);

  it('affected: proven consumers, breaks, guesses apart, never the node itself', () => {
    const r = ok(queryAffected(g, sym('f')));
    assert.deepEqual(r.consumers, [sym('K', 'src/k.ts'), sym('a', 'src/u.ts')]);
    assert.equal(r.breaks, true);
    assert.deepEqual(r.candidates, [sym('b', 'src/v.ts')]);
  });

  it('affected: a file is consumed by its importers and re-exporters', () => {
    const r = ok(queryAffected(g, 'file:src/a.ts'));
    assert.deepEqual(r.consumers, ['file:src/i.ts', 'file:src/index.ts']);
    assert.equal(r.breaks, true);
  });

  it('affected: only guessed consumers do not break', () => {
    const r = ok(queryAffected(g, sym('h')));
    assert.deepEqual([r.consumers, r.breaks, r.candidates], [[], false, [sym('g')]]);
  });

  it('impact: callers and consumers, a radius of proof only, guesses counted apart', () => {
    const r = ok(queryImpact(g, sym('f')));
    assert.deepEqual(r.callers, [sym('a', 'src/u.ts')]);
    assert.deepEqual(r.consumers, [sym('K', 'src/k.ts'), sym('a', 'src/u.ts')]);
    assert.equal(r.blastRadius, 2);
    assert.deepEqual(r.candidates, [sym('b', 'src/v.ts')]);
    assert.equal(r.candidateRadius, 1);
  });

  it('without calls: a symbol degrades, a file still answers from its imports', () => {
    const noCalls = indexedOf([
      ['file:b.ts', 'file:a.ts', 'imports'],
      ['file:a.ts', sym('f', 'a.ts'), 'contains'],
    ]);
    assert.equal(degraded(queryAffected(noCalls, sym('f', 'a.ts'))).code, 'LAYER_MISSING');
    assert.equal(degraded(queryImpact(noCalls, sym('f', 'a.ts'))).code, 'LAYER_MISSING');
    assert.deepEqual(ok(queryAffected(noCalls, 'file:a.ts')).consumers, ['file:b.ts']);
    assert.equal(ok(queryImpact(noCalls, 'file:a.ts')).blastRadius, 1);
  });
});

/** A graph of `n` extra nodes where `hub` has `spokes` neighbours: enough nodes that the 99th percentile stays low. */
function hubGraph(spokes: number): { graph: Graph; hub: string; spoke: (i: number) => string } {
  const hub = sym('hub', 'src/h.ts');
  const spoke = (i: number) => sym(`s${String(i).padStart(3, '0')}`, 'src/s.ts');
  const edges: EdgeSpec[] = [];
  for (let i = 0; i < spokes; i++) edges.push([spoke(i), hub]);
  // A chain beside it: s000 - c0 - c1 - … - c149, so there are plenty of low-degree nodes.
  const chain = (i: number) => sym(`c${String(i).padStart(3, '0')}`, 'src/c.ts');
  edges.push([spoke(0), chain(0)]);
  for (let i = 1; i < 150; i++) edges.push([chain(i - 1), chain(i)]);
  return { graph: graphOf(edges), hub, spoke };
}

describe('neighbors', () => {
  it('the hub threshold is the 99th-percentile degree, floored at 50', () => {
    // 231 nodes: the hub (degree 80), spoke 0 (degree 2), 79 spokes of degree 1, 150 chain nodes
    // (149 of degree 2, the last of degree 1). Ascending: 80 ones, 150 twos, then 80. The
    // nearest-rank p99 is the value at rank ceil(0.99 × 231) = 229: a 2. Floored: 50.
    const g = indexed(hubGraph(80).graph);
    assert.equal(g.hubThreshold, 50);
    // A graph whose p99 is above the floor: 60 nodes, each pair joined once, so every degree is 59.
    const dense: EdgeSpec[] = [];
    for (let i = 0; i < 60; i++) for (let j = i + 1; j < 60; j++) dense.push([sym(`n${i}`), sym(`n${j}`)]);
    assert.equal(indexedOf(dense).hubThreshold, 59);
  });

  it('reaches a hub but never expands through it, and lists it', () => {
    const { graph, hub, spoke } = hubGraph(80);
    const g = indexed(graph);
    const r = ok(queryNeighbors(g, spoke(5), 40));
    // spoke 5 touches only the hub; the hub is not expanded, so nothing else is reachable.
    assert.deepEqual(r.nodes, [spoke(5), hub]);
    assert.deepEqual(r.excludedHubs, [hub]);
    assert.equal(r.hubThreshold, 50);
    assert.deepEqual(r.edges, [{ source: spoke(5), target: hub, relation: 'calls', confidence: 'EXACT' }]);
  });

  it('expands the start even when it is a hub, within the budget, in sorted order', () => {
    const { graph, hub, spoke } = hubGraph(80);
    const r = ok(queryNeighbors(indexed(graph), hub, 5));
    assert.deepEqual(r.nodes, [hub, spoke(0), spoke(1), spoke(2), spoke(3)]);
    assert.deepEqual(r.excludedHubs, []);
  });

  it('is breadth-first: all of distance 1 (sorted) before distance 2', () => {
    const { graph, hub, spoke } = hubGraph(80);
    const chain = (i: number) => sym(`c${String(i).padStart(3, '0')}`, 'src/c.ts');
    // s000 touches c000 and the hub (c000 sorts before the hub's file src/h.ts).
    const r = ok(queryNeighbors(indexed(graph), spoke(0), 5));
    assert.deepEqual(r.nodes, [spoke(0), chain(0), hub, chain(1), chain(2)]);
    assert.deepEqual(r.excludedHubs, [hub]);
  });

  it('respects the budget, and defaults it to 40', () => {
    const { graph, hub } = hubGraph(80);
    const g = indexed(graph);
    assert.equal(ok(queryNeighbors(g, hub)).nodes.length, 40);
    assert.deepEqual(ok(queryNeighbors(g, hub, 1)).nodes, [hub]);
    assert.throws(
      () => queryNeighbors(g, hub, 0),
      (e: unknown) => e instanceof GraphError && e.code === 'INVALID_ARGUMENT',
    );
    assert.throws(() => queryNeighbors(g, hub, 2.5), GraphError);
  });

  it('stays in its part of a disconnected graph, and a self-loop adds nothing', () => {
    const g = indexedOf([
      [sym('a'), sym('b')],
      [sym('b'), sym('b')],
      [sym('x'), sym('y')],
    ]);
    const r = ok(queryNeighbors(g, sym('a')));
    assert.deepEqual(r.nodes, [sym('a'), sym('b')]);
    assert.deepEqual(
      r.edges.map((e) => `${e.source}>${e.target}`),
      [`${sym('a')}>${sym('b')}`, `${sym('b')}>${sym('b')}`],
    );
  });

  it('reaches an unresolved target but does not walk through it to its other callers', () => {
    const g = indexedOf([
      [sym('a'), 'unresolved:log'],
      [sym('b'), 'unresolved:log'],
    ]);
    assert.deepEqual(ok(queryNeighbors(g, sym('a'))).nodes, [sym('a'), 'unresolved:log']);
    // Asked about directly, the name shows who calls it.
    assert.deepEqual(ok(queryNeighbors(g, 'unresolved:log')).nodes, ['unresolved:log', sym('a'), sym('b')]);
  });
});

describe('path', () => {
  it('the shortest path, ties broken by sorted id', () => {
    // a–b–d and a–c–d are both two hops; b sorts before c.
    const g = indexedOf([
      [sym('a'), sym('c')],
      [sym('c'), sym('d')],
      [sym('a'), sym('b')],
      [sym('b'), sym('d')],
      [sym('a'), sym('e')],
      [sym('e'), sym('f')],
      [sym('f'), sym('d')],
    ]);
    assert.deepEqual(ok(queryPath(g, sym('a'), sym('d'))).path, [sym('a'), sym('b'), sym('d')]);
  });

  it('the tie-break compares whole paths from the start, not the last hop', () => {
    // a–x–q–t and a–y–p–t: x < y, so a–x–q–t, even though p < q.
    const g = indexedOf([
      [sym('a'), sym('x')],
      [sym('a'), sym('y')],
      [sym('x'), sym('q')],
      [sym('y'), sym('p')],
      [sym('q'), sym('t')],
      [sym('p'), sym('t')],
    ]);
    assert.deepEqual(ok(queryPath(g, sym('a'), sym('t'))).path, [sym('a'), sym('x'), sym('q'), sym('t')]);
  });

  it('walks edges against their direction and reports each hop in its real direction', () => {
    const g = indexedOf([
      [sym('caller'), sym('callee')],
      ['file:src/a.ts', sym('caller'), 'contains'],
    ]);
    const r = ok(queryPath(g, sym('callee'), 'file:src/a.ts'));
    assert.deepEqual(r.path, [sym('callee'), sym('caller'), 'file:src/a.ts']);
    assert.deepEqual(r.edges, [
      { source: sym('caller'), target: sym('callee'), relation: 'calls', confidence: 'EXACT' },
      { source: 'file:src/a.ts', target: sym('caller'), relation: 'contains', confidence: 'EXACT' },
    ]);
  });

  it('a hop takes the strongest edge, then the forward one', () => {
    const g = indexedOf([
      [sym('u'), sym('v'), 'calls', 'CANDIDATE'],
      [sym('v'), sym('u'), 'calls', 'EXACT'],
      ['file:a.ts', 'file:b.ts', 'imports'],
      ['file:b.ts', 'file:a.ts', 'imports'],
    ]);
    assert.deepEqual(ok(queryPath(g, sym('u'), sym('v'))).edges, [
      { source: sym('v'), target: sym('u'), relation: 'calls', confidence: 'EXACT' },
    ]);
    assert.deepEqual(ok(queryPath(g, 'file:b.ts', 'file:a.ts')).edges, [
      { source: 'file:b.ts', target: 'file:a.ts', relation: 'imports', confidence: 'EXACT' },
    ]);
  });

  it('not connected is an empty path, and a node to itself is a path of one', () => {
    const g = indexedOf([
      [sym('a'), sym('b')],
      [sym('x'), sym('y')],
    ]);
    const r = ok(queryPath(g, sym('a'), sym('y')));
    assert.deepEqual([r.path, r.edges], [[], []]);
    assert.deepEqual(ok(queryPath(g, sym('a'), sym('a'))).path, [sym('a')]);
  });

  it('never passes through an unresolved target, but may end at one', () => {
    const g = indexedOf([
      [sym('a'), 'unresolved:log'],
      [sym('b'), 'unresolved:log'],
    ]);
    assert.deepEqual(ok(queryPath(g, sym('a'), sym('b'))).path, []);
    assert.deepEqual(ok(queryPath(g, sym('a'), 'unresolved:log')).path, [sym('a'), 'unresolved:log']);
  });

  it('passes through hubs', () => {
    const { graph, hub, spoke } = hubGraph(80);
    assert.deepEqual(ok(queryPath(indexed(graph), spoke(7), spoke(9))).path, [spoke(7), hub, spoke(9)]);
  });

  it('prefers a chain of proven calls in the direction asked over a shorter path against it', () => {
    // a calls b calls c calls d (3 hops, forward); a and d are also both called by x (2 hops, but
    // x→a is against the direction). The chain is the answer; the two-hop connection is not.
    const g = indexedOf([
      [sym('a'), sym('b')],
      [sym('b'), sym('c')],
      [sym('c'), sym('d')],
      [sym('x'), sym('a')],
      [sym('x'), sym('d')],
    ]);
    const r = ok(queryPath(g, sym('a'), sym('d')));
    assert.deepEqual(r.path, [sym('a'), sym('b'), sym('c'), sym('d')]);
    assert.equal(r.directed, true);
    assert.equal(r.note, undefined);
    assert.deepEqual(
      r.edges.map((e) => [e.source, e.target]),
      [
        [sym('a'), sym('b')],
        [sym('b'), sym('c')],
        [sym('c'), sym('d')],
      ],
    );
    // Asked the other way, d reaches nothing: the connection through x, said to be no chain.
    const back = ok(queryPath(g, sym('d'), sym('a')));
    assert.deepEqual(back.path, [sym('d'), sym('x'), sym('a')]);
    assert.equal(back.directed, false);
    assert.equal(
      back.note,
      `no chain of proven calls from ${sym('d')} to ${sym('a')}; connected by 2 hop(s) with edges taken in either direction: not a call chain (each hop's edge says which way it goes)`,
    );
    // undirected: the shortest connection whatever the direction, and it says so.
    const any = ok(queryPath(g, sym('a'), sym('d'), true));
    assert.deepEqual([any.path, any.directed], [[sym('a'), sym('x'), sym('d')], false]);
    assert.match(any.note ?? '', /as asked \(undirected\): not a call chain/);
  });

  it('two callers of one logging helper are connected, and the answer says neither reaches the other', () => {
    const g = indexedOf([
      [sym('save'), sym('log')],
      [sym('load'), sym('log')],
    ]);
    const r = ok(queryPath(g, sym('save'), sym('load')));
    assert.deepEqual([r.path, r.directed], [[sym('save'), sym('log'), sym('load')], false]);
    assert.match(r.note ?? '', /^no chain of proven calls from sym:src\/a.ts#save to sym:src\/a.ts#load; connected/);
  });

  it('a guess, a reference or an import is not a link of a chain', () => {
    // a→b is CANDIDATE, b references c, c's file imports d's: connected, never a chain.
    const g = indexedOf([
      [sym('a'), sym('b'), 'calls', 'CANDIDATE'],
      [sym('b'), sym('c'), 'references'],
      [sym('c'), sym('d')],
    ]);
    const r = ok(queryPath(g, sym('a'), sym('d')));
    assert.deepEqual([r.path, r.directed], [[sym('a'), sym('b'), sym('c'), sym('d')], false]);
    const none = ok(
      queryPath(
        indexedOf([
          [sym('a'), sym('b')],
          [sym('x'), sym('y')],
        ]),
        sym('a'),
        sym('y'),
      ),
    );
    assert.deepEqual([none.path, none.directed], [[], false]);
    assert.equal(none.note, `no chain of proven calls from ${sym('a')} to ${sym('y')}, and they are not connected in either direction`);
    // A node reaches itself.
    assert.deepEqual(ok(queryPath(g, sym('a'), sym('a'))).directed, true);
  });

  it('an unknown end is unavailable and names it', () => {
    const g = indexedOf([[sym('a'), sym('b')]]);
    assert.equal(degraded(queryPath(g, sym('a'), sym('nope'))).reason, `unknown node: ${sym('nope')}`);
  });
});

describe('god-nodes', () => {
  it('ranks by in + out degree, ties by id, unresolved targets never ranked', () => {
    // Degrees: hub 4 (in from a, b, c; out to d); d 3 (in from hub, and its self-loop counts once
    // in and once out); a, b, c 2 each (out to hub, out to unresolved:x); unresolved:x has 3 but
    // is not a node.
    const g = indexedOf([
      [sym('a'), sym('hub')],
      [sym('b'), sym('hub')],
      [sym('c'), sym('hub')],
      [sym('hub'), sym('d')],
      [sym('d'), sym('d')],
      [sym('a'), 'unresolved:x'],
      [sym('b'), 'unresolved:x'],
      [sym('c'), 'unresolved:x'],
    ]);
    const r = ok(queryGodNodes(g));
    assert.deepEqual(r.godNodes, [
      { id: sym('hub'), degree: 4 },
      { id: sym('d'), degree: 3 },
      { id: sym('a'), degree: 2 },
      { id: sym('b'), degree: 2 },
      { id: sym('c'), degree: 2 },
    ]);
    assert.deepEqual(
      ok(queryGodNodes(g, 2)).godNodes.map((x) => x.id),
      [sym('hub'), sym('d')],
    );
  });

  it('defaults to the top 10 and rejects a top below 1', () => {
    const edges: EdgeSpec[] = [];
    for (let i = 0; i < 30; i++) edges.push([sym(`n${String(i).padStart(2, '0')}`), sym('z')]);
    const g = indexedOf(edges);
    const r = ok(queryGodNodes(g));
    assert.equal(r.godNodes.length, 10);
    assert.deepEqual(r.godNodes[0], { id: sym('z'), degree: 30 });
    // Nine ties of degree 1, by id.
    assert.deepEqual(
      r.godNodes.slice(1).map((x) => x.id),
      Array.from({ length: 9 }, (_, i) => sym(`n0${i}`)),
    );
    assert.throws(() => queryGodNodes(g, 0), GraphError);
  });
});

describe('query', () => {
  const names = Array.from({ length: 70 }, (_, i) => sym(`handler${String(i).padStart(2, '0')}`, 'src/h.ts'));
  const g = indexedOf(names.map((n) => [n, sym('Dispatch', 'src/d.ts')] as EdgeSpec).concat([[sym('x'), 'unresolved:handlerMissing']]));

  it('substring over ids, sorted, at most 50, says when it cut', () => {
    const r = ok(queryIds(g, 'handler'));
    assert.deepEqual(r.matches, names.slice(0, 50));
    assert.equal(r.truncated, true);
    const few = ok(queryIds(g, 'handler6'));
    assert.deepEqual(few.matches, names.slice(60, 70));
    assert.equal(few.truncated, false);
  });

  it('is case-sensitive, matches 1- and 2-character text, never unresolved targets', () => {
    assert.deepEqual(ok(queryIds(g, 'dispatch')).matches, []);
    assert.deepEqual(ok(queryIds(g, 'Dispatch')).matches, [sym('Dispatch', 'src/d.ts')]);
    assert.deepEqual(ok(queryIds(g, 'D')).matches, [sym('Dispatch', 'src/d.ts')]);
    assert.deepEqual(ok(queryIds(g, 'Di')).matches, [sym('Dispatch', 'src/d.ts')]);
    assert.deepEqual(ok(queryIds(g, 'Missing')).matches, []);
  });

  it('matches a private name as it is written, # and all, beside the escaped id (issue 48)', () => {
    const priv = indexedOf([
      [sym('Ky.%23retry', 'src/ky.ts'), sym('Ky.fetch', 'src/ky.ts')],
      [sym('retry', 'src/b.ts'), sym('Ky.%23retryCount', 'src/ky.ts')],
    ]);
    assert.deepEqual(ok(queryIds(priv, '#retry')).matches, [
      sym('retry', 'src/b.ts'),
      sym('Ky.%23retry', 'src/ky.ts'),
      sym('Ky.%23retryCount', 'src/ky.ts'),
    ]);
    assert.deepEqual(ok(queryIds(priv, 'Ky.#retry')).matches, [sym('Ky.%23retry', 'src/ky.ts'), sym('Ky.%23retryCount', 'src/ky.ts')]);
    assert.deepEqual(ok(queryIds(priv, 'ky.ts#Ky.#retryC')).matches, [sym('Ky.%23retryCount', 'src/ky.ts')]);
    assert.deepEqual(ok(queryIds(priv, 'Ky.%23retryC')).matches, [sym('Ky.%23retryCount', 'src/ky.ts')], 'the escaped form still matches');
  });

  it('no match is a real, empty answer', () => {
    assert.deepEqual(ok(queryIds(g, 'nothing-like-this')), {
      available: true,
      matches: [],
      truncated: false,
      evidenceClass: 'GRAPH_DERIVED',
    });
  });
});

describe('staleness and the dispatcher', () => {
  const g = indexedOf([[sym('a'), sym('b')]]);
  const load = indexGraph(g.graph);

  it('every result carries stale and changedFiles when the caller knows them, and only then', () => {
    const staleness = { stale: true, changedFiles: ['src/a.ts'] };
    const answered = answerQuery(load, { query: 'callers', id: sym('b') }, { staleness });
    assert.deepEqual(answered, {
      available: true,
      callers: [sym('a')],
      candidates: [],
      evidenceClass: 'GRAPH_DERIVED',
      stale: true,
      changedFiles: ['src/a.ts'],
    });
    const unknown = answerQuery(load, { query: 'callers', id: sym('gone') }, { staleness });
    assert.equal(unknown.stale, true);
    assert.deepEqual(unknown.changedFiles, ['src/a.ts']);
    const notLoaded = answerQuery(
      { ok: false, unavailable: degraded(queryPath(g, 'x', 'y')) },
      { query: 'god-nodes' },
      { staleness: { stale: false, changedFiles: [] } },
    );
    assert.equal(notLoaded.stale, false);
    assert.ok(!('stale' in answerQuery(load, { query: 'god-nodes' })));
  });

  it('answers each request with its query, in the contract field order', () => {
    const keys = (r: object) => Object.keys(r);
    assert.deepEqual(keys(answerQuery(load, { query: 'callers', id: sym('b') })), ['available', 'callers', 'candidates', 'evidenceClass']);
    assert.deepEqual(keys(answerQuery(load, { query: 'affected', id: sym('b') })), [
      'available',
      'consumers',
      'breaks',
      'candidates',
      'evidenceClass',
    ]);
    assert.deepEqual(keys(answerQuery(load, { query: 'impact', id: sym('b') })), [
      'available',
      'callers',
      'consumers',
      'blastRadius',
      'candidates',
      'candidateRadius',
      'evidenceClass',
    ]);
    assert.deepEqual(keys(answerQuery(load, { query: 'neighbors', id: sym('b') })), [
      'available',
      'nodes',
      'excludedHubs',
      'hubThreshold',
      'edges',
      'evidenceClass',
    ]);
    assert.deepEqual(keys(answerQuery(load, { query: 'path', from: sym('a'), to: sym('b') })), [
      'available',
      'path',
      'edges',
      'directed',
      'evidenceClass',
    ]);
    assert.deepEqual(keys(answerQuery(load, { query: 'god-nodes' })), ['available', 'godNodes', 'evidenceClass']);
    assert.deepEqual(keys(answerQuery(load, { query: 'query', text: 'a' })), ['available', 'matches', 'truncated', 'evidenceClass']);
    assert.deepEqual(keys(answerQuery(load, { query: 'callers', id: 'nope' })), [
      'available',
      'reason',
      'code',
      'suggestions',
      'evidenceClass',
    ]);
  });
});

describe('index', () => {
  it('answers the same whatever order the file lists nodes and edges in', () => {
    const { graph, spoke } = hubGraph(60);
    const shuffled: Graph = { ...graph, nodes: [...graph.nodes].reverse(), edges: [...graph.edges].reverse() };
    const a = indexed(graph);
    const b = indexed(shuffled);
    for (const id of [spoke(0), spoke(3), sym('c010', 'src/c.ts')]) {
      assert.deepEqual(queryNeighbors(b, id, 12), queryNeighbors(a, id, 12));
      assert.deepEqual(queryCallers(b, id), queryCallers(a, id));
      assert.deepEqual(queryPath(b, id, sym('c140', 'src/c.ts')), queryPath(a, id, sym('c140', 'src/c.ts')));
    }
    assert.deepEqual(queryGodNodes(b, 20), queryGodNodes(a, 20));
  });

  it('ids such as __proto__ and constructor are ordinary keys', () => {
    const g = indexedOf([
      [sym('__proto__'), sym('constructor')],
      [sym('hasOwnProperty'), sym('constructor')],
    ]);
    assert.deepEqual(ok(queryCallers(g, sym('constructor'))).callers, [sym('__proto__'), sym('hasOwnProperty')]);
    assert.equal(degraded(queryCallers(g, '__proto__')).code, 'UNKNOWN_NODE');
    assert.equal(degraded(queryCallers(g, 'constructor')).code, 'UNKNOWN_NODE');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(nodeOf(g, sym('__proto__'))?.label, '__proto__');
    assert.equal(nodeOf(g, '__proto__'), undefined);
    assert.equal(nodeOf(g, 'toString'), undefined);
  });
});

describe('unused (ADR 157)', () => {
  // src/index.ts is the package's main; it re-exports src/pub.ts. main (exported there) calls
  // used and Base.size, guesses guessed by name, makes an unplaced call named `named` and a
  // computed access. Square.area implements Shape.area; Sub.size overrides Base.size (called);
  // Lonely.size overrides Quiet.size (nobody calls Quiet.size, but Lonely.size's edge reaches it).
  // selfish is referenced only by its own member. Ctl is decorated. b.test.ts is a test file.
  const graph = graphOf(
    [
      [sym('main', 'src/index.ts'), sym('used')],
      [sym('main', 'src/index.ts'), sym('Base.size')],
      [sym('main', 'src/index.ts'), sym('guessed'), 'calls', 'CANDIDATE'],
      [sym('main', 'src/index.ts'), 'unresolved:named'],
      [sym('main', 'src/index.ts'), 'unresolved:[key]'],
      [sym('Square.area'), sym('Shape.area', 'src/i.ts'), 'implements'],
      [sym('Sub.size'), sym('Base.size'), 'overrides'],
      [sym('Lonely.size'), sym('Quiet.size'), 'overrides'],
      [sym('selfish.inner'), sym('selfish'), 'references'],
      ['file:src/index.ts', 'file:src/pub.ts', 're-exports'],
    ],
    {
      nodes: [
        sym('dead'),
        sym('named'),
        sym('internal', 'src/index.ts'),
        sym('api', 'src/pub.ts'),
        sym('helper', 'src/b.test.ts'),
        sym('Ctl'),
        sym('Ctl.get'),
        sym('Box.open'),
        sym('d', 'types/env.d.ts'),
      ],
    },
  );
  const members = new Set([
    'Base.size',
    'Sub.size',
    'Lonely.size',
    'Quiet.size',
    'Square.area',
    'Shape.area',
    'selfish.inner',
    'Ctl.get',
    'Box.open',
  ]);
  for (const n of graph.nodes) {
    if (!n.id.startsWith('sym:')) continue;
    if (members.has(n.label)) n.kind = 'method';
    if (['main', 'api', 'helper'].includes(n.label)) n.exported = true;
    if (n.label === 'Ctl') n.decorated = true;
  }
  for (const e of graph.edges) if (e.target === 'unresolved:[key]') e.reason = 'dynamic-access';
  graph.entries = [{ path: 'src/index.ts', from: 'package.json', field: 'main' }];
  const g = indexed(graph);

  it('splits what nothing reaches from what a guess or a hole may reach, and never lists a way in', () => {
    const r = ok(queryUnused(g, '', 0, 100));
    // Members are possibly reached by the computed access; top-level symbols are not (no export of
    // a file the access's file imports).
    assert.deepEqual(
      r.unused.map((u) => u.id),
      [sym('dead'), sym('selfish'), sym('internal', 'src/index.ts')].sort(),
    );
    assert.deepEqual(
      r.possiblyUsed.map((u) => [u.id, u.reasons.map((x) => x.reason)]),
      [
        [sym('Box.open'), ['dynamic-access']],
        [sym('Lonely.size'), ['dynamic-access']],
        [sym('guessed'), ['candidate']],
        [sym('named'), ['unresolved-named']],
        [sym('selfish.inner'), ['dynamic-access']],
      ],
    );
    assert.deepEqual(r.possiblyUsed[2].reasons[0].via, [sym('main', 'src/index.ts')]);
    // 20 symbols: ways in are main, api (re-exported by the entry), helper (a test file's export),
    // Ctl and Ctl.get (decorated), d (a .d.ts) = 6; reached: used, Base.size, Sub.size (dispatch),
    // Quiet.size (Lonely.size's override), Square.area (implements), Shape.area = 6; 3 unused, 5 possibly used.
    assert.deepEqual(r.totals, { symbols: 20, entry: 6, reached: 6, unused: 3, possiblyUsed: 5 });
    assert.deepEqual(r.notes, []);
  });

  it('pages both lists, scopes by folder, and counts them all', () => {
    const r = ok(queryUnused(g, './src/', 1, 1));
    assert.deepEqual(r.path, 'src');
    assert.deepEqual(
      r.unused.map((u) => u.id),
      [sym('selfish')],
    );
    assert.deepEqual(
      r.possiblyUsed.map((u) => u.id),
      [sym('Lonely.size')],
    );
    assert.equal(r.totals.unused, 3);
    const one = ok(queryUnused(g, 'src/index.ts', 0, 100));
    assert.deepEqual([one.totals.symbols, one.unused.map((u) => u.id)], [2, [sym('internal', 'src/index.ts')]]);
  });

  it('an unread file that imports the file, and a package.json target placed on nothing, make a symbol possibly used', () => {
    const h = graphOf([], { nodes: [sym('total', 'src/cart.ts'), sym('local', 'src/cart.ts'), sym('go', 'tools/run.ts')] });
    for (const n of h.nodes) if (n.label === 'total' || n.label === 'go') n.exported = true;
    h.layers = ['calls', 'references', 'structural'];
    h.unanalysed = [{ path: 'src/App.vue', imports: ['src/cart.ts'] }];
    h.entries = [{ path: 'tools/dist/cli.js', from: 'tools/package.json', field: 'bin', unplaced: true }];
    const r = ok(queryUnused(indexed(h), '', 0, 100));
    assert.deepEqual(
      r.unused.map((u) => u.id),
      [sym('local', 'src/cart.ts')],
    );
    assert.deepEqual(
      r.possiblyUsed.map((u) => [u.id, u.reasons.map((x) => [x.reason, x.via])]),
      [
        [sym('total', 'src/cart.ts'), [['unanalysed', ['src/App.vue']]]],
        // Every export may be used by an unread file, even one whose text the scan found no import in.
        [
          sym('go', 'tools/run.ts'),
          [
            ['unanalysed', undefined],
            ['entry-unplaced', undefined],
          ],
        ],
      ],
    );
  });

  it('says when no entry point is recorded, and degrades without the references layer', () => {
    const bare = indexedOf([[sym('a'), sym('b')]]);
    assert.match(ok(queryUnused(bare, '', 0, 10)).notes[0], /No entry points are recorded/);
    const old = indexedOf([[sym('a'), sym('b')]], { layers: ['calls', 'structural'] });
    assert.equal(degraded(queryUnused(old, '', 0, 10)).code, 'LAYER_MISSING');
  });
});
