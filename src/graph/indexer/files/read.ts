// Reading source files: decode UTF-8, drop a byte-order mark, and pass over binary (NUL-holding),
// oversized and unreadable files with a reason. No compiler here: the staleness check reads the
// tree the same way without loading one.

import { createHash } from 'node:crypto';
import type { BuildDiagnostic } from '../../model';
import type { Discovery, Project } from '../compiler/discover';
import type { FileHost } from './file-host';

export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;

/** A source file that was read and accepted, with the project that owns it. */
export interface SourceInput {
  path: string;
  text: string;
  project: Project;
  /** SHA-256 (hex) of the bytes read, before decoding. */
  sha256: string;
}

/** One file's text and fingerprint, or why the build passes over it. */
export function readSource(host: FileHost, abs: string, maxBytes: number): { text: string; sha256: string } | { reason: string } {
  let bytes: Uint8Array;
  try {
    const st = host.stat(abs);
    if (st && st.size > maxBytes) return { reason: `file too large (${st.size} bytes; the limit is ${maxBytes})` };
    bytes = host.readFile(abs);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { reason: `unreadable file (${typeof code === 'string' ? code : 'error'})` };
  }
  if (bytes.indexOf(0) >= 0) return { reason: 'binary file (contains NUL bytes)' };
  let text = new TextDecoder('utf-8').decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Reads every discovered source file; binary, oversized and unreadable files are skipped with a reason. */
export function readSources(host: FileHost, d: Discovery, maxBytes: number, diagnostics: BuildDiagnostic[]): SourceInput[] {
  const out: SourceInput[] = [];
  for (const rel of d.sourceFiles) {
    const r = readSource(host, d.root + '/' + rel, maxBytes);
    if ('reason' in r) diagnostics.push({ path: rel, reason: r.reason });
    else out.push({ path: rel, text: r.text, project: d.owner.get(rel) as Project, sha256: r.sha256 });
  }
  return out;
}
