// What the extraction tier must say about each fixture, checked against the fixture's own text
// (positions are computed here from the source, not copied from the builder's output).

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  buildGraph,
  fileId,
  memoryFileHost,
  runDoctor,
  symbolId,
  unresolvedId,
  type Graph,
  type GraphEdge,
  type GraphNode,
} from '../../src/graph';
import { copyFixture, removeTempDirs } from '../helpers/fixtures';
import { positionIn } from '../helpers/positions';
import { assertValidGraph } from '../helpers/schema';

function build(name: string): Graph {
  const { graph } = buildGraph({ root: copyFixture(name) });
  assertValidGraph(JSON.parse(JSON.stringify(graph)));
  return graph;
}

function node(g: Graph, id: string): GraphNode {
  const n = g.nodes.find((x) => x.id === id);
  assert.ok(n, `expected node ${id}; have:\n${g.nodes.map((x) => x.id).join('\n')}`);
  return n;
}

function edge(g: Graph, source: string, target: string, relation: string): GraphEdge {
  const e = g.edges.find((x) => x.source === source && x.target === target && x.relation === relation);
  assert.ok(e, `expected edge ${source} --${relation}--> ${target}`);
  return e;
}

describe('extraction', () => {
  after(removeTempDirs);

  it('nests modules by directory and contains files in their module', () => {
    const g = build('nested-modules');
    for (const m of ['mod:.', 'mod:src', 'mod:src/util', 'mod:src/util/deep']) assert.equal(node(g, m).kind, 'module');
    edge(g, 'mod:.', 'mod:src', 'contains');
    edge(g, 'mod:src', 'mod:src/util', 'contains');
    edge(g, 'mod:src/util', 'mod:src/util/deep', 'contains');
    edge(g, 'mod:src/util/deep', 'file:src/util/deep/c.ts', 'contains');
    edge(g, 'file:src/util/b.ts', 'file:src/util/deep/c.ts', 'imports');
    assert.equal(node(g, 'mod:src').sourceFile, undefined);
    assert.equal(node(g, 'sym:index.ts#main').kind, 'function');
  });

  it('extracts classes, members, fields, accessors, private and computed names; not constructors', () => {
    const g = build('classes-methods');
    const f = 'shapes.ts';
    for (const [name, kind] of [
      ['Shape', 'interface'],
      ['Shape.area', 'method'],
      ['Shape.describe', 'method'],
      ['Base', 'class'],
      ['Base.area', 'method'],
      ['Base.name', 'method'],
      ['Base.describe', 'method'],
      ['Base.create', 'method'],
      ['Base.#secret', 'method'],
      ["Base.['computed' + 'Name']", 'method'],
      ['Square', 'class'],
      ['Square.area', 'method'],
      ['Hidden', 'class'],
      ['Hidden.method', 'method'],
    ] as const) {
      assert.equal(node(g, symbolId(f, name)).kind, kind, name);
    }
    assert.equal(node(g, symbolId(f, 'Base.name')).declarationCount, 2, 'getter and setter collapse');
    // Fields and property signatures are nodes of kind `property` (ADR 151); constructors never are.
    assert.equal(node(g, symbolId(f, 'Square.size')).kind, 'property');
    assert.equal(node(g, symbolId(f, 'Shape.name')).kind, 'property');
    assert.ok(!g.nodes.some((n) => n.id.endsWith('.constructor')));
    assert.ok(symbolId(f, 'Base.#secret').endsWith('Base.%23secret'), 'the # of a private name is escaped');
    edge(g, symbolId(f, 'Base'), symbolId(f, 'Base.area'), 'contains');
    edge(g, symbolId(f, 'Shape'), symbolId(f, 'Shape.area'), 'contains');
    const sq = node(g, symbolId(f, 'Square'));
    assert.deepEqual({ line: sq.line, column: sq.column }, positionIn('classes-methods', f, 'Square'));
    assert.equal(node(g, symbolId(f, 'Hidden')).exported, undefined);
    assert.equal(node(g, symbolId(f, 'Square')).exported, true);
  });

  it('treats functions bound to module-level consts as functions', () => {
    const g = build('const-arrow');
    const f = 'functions.ts';
    for (const name of ['arrow', 'fnExpr', 'wrapped', 'other', 'default']) assert.equal(node(g, symbolId(f, name)).kind, 'function', name);
    for (const name of ['counter', 'value', 'destructured', 'deep']) assert.equal(node(g, symbolId(f, name)).kind, 'variable', name);
    assert.ok(!g.nodes.some((n) => n.id === symbolId(f, 'named')), 'a function expression name is not a module symbol');
    const d = node(g, symbolId(f, 'default'));
    assert.deepEqual({ line: d.line, column: d.column }, positionIn('const-arrow', f, 'default'));
  });

  it('collapses overloads, merged and invalid redeclarations to the first position', () => {
    const g = build('overloads-merging');
    const m = 'merge.ts';
    const format = node(g, symbolId(m, 'format'));
    assert.equal(format.declarationCount, 3);
    assert.deepEqual({ line: format.line, column: format.column }, positionIn('overloads-merging', m, 'format'));
    assert.equal(node(g, symbolId(m, 'Config')).declarationCount, 2);
    assert.equal(node(g, symbolId(m, 'Config')).symbolKinds, undefined, 'same kinds: no symbolKinds');
    assert.deepEqual(node(g, symbolId(m, 'tagged')).symbolKinds, ['function', 'namespace']);
    assert.equal(node(g, symbolId(m, 'tagged')).kind, 'function', 'the first declaration decides the kind');
    assert.deepEqual(node(g, symbolId(m, 'Point')).symbolKinds, ['class', 'interface']);
    assert.equal(node(g, symbolId(m, 'Overloaded.run')).declarationCount, 3);
    // Every declaration's line, read off merge.ts: the two overload signatures and the implementation.
    assert.deepEqual(format.declarationLines, [1, 2, 3]);
    assert.deepEqual(node(g, symbolId(m, 'Overloaded.run')).declarationLines, [27, 28, 29]);
    assert.equal(node(g, symbolId(m, 'tagged.label')).declarationLines, undefined, 'one declaration: no lines');
    assert.equal(node(g, symbolId(m, 'tagged.label')).kind, 'variable');
    const inv = 'invalid.ts';
    assert.equal(node(g, symbolId(inv, 'dup')).declarationCount, 2);
    assert.deepEqual(
      { line: node(g, symbolId(inv, 'dup')).line, column: node(g, symbolId(inv, 'dup')).column },
      positionIn('overloads-merging', inv, 'dup'),
    );
    assert.equal(node(g, symbolId(inv, 'twice')).declarationCount, 2);
  });

  it('records re-exports, export * and unresolved imports with their reason', () => {
    const g = build('reexports');
    const idx = fileId('src/index.ts');
    assert.equal(edge(g, idx, fileId('src/a.ts'), 're-exports').context, '*');
    assert.equal(edge(g, idx, fileId('src/b.ts'), 're-exports').context, undefined);
    assert.equal(edge(g, idx, fileId('src/c.ts'), 're-exports').context, '* as c');
    const missing = edge(g, idx, 'unresolved:./missing', 're-exports');
    assert.equal(missing.confidence, 'UNRESOLVED');
    assert.equal(missing.reason, 'not-found');
    const imp = edge(g, fileId('main.ts'), idx, 'imports');
    assert.equal(imp.provenance, 'MODULE_RESOLUTION');
    assert.deepEqual({ line: imp.evidence?.line, column: imp.evidence?.column }, positionIn('reexports', 'main.ts', 'import { alpha'));
    assert.deepEqual(g.unresolved?.imports, { external: 1 }, 'lodash is counted, not listed');
    assert.ok(!g.edges.some((e) => e.target.includes('lodash')));
  });

  it('resolves path aliases and baseUrl through the owning tsconfig', () => {
    const g = build('path-aliases');
    edge(g, fileId('src/app/index.ts'), fileId('src/core/log.ts'), 'imports');
    edge(g, fileId('src/main.ts'), fileId('src/app/index.ts'), 'imports');
    edge(g, fileId('src/main.ts'), fileId('src/core/log.ts'), 'imports');
    assert.equal(edge(g, fileId('src/app/index.ts'), unresolvedId('@core/nothing'), 'imports').reason, 'not-found');
  });

  it('follows project references and resolves workspace packages without node_modules', () => {
    const g = build('project-references');
    const main = fileId('packages/app/src/main.ts');
    edge(g, main, fileId('packages/core/src/index.ts'), 'imports');
    edge(g, main, fileId('packages/app/src/helper.ts'), 'imports');
    assert.equal(g.unresolved, undefined);
  });

  it('reads plain JavaScript: require, dynamic import, CommonJS and ES modules', () => {
    const g = build('plain-js');
    const idx = fileId('index.cjs');
    assert.equal(edge(g, idx, fileId('lib/math.js'), 'imports').context, 'require');
    assert.equal(edge(g, idx, fileId('lib/esm.mjs'), 'imports').context, 'dynamic');
    assert.equal(node(g, symbolId('lib/math.js', 'add')).kind, 'function');
    assert.equal(node(g, symbolId('lib/esm.mjs', 'Counter.increment')).kind, 'method');
    assert.deepEqual(g.unresolved?.imports, { external: 1 });
  });

  it('reads TSX components', () => {
    const g = build('tsx');
    assert.equal(node(g, symbolId('src/Button.tsx', 'Button')).kind, 'function');
    assert.equal(node(g, symbolId('src/Button.tsx', 'Panel')).kind, 'function');
    assert.equal(node(g, symbolId('src/App.tsx', 'App')).kind, 'function');
    assert.equal(node(g, symbolId('src/App.tsx', 'App')).exported, true);
    edge(g, fileId('src/App.tsx'), fileId('src/Button.tsx'), 'imports');
  });

  it('parses files with syntax errors best-effort without blocking the build', () => {
    const g = build('syntax-errors');
    for (const name of ['good', 'broken', 'StillHere', 'after']) node(g, symbolId('broken.ts', name));
    edge(g, fileId('fine.ts'), fileId('broken.ts'), 'imports');
  });

  it('declares nothing for a name the parser invented while recovering from an error', () => {
    // Each of these leaves a missing identifier (text '') where a name should be; none may become
    // a symbol named '' or 'a.' (found by the parser fuzz, test/robustness/parser-fuzz.test.ts).
    const broken = [
      'module a. {}',
      'namespace a.b. { export function f() {} }',
      'interface {}',
      'type = 1;',
      'const = 1;',
      'let [, ] = [];',
      "class C { ''() {} }",
      'enum {}',
    ];
    for (const text of broken) {
      const { graph } = buildGraph({ root: '/mem', host: memoryFileHost('/mem', { 'a.ts': text + '\nexport function ok() {}\n' }) });
      for (const n of graph.nodes.filter((x) => x.kind !== 'file' && x.kind !== 'module')) {
        const name = n.id.slice(n.id.indexOf('#') + 1);
        assert.ok(name !== '' && name.split('.').every((part) => part !== ''), `${JSON.stringify(text)} declared ${n.id}`);
      }
      node(graph, symbolId('a.ts', 'ok'));
      assert.equal(runDoctor(graph).ok, true, `${JSON.stringify(text)}: the doctor accepts the graph`);
    }
  });

  it('ignores a BOM and counts CRLF lines like an editor', () => {
    const g = build('bom-crlf');
    const f = 'windows.ts';
    assert.deepEqual(
      { line: node(g, symbolId(f, 'first')).line, column: node(g, symbolId(f, 'first')).column },
      positionIn('bom-crlf', f, 'first'),
    );
    assert.deepEqual({ line: node(g, symbolId(f, 'first')).line, column: node(g, symbolId(f, 'first')).column }, { line: 1, column: 17 });
    assert.deepEqual(
      { line: node(g, symbolId(f, 'Second.method')).line, column: node(g, symbolId(f, 'Second.method')).column },
      positionIn('bom-crlf', f, 'method'),
    );
  });

  it('counts columns in UTF-16 units after astral characters', () => {
    const g = build('astral');
    const f = 'emoji.ts';
    const a = node(g, symbolId(f, 'afterEmoji'));
    const expected = positionIn('astral', f, 'afterEmoji');
    assert.deepEqual({ line: a.line, column: a.column }, expected);
    // Two emoji are four UTF-16 units but two code points: the column must use units.
    assert.equal(expected.column, '/* 😀😀 */ export function '.length + 1);
    const b = node(g, symbolId(f, 'afterMath'));
    assert.deepEqual({ line: b.line, column: b.column }, positionIn('astral', f, 'afterMath'));
  });
});
