// `kg export --format neo4j`: the files are what Neo4j's bulk importer documents (header fields
// `<name>:<type>`, one id:ID per node file, :START_ID/:END_ID/:TYPE per relationship file, typed
// properties), read back with the test's own reader (test/helpers/neo4j-csv.ts), and they hold
// the graph whole: every node and edge with its properties, unresolved targets as nodes of their
// own, values with delimiters, quotes and line breaks intact. Deterministic: the same bytes twice.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { compareStrings, loadGraphFile, neo4jExport, type Graph } from '../../src/graph';
import { SNAPSHOTS } from '../helpers/fixtures';
import { graphOf } from '../helpers/graphs';
import { HEADER_FIELD, parseCsv, typedRow } from '../helpers/neo4j-csv';

function snapshotGraphs(): Array<[string, Graph]> {
  return (
    fs
      .readdirSync(SNAPSHOTS)
      .sort(compareStrings)
      // A snapshot folder holds a fixture's graph, or another golden file (the diff's comment).
      .filter((name) => fs.existsSync(path.join(SNAPSHOTS, name, 'graph.json')))
      .map((name) => {
        const load = loadGraphFile(path.join(SNAPSHOTS, name, 'graph.json'));
        assert.ok(load.ok, name);
        return [name, load.graph.graph];
      })
  );
}

/** Checks the export of `graph` against the importer's format and the graph; returns the parsed files. */
function checkExport(graph: Graph) {
  const files = neo4jExport(graph);
  const nodes = parseCsv(files['nodes.csv']);
  const rels = parseCsv(files['relationships.csv']);
  for (const h of [...nodes.header, ...rels.header]) assert.match(h, HEADER_FIELD, `header field ${h}`);
  const types = (header: string[]) => header.map((h) => HEADER_FIELD.exec(h)?.groups?.type);
  assert.equal(types(nodes.header).filter((t) => t === 'ID').length, 1, 'one :ID field');
  for (const t of ['START_ID', 'END_ID', 'TYPE']) assert.equal(types(rels.header).filter((x) => x === t).length, 1, `one :${t}`);
  assert.ok(!types(nodes.header).some((t) => t === 'START_ID' || t === 'TYPE'));
  for (const f of [nodes, rels]) for (const r of f.rows) assert.equal(r.length, f.header.length, 'a field per header field');

  const nodeRows = nodes.rows.map((r) => typedRow(nodes.header, r));
  const ids = nodeRows.map((r) => r.id as string);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique across the node file');
  const graphIds = new Set(graph.nodes.map((n) => n.id));
  for (const n of graph.nodes) {
    const row = nodeRows.find((r) => r.id === n.id);
    assert.ok(row, n.id);
    assert.deepEqual(
      { kind: row.kind, label: row.label, sourceFile: row.sourceFile, line: row.line, column: row.column, text: row.text },
      { kind: n.kind, label: n.label, sourceFile: n.sourceFile, line: n.line, column: n.column, text: n.text },
    );
    assert.ok((row[':LABEL'] as string[]).includes('KgNode'));
    for (const label of row[':LABEL'] as string[]) assert.match(label, /^[A-Z][A-Za-z]*$/);
    if (n.declarationCount !== undefined) assert.equal(row.declarationCount, n.declarationCount);
    if (n.symbolKinds !== undefined) assert.deepEqual(row.symbolKinds, n.symbolKinds);
  }
  const unresolved = nodeRows.filter((r) => !graphIds.has(r.id as string));
  for (const r of unresolved) {
    assert.match(r.id as string, /^(unresolved|pkg):/);
    assert.deepEqual(r[':LABEL'], ['KgNode', (r.id as string).startsWith('pkg:') ? 'PackageSymbol' : 'Unresolved']);
  }
  const known = new Set(ids);
  const relRows = rels.rows.map((r) => typedRow(rels.header, r));
  assert.equal(relRows.length, graph.edges.length);
  graph.edges.forEach((e, k) => {
    const r = relRows[k];
    assert.ok(known.has(r[':START_ID'] as string) && known.has(r[':END_ID'] as string), 'both ends are nodes of the import');
    assert.match(r[':TYPE'] as string, /^[A-Z][A-Z_]*$/);
    assert.deepEqual(
      [r[':START_ID'], r[':END_ID'], r.relation, r.confidence, r.provenance, r.evidenceFile, r.evidenceLine, r.evidenceColumn, r.reason],
      [e.source, e.target, e.relation, e.confidence, e.provenance, e.evidence?.file, e.evidence?.line, e.evidence?.column, e.reason],
    );
    assert.equal(r.confidenceScore, e.confidenceScore ?? undefined);
  });
  return { files, nodeRows, relRows };
}

describe('kg export --format neo4j', () => {
  it('writes what the bulk importer reads, holding every fixture graph whole', () => {
    let nodes = 0;
    for (const [name, graph] of snapshotGraphs()) {
      const { nodeRows } = checkExport(graph);
      nodes += nodeRows.length;
      assert.equal(neo4jExport(graph)['nodes.csv'], neo4jExport(structuredClone(graph))['nodes.csv'], `${name}: the same bytes twice`);
    }
    assert.ok(nodes > 100);
  });

  it('keeps commas, quotes, semicolons and line breaks in values', () => {
    const graph = graphOf([['sym:src/a.ts#f', 'sym:src/b.ts#g']]);
    graph.nodes[0] = { ...graph.nodes[0], label: 'a, "quoted"; label' };
    graph.nodes[1] = { ...graph.nodes[1], kind: 'rationale', text: 'line one\nline two, "two"\r\nthree;' };
    const { nodeRows } = checkExport(graph);
    assert.equal(nodeRows[0].label, 'a, "quoted"; label');
    assert.equal(nodeRows[1].text, 'line one\nline two, "two"\r\nthree;');
  });

  it('names relationship types after relations and ships the import command, the constraint and the seven questions', () => {
    const graph = graphOf([
      ['file:src/a.ts', 'file:src/b.ts', 're-exports'],
      ['sym:src/a.ts#f', 'unresolved:g'],
    ]);
    const { files, relRows } = checkExport(graph);
    assert.deepEqual(relRows.map((r) => r[':TYPE']).sort(), ['CALLS', 'RE_EXPORTS']);
    assert.match(files['import.sh'], /neo4j-admin database import full[^]*--nodes=nodes\.csv --relationships=relationships\.csv/);
    assert.match(files['import.sh'], /--multiline-fields=true/);
    assert.match(files['constraints.cypher'], /CREATE CONSTRAINT kg_node_id IF NOT EXISTS FOR \(n:KgNode\) REQUIRE n\.id IS UNIQUE;/);
    const headings = [...files['queries.cypher'].matchAll(/^\/\/ ([a-z-]+):/gm)].map((m) => m[1]);
    assert.deepEqual(headings, ['callers', 'affected', 'impact', 'neighbors', 'path', 'god-nodes', 'query']);
    const params = new Set([...files['queries.cypher'].matchAll(/\$([a-z]+)/g)].map((m) => m[1]));
    assert.deepEqual([...params].sort(), ['budget', 'from', 'id', 'text', 'to', 'top']);
    // Every statement ends with a semicolon: cypher-shell -f runs them one by one.
    const statements = files['queries.cypher'].split(/;\n/).filter((s) => /^(MATCH|RETURN)/m.test(s));
    assert.equal(statements.length, 7);
  });
});

describe('what the bulk importer must not be given as it is (issue 55, item 21)', () => {
  it('a call into an installed package is a PackageSymbol node labelled with its symbol, not a garbled Unresolved one', () => {
    const target = 'pkg:%40acme/lib@1.2.0:src/index.ts#greet';
    // graph.json holds no node for a pkg: target (the edge leads out of the repository).
    const graph = graphOf([['sym:src/a.ts#run', 'unresolved:greet', 'calls']]);
    graph.edges[0] = { ...graph.edges[0], target };
    const nodes = parseCsv(neo4jExport(graph)['nodes.csv']);
    const row = nodes.rows.map((r) => typedRow(nodes.header, r)).find((r) => r.id === target);
    assert.ok(row);
    assert.deepEqual([row[':LABEL'], row.kind, row.label], [['KgNode', 'PackageSymbol'], 'package-symbol', 'greet']);
    checkExport(graph);
    // The questions never walk through it or rank it, as they do not an unresolved name.
    assert.match(neo4jExport(graph)['queries.cypher'], /NOT x:Unresolved AND NOT x:PackageSymbol/);
  });

  it('a property a spreadsheet would run as a formula starts with an apostrophe; ids and relationship keys stay as they are', () => {
    const graph = graphOf([['sym:src/a.ts#run', 'unresolved:=HYPERLINK("http://x","y")', 'calls']]);
    const rationale = graph.nodes[0];
    for (const [i, text] of ['=HYPERLINK("http://evil","click")', '+1', '-2', '@SUM(A1)'].entries())
      graph.nodes.push({ ...rationale, id: `sym:src/f${i}.ts#f`, label: text, text });
    const files = neo4jExport(graph);
    const nodes = parseCsv(files['nodes.csv']);
    const rows = nodes.rows.map((r) => typedRow(nodes.header, r));
    for (const r of rows) {
      for (const key of ['label', 'text', 'kind', 'sourceFile', 'signature'])
        if (typeof r[key] === 'string') assert.doesNotMatch(r[key] as string, /^[=+\-@]/, `${r.id as string}.${key}`);
      assert.doesNotMatch(r.id as string, /^[=+\-@]/);
    }
    assert.equal(rows.find((r) => r.id === 'sym:src/f0.ts#f')?.label, `'=HYPERLINK("http://evil","click")`);
    assert.equal(rows.find((r) => r.id === 'unresolved:=HYPERLINK("http://x","y")')?.label, `'=HYPERLINK("http://x","y")`);
    const rels = parseCsv(files['relationships.csv']);
    const edge = rels.rows.map((r) => typedRow(rels.header, r))[0];
    assert.equal(edge[':END_ID'], 'unresolved:=HYPERLINK("http://x","y")', 'the key reaches its node unchanged');
  });
});
