// src/host/cli-build.ts: what the editor's build command runs, driven here with the real bundled
// CLI in a real child process over real files.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { runCliBuild, type CliEvent } from '../../src/host/cli-build';
import { spawnSync } from 'node:child_process';
import { buildGraph, serializeGraph } from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';
import { buildProcessesOf } from '../helpers/processes';

describe('runCliBuild (the editor build in a child process)', () => {
  after(removeTempDirs);

  it('builds and returns the summary the done event reports', async () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': 'export function a() {}\n', 'src/b.ts': 'export class B {}\n', 'bin.ts': new Uint8Array([0]) });
    const out = path.join(root, '.knowledge-graph', 'graph.json');
    const seen: CliEvent[] = [];
    const r = await runCliBuild({ cli: CLI, root, out, onEvent: (e) => seen.push(e) });
    assert.equal(r.kind, 'built', JSON.stringify(r));
    assert.ok(r.kind === 'built');
    const graph = JSON.parse(fs.readFileSync(out, 'utf8'));
    assertValidGraph(graph);
    // mod:src, file:src/a.ts, file:src/b.ts, sym a, sym B
    assert.equal(r.summary.nodes, 5);
    assert.equal(graph.nodes.length, 5);
    assert.equal(r.summary.edges, graph.edges.length);
    assert.deepEqual(r.summary.layers, graph.layers);
    assert.equal(r.summary.files, 2);
    assert.equal(r.summary.skipped, 1);
    assert.deepEqual(r.summary.skippedBy, { binary: 1 }, 'why, for the notification (issue 55)');
    assert.equal(r.summary.out, out);
    assert.ok(seen.some((e) => e.event === 'progress'));
  });

  it('a failed build returns the CLI error code and message; the previous graph stays', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;\n', 'tsconfig.json': '{ "compilerOptions": { "strict": true,, } }' });
    const out = path.join(root, 'graph.json');
    fs.writeFileSync(out, 'previous');
    const text: string[] = [];
    const r = await runCliBuild({ cli: CLI, root, out, onText: (l) => text.push(l) });
    assert.equal(r.kind, 'failed');
    assert.ok(r.kind === 'failed');
    assert.equal(r.code, 'TSCONFIG_UNPARSABLE');
    assert.deepEqual(text, [], 'the error is reported once, as the event, not again as text');
    assert.match(r.message, /tsconfig\.json:1:\d+: cannot parse/);
    assert.equal(fs.readFileSync(out, 'utf8'), 'previous');
  });

  it('cancel kills the child while it runs: no process is left and the previous graph stays', async () => {
    const root = tempDir();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 1500; i++)
      tree[`src/m${i}.ts`] = Array.from({ length: 30 }, (_, j) => `export function f${i}_${j}() {}\n`).join('');
    writeTree(root, tree);
    const out = path.join(root, '.knowledge-graph', 'graph.json');
    writeTree(root, { '.knowledge-graph/graph.json': 'previous' });
    const abort = new AbortController();
    let progressSeen = 0;
    const r = await runCliBuild({
      cli: CLI,
      root,
      out,
      signal: abort.signal,
      onEvent: (e) => {
        // the child has started extracting: cancel it there
        if (e.event === 'progress' && ++progressSeen === 1) abort.abort();
      },
    });
    assert.equal(progressSeen >= 1, true);
    assert.deepEqual(r, { kind: 'cancelled' });
    assert.equal(fs.readFileSync(out, 'utf8'), 'previous');
    assert.deepEqual(fs.readdirSync(path.dirname(out)), ['graph.json'], 'no temp file either');
    assert.deepEqual(buildProcessesOf(root), []);
  });

  it('an already aborted signal starts nothing', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;\n' });
    const abort = new AbortController();
    abort.abort();
    const r = await runCliBuild({ cli: CLI, root, out: path.join(root, 'g.json'), signal: abort.signal });
    assert.deepEqual(r, { kind: 'cancelled' });
    assert.ok(!fs.existsSync(path.join(root, 'g.json')));
  });

  it('a runtime that cannot start is a failure that names it', async () => {
    const root = tempDir();
    const r = await runCliBuild({ cli: CLI, root, out: path.join(root, 'g.json'), execPath: path.join(root, 'no-such-node') });
    assert.equal(r.kind, 'failed');
    assert.ok(r.kind === 'failed');
    assert.equal(r.code, 'SPAWN_FAILED');
    assert.match(r.message, /no-such-node/);
  });

  it('a crash without an error event is reported with the last line it printed', async () => {
    const root = tempDir();
    const fake = path.join(root, 'crash.js');
    fs.writeFileSync(fake, "process.stderr.write('kg: internal error: out of cheese\\n'); process.exit(1);\n");
    const r = await runCliBuild({ cli: fake, root, out: path.join(root, 'g.json') });
    assert.equal(r.kind, 'failed');
    assert.ok(r.kind === 'failed');
    assert.equal(r.code, 'CLI_FAILED');
    assert.match(r.message, /exited with code 1: internal error: out of cheese/);
  });

  it('a cancel that arrives after the graph was written reports the build, not a cancel', async () => {
    const root = tempDir();
    const fake = path.join(root, 'late.js');
    // Writes its graph and says done, then exits 0 on SIGTERM: the kill came too late to matter.
    fs.writeFileSync(
      fake,
      `const out = ${JSON.stringify(path.join(root, 'g.json'))};
require('fs').writeFileSync(out, 'new');
process.on('SIGTERM', () => process.exit(0));
process.stderr.write(JSON.stringify({ event: 'done', out, nodes: 1, edges: 0, layers: [], files: 1, skipped: 0 }) + '\\n');
setTimeout(() => {}, 10000);
`,
    );
    const abort = new AbortController();
    const r = await runCliBuild({
      cli: fake,
      root,
      out: path.join(root, 'g.json'),
      signal: abort.signal,
      onEvent: (e) => e.event === 'done' && abort.abort(),
    });
    assert.equal(r.kind, 'built', JSON.stringify(r));
    assert.equal(fs.readFileSync(path.join(root, 'g.json'), 'utf8'), 'new');
  });

  describe('on a warm build server (ADR 119)', () => {
    /** Builds may use a server, in a socket folder of this test's own. */
    const serverEnv = (dir: string): NodeJS.ProcessEnv => {
      const e: NodeJS.ProcessEnv = { ...process.env, KG_SERVER: 'on', KG_SERVER_DIR: dir };
      delete e.CI;
      return e;
    };
    const kg = (args: string[], root: string, env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [CLI, ...args], { cwd: root, env, encoding: 'utf8' });
    const serverStatus = (root: string, env: NodeJS.ProcessEnv) =>
      JSON.parse(kg(['server', 'status', '--root', root], root, env).stdout) as {
        running: boolean;
        pid?: number;
        socket: string;
        log: string;
      };
    const until = async (what: string, test: () => boolean, ms = 60_000) => {
      const t0 = Date.now();
      while (!test()) {
        if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const stops: Array<() => void> = [];
    after(() => stops.forEach((stop) => stop()));

    it('the first build runs in a child, which starts the server; later builds go to the server with no kg process, same bytes', async () => {
      const root = tempDir();
      const dir = tempDir('kg-servers-');
      const env = serverEnv(dir);
      stops.push(() => kg(['server', 'stop', '--root', root], root, env));
      writeTree(root, {
        'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
        'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
        'src/b.ts': "import { a } from './a';\nexport function b(): number {\n  return a();\n}\n",
      });
      const out = path.join(root, '.knowledge-graph', 'graph.json');
      const first = await runCliBuild({ cli: CLI, root, out, env });
      assert.equal(first.kind, 'built', JSON.stringify(first));
      assert.ok(first.kind === 'built');
      assert.equal(first.via, 'process', 'no server yet');
      await until(
        'the server the first build started',
        () => serverStatus(root, env).running && fs.existsSync(serverStatus(root, env).socket),
      );
      const { pid, log } = serverStatus(root, env);

      for (const [i, text] of [
        'export function a(): number {\n  return 2;\n}\nexport function c(): number {\n  return a();\n}\n',
        'export function a(): number {\n  return 3;\n}\n',
      ].entries()) {
        writeTree(root, { 'src/a.ts': text });
        const events: CliEvent[] = [];
        const r = await runCliBuild({ cli: CLI, root, out, env, onEvent: (e) => events.push(e) });
        assert.equal(r.kind, 'built', JSON.stringify(r));
        assert.ok(r.kind === 'built');
        assert.equal(r.via, 'server', `build ${i + 2}`);
        assert.ok(
          events.some((e) => e.event === 'log' && new RegExp(`built by the build server \\(pid ${pid}\\)`).test(e.message)),
          'the server says it built',
        );
        assert.deepEqual(
          buildProcessesOf(root).filter((p) => / build /.test(p)),
          [],
          'no kg build process',
        );
        assert.equal(fs.readFileSync(out, 'utf8'), serializeGraph(buildGraph({ root }).graph), `build ${i + 2}: the bytes of a full build`);
        assert.equal(r.summary.out, out);
        assert.equal(r.summary.nodes, JSON.parse(fs.readFileSync(out, 'utf8')).nodes.length);
      }
      // The server's log has the two builds it did, and the child's build was not one of them.
      assert.equal((fs.readFileSync(log, 'utf8').match(/→ exit 0/g) ?? []).length, 2);

      // A failure on the server is the same failure as in a child.
      writeTree(root, { 'tsconfig.json': '{ "compilerOptions": { "strict": true,, } }' });
      const failed = await runCliBuild({ cli: CLI, root, out, env });
      assert.equal(failed.kind, 'failed');
      assert.ok(failed.kind === 'failed');
      assert.equal(failed.code, 'TSCONFIG_UNPARSABLE');
      assert.match(fs.readFileSync(log, 'utf8'), /→ exit [1-9]/, 'the server ran the failed build');
    });

    it('a build asked for while the server the last build started still warms waits for it, and the server builds it (issue 55, item 3)', async () => {
      const root = tempDir();
      const dir = tempDir('kg-servers-');
      const env = serverEnv(dir);
      stops.push(() => kg(['server', 'stop', '--root', root], root, env));
      // Large enough that the server's warm-up (a full build) outlasts the checks below.
      const tree: Record<string, string> = {};
      for (let i = 0; i < 1500; i++)
        tree[`src/m${i}.ts`] = Array.from({ length: 30 }, (_, j) => `export function f${i}_${j}() {}\n`).join('');
      writeTree(root, tree);
      const out = path.join(root, '.knowledge-graph', 'graph.json');
      const first = await runCliBuild({ cli: CLI, root, out, env });
      assert.ok(first.kind === 'built' && first.via === 'process', JSON.stringify(first));
      await until('the server the first build started to hold its lock', () => serverStatus(root, env).running);
      const { socket, log } = serverStatus(root, env);
      assert.equal(fs.existsSync(socket), false, 'the server is still warming: it does not listen yet');
      // The first save after the first build.
      writeTree(root, { 'src/m0.ts': 'export function f0_0() {\n  return 1;\n}\n' });
      const events: CliEvent[] = [];
      const second = await runCliBuild({ cli: CLI, root, out, env, onEvent: (e) => events.push(e) });
      assert.ok(second.kind === 'built' && second.via === 'server', JSON.stringify(second));
      assert.ok(
        events.some((e) => e.event === 'log' && /^waiting for the build server \(pid \d+\) to finish warming$/.test(e.message)),
        'it said what it waited for',
      );
      assert.equal((fs.readFileSync(log, 'utf8').match(/→ exit 0/g) ?? []).length, 1, 'the server built it');
      assert.equal(fs.readFileSync(out, 'utf8'), serializeGraph(buildGraph({ root }).graph), 'the bytes of a full build');
    });

    it('cancel hangs up: the server drops the build before writing, the graph stays, the server serves the next', async () => {
      const root = tempDir();
      const dir = tempDir('kg-servers-');
      const env = serverEnv(dir);
      stops.push(() => kg(['server', 'stop', '--root', root], root, env));
      const tree: Record<string, string> = {};
      for (let i = 0; i < 1500; i++)
        tree[`src/m${i}.ts`] = Array.from({ length: 30 }, (_, j) => `export function f${i}_${j}() {}\n`).join('');
      writeTree(root, tree);
      const out = path.join(root, '.knowledge-graph', 'graph.json');
      assert.equal((await runCliBuild({ cli: CLI, root, out, env })).kind, 'built');
      await until('the server', () => serverStatus(root, env).running && fs.existsSync(serverStatus(root, env).socket));
      const { log } = serverStatus(root, env);
      const before = fs.readFileSync(out, 'utf8');
      const abort = new AbortController();
      const r = await runCliBuild({
        cli: CLI,
        root,
        out,
        env,
        full: true,
        signal: abort.signal,
        onEvent: (e) => e.event === 'progress' && abort.abort(),
      });
      assert.deepEqual(r, { kind: 'cancelled' });
      await until('the server to drop the build', () => /client gone/.test(fs.readFileSync(log, 'utf8')));
      assert.equal(fs.readFileSync(out, 'utf8'), before);
      assert.deepEqual(fs.readdirSync(path.dirname(out)).sort(), ['graph.json', 'graph.manifest.json'], 'no temp file');
      const next = await runCliBuild({ cli: CLI, root, out, env });
      assert.ok(next.kind === 'built' && next.via === 'server', JSON.stringify(next));
    });

    it('KG_SERVER=off, CI, or a socket folder others can enter: the build runs in a child', async () => {
      const root = tempDir();
      const dir = tempDir('kg-servers-');
      writeTree(root, { 'a.ts': 'export const a = 1;\n' });
      const out = path.join(root, 'g.json');
      const on = serverEnv(dir);
      stops.push(() => kg(['server', 'stop', '--root', root], root, on));
      assert.equal((await runCliBuild({ cli: CLI, root, out, env: on })).kind, 'built');
      await until('the server', () => serverStatus(root, on).running && fs.existsSync(serverStatus(root, on).socket));
      for (const env of [
        { ...on, KG_SERVER: 'off' },
        { ...on, KG_SERVER: undefined, CI: 'true' },
      ]) {
        const r = await runCliBuild({ cli: CLI, root, out, env });
        assert.ok(r.kind === 'built' && r.via === 'process', JSON.stringify(r));
      }
      fs.chmodSync(dir, 0o755);
      try {
        const r = await runCliBuild({ cli: CLI, root, out, env: on });
        assert.ok(r.kind === 'built' && r.via === 'process', JSON.stringify(r));
      } finally {
        fs.chmodSync(dir, 0o700);
      }
    });
  });
});
