// The graphs the MCP server answers from: one per repository root, loaded on first use and loaded
// again whenever graph.json changes on disk (its inode, size, modification or change time), so an
// agent that rebuilt the graph — with the build tool or in a terminal — is answered from the new
// one on its next call. Staleness (ADR 50) is told on every call from the manifest beside the
// graph and the working tree, with file reads cached by their stat so an unchanged tree costs a
// walk, not a re-read (docs/adr/0102-an-mcp-server-that-never-calls-a-guess-a-fact.md).

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  defaultGraphFile,
  fingerprintTree,
  graphStatus,
  loadGraphFile,
  nodeFileHost,
  parseManifest,
  readPrevious,
  staleness,
  type FileHost,
  type GraphLoad,
  type Manifest,
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
  manifest?: Manifest;
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

/**
 * A FileHost whose reads are served from memory while a file's stat is unchanged: telling
 * staleness on every call re-walks the tree but re-reads only what changed.
 */
function cachingHost(): FileHost {
  const cache = new Map<string, { stamp: string; bytes: Uint8Array }>();
  return {
    readDir: (dir) => nodeFileHost.readDir(dir),
    stat: (p) => nodeFileHost.stat(p),
    realpath: (p) => nodeFileHost.realpath(p),
    readFile(file) {
      const stamp = stampOf(file);
      const hit = stamp === undefined ? undefined : cache.get(file);
      if (hit && hit.stamp === stamp) return hit.bytes;
      const bytes = nodeFileHost.readFile(file);
      if (stamp !== undefined && stampOf(file) === stamp) cache.set(file, { stamp, bytes });
      return bytes;
    },
  };
}

export class Graphs {
  private readonly cache = new Map<string, Cached>();
  private readonly host = cachingHost();

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
    if (cached.manifest === undefined) return { ...out, stalenessUnknown: cached.stalenessUnknown };
    try {
      const report = staleness(cached.manifest, fingerprintTree(root, cached.manifest, this.host));
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
      const load = loadGraphFile(file);
      const { manifest, why } = load.ok ? this.manifestOf(root, file) : { manifest: undefined, why: undefined };
      last = { stamp: before ?? '', load, manifest, stalenessUnknown: why };
      if (before !== undefined && stampOf(file) === before) return last;
    }
    return last as Cached;
  }

  /** The manifest, when it describes this very graph.json (graphStatus checks its hash). */
  private manifestOf(root: string, file: string): { manifest?: Manifest; why?: string } {
    try {
      const previous = readPrevious(file);
      const status = graphStatus(root, previous, this.host);
      if (!status.available) return { why: status.reason };
      const parsed = parseManifest(previous.manifestText ?? '');
      return 'manifest' in parsed ? { manifest: parsed.manifest } : { why: parsed.problem };
    } catch (e) {
      return { why: (e as Error).message };
    }
  }
}
