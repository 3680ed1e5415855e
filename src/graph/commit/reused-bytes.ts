// A buffer kept from one write or read of a large file to the next (ADR 133). A build server writes
// graph.json (12 MB on a large repository) after every save, encodes it, and reads the candidate back
// for the doctor (ADR 51). Each fresh buffer of that size is memory the kernel maps and zeroes page by
// page at first touch, which on a virtual machine costs several times the copy itself; a buffer
// written again is memory already mapped. What this returns is a view of the kept buffer: valid
// until the next call on the same object, so it is for synchronous use, or for an owner whose
// calls do not overlap (a build session's builds).

import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';

export class ReusedBytes {
  private buffer: Buffer | undefined;

  /** A buffer of at least `n` bytes: the kept one, or a larger one that is kept from now on. */
  private atLeast(n: number): Buffer {
    if (!this.buffer || this.buffer.length < n) this.buffer = Buffer.allocUnsafeSlow(Math.max(n + (n >> 3), 1 << 16));
    return this.buffer;
  }

  /** `text` encoded as UTF-8 (what Buffer.from(text) gives), in the kept buffer. */
  encode(text: string): Buffer {
    const n = Buffer.byteLength(text, 'utf8');
    const b = this.atLeast(n);
    return b.subarray(0, b.write(text, 0, n, 'utf8'));
  }

  /** The bytes of `file` (what fs.readFileSync(file) gives), in the kept buffer. */
  read(file: string): Buffer {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      // One byte more than the size: a file that grew since is read whole by readFileSync.
      const b = this.atLeast(size + 1);
      let at = 0;
      for (;;) {
        const got = fs.readSync(fd, b, at, size + 1 - at, null);
        if (got === 0) break;
        at += got;
        if (at > size) return fs.readFileSync(file);
      }
      return b.subarray(0, at);
    } finally {
      fs.closeSync(fd);
    }
  }
}
