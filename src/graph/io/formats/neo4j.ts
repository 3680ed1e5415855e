// `kg export --format neo4j`: a graph as the files Neo4j's bulk importer reads
// (`neo4j-admin database import full`), and a Cypher file with the constraints and the seven
// questions (docs/organisation.md, "Neo4j"). Output formats live in this folder, each a pure
// function of a graph to named file contents: deterministic (graph order, fixed columns), no clock.
//
// The importer's CSV: a header row of `<name>:<type>` fields — `id:ID` (the id, kept as the `id`
// property), `:LABEL` (labels separated by ";"), `:START_ID`, `:END_ID`, `:TYPE`, and typed
// properties (`line:int`, `confidenceScore:double`; no type is string). An empty unquoted field is
// an absent property; every string is quoted, `"` doubled inside. A stamped note's text may hold
// line breaks, so the import runs with --multiline-fields=true (import.sh says so).
//
// Spreadsheet safety (issue 55, item 21; ADR 146): a CSV opened in a spreadsheet runs a cell that
// starts with = + - @ as a formula (`=HYPERLINK(…)` from a label or a note's text). Such a property
// value is written with a leading apostrophe, which spreadsheets read as "text" and hide; Neo4j
// imports the apostrophe as part of the value. The importer's keys (`id:ID`, `:START_ID`,
// `:END_ID`, `:LABEL`, `:TYPE`) are never changed: graph ids start with their prefix (`sym:`,
// `unresolved:`, `pkg:` …), so they are never formula-like, and the import stays valid, every
// relationship reaching its nodes.

import { CONSUMER_RELATIONS } from '../../consumers';
import { parseId } from '../../ids';
import { isPackageId, isUnresolvedId, UNRESOLVED_PREFIX, type Graph, type GraphEdge, type GraphNode, type NodeKind } from '../../model';

/** Every node gets this label too: the uniqueness constraint and the queries use it. */
const NODE_LABEL = 'KgNode';
/** An `unresolved:` call target is a name, not a node of graph.json: it becomes a node of its own label. */
const UNRESOLVED_LABEL = 'Unresolved';
/** A `pkg:` call target (a symbol of an installed package, ADR 111) is not a node of graph.json either. */
const PACKAGE_LABEL = 'PackageSymbol';
/** Nodes the questions never walk through or rank: the targets that are not graph.json's nodes. */
const OUTSIDE = `NOT x:${UNRESOLVED_LABEL} AND NOT x:${PACKAGE_LABEL}`;

const KIND_LABEL: Record<NodeKind, string> = {
  module: 'Module',
  file: 'File',
  function: 'Function',
  class: 'Class',
  method: 'Method',
  property: 'Property',
  interface: 'Interface',
  enum: 'Enum',
  type: 'Type',
  variable: 'Variable',
  namespace: 'Namespace',
  rationale: 'Rationale',
  'doc-concept': 'DocConcept',
};

type Cell = string | number | boolean | null | undefined;

interface Column<T> {
  header: string;
  value: (row: T) => Cell;
  /** One of the importer's keys (ids, labels, the type): written as it is. */
  key?: true;
}

/** What a spreadsheet would run as a formula. */
const FORMULA_LIKE = /^[=+\-@]/;

function cell(v: Cell, key: boolean): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const text = !key && FORMULA_LIKE.test(v) ? `'${v}` : v;
  return `"${text.replace(/"/g, '""')}"`;
}

function csv<T>(columns: readonly Column<T>[], rows: Iterable<T>): string {
  const lines = [columns.map((c) => c.header).join(',')];
  for (const row of rows) lines.push(columns.map((c) => cell(c.value(row), c.key === true)).join(','));
  return lines.join('\n') + '\n';
}

interface NodeRow {
  node?: GraphNode;
  id: string;
}

const NODE_COLUMNS: readonly Column<NodeRow>[] = [
  { header: 'id:ID', value: (r) => r.id, key: true },
  { header: ':LABEL', value: (r) => `${NODE_LABEL};${r.node ? KIND_LABEL[r.node.kind] : outsideOf(r.id).label}`, key: true },
  { header: 'kind', value: (r) => r.node?.kind ?? outsideOf(r.id).kind },
  { header: 'label', value: (r) => r.node?.label ?? outsideOf(r.id).name },
  { header: 'sourceFile', value: (r) => r.node?.sourceFile },
  { header: 'line:int', value: (r) => r.node?.line },
  { header: 'column:int', value: (r) => r.node?.column },
  { header: 'declarationCount:int', value: (r) => r.node?.declarationCount },
  { header: 'symbolKinds:string[]', value: (r) => r.node?.symbolKinds?.join(';') },
  { header: 'exported:boolean', value: (r) => r.node?.exported },
  { header: 'signature', value: (r) => r.node?.signature },
  { header: 'text', value: (r) => r.node?.text },
];

const EDGE_COLUMNS: readonly Column<GraphEdge>[] = [
  { header: ':START_ID', value: (e) => e.source, key: true },
  { header: ':END_ID', value: (e) => e.target, key: true },
  { header: ':TYPE', value: (e) => relationshipType(e.relation), key: true },
  { header: 'relation', value: (e) => e.relation },
  { header: 'confidence', value: (e) => e.confidence },
  { header: 'provenance', value: (e) => e.provenance },
  { header: 'resolution', value: (e) => e.resolution },
  { header: 'evidenceClass', value: (e) => e.evidenceClass },
  { header: 'confidenceScore:double', value: (e) => e.confidenceScore },
  { header: 'tier', value: (e) => e.tier },
  { header: 'evidenceFile', value: (e) => e.evidence?.file },
  { header: 'evidenceLine:int', value: (e) => e.evidence?.line },
  { header: 'evidenceColumn:int', value: (e) => e.evidence?.column },
  { header: 'reason', value: (e) => e.reason },
  { header: 'context', value: (e) => e.context },
];

/**
 * A target that is not a node of graph.json: an `unresolved:` name, or a `pkg:` symbol of an
 * installed package, labelled by its symbol's name (its id was cut as if it were `unresolved:`
 * and the label came out garbled, issue 55).
 */
function outsideOf(id: string): { label: string; kind: string; name: string } {
  const parsed = isPackageId(id) ? parseId(id) : undefined;
  if (parsed?.prefix === 'pkg') return { label: PACKAGE_LABEL, kind: 'package-symbol', name: parsed.name };
  return { label: UNRESOLVED_LABEL, kind: 'unresolved', name: isUnresolvedId(id) ? id.slice(UNRESOLVED_PREFIX.length) : id };
}

/** A relation as a relationship type: `re-exports` → `RE_EXPORTS`. */
function relationshipType(relation: string): string {
  return relation.toUpperCase().replace(/-/g, '_');
}

function nodeRows(graph: Graph): NodeRow[] {
  const rows: NodeRow[] = graph.nodes.map((node) => ({ node, id: node.id }));
  const ids = new Set(graph.nodes.map((n) => n.id));
  const unresolved = [...new Set(graph.edges.map((e) => e.target).filter((t) => !ids.has(t)))].sort();
  for (const id of unresolved) rows.push({ id });
  return rows;
}

const IMPORT_SH = `#!/bin/sh
# Loads this folder into a new Neo4j database with the bulk importer (the database must not exist;
# create it afterwards: CREATE DATABASE kg). Then run constraints.cypher and read queries.cypher.
set -eu
cd "$(dirname "$0")"
neo4j-admin database import full \\
  --nodes=nodes.csv --relationships=relationships.csv \\
  --multiline-fields=true --array-delimiter=';' --id-type=string \\
  "\${1:-kg}"
`;

const CONSTRAINTS = `// Run once after the import (cypher-shell -f constraints.cypher).
CREATE CONSTRAINT kg_node_id IF NOT EXISTS FOR (n:${NODE_LABEL}) REQUIRE n.id IS UNIQUE;
CREATE INDEX kg_node_label IF NOT EXISTS FOR (n:${NODE_LABEL}) ON (n.label);
`;

/**
 * The seven questions in Cypher, with the parameters `kg` takes ($id, $from, $to, $budget, $top,
 * $text). They follow the file queries' rules where Cypher can say them: proof and guesses apart,
 * results sorted by id, unresolved names never walked through; "neighbors" keeps the hub rule
 * only as a degree cap and orders by distance, then id (breadth-first order without a visited
 * list is not expressible in one pattern). `kg <query>` stays the reference answer.
 */
/** The consumer relations (src/graph/consumers.ts) as a relationship-type pattern. */
const CONSUMER_TYPES = [...CONSUMER_RELATIONS].map(relationshipType).join('|');

const QUERIES = `// The seven questions of kg's query contract, in Cypher (generated by kg export --format neo4j).
// Set the parameters first, e.g. :param id => 'sym:src/util.ts#helper'

// callers: proven callers (EXACT calls) and name-match guesses (CANDIDATE), apart.
MATCH (t:${NODE_LABEL} {id: $id})<-[r:CALLS]-(s:${NODE_LABEL})
WITH s.id AS caller, collect(r.confidence) AS cs
ORDER BY caller
WITH collect(CASE WHEN 'EXACT' IN cs THEN caller END) AS proven,
     collect(CASE WHEN NOT 'EXACT' IN cs AND 'CANDIDATE' IN cs THEN caller END) AS guessed
RETURN proven AS callers, guessed AS candidates;

// affected: direct consumers through ${[...CONSUMER_RELATIONS].join(', ')}.
MATCH (t:${NODE_LABEL} {id: $id})<-[r:${CONSUMER_TYPES}]-(s:${NODE_LABEL})
WHERE s <> t
WITH s.id AS consumer, collect(r.confidence) AS cs
ORDER BY consumer
WITH collect(CASE WHEN 'EXACT' IN cs THEN consumer END) AS proven,
     collect(CASE WHEN NOT 'EXACT' IN cs AND 'CANDIDATE' IN cs THEN consumer END) AS guessed
RETURN proven AS consumers, size(proven) > 0 AS breaks, guessed AS candidates;

// impact: callers and consumers, the blast radius counting proof only.
MATCH (t:${NODE_LABEL} {id: $id})<-[r:${CONSUMER_TYPES}]-(s:${NODE_LABEL})
WHERE s <> t
WITH s.id AS consumer, collect(r.confidence) AS cs, collect(CASE WHEN type(r) = 'CALLS' THEN r.confidence END) AS calls
ORDER BY consumer
WITH collect(CASE WHEN 'EXACT' IN calls THEN consumer END) AS callers,
     collect(CASE WHEN 'EXACT' IN cs THEN consumer END) AS proven,
     collect(CASE WHEN NOT 'EXACT' IN cs AND 'CANDIDATE' IN cs THEN consumer END) AS guessed
RETURN callers, proven AS consumers, size(proven) AS blastRadius, guessed AS candidates, size(guessed) AS candidateRadius;

// neighbors: the nodes within reach, nearest first, never through an unresolved name, at most $budget.
MATCH (s:${NODE_LABEL} {id: $id})
MATCH p = shortestPath((s)-[*0..6]-(n:${NODE_LABEL}))
WHERE all(x IN nodes(p)[1..-1] WHERE ${OUTSIDE})
RETURN n.id AS id, length(p) AS distance
ORDER BY distance, id
LIMIT $budget;

// path: a shortest path on the undirected view, never through an unresolved name.
MATCH (a:${NODE_LABEL} {id: $from}), (b:${NODE_LABEL} {id: $to})
MATCH p = shortestPath((a)-[*]-(b))
WHERE all(x IN nodes(p)[1..-1] WHERE ${OUTSIDE})
RETURN [x IN nodes(p) | x.id] AS path, [r IN relationships(p) | [startNode(r).id, endNode(r).id, r.relation, r.confidence]] AS edges;

// god-nodes: the most connected nodes by in + out degree, ties by id; unresolved names are not ranked.
MATCH (x:${NODE_LABEL}) WHERE ${OUTSIDE}
WITH x AS n
RETURN n.id AS id, COUNT { (n)-->() } + COUNT { (n)<--() } AS degree
ORDER BY degree DESC, id
LIMIT $top;

// query: node ids containing the text, sorted, at most 50.
MATCH (x:${NODE_LABEL}) WHERE ${OUTSIDE} AND x.id CONTAINS $text
WITH x AS n
RETURN n.id AS id ORDER BY id LIMIT 50;
`;

/** The files of a Neo4j export, by name: the two CSVs, the import script, constraints and queries. */
export function neo4jExport(graph: Graph): Record<string, string> {
  return {
    'nodes.csv': csv(NODE_COLUMNS, nodeRows(graph)),
    'relationships.csv': csv(EDGE_COLUMNS, graph.edges),
    'import.sh': IMPORT_SH,
    'constraints.cypher': CONSTRAINTS,
    'queries.cypher': QUERIES,
  };
}
