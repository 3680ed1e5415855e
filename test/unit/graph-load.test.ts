// Loading graph.json from real files: every bad file is a degrade with a reason (the query
// contract's exact wording where it has one, ADR 21), never an exception, never an empty graph. And the loader
// refuses exactly what schema/graph.schema.json refuses.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import Ajv from 'ajv';
import {
  buildGraph,
  checkGraph,
  describeUnavailable,
  loadGraphFile,
  MAX_GRAPH_BYTES,
  parseGraphText,
  queryCallers,
  serializeGraph,
  type Graph,
  type GraphLoad,
} from '../../src/graph';
import { REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { graphOf } from '../helpers/graphs';
import { assertValidGraph } from '../helpers/schema';
import { fc } from '../helpers/seed';

function failed(load: GraphLoad) {
  assert.equal(load.ok, false, 'expected the load to fail');
  return (load as Extract<GraphLoad, { ok: false }>).unavailable;
}

function loaded(load: GraphLoad) {
  assert.ok(load.ok, load.ok ? '' : `${load.unavailable.code}: ${load.unavailable.reason}`);
  return load.graph;
}

const sample = () =>
  graphOf([
    ['sym:src/a.ts#main', 'sym:src/b.ts#helper'],
    ['sym:src/a.ts#main', 'unresolved:log'],
    ['file:src/a.ts', 'file:src/b.ts', 'imports'],
  ]);

function writeGraphFile(text: string | Uint8Array): string {
  const dir = tempDir();
  const file = path.join(dir, 'graph.json');
  fs.writeFileSync(file, text);
  return file;
}

describe('loading graph.json', () => {
  after(removeTempDirs);

  it('loads a graph the builder wrote, and indexes every node and unresolved target', () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': "import { b } from './b';\nexport function a() { b(); }\n", 'src/b.ts': 'export function b() {}\n' });
    const graph = buildGraph({ root }).graph;
    assertValidGraph(graph);
    const file = writeGraphFile(serializeGraph(graph));
    const g = loaded(loadGraphFile(file));
    assert.equal(g.nodeCount, graph.nodes.length);
    assert.deepEqual(
      g.ids.slice(0, g.nodeCount),
      graph.nodes.map((n) => n.id),
    );
    const sampleGraph = sample();
    const s = loaded(loadGraphFile(writeGraphFile(serializeGraph(sampleGraph))));
    assert.deepEqual(s.ids.slice(s.nodeCount), ['unresolved:log']);
  });

  it('a missing file (or a missing folder on the way) is "no committed graph projection"', () => {
    const dir = tempDir();
    for (const file of [path.join(dir, 'graph.json'), path.join(dir, 'nope', 'graph.json')]) {
      assert.deepEqual(failed(loadGraphFile(file)), {
        available: false,
        reason: 'no committed graph projection',
        code: 'NO_GRAPH',
        evidenceClass: 'GRAPH_DERIVED',
      });
    }
    fs.writeFileSync(path.join(dir, 'file'), 'x');
    assert.equal(failed(loadGraphFile(path.join(dir, 'file', 'graph.json'))).code, 'NO_GRAPH');
  });

  it('a directory, a device or a pipe is not a graph (and is never read)', () => {
    const u = failed(loadGraphFile(tempDir()));
    assert.equal(u.code, 'UNREADABLE');
    assert.equal(u.reason, 'projection unparsable: the graph path is a directory, not a file');
    // /dev/zero never ends; reading it would fill memory.
    assert.equal(failed(loadGraphFile('/dev/zero')).reason, 'projection unparsable: the graph path is not a regular file');
  });

  it('a truncated, empty or non-JSON file is "projection unparsable: <detail>"', () => {
    const whole = serializeGraph(sample());
    for (const text of [whole.slice(0, Math.floor(whole.length / 2)), '', 'not json at all', '{"nodes": [], "edges": []'] as const) {
      const u = failed(loadGraphFile(writeGraphFile(text)));
      assert.equal(u.code, 'UNPARSABLE', text);
      assert.match(u.reason, /^projection unparsable: \S/);
    }
  });

  it('people read "graph.json is not valid JSON (…)"; the machine reason and code stay (ADR 91)', () => {
    const u = failed(loadGraphFile(writeGraphFile('{"nodes": [')));
    assert.equal(u.code, 'UNPARSABLE');
    assert.match(describeUnavailable(u), /^graph\.json is not valid JSON \(\S.*\)$/);
    assert.ok(!describeUnavailable(u).includes('projection'), describeUnavailable(u));
    assert.equal(
      describeUnavailable(failed(loadGraphFile(tempDir()))),
      'graph.json cannot be read (the graph path is a directory, not a file)',
    );
    const invalid = failed(loadGraphFile(writeGraphFile(JSON.stringify({ ...sample(), nodes: [{ id: 1 }] }))));
    assert.match(describeUnavailable(invalid, 'g.json'), /^g\.json (does not match the graph format|has no)/);
    assert.equal(
      describeUnavailable({ code: 'LAYER_MISSING', reason: 'calls layer not built in this projection' }),
      'calls layer not built in this projection',
    );
  });

  it('bytes that are not UTF-8 are refused, a byte-order mark is not', () => {
    const text = serializeGraph(sample());
    const broken = Buffer.from(text.replace('helper', 'help\u0001r'), 'utf8');
    broken[broken.indexOf(1)] = 0xff;
    assert.equal(failed(loadGraphFile(writeGraphFile(broken))).reason, 'projection unparsable: the file is not UTF-8 text');
    loaded(loadGraphFile(writeGraphFile('\ufeff' + text)));
  });

  it('JSON that is not an object with node and edge arrays is "projection missing nodes/edges arrays"', () => {
    for (const text of [
      '[]',
      'null',
      '42',
      '"graph"',
      '{}',
      '{"schemaVersion":1,"nodes":{},"edges":[]}',
      '{"schemaVersion":1,"nodes":[]}',
    ]) {
      assert.deepEqual(
        failed(parseGraphText(text)),
        {
          available: false,
          reason: 'projection missing nodes/edges arrays',
          code: 'MISSING_ARRAYS',
          evidenceClass: 'GRAPH_DERIVED',
        },
        text,
      );
    }
  });

  it('a schemaVersion it does not know is refused by name, before anything else', () => {
    for (const [v, shown] of [
      [2, '2'],
      ['1', '"1"'],
      [null, 'null'],
    ] as const) {
      const u = failed(checkGraph({ schemaVersion: v, whatever: true }));
      assert.equal(u.code, 'UNSUPPORTED_VERSION');
      assert.equal(u.reason, `unsupported schemaVersion: ${shown} (this kg reads schemaVersion 1)`);
    }
  });

  it('wrong-typed fields are refused with where and what', () => {
    const cases: Array<[(g: Graph) => void, RegExp]> = [
      [
        (g) => ((g.edges[0] as unknown as Record<string, unknown>).confidence = 'MAYBE'),
        /^projection unparsable: \/edges\/0\/confidence \(edge file:src\/a\.ts -> file:src\/b\.ts\) must be one of EXACT, CANDIDATE, UNRESOLVED$/,
      ],
      [(g) => ((g.nodes[0] as unknown as Record<string, unknown>).line = 0), /^projection unparsable: \/nodes\/0/],
      [(g) => ((g as unknown as Record<string, unknown>).layers = 'calls'), /^projection unparsable: \/layers must be array$/],
      [(g) => ((g.nodes[1] as unknown as Record<string, unknown>).id = 42), /^projection unparsable: \/nodes\/1\/id must be string$/],
      [
        (g) => ((g.edges[1] as unknown as Record<string, unknown>).evidence = { file: '/etc/passwd', line: 1, column: 1 }),
        /^projection unparsable: \/edges\/1\/evidence\/file/,
      ],
    ];
    for (const [mutate, reason] of cases) {
      const g = sample();
      mutate(g);
      const u = failed(checkGraph(g));
      assert.equal(u.code, 'INVALID');
      assert.match(u.reason, reason);
    }
  });

  it('a graph the schema allows but no query could trust is refused: a duplicated id, an edge to nowhere', () => {
    const dup = sample();
    dup.nodes.push({ ...dup.nodes[0] });
    assert.match(failed(checkGraph(dup)).reason, /^projection unparsable: node id "file:src\/a\.ts" appears more than once$/);
    const dangling = sample();
    dangling.edges.push({ ...dangling.edges[0], target: 'sym:src/gone.ts#x' });
    assert.match(failed(checkGraph(dangling)).reason, /its target is not a node$/);
    const noSource = sample();
    noSource.edges.push({ ...noSource.edges[0], source: 'sym:src/gone.ts#x' });
    assert.match(failed(checkGraph(noSource)).reason, /its source is not a node$/);
  });

  it('a file over the size cap is refused before it is read, with the sizes in the message', () => {
    const file = writeGraphFile(serializeGraph(sample()));
    const size = fs.statSync(file).size;
    const u = failed(loadGraphFile(file, { maxBytes: size - 1 }));
    assert.equal(u.code, 'TOO_LARGE');
    assert.match(u.reason, /^projection unparsable: the file is 0\.0 MB, over the 0\.0 MB limit/);
    loaded(loadGraphFile(file, { maxBytes: size }));
    // The default cap: a sparse file one byte over it costs no disk and is never read.
    const huge = path.join(tempDir(), 'graph.json');
    fs.writeFileSync(huge, '{');
    fs.truncateSync(huge, MAX_GRAPH_BYTES + 1);
    const started = performance.now();
    const big = failed(loadGraphFile(huge));
    assert.equal(big.code, 'TOO_LARGE');
    assert.match(big.reason, /the file is 500\.0 MB, over the \d+\.\d MB limit/);
    assert.ok(performance.now() - started < 2000, 'refused without reading 500 MB');
  });

  it('__proto__ keys neither pollute nor pass', () => {
    const text = serializeGraph(sample()).replace('"schemaVersion": 1,', '"schemaVersion": 1, "__proto__": {"polluted": true},');
    const u = failed(parseGraphText(text));
    assert.equal(u.code, 'INVALID');
    assert.match(u.reason, /the top level has a field the format does not define: "__proto__"/);
    const inNode = serializeGraph(sample()).replace('"kind":"file",', '"kind":"file","__proto__":{"polluted":true},');
    assert.match(
      failed(parseGraphText(inNode)).reason,
      /\/nodes\/0 \(node file:src\/a\.ts\) has a field the format does not define: "__proto__"/,
    );
    // Where the format allows any key, __proto__ is just a key.
    const versions = serializeGraph({ ...sample(), grammarVersions: JSON.parse('{"__proto__": "1.0", "constructor": "2.0"}') });
    const g = loaded(parseGraphText(versions));
    assert.equal(Object.getPrototypeOf(g.graph.grammarVersions), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // Ids made of such names load and answer like any other.
    const names = graphOf([
      ['sym:src/__proto__.ts#constructor', 'sym:src/a.ts#__proto__'],
      ['sym:src/a.ts#toString', 'sym:src/a.ts#__proto__'],
    ]);
    const ng = loaded(parseGraphText(serializeGraph(names)));
    const r = queryCallers(ng, 'sym:src/a.ts#__proto__');
    assert.deepEqual(r.available && r.callers, ['sym:src/__proto__.ts#constructor', 'sym:src/a.ts#toString']);
  });

  it('refuses exactly what the schema refuses (random corruptions of a valid graph)', () => {
    // An independent validator, compiled here from the schema file with every error reported.
    const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'schema', 'graph.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true }).compile(
      schema,
    );
    const value = fc.oneof(
      fc.constantFrom(
        null,
        true,
        0,
        -1,
        1.5,
        '',
        'EXACT',
        'calls',
        'sym:src/a.ts#main',
        'unresolved:x',
        '/abs',
        '../up',
        '__proto__',
        [],
        {},
      ),
      fc.string({ maxLength: 6 }),
      fc.integer(),
    );
    const keys = [
      'id',
      'kind',
      'label',
      'sourceFile',
      'line',
      'column',
      'source',
      'target',
      'relation',
      'confidence',
      'provenance',
      'resolution',
      'evidenceClass',
      'confidenceScore',
      'tier',
      'reason',
      'context',
      'evidence',
      'exported',
      'declarationCount',
      '__proto__',
      'extra',
    ];
    const topKeys = ['schemaVersion', 'graphSignature', 'layers', 'grammarVersions', 'unresolved', 'diagnostics', '__proto__', 'extra'];
    const mutation = fc.oneof(
      fc.record({ where: fc.constant('top' as const), key: fc.constantFrom(...topKeys), value, drop: fc.boolean() }),
      fc.record({
        where: fc.constantFrom('nodes' as const, 'edges' as const),
        index: fc.nat(),
        key: fc.constantFrom(...keys),
        value,
        drop: fc.boolean(),
      }),
    );
    let rejected = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
        const g = JSON.parse(serializeGraph(sample())) as Record<string, unknown>;
        for (const m of mutations) {
          let target: Record<string, unknown> = g;
          if (m.where !== 'top') {
            const list = g[m.where] as Record<string, unknown>[];
            target = list[m.index % list.length];
          }
          if (m.drop) delete target[m.key];
          else Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
        }
        // Keep the shape the contract's own reasons cover out of this comparison: those are tested above.
        if (Object.hasOwn(g, 'schemaVersion') && g.schemaVersion !== 1) return;
        if (!Array.isArray(g.nodes) || !Array.isArray(g.edges)) return;
        const schemaSays = validate(g);
        const load = parseGraphText(JSON.stringify(g));
        if (!schemaSays) {
          rejected++;
          assert.equal(load.ok, false, `the schema rejects ${JSON.stringify(validate.errors?.[0])} but the loader accepted`);
          assert.ok(!load.ok && ['INVALID', 'UNSUPPORTED_VERSION'].includes(load.unavailable.code));
        } else if (!load.ok) {
          // Only what the schema cannot say may fail a schema-valid graph: ids and endpoints.
          assert.match(load.unavailable.reason, /appears more than once|is not a node/);
        }
      }),
      { numRuns: 300 },
    );
    assert.ok(rejected > 100, `only ${rejected} of 300 corruptions were invalid: the test would prove little`);
  });
});
