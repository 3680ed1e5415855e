// The diff engine's rules on hand-built graphs (ADR 104): what is a match and what stays a guess,
// consumers that are gone or followed, the reach, confidence changes, and the bound on
// the pull-request comment (ADR 105).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffMarkdown, diffReport, MARKDOWN_LIMIT, type DiffSide, type Graph } from '../../src/graph';
import { graphOf, type EdgeSpec } from '../helpers/graphs';
import { fc } from '../helpers/seed';

const side = (spec: string): DiffSide => ({ spec, kind: 'graph', graphSignature: '000000000000' });
const diff = (base: Graph, head: Graph) => diffReport({ base, head }, { base: side('base.json'), head: side('head.json') });

/** A graph of the edges, every symbol given a signature (by id, unless `sig` names one) and a position. */
function graph(edges: readonly EdgeSpec[], nodes: readonly string[] = [], sig: Record<string, string> = {}): Graph {
  const g = graphOf(edges, { nodes });
  for (const n of g.nodes) {
    if (!n.id.startsWith('sym:')) continue;
    n.signature = sig[n.id] ?? 'aaaaaaaaaaaa';
    n.line = 1;
    n.column = 1;
  }
  return g;
}

describe('kg diff: matching never calls a guess a match', () => {
  it('two removed symbols of one kind and signature and one added: no candidate at all', () => {
    const base = graph([], ['sym:src/a.ts#f', 'sym:src/a.ts#g']);
    const head = graph([], ['sym:src/a.ts#h']);
    const r = diff(base, head);
    assert.deepEqual(r.symbols.renameCandidates, []);
    assert.deepEqual(
      r.symbols.removed.map((s) => s.id),
      ['sym:src/a.ts#f', 'sym:src/a.ts#g'],
    );
    assert.deepEqual(
      r.symbols.added.map((s) => s.id),
      ['sym:src/a.ts#h'],
    );
  });

  it('a name and signature that appear in two files: not a move, both stay added', () => {
    const base = graph([], ['sym:src/a.ts#f']);
    const head = graph([], ['sym:src/b.ts#f', 'sym:src/c.ts#f']);
    const r = diff(base, head);
    assert.deepEqual(r.symbols.renamed, []);
    assert.deepEqual(
      r.symbols.removed.map((s) => s.id),
      ['sym:src/a.ts#f'],
    );
    assert.equal(r.symbols.added.length, 2);
  });

  it('a name that moved with another signature is not a move either', () => {
    const base = graph([], ['sym:src/a.ts#f']);
    const head = graph([], ['sym:src/b.ts#f'], { 'sym:src/b.ts#f': 'bbbbbbbbbbbb' });
    assert.deepEqual(diff(base, head).symbols.renamed, []);
  });

  it('a file whose declarations all kept name, kind and signature: renamed by same-declarations', () => {
    const base = graph([
      ['file:src/a.ts', 'sym:src/a.ts#f', 'contains'],
      ['file:src/a.ts', 'sym:src/a.ts#g', 'contains'],
    ]);
    const head = graph([
      ['file:src/b.ts', 'sym:src/b.ts#f', 'contains'],
      ['file:src/b.ts', 'sym:src/b.ts#g', 'contains'],
    ]);
    const r = diff(base, head);
    assert.deepEqual(r.files.renamed, [{ from: 'src/a.ts', to: 'src/b.ts', matchedBy: 'same-declarations' }]);
    assert.deepEqual(r.files.added, []);
    assert.deepEqual(
      r.symbols.renamed.map((s) => [s.from.id, s.to.id, s.matchedBy]),
      [
        ['sym:src/a.ts#f', 'sym:src/b.ts#f', 'same-declarations'],
        ['sym:src/a.ts#g', 'sym:src/b.ts#g', 'same-declarations'],
      ],
    );
  });
});

describe('kg diff: consumers and the reach', () => {
  const base = graph([
    ['sym:src/b.ts#b', 'sym:src/a.ts#a'],
    ['sym:src/c.ts#c', 'sym:src/b.ts#b'],
    ['sym:src/d.ts#d', 'sym:src/c.ts#c', 'calls', 'CANDIDATE'],
    ['sym:src/e.ts#e', 'sym:src/a.ts#a'],
  ]);

  it('proof walks EXACT edges only; a guess anywhere on the way is counted apart', () => {
    const head = graph(
      [
        ['sym:src/c.ts#c', 'sym:src/b.ts#b'],
        ['sym:src/d.ts#d', 'sym:src/c.ts#c', 'calls', 'CANDIDATE'],
      ],
      ['sym:src/e.ts#e'],
    );
    const removed = diff(base, head).symbols.removed.find((s) => s.id === 'sym:src/a.ts#a');
    assert.ok(removed);
    // b, c, e (three files) by proof; d only through its name-match edge to c.
    assert.deepEqual(removed.reach, { proven: 3, files: 3, guessed: 1 });
  });

  it('a consumer removed in the same change is gone: listed, but it breaks nothing', () => {
    const head = graph([], ['sym:src/c.ts#c', 'sym:src/e.ts#e']);
    const r = diff(base, head);
    // `a` removed: its consumer b is gone too (listed as such), e still there.
    const a = r.symbols.removed.find((s) => s.id === 'sym:src/a.ts#a');
    assert.deepEqual(
      a?.proven.map((c) => [c.id, c.gone === true]),
      [
        ['sym:src/b.ts#b', true],
        ['sym:src/e.ts#e', false],
      ],
    );
    // b removed too: c is still there → c breaks; so does e (a's other consumer). d is gone.
    assert.deepEqual(r.summary.breaking, { symbols: 2, provenConsumers: 2, guessedConsumers: 0 });
  });

  it('a confidence that changed is reported with both values', () => {
    const head = graph([
      ['sym:src/b.ts#b', 'sym:src/a.ts#a'],
      ['sym:src/c.ts#c', 'sym:src/b.ts#b'],
      ['sym:src/d.ts#d', 'sym:src/c.ts#c'],
      ['sym:src/e.ts#e', 'sym:src/a.ts#a'],
    ]);
    assert.deepEqual(diff(base, head).edges.confidenceChanged, [
      { source: 'sym:src/d.ts#d', target: 'sym:src/c.ts#c', relation: 'calls', before: 'CANDIDATE', after: 'EXACT' },
    ]);
  });

  it('the same two graphs give the same bytes', () => {
    const head = graph([['sym:src/c.ts#c', 'sym:src/b.ts#b']], ['sym:src/e.ts#e']);
    assert.equal(JSON.stringify(diff(base, head)), JSON.stringify(diff(structuredClone(base), structuredClone(head))));
  });
});

describe('kg diff --format markdown: bounded', () => {
  it('thousands of removed symbols with long names fit in 60,000 characters and say how many more', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `sym:src/m${i % 50}.ts#${'veryLongName'.repeat(12)}${i}`);
    const base = graph(ids.map((id, i) => [`sym:src/user${i}.ts#use`, id] as const));
    const head = graph([], [...new Set(ids.map((_, i) => `sym:src/user${i}.ts#use`))]);
    const md = diffMarkdown(diff(base, head));
    assert.ok(md.length <= MARKDOWN_LIMIT, `${md.length} characters`);
    assert.match(md, /<summary>Removed symbols \(1000\)<\/summary>/);
    assert.match(md, /- and \d+ more\n/);
    const tight = diffMarkdown(diff(base, head), { limit: 5000 });
    assert.ok(tight.length <= 5000, `${tight.length} characters`);
    assert.match(tight, /Removed symbols \(1000\)/);
  });

  it('links take a prefix per side, with the commit filled in', () => {
    const base = graph([['sym:src/b.ts#b', 'sym:src/a.ts#a']]);
    const head = graph([], ['sym:src/b.ts#b']);
    const r = diffReport(
      { base, head },
      { base: { ...side('main'), kind: 'ref', commit: 'c'.repeat(40) }, head: { ...side('HEAD'), kind: 'ref', commit: 'd'.repeat(40) } },
    );
    const md = diffMarkdown(r, { linkBase: 'https://example.invalid/blob/{commit}/', linkHead: 'https://example.invalid/blob/{commit}/' });
    assert.ok(md.includes(`[src/a.ts:1](https://example.invalid/blob/${'c'.repeat(40)}/src/a.ts#L1)`), md);
  });
});

describe('kg diff: the reach by number is the reach by id', () => {
  // The walk as written before the numbered one (ADR 104's bounds: 5,000 edges looked at, 2,000
  // nodes seen per walk), over ids and Sets: the reference the report's counts are held to.
  const CONSUMER = new Set(['calls', 'references', 'extends', 'implements', 'inherits', 're-exports', 'imports']);
  const RADIUS = new Set(['calls', 'references', 'extends', 'implements', 'inherits', 're-exports']);
  function reference(base: Graph, start: ReadonlySet<string>): { proven: number; files: number; guessed: number; capped?: true } {
    const into = new Map<string, Graph['edges']>();
    for (const e of base.edges) {
      if (!CONSUMER.has(e.relation) || e.confidence === 'UNRESOLVED') continue;
      into.set(e.target, [...(into.get(e.target) ?? []), e]);
    }
    const walk = (from: Iterable<string>, exactOnly: boolean, seen: Set<string>): boolean => {
      const queue = [...from];
      let looked = 0;
      for (let i = 0; i < queue.length; i++)
        for (const e of into.get(queue[i]) ?? []) {
          if (++looked > 5_000) return true;
          if (!RADIUS.has(e.relation) || (exactOnly && e.confidence !== 'EXACT')) continue;
          if (seen.has(e.source) || start.has(e.source)) continue;
          if (seen.size >= 2_000) return true;
          seen.add(e.source);
          queue.push(e.source);
        }
      return false;
    };
    const proven = new Set<string>();
    let capped = walk(start, true, proven);
    const any = new Set(proven);
    capped = walk([...start, ...proven], false, any) || capped;
    const files = new Set([...proven].map((id) => id.slice('sym:'.length, id.indexOf('#'))));
    return { proven: proven.size, files: files.size, guessed: any.size - proven.size, ...(capped ? { capped: true as const } : {}) };
  }

  it('on random call graphs, small and large enough to reach both bounds', () => {
    const outcomes = new Set<string>();
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 2_600 }), fc.integer({ min: 0, max: 2 ** 30 }), (size, seed) => {
        let x = seed;
        const next = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
        const id = (i: number) => `sym:src/f${i % 97}.ts#s${i}`;
        const edges: EdgeSpec[] = [];
        const seen = new Set<string>();
        for (let k = 0; k < size * 3; k++) {
          const s = id(next(size));
          const t = id(next(size));
          const rel = (['calls', 'calls', 'references', 'imports'] as const)[next(4)];
          const key = `${s} ${t} ${rel}`;
          if (s === t || seen.has(key)) continue;
          seen.add(key);
          edges.push([s, t, rel, next(3) === 0 ? 'CANDIDATE' : 'EXACT']);
        }
        const base = graph(edges, [id(0)]);
        const gone = new Set([id(0), id(1 % size), id(2 % size)]);
        const head = graph(
          edges.filter(([s, t]) => !gone.has(s) && !gone.has(t)),
          Array.from({ length: size }, (_, i) => id(i)).filter((n) => !gone.has(n)),
        );
        const r = diff(base, head);
        assert.ok(r.symbols.removed.length > 0);
        for (const removed of r.symbols.removed) {
          assert.deepEqual(removed.reach, reference(base, new Set([removed.id, ...(removed.members ?? [])])));
          outcomes.add(removed.reach.capped ? 'capped' : removed.reach.proven > 0 ? 'complete' : 'empty');
        }
      }),
      { numRuns: 25 },
    );
    assert.deepEqual(
      [...outcomes].sort(),
      ['capped', 'complete', 'empty'],
      'the runs must reach the bounds, walk to the end, and find nothing',
    );
  });
});
