// Every worktree at the cost of its diff (issue 50, ADR 166), on a real git repository with real
// `git worktree add`s and branch switches, and real kg processes: the first `kg build --apply` in a
// fresh worktree starts from the repository's cached graph nearest to its checkout, and writes the
// bytes a full build of that worktree writes — across a rename, a deletion, a tsconfig change and a
// lockfile change that moves a package. A branch switch back to a built tree starts from that
// tree's own graph; a corrupted cache entry is never used; nothing of the cache is committed; `kg
// cache status|prune` say and shrink what it holds.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { git } from '../helpers/diff-repo';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const TSCONFIG = '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "commonjs" }, "include": ["src"] }\n';

function lockfile(version: string, at: string): string {
  return (
    JSON.stringify(
      { name: 'wt', lockfileVersion: 3, packages: { '': { name: 'wt', dependencies: { lib: version } }, [at]: { version } } },
      null,
      2,
    ) + '\n'
  );
}

const BASE: Record<string, string> = {
  '.gitignore': 'node_modules/\n.knowledge-graph/\n',
  'package.json': '{ "name": "wt", "version": "1.0.0", "dependencies": { "lib": "^1.0.0" } }\n',
  'package-lock.json': lockfile('1.0.0', 'node_modules/lib'),
  'tsconfig.json': TSCONFIG,
  'src/math.ts':
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function twice(n: number): number {\n  return add(n, n);\n}\n',
  'src/shapes.ts':
    "import { add } from './math';\n\nexport class Square {\n  constructor(private readonly s: number) {}\n  perimeter(): number {\n    return add(this.s, this.s) * 2;\n  }\n}\n",
  'src/strings.ts': 'export function shout(s: string): string {\n  return s.toUpperCase();\n}\n',
  'src/lib-use.ts': "import { parse } from 'lib';\n\nexport function read(s: string): number {\n  return parse(s);\n}\n",
  'src/app.ts':
    "import { twice } from './math';\nimport { Square } from './shapes';\nimport { shout } from './strings';\nimport { read } from './lib-use';\n\nexport function run(): number {\n  shout('a');\n  return twice(2) + new Square(1).perimeter() + read('3');\n}\n",
};

/** The package `lib` as each lockfile places it (node_modules is not committed: each worktree gets its own). */
const LIB_V1 = {
  'node_modules/lib/package.json': '{ "name": "lib", "version": "1.0.0", "types": "index.d.ts" }\n',
  'node_modules/lib/index.d.ts': 'export declare function parse(s: string): number;\n',
};
const LIB_V2 = {
  'node_modules/lib/package.json': '{ "name": "lib", "version": "2.0.0", "types": "dist/types.d.ts" }\n',
  'node_modules/lib/dist/types.d.ts':
    'export declare function parse(s: string, radix?: number): number;\nexport declare function format(n: number): string;\n',
};

describe('kg build in worktrees, from the repository graph cache', () => {
  let home: string;
  let main: string;
  const worktree = (name: string) => path.join(home, name);
  const env = () => ({ ...process.env, KG_SERVER: 'off', CI: '', KG_CACHE: '', KG_CACHE_BUDGET: '' });
  const kg = (cwd: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: env(), maxBuffer: 1 << 26 });
    assert.equal(r.status, 0, `kg ${args.join(' ')} in ${cwd}: exit ${r.status}\n${r.stderr}`);
    return r;
  };
  /** `kg build --apply` in `dir`, its stderr, and the bytes it wrote against a `--full` build of the same files. */
  const buildAndCompare = (dir: string): string => {
    const { stderr } = kg(dir, 'build', '--apply');
    const written = fs.readFileSync(path.join(dir, '.knowledge-graph', 'graph.json'), 'utf8');
    const full = kg(dir, 'build', '--full').stdout;
    assert.ok(written === full, `${dir}: the cached build's graph differs from a full build's\n${stderr}`);
    return stderr;
  };
  const commit = (dir: string, files: Record<string, string | null>, message: string, mv?: [string, string]) => {
    if (mv) {
      fs.mkdirSync(path.dirname(path.join(dir, mv[1])), { recursive: true });
      git(dir, 'mv', ...mv);
    }
    for (const [f, text] of Object.entries(files)) {
      if (text === null) git(dir, 'rm', '-q', f);
      else writeTree(dir, { [f]: text });
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', message);
  };

  before(() => {
    home = tempDir('kg-worktrees-');
    main = worktree('main');
    fs.mkdirSync(main);
    git(main, 'init', '-q', '-b', 'main');
    writeTree(main, BASE);
    git(main, 'add', '-A');
    git(main, 'commit', '-q', '-m', 'base');
    commit(main, { 'src/extra.ts': "import { shout } from './strings';\n\nexport const loud = shout('x');\n" }, 'one more file');
    // Branches, each from main: a rename and a deletion; a tsconfig change; a lockfile that moves lib.
    git(main, 'branch', 'moves');
    git(main, 'branch', 'config');
    git(main, 'branch', 'lock');
    writeTree(main, LIB_V1);
  });
  after(() => {
    if (!process.env.KG_KEEP) removeTempDirs();
  });

  it('builds main, then a worktree with a rename and a deletion starts from main’s graph and equals a full build', () => {
    const first = buildAndCompare(main);
    assert.doesNotMatch(first, /graph cache: starting/, 'nothing was cached yet');
    assert.match(first, /graph for commit [0-9a-f]{12}/);
    // Nothing of the cache shows in git status: it lives in the common .git folder.
    assert.equal(git(main, 'status', '--porcelain', '--untracked-files=all'), '');
    const dir = worktree('moves');
    git(main, 'worktree', 'add', '-q', dir, 'moves');
    commit(
      dir,
      {
        'src/shapes.ts': null,
        'src/app.ts': BASE['src/app.ts']
          .replace("import { Square } from './shapes';\n", '')
          .replace(' + new Square(1).perimeter()', '')
          .replace(/'\.\/strings'/, "'./text/strings'"),
        'src/extra.ts': "import { shout } from './text/strings';\n\nexport const loud = shout('x');\n",
      },
      'move strings to text/, remove Square',
      ['src/strings.ts', 'src/text/strings.ts'],
    );
    writeTree(dir, LIB_V1);
    const stderr = buildAndCompare(dir);
    assert.match(stderr, /graph cache: starting from the graph of commit [0-9a-f]{12}, \d+ paths? away/);
    assert.match(stderr, /incremental build:/);
  });

  it('a worktree whose tsconfig changed equals a full build', () => {
    const dir = worktree('config');
    git(main, 'worktree', 'add', '-q', dir, 'config');
    commit(dir, { 'tsconfig.json': TSCONFIG.replace('"strict": true', '"strict": false') }, 'not strict');
    writeTree(dir, LIB_V1);
    const stderr = buildAndCompare(dir);
    assert.match(stderr, /graph cache: starting from the graph of commit/);
    assert.match(stderr, /full build: .*tsconfig\.json/);
  });

  it('a worktree whose lockfile moves a package equals a full build', () => {
    const dir = worktree('lock');
    git(main, 'worktree', 'add', '-q', dir, 'lock');
    commit(
      dir,
      {
        'package.json': BASE['package.json'].replace('^1.0.0', '^2.0.0'),
        'package-lock.json': lockfile('2.0.0', 'node_modules/lib'),
        'src/lib-use.ts': BASE['src/lib-use.ts'].replace('parse(s)', 'parse(s, 10)'),
      },
      'lib 2',
    );
    writeTree(dir, LIB_V2);
    const stderr = buildAndCompare(dir);
    assert.match(stderr, /graph cache: starting from the graph of commit/);
  });

  it('a branch switch back to a built tree starts from that tree’s own graph, byte for byte', () => {
    const dir = worktree('moves');
    const mainGraph = fs.readFileSync(path.join(main, '.knowledge-graph', 'graph.json'), 'utf8');
    git(dir, 'checkout', '-q', '--detach', 'config');
    // A branch this worktree never built, built in another: its graph is in the cache.
    const stderr = buildAndCompare(dir);
    assert.match(stderr, /graph cache: starting from the graph of this very content/);
    assert.equal(
      fs.readFileSync(path.join(dir, '.knowledge-graph', 'graph.json'), 'utf8'),
      fs.readFileSync(path.join(worktree('config'), '.knowledge-graph', 'graph.json'), 'utf8'),
    );
    git(dir, 'checkout', '-q', '--detach', 'main');
    assert.match(buildAndCompare(dir), /graph cache: starting from the graph of this very content/);
    assert.equal(fs.readFileSync(path.join(dir, '.knowledge-graph', 'graph.json'), 'utf8'), mainGraph);
  });

  it('a worktree without node_modules, started from a graph built with them, equals a full build (issue 50)', () => {
    // main's graph, in the cache, was built with lib installed.
    const dir = worktree('bare');
    git(main, 'worktree', 'add', '-q', '--detach', dir, 'main');
    // As `git worktree add` leaves it: the sources, no packages. The calls into lib have no declaration now.
    const stderr = buildAndCompare(dir);
    assert.match(stderr, /graph cache: starting from the graph of this very content/);
    assert.match(fs.readFileSync(path.join(dir, '.knowledge-graph', 'graph.json'), 'utf8'), /"no-declaration"/);
  });

  it('never uses an entry whose bytes do not match their hashes', () => {
    const status = JSON.parse(kg(main, 'cache', 'status').stdout) as { dir: string; entries: Array<{ tree: string }> };
    // One entry for each tree built: main's and the three branches'.
    const trees = new Set(status.entries.map((e) => e.tree));
    for (const branch of ['main', 'moves', 'config', 'lock']) assert.ok(trees.has(git(main, 'rev-parse', `${branch}^{tree}`)), branch);
    assert.equal(status.entries.length, 4);
    // Every chunk replaced by well-formed gzip of other bytes.
    const chunks = path.join(status.dir, 'chunks');
    for (const d of fs.readdirSync(chunks))
      for (const f of fs.readdirSync(path.join(chunks, d))) fs.writeFileSync(path.join(chunks, d, f), gzipSync('{"forged":true}\n'));
    const dir = worktree('fresh');
    git(main, 'worktree', 'add', '-q', '--detach', dir, 'main');
    writeTree(dir, LIB_V1);
    const stderr = buildAndCompare(dir);
    assert.match(stderr, /did not match its hashes; removed, not used/);
    assert.doesNotMatch(stderr, /graph cache: starting/);
  });

  it('kg cache status says what it holds and which commit the graph is for; prune empties it', () => {
    const s = JSON.parse(kg(main, 'cache', 'status').stdout) as {
      dir: string;
      bytes: number;
      logicalBytes: number;
      entries: Array<{ commit: string; tree: string }>;
      graph: { commit: string | null } | null;
    };
    assert.equal(path.relative(fs.realpathSync(path.join(main, '.git')), fs.realpathSync(s.dir)), path.join('knowledge-graph', 'cache'));
    // The forged entry of main's tree is gone, and the fresh worktree's build stored it again.
    assert.ok(s.entries.some((e) => e.tree === git(main, 'rev-parse', 'main^{tree}')));
    assert.equal(s.graph?.commit, git(main, 'rev-parse', 'HEAD'));
    assert.ok(s.bytes < s.logicalBytes, `${s.bytes} on disk for ${s.logicalBytes} bytes of graphs`);
    const pruned = JSON.parse(kg(main, 'cache', 'prune', '--budget', '1').stdout) as { entries: number };
    assert.equal(pruned.entries, s.entries.length);
    assert.deepEqual((JSON.parse(kg(main, 'cache', 'status').stdout) as { entries: unknown[] }).entries, []);
    const help = kg(main, 'cache', '--help').stdout;
    assert.match(help, /^Usage: kg cache status/);
    const bad = spawnSync(process.execPath, [CLI, 'cache', 'sweep'], { cwd: main, encoding: 'utf8', env: env() });
    assert.equal(bad.status, 2);
  });
});
