// The compiler's inputs: every discovered source file read as files/read.ts reads one (UTF-8,
// caps, reasons), each with the project that owns it. Binary, non-UTF-8, oversized and unreadable
// files are build diagnostics, never inputs. A component (`.vue`, `.svelte`) is read as the
// TypeScript its language tools write for it (ADR 169); one they cannot read is named as a file
// the graph does not analyse (ADR 153), with the reason.

import { compareStrings, type BuildDiagnostic } from '../../model';
import type { FileHost } from '../files/file-host';
import { readSource, type ReadCache } from '../files/read';
import { countSkip, type SkipCounts } from '../files/skips';
import type { Discovery, Project } from './discover';
import { componentKind } from '../components/kinds';
import type { ComponentCodeStore } from '../components/stored-code';
import { componentCode } from '../components/transform';

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
  componentStore?: ComponentCodeStore,
): SourceInput[] {
  const out: SourceInput[] = [];
  const unread: string[] = [];
  for (const rel of d.sourceFiles) {
    const r = readSource(host, d.root + '/' + rel, maxBytes, cache);
    if ('reason' in r) {
      diagnostics.push({ path: rel, reason: r.reason });
      countSkip(skippedBy, r.short);
    } else if (componentKind(rel) !== undefined) {
      try {
        const code = componentCode(d.root + '/' + rel, r.text, componentStore);
        out.push({ path: rel, text: code.code, project: d.owner.get(rel) as Project, sha256: r.sha256 });
      } catch (e) {
        diagnostics.push({ path: rel, reason: `component not analysed: ${e instanceof Error ? e.message : String(e)}` });
        unread.push(rel);
      }
    } else out.push({ path: rel, text: r.text, project: d.owner.get(rel) as Project, sha256: r.sha256 });
  }
  if (unread.length > 0) d.unanalysedFiles = [...d.unanalysedFiles, ...unread].sort(compareStrings);
  return out;
}
