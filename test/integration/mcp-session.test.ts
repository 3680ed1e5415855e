// What `kg mcp` leaves behind and what it offers first, driven by the MCP SDK's own Client over
// stdio against the built dist/cli.js (issue 48): the build server a session's build started ends
// with the session, one that ran before it is left alone; the default listing is one entry point
// (explore_code), check and build, under 8,000 characters with every sentence said once, and
// each of the entry point's questions is answered as the single-purpose tool of its name answers
// it (ADR 164).

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { git } from '../helpers/diff-repo';
import { CLI, copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

/** A build server may run (KG_SERVER=on overrides CI), in a folder of this test's own. */
function serverEnv(): Record<string, string> {
  const dir = tempDir('kg-mcp-servers-');
  fs.chmodSync(dir, 0o700);
  return { ...(process.env as Record<string, string>), KG_SERVER: 'on', KG_SERVER_DIR: dir };
}

function kg(args: string[], cwd: string, env: Record<string, string>) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const serverRunning = (root: string, env: Record<string, string>): boolean =>
  (JSON.parse(kg(['server', 'status', '--root', root], root, env).stdout) as { running: boolean }).running;

async function until(what: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (what()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return what();
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function session(root: string, env: Record<string, string>, args: string[] = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], cwd: root, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'kg-session-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid as number, stderr: () => stderr };
}

const built = (r: CallToolResult) => {
  assert.notEqual(r.isError, true, JSON.stringify(r.content).slice(0, 500));
  return (r.structuredContent as { built: boolean }).built;
};

describe('kg mcp: the build server of a session', () => {
  const envs: Array<[string, Record<string, string>]> = [];
  after(() => {
    for (const [root, env] of envs) kg(['server', 'stop', '--all'], root, env);
    removeTempDirs();
  });

  it("a build server the session's build started ends when the client closes the session", async () => {
    const root = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(root, '.git'));
    const env = serverEnv();
    envs.push([root, env]);
    assert.equal(serverRunning(root, env), false, 'no server before the session');
    const s = await session(root, env);
    assert.equal(built((await s.client.callTool({ name: 'build', arguments: {} })) as CallToolResult), true);
    assert.ok(await until(() => serverRunning(root, env), 20_000), 'the build started a build server');
    await s.client.close();
    assert.ok(await until(() => !alive(s.pid), 10_000), 'kg mcp exited');
    assert.ok(await until(() => !serverRunning(root, env), 10_000), `the build server ended with the session: ${s.stderr()}`);
  });

  it('a build server the session started is left running when another worktree of the repository built in it since (ADR 187)', async () => {
    const home = tempDir('kg-mcp-worktrees-');
    const main = path.join(home, 'main');
    const second = path.join(home, 'second');
    fs.mkdirSync(main);
    git(main, 'init', '-q', '-b', 'main');
    writeTree(main, {
      '.gitignore': '.knowledge-graph/\n',
      'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
      'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      'src/app.ts': "import { add } from './math';\nexport const two = add(1, 1);\n",
    });
    git(main, 'add', '-A');
    git(main, 'commit', '-q', '-m', 'base');
    // The second worktree holds another commit: one of the same content starts from the graph cache without a server.
    git(main, 'checkout', '-q', '-b', 'feature');
    writeTree(main, { 'src/app.ts': "import { add } from './math';\nexport const four = add(2, 2);\n" });
    git(main, 'commit', '-q', '-am', 'feature');
    git(main, 'checkout', '-q', 'main');
    git(main, 'worktree', 'add', '-q', second, 'feature');
    const env = serverEnv();
    envs.push([main, env]);
    const status = (root: string) =>
      JSON.parse(kg(['server', 'status', '--root', root], root, env).stdout) as { worktrees?: string[]; socket: string };
    const worktrees = (root: string) => status(root).worktrees ?? [];
    const s = await session(main, env);
    try {
      assert.equal(built((await s.client.callTool({ name: 'build', arguments: {} })) as CallToolResult), true);
      assert.ok(await until(() => serverRunning(main, env), 20_000), 'the build started a build server');
      // Listening once warm: a build before that builds itself.
      assert.ok(await until(() => fs.existsSync(status(main).socket), 20_000), 'the server listens');
      assert.ok(
        await until(() => worktrees(main).length === 1, 20_000),
        `the server names the worktree it holds: ${JSON.stringify(worktrees(main))}`,
      );
      const other = kg(['build', '--apply'], second, env);
      assert.equal(other.code, 0, other.stderr);
      assert.deepEqual(worktrees(second), [fs.realpathSync(main), fs.realpathSync(second)].sort(), 'one server holds both worktrees');
    } finally {
      await s.client.close();
    }
    assert.ok(await until(() => !alive(s.pid), 10_000), 'kg mcp exited');
    assert.equal(serverRunning(main, env), true, `the server another worktree uses still runs: ${s.stderr()}`);
    assert.match(s.stderr(), /left the build server \(pid \d+\) running: it also serves .*second/);
  });

  it('a build server that ran before the session is left running', async () => {
    const root = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(root, '.git'));
    const env = serverEnv();
    envs.push([root, env]);
    assert.equal(kg(['build', '--apply'], root, env).code, 0);
    assert.ok(await until(() => serverRunning(root, env), 20_000), 'kg build started a build server');
    const s = await session(root, env);
    assert.equal(built((await s.client.callTool({ name: 'build', arguments: {} })) as CallToolResult), true);
    await s.client.close();
    assert.ok(await until(() => !alive(s.pid), 10_000), 'kg mcp exited');
    assert.equal(serverRunning(root, env), true, 'the user’s build server still runs');
  });
});

/** Every description and title of a listing, split into sentences. */
function sentences(tools: Tool[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key = ''): void => {
    if (typeof v === 'string' && (key === 'description' || key === 'title')) out.push(...v.split(/(?<=[.!?])\s+|\n+/));
    else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(tools);
  return out.map((x) => x.trim()).filter((x) => x.length > 20);
}

describe('kg mcp: one entry point by default, every tool behind an option (ADR 164)', () => {
  const env = { ...(process.env as Record<string, string>), KG_SERVER: 'off' };
  let root: string;
  after(removeTempDirs);

  const list = async (args: string[]) => {
    const s = await session(root, env, args);
    try {
      return (await s.client.listTools()).tools;
    } finally {
      await s.client.close();
    }
  };
  const hasScope = (t: Tool) => Object.hasOwn((t.inputSchema.properties ?? {}) as object, 'scope');

  it('lists explore_code, check and build in under 8,000 characters, each sentence once, scope only with a store', async () => {
    root = copyFixture('guard-consumers');
    fs.mkdirSync(path.join(root, '.git'));
    assert.equal(kg(['build', '--apply'], root, env).code, 0);
    const tools = await list([]);
    assert.deepEqual(
      tools.map((t) => t.name),
      ['explore_code', 'check', 'build'],
    );
    const size = JSON.stringify({ tools }).length;
    assert.ok(size <= 8000, `tools/list is ${size} characters`);
    const said = sentences(tools);
    assert.deepEqual(
      said.filter((x, i) => said.indexOf(x) !== i),
      [],
      'no sentence said twice',
    );
    assert.equal(tools.filter(hasScope).length, 0, 'no store: no scope');
    const stored = await list(['--store', 'postgres://nobody@127.0.0.1:1/none']);
    assert.ok(JSON.stringify({ tools: stored }).length <= 8000);
    assert.deepEqual(
      stored.filter(hasScope).map((t) => t.name),
      ['explore_code'],
    );
    const all = await list(['--all-tools']);
    assert.deepEqual(
      all.map((t) => t.name),
      [
        'explore_code',
        'symbol',
        'callers',
        'affected',
        'impact',
        'neighbors',
        'path',
        'god-nodes',
        'find',
        'why',
        'unused',
        'check',
        'build',
      ],
    );
    assert.equal(all.filter(hasScope).length, 0);
    const byEnv = await session(root, { ...env, KG_MCP_TOOLS: 'all' });
    assert.equal((await byEnv.client.listTools()).tools.length, all.length, 'KG_MCP_TOOLS=all lists them too');
    await byEnv.client.close();
  });

  it('each ask is answered as the single-purpose tool of its name answers it', async () => {
    const s = await session(root, env, ['--all-tools']);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await s.client.callTool({ name, arguments: args })) as CallToolResult;
        assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content).slice(0, 300)}`);
        const { more: _more, resolved, ...rest } = r.structuredContent as Record<string, unknown>;
        return { rest, resolved: Object.values((resolved ?? {}) as object) };
      };
      const cases: Array<[Record<string, unknown>, string, Record<string, unknown>]> = [
        [{ ask: 'symbol', target: 'add' }, 'symbol', { id: 'add' }],
        [{ ask: 'callers', target: 'add', limit: 1 }, 'callers', { id: 'add', limit: 1 }],
        [{ ask: 'callers', target: 'add', offset: 1 }, 'callers', { id: 'add', offset: 1 }],
        [{ ask: 'impact', target: 'Shape.area' }, 'impact', { id: 'Shape.area' }],
        [{ ask: 'path', target: 'run', to: 'add' }, 'path', { from: 'run', to: 'add' }],
        [{ ask: 'find', target: 'lib' }, 'find', { text: 'lib' }],
        [{ ask: 'why', target: 'src/lib.ts:1' }, 'why', { id: 'src/lib.ts:1' }],
      ];
      for (const [asked, tool, args] of cases) {
        const mine = await call('explore_code', asked);
        const theirs = await call(tool, args);
        assert.deepEqual(mine, theirs, `${JSON.stringify(asked)} = ${tool} ${JSON.stringify(args)}`);
      }
      // The answer is not empty: add has two proven callers in the fixture (run in app.ts, total in lib.ts).
      assert.deepEqual((await call('explore_code', { ask: 'callers', target: 'add' })).rest.callers, [
        'sym:src/app.ts#run',
        'sym:src/lib.ts#total',
      ]);
    } finally {
      await s.client.close();
    }
  });
});
