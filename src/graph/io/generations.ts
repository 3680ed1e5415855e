// Generations (ADR 51): a build writes a candidate beside graph.json, the doctor
// checks the bytes on disk, and only a passing candidate is renamed over graph.json; then the
// manifest follows. A failing candidate is kept aside as `<name>.rejected.json` for inspection
// and the current graph is not touched. Temp files a killed build left behind are swept by the
// next build that holds the lock.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { runDoctor, type DoctorReport } from '../doctor';
import { GraphError } from '../errors';
import { promote, sweepTemps, writeFileAtomic, writeTemp } from './atomic';

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
 * Removes the graph and manifest candidates killed builds of this graph left behind — any but this
 * process's, since the caller holds the lock. Returns the names removed.
 */
export function sweepStaleTemps(graphPath: string): string[] {
  const owned = new Set([path.basename(graphPath), path.basename(manifestPathFor(graphPath))]);
  return sweepTemps(path.dirname(graphPath), owned, (pid) => pid !== process.pid);
}
