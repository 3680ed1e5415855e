// `kg mcp`: the MCP server face (src/mcp) as a kg command. Parses --root and --graph, finds the
// repository as every kg command does (ADR 79), and serves on the process's stdin/stdout, which
// main.ts hands over: the protocol owns stdout from here on, so nothing else is written there.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { defaultGraphFile, GraphError, nodeFileHost } from '../graph';
import { MCP_HELP, serveStdio } from '../mcp/stdio-server';
import { findRepositoryRoot } from './find-root';
import { serverPid, type ServerContext } from './server';
import { isServerProcess, serverDirProblem, serverPaths, serverWorktrees } from '../build-server/client';
import { EXIT, type CliIo } from './streams';
import { parseCommandArgs } from './usage';

export { MCP_HELP };

/** The process's own streams, which an MCP server reads and writes byte for byte. */
export interface Stdio {
  stdin: Readable;
  stdout: Writable;
}

export async function runMcp(args: string[], io: CliIo, stdio: Stdio | undefined, server: ServerContext | undefined): Promise<number> {
  const { values } = parseCommandArgs(args, {
    root: { type: 'string', multiple: true },
    graph: { type: 'string' },
    store: { type: 'string' },
    'all-tools': { type: 'boolean', default: false },
  });
  if (!stdio || !server) throw new GraphError('ROOT_NOT_FOUND', 'kg mcp serves on the process stdin/stdout: run it as a command');
  // The repositories the server answers about (ADR 146): each --root, else the one around the
  // working folder. The first is the one a call without `root` asks about.
  const roots = values.root !== undefined ? values.root.map((r) => path.resolve(io.cwd, r)) : [findRepositoryRoot(io.cwd).root];
  for (const r of roots)
    if (nodeFileHost.stat(r.split(path.sep).join('/'))?.type !== 'directory')
      throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${r}`);
  const root = roots[0];
  const graph = values.graph !== undefined ? path.resolve(io.cwd, values.graph) : undefined;
  await serveStdio(
    {
      defaultRoot: root,
      roots,
      cwd: io.cwd,
      graphFileOf: (r) => (graph !== undefined && r === root ? graph : defaultGraphFile(r)),
      findRoot: (dir) => findRepositoryRoot(dir).root,
      kg: { execPath: server.execPath, script: server.script },
      store: values.store ?? io.env?.KG_STORE,
      allTools: values['all-tools'] || (io.env?.KG_MCP_TOOLS ?? '').toLowerCase() === 'all',
      log: (line) => io.stderr.write(line + '\n'),
      onStop: (handler) => server.onStop(handler),
      buildServers: {
        running(r) {
          if (server.off !== undefined) return undefined;
          try {
            const paths = serverPaths(server, fs.realpathSync(r));
            return serverDirProblem(path.dirname(paths.lockFile)) === undefined ? serverPid(paths) : undefined;
          } catch {
            return undefined;
          }
        },
        alsoServes(r, own) {
          // The repository's one server (ADR 187) may since have built other worktrees: those
          // keep their warm sessions, so it is left to its idle time.
          try {
            const mine = new Set(own.map((o) => fs.realpathSync(o)));
            return serverWorktrees(serverPaths(server, fs.realpathSync(r))).filter((w) => !mine.has(w));
          } catch {
            return [];
          }
        },
        stop(pid) {
          // Only a build server: a pid the system gave to another process since is left alone.
          if (isServerProcess(pid)) process.kill(pid, 'SIGTERM');
        },
      },
    },
    stdio.stdin,
    stdio.stdout,
  );
  return EXIT.OK;
}
