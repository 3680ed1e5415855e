// The graphs the MCP server answers from: one per repository root, loaded on first use and loaded
// again whenever graph.json changes on disk (its inode, size, modification or change time), so an
// agent that rebuilt the graph — with the build tool or in a terminal — is answered from the new
// one on its next call. Staleness (ADR 50) is told on every call from the manifest beside the
// graph and the working tree (docs/adr/0102-an-mcp-server-that-never-calls-a-guess-a-fact.md):
// from the stamps of the paths the last look at the tree touched, so an unchanged tree costs a
// stat per path, not a walk and a hash per file (docs/adr/0168-answers-in-milliseconds.md).

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  defaultGraphFile,
  loadGraphFile,
  manifestOfGraph,
  manifestPathFor,
  StampedStaleness,
  type GraphLoad,
  type Staleness,
} from '../graph';

export interface RootGraph {
  /** The repository root, absolute. */
  root: string;
  /** Its graph.json, absolute. */
  file: string;
  load: GraphLoad;
  /** Undefined when it cannot be told (no manifest, one that does not describe the graph, a graph outside a repository). */
  staleness?: Staleness;
  /** Why staleness is unknown, when it is. */
  stalenessUnknown?: string;
}

interface Cached {
  stamp: string;
  load: GraphLoad;
  /** The working tree against the graph's manifest, told from stamps (ADR 168). */
  tree?: StampedStaleness;
  stalenessUnknown?: string;
}

function stampOf(file: string): string | undefined {
  try {
    const s = fs.statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** The manifest's text beside a graph, undefined when there is none (as readPrevious reads it). */
function readManifest(graphFile: string): string | undefined {
  const p = manifestPathFor(graphFile);
  try {
    return fs.readFileSync(p, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${p}: ${(e as Error).message}`);
  }
}

export class Graphs {
  private readonly cache = new Map<string, Cached>();

  /**
   * @param graphFileOf where a root's graph is (default `<root>/.knowledge-graph/graph.json`);
   *   `kg mcp --graph FILE` names one file for the default root.
   */
  constructor(private readonly graphFileOf: (root: string) => string = defaultGraphFile) {}

  /** The graph of `root` as it is on disk now. */
  get(root: string): RootGraph {
    const file = path.resolve(this.graphFileOf(root));
    let cached = this.cache.get(file);
    const stamp = stampOf(file);
    if (!cached || stamp === undefined || cached.stamp !== stamp || !cached.load.ok) {
      cached = this.loadStable(root, file);
      if (cached.load.ok) this.cache.set(file, cached);
      else this.cache.delete(file);
    }
    const out: RootGraph = { root, file, load: cached.load };
    if (!cached.load.ok) return out;
    if (cached.tree === undefined) return { ...out, stalenessUnknown: cached.stalenessUnknown };
    try {
      const report = cached.tree.check();
      return { ...out, staleness: { stale: report.stale, changedFiles: report.changedFiles } };
    } catch (e) {
      return { ...out, stalenessUnknown: `the working tree could not be compared with the graph: ${(e as Error).message}` };
    }
  }

  /**
   * Loads the graph, and again if it changed while it was being read (a rewrite mid-load): what
   * is answered from is one version of the file, never a mixture.
   */
  private loadStable(root: string, file: string): Cached {
    let last: Cached | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = stampOf(file);
      let graphSha256 = '';
      // The bytes parsed are the bytes hashed for the manifest's check: graph.json is read once (ADR 168).
      const load = loadGraphFile(file, { onBytes: (bytes) => (graphSha256 = createHash('sha256').update(bytes).digest('hex')) });
      const { tree, why } = load.ok ? this.treeOf(root, file, graphSha256) : { tree: undefined, why: undefined };
      last = { stamp: before ?? '', load, tree, stalenessUnknown: why };
      if (before !== undefined && stampOf(file) === before) return last;
    }
    return last as Cached;
  }

  /** The working tree against the manifest, when that describes this very graph.json (manifestOfGraph checks its hash). */
  private treeOf(root: string, file: string, graphSha256: string): { tree?: StampedStaleness; why?: string } {
    try {
      const status = manifestOfGraph(root, { graphSha256, manifestText: readManifest(file) });
      return status.available ? { tree: new StampedStaleness(root, status.manifest) } : { why: status.reason };
    } catch (e) {
      return { why: (e as Error).message };
    }
  }
}
