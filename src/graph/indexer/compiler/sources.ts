// The compiler's inputs: every discovered source file read as files/read.ts reads one (UTF-8,
// caps, reasons), each with the project that owns it. Binary, non-UTF-8, oversized and unreadable
// files are build diagnostics, never inputs.

import type { BuildDiagnostic } from '../../model';
import type { FileHost } from '../files/file-host';
import { readSource, type ReadCache } from '../files/read';
import { countSkip, type SkipCounts } from '../files/skips';
import type { Discovery, Project } from './discover';

/** A source file that was read and accepted, with the project that owns it. */
export interface SourceInput {
  path: string;
  text: string;
  project: Project;
  /** SHA-256 (hex) of the bytes read, before decoding. */
  sha256: string;
}

/** Reads every discovered source file; binary, oversized and unreadable files are skipped with a reason, counted in `skippedBy`. */
export function readSources(
  host: FileHost,
  d: Discovery,
  maxBytes: number,
  diagnostics: BuildDiagnostic[],
  skippedBy: SkipCounts,
  cache?: ReadCache,
): SourceInput[] {
  const out: SourceInput[] = [];
  for (const rel of d.sourceFiles) {
    const r = readSource(host, d.root + '/' + rel, maxBytes, cache);
    if ('reason' in r) {
      diagnostics.push({ path: rel, reason: r.reason });
      countSkip(skippedBy, r.short);
    } else out.push({ path: rel, text: r.text, project: d.owner.get(rel) as Project, sha256: r.sha256 });
  }
  return out;
}
