// A warm build that changed nothing keeps the last build's bytes (ADR 127): graph.json's text,
// the manifest's text and the graph's signature are taken from the last build when the new values
// are the same, and computed afresh the moment anything differs. Checked against the serializers
// themselves on real builds of fixtures, with random changes to the new graph and manifest.

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildTracked, graphSignature, type Graph, type Manifest } from '../../src/graph';
import { serializeGraph } from '../../src/graph/io/canonical';
import { serializeManifest } from '../../src/graph/indexer/files/manifest';
import { compose } from '../../src/graph/indexer/compiler/compose';
import { copyFixture, removeTempDirs } from '../helpers/fixtures';
import { fc } from '../helpers/seed';

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
// A marker no serializer writes: returned only when the last build's text is taken as it is.
const MARK = 'the last build\u0027s bytes\n';

describe('a build that changed nothing keeps the last bytes (ADR 127)', () => {
  after(removeTempDirs);
  const built = ['rationale', 'syntax-errors', 'calls-members'].map((name) => buildTracked({ root: copyFixture(name) }));

  it('graph.json: the same values, in other objects, are the last text; any change is the fresh serialization', () => {
    for (const b of built) {
      const lines = new WeakMap<object, string>();
      assert.equal(serializeGraph(clone(b.graph), lines, { graph: b.graph, text: MARK }), MARK);
      assert.equal(serializeGraph(b.graph, lines, { graph: b.graph, text: MARK }), MARK);
      const change = fc.oneof(
        fc.record({ at: fc.nat(), kind: fc.constant('label' as const), to: fc.string() }),
        fc.record({ at: fc.nat(), kind: fc.constant('line' as const), to: fc.nat() }),
        fc.record({ at: fc.nat(), kind: fc.constant('drop-edge' as const) }),
        fc.record({ at: fc.nat(), kind: fc.constant('diagnostic' as const), to: fc.string() }),
        fc.record({ at: fc.nat(), kind: fc.constant('layers' as const) }),
        fc.record({ at: fc.nat(), kind: fc.constant('repository' as const), to: fc.string() }),
      );
      fc.assert(
        fc.property(fc.array(change, { minLength: 1, maxLength: 3 }), (changes) => {
          const g = clone(b.graph);
          let changed = false;
          for (const c of changes) {
            if (c.kind === 'label') {
              const n = g.nodes[c.at % g.nodes.length];
              changed ||= n.label !== c.to;
              n.label = c.to;
            } else if (c.kind === 'line') {
              const e = g.edges.filter((x) => x.evidence)[c.at % Math.max(1, g.edges.filter((x) => x.evidence).length)];
              if (e?.evidence) {
                changed ||= e.evidence.line !== c.to + 1;
                e.evidence.line = c.to + 1;
              }
            } else if (c.kind === 'drop-edge' && g.edges.length > 0) {
              g.edges.splice(c.at % g.edges.length, 1);
              changed = true;
            } else if (c.kind === 'diagnostic') {
              g.diagnostics = [...(g.diagnostics ?? []), { path: 'src/x.ts', reason: c.to }];
              changed = true;
            } else if (c.kind === 'layers') {
              g.layers = [...g.layers].reverse();
              changed ||= g.layers.length > 1;
            } else if (c.kind === 'repository') {
              changed ||= g.repository !== c.to;
              g.repository = c.to;
            }
          }
          const got = serializeGraph(g, lines, { graph: b.graph, text: MARK });
          assert.equal(got, changed ? serializeGraph(g) : MARK);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('the manifest: the same values are the last text; any change is the fresh serialization', () => {
    for (const b of built) {
      const last = { manifest: b.manifest, text: MARK };
      assert.equal(serializeManifest(clone(b.manifest), last), MARK);
      const files = Object.keys(b.manifest.files);
      const edits: Array<(m: Manifest) => void> = [
        (m) => (m.graphSha256 = '0'.repeat(64)),
        (m) => (m.inputs['tsconfig.json'] = '1'.repeat(64)),
        (m) => (m.documents['docs/new.md'] = '2'.repeat(64)),
        (m) => m.skipped.push('src/skipped.ts'),
        (m) => (m.files[files[0]].sha256 = '3'.repeat(64)),
        (m) =>
          m.files[files[files.length - 1]].imports.push({
            specifier: './y',
            kind: 'import',
            syntax: 'static',
            line: 1,
            column: 1,
            to: 'src/y.ts',
          }),
        (m) => delete m.files[files[0]],
        (m) => (m.options = { ...m.options, listExternal: !m.options.listExternal }),
      ];
      for (const edit of edits) {
        const m = clone(b.manifest);
        edit(m);
        assert.equal(serializeManifest(m, last), serializeManifest(m));
        assert.notEqual(serializeManifest(m), serializeManifest(b.manifest));
      }
    }
  });

  it('the signature: the same ids and tuples take the last one; a changed tuple is hashed', () => {
    for (const b of built) {
      const g: Graph = b.graph;
      const input = { nodeLayers: [clone(g.nodes)], edges: clone(g.edges), grammarVersions: g.grammarVersions };
      assert.equal(compose({ ...input, last: { ...g, graphSignature: 'marked' } }).graphSignature, 'marked');
      assert.equal(compose(input).graphSignature, g.graphSignature);
      const calls = input.edges.findIndex((e) => e.relation === 'contains');
      const moved = clone(input.edges);
      moved[calls] = { ...moved[calls], target: moved[calls].target + 'x' };
      const again = compose({ ...input, edges: moved, last: { ...g, graphSignature: 'marked' } });
      assert.equal(again.graphSignature, graphSignature(again.nodes, again.edges));
      assert.notEqual(again.graphSignature, 'marked');
    }
  });

  it('a warm session joins its lines by blocks: after any run of edits the text is the fresh serialization', () => {
    for (const b of built) {
      const edit = fc.record({
        list: fc.constantFrom('nodes' as const, 'edges' as const),
        kind: fc.constantFrom('replace' as const, 'insert' as const, 'delete' as const, 'first' as const, 'rotate' as const),
        at: fc.nat(),
        count: fc.integer({ min: 1, max: 90 }),
      });
      fc.assert(
        fc.property(fc.array(fc.array(edit, { maxLength: 4 }), { minLength: 1, maxLength: 6 }), (builds) => {
          // One session's memo through a run of builds; each build's lists share the objects of the
          // last one except where edited, as a warm build's do.
          const lines = new WeakMap<object, string>();
          let g: Graph = { ...b.graph, nodes: [...b.graph.nodes], edges: [...b.graph.edges] };
          assert.equal(serializeGraph(g, lines), serializeGraph(g));
          for (const edits of builds) {
            g = { ...g, nodes: [...g.nodes], edges: [...g.edges] };
            for (const e of edits) {
              const list = g[e.list] as unknown[];
              if (list.length === 0) continue;
              const at = e.at % list.length;
              const n = Math.min(e.count, list.length - at);
              if (e.kind === 'replace') for (let k = at; k < at + n; k++) list[k] = clone(list[k]);
              else if (e.kind === 'insert') list.splice(at, 0, ...list.slice(at, at + n).map(clone));
              else if (e.kind === 'delete') list.splice(at, n);
              else if (e.kind === 'first') list.splice(0, Math.min(n, list.length - 1));
              else list.push(...list.splice(0, n));
            }
            assert.equal(serializeGraph(g, lines), serializeGraph(g));
          }
        }),
        { numRuns: 40 },
      );
    }
  });
});
