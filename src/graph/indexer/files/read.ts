// Reading source files: decode UTF-8, drop a byte-order mark, and pass over binary (NUL-holding),
// non-UTF-8, oversized and unreadable files with a reason. A file that is not UTF-8 (Latin-1 saved
// by an old editor) is skipped, never decoded with replacement characters: an id built from
// `caf\uFFFD` names nothing in the source, and the parser may swallow the next declaration. No compiler here: the staleness check reads the
// tree the same way without loading one (the compiler's own list of inputs is compiler/sources.ts).

import { createHash } from 'node:crypto';
import type { FileHost } from './file-host';

export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of UTF-8 bytes, or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Why bytes that are not UTF-8 are skipped, with the line of the first bad byte so it can be found. */
export function notUtf8Reason(bytes: Uint8Array): string {
  // Decode growing prefixes would be quadratic; find the first bad sequence by hand instead.
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 0 || i + n > bytes.length || (n > 1 && !strictDecodes(bytes.subarray(i, i + n)))) break;
    i += n;
  }
  let line = 1;
  for (let k = 0; k < i && k < bytes.length; k++) if (bytes[k] === 0x0a) line++;
  return `not UTF-8 text (an invalid byte sequence on line ${line}); save it as UTF-8`;
}

function strictDecodes(seq: Uint8Array): boolean {
  try {
    strictUtf8.decode(seq);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a long-lived session read last time, by absolute path (ADR 120): a file whose stamp is the
 * same, and was last changed well before it was read, is not read again. Updated in place.
 */
export type ReadCache = Map<string, { stamp: string; text: string; sha256: string }>;

/**
 * How long after a file's last change its stamp is not trusted: a write in the same clock tick as
 * the read would leave the stamp unchanged (the "racy" case). Such a file is read again until it
 * has been still for this long.
 */
export const RACY_MS = 2_000;

/** One file's text and fingerprint, or why the build passes over it. */
export function readSource(
  host: FileHost,
  abs: string,
  maxBytes: number,
  cache?: ReadCache,
): { text: string; sha256: string } | { reason: string; short: string } {
  let bytes: Uint8Array;
  let stamp: string | undefined;
  try {
    const st = host.stat(abs);
    if (st && st.size > maxBytes) return { reason: `file too large (${st.size} bytes; the limit is ${maxBytes})`, short: 'too large' };
    if (cache && st?.stamp !== undefined && st.changedMs !== undefined) {
      const known = cache.get(abs);
      if (known && known.stamp === st.stamp) return { text: known.text, sha256: known.sha256 };
      // Trusted next time only if nothing can still change it within the stamp's resolution.
      if (st.changedMs < Date.now() - RACY_MS) stamp = st.stamp;
    }
    if (cache) cache.delete(abs);
    bytes = host.readFile(abs);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return { reason: `unreadable file (${typeof code === 'string' ? code : 'error'})`, short: 'unreadable' };
  }
  if (bytes.indexOf(0) >= 0) return { reason: 'binary file (contains NUL bytes)', short: 'binary' };
  let text = decodeUtf8(bytes);
  if (text === undefined) return { reason: notUtf8Reason(bytes), short: 'not UTF-8' };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (cache && stamp !== undefined) cache.set(abs, { stamp, text, sha256 });
  return { text, sha256 };
}
