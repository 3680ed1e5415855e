// webview/explorer/elements.ts: what the explorer draws — grouping into compound boxes, hubs marked,
// and past the node cap, folding by file (then module) that is counted, never silent.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addAll, buildElements, emptyDrawn, NEAREST_KEPT, READABLE_GROUPS, type Drawn } from '../../webview/explorer/elements';
import { syntheticNeighborhood } from '../helpers/webview-graph';

function drawnOf(count: number): Drawn {
  const g = syntheticNeighborhood(count);
  const d = emptyDrawn();
  d.focus = g.focus.id;
  addAll(d, [g.focus, ...g.nodes], g.edges);
  for (const h of g.excludedHubs) d.hubs.add(h);
  d.hubThreshold = g.hubThreshold;
  return d;
}

describe('explorer elements', () => {
  it('under the cap, draws every node and every edge between drawn nodes', () => {
    const d = drawnOf(60);
    const { elements, aggregation, shown } = buildElements(d, 'none', 500);
    assert.equal(aggregation, null);
    assert.equal(shown.length, d.nodes.size);
    assert.equal(elements.filter((e) => e.group === 'edges').length, d.edges.size);
    const focus = elements.find((e) => e.data.id === d.focus);
    assert.match(focus?.classes ?? '', /\bfocus\b/);
  });

  it('marks hubs and says in their label that they were not expanded', () => {
    const d = drawnOf(60);
    const hub = [...d.hubs][0];
    const el = buildElements(d, 'none', 500).elements.find((e) => e.data.id === hub);
    assert.match(el?.classes ?? '', /\bhub\b/);
    assert.match(String(el?.data.label), /^◆ .* · \d+ links$/);
  });

  it('styles edges by relation and confidence', () => {
    const d = drawnOf(60);
    const edges = buildElements(d, 'none', 500).elements.filter((e) => e.group === 'edges');
    for (const e of edges)
      assert.match(e.classes, new RegExp(`rel-${String(e.data.relation)} conf-${String(e.data.confidence).toLowerCase()}`));
    assert.ok(edges.some((e) => /conf-candidate/.test(e.classes)));
    assert.ok(edges.some((e) => /conf-unresolved/.test(e.classes)));
  });

  it('groups by file or module into compound nodes', () => {
    const d = drawnOf(60);
    for (const grouping of ['file', 'module'] as const) {
      const { elements } = buildElements(d, grouping, 500);
      const groups = elements.filter((e) => e.classes === 'group');
      assert.ok(groups.length > 1);
      const sym = elements.find((e) => String(e.data.id).startsWith('sym:'));
      assert.match(String(sym?.data.parent), new RegExp(`^grp:${grouping}:`));
    }
  });

  it('past the cap, keeps the nearest nodes, folds the rest by file and counts what it folded', () => {
    const d = drawnOf(400);
    const { elements, aggregation, shown } = buildElements(d, 'none', 100);
    assert.ok(aggregation);
    assert.equal(aggregation.by, 'file');
    const drawnNodes = elements.filter((e) => e.group === 'nodes');
    assert.ok(drawnNodes.length <= 100, `${drawnNodes.length} nodes drawn`);
    assert.ok(shown.includes(d.focus as string));
    const nearest = [...d.nodes.keys()].slice(0, 50);
    assert.deepEqual(
      nearest.filter((id) => !shown.includes(id)),
      [],
      'the 50 nearest (breadth-first order) are drawn',
    );
    // Nothing is lost: every node is drawn, or counted in a folded group.
    const folded = drawnNodes.filter((e) => e.classes === 'aggregate').reduce((n, e) => n + Number(e.data.count), 0);
    assert.equal(folded, aggregation.hidden);
    assert.equal(shown.length + folded, d.nodes.size);
  });

  it('folds by module when the files are more than a picture can hold', () => {
    for (const cap of [40, 300]) {
      const { aggregation, elements } = buildElements(drawnOf(1000), 'none', cap);
      assert.equal(aggregation?.by, 'module');
      const most = Math.min(NEAREST_KEPT, Math.floor(cap / 2)) + Math.min(cap, READABLE_GROUPS) + 1;
      assert.ok(elements.filter((e) => e.group === 'nodes').length <= most);
    }
  });

  it('a folded edge is drawn as proven only when all the edges in it are', () => {
    const d = emptyDrawn();
    d.focus = 'sym:f.ts#main';
    const n = (id: string, file: string) => ({ id, label: id, kind: 'function', file });
    addAll(
      d,
      [n('sym:f.ts#main', 'f.ts'), n('sym:a.ts#a1', 'a.ts'), n('sym:a.ts#a2', 'a.ts'), n('sym:b.ts#b1', 'b.ts'), n('sym:b.ts#b2', 'b.ts')],
      [
        { source: 'sym:a.ts#a1', target: 'sym:b.ts#b1', relation: 'calls', confidence: 'EXACT' },
        { source: 'sym:a.ts#a2', target: 'sym:b.ts#b2', relation: 'calls', confidence: 'CANDIDATE' },
        { source: 'sym:f.ts#main', target: 'sym:a.ts#a1', relation: 'calls', confidence: 'EXACT' },
        { source: 'sym:f.ts#main', target: 'sym:a.ts#a2', relation: 'calls', confidence: 'EXACT' },
      ],
    );
    const { elements } = buildElements(d, 'none', 3);
    const ab = elements.find((e) => e.data.source === 'agg:file:a.ts' && e.data.target === 'agg:file:b.ts');
    assert.match(ab?.classes ?? '', /conf-candidate merged labelled/);
    assert.equal(ab?.data.label, 'calls ×2 (1 exact, 1 cand.)');
    const fa = elements.find((e) => e.data.source === 'sym:f.ts#main' && e.data.target === 'agg:file:a.ts');
    assert.match(fa?.classes ?? '', /conf-exact merged/);
  });

  it('an unfolded group is drawn node by node again', () => {
    const d = drawnOf(1000);
    const first = buildElements(d, 'none', 300);
    const agg = first.elements.find((e) => e.classes === 'aggregate');
    assert.ok(agg);
    d.unfolded.add(String(agg.data.id));
    const second = buildElements(d, 'none', 300);
    assert.equal(second.shown.length, first.shown.length + Number(agg.data.count));
  });
});
