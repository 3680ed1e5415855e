// What `kg build` does with the repository's graph cache (ADR 166): before a build, hand it the
// nearest cached graph as its last build when that is nearer than the graph beside it (a fresh
// worktree has none; a branch switch leaves the last branch's); after `--apply`, store the graph of
// a clean checkout under its tree. The build itself is the ordinary incremental one (ADR 54, 118):
// it checks every file against the manifest it is given, so the bytes are a full build's.

import { createHash } from 'node:crypto';
import type { PreviousBuild, TrackedBuildResult } from '../graph';
import { budgetFrom, GraphCache, worktreeState, type CacheEntry, type WorktreeState } from './graph-cache';
import { engineIdentity } from './ref-graph';

export interface BuildCacheOptions {
  root: string;
  extractOnly: boolean;
  listExternal: boolean;
  env: Readonly<Record<string, string | undefined>>;
  log(level: 'info' | 'warn', message: string): void;
}

const short = (id: string) => id.slice(0, 12);

export class BuildCache {
  private constructor(
    private readonly o: BuildCacheOptions,
    readonly state: WorktreeState,
    private readonly cache: GraphCache,
    private readonly options: string,
  ) {}

  /** The cache for a build at `o.root`, or undefined when it does not apply (KG_CACHE=off, not a worktree's top, no commit). */
  static open(o: BuildCacheOptions): BuildCache | undefined {
    if (o.env.KG_CACHE === 'off') return undefined;
    const state = worktreeState(o.root);
    if (!state) return undefined;
    const options = JSON.stringify({ extractOnly: o.extractOnly, listExternal: o.listExternal });
    return new BuildCache(o, state, GraphCache.of(state.commonDir, budgetFrom(o.env)), options);
  }

  private get describeCheckout(): string {
    const s = this.state;
    return `commit ${short(s.commit)}${s.dirty.length > 0 ? ` with ${s.dirty.length} path${s.dirty.length === 1 ? '' : 's'} changed in the working tree` : ''}`;
  }

  /**
   * The last build to start from: `onDisk` (graph.json and its manifest beside it), unless the cache
   * holds a graph nearer to this checkout.
   */
  seed(onDisk: PreviousBuild): PreviousBuild {
    const hasDisk = onDisk.graphText !== undefined && onDisk.manifestText !== undefined;
    // Two trees can have the same graph (a tsconfig option that changes no edge) and differ in their
    // manifests: the entry that is the graph beside it matches both.
    let isDisk: (e: CacheEntry) => boolean = () => false;
    if (hasDisk) {
      const text = onDisk.graphText as string;
      const manifest = onDisk.manifestText as string;
      let shas: [string, string] | undefined;
      isDisk = (e) => {
        if (e.graph.size !== text.length || e.manifest.size !== manifest.length) return false;
        shas ??= [createHash('sha256').update(text).digest('hex'), createHash('sha256').update(manifest).digest('hex')];
        return e.graph.sha256 === shas[0] && e.manifest.sha256 === shas[1];
      };
    }
    let candidates: ReturnType<GraphCache['nearest']>;
    try {
      candidates = this.cache.nearest(this.o.root, this.state, engineIdentity(), this.options, isDisk);
    } catch (e) {
      this.o.log('warn', `graph cache not read: ${(e as Error).message}`);
      return onDisk;
    }
    if (candidates.length === 0) return onDisk;
    const diskDistance = candidates.find((c) => isDisk(c.entry))?.distance;
    for (const c of candidates) {
      // The graph beside it is as near (or its distance unknown, and no entry of this very content).
      if (hasDisk && (diskDistance !== undefined ? c.distance >= diskDistance : c.distance > 0)) return onDisk;
      const previous = this.cache.read(c.entry);
      if (!previous) {
        this.o.log('warn', `graph cache: the entry of commit ${short(c.entry.commit)} did not match its hashes; removed, not used`);
        continue;
      }
      this.o.log(
        'info',
        c.distance === 0
          ? `graph cache: starting from the graph of this very content (commit ${short(c.entry.commit)})`
          : `graph cache: starting from the graph of commit ${short(c.entry.commit)}, ${c.distance} path${c.distance === 1 ? '' : 's'} away`,
      );
      return previous;
    }
    return onDisk;
  }

  /** Stores the graph of a clean checkout under its tree; a working tree with changes is not stored (it changes at every save). */
  store(result: TrackedBuildResult): void {
    this.o.log('info', `graph for ${this.describeCheckout}`);
    if (this.state.dirty.length > 0) return;
    try {
      const key = GraphCache.keyOf(this.state.fingerprint, engineIdentity(), this.options);
      this.cache.put(key, this.state, engineIdentity(), this.options, result.bytes ?? result.text, result.manifestText);
    } catch (e) {
      this.o.log('warn', `graph cache not written: ${(e as Error).message}`);
    }
  }
}
