// Generations (ADR 51): a build writes a candidate beside graph.json, the doctor
// checks the bytes on disk, and only a passing candidate replaces graph.json. Both new files are
// written and fsynced before either rename, the manifest is renamed first and the graph last, so
// a failure at any point (either write, either rename) leaves graph.json byte for byte as it was. A failing candidate is kept aside as `<name>.rejected.json` for inspection
// and the current graph is not touched. Temp files a killed build left behind are swept by the
// next build that holds the lock.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { type DoctorReport } from '../doctor/rules';
import { GraphError } from '../errors';
import { NODE_FS, promote, removeQuietly, sweepTemps, tempPathFor, writeTemp, type AtomicFs } from './atomic';
import { DoctorMemo } from '../doctor/memo';
import { ReusedBytes } from './reused-bytes';

/** A file beside the graph: `graph.json` + `manifest` → `graph.manifest.json`. */
function siblingPath(graphPath: string, role: string): string {
  const base = path.basename(graphPath);
  return path.join(path.dirname(graphPath), `${base.endsWith('.json') ? base.slice(0, -'.json'.length) : base}.${role}.json`);
}

/** Where the manifest of a graph lives: `graph.json` → `graph.manifest.json`. */
export function manifestPathFor(graphPath: string): string {
  return siblingPath(graphPath, 'manifest');
}

/** Where a candidate the doctor failed is kept: `graph.json` → `graph.rejected.json`. */
function rejectedPathFor(graphPath: string): string {
  return siblingPath(graphPath, 'rejected');
}

export type CommitResult =
  { status: 'current'; report: DoctorReport } | { status: 'rejected'; rejectedPath: string; report?: DoctorReport; problem?: string };

/** `String.prototype.isWellFormed` (Node 20; not in the ES2022 library this project compiles against). */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The candidate read back, and the manifest encoded, into buffers kept between commits (commitGeneration is synchronous). */
const READ_BACK = new ReusedBytes();
const MANIFEST_BYTES = new ReusedBytes();

/**
 * Makes `graphText` the current graph if the doctor passes it, with `manifestText` beside it.
 * Call it holding the build lock. `ops` is the file system (injected by tests). `doctor` remembers
 * the graphs it examined before (a build server keeps one, ADR 132); a fresh one examines in full.
 * `encoded`, when given, must be graphText's UTF-8 bytes, made by the caller for its own use.
 */
export function commitGeneration(
  graphPath: string,
  graphText: string,
  manifestText: string,
  ops: AtomicFs = NODE_FS,
  doctor: DoctorMemo = new DoctorMemo(),
  encoded?: Uint8Array,
): CommitResult {
  // `encoded` is Buffer.from(graphText) when the build made it (TrackedBuildResult.bytes).
  const bytes = encoded ?? Buffer.from(graphText, 'utf8');
  const candidate = writeTemp(graphPath, bytes, ops);
  let report: DoctorReport | undefined;
  let problem: string | undefined;
  try {
    // The doctor examines what is on disk. When the candidate reads back as the bytes written, and
    // those bytes decode to graphText (a well-formed string: no lone surrogate for the encoder to
    // replace), that text is graphText itself, and decoding 12 MB again would only make a copy.
    const back = READ_BACK.read(candidate);
    const text = back.equals(bytes) && isWellFormed(graphText) ? graphText : back.toString('utf8');
    report = doctor.examine(text);
  } catch (e) {
    problem = e instanceof GraphError || e instanceof SyntaxError || e instanceof RangeError ? e.message : String(e);
  }
  if (report?.ok) {
    replaceBoth(graphPath, candidate, manifestText, ops);
    return { status: 'current', report };
  }
  const rejectedPath = rejectedPathFor(graphPath);
  promote(candidate, rejectedPath, ops);
  return { status: 'rejected', rejectedPath, report, problem };
}

/**
 * The two renames. The manifest goes first: until the graph's rename, graph.json is the previous
 * one, and a manifest that does not describe it (its `graphSha256`, ADR 50) only makes the next
 * build a full one. When the graph's rename fails, the previous manifest (kept under a temp name
 * by a hard link) is put back.
 */
function replaceBoth(graphPath: string, candidate: string, manifestText: string, ops: AtomicFs): void {
  const manifestPath = manifestPathFor(graphPath);
  let manifestTemp: string;
  try {
    manifestTemp = writeTemp(manifestPath, MANIFEST_BYTES.encode(manifestText), ops);
  } catch (e) {
    removeQuietly(candidate, ops);
    throw e;
  }
  let previous: string | undefined = tempPathFor(manifestPath);
  try {
    ops.link(manifestPath, previous);
  } catch {
    previous = undefined; // no manifest yet (or no hard links here): nothing to put back
  }
  try {
    promote(manifestTemp, manifestPath, ops);
  } catch (e) {
    removeQuietly(candidate, ops);
    if (previous) removeQuietly(previous, ops);
    throw e;
  }
  try {
    promote(candidate, graphPath, ops);
  } catch (e) {
    try {
      if (previous) ops.rename(previous, manifestPath);
      else ops.remove(manifestPath);
    } catch {
      // a manifest that does not describe graph.json is never trusted: the next build is a full one
      if (previous) removeQuietly(previous, ops);
    }
    throw e;
  }
  if (previous) removeQuietly(previous, ops);
}

/** The previous build's graph.json and manifest texts, each absent when it does not exist. */
export function readPrevious(graphPath: string): { graphText?: string; manifestText?: string } {
  const read = (p: string): string | undefined => {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new GraphError('GRAPH_INVALID', `cannot read ${p}: ${(e as Error).message}`);
    }
  };
  return { graphText: read(graphPath), manifestText: read(manifestPathFor(graphPath)) };
}

/** A stamp is trusted only for a file still this long before it was read (the racy case of ADR 120). */
const STILL_NS = 2_000_000_000n;

/**
 * What identifies a file's bytes without reading them — inode, size, change and modification
 * times — and whether the file has been still long enough for the stamp to be trusted.
 */
function stampOf(p: string, now: bigint): { stamp: string; still: boolean } {
  try {
    const st = fs.statSync(p, { bigint: true });
    const changed = st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
    return { stamp: `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`, still: now - changed >= STILL_NS };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { stamp: 'none', still: true };
    throw new GraphError('GRAPH_INVALID', `cannot read ${p}: ${(e as Error).message}`);
  }
}

/**
 * graph.json and its manifest as this process last read or wrote them, by the files' stamps
 * (ADR 125): a warm build server reads them again only when another writer replaced them, not
 * before every build. Stamps are taken before a read, so a file replaced while it was read is read
 * again next time, and a file read within 2 s of its last change is read again every time (a write
 * in the same clock tick would keep its stamp). A write of this process is recorded under the
 * build's lock, where every kg writer waits, and is a new file (a rename), so it is trusted at once.
 */
export class GenerationMemo {
  private readonly known = new Map<string, { stamps: string; texts: { graphText?: string; manifestText?: string } }>();
  private readonly doctors = new Map<string, DoctorMemo>();

  /** The doctor that examines the candidates of `graphPath`, remembering the last one (ADR 132). */
  doctor(graphPath: string): DoctorMemo {
    let d = this.doctors.get(graphPath);
    if (!d) this.doctors.set(graphPath, (d = new DoctorMemo()));
    return d;
  }

  private stamps(graphPath: string): { stamps: string; still: boolean } {
    const now = BigInt(Date.now()) * 1_000_000n;
    const g = stampOf(graphPath, now);
    const m = stampOf(manifestPathFor(graphPath), now);
    return { stamps: `${g.stamp}|${m.stamp}`, still: g.still && m.still };
  }

  /** What readPrevious would return, read again only when a stamp changed. */
  read(graphPath: string): { graphText?: string; manifestText?: string } {
    const { stamps, still } = this.stamps(graphPath);
    const k = this.known.get(graphPath);
    if (k?.stamps === stamps) return k.texts;
    const texts = readPrevious(graphPath);
    if (still) this.known.set(graphPath, { stamps, texts });
    else this.known.delete(graphPath);
    return texts;
  }

  /** Records texts this process has just made current (holding the lock). */
  wrote(graphPath: string, texts: { graphText: string; manifestText: string }): void {
    this.known.set(graphPath, { stamps: this.stamps(graphPath).stamps, texts });
  }
}

/**
 * Removes the graph and manifest candidates killed builds of this graph left behind — any but this
 * process's, since the caller holds the lock. Returns the names removed.
 */
export function sweepStaleTemps(graphPath: string): string[] {
  const owned = new Set([path.basename(graphPath), path.basename(manifestPathFor(graphPath))]);
  return sweepTemps(path.dirname(graphPath), owned, (pid) => pid !== process.pid);
}
