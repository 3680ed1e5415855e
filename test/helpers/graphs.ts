// Hand-built graphs for query tests: name the edges, get a schema-valid graph.json value (every
// graph made here is validated against the shipped schema) and its index.

import * as assert from 'node:assert/strict';
import {
  compareEdges,
  compareStrings,
  graphSignature,
  indexGraph,
  isUnresolvedId,
  LAYER_OF_RELATION,
  parseId,
  type Confidence,
  type Graph,
  type GraphEdge,
  type GraphNode,
  type IndexedGraph,
  type Layer,
  type NodeKind,
  type Relation,
  type Unavailable,
} from '../../src/graph';
import { assertValidGraph } from './schema';

/** [source, target, relation = calls, confidence = EXACT]; an `unresolved:` target makes an UNRESOLVED edge. */
export type EdgeSpec = readonly [string, string, Relation?, Confidence?];

const EXACT_PROVENANCE: Record<Relation, GraphEdge['provenance']> = {
  contains: 'SYNTAX',
  imports: 'MODULE_RESOLUTION',
  're-exports': 'MODULE_RESOLUTION',
  calls: 'TYPESCRIPT_CHECKER',
  extends: 'TYPESCRIPT_CHECKER',
  implements: 'TYPESCRIPT_CHECKER',
  inherits: 'TYPESCRIPT_CHECKER',
  overrides: 'TYPESCRIPT_CHECKER',
  references: 'TYPESCRIPT_CHECKER',
  cites: 'DECISION_RECORD',
};

function nodeFor(id: string): GraphNode {
  const p = parseId(id);
  assert.ok(p && p.prefix !== 'unresolved', `not a node id: ${id}`);
  const kinds: Record<string, NodeKind> = {
    mod: 'module',
    file: 'file',
    sym: 'function',
    adr: 'rationale',
    doc: 'doc-concept',
    rationale: 'rationale',
  };
  const node: GraphNode = { id, kind: kinds[p.prefix], label: id.slice(id.lastIndexOf(p.prefix === 'sym' ? '#' : ':') + 1) };
  if (p.prefix === 'file' || p.prefix === 'sym' || p.prefix === 'doc' || p.prefix === 'rationale') node.sourceFile = p.path;
  if (p.prefix === 'adr') node.sourceFile = `docs/adr/${p.num}.md`;
  return node;
}

function edgeFor([source, target, relation = 'calls', confidence = 'EXACT']: EdgeSpec): GraphEdge {
  if (isUnresolvedId(target)) {
    return {
      source,
      target,
      relation,
      confidence: 'UNRESOLVED',
      provenance: 'NONE',
      resolution: 'EXTRACTED',
      evidenceClass: 'HEURISTIC',
      confidenceScore: null,
      reason: 'no-declaration',
    };
  }
  if (confidence === 'CANDIDATE') {
    return {
      source,
      target,
      relation,
      confidence,
      provenance: 'NAME_MATCH',
      resolution: 'EXTRACTED',
      evidenceClass: 'HEURISTIC',
      confidenceScore: null,
    };
  }
  return {
    source,
    target,
    relation,
    confidence: 'EXACT',
    provenance: EXACT_PROVENANCE[relation],
    resolution: 'EXTRACTED',
    evidenceClass: 'DETERMINISTIC',
    confidenceScore: null,
  };
}

/**
 * A canonical graph: the named nodes plus every node an edge names, sorted, layers derived from
 * the relations present, references with calls (or `layers` when given, to build a graph that lacks one).
 */
export function graphOf(edges: readonly EdgeSpec[], opts: { nodes?: readonly string[]; layers?: Layer[] } = {}): Graph {
  const ids = new Set<string>(opts.nodes ?? []);
  for (const [s, t] of edges) {
    ids.add(s);
    if (!isUnresolvedId(t)) ids.add(t);
  }
  const nodes = [...ids].sort(compareStrings).map(nodeFor);
  const es = edges.map(edgeFor).sort(compareEdges);
  // A build that resolves calls always runs the references layer too (ADR 151), so a graph with
  // calls has both unless the test asks for a graph that lacks one.
  const derived = new Set<Layer>(es.map((e) => LAYER_OF_RELATION[e.relation]));
  if (derived.has('calls')) derived.add('references');
  const layers = opts.layers ?? [...derived].sort(compareStrings);
  const graph: Graph = { schemaVersion: 1, graphSignature: graphSignature(nodes, es), layers, grammarVersions: {}, nodes, edges: es };
  assertValidGraph(graph);
  return graph;
}

export function indexed(graph: Graph): IndexedGraph {
  const load = indexGraph(graph);
  assert.ok(load.ok, load.ok ? '' : load.unavailable.reason);
  return load.graph;
}

export function indexedOf(edges: readonly EdgeSpec[], opts: { nodes?: readonly string[]; layers?: Layer[] } = {}): IndexedGraph {
  return indexed(graphOf(edges, opts));
}

/** Narrows a result to an answer, failing the test with the degrade's reason otherwise. */
export function ok<T extends { available: true }>(result: T | Unavailable): T {
  assert.equal(result.available, true, result.available ? '' : `${result.code}: ${result.reason}`);
  return result as T;
}

/** Narrows a result to a degrade, failing the test when it answered. */
export function degraded(result: { available: boolean }): Unavailable {
  assert.equal(result.available, false, `expected a degrade, got an answer: ${JSON.stringify(result)}`);
  return result as Unavailable;
}
