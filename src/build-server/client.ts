// The client side of the build server (ADR 57): where a repository's server listens, whether one
// may be used, and how a build is handed to it. Two callers: `kg build` (src/cli/build.ts), and the
// editor (src/host/cli-build.ts), which talks to a warm server itself instead of starting a `kg`
// process only to relay the build (ADR 119). Both compute the same socket from the same inputs, so
// they reach the same server. No compiler here: the extension bundles this file.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';

import { KG_VERSION, lockHolder, processAlive, unsafeDirReason, userStateBase } from '../graph';
import { BUILD_SERVER_PROTOCOL, parseBuildReply, type BuildRequest } from '../protocol/build-server';

/** What names a server: the installed `kg` and the Node that runs it. */
export interface ServerIdentity {
  execPath: string;
  /** The CLI's own script (dist/cli.js), as a real path. */
  script: string;
  /** Where sockets live (KG_SERVER_DIR); the default is a folder of this user's in the temp folder. */
  dir?: string;
}

export interface ServerPaths {
  root: string;
  /** What the server serves (ADR 187): git's common folder when root is the top of a worktree, else root. */
  repository: string;
  socket: string;
  lockFile: string;
  logFile: string;
  /** The worktrees the running server holds warm sessions for, one real path each, written by the server (ADR 187). */
  worktreesFile: string;
}

/** Why builds must not use a build server here, if they must not (ADR 57). */
export function serverOff(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const setting = (env.KG_SERVER ?? '').toLowerCase();
  if (['off', '0', 'false', 'no'].includes(setting)) return 'KG_SERVER=off';
  if (['on', '1', 'true', 'yes'].includes(setting)) return undefined;
  const ci = (env.CI ?? '').toLowerCase();
  if (ci !== '' && ci !== 'false' && ci !== '0') return 'CI is set';
  return undefined;
}

/**
 * The repository a build server serves for `root` (a real path), ADR 187: git's common folder
 * (what `git rev-parse --git-common-dir` prints) when root is the top of a worktree, so every
 * worktree of one repository reaches one server; root itself otherwise (a folder below a worktree's
 * top, a folder outside git, a kept folder of `kg diff`). Read from `.git` and `commondir` as git
 * reads them, without starting git: a client asks this before every build.
 */
export function repositoryOf(root: string): string {
  const dotGit = path.join(root, '.git');
  try {
    const st = fs.statSync(dotGit);
    let gitDir = dotGit;
    if (st.isFile()) {
      const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
      if (!m) return root;
      gitDir = path.resolve(root, m[1].trim());
    } else if (!st.isDirectory()) return root;
    let common = gitDir;
    try {
      common = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
    } catch {
      // no commondir: the git folder is the common one (a main checkout, a submodule)
    }
    return fs.realpathSync(common);
  } catch {
    return root;
  }
}

/** Where the server of `root` (a real path) listens, for this installed `kg` under this Node. */
export function serverPaths(ctx: ServerIdentity, root: string): ServerPaths {
  const repository = repositoryOf(root);
  let stamp = '';
  try {
    const st = fs.statSync(ctx.script);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    // a script that cannot be stat'ed still gets a stable name
  }
  const id = createHash('sha256')
    .update([BUILD_SERVER_PROTOCOL, KG_VERSION, ctx.execPath, process.version, ctx.script, stamp, repository].join('\0'))
    .digest('hex')
    .slice(0, 20);
  const dir = ctx.dir ?? path.join(userStateBase(), 'servers');
  const socket = process.platform === 'win32' ? `\\\\.\\pipe\\knowledge-graph-${id}` : path.join(dir, `${id}.sock`);
  return {
    root,
    repository,
    socket,
    lockFile: path.join(dir, `${id}.lock`),
    logFile: path.join(dir, `${id}.log`),
    worktreesFile: path.join(dir, `${id}.worktrees`),
  };
}

/**
 * The worktrees a running server holds warm sessions for, as it last wrote them; empty when it
 * wrote none or the file cannot be read. Only meaningful while the server runs (serverPid).
 */
export function serverWorktrees(paths: ServerPaths): string[] {
  try {
    const roots: unknown = JSON.parse(fs.readFileSync(paths.worktreesFile, 'utf8'));
    return Array.isArray(roots) ? roots.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Why the socket folder `dir` cannot be used (created 0700 when missing), or undefined when it can
 * (ADR 77): a real folder, this user's, open to no one else. KG_SERVER_DIR naming a folder that is
 * not is refused loudly, and no server is started anywhere else: a server the user's `kg server
 * status|stop` (with the same KG_SERVER_DIR) could not see must not exist.
 */
export function serverDirProblem(dir: string): string | undefined {
  try {
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
      fs.mkdirSync(dir, { mode: 0o700 });
    }
  } catch (e) {
    return `cannot create it (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
  return unsafeDirReason(dir);
}

/**
 * Whether `pid` is a kg build server. A server's lock file outlives a killed server and its pid
 * may be reused; where the process table can be read (Linux), the command line must say so.
 */
export function isServerProcess(pid: number): boolean {
  if (!processAlive(pid)) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('\0server\0run\0');
  } catch {
    return process.platform !== 'linux';
  }
}

/** How often a client looks whether a starting server listens yet. */
const LISTEN_POLL_MS = 100;

/**
 * Waits while the server of `paths` is starting (a live server process holds its lock and it does
 * not listen yet: it warms with a full build before it listens, ADR 135). Resolves with the
 * server's pid once its socket is there; undefined at once when no server is starting, when it
 * ends without listening, at `timeoutMs`, or when `signal` aborts.
 */
export function serverListening(
  paths: ServerPaths,
  signal?: AbortSignal,
  /** Called once when there is something to wait for, with the starting server's pid. */
  onWait?: (pid: number) => void,
  timeoutMs = 180_000,
): Promise<number | undefined> {
  const starting = () => {
    const pid = lockHolder(paths.lockFile)?.pid;
    return pid !== undefined && isServerProcess(pid) ? pid : undefined;
  };
  const listens = () => process.platform === 'win32' || fs.existsSync(paths.socket);
  const first = starting();
  if (first === undefined || signal?.aborted) return Promise.resolve(undefined);
  if (listens()) return Promise.resolve(first);
  onWait?.(first);
  return new Promise((resolve) => {
    const t0 = Date.now();
    const done = (pid: number | undefined) => {
      clearInterval(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(pid);
    };
    const onAbort = () => done(undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setInterval(() => {
      const pid = starting();
      if (pid !== undefined && listens()) done(pid);
      else if (pid === undefined || Date.now() - t0 > timeoutMs) done(undefined);
    }, LISTEN_POLL_MS);
  });
}

/** Where a server's output goes: the client's own streams, or the editor's line parser. */
export interface ServerClientIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

// The wire format (who sends what, and how each side validates it): src/protocol/build-server.ts.

/**
 * Runs `kg build <argv>` on the server of `paths`, streaming its output. Returns the exit code, or
 * undefined when no server took the build (none listening, a refusal, or a server that stopped
 * before answering) — the caller then builds itself. With `signal`, an abort hangs up (the server
 * cancels the build before anything is written) and the answer is 'cancelled'.
 */
export function buildOnServer(
  paths: ServerPaths,
  argv: string[],
  io: ServerClientIo,
  signal?: AbortSignal,
  /** Called once the request is written: the server works from here on, and the caller may too. */
  onSent?: () => void,
): Promise<number | undefined | 'cancelled'> {
  if (process.platform !== 'win32' && !fs.existsSync(paths.socket)) return Promise.resolve(undefined);
  if (signal?.aborted) return Promise.resolve('cancelled');
  return new Promise((resolve) => {
    let settled = false;
    let heard = false;
    const done = (code: number | undefined | 'cancelled') => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(code);
    };
    const onAbort = () => done('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    const socket = net.connect(paths.socket);
    socket.setEncoding('utf8');
    // Before a word from the server, a failure is just "no server"; after one, say why we build here.
    const hungUp = () => {
      if (!settled && heard) io.stderr.write('kg: the build server stopped during this build; building here instead\n');
      done(undefined);
    };
    // A socket file nobody listens on: its server was killed or crashed (ADR 187). Said, then built here.
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (!settled && !heard && e.code === 'ECONNREFUSED')
        io.stderr.write('kg: the build server did not answer (it was stopped or killed); building here instead\n');
      hungUp();
    });
    socket.on('close', hungUp);
    socket.on('connect', () => {
      const request: BuildRequest = { kg: BUILD_SERVER_PROTOCOL, argv, cwd: io.cwd };
      socket.write(JSON.stringify(request) + '\n', () => onSent?.());
    });
    const lines = createInterface({ input: socket, crlfDelay: Infinity });
    lines.on('error', () => {}); // the socket's own 'error' handler decides
    lines.on('line', (line) => {
      const m = parseBuildReply(line);
      if (!m) return;
      heard = true;
      switch (m.type) {
        case 'stdout':
          io.stdout.write(m.text);
          break;
        case 'stderr':
          io.stderr.write(m.text);
          break;
        case 'refused':
          done(undefined);
          break;
        case 'exit':
          done(m.code);
          break;
      }
    });
  });
}
