// Staleness (ADR 50): what changed in the working tree since a graph was built, from the
// fingerprints its manifest records. No compiler is loaded — the walk, plain reads and the
// manifest are enough — so `kg status`, the query commands and the editor's stale markers stay
// light (the builder and TypeScript load only to build).

import {
  hashInputs,
  parseManifest,
  sha256Hex,
  staleness,
  walkInputPaths,
  type Manifest,
  type StalenessReport,
} from './indexer/files/manifest';
import { nodeFileHost, type FileHost } from './indexer/files/file-host';
import { DEFAULT_MAX_FILE_BYTES, readSource, type ReadCache } from './indexer/files/read';
import { walk } from './indexer/files/walk';
import { GraphError } from './errors';

/**
 * The working tree's fingerprints, as a build would record them in a manifest like `m`: the source
 * files a build would read (passing over those `m` says the build skipped, and build output), the
 * other inputs (those the walk finds, and those `m` recorded, such as configs a tsconfig extends),
 * and the markdown files. `reads` keeps what was read for the next call (a long-lived caller's:
 * a source file whose stamp is unchanged is not read or hashed again).
 */
export function fingerprintTree(root: string, m: Manifest, host: FileHost = nodeFileHost, reads?: ReadCache): Record<string, string> {
  const real = host.realpath(root).replace(/\/+$/, '') || '/';
  const w = walk(host, real);
  const inputs = walkInputPaths(host, w);
  for (const p of Object.keys(m.inputs)) if (host.stat(real + '/' + p)?.type === 'file') inputs.add(p);
  const output = (f: string) => m.files[f] === undefined && m.outputDirs.some((d) => f.startsWith(d + '/'));
  // The files the graph does not read are scanned for what they import (ADR 153): build output aside.
  const unanalysed = w.unanalysedFiles.filter((f) => !output(f));
  const out: Record<string, string> = {
    ...hashInputs(host, real, [...inputs]),
    ...hashInputs(host, real, w.markdownFiles),
    ...hashInputs(host, real, unanalysed),
  };
  const skipped = new Set(m.skipped);
  for (const f of w.sourceFiles) {
    if (skipped.has(f) || output(f)) continue;
    const r = readSource(host, real + '/' + f, DEFAULT_MAX_FILE_BYTES, reads);
    if ('sha256' in r) out[f] = r.sha256;
  }
  return out;
}

export type GraphStatus = ({ available: true } & StalenessReport) | { available: false; reason: string };

/**
 * The manifest beside the graph in `previous`, when it describes that very graph (or why not).
 * A caller that read the graph's bytes already gives their hash as `graphSha256` instead of the text.
 */
export function manifestOfGraph(
  root: string,
  previous: { graphText?: string; graphSha256?: string; manifestText?: string },
  host: FileHost = nodeFileHost,
): { available: true; manifest: Manifest } | { available: false; reason: string } {
  const graphSha256 = previous.graphSha256 ?? (previous.graphText === undefined ? undefined : sha256Hex(previous.graphText));
  if (graphSha256 === undefined) return { available: false, reason: 'there is no graph.json; build one with kg build --apply' };
  if (previous.manifestText === undefined)
    return {
      available: false,
      reason: 'there is no manifest beside graph.json, so what it was built from is unknown; rebuild with kg build --apply',
    };
  const parsed = parseManifest(previous.manifestText);
  if ('problem' in parsed) return { available: false, reason: parsed.problem };
  if (parsed.manifest.graphSha256 !== graphSha256) {
    return {
      available: false,
      reason:
        'the manifest does not describe the current graph.json (an interrupted build, or an edited graph); rebuild with kg build --apply',
    };
  }
  const st = host.stat(root);
  if (!st || st.type !== 'directory') throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${root}`);
  return { available: true, manifest: parsed.manifest };
}

/** What changed in the working tree at `root` since the graph in `previous` was built. */
export function graphStatus(
  root: string,
  previous: { graphText?: string; manifestText?: string },
  host: FileHost = nodeFileHost,
): GraphStatus {
  const m = manifestOfGraph(root, previous, host);
  if (!m.available) return m;
  return { available: true, ...staleness(m.manifest, fingerprintTree(root, m.manifest, host)) };
}
