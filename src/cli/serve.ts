// `kg serve`: a build kept alive for an editor. One JSON request per line on stdin, one JSON
// answer per line on stdout, logs on stderr. The session keeps every project's program between
// builds, so a rebuild after a save costs a fraction of a one-shot `kg build` (ADR 56).

import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { BuildSession, isGraphError, readPrevious, type BuildSink, type TrackedBuildResult } from '../graph';
import { applyBuild, describeMode } from './build';
import { EXIT, type CliIo } from './streams';

export const SERVE_HELP = `Usage: kg serve [--root DIR] [--out FILE] [--extract-only] [--list-external]

Keeps a build of the repository at --root alive, for an editor that rebuilds after each save.
On start it builds every project's program (writing nothing), then prints {"ready": true}.
It then reads one JSON request per line on stdin and answers each with one JSON line on stdout:

  {"id": 1, "command": "build"}                 build and write like kg build --apply
  {"id": 2, "command": "build", "full": true}   the same, from scratch

  {"id":1,"ok":true,"mode":"incremental","graph":".knowledge-graph/graph.json","nodes":904,
   "edges":3522,"changed":["src/a.ts"],"added":[],"deleted":[],"parsed":1,"carried":251,"ms":170}
  {"id":1,"ok":false,"code":"SUSPECTED_PARSE_FAILURE","message":"…"}

"id" is echoed as given. Each build holds the graph's lock and goes through the doctor like
kg build --apply; a graph written meanwhile by another build is picked up. Progress and notes go
to stderr. The server stops at the end of stdin (exit 0).

Options:
  --root DIR        Repository root (default: the current directory).
  --out FILE        Where the graph lives (default: <root>/.knowledge-graph/graph.json).
  --extract-only    Build the extraction tier only.
  --list-external   List references that leave the repository as UNRESOLVED edges.
  -h, --help        Show this help.
`;

function answer(io: CliIo, value: Record<string, unknown>): void {
  io.stdout.write(JSON.stringify(value) + '\n');
}

function failure(e: unknown): { code: string; message: string } {
  if (isGraphError(e)) return { code: e.code, message: e.message };
  return { code: 'INTERNAL', message: (e as Error)?.stack ?? String(e) };
}

export async function runServe(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      root: { type: 'string' },
      out: { type: 'string' },
      'extract-only': { type: 'boolean', default: false },
      'list-external': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.stdout.write(SERVE_HELP);
    return EXIT.OK;
  }
  const root = path.resolve(io.cwd, values.root ?? '.');
  const out = path.resolve(io.cwd, values.out ?? path.join(root, '.knowledge-graph', 'graph.json'));
  const shown = path.relative(io.cwd, out) || out;
  const sink: BuildSink = { log: (level, message) => io.stderr.write(`kg: ${level === 'warn' ? 'warning: ' : ''}${message}\n`) };
  const session = new BuildSession({ root, extractOnly: values['extract-only'], listExternal: values['list-external'], sink });
  try {
    session.warm();
  } catch (e) {
    answer(io, { ready: false, ...failure(e) });
    return isGraphError(e) && ['ROOT_NOT_FOUND', 'NO_SOURCES', 'TSCONFIG_UNPARSABLE'].includes(e.code) ? EXIT.USAGE : EXIT.FAILED;
  }
  answer(io, { ready: true, graph: shown });

  const input = createInterface({ input: Readable.from(io.stdin ?? []), crlfDelay: Infinity });
  for await (const line of input) {
    if (line.trim() === '') continue;
    let request: { id?: unknown; command?: unknown; full?: unknown };
    try {
      request = JSON.parse(line) as typeof request;
      if (typeof request !== 'object' || request === null || request.command !== 'build') throw new Error('expected {"command": "build"}');
    } catch (e) {
      answer(io, { ok: false, code: 'BAD_REQUEST', message: `not a request: ${(e as Error).message}` });
      continue;
    }
    const started = performance.now();
    try {
      const result = await applyBuild({
        out,
        shown,
        wait: true,
        cwd: io.cwd,
        log: sink.log as (level: 'info' | 'warn', message: string) => void,
        build: (): TrackedBuildResult => {
          session.sync(readPrevious(out));
          const r = session.rebuild({ full: request.full === true });
          io.stderr.write(`kg: ${describeMode(r)}\n`);
          return r;
        },
      });
      const d = result.delta;
      answer(io, {
        id: request.id,
        ok: true,
        mode: result.mode,
        ...(result.fullReason ? { fullReason: result.fullReason } : {}),
        graph: shown,
        nodes: result.graph.nodes.length,
        edges: result.graph.edges.length,
        changed: d.changed,
        added: d.added,
        deleted: d.deleted,
        parsed: d.extracted,
        carried: d.carried,
        ms: Math.round(performance.now() - started),
      });
    } catch (e) {
      answer(io, { id: request.id, ok: false, ...failure(e) });
    }
  }
  return EXIT.OK;
}
