// Files the graph does not read, and calls nothing placed, named beside "what breaks" answers
// (ADR 153): the text scan, what a build records, what the queries and the lens say. Expected values
// come from the fixture test/fixtures/unanalysed-referrers as written, never from a build's output.

import * as assert from 'node:assert/strict';
import Ajv from 'ajv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, indexGraph, queryAffected, queryCallers, queryImpact, RESULT_SCHEMAS, type IndexedGraph } from '../../src/graph';
import { scanSpecifiers } from '../../src/graph/indexer/compiler/unanalysed-files';
import { callerCounts } from '../../src/graph/query/node-details';
import { callersTitle } from '../../src/host/graph-text';
import { FIXTURES, copyFixture, removeTempDirs } from '../helpers/fixtures';

const FIXTURE = path.join(FIXTURES, 'unanalysed-referrers');
const UNREAD = /\.(astro|html?|mdx)$/i;

/** The fixture's files of the types the graph does not read, found by listing it. */
function unreadFiles(dir = FIXTURE, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) out.push(...unreadFiles(path.join(dir, e.name), r));
    else if (UNREAD.test(e.name)) out.push(r);
  }
  return out.sort();
}

/** The fixture's unread files whose text names a module by this specifier. */
function naming(...specifiers: string[]): string[] {
  return unreadFiles().filter((f) => {
    const text = fs.readFileSync(path.join(FIXTURE, f), 'utf8');
    return specifiers.some((s) => text.includes(`'${s}'`) || text.includes(`"${s}"`));
  });
}

let indexed: IndexedGraph | undefined;
function graph(): IndexedGraph {
  if (indexed) return indexed;
  const { graph } = buildGraph({ root: copyFixture('unanalysed-referrers') });
  const load = indexGraph(graph);
  assert.ok(load.ok);
  indexed = load.graph;
  return indexed;
}

describe('files the graph does not read (ADR 153)', () => {
  after(removeTempDirs);

  it('the text scan finds imports, requires, dynamic imports and script sources, once each', () => {
    const text = [
      `import { a } from './a';`,
      `import './side-effect';`,
      `export * from "../b";`,
      `const c = await import('./c');`,
      `const d = require('./d');`,
      `import { a as again } from './a';`,
      `<script type="module" src="/src/main.ts"></script>`,
      `<script src="https://cdn.example/x.js"></script>`,
      `<script src="//cdn.example/y.js"></script>`,
      `<script src="local.js"></script>`,
    ].join('\n');
    assert.deepEqual(
      scanSpecifiers(text).map((s) => s.specifier),
      ['./a', '../b', './side-effect', './c', './d', './src/main.ts', './local.js'],
    );
  });

  it('a build names every unread file of the fixture, each with the files its text imports', () => {
    const g = graph().graph;
    assert.deepEqual(
      (g.unanalysed ?? []).map((f) => f.path),
      unreadFiles(),
    );
    const imports = Object.fromEntries((g.unanalysed ?? []).map((f) => [f.path, f.imports ?? []]));
    // As the fixture writes them: App.astro imports './cart', Widget.mdx './index', index.html
    // loads '/src/main.ts', Empty.astro imports nothing.
    assert.deepEqual(imports['src/App.astro'], ['src/cart.ts']);
    assert.deepEqual(imports['src/Widget.mdx'], ['src/index.ts']);
    assert.deepEqual(imports['index.html'], ['src/main.ts']);
    assert.deepEqual(imports['src/Empty.astro'], []);
    // Never an edge: no node or edge names an unread file.
    const text = JSON.stringify({ nodes: g.nodes, edges: g.edges });
    for (const f of unreadFiles()) assert.ok(!text.includes(f), `${f} is in no node or edge`);
  });

  it('callers, affected and impact of a function used only from unread files say so, with the count and the reason', () => {
    const g = graph();
    // Importers of src/cart.ts: directly, and through src/index.ts, which re-exports it.
    const expected = naming('./cart', './index');
    assert.equal(expected.length, 2);
    const callers = queryCallers(g, 'sym:src/cart.ts#addToCart');
    assert.ok(callers.available);
    assert.deepEqual(callers.callers, []);
    assert.deepEqual(callers.unanalysed?.importers, expected);
    assert.match(callers.unanalysed?.summary ?? '', /^1 \.astro file and 1 \.mdx file import src\/cart\.ts, not analysed$/);
    assert.match(callers.unanalysed?.reason ?? '', /text scan is a guess/);
    const total = unreadFiles().length;
    assert.equal(
      Object.values(callers.unanalysed?.total ?? {}).reduce((a, b) => a + b, 0),
      total,
    );
    const affected = queryAffected(g, 'sym:src/cart.ts#addToCart');
    assert.ok(affected.available);
    assert.equal(affected.breaks, false);
    assert.deepEqual(affected.unanalysed?.importers, expected, 'breaks: false is not a bare false');
    const impact = queryImpact(g, 'sym:src/cart.ts#addToCart');
    assert.ok(impact.available);
    assert.equal(impact.blastRadius, 0);
    assert.deepEqual(impact.unanalysed?.importers, expected);
  });

  it('a symbol no other file can name gets no note; one in a file no unread file imports gets the total', () => {
    const g = graph();
    const label = queryCallers(g, 'sym:src/cart.ts#label');
    assert.ok(label.available);
    assert.equal(label.unanalysed, undefined);
    const stop = queryCallers(g, 'sym:src/engines.ts#Engine1.stop');
    assert.ok(stop.available);
    assert.deepEqual(stop.unanalysed?.importers, []);
    assert.equal(stop.unanalysed?.summary, '2 .astro files, 1 .html file and 1 .mdx file not analysed');
  });

  it('calls on an `any` receiver beyond the guesses a site may list are counted for every symbol of that name', () => {
    const g = graph();
    const text = fs.readFileSync(path.join(FIXTURE, 'src/engines.ts'), 'utf8');
    const classes = (text.match(/\bstop\(\): void/g) ?? []).length;
    assert.ok(classes > 10, 'more classes with `stop` than a guess may list (ADR 6)');
    const calls = (text.match(/\.stop\(\)/g) ?? []).length;
    for (const id of ['sym:src/engines.ts#Engine1.stop', 'sym:src/engines.ts#Engine11.stop']) {
      const r = queryCallers(g, id);
      assert.ok(r.available);
      assert.deepEqual(r.unresolvedNamed, {
        name: 'stop',
        sites: calls,
        reasons: { 'any-receiver': calls },
        summary: `+${calls} unresolved call${calls === 1 ? '' : 's'} named \`stop\` (any-receiver)`,
      });
    }
  });

  it('the lens keeps its counts first and adds what it cannot see after them', () => {
    const [counts] = callerCounts(graph(), ['sym:src/cart.ts#addToCart']);
    assert.ok(counts);
    const title = callersTitle(counts, true);
    assert.equal(title, '0 callers · 1 .astro file and 1 .mdx file not analysed');
    // What the e2e tests parse still parses.
    assert.match(title, /^(\d+) callers?( · \+(\d+) candidates?)?( · |$)/);
    assert.match(counts.unanalysedReason ?? '', /src\/App\.astro, src\/Widget\.mdx/);
    assert.equal(
      callersTitle(
        {
          callers: 1,
          candidates: 2,
          unanalysed: '3 .vue files not analysed',
          unresolvedNamed: '+1 unresolved call named `stop` (any-receiver)',
        },
        true,
      ),
      '1 caller · +2 candidates · 3 .vue files not analysed · +1 unresolved call named `stop` (any-receiver)',
    );
    assert.equal(
      callersTitle({ callers: 1, candidates: 2, unanalysed: '3 .vue files not analysed' }, false),
      '1 caller · 3 .vue files not analysed',
    );
  });

  it('the answers match their result schemas', () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    const g = graph();
    for (const [name, answer] of [
      ['callers', queryCallers(g, 'sym:src/engines.ts#Engine1.stop')],
      ['affected', queryAffected(g, 'sym:src/cart.ts#addToCart')],
      ['impact', queryImpact(g, 'sym:src/cart.ts#addToCart')],
    ] as const) {
      assert.ok(ajv.validate(RESULT_SCHEMAS[name], answer), `${name}: ${ajv.errorsText()}`);
    }
    assert.ok(
      ajv.validate(RESULT_SCHEMAS.counts, JSON.parse(JSON.stringify(callerCounts(g, ['sym:src/cart.ts#addToCart', 'nope'])))),
      ajv.errorsText(),
    );
  });
});
