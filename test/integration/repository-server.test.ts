// One build server per repository (ADR 187), driven the way a user meets it: real `kg` processes
// (dist/cli.js), a real git repository with two worktrees, a real Unix socket. What must hold: the
// first build in a second worktree is served by the server the first worktree started (no second
// server), starts from the repository's graph cache, and writes the bytes a full build of that
// worktree gives; each worktree keeps its own graph; a killed server costs a build nothing — the
// client builds itself, says so, and the graph stays whole. Every test stops what it started.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { processAlive } from '../../src/graph';
import { git } from '../helpers/diff-repo';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const TREE: Record<string, string> = {
  '.gitignore': '.knowledge-graph/\n',
  'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022" }, "include": ["src"] }\n',
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/shapes.ts': "import { add } from './math';\nexport function perimeter(s: number): number {\n  return add(s, s) * 2;\n}\n",
  'src/app.ts': "import { perimeter } from './shapes';\nexport function run(): number {\n  return perimeter(1);\n}\n",
};

interface Status {
  repository: string;
  running: boolean;
  pid?: number;
  socket: string;
}

describe('one build server for every worktree of a repository', { timeout: 600_000 }, () => {
  let home: string;
  let servers: string;
  const env = (): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = { ...process.env, KG_SERVER: 'on', KG_SERVER_DIR: servers, KG_CACHE: '', KG_CACHE_BUDGET: '' };
    delete e.CI;
    return e;
  };
  const kg = (cwd: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: env(), maxBuffer: 1 << 26 });
    assert.equal(r.status, 0, `kg ${args.join(' ')} in ${cwd}: exit ${r.status}\n${r.stderr}`);
    return r;
  };
  const status = (root: string) => JSON.parse(kg(root, 'server', 'status', '--root', root).stdout) as Status;
  /** The bytes kg build --apply wrote in `dir`, against a one-shot full build of the same files. */
  const assertFull = (dir: string) => {
    const written = fs.readFileSync(path.join(dir, '.knowledge-graph', 'graph.json'), 'utf8');
    const full = kg(dir, 'build', '--full', '--no-server').stdout;
    assert.ok(written === full, `${dir}: the graph differs from a full build's`);
  };
  const until = async (what: string, test: () => boolean) => {
    const t0 = Date.now();
    while (!test()) {
      if (Date.now() - t0 > 120_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const main = () => path.join(home, 'main');
  const second = () => path.join(home, 'second');

  before(() => {
    home = tempDir('kg-repo-server-');
    servers = tempDir('kg-servers-');
    fs.chmodSync(servers, 0o700);
    fs.mkdirSync(main());
    git(main(), 'init', '-q', '-b', 'main');
    writeTree(main(), TREE);
    git(main(), 'add', '-A');
    git(main(), 'commit', '-q', '-m', 'base');
    git(main(), 'checkout', '-q', '-b', 'feature');
    writeTree(main(), {
      'src/math.ts':
        'export function add(a: number, b: number): number {\n  return a + b;\n}\nexport function twice(n: number): number {\n  return add(n, n);\n}\n',
      'src/app.ts':
        "import { perimeter } from './shapes';\nimport { twice } from './math';\nexport function run(): number {\n  return perimeter(1) + twice(2);\n}\n",
    });
    git(main(), 'commit', '-q', '-am', 'feature');
    git(main(), 'checkout', '-q', 'main');
  });
  after(() => {
    for (const f of fs.existsSync(servers) ? fs.readdirSync(servers) : []) {
      if (!f.endsWith('.lock')) continue;
      const pid = Number((JSON.parse(fs.readFileSync(path.join(servers, f), 'utf8')) as { pid: number }).pid);
      if (pid !== process.pid && processAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    removeTempDirs();
  });

  it('serves a new worktree’s first build from the server the first worktree started, byte-equal to a full build', async () => {
    const first = kg(main(), 'build', '--apply');
    assert.doesNotMatch(first.stderr, /built by the build server/, 'no server ran yet: this build is one-shot');
    await until('the repository’s server to listen', () => status(main()).running && fs.existsSync(status(main()).socket));
    const { pid, socket, repository } = status(main());
    assert.equal(repository, fs.realpathSync(path.join(main(), '.git')), 'the server is keyed by git’s common folder');
    assertFull(main());

    git(main(), 'worktree', 'add', '-q', second(), 'feature');
    const st = status(second());
    assert.equal(st.socket, socket, 'the second worktree reaches the same socket');
    assert.equal(st.pid, pid, 'and the same server');
    const r = kg(second(), 'build', '--apply');
    assert.match(r.stderr, new RegExp(`built by the build server \\(pid ${pid}\\)`), r.stderr);
    assert.match(r.stderr, /graph cache: starting from the graph of commit [0-9a-f]{12}, \d+ paths? away/, r.stderr);
    assert.match(r.stderr, /incremental build:/, r.stderr);
    assertFull(second());
    // Each worktree has its own graph: main's is main's, not the feature's.
    assertFull(main());
    assert.notEqual(
      fs.readFileSync(path.join(main(), '.knowledge-graph', 'graph.json'), 'utf8'),
      fs.readFileSync(path.join(second(), '.knowledge-graph', 'graph.json'), 'utf8'),
    );

    // An edit in each worktree, each built by the same server from its own warm session.
    writeTree(second(), { 'src/shapes.ts': TREE['src/shapes.ts'].replace('* 2', '* 4') });
    writeTree(main(), { 'src/app.ts': TREE['src/app.ts'].replace('perimeter(1)', 'perimeter(3)') });
    for (const dir of [second(), main()]) {
      const e = kg(dir, 'build', '--apply');
      assert.match(e.stderr, new RegExp(`built by the build server \\(pid ${pid}\\)`), e.stderr);
      assert.doesNotMatch(e.stderr, /graph cache: starting/, 'a worktree the server has built starts from its own session');
      assertFull(dir);
    }
    // Only one server: no lock file names another.
    assert.equal(fs.readdirSync(servers).filter((f) => f.endsWith('.lock')).length, 1);
  });

  it('a killed server costs nothing: the client builds itself, says so, and the graph is a full build’s', async () => {
    const { pid } = status(second());
    assert.ok(pid !== undefined, 'the server of the first test still runs');
    process.kill(pid, 'SIGKILL');
    await until('the server to die', () => !processAlive(pid));
    assert.ok(fs.existsSync(status(second()).socket), 'a killed server leaves its socket behind');
    writeTree(second(), {
      'src/shapes.ts': TREE['src/shapes.ts'] + 'export function area(s: number): number {\n  return add(s, 0) * s;\n}\n',
    });
    const before = fs.readFileSync(path.join(second(), '.knowledge-graph', 'graph.json'), 'utf8');
    const r = kg(second(), 'build', '--apply');
    assert.doesNotMatch(r.stderr, /built by the build server/, r.stderr);
    assert.match(r.stderr, /the build server did not answer \(it was stopped or killed\); building here instead/, r.stderr);
    assert.notEqual(fs.readFileSync(path.join(second(), '.knowledge-graph', 'graph.json'), 'utf8'), before, 'the edit is in the graph');
    assertFull(second());
    // And the next build starts a new server for the repository, which serves the other worktree.
    await until(
      'a new server to listen',
      () => status(main()).running && status(main()).pid !== pid && fs.existsSync(status(main()).socket),
    );
    const next = kg(main(), 'build', '--apply');
    assert.match(next.stderr, /built by the build server/, next.stderr);
    assertFull(main());
  });
});
