// The previous build's facts, as the incremental build (incremental.ts) carries them forward: a
// file's nodes and proven edges from the last graph.json, by owning file, when the manifest beside
// it describes that graph and this build's options (ADR 54).

import { fileOfId } from '../../ids';
import type { Graph, GraphEdge, GraphNode } from '../../model';
import { manifestMismatch, parseManifest, type Manifest, type ManifestOptions } from '../files/manifest';
import type { PreviousBuild } from './incremental';
import { engineOf } from './inputs';
import { isSyntaxErrorReason } from './screen';

/** The id prefix of stamped notes (ADR 88): facts of a file, but not its symbols. */
export const NOTE_PREFIX = 'rationale:';
export const symbolCount = (nodes: readonly GraphNode[] | undefined) => (nodes ?? []).filter((n) => n.kind !== 'file').length;

/**
 * Edges a carried file keeps from the previous graph: containment, and the proven (EXACT) calls,
 * references and heritage. Imports are resolved again; cites and the unresolved rest are replayed from the
 * manifest; module edges are derived from the file set.
 */
function carriedEdge(e: GraphEdge): boolean {
  if (e.source.startsWith('mod:')) return false;
  // Stamped notes are emitted by the rationale layer from the manifest every build (ADR 88).
  if (e.source.startsWith(NOTE_PREFIX) || e.target.startsWith(NOTE_PREFIX)) return false;
  switch (e.relation) {
    case 'imports':
    case 're-exports':
    case 'cites':
      return false;
    case 'calls':
    case 'extends':
    case 'references':
      return e.confidence === 'EXACT';
    case 'implements':
      // A member's `implements` is derived again from the heritage every build (ADR 151); a
      // class's own, read off its heritage clause, is carried.
      return e.confidence === 'EXACT' && e.tier === 'ast';
    case 'overrides':
      return false;
    default:
      return true;
  }
}

export interface PreviousFacts {
  manifest: Manifest;
  nodesByFile: Map<string, GraphNode[]>;
  edgesByFile: Map<string, GraphEdge[]>;
  /** The screen's syntax-error reason of each file that had one (ADR 75). */
  syntaxByFile: Map<string, string>;
}

/** The previous build's facts by owning file, or why they cannot be used. */
export function loadPrevious(prev: PreviousBuild | undefined, options: ManifestOptions): PreviousFacts | { problem?: string } {
  if (prev?.graphText === undefined) return {};
  if (prev.manifestText === undefined) return { problem: 'no manifest beside graph.json' };
  const parsed = prev.parsed ? { manifest: prev.parsed.manifest } : parseManifest(prev.manifestText);
  if ('problem' in parsed) return { problem: parsed.problem };
  const described = prev.parsed ? undefined : prev.graphSha256 !== undefined ? { sha256: prev.graphSha256 } : prev.graphText;
  const mismatch = manifestMismatch(parsed.manifest, described, options, engineOf());
  if (mismatch) return { problem: mismatch };
  let graph: Graph;
  try {
    graph = prev.parsed?.graph ?? (JSON.parse(prev.graphText) as Graph);
  } catch {
    return { problem: 'graph.json is not valid JSON' };
  }
  if (!Array.isArray(graph?.nodes) || !Array.isArray(graph?.edges)) return { problem: 'graph.json has no node or edge list' };
  const files = parsed.manifest.files;
  const nodesByFile = new Map<string, GraphNode[]>();
  const ownerOf = new Map<string, string>();
  for (const n of graph.nodes) {
    if (n.sourceFile === undefined) continue;
    ownerOf.set(n.id, n.sourceFile);
    if (files[n.sourceFile] === undefined || n.id.startsWith(NOTE_PREFIX)) continue;
    const list = nodesByFile.get(n.sourceFile) ?? [];
    list.push(n);
    nodesByFile.set(n.sourceFile, list);
  }
  const edgesByFile = new Map<string, GraphEdge[]>();
  for (const e of graph.edges) {
    if (!carriedEdge(e)) continue;
    const owner = ownerOf.get(e.source) ?? fileOfId(e.source);
    if (owner === undefined) return { problem: `graph.json has an edge no file owns (${e.source} --${e.relation}--> ${e.target})` };
    if (files[owner] === undefined) continue;
    const list = edgesByFile.get(owner) ?? [];
    list.push(e);
    edgesByFile.set(owner, list);
  }
  for (const f of Object.keys(files)) {
    if (!nodesByFile.get(f)?.some((n) => n.kind === 'file')) return { problem: `the manifest lists ${f}, which graph.json does not hold` };
  }
  const syntaxByFile = new Map<string, string>();
  for (const x of graph.diagnostics ?? []) if (isSyntaxErrorReason(x.reason)) syntaxByFile.set(x.path, x.reason);
  return { manifest: parsed.manifest, nodesByFile, edgesByFile, syntaxByFile };
}

/** The files the last build's manifest lists, when it can be read at all. */
export function lastFiles(p: PreviousBuild | undefined): Manifest['files'] {
  if (p?.parsed) return p.parsed.manifest.files;
  if (p?.manifestText === undefined) return {};
  const r = parseManifest(p.manifestText);
  return 'manifest' in r ? r.manifest.files : {};
}
