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
// Where: one Unix socket (a named pipe on Windows) per repository and per installed `kg`, in a
// folder only this user can enter. Off in CI (the CI variable) and with KG_SERVER=off or
// --no-server; a server exits after --idle-timeout seconds without a request.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import {
  BuildSession,
  defaultGraphFile,
  GenerationMemo,
  GraphError,
  lockHolder,
  processAlive,
  tryLockFile,
  type CheckerChoice,
} from '../graph';
import {
  HIGH_MEMORY_IDLE_MS,
  MAX_REQUEST_CHARS,
  REQUEST_TIMEOUT_MS,
  memoryBudgetBytes,
  removeStaleLogs,
  heldBytes,
  rssBytesOf,
  serverLockFiles,
} from '../build-server/limits';
import { parseBuildRequest, type BuildReply } from '../protocol/build-server';
import { isServerProcess, serverDirProblem, serverPaths, type ServerIdentity, type ServerPaths } from '../build-server/client';
import { componentCodeStore } from './component-code-cache';
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
  /** True once the client that asked for this build has gone; checked before anything is written. */
  cancelled?(): boolean;
  /** Who runs the build, said on stderr when a warm session did it ("the build server (pid 7)"). */
  by?: string;
  /** The graphs this process last read or wrote, by stamp (a server keeps one; ADR 125). */
  generations?: GenerationMemo;
}

/** The socket folder, created private; undefined (no server) when it is not this user's alone. */
function privateDir(dir: string): string | undefined {
  return serverDirProblem(dir) === undefined ? dir : undefined;
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

// ---------------------------------------------------------------------------------------------
// The server side: `kg server run`.

type Runner = (argv: string[], io: CliIo, ctx: BuildContext) => Promise<number>;

/**
 * Serves builds of `paths.root` until idle for `idleMs`, or told to stop. Takes its lock file
 * first (a second server for the same root exits at once), warms one session, then listens.
 */
async function serveBuilds(
  ctx: ServerContext,
  paths: ServerPaths,
  opts: { idleMs: number; extractOnly: boolean; listExternal: boolean; backend: CheckerChoice; out: string },
  runBuildCommand: Runner,
  io: CliIo,
): Promise<number> {
  const log = (message: string) => io.stderr.write(`kg server: ${new Date().toISOString()} ${message}\n`);
  if (!privateDir(path.dirname(paths.lockFile))) {
    log(`${path.dirname(paths.lockFile)} is not a folder only this user can enter; not serving`);
    return EXIT.FAILED;
  }
  const lock = tryLockFile(paths.lockFile, (holder) => isServerProcess(holder.pid));
  if ('heldBy' in lock) {
    log(`a server for ${paths.root} is already running (pid ${lock.heldBy?.pid ?? 'unknown'})`);
    return EXIT.OK;
  }
  const sessions = new Map<string, BuildSession>();
  // One session per flag set; a native one keeps TypeScript 7's process and snapshot too (ADR 115).
  const sessionFor = (extractOnly: boolean, listExternal: boolean, backend: CheckerChoice): BuildSession => {
    const key = `${extractOnly}:${listExternal}:${backend}`;
    let s = sessions.get(key);
    if (!s) {
      // Components' generated code from earlier builds of this repository (ADR 182).
      const componentCode = componentCodeStore(paths.root, io.env ?? {});
      sessions.set(key, (s = new BuildSession({ root: paths.root, extractOnly, listExternal, backend, componentCode })));
    }
    return s;
  };
  // graph.json and its manifest as the server last read or wrote them, by stamp (ADR 125).
  let generations = new GenerationMemo();
  const dropSessions = () => {
    for (const s of sessions.values()) s.close();
    sessions.clear();
    generations = new GenerationMemo();
  };
  const server = net.createServer();
  let stopping: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (stopping = resolve));
  const cleanUp = () => {
    if (process.platform !== 'win32') fs.rmSync(paths.socket, { force: true });
    lock.release();
  };
  let hasStopped = false;
  const stop = (why: string) => {
    if (hasStopped) return;
    hasStopped = true;
    log(`stopping: ${why}`);
    if (server.listening) server.close();
    cleanUp();
    dropSessions();
    stopping?.();
  };
  // Told to stop while it warms or builds (synchronous work, seconds to minutes), a handler would
  // run only once that work is done: `kg server stop` gave up after 10 s. So the signal is handled
  // only while the server waits; while it computes, the signal's default ends it at once, which
  // is safe: builds write by rename and their lock outlives no process (ADR 92).
  let unlisten: (() => void) | undefined;
  const waiting = () => {
    if (!hasStopped) unlisten ??= ctx.onStop(() => stop('asked to stop'));
  };
  const computing = () => {
    unlisten?.();
    unlisten = undefined;
  };

  try {
    const t0 = performance.now();
    const session = sessionFor(opts.extractOnly, opts.listExternal, opts.backend);
    const warmed = session.warm();
    // The graph on disk, read now rather than by the first build (ADR 135): its stamps and texts
    // known, and — when it holds what the warm build made — examined, so the doctor judges the
    // first build's candidate by difference. Both are what that build would do, done earlier.
    const onDisk = generations.read(opts.out);
    const examined = onDisk.graphText !== undefined && onDisk.graphText === warmed.text;
    if (examined) generations.doctor(opts.out).examine(onDisk.graphText as string);
    // And one incremental rebuild, which finds nothing changed and writes nothing: the warm build
    // was a full one, and the incremental route's own code and state are readied here, not in the
    // first build a client waits for (on Babylon.js's core, about 0.2 s of it).
    session.rebuild({});
    log(
      `warm for ${paths.root} in ${Math.round(performance.now() - t0)} ms; ${opts.out} ${
        onDisk.graphText === undefined ? 'not there yet' : examined ? 'read and examined' : 'read (not what the warm build made)'
      }`,
    );
  } catch (e) {
    log(`cannot build ${paths.root}: ${(e as Error).message}`);
    cleanUp();
    return EXIT.FAILED;
  }

  let idle: NodeJS.Timeout | undefined;
  const budget = memoryBudgetBytes();
  // What the server holds, judged after a collection (ADR 125); resident memory only says whether to look.
  let held = 0;
  const judge = () => {
    held = process.memoryUsage().rss > budget ? heldBytes() : 0;
    return held > budget;
  };
  // One collection before listening, whatever the budget: the warm build's garbage is collected
  // now, while nobody waits, rather than in the first build a client waits for (ADR 135).
  held = heldBytes();
  let overBudget = held > budget;
  const touch = () => {
    if (idle) clearTimeout(idle);
    // Over the memory budget, a server waits less before giving its memory back (ADR 78).
    const ms = overBudget ? Math.min(opts.idleMs, HIGH_MEMORY_IDLE_MS) : opts.idleMs;
    idle = setTimeout(() => stop(`idle for ${Math.round(ms / 1000)} s`), ms);
    idle.unref();
  };
  const releaseIfOverBudget = () => {
    overBudget = judge();
    if (!overBudget || sessions.size === 0) return;
    dropSessions(); // the next build is cold, and the same bytes
    log(
      `released its programs: ${Math.round(held / 1048576)} MB held after a collection, over the ${Math.round(budget / 1048576)} MB budget (KG_SERVER_MAX_MB)`,
    );
  };
  // A server whose repository was deleted has nothing left to serve.
  const rootWatch = setInterval(() => {
    if (!fs.existsSync(paths.root)) stop(`its root ${paths.root} no longer exists`);
  }, 5_000);
  rootWatch.unref();
  let queue = Promise.resolve();
  let pending = 0;
  server.on('connection', (conn: net.Socket) => {
    touch();
    conn.setEncoding('utf8');
    let closed = false;
    // A client never half-closes while it waits for its answer: its end is its going away.
    conn.on('end', () => (closed = true));
    conn.on('close', () => (closed = true));
    conn.on('error', () => (closed = true));
    const send = (m: BuildReply) => {
      if (!closed) conn.write(JSON.stringify(m) + '\n');
    };
    readRequestLine(
      conn,
      (refusal) => {
        log(`refused a connection: ${refusal}`);
        if (!closed) conn.end(JSON.stringify({ type: 'refused', reason: refusal } satisfies BuildReply) + '\n', () => conn.destroy());
        closed = true;
      },
      (line) => {
        const request = parseBuildRequest(line);
        if ('refused' in request) {
          send({ type: 'refused', reason: request.refused });
          conn.end();
          return;
        }
        const { argv, cwd } = request;
        if (pending > 0 && argv.includes('--no-wait')) {
          // Builds here queue one behind another; --no-wait must not wait, so the client builds
          // itself, where the graph's lock answers at once (refuses while this server writes it).
          send({ type: 'refused', reason: 'busy with another build' });
          conn.end();
          return;
        }
        if (pending > 0) {
          // Two builds at once: this one waits, and says so, as it would for the graph's lock.
          const message = 'the build server is busy with another build; waiting for it to finish';
          const json = argv.some((a, i) => a === '--progress=json' || (a === '--progress' && argv[i + 1] === 'json'));
          send({ type: 'stderr', text: json ? JSON.stringify({ event: 'log', level: 'info', message }) + '\n' : `kg: ${message}\n` });
        }
        pending++;
        queue = queue
          .then(async () => {
            if (closed) {
              log(`build ${argv.join(' ')} skipped: client gone before it started`);
              return;
            }
            if (hasStopped) {
              // Stopping: a build that waited is not started; its client hears the hang-up and builds itself.
              log(`build ${argv.join(' ')} not started: the server is stopping`);
              conn.destroy();
              return;
            }
            computing();
            const t0 = performance.now();
            const clientIo: CliIo = {
              stdout: { write: (s: string) => send({ type: 'stdout', text: s }) },
              stderr: { write: (s: string) => send({ type: 'stderr', text: s }) },
              cwd,
            };
            const code = await runBuildCommand(argv, clientIo, {
              session: (root, extractOnly, listExternal, backend) =>
                sameRoot(root, paths.root) ? sessionFor(extractOnly, listExternal, backend) : undefined,
              cancelled: () => closed,
              by: `the build server (pid ${ctx.pid})`,
              generations,
            }).catch((e: unknown) => {
              send({ type: 'stderr', text: `kg: internal error: ${(e as Error)?.stack ?? String(e)}\n` });
              return EXIT.FAILED;
            });
            // Logged before the client hears the exit: whoever reads the log once the build has
            // answered finds it there (the log is a file, written synchronously).
            log(`build ${argv.join(' ')} → exit ${code}${closed ? ' (client gone)' : ''} in ${Math.round(performance.now() - t0)} ms`);
            send({ type: 'exit', code });
            conn.end();
            releaseIfOverBudget();
            touch();
            waiting();
          })
          .finally(() => pending--);
      },
    );
  });
  server.on('error', (e) => stop(`socket error: ${e.message}`));
  if (process.platform !== 'win32') fs.rmSync(paths.socket, { force: true }); // ours: we hold the lock
  await new Promise<void>((resolve) => server.listen(paths.socket, resolve));
  if (process.platform !== 'win32') fs.chmodSync(paths.socket, 0o600);
  touch();
  log(`listening on ${paths.socket}`);
  waiting();
  await stopped;
  computing();
  await queue;
  return EXIT.OK;
}

/**
 * Reads a connection's one request line, bounded (ADR 99): a line longer than MAX_REQUEST_CHARS,
 * or none within REQUEST_TIMEOUT_MS, is refused and the connection dropped — the server never
 * holds more than one cap of a client's bytes, and stays up. What a client sends after its line is
 * not kept.
 */
function readRequestLine(conn: net.Socket, refuse: (why: string) => void, onLine: (line: string) => void): void {
  let buffered = '';
  const timer = setTimeout(() => {
    conn.off('data', onData);
    refuse(`no request line within ${REQUEST_TIMEOUT_MS / 1000} s`);
  }, REQUEST_TIMEOUT_MS);
  conn.on('close', () => clearTimeout(timer));
  function onData(chunk: string): void {
    const nl = chunk.indexOf('\n');
    if (nl < 0 && buffered.length + chunk.length > MAX_REQUEST_CHARS) {
      conn.off('data', onData);
      clearTimeout(timer);
      buffered = '';
      refuse(`a request line over ${MAX_REQUEST_CHARS} characters`);
      return;
    }
    if (nl < 0) {
      buffered += chunk;
      return;
    }
    conn.off('data', onData);
    clearTimeout(timer);
    const line = (buffered + chunk.slice(0, nl)).replace(/\r$/, '');
    buffered = '';
    if (line.length > MAX_REQUEST_CHARS) refuse(`a request line over ${MAX_REQUEST_CHARS} characters`);
    else onLine(line);
  }
  conn.on('data', onData);
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

function sameRoot(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === b;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// `kg server run|status|stop`.

export const SERVER_HELP = `Usage: kg server status [--root DIR]
       kg server stop [--root DIR | --all]
       kg server run [--root DIR] [--out FILE] [--idle-timeout SECONDS] [--extract-only] [--list-external] [--checker js|native]

kg build hands its work to a build server for the repository when one is running, and starts
one in the background when none is. The server keeps the compiler's programs warm, so a build
after an edit costs a fraction of a one-shot build; the graph is the same bytes either way.
Every build still re-reads the files and the graph on disk, takes the graph's lock and goes
through the doctor. A server exits after --idle-timeout seconds without a request.

Builds neither use nor start a server when the CI environment variable is set, with
KG_SERVER=off, or with kg build --no-server; KG_SERVER=on overrides CI.

  status   Print {"root", "running", "pid", "rssMB", "socket"} as JSON (rssMB: the server's
           resident memory, where the system says).
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
        running: pid !== undefined,
        ...(pid !== undefined ? { pid } : {}),
        ...(rss !== undefined ? { rssMB: Math.round(rss / 1048576) } : {}),
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
