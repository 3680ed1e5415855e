// src/graph/query/search-ranked.ts: autocomplete ranks every match first and cuts after (ADR 93),
// so a name a person types is offered even when fifty ids sort before it; `kg query` keeps its
// contract (sorted substring over ids, capped at 50) beside it.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryIds, QUERY_LIMIT, searchNodes, type Graph } from '../../src/graph';
import { graphOf, indexed, ok, type EdgeSpec } from '../helpers/graphs';

/** A graph of these edges whose symbols carry the given labels (ids keep their escaped form). */
function withLabels(edges: readonly EdgeSpec[], labels: Record<string, string>, nodes: readonly string[] = []): Graph {
  const g = graphOf(edges, { nodes });
  for (const n of g.nodes) if (labels[n.id] !== undefined) n.label = labels[n.id];
  return g;
}

const ids = (g: Graph, text: string, limit?: number) => searchNodes(indexed(g), text, limit).matches.map((m) => m.node.id);

describe('ranked search', () => {
  it('finds the name typed although more than the limit of ids sort before it (the echarts case)', () => {
    // 60 helpers whose ids hold "init" and sort before src/core/echarts.ts#init.
    const helpers = Array.from({ length: 60 }, (_, i) => `sym:src/chart/c${String(i).padStart(2, '0')}/layoutHelper.ts#initLayout${i}`);
    const target = 'sym:src/core/echarts.ts#init';
    const deep = 'sym:src/chart/tree/layoutHelper.ts#init';
    const g = graphOf(
      [
        [target, helpers[0]],
        [deep, helpers[1]],
      ],
      { nodes: helpers },
    );
    const sortedIds = ok(queryIds(indexed(g), 'init'));
    // kg query's contract stands: the first 50 ids in sorted order, and the target is not among them.
    assert.equal(sortedIds.matches.length, QUERY_LIMIT);
    assert.equal(sortedIds.truncated, true);
    assert.deepEqual(sortedIds.matches, [...sortedIds.matches].sort());
    assert.ok(!sortedIds.matches.includes(target));
    // Ranked: both exact names first, the shallower place before the deeper one; then the prefixes.
    const ranked = ids(g, 'init', 10);
    assert.deepEqual(ranked.slice(0, 2), [target, deep]);
    assert.equal(ranked.length, 10);
    assert.ok(ranked.slice(2).every((id) => helpers.includes(id)));
    assert.equal(searchNodes(indexed(g), 'init', 10).total, 62);
  });

  it('ranks exact name, then prefix, then in the label, then in the place; case does not hide a match', () => {
    const g = withLabels(
      [
        ['sym:src/a.ts#mapTo', 'sym:src/a.ts#map'],
        ['sym:src/a.ts#concatMap', 'sym:src/a.ts#map'],
      ],
      {},
      ['file:src/map/index.ts', 'sym:src/map/index.ts#other', 'sym:src/b.ts#MAP'],
    );
    const ranked = ids(g, 'map');
    const at = (id: string) => ranked.indexOf(id);
    // Exact (either case) before prefix before substring before place.
    assert.ok(at('sym:src/a.ts#map') >= 0 && at('sym:src/b.ts#MAP') >= 0);
    assert.ok(at('sym:src/a.ts#map') < at('sym:src/b.ts#MAP'), 'the exact case first among exact names');
    assert.ok(at('sym:src/b.ts#MAP') < at('sym:src/a.ts#mapTo'));
    assert.ok(at('sym:src/a.ts#mapTo') < at('sym:src/a.ts#concatMap'));
    assert.ok(at('sym:src/a.ts#concatMap') < at('sym:src/map/index.ts#other'), 'a match in the place comes last');
    assert.ok(at('file:src/map/index.ts') > at('sym:src/a.ts#concatMap'));
  });

  it('a member is found by its own name, a private one without its #, and listed by label', () => {
    const id = 'sym:source/core/Ky.ts#Ky.%23fetch';
    const g = withLabels([['sym:source/core/Ky.ts#Ky', id]], { [id]: 'Ky.#fetch' }, ['sym:source/utils/fetchy.ts#fetchy']);
    const m = searchNodes(indexed(g), 'fetch').matches;
    assert.equal(m[0].node.id, id);
    assert.equal(m[0].node.label, 'Ky.#fetch');
    assert.equal(m[1].node.id, 'sym:source/utils/fetchy.ts#fetchy');
  });

  it('within a tier, more links first, then the shorter place; the order is total', () => {
    const g = graphOf(
      [
        ['sym:src/x.ts#run', 'sym:src/y.ts#a'],
        ['sym:src/x.ts#run', 'sym:src/y.ts#b'],
        ['sym:src/z.ts#run', 'sym:src/y.ts#a'],
      ],
      { nodes: ['sym:src/long-name.ts#run'] },
    );
    assert.deepEqual(ids(g, 'run'), ['sym:src/x.ts#run', 'sym:src/z.ts#run', 'sym:src/long-name.ts#run']);
    // The same input, the same answer.
    assert.deepEqual(ids(g, 'run'), ids(g, 'run'));
  });

  it('the exported top-level name before a member of that name, code before documents (the echarts case of issue 55, ADR 148)', () => {
    const top = 'sym:src/core/echarts.ts#init';
    const member = 'sym:src/model/Series.ts#SeriesModel.init';
    const heading = 'doc:README.md#init~0';
    const record = 'adr:7';
    const local = 'sym:src/util.ts#initials';
    const exportedPrefix = 'sym:src/api.ts#initChart';
    // The member and the heading are the better connected: degree alone put them first.
    const g = withLabels(
      [
        [member, 'sym:src/a.ts#a'],
        [member, 'sym:src/b.ts#b'],
        [member, 'sym:src/c.ts#c'],
        ['sym:src/a.ts#a', heading],
        ['sym:src/b.ts#b', heading],
        ['sym:src/c.ts#c', heading],
        [record, member],
      ],
      { [member]: 'SeriesModel.init', [heading]: 'init', [record]: 'ADR 7: init once' },
      [top, local, exportedPrefix],
    );
    for (const n of g.nodes) if (n.id === top || n.id === exportedPrefix) n.exported = true;
    assert.deepEqual(ids(g, 'init'), [top, member, exportedPrefix, local, heading, record]);
  });

  it('blank text and a zero limit match nothing; unresolved names are never offered', () => {
    const g = graphOf([['sym:src/a.ts#f', 'unresolved:fetchLater']]);
    assert.deepEqual(searchNodes(indexed(g), '  ').matches, []);
    assert.deepEqual(searchNodes(indexed(g), 'f', 0).matches, []);
    assert.ok(ids(g, 'fetchLater').length === 0);
  });
});
