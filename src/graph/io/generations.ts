// Generations (SPEC §8, seed 002): a build writes a candidate beside graph.json, the doctor
// checks the bytes on disk, and only a passing candidate is renamed over graph.json; then the
// manifest follows. A failing candidate is kept aside as `<name>.rejected.json` for inspection
// and the current graph is not touched. Temp files a killed build left behind are swept by the
// next build that holds the lock.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { runDoctor, type DoctorReport } from '../doctor';
import { GraphError } from '../errors';
import { TEMP_MARKER, promote, writeFileAtomic, writeTemp } from './atomic';
import { lockPathFor, processAlive } from './lock';

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
export function rejectedPathFor(graphPath: string): string {
  return siblingPath(graphPath, 'rejected');
}

export type CommitResult =
  | { status: 'current'; report: DoctorReport }
  | { status: 'rejected'; rejectedPath: string; report?: DoctorReport; problem?: string };

/**
 * Makes `graphText` the current graph if the doctor passes it, then writes the manifest.
 * Call it holding the build lock.
 */
export function commitGeneration(graphPath: string, graphText: string, manifestText: string): CommitResult {
  const candidate = writeTemp(graphPath, graphText);
  let report: DoctorReport | undefined;
  let problem: string | undefined;
  try {
    report = runDoctor(JSON.parse(fs.readFileSync(candidate, 'utf8')));
  } catch (e) {
    problem = e instanceof GraphError || e instanceof SyntaxError ? e.message : String(e);
  }
  if (report?.ok) {
    promote(candidate, graphPath);
    // After the graph: a kill between the two leaves a manifest that does not match, so the
    // next build is a full one rather than one built on facts from the wrong graph.
    writeFileAtomic(manifestPathFor(graphPath), manifestText);
    return { status: 'current', report };
  }
  const rejectedPath = rejectedPathFor(graphPath);
  promote(candidate, rejectedPath);
  return { status: 'rejected', rejectedPath, report, problem };
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

/**
 * Removes temp files killed builds of this graph left behind: graph and manifest candidates
 * (any, since the caller holds the lock) and lock temp files whose process is gone.
 * Returns the names removed.
 */
export function sweepStaleTemps(graphPath: string): string[] {
  const dir = path.dirname(graphPath);
  const owned = new Set([path.basename(graphPath), path.basename(manifestPathFor(graphPath))]);
  const lockNames = new Set([path.basename(lockPathFor(graphPath)), path.basename(lockPathFor(graphPath)) + '.break']);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    const at = name.indexOf(TEMP_MARKER);
    if (at < 0) continue;
    const prefix = name.slice(0, at);
    const pid = Number(/^(\d+)-/.exec(name.slice(at + TEMP_MARKER.length))?.[1]);
    const stale = owned.has(prefix) ? pid !== process.pid : lockNames.has(prefix) && Number.isInteger(pid) && !processAlive(pid);
    if (!stale) continue;
    try {
      fs.rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // left for the next sweep
    }
  }
  return removed;
}
