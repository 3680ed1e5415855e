// What the CLI writes to: process streams in main.ts, buffers in tests.

interface Writable {
  write(chunk: string): unknown;
}

export interface CliIo {
  stdout: Writable;
  stderr: Writable;
  cwd: string;
  /** Lines of input, for the commands that read requests (`kg serve`). */
  stdin?: AsyncIterable<string | Uint8Array>;
  /** The environment, for the commands that read a variable (`kg store`: KG_STORE). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Exit codes, fixed by the contract (docs/cli.md). */
export const EXIT = {
  OK: 0,
  FAILED: 1,
  USAGE: 2,
  UNAVAILABLE: 3,
} as const;
