// Staleness from stamps (ADR 168): a long-lived reader (kg mcp) tells on every call whether the
// working tree changed since the graph was built, without walking and hashing the tree each time.
// The first check walks and fingerprints the tree as `fingerprintTree` does, through a host that
// notes the stamp (size, times, inode: file-host.ts) of every path it touched — each directory it
// listed, each file it read, each path it asked about, missing ones too. The next check stats
// those paths alone: while every stamp is the same, nothing the walk or the fingerprints read has
// changed, so the report is the one before. A changed stamp (an edit, a file added or removed in a
// listed folder, a .gitignore changed) measures again, reading and hashing only the files whose
// stamps changed. A path changed within RACY_MS of a measurement could change again within its
// stamp's resolution, so such a measurement is not trusted and the next check measures again.

import { nodeFileHost, type FileHost } from './indexer/files/file-host';
import { staleness, type Manifest, type StalenessReport } from './indexer/files/manifest';
import { RACY_MS, type ReadCache } from './indexer/files/read';
import { fingerprintTree } from './status';

type Stat = ReturnType<FileHost['stat']>;

export class StampedStaleness {
  /** Each path the last measurement touched → its stamp when first touched (undefined: it did not exist). */
  private seen = new Map<string, string | undefined>();
  /** Each path whose real path the last measurement asked → that real path. */
  private reals = new Map<string, string>();
  private report: StalenessReport | undefined;
  private readonly reads: ReadCache = new Map();

  constructor(
    private readonly root: string,
    private readonly manifest: Manifest,
    private readonly host: FileHost = nodeFileHost,
    private readonly now: () => number = Date.now,
  ) {}

  /** The working tree against the manifest, as `staleness(manifest, fingerprintTree(root, manifest))` tells it now. */
  check(): StalenessReport {
    if (this.report !== undefined && this.unchanged()) return this.report;
    return this.measure();
  }

  private unchanged(): boolean {
    for (const [p, stamp] of this.seen) if (this.host.stat(p)?.stamp !== stamp) return false;
    for (const [p, real] of this.reals) {
      try {
        if (this.host.realpath(p) !== real) return false;
      } catch {
        return false;
      }
    }
    return true;
  }

  private measure(): StalenessReport {
    const started = this.now();
    const seen = new Map<string, string | undefined>();
    const reals = new Map<string, string>();
    let trusted = true;
    const inner = this.host;
    const note = (p: string, st: Stat): Stat => {
      if (seen.has(p)) return st;
      seen.set(p, st?.stamp);
      // A host without stamps (an in-memory one), or a path changed too recently to trust its stamp.
      if (st !== undefined && (st.stamp === undefined || st.changedMs === undefined || st.changedMs > started - RACY_MS)) trusted = false;
      return st;
    };
    const noting: FileHost = {
      readDir(dir) {
        note(dir, inner.stat(dir));
        return inner.readDir(dir);
      },
      readFile(file) {
        note(file, inner.stat(file));
        return inner.readFile(file);
      },
      stat: (p) => note(p, inner.stat(p)),
      realpath(p) {
        const real = inner.realpath(p);
        reals.set(p, real);
        return real;
      },
    };
    this.report = undefined;
    const report = staleness(this.manifest, fingerprintTree(this.root, this.manifest, noting, this.reads));
    // What the tree no longer holds is not kept.
    for (const p of this.reads.keys()) if (!seen.has(p)) this.reads.delete(p);
    this.seen = seen;
    this.reals = reals;
    if (trusted) this.report = report;
    return report;
  }
}
