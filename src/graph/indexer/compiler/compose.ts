// Composition: per-file facts plus derived module structure → one sorted, deduplicated graph
// with its layers and signature. Deterministic whatever order the facts arrive in.

import * as path from 'node:path';
import { fileId, moduleId, parseId } from '../../ids';
import {
  LAYER_OF_RELATION,
  SCHEMA_VERSION,
  compareEdges,
  compareStrings,
  isPackageId,
  type BuildDiagnostic,
  type Confidence,
  type Graph,
  type GraphEdge,
  type GraphNode,
  type Layer,
  type PackageRef,
  type UnanalysedFile,
  type EntryFile,
  type UnresolvedSummary,
} from '../../model';
import { graphSignature } from '../../io/signature';
import { exactEdge } from '../edges';

/** Module nodes for every directory holding a file node, with module→file and module→submodule containment. */
export function moduleStructure(filePaths: readonly string[]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const dirs = new Set(filePaths.map((f) => path.posix.dirname(f)));
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const norm = (d: string) => (d === '.' ? '' : d);
  for (const dir of dirs) {
    const d = norm(dir);
    nodes.push({ id: moduleId(d), kind: 'module', label: d === '' ? '.' : d });
    // The nearest ancestor directory that is itself a module contains this one.
    let parent = d;
    while (parent !== '') {
      parent = norm(path.posix.dirname(parent));
      if (dirs.has(parent === '' ? '.' : parent)) {
        edges.push(exactEdge(moduleId(parent), moduleId(d), 'contains', 'FILE_SYSTEM'));
        break;
      }
    }
  }
  for (const f of filePaths) {
    edges.push(exactEdge(moduleId(norm(path.posix.dirname(f))), fileId(f), 'contains', 'FILE_SYSTEM'));
  }
  return { nodes, edges };
}

const CONFIDENCE_RANK: Record<Confidence, number> = { EXACT: 0, CANDIDATE: 1, UNRESOLVED: 2 };

/** Which of two edges with one (source, target, relation) tuple the graph keeps (ADR-3). */
function better(a: GraphEdge, b: GraphEdge): GraphEdge {
  const rank = CONFIDENCE_RANK[a.confidence] - CONFIDENCE_RANK[b.confidence];
  if (rank !== 0) return rank < 0 ? a : b;
  const ea = a.evidence;
  const eb = b.evidence;
  if (ea && eb) {
    const order = compareStrings(ea.file, eb.file) || ea.line - eb.line || ea.column - eb.column;
    if (order !== 0) return order < 0 ? a : b;
  } else if (ea || eb) {
    return ea ? a : b;
  }
  // Same confidence, same site: prefer a deterministic pick over the vocabulary.
  return compareStrings(JSON.stringify(a), JSON.stringify(b)) <= 0 ? a : b;
}

export interface ComposeInput {
  /** Node lists in priority order: on an id collision the earlier list wins. */
  nodeLayers: GraphNode[][];
  edges: GraphEdge[];
  grammarVersions: Record<string, string>;
  /** Layers the build ran, present even when they found nothing: an empty layer is still a layer. */
  built?: readonly Layer[];
  /** The repository the graph describes (ADR 108). */
  repository?: string;
  unresolved?: UnresolvedSummary;
  diagnostics?: BuildDiagnostic[];
  /** Files of types the graph does not read that may use its code (ADR 153). */
  unanalysed?: UnanalysedFile[];
  /** Files named as ways in, sorted (ADR 157). */
  entries?: EntryFile[];
  /**
   * The last graph: when the composed graph has its node ids and edge tuples in the same order,
   * its signature is that graph's, not hashed again (graphSignature reads nothing else).
   */
  last?: Pick<Graph, 'nodes' | 'edges' | 'graphSignature'>;
}

/** True when two sorted graphs have the same node ids and the same (source, target, relation) tuples. */
function sameShape(nodes: readonly GraphNode[], edges: readonly GraphEdge[], last: Pick<Graph, 'nodes' | 'edges'>): boolean {
  if (nodes.length !== last.nodes.length || edges.length !== last.edges.length) return false;
  for (let i = 0; i < nodes.length; i++) if (nodes[i] !== last.nodes[i] && nodes[i].id !== last.nodes[i].id) return false;
  for (let i = 0; i < edges.length; i++) {
    const a = edges[i];
    const b = last.edges[i];
    if (a !== b && (a.source !== b.source || a.target !== b.target || a.relation !== b.relation)) return false;
  }
  return true;
}

/**
 * Each row equal to the last graph's row with the same key, replaced by that row. A warm build makes
 * some rows again every time as new objects (modules, imports, name matches); the last graph's
 * object is the same line to the serializer, which then neither serializes it again nor breaks the
 * block it is in, and the same row to sameShape (ADR 132). Both lists are sorted by key, unique.
 */
function keepLast<T extends object>(rows: T[], last: readonly T[], compare: (a: T, b: T) => number): void {
  let j = 0;
  for (let i = 0; i < rows.length && j < last.length; i++) {
    const row = rows[i];
    if (last[j] === row) {
      j++;
      continue;
    }
    while (j < last.length && compare(last[j], row) < 0) j++;
    if (j < last.length && compare(last[j], row) === 0) {
      if (sameRow(row, last[j])) rows[i] = last[j];
      j++;
    }
  }
}

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * True when two rows hold the same values: the same keys (in any order: the serializer orders them),
 * each value the same primitive or an object of the same primitives (an edge's evidence). Anything
 * deeper is judged different, which only keeps the new row.
 */
function sameRow(a: unknown, b: unknown, depth = 1): boolean {
  if (a === b) return true;
  if (depth < 0 || a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b))
    return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  return keys.length === Object.keys(rb).length && keys.every((k) => own(rb, k) && sameRow(ra[k], rb[k], depth - 1));
}

/** The packages of the package-qualified targets, from the ids themselves (ADR 107). */
function packagesOf(edges: readonly GraphEdge[]): PackageRef[] {
  const seen = new Map<string, PackageRef>();
  for (const e of edges) {
    if (!isPackageId(e.target)) continue;
    const p = parseId(e.target);
    if (p?.prefix === 'pkg') seen.set(`${p.pkg}\u0000${p.version}`, { name: p.pkg, version: p.version });
  }
  return [...seen.values()].sort((a, b) => compareStrings(a.name, b.name) || compareStrings(a.version, b.version));
}

export function compose(input: ComposeInput): Graph {
  const nodes = new Map<string, GraphNode>();
  for (const layer of input.nodeLayers) {
    for (const n of layer) if (!nodes.has(n.id)) nodes.set(n.id, n);
  }
  const sortedNodes = [...nodes.values()].sort((a, b) => compareStrings(a.id, b.id));
  // One edge per (source, target, relation): sorted (a stable sort keeps the input's order among
  // equal tuples), then each run of equal tuples reduced by `better` in that order — what a map by
  // edgeKey gave, without a key string made and hashed for each of a large graph's edges.
  const sortedEdges: GraphEdge[] = [];
  for (const e of [...input.edges].sort(compareEdges)) {
    const last = sortedEdges[sortedEdges.length - 1];
    if (last && last.source === e.source && last.target === e.target && last.relation === e.relation)
      sortedEdges[sortedEdges.length - 1] = better(last, e);
    else sortedEdges.push(e);
  }
  if (input.last) {
    keepLast(sortedNodes, input.last.nodes, (a, b) => compareStrings(a.id, b.id));
    keepLast(sortedEdges, input.last.edges, compareEdges);
  }
  const layers = new Set<Layer>();
  for (const e of sortedEdges) layers.add(LAYER_OF_RELATION[e.relation]);
  // A relation observed only as counted references (calls into node_modules) was still built.
  for (const relation of Object.keys(input.unresolved ?? {}) as Array<keyof typeof LAYER_OF_RELATION>)
    layers.add(LAYER_OF_RELATION[relation]);
  for (const l of input.built ?? []) layers.add(l);
  if (sortedNodes.some((n) => n.kind === 'doc-concept')) layers.add('docs');
  const graph: Graph = {
    schemaVersion: SCHEMA_VERSION,
    graphSignature:
      input.last && sameShape(sortedNodes, sortedEdges, input.last) ? input.last.graphSignature : graphSignature(sortedNodes, sortedEdges),
    layers: [...layers].sort(compareStrings),
    grammarVersions: input.grammarVersions,
    nodes: sortedNodes,
    edges: sortedEdges,
  };
  if (input.repository !== undefined) graph.repository = input.repository;
  const packages = packagesOf(sortedEdges);
  if (packages.length > 0) graph.packages = packages;
  if (input.unresolved && Object.keys(input.unresolved).length > 0) graph.unresolved = sortSummary(input.unresolved);
  if (input.diagnostics && input.diagnostics.length > 0) {
    graph.diagnostics = [...input.diagnostics].sort((a, b) => compareStrings(a.path, b.path) || compareStrings(a.reason, b.reason));
  }
  if (input.unanalysed && input.unanalysed.length > 0) {
    graph.unanalysed = [...input.unanalysed].sort((a, b) => compareStrings(a.path, b.path));
  }
  if (input.entries && input.entries.length > 0) graph.entries = input.entries;
  // Re-insert in the canonical field order.
  const {
    schemaVersion,
    graphSignature: sig,
    layers: ls,
    grammarVersions,
    repository,
    unresolved,
    diagnostics,
    unanalysed,
    entries,
    nodes: ns,
    edges: es,
  } = graph;
  return {
    schemaVersion,
    graphSignature: sig,
    layers: ls,
    grammarVersions,
    ...(repository !== undefined ? { repository } : {}),
    ...(graph.packages ? { packages: graph.packages } : {}),
    ...(unresolved ? { unresolved } : {}),
    ...(diagnostics ? { diagnostics } : {}),
    ...(unanalysed ? { unanalysed } : {}),
    ...(entries ? { entries } : {}),
    nodes: ns,
    edges: es,
  };
}

function sortSummary(s: UnresolvedSummary): UnresolvedSummary {
  const out: Record<string, Record<string, number>> = {};
  for (const rel of Object.keys(s).sort(compareStrings)) {
    const inner = (s as Record<string, Record<string, number>>)[rel];
    out[rel] = {};
    for (const reason of Object.keys(inner).sort(compareStrings)) out[rel][reason] = inner[reason];
  }
  return out as UnresolvedSummary;
}
