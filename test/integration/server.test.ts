// The build server (ADR 57), driven the way a user meets it: the real `kg` command (dist/cli.js)
// in real processes, over real files and a real Unix socket. What must hold: a build on the
// server writes the bytes a full build gives; a client that goes away cancels before anything is
// written; a server that vanishes, or a stale socket, never costs the user a build; CI and
// KG_SERVER=off start nothing; an idle server leaves nothing behind. Every test stops what it
// started.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { acquireBuildLock, buildGraph, processAlive, serializeGraph } from '../../src/graph';
import { corpus } from '../../bench/corpus';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { BUILD_SERVER_PROTOCOL } from '../../src/protocol/build-server';

const TREE = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
  'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
  'src/b.ts': "import { a } from './a';\nexport function b(): number {\n  return a();\n}\n",
};

const started: ChildProcess[] = [];
const serverDirs: string[] = [];

function env(dir: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, KG_SERVER: 'on', KG_SERVER_DIR: dir };
  delete e.CI;
  Object.assign(e, extra);
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete e[k];
  return e;
}

function kg(args: string[], cwd: string, e: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env: e, encoding: 'utf8', maxBuffer: 1 << 26 });
}

/** The same, without blocking this process (which may be playing a server itself). */
function kgAsync(
  args: string[],
  cwd: string,
  e: NodeJS.ProcessEnv,
  live?: { stderr: string },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: e });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => {
      stderr += String(d);
      if (live) live.stderr = stderr;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface Status {
  running: boolean;
  pid?: number;
  socket: string;
  log: string;
  off?: string;
}

function status(root: string, e: NodeJS.ProcessEnv): Status {
  const r = kg(['server', 'status', '--root', root], root, e);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Status;
}

async function until(what: string, test: () => boolean, ms = 60_000, detail = () => ''): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}\n${detail()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Exited and not yet reaped (a zombie, where nothing reaps orphans) is not alive: the server is gone (ADR 92).
const alive = (pid: number) => processAlive(pid);

/** `kg server run` in the foreground, as a child of this test, with its log (stderr) collected. */
function runServer(root: string, e: NodeJS.ProcessEnv, idleSeconds: number) {
  const child = spawn(process.execPath, [CLI, 'server', 'run', '--root', root, '--idle-timeout', String(idleSeconds)], {
    cwd: root,
    env: e,
  });
  started.push(child);
  let log = '';
  child.stderr.on('data', (d) => (log += String(d)));
  return {
    child,
    log: () => log,
    listening: () =>
      until(
        'the server to listen',
        () => /listening on/.test(log),
        60_000,
        () => log,
      ),
    exited: () => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('close', resolve))),
  };
}

/** A private socket folder for one test, and a repository with a graph built in-process. */
function setUp(): { root: string; dir: string; graphFile: string } {
  const root = tempDir();
  const dir = tempDir('kg-servers-');
  serverDirs.push(dir);
  writeTree(root, TREE);
  return { root, dir, graphFile: path.join(root, '.knowledge-graph', 'graph.json') };
}

const fullBuildText = (root: string) => serializeGraph(buildGraph({ root }).graph);

describe('the build server', { timeout: 600_000 }, () => {
  after(async () => {
    for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
    for (const dir of serverDirs) {
      for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
        if (!f.endsWith('.lock')) continue;
        const pid = Number((JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { pid: number }).pid);
        if (pid !== process.pid && alive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
    removeTempDirs();
  });

  it('starts after a build, runs later builds warm with the bytes of a full build, and stops', async () => {
    const { root, dir, graphFile } = setUp();
    const e = env(dir);
    const first = kg(['build', '--apply'], root, e);
    assert.equal(first.status, 0, first.stderr);
    assert.doesNotMatch(first.stderr, /built by the build server/, 'no server yet: the first build is this process’s');
    await until('the server to listen', () => status(root, e).running && fs.existsSync(status(root, e).socket));
    const { pid, socket } = status(root, e);
    assert.ok(pid && alive(pid));
    // Started with the server's own Node flags (a larger young generation, ADR 132).
    if (process.platform === 'linux')
      assert.ok(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--max-semi-space-size=64'));
    assert.equal(fs.statSync(socket).mode & 0o777, 0o600, 'only this user may talk to the server');
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    // Warm, it read the graph the first build wrote and examined it, before any client asked (ADR 135).
    const serverLog = fs.readFileSync(path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith('.log')) as string), 'utf8');
    assert.match(serverLog, new RegExp(`warm for .* in \\d+ ms; ${graphFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} read and examined`));

    writeTree(root, { 'src/a.ts': 'export function a(): number {\n  return 2;\n}\nexport function c(): number {\n  return a();\n}\n' });
    const second = kg(['build', '--apply'], root, e);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`built by the build server \\(pid ${pid}\\)`));
    assert.match(second.stderr, /incremental build: 1 changed/);
    assert.match(second.stdout, /^kg: wrote .knowledge-graph\/graph\.json: /);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), fullBuildText(root), 'the server wrote what a full build gives');

    // A dry run through the server prints the graph itself on stdout.
    const dry = kg(['build'], root, e);
    assert.equal(dry.status, 0, dry.stderr);
    assert.equal(dry.stdout, fullBuildText(root));

    // Machine-readable progress passes through unchanged: every stderr line is one JSON event.
    writeTree(root, { 'src/b.ts': "import { c } from './a';\nexport function b(): number {\n  return c();\n}\n" });
    const json = kg(['build', '--apply', '--progress', 'json'], root, e);
    assert.equal(json.status, 0, json.stderr);
    const events = json.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; message?: string });
    assert.ok(events.some((ev) => ev.event === 'done'));
    assert.ok(events.some((ev) => ev.event === 'log' && /built by the build server/.test(ev.message ?? '')));
    assert.equal(fs.readFileSync(graphFile, 'utf8'), fullBuildText(root));

    // An error on the server is the client's error, with the same exit code as here.
    const bad = kg(['build', '--apply', '--out', path.join(root, 'src', 'a.ts', 'graph.json')], root, e);
    const here = kg(['build', '--apply', '--no-server', '--out', path.join(root, 'src', 'a.ts', 'graph.json')], root, e);
    assert.equal(bad.status, here.status);
    assert.notEqual(bad.status, 0);

    const stop = kg(['server', 'stop', '--root', root], root, e);
    assert.equal(stop.status, 0, stop.stderr);
    assert.match(stop.stderr, new RegExp(`stopped the build server \\(pid ${pid}\\)`));
    assert.ok(!alive(pid));
    assert.ok(!fs.existsSync(socket), 'the socket is removed');
    assert.equal(status(root, e).running, false);
  });

  it('keeps a native session warm: TypeScript 7 in its own process, updated with each change, ended with the server (ADR 115)', async () => {
    const { root, dir, graphFile } = setUp();
    // A project TypeScript 7 can serve: written for it, no option it removed (ADR 114).
    writeTree(root, {
      'package.json': '{ "name": "native-session", "private": true, "devDependencies": { "typescript": "^7.0.0" } }\n',
      'tsconfig.json':
        '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler" }, "include": ["src"] }\n',
    });
    const e = env(dir);
    const first = kg(['build', '--apply', '--checker', 'native'], root, e);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stderr, /calls proven by the native checker \(TypeScript 7\.1\.[^)]*\) in all 1 project/);
    await until('the server to listen', () => status(root, e).running && fs.existsSync(status(root, e).socket));
    const { pid } = status(root, e);
    for (const [i, text] of [
      'export function a(): number {\n  return 2;\n}\nexport function c(): number {\n  return a();\n}\n',
      'export function a(): number {\n  return c();\n}\nexport function c(): number {\n  return 3;\n}\n',
    ].entries()) {
      writeTree(root, { 'src/a.ts': text });
      const r = kg(['build', '--apply', '--checker', 'native'], root, e);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`built by the build server \\(pid ${pid}\\)`), `rebuild ${i + 1}`);
      assert.match(r.stderr, /incremental build: 1 changed/);
      assert.match(r.stderr, /calls proven by the native checker \(TypeScript 7\.1\.[^)]*\) in all 1 project/);
      assert.equal(fs.readFileSync(graphFile, 'utf8'), fullBuildText(root), `rebuild ${i + 1} wrote what a full JavaScript build gives`);
    }
    const checkers = () =>
      fs
        .readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .filter((d) => {
          try {
            return fs
              .readFileSync(`/proc/${d}/cmdline`, 'utf8')
              .split('\0')
              .join(' ')
              .includes(`--api --cwd ${fs.realpathSync(root)}`);
          } catch {
            return false;
          }
        });
    assert.ok(checkers().length > 0, "the server's native session holds a TypeScript 7 process");
    assert.equal(kg(['server', 'stop', '--root', root], root, e).status, 0);
    await until('the native checker to end with the server', () => checkers().length === 0, 20_000);
  });

  it('cancels a build whose client went away, before anything is written', async () => {
    const { root, dir, graphFile } = setUp();
    const e = env(dir);
    assert.equal(kg(['build', '--apply', '--no-server'], root, e).status, 0);
    const before = fs.readFileSync(graphFile, 'utf8');
    const server = runServer(root, e, 60);
    await server.listening();
    const { socket } = status(root, e);

    writeTree(root, { 'src/a.ts': 'export function a(): number {\n  return 3;\n}\n' });
    const conn = net.connect(socket);
    await new Promise<void>((resolve) => conn.on('connect', resolve));
    conn.end(JSON.stringify({ kg: BUILD_SERVER_PROTOCOL, argv: ['--apply'], cwd: root }) + '\n'); // ask, and hang up
    await until('the server to drop the build', () => /client gone/.test(server.log()), 60_000, server.log);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), before, 'nothing was written for a client that left');

    // The server is still there, and the next client's build goes through.
    const next = kg(['build', '--apply'], root, e);
    assert.equal(next.status, 0, next.stderr);
    assert.match(next.stderr, /built by the build server/);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), fullBuildText(root));
    server.child.kill('SIGTERM');
    await server.exited();
    assert.ok(!fs.existsSync(socket), 'a stopped server removes its socket');
  });

  it('builds in the client when the server hangs up mid-build, or only a stale socket is left', async () => {
    const { root, dir, graphFile } = setUp();
    const e = env(dir);
    const { socket } = status(root, e);
    const lockFile = socket.replace(/\.sock$/, '.lock');
    const holder = (pid: number) => JSON.stringify({ pid, hostname: os.hostname(), token: `t${pid}`, started: new Date().toISOString() });

    // A "server" that starts answering and then vanishes. A stand-in process that looks like a
    // server (its command line says "server run") holds the lock file, so the client does not
    // start a real one afterwards.
    const standIn = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'server', 'run'], { stdio: 'ignore' });
    started.push(standIn);
    fs.writeFileSync(lockFile, holder(standIn.pid as number));
    const fake = net.createServer((c) => {
      c.once('data', () => {
        c.write(JSON.stringify({ type: 'stderr', text: 'kg: discovered 2 source files in 1 project\n' }) + '\n');
        setTimeout(() => c.destroy(), 20);
      });
    });
    await new Promise<void>((resolve) => fake.listen(socket, resolve));
    const r = await kgAsync(['build', '--apply'], root, e);
    await new Promise((resolve) => fake.close(resolve));
    standIn.kill('SIGKILL');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /the build server stopped during this build; building here instead/);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), fullBuildText(root));

    // A socket file nobody listens on, and a lock file of a process that is gone.
    fs.writeFileSync(socket, '');
    fs.writeFileSync(lockFile, holder(999999999));
    writeTree(root, { 'src/a.ts': 'export function a(): number {\n  return 4;\n}\n' });
    const t0 = Date.now();
    const stale = kg(['build', '--apply'], root, e);
    assert.equal(stale.status, 0, stale.stderr);
    assert.ok(Date.now() - t0 < 30_000);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), fullBuildText(root));
    // …and the build started a fresh server, which took over the stale files (it removes the stale
    // socket as soon as it holds the lock, and listens once warm: no socket in between).
    await until('a fresh server', () => status(root, e).running && fs.existsSync(socket) && fs.statSync(socket).isSocket());
    const pid = status(root, e).pid as number;
    assert.notEqual(pid, 999999999);
    assert.equal(kg(['server', 'stop', '--root', root], root, e).status, 0);
    assert.ok(!alive(pid));
  });

  it('stops at once when told to while it warms or builds: kg server stop never waits out its work (ADR 92)', async () => {
    // rxjs: warming its programs and building it take seconds, the window a stop used to wait out.
    const root = corpus('rxjs', path.join(tempDir(), 'rxjs')).root;
    const dir = tempDir('kg-servers-');
    serverDirs.push(dir);
    const e = env(dir);
    const { socket } = status(root, e);
    const lockFile = socket.replace(/\.sock$/, '.lock');
    const holds = (pid: number) => fs.existsSync(lockFile) && fs.readFileSync(lockFile, 'utf8').includes(`"pid":${pid}`);

    // 1. While it warms: the lock is taken, the socket not yet there.
    const warming = runServer(root, e, 600);
    const pid = warming.child.pid as number;
    await until('the server to take its lock', () => holds(pid), 60_000, warming.log);
    assert.ok(!/warm for/.test(warming.log()), 'the stop comes while the server warms');
    const stop = kg(['server', 'stop', '--root', root], root, e);
    assert.equal(stop.status, 0, stop.stderr);
    assert.match(stop.stderr, new RegExp(`stopped the build server \\(pid ${pid}\\)`));
    assert.ok(!/warm for/.test(warming.log()), `it stopped without finishing its warm-up: ${warming.log()}`);
    await warming.exited();
    assert.equal(status(root, e).running, false, 'no server is left');

    // 2. While it builds: the build stops with it, and its client builds by itself instead.
    const serving = runServer(root, e, 600);
    // Warming rxjs takes seconds on an idle machine, minutes on a crowded one.
    await until('the server to listen', () => /listening on/.test(serving.log()), 300_000, serving.log);
    const live = { stderr: '' };
    const build = kgAsync(['build', '--apply', '--full'], root, e, live);
    await until(
      'the server to be building',
      () => /discovered \d+ source files/.test(live.stderr),
      300_000,
      () => live.stderr,
    );
    const during = kg(['server', 'stop', '--root', root], root, e);
    assert.equal(during.status, 0, during.stderr);
    assert.match(during.stderr, /stopped the build server/);
    const r = await build;
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /the build server stopped during this build; building here instead/);
    const doctor = kg(['doctor', '--graph', path.join(root, '.knowledge-graph', 'graph.json')], root, e);
    assert.equal(doctor.status, 0, doctor.stdout + doctor.stderr);
    // The client may have started a fresh server after building: that one stops too.
    assert.equal(kg(['server', 'stop', '--root', root], root, e).status, 0);
  });

  it('starts nothing in CI, with KG_SERVER=off or with --no-server', async () => {
    for (const [label, e, args] of [
      ['CI', (dir: string) => env(dir, { KG_SERVER: undefined, CI: 'true' }), []],
      ['KG_SERVER=off', (dir: string) => env(dir, { KG_SERVER: 'off' }), []],
      ['--no-server', (dir: string) => env(dir), ['--no-server']],
    ] as const) {
      const { root, dir } = setUp();
      const r = kg(['build', '--apply', ...args], root, e(dir));
      assert.equal(r.status, 0, `${label}: ${r.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(status(root, e(dir)).running, false, label);
      assert.deepEqual(
        fs.readdirSync(dir).filter((f) => !f.endsWith('.log')),
        [],
        `${label}: no lock file, no socket`,
      );
    }
    const { root, dir } = setUp();
    assert.equal(status(root, env(dir, { KG_SERVER: undefined, CI: 'true' })).off, 'CI is set');
  });

  it('exits after its idle timeout and leaves no socket or lock file', async () => {
    const { root, dir } = setUp();
    const e = env(dir);
    const server = runServer(root, e, 1);
    const code = await server.exited();
    assert.equal(code, 0, server.log());
    assert.match(server.log(), /listening on/);
    assert.match(server.log(), /stopping: idle for 1 s/);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('queues a second build behind a busy one, says so, and never queues --no-wait', async () => {
    const { root, dir, graphFile } = setUp();
    const e = env(dir);
    assert.equal(kg(['build', '--apply', '--no-server'], root, e).status, 0);
    const server = runServer(root, e, 60);
    await server.listening();
    // This test holds the graph's lock, so the server's build for client A waits for it.
    const lock = await acquireBuildLock(graphFile, { wait: false });
    const liveA = { stderr: '' };
    const a = kgAsync(['build', '--apply'], root, e, liveA);
    await until(
      'the server to wait for the lock',
      () => /waiting for it to finish/.test(liveA.stderr),
      60_000,
      () => liveA.stderr,
    );
    // A second client without --no-wait is told it waits, and then builds after A.
    const liveC = { stderr: '' };
    const c = kgAsync(['build', '--apply'], root, e, liveC);
    await until(
      'the second client to be told it waits',
      () => /build server is busy with another build; waiting/.test(liveC.stderr),
      60_000,
      () => liveC.stderr,
    );
    const b = await kgAsync(['build', '--apply', '--no-wait'], root, e);
    assert.equal(b.status, 1, b.stderr);
    assert.match(b.stderr, /another build is writing|is being written/);
    assert.doesNotMatch(b.stderr, /built by the build server/);
    lock.release();
    const doneA = await a;
    assert.equal(doneA.status, 0, doneA.stderr);
    assert.match(doneA.stderr, /built by the build server/);
    const doneC = await c;
    assert.equal(doneC.status, 0, doneC.stderr);
    assert.match(doneC.stderr, /built by the build server/);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), fullBuildText(root));
    server.child.kill('SIGTERM');
    await server.exited();
  });

  it('refuses a second server for the same repository', async () => {
    const { root, dir } = setUp();
    const e = env(dir);
    const one = runServer(root, e, 60);
    await one.listening();
    const two = kg(['server', 'run', '--root', root], root, e);
    assert.equal(two.status, 0);
    assert.match(two.stderr, new RegExp(`already running \\(pid ${one.child.pid}\\)`));
    one.child.kill('SIGTERM');
    await one.exited();
  });
});
