// Generations and the build lock: only a candidate the doctor passes becomes current; a failing
// one is kept aside; stale temp files are swept; two builds of one graph never write at once.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  acquireBuildLock,
  buildGraph,
  commitGeneration,
  GenerationMemo,
  lockPathFor,
  manifestPathFor,
  serializeGraph,
  type Graph,
} from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI in the background; resolves with its exit code and output. */
function kgAsync(args: string[], cwd: string) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  const stderrMatches = (re: RegExp) =>
    new Promise<void>((resolve) => {
      const check = () => (re.test(stderr) ? resolve() : setTimeout(check, 20));
      check();
    });
  return { child, done, stderrMatches };
}

const TREE = { 'src/a.ts': 'export function a() {}\n', 'src/b.ts': "import { a } from './a';\nexport function b() { a(); }\n" };

describe('generations', () => {
  after(removeTempDirs);

  it('keeps a candidate the doctor fails aside, and leaves the current graph and manifest untouched', () => {
    const root = tempDir();
    writeTree(root, TREE);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const dir = path.join(root, '.knowledge-graph');
    const out = path.join(dir, 'graph.json');
    const graphBefore = fs.readFileSync(out, 'utf8');
    const manifestBefore = fs.readFileSync(path.join(dir, 'graph.manifest.json'), 'utf8');

    const bad = JSON.parse(graphBefore) as Graph;
    bad.edges[0].confidence = 'MAYBE' as never;
    const badText = serializeGraph(bad);
    const r = commitGeneration(out, badText, '{"not":"used"}\n');
    assert.equal(r.status, 'rejected');
    assert.equal(r.status === 'rejected' && r.rejectedPath, path.join(dir, 'graph.rejected.json'));
    assert.equal(r.status === 'rejected' && r.report?.rules.find((x) => x.rule === 'unknown_confidence')?.count, 1);
    assert.equal(fs.readFileSync(path.join(dir, 'graph.rejected.json'), 'utf8'), badText, 'the candidate is kept as written');
    assert.equal(fs.readFileSync(out, 'utf8'), graphBefore);
    assert.equal(fs.readFileSync(path.join(dir, 'graph.manifest.json'), 'utf8'), manifestBefore);

    const torn = commitGeneration(out, badText.slice(0, 100), '{}\n');
    assert.equal(torn.status, 'rejected');
    assert.match(torn.status === 'rejected' ? (torn.problem ?? '') : '', /JSON/);
    assert.equal(fs.readFileSync(out, 'utf8'), graphBefore);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json', 'graph.rejected.json'], 'no temp file left');

    const good = serializeGraph(buildGraph({ root }).graph);
    assert.equal(commitGeneration(out, good, manifestBefore).status, 'current');
    assertValidGraph(JSON.parse(fs.readFileSync(out, 'utf8')));
  });

  it('sweeps temp files a killed build left, and only those', () => {
    const root = tempDir();
    writeTree(root, TREE);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const dir = path.join(root, '.knowledge-graph');
    // A pid that surely ran and ended.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const stale = [`graph.json.kg-tmp-${deadPid}-0badf00d`, `graph.manifest.json.kg-tmp-${deadPid}-0badf00d`];
    const kept = [`other.json.kg-tmp-${deadPid}-0badf00d`, 'notes.txt'];
    for (const f of [...stale, ...kept]) fs.writeFileSync(path.join(dir, f), 'half a graph');
    // A lock attempt's temp file, beside the lock, from a process that is gone; and a live one's.
    const lock = lockPathFor(path.join(dir, 'graph.json'));
    const deadLockTemp = `${lock}.kg-tmp-${deadPid}-00000001`;
    const liveLockTemp = `${lock}.kg-tmp-${process.pid}-00000002`;
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    for (const f of [deadLockTemp, liveLockTemp]) fs.writeFileSync(f, '{}');
    try {
      const r = kg(['build', '--apply'], root);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /removed 2 temp files left by an interrupted build/);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json', ...kept].sort());
      assert.ok(!fs.existsSync(deadLockTemp));
      assert.ok(fs.existsSync(liveLockTemp), "a live process's attempt is left alone");
    } finally {
      fs.rmSync(liveLockTemp, { force: true });
    }
  });
});

describe('the build lock', () => {
  after(removeTempDirs);

  it('a build that finds a live holder waits (or with --no-wait refuses), saying who holds it', async () => {
    const root = tempDir();
    writeTree(root, TREE);
    const out = path.join(root, '.knowledge-graph', 'graph.json');
    const lock = await acquireBuildLock(out);
    try {
      const refused = kg(['build', '--apply', '--no-wait'], root);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        new RegExp(
          `another build is writing this graph \\(pid ${process.pid} on .*\\); lock file .*knowledge-graph-[^/]+/locks/[0-9a-f]{32}\\.lock`,
        ),
      );
      assert.ok(!fs.existsSync(out), 'nothing written');

      const waiting = kgAsync(['build', '--apply'], root);
      await waiting.stderrMatches(/waiting for it to finish/);
      assert.ok(!fs.existsSync(out), 'the waiting build has not written');
      assert.equal(waiting.child.exitCode, null, 'it is still waiting');
      lock.release();
      const r = await waiting.done;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`another build is writing \\.knowledge-graph/graph\\.json \\(pid ${process.pid} `));
      assertValidGraph(JSON.parse(fs.readFileSync(out, 'utf8')));
    } finally {
      lock.release();
    }
    assert.ok(!fs.existsSync(lockPathFor(out)), 'the lock is gone after the build');
  });

  it('two builds started at once on one folder both finish, one after the other, with one valid graph', async () => {
    const root = tempDir();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 200; i++)
      tree[`src/m${i}.ts`] =
        `import { f${(i + 1) % 200} } from './m${(i + 1) % 200}';\nexport function f${i}() { return f${(i + 1) % 200}; }\n`;
    writeTree(root, tree);
    const [x, y] = [kgAsync(['build', '--apply'], root), kgAsync(['build', '--apply'], root)];
    const [rx, ry] = await Promise.all([x.done, y.done]);
    assert.equal(rx.code, 0, rx.stderr);
    assert.equal(ry.code, 0, ry.stderr);
    const dir = path.join(root, '.knowledge-graph');
    assert.equal(fs.readFileSync(path.join(dir, 'graph.json'), 'utf8'), serializeGraph(buildGraph({ root }).graph));
    assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json']);
    // Whichever came second either waited, or started after the first had finished.
    assert.ok(
      [rx, ry].some((r) => /waiting for it to finish/.test(r.stderr) || /incremental build/.test(r.stderr)),
      `${rx.stderr}\n---\n${ry.stderr}`,
    );
  });

  it('breaks a lock whose holder died', () => {
    const root = tempDir();
    writeTree(root, TREE);
    const dir = path.join(root, '.knowledge-graph');
    fs.mkdirSync(dir);
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const lock = lockPathFor(path.join(dir, 'graph.json'));
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    fs.writeFileSync(lock, JSON.stringify({ pid: deadPid, hostname: os.hostname(), token: 'dead', started: 'then' }));
    const r = kg(['build', '--apply', '--no-wait'], root);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json']);
    assert.ok(!fs.existsSync(lock), 'the stale lock was broken, then the new one released');
  });

  it("a server's memo reads graph.json again only when another writer changed it (ADR 125)", async () => {
    const dir = tempDir('kg-memo-');
    const graph = path.join(dir, 'graph.json');
    const manifest = manifestPathFor(graph);
    fs.writeFileSync(graph, '{"a":1}');
    fs.writeFileSync(manifest, '{"m":1}');
    const memo = new GenerationMemo();
    // Just written: the stamps are not trusted yet (a write in the same clock tick keeps them), so
    // every read reads — a new object each time, with the same texts.
    const fresh = memo.read(graph);
    assert.deepEqual(fresh, { graphText: '{"a":1}', manifestText: '{"m":1}' });
    assert.notEqual(memo.read(graph), fresh);
    await new Promise((r) => setTimeout(r, 2_100));
    const first = memo.read(graph);
    // Still for 2 s and unchanged since: the texts already held, not a read (the same object back).
    assert.equal(memo.read(graph), first);
    // Rewritten in place with the same size and the old times put back: the change time still says.
    const before = fs.statSync(manifest);
    fs.writeFileSync(manifest, '{"m":3}');
    fs.utimesSync(manifest, before.atime, before.mtime);
    assert.deepEqual(memo.read(graph), { graphText: '{"a":1}', manifestText: '{"m":3}' });
    // Another writer's generation (written beside, renamed over): read again.
    fs.writeFileSync(graph + '.tmp', '{"a":2}');
    fs.renameSync(graph + '.tmp', graph);
    assert.deepEqual(memo.read(graph), { graphText: '{"a":2}', manifestText: '{"m":3}' });
    // Deleted: read as absent, as readPrevious says.
    fs.rmSync(manifest);
    assert.deepEqual(memo.read(graph), { graphText: '{"a":2}', manifestText: undefined });
    // What this process wrote (under the lock, by rename) is taken as read at once.
    fs.writeFileSync(graph, '{"a":4}');
    fs.writeFileSync(manifest, '{"m":4}');
    const wrote = { graphText: '{"a":4}', manifestText: '{"m":4}' };
    memo.wrote(graph, wrote);
    assert.equal(memo.read(graph), wrote);
  });
});
