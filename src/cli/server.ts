// The build server (ADR 57): `kg build` hands its work to a process that keeps the compiler's
// programs warm for one repository, and starts one in the background when none answers. A
// one-shot process pays the compiler's cold start on every build (parsing and binding the
// default libraries alone is most of an incremental build); the server pays it once.
//
// Nothing about the answer changes: the server runs the same `kg build` — same flags, same
// lock, same doctor, same generations — with a session whose programs stay alive, and every
// build re-reads the tree and the graph on disk, so it is never stale. The client streams the
// server's stdout and stderr and exits with its code. When no server answers, or one stops
// mid-build, the client builds itself. A client that goes away (Ctrl+C, the editor's Cancel)
// cancels its build before anything is written.
//
// Where: one Unix socket (a named pipe on Windows) per repository — every worktree of it reaches
// the same one (ADR 187) — and per installed `kg`, in a folder only this user can enter. Off in CI (the CI variable) and with KG_SERVER=off or
// --no-server; a server exits after --idle-timeout seconds without a request.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { BuildSession, defaultGraphFile, GenerationMemo, GraphError, lockHolder, processAlive, type CheckerChoice } from '../graph';
import { removeStaleLogs, rssBytesOf, serverLockFiles } from '../build-server/limits';
import {
  isServerProcess,
  serverDirProblem,
  serverPaths,
  serverWorktrees,
  type ServerIdentity,
  type ServerPaths,
} from '../build-server/client';
import { MAX_WORKTREES, privateDir, serveBuilds, type Runner } from './serve-builds';
import { EXIT, type CliIo } from './streams';
import { parseCommandArgs, UsageError } from './usage';

/** The protocol between a `kg build` client and a server; both come from one installed `kg`. */

/** A server with no request for this long exits. */
const DEFAULT_IDLE_SECONDS = 600;

/** How to start this CLI again, and whether builds may use a server; set by main.ts only. */
export interface ServerContext extends ServerIdentity {
  /** Why builds must not use or start a server (CI, KG_SERVER=off); undefined when they may. */
  off?: string;
  /**
   * This process's id and a way to be told to stop (SIGTERM, SIGINT): `handler` runs on the signal
   * until the returned function is called. Without a handler the signal ends the process at once,
   * which is what the server wants while it computes (ADR 92).
   */
  pid: number;
  onStop(handler: () => void): () => void;
}

/** What a build asks of the process it runs in: the server provides warm sessions. */
export interface BuildContext {
  /** A warm session for this root and these flags, or undefined to build cold. */
  session?(root: string, extractOnly: boolean, listExternal: boolean, backend: CheckerChoice): BuildSession | undefined;
  /**
   * True when `session` would give this root a new session, one that has built nothing (a worktree
   * the repository's server has not built yet, ADR 187): the build starts from the graph cache.
   */
  fresh?(root: string, extractOnly: boolean, listExternal: boolean, backend: CheckerChoice): boolean;
  /** True once the client that asked for this build has gone; checked before anything is written. */
  cancelled?(): boolean;
  /** Who runs the build, said on stderr when a warm session did it ("the build server (pid 7)"). */
  by?: string;
  /** The graphs this process last read or wrote, by stamp (a server keeps one; ADR 125). */
  generations?: GenerationMemo;
}

/**
 * Node's flags for a build server (ADR 132): a young generation of up to 64 MB per semi-space
 * instead of 16. Each warm build makes and drops tens of megabytes of strings and rows; with the
 * default, most of them were copied by scavenges and promoted before they died, and a body edit on
 * effect spent about a third of its CPU time collecting them.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

/** The pid of the live server of these paths (starting or listening), if any. */
export function serverPid(paths: ServerPaths): number | undefined {
  const pid = lockHolder(paths.lockFile)?.pid;
  return pid !== undefined && isServerProcess(pid) ? pid : undefined;
}

// ---------------------------------------------------------------------------------------------
// Starting one, from `kg build` (the client itself is src/build-server/client.ts).

/**
 * Starts a server for `paths.root` in the background unless one is already starting or running.
 * Its output goes to paths.logFile. Never throws: a server is an optimisation.
 */
export function startServerInBackground(ctx: ServerContext, paths: ServerPaths, flags: string[]): void {
  try {
    if (!privateDir(path.dirname(paths.lockFile))) return;
    if (serverPid(paths) !== undefined) return;
    removeStaleLogs(path.dirname(paths.lockFile), (lockFile) => {
      const holder = lockHolder(lockFile);
      return holder !== undefined && isServerProcess(holder.pid);
    });
    const log = fs.openSync(paths.logFile, 'w', 0o600); // the log of this server, not of every one before
    const child = spawn(ctx.execPath, [...SERVER_NODE_FLAGS, ctx.script, 'server', 'run', '--root', paths.root, ...flags], {
      cwd: paths.root,
      detached: true,
      stdio: ['ignore', log, log],
      env: process.env,
      windowsHide: true,
    });
    child.on('error', () => {});
    child.unref();
    fs.closeSync(log);
  } catch {
    // no server this time; the next build tries again
  }
}

/** `kg server stop --all`: every server of this user (in this server folder), each by its pid. */
async function stopAll(dir: string, io: CliIo): Promise<number> {
  const pids = new Set<number>();
  for (const lockFile of serverLockFiles(dir)) {
    const pid = lockHolder(lockFile)?.pid;
    if (pid !== undefined && isServerProcess(pid)) pids.add(pid);
  }
  for (const pid of pids) process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 10_000 && [...pids].some((p) => processAlive(p)); waited += 50) await new Promise((r) => setTimeout(r, 50));
  const left = [...pids].filter((p) => processAlive(p));
  io.stderr.write(
    `kg: stopped ${pids.size - left.length} build server${pids.size - left.length === 1 ? '' : 's'}${left.length > 0 ? `; still running: pid ${left.join(', ')}` : ''}\n`,
  );
  return left.length > 0 ? EXIT.FAILED : EXIT.OK;
}

// ---------------------------------------------------------------------------------------------
// `kg server run|status|stop`.

export const SERVER_HELP = `Usage: kg server status [--root DIR]
       kg server stop [--root DIR | --all]
       kg server run [--root DIR] [--out FILE] [--idle-timeout SECONDS] [--extract-only] [--list-external] [--checker js|native]

kg build hands its work to a build server for the repository when one is running, and starts
one in the background when none is. One server serves every worktree of a repository, each
worktree with its own warm programs (at most ${MAX_WORKTREES} worktrees' at once). The server keeps the compiler's programs warm, so a build
after an edit costs a fraction of a one-shot build; the graph is the same bytes either way.
Every build still re-reads the files and the graph on disk, takes the graph's lock and goes
through the doctor. A server exits after --idle-timeout seconds without a request.

Builds neither use nor start a server when the CI environment variable is set, with
KG_SERVER=off, or with kg build --no-server; KG_SERVER=on overrides CI.

  status   Print {"root", "repository", "running", "pid", "rssMB", "worktrees", "socket"} as
           JSON (rssMB: the server's resident memory, where the system says; repository: what
           the server serves — git's common folder for the top of a worktree, every worktree of
           it alike; worktrees: those it holds warm programs for).
  stop     Stop the server of the repository, if one runs (exit 0 once none runs); with --all,
           every build server of this user.
  run      Serve in the foreground (what kg build starts in the background; its log is the
           "log" file status prints).

Options:
  --root DIR              Repository root (default: the current directory).
  --out FILE              The graph its builds write (default: .knowledge-graph/graph.json under
                          the root): read once warm, so the first build finds it known.
  --idle-timeout SECONDS  Exit after this long without a request (default: ${DEFAULT_IDLE_SECONDS}; 60 while
                          the server holds more than KG_SERVER_MAX_MB after a collection, default
                          3072, after which it also releases its programs).
  --all                   With stop: every build server of this user.
  --extract-only          Warm the extraction tier's session (the one kg build --extract-only uses).
  --list-external         Warm the session of kg build --list-external.
  --checker NAME          Warm the session of kg build --checker NAME ("js" or "native"; a native
                          session keeps TypeScript 7's checker process between builds).
  -h, --help              Show this help.
`;

export async function runServerCommand(
  args: string[],
  io: CliIo,
  ctx: ServerContext | undefined,
  runBuildCommand: Runner,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      root: { type: 'string' },
      out: { type: 'string' },
      'idle-timeout': { type: 'string' },
      'extract-only': { type: 'boolean', default: false },
      'list-external': { type: 'boolean', default: false },
      checker: { type: 'string', default: 'js' },
      all: { type: 'boolean', default: false },
    },
    true,
  );
  const [action, ...extra] = positionals;
  if (!['run', 'status', 'stop'].includes(action ?? '') || extra.length > 0) {
    throw new UsageError(`expected "status", "stop" or "run"${action ? `, not "${positionals.join(' ')}"` : ''}`);
  }
  if (!ctx) throw new GraphError('INVALID_ARGUMENT', 'kg server needs the kg command itself (node dist/cli.js server …)');
  let root: string;
  try {
    root = fs.realpathSync(path.resolve(io.cwd, values.root ?? '.'));
  } catch {
    throw new GraphError('ROOT_NOT_FOUND', `root not found: ${values.root ?? io.cwd}`);
  }
  const paths = serverPaths(ctx, root);
  const problem = serverDirProblem(path.dirname(paths.lockFile));
  if (problem)
    throw new GraphError(
      'INVALID_ARGUMENT',
      `${ctx.dir !== undefined ? `KG_SERVER_DIR=${ctx.dir}` : path.dirname(paths.lockFile)} is not a folder only this user can enter (${problem}); no build server can run there`,
    );
  if (action === 'status') {
    const pid = serverPid(paths);
    const rss = pid !== undefined ? rssBytesOf(pid) : undefined;
    io.stdout.write(
      JSON.stringify({
        root,
        repository: paths.repository,
        running: pid !== undefined,
        ...(pid !== undefined ? { pid } : {}),
        ...(rss !== undefined ? { rssMB: Math.round(rss / 1048576) } : {}),
        ...(pid !== undefined ? { worktrees: serverWorktrees(paths) } : {}),
        socket: paths.socket,
        log: paths.logFile,
        ...(ctx.off ? { off: ctx.off } : {}),
      }) + '\n',
    );
    return EXIT.OK;
  }
  if (action === 'stop' && values.all) return stopAll(path.dirname(paths.lockFile), io);
  if (action === 'stop') {
    const pid = serverPid(paths);
    if (pid === undefined) {
      io.stderr.write(`kg: no build server runs for ${root}\n`);
      return EXIT.OK;
    }
    process.kill(pid, 'SIGTERM');
    for (let waited = 0; waited < 10_000 && processAlive(pid); waited += 50) await new Promise((r) => setTimeout(r, 50));
    io.stderr.write(
      processAlive(pid) ? `kg: the build server (pid ${pid}) has not stopped yet\n` : `kg: stopped the build server (pid ${pid})\n`,
    );
    return processAlive(pid) ? EXIT.FAILED : EXIT.OK;
  }
  if (values.checker !== 'js' && values.checker !== 'native')
    throw new UsageError(`--checker must be "js" or "native", not "${values.checker}"`);
  const idle = values['idle-timeout'] === undefined ? DEFAULT_IDLE_SECONDS : Number(values['idle-timeout']);
  if (!Number.isFinite(idle) || idle <= 0) {
    throw new UsageError(`--idle-timeout must be a positive number of seconds, not "${values['idle-timeout']}"`);
  }
  return serveBuilds(
    ctx,
    paths,
    {
      idleMs: idle * 1000,
      extractOnly: values['extract-only'],
      listExternal: values['list-external'],
      backend: values.checker as CheckerChoice,
      out: values.out !== undefined ? path.resolve(io.cwd, values.out) : defaultGraphFile(root),
    },
    runBuildCommand,
    io,
  );
}
