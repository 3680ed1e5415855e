// A synthetic graph.json the size of a very large monorepo (1,000,000 edges by default), for the
// query benchmark. Deterministic: a seeded generator, canonical serialization, so two runs write
// the same bytes. Shaped like real graphs: nested modules, files holding functions and classes
// with methods, imports between files, and calls whose targets follow a heavy-tailed popularity
// (a few utilities called from thousands of places — the hubs `neighbors` must not expand),
// with a share of name-match guesses and unresolved targets.
//
// usage: node --import tsx bench/generate-graph.ts <out.json> [edges]

import * as fs from 'node:fs';
import {
  compareEdges,
  compareStrings,
  edgeKey,
  fileId,
  graphSignature,
  moduleId,
  symbolId,
  unresolvedId,
  type Graph,
  type GraphEdge,
  type GraphNode,
  type Layer,
  LAYER_OF_RELATION,
} from '../src/graph';
import { serializeGraph } from '../src/graph';
import { candidateEdge, exactEdge, unresolvedEdge } from '../src/graph/indexer/edges';

/** mulberry32: a small seeded generator, so the graph is the same on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedGraph {
  graph: Graph;
  /** Ids of symbols that are call targets, for sampling query inputs. */
  symbols: string[];
}

export function generateGraph(targetEdges = 1_000_000, seed = 20240601): GeneratedGraph {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const add = (e: GraphEdge) => {
    const k = edgeKey(e);
    if (seen.has(k)) return false;
    seen.add(k);
    edges.push(e);
    return true;
  };
  const exact = (
    source: string,
    target: string,
    relation: GraphEdge['relation'],
    provenance: 'SYNTAX' | 'FILE_SYSTEM' | 'MODULE_RESOLUTION' | 'TYPESCRIPT_CHECKER',
    file?: string,
    line = 1,
  ): GraphEdge => exactEdge(source, target, relation, provenance, file ? { ast: true, evidence: { file, line, column: 3 } } : {});

  // Scale the tree to the edge budget: about 40 edges per file end to end.
  const fileCount = Math.max(10, Math.round(targetEdges / 40));
  const filesPerDir = 40;
  const dirCount = Math.ceil(fileCount / filesPerDir);
  const files: string[] = [];
  const symbols: string[] = [];
  const symbolsOfFile: string[][] = [];
  const dirs = new Set<string>(['']);
  for (let d = 0; d < dirCount; d++) {
    const pkg = `packages/pkg${d % 97}`;
    const dir = `${pkg}/src/area${Math.floor(d / 97)}`;
    for (const p of ['packages', pkg, `${pkg}/src`, dir]) dirs.add(p);
    for (let f = 0; f < filesPerDir && files.length < fileCount; f++) files.push(`${dir}/module${f}.ts`);
  }
  const parentDir = (d: string) => (d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '');
  for (const d of dirs) {
    nodes.push({ id: moduleId(d), kind: 'module', label: d === '' ? '.' : d.slice(d.lastIndexOf('/') + 1) });
    if (d !== '') add(exact(moduleId(parentDir(d)), moduleId(d), 'contains', 'FILE_SYSTEM'));
  }
  for (const file of files) {
    const fid = fileId(file);
    nodes.push({ id: fid, kind: 'file', label: file.slice(file.lastIndexOf('/') + 1), sourceFile: file });
    add(exact(moduleId(parentDir(file)), fid, 'contains', 'FILE_SYSTEM'));
    const mine: string[] = [];
    const functions = 3 + Math.floor(rand() * 6);
    let line = 1;
    for (let i = 0; i < functions; i++) {
      const id = symbolId(file, `fn${i}`);
      nodes.push({ id, kind: 'function', label: `fn${i}`, sourceFile: file, line, column: 17, exported: true });
      add(exact(fid, id, 'contains', 'SYNTAX', file, line));
      mine.push(id);
      line += 7;
    }
    const classes = Math.floor(rand() * 2);
    for (let c = 0; c < classes; c++) {
      const cls = `Service${c}`;
      const cid = symbolId(file, cls);
      nodes.push({ id: cid, kind: 'class', label: cls, sourceFile: file, line, column: 14, exported: true });
      add(exact(fid, cid, 'contains', 'SYNTAX', file, line));
      mine.push(cid);
      for (let m = 0; m < 4; m++) {
        line += 3;
        const mid = symbolId(file, `${cls}.method${m}`);
        nodes.push({ id: mid, kind: 'method', label: `${cls}.method${m}`, sourceFile: file, line, column: 3 });
        add(exact(cid, mid, 'contains', 'SYNTAX', file, line));
        mine.push(mid);
      }
      line += 5;
    }
    symbolsOfFile.push(mine);
    symbols.push(...mine);
  }

  // Popular utilities: a Zipf-like tail, so the top few have thousands of callers.
  const popular = Array.from({ length: 400 }, () => pick(symbols));
  const popularTarget = () => popular[Math.floor(popular.length * Math.pow(rand(), 3))];

  for (let i = 0; i < files.length; i++) {
    const imports = 2 + Math.floor(rand() * 6);
    for (let k = 0; k < imports; k++) {
      const j =
        rand() < 0.7 ? Math.min(files.length - 1, Math.max(0, i + Math.floor(rand() * 80) - 40)) : Math.floor(rand() * files.length);
      if (j !== i) add(exact(fileId(files[i]), fileId(files[j]), 'imports', 'MODULE_RESOLUTION', files[i], 1 + k));
    }
  }

  while (edges.length < targetEdges) {
    const fi = Math.floor(rand() * files.length);
    const file = files[fi];
    const source = pick(symbolsOfFile[fi]);
    const r = rand();
    const line = 1 + Math.floor(rand() * 400);
    if (r < 0.04) {
      add(
        unresolvedEdge(source, unresolvedId(`dynamic${Math.floor(rand() * 3000)}`), 'calls', 'any-receiver', {
          ast: true,
          evidence: { file, line, column: 5 },
        }),
      );
    } else if (r < 0.1) {
      add(candidateEdge(source, pick(symbols), 'calls', true, { ast: true, evidence: { file, line, column: 5 } }));
    } else {
      const target =
        rand() < 0.25
          ? popularTarget()
          : rand() < 0.6
            ? pick(symbolsOfFile[Math.min(files.length - 1, fi + Math.floor(rand() * 20))])
            : pick(symbols);
      add(exact(source, target, 'calls', 'TYPESCRIPT_CHECKER', file, line));
    }
  }

  nodes.sort((a, b) => compareStrings(a.id, b.id));
  edges.sort(compareEdges);
  const layers = [...new Set<Layer>(edges.map((e) => LAYER_OF_RELATION[e.relation]))].sort(compareStrings);
  const graph: Graph = {
    schemaVersion: 1,
    graphSignature: graphSignature(nodes, edges),
    layers,
    grammarVersions: { typescript: '6.0.3' },
    nodes,
    edges,
  };
  return { graph, symbols };
}

function main(): void {
  const [out, count] = process.argv.slice(2);
  if (!out) {
    process.stderr.write('usage: generate-graph.ts <out.json> [edges]\n');
    process.exit(2);
  }
  const { graph } = generateGraph(count ? Number(count) : undefined);
  fs.writeFileSync(out, serializeGraph(graph));
  process.stderr.write(`wrote ${out}: ${graph.nodes.length} nodes, ${graph.edges.length} edges\n`);
}

if (require.main === module) main();
