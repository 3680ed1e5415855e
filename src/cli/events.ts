// The lines of `kg build --progress json` (docs/cli.md): the contract between the CLI and the
// tools that run it — the editor extension reads them (src/host/cli-build.ts). Types only.

export type BuildEvent =
  | { event: 'log'; level: 'info' | 'warn'; message: string }
  | { event: 'progress'; phase: string; done: number; total: number }
  | { event: 'note'; path: string; reason: string }
  | { event: 'done'; out: string | null; nodes: number; edges: number; layers: string[]; files: number; skipped: number }
  | { event: 'error'; code: string; message: string };
