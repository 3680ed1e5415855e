// The server side of the build server (ADR 57): `kg server run`. One process per repository
// (ADR 187): it serves the builds of every worktree of the repository — each worktree with its
// own warm sessions, keyed by the worktree's root, never another's graph — so a new worktree's
// first build finds the engine loaded and the compiler's default libraries parsed and bound.

import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

import { BuildSession, GenerationMemo, tryLockFile, type CheckerChoice } from '../graph';
import { HIGH_MEMORY_IDLE_MS, MAX_REQUEST_CHARS, REQUEST_TIMEOUT_MS, memoryBudgetBytes, heldBytes } from '../build-server/limits';
import { buildEventLine } from '../protocol/build-events';
import { parseBuildRequest, type BuildReply } from '../protocol/build-server';
import { isServerProcess, repositoryOf, serverDirProblem, type ServerPaths } from '../build-server/client';
import { componentCodeStore } from './component-code-cache';
import { EXIT, type CliIo } from './streams';
import type { BuildContext, ServerContext } from './server';

export type Runner = (argv: string[], io: CliIo, ctx: BuildContext) => Promise<number>;

export interface ServeOptions {
  idleMs: number;
  extractOnly: boolean;
  listExternal: boolean;
  backend: CheckerChoice;
  /** The graph the first worktree's builds write, read once warm (ADR 135). */
  out: string;
}

/**
 * The worktrees whose sessions a server keeps at once (ADR 187). A session holds about what a
 * full build of its worktree peaks at; past this many worktrees, the least recently built one's
 * sessions are closed, and its next build starts again from the repository's graph cache.
 */
export const MAX_WORKTREES = 3;

/** The socket folder, created private; undefined (no server) when it is not this user's alone. */
export function privateDir(dir: string): string | undefined {
  return serverDirProblem(dir) === undefined ? dir : undefined;
}

/**
 * Warm sessions by worktree root and flags, the least recently used worktree's dropped past
 * MAX_WORKTREES. A root is served only when it belongs to the server's repository.
 */
class WorktreeSessions {
  /** By `root\0flags`; a Map keeps insertion order, and a use moves a key to the end. */
  private readonly sessions = new Map<string, { root: string; session: BuildSession }>();
  generations = new GenerationMemo();

  constructor(
    private readonly repository: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly log: (message: string) => void,
    /** Told the worktrees held after every change, sorted (for `kg server status` and `kg mcp`). */
    private readonly held: (roots: string[]) => void,
  ) {}

  private told(): void {
    this.held([...new Set([...this.sessions.values()].map((e) => e.root))].sort());
  }

  private key(root: string, extractOnly: boolean, listExternal: boolean, backend: CheckerChoice): string {
    return `${root}\0${extractOnly}:${listExternal}:${backend}`;
  }

  /** Whether `root` (as a build names it) is a worktree of this server's repository; its real path if so. */
  served(root: string): string | undefined {
    try {
      const real = fs.realpathSync(root);
      return repositoryOf(real) === this.repository ? real : undefined;
    } catch {
      return undefined;
    }
  }

  /** True when `root` with these flags has no session yet: its build starts from the graph cache. */
  fresh(root: string, extractOnly: boolean, listExternal: boolean, backend: CheckerChoice): boolean {
    const real = this.served(root);
    return real !== undefined && !this.sessions.has(this.key(real, extractOnly, listExternal, backend));
  }

  /** The session of `root` with these flags, made when missing; undefined for a root of another repository. */
  get(root: string, extractOnly: boolean, listExternal: boolean, backend: CheckerChoice): BuildSession | undefined {
    const real = this.served(root);
    if (real === undefined) return undefined;
    const key = this.key(real, extractOnly, listExternal, backend);
    let entry = this.sessions.get(key);
    if (entry) this.sessions.delete(key);
    else {
      // Components' generated code from earlier builds of this repository (ADR 182); a native
      // session keeps TypeScript 7's process and snapshot too (ADR 115).
      const componentCode = componentCodeStore(real, this.env);
      entry = { root: real, session: new BuildSession({ root: real, extractOnly, listExternal, backend, componentCode }) };
    }
    this.sessions.set(key, entry);
    this.evict();
    this.told();
    return entry.session;
  }

  private evict(): void {
    const roots = [...new Set([...this.sessions.values()].map((e) => e.root))];
    for (const root of roots.slice(0, Math.max(0, roots.length - MAX_WORKTREES)))
      this.dropRoot(root, `more than ${MAX_WORKTREES} worktrees`);
  }

  dropRoot(root: string, why: string): void {
    let dropped = false;
    for (const [key, e] of this.sessions)
      if (e.root === root) {
        e.session.close();
        this.sessions.delete(key);
        dropped = true;
      }
    if (dropped) {
      this.log(`released the programs of ${root}: ${why}`);
      this.told();
    }
  }

  /** Drops the sessions of worktrees that no longer exist. */
  dropGone(): void {
    for (const root of new Set([...this.sessions.values()].map((e) => e.root)))
      if (!fs.existsSync(root)) this.dropRoot(root, 'it no longer exists');
  }

  get size(): number {
    return this.sessions.size;
  }

  dropAll(): void {
    for (const e of this.sessions.values()) e.session.close();
    this.sessions.clear();
    this.generations = new GenerationMemo();
    this.told();
  }
}

/** Writes the worktrees held, by rename so a reader never sees half a list; a failure only costs `kg mcp` its caution. */
function writeWorktrees(file: string, roots: string[]): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, JSON.stringify(roots) + '\n', { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Serves builds of the repository of `paths.root` until idle for `opts.idleMs`, or told to stop.
 * Takes its lock file first (a second server for the same repository exits at once), warms the
 * starting worktree's session, then listens.
 */
export async function serveBuilds(ctx: ServerContext, paths: ServerPaths, opts: ServeOptions, run: Runner, io: CliIo): Promise<number> {
  const log = (message: string) => io.stderr.write(`kg server: ${new Date().toISOString()} ${message}\n`);
  if (!privateDir(path.dirname(paths.lockFile))) {
    log(`${path.dirname(paths.lockFile)} is not a folder only this user can enter; not serving`);
    return EXIT.FAILED;
  }
  const lock = tryLockFile(paths.lockFile, (holder) => isServerProcess(holder.pid));
  if ('heldBy' in lock) {
    log(`a server for ${paths.repository} is already running (pid ${lock.heldBy?.pid ?? 'unknown'})`);
    return EXIT.OK;
  }
  // A killed server's socket outlives it. Ours now (we hold the lock): gone before the warm build,
  // so a client that finds this server starting waits for it to listen rather than connecting to
  // the dead socket and building by itself.
  if (process.platform !== 'win32') fs.rmSync(paths.socket, { force: true });
  let ended = false;
  const sessions = new WorktreeSessions(paths.repository, io.env ?? {}, log, (roots) => {
    if (!ended) writeWorktrees(paths.worktreesFile, roots);
  });
  const server = new BuildServer(ctx, paths, opts, run, log, sessions, () => {
    ended = true;
    if (process.platform !== 'win32') fs.rmSync(paths.socket, { force: true });
    fs.rmSync(paths.worktreesFile, { force: true });
    lock.release();
  });
  return server.serve();
}

/** One server's state: its sessions, its socket, its idle timer and its queue of builds. */
class BuildServer {
  private readonly socket = net.createServer();
  private readonly stopped: Promise<void>;
  private stopping: (() => void) | undefined;
  private hasStopped = false;
  private unlisten: (() => void) | undefined;
  private idle: NodeJS.Timeout | undefined;
  private readonly budget = memoryBudgetBytes();
  private held = 0;
  private overBudget = false;
  private queue = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly ctx: ServerContext,
    private readonly paths: ServerPaths,
    private readonly opts: ServeOptions,
    private readonly run: Runner,
    private readonly log: (message: string) => void,
    private readonly sessions: WorktreeSessions,
    private readonly cleanUp: () => void,
  ) {
    this.stopped = new Promise<void>((resolve) => (this.stopping = resolve));
  }

  async serve(): Promise<number> {
    if (!this.warm()) {
      this.cleanUp();
      return EXIT.FAILED;
    }
    // One collection before listening, whatever the budget: the warm build's garbage is collected
    // now, while nobody waits, rather than in the first build a client waits for (ADR 135).
    this.held = heldBytes();
    this.overBudget = this.held > this.budget;
    // A worktree deleted has nothing left to serve; a repository deleted, nothing at all.
    const watch = setInterval(() => {
      if (!fs.existsSync(this.paths.repository)) this.stop(`its repository ${this.paths.repository} no longer exists`);
      else this.sessions.dropGone();
    }, 5_000);
    watch.unref();
    this.socket.on('connection', (conn: net.Socket) => this.connected(conn));
    this.socket.on('error', (e) => this.stop(`socket error: ${e.message}`));
    if (process.platform !== 'win32') fs.rmSync(this.paths.socket, { force: true }); // ours: we hold the lock
    await new Promise<void>((resolve) => this.socket.listen(this.paths.socket, resolve));
    if (process.platform !== 'win32') fs.chmodSync(this.paths.socket, 0o600);
    this.touch();
    this.log(`listening on ${this.paths.socket} for the worktrees of ${this.paths.repository}`);
    this.waiting();
    await this.stopped;
    this.computing();
    await this.queue;
    return EXIT.OK;
  }

  /** Warms the starting worktree's session; false when it cannot build. */
  private warm(): boolean {
    const { opts, paths } = this;
    try {
      const t0 = performance.now();
      const session = this.sessions.get(paths.root, opts.extractOnly, opts.listExternal, opts.backend);
      if (!session) throw new Error(`${paths.root} is not a worktree of ${paths.repository}`);
      const warmed = session.warm();
      // The graph on disk, read now rather than by the first build (ADR 135): its stamps and texts
      // known, and — when it holds what the warm build made — examined, so the doctor judges the
      // first build's candidate by difference. Both are what that build would do, done earlier.
      const onDisk = this.sessions.generations.read(opts.out);
      const examined = onDisk.graphText !== undefined && onDisk.graphText === warmed.text;
      if (examined) this.sessions.generations.doctor(opts.out).examine(onDisk.graphText as string);
      // And one incremental rebuild, which finds nothing changed and writes nothing: the warm build
      // was a full one, and the incremental route's own code and state are readied here, not in the
      // first build a client waits for (on Babylon.js's core, about 0.2 s of it).
      session.rebuild({});
      const read =
        onDisk.graphText === undefined ? 'not there yet' : examined ? 'read and examined' : 'read (not what the warm build made)';
      this.log(`warm for ${paths.root} in ${Math.round(performance.now() - t0)} ms; ${opts.out} ${read}`);
      return true;
    } catch (e) {
      this.log(`cannot build ${paths.root}: ${(e as Error).message}`);
      return false;
    }
  }

  private stop(why: string): void {
    if (this.hasStopped) return;
    this.hasStopped = true;
    this.log(`stopping: ${why}`);
    if (this.socket.listening) this.socket.close();
    this.cleanUp();
    this.sessions.dropAll();
    this.stopping?.();
  }

  // Told to stop while it warms or builds (synchronous work, seconds to minutes), a handler would
  // run only once that work is done: `kg server stop` gave up after 10 s. So the signal is handled
  // only while the server waits; while it computes, the signal's default ends it at once, which
  // is safe: builds write by rename and their lock outlives no process (ADR 92).
  private waiting(): void {
    if (!this.hasStopped) this.unlisten ??= this.ctx.onStop(() => this.stop('asked to stop'));
  }

  private computing(): void {
    this.unlisten?.();
    this.unlisten = undefined;
  }

  private touch(): void {
    if (this.idle) clearTimeout(this.idle);
    // Over the memory budget, a server waits less before giving its memory back (ADR 78).
    const ms = this.overBudget ? Math.min(this.opts.idleMs, HIGH_MEMORY_IDLE_MS) : this.opts.idleMs;
    this.idle = setTimeout(() => this.stop(`idle for ${Math.round(ms / 1000)} s`), ms);
    this.idle.unref();
  }

  /** What the server holds, judged after a collection (ADR 125); resident memory only says whether to look. */
  private releaseIfOverBudget(): void {
    this.held = process.memoryUsage().rss > this.budget ? heldBytes() : 0;
    this.overBudget = this.held > this.budget;
    if (!this.overBudget || this.sessions.size === 0) return;
    this.sessions.dropAll(); // the next build is cold, and the same bytes
    this.log(
      `released its programs: ${Math.round(this.held / 1048576)} MB held after a collection, over the ${Math.round(this.budget / 1048576)} MB budget (KG_SERVER_MAX_MB)`,
    );
  }

  private connected(conn: net.Socket): void {
    this.touch();
    conn.setEncoding('utf8');
    const client = { closed: false };
    // A client never half-closes while it waits for its answer: its end is its going away.
    conn.on('end', () => (client.closed = true));
    conn.on('close', () => (client.closed = true));
    conn.on('error', () => (client.closed = true));
    const send = (m: BuildReply) => {
      if (!client.closed) conn.write(JSON.stringify(m) + '\n');
    };
    const refuse = (refusal: string) => {
      this.log(`refused a connection: ${refusal}`);
      if (!client.closed) conn.end(JSON.stringify({ type: 'refused', reason: refusal } satisfies BuildReply) + '\n', () => conn.destroy());
      client.closed = true;
    };
    readRequestLine(conn, refuse, (line) => this.request(conn, client, send, line));
  }

  private request(conn: net.Socket, client: { closed: boolean }, send: (m: BuildReply) => void, line: string): void {
    const request = parseBuildRequest(line);
    if ('refused' in request) {
      send({ type: 'refused', reason: request.refused });
      conn.end();
      return;
    }
    const { argv, cwd } = request;
    if (this.pending > 0 && argv.includes('--no-wait')) {
      // Builds here queue one behind another; --no-wait must not wait, so the client builds
      // itself, where the graph's lock answers at once (refuses while this server writes it).
      send({ type: 'refused', reason: 'busy with another build' });
      conn.end();
      return;
    }
    if (this.pending > 0) {
      // Two builds at once: this one waits, and says so, as it would for the graph's lock.
      const message = 'the build server is busy with another build; waiting for it to finish';
      const json = argv.some((a, i) => a === '--progress=json' || (a === '--progress' && argv[i + 1] === 'json'));
      send({ type: 'stderr', text: json ? buildEventLine({ event: 'log', level: 'info', message }) : `kg: ${message}\n` });
    }
    this.pending++;
    this.queue = this.queue.then(() => this.build(conn, client, send, argv, cwd)).finally(() => this.pending--);
  }

  private async build(
    conn: net.Socket,
    client: { closed: boolean },
    send: (m: BuildReply) => void,
    argv: string[],
    cwd: string,
  ): Promise<void> {
    if (client.closed) {
      this.log(`build ${argv.join(' ')} skipped: client gone before it started`);
      return;
    }
    if (this.hasStopped) {
      // Stopping: a build that waited is not started; its client hears the hang-up and builds itself.
      this.log(`build ${argv.join(' ')} not started: the server is stopping`);
      conn.destroy();
      return;
    }
    this.computing();
    const t0 = performance.now();
    const clientIo: CliIo = {
      stdout: { write: (s: string) => send({ type: 'stdout', text: s }) },
      stderr: { write: (s: string) => send({ type: 'stderr', text: s }) },
      cwd,
    };
    const sessions = this.sessions;
    const code = await this.run(argv, clientIo, {
      session: (root, extractOnly, listExternal, backend) => sessions.get(root, extractOnly, listExternal, backend),
      fresh: (root, extractOnly, listExternal, backend) => sessions.fresh(root, extractOnly, listExternal, backend),
      cancelled: () => client.closed,
      by: `the build server (pid ${this.ctx.pid})`,
      generations: sessions.generations,
    }).catch((e: unknown) => {
      send({ type: 'stderr', text: `kg: internal error: ${(e as Error)?.stack ?? String(e)}\n` });
      return EXIT.FAILED;
    });
    // Logged before the client hears the exit: whoever reads the log once the build has
    // answered finds it there (the log is a file, written synchronously).
    this.log(
      `build ${argv.join(' ')} in ${cwd} → exit ${code}${client.closed ? ' (client gone)' : ''} in ${Math.round(performance.now() - t0)} ms`,
    );
    send({ type: 'exit', code });
    conn.end();
    this.releaseIfOverBudget();
    this.touch();
    this.waiting();
  }
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
