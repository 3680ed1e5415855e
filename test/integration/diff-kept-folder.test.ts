// `kg diff` where a build server may run (ADR 135): a ref is written into the repository's kept
// folder over the tree it held and built there by that folder's warm server. On a real git
// repository (test/helpers/diff-repo.ts), with real build servers in a private folder:
// - the kept folder, turned from one tree into another and back, holds exactly what a fresh export
//   of each tree holds (files, contents, links; no folder a removal left empty);
// - the second ref is built by the warm server, and the report and the cached graph are the bytes
//   of the route without a server;
// - a kept folder another kg diff holds, or one a killed run left half written, is never built on.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exportTree, resolveRef, updateTree } from '../../src/git/plumbing';
import { tryLockFile } from '../../src/graph';
import { git, makeDiffRepo } from '../helpers/diff-repo';
import { CLI, removeTempDirs, tempDir } from '../helpers/fixtures';

/** Every entry under `dir`: path → file bytes (base64), `link:<target>`, or `dir`. */
function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      const abs = path.join(dir, r);
      if (e.isSymbolicLink()) out[r] = `link:${fs.readlinkSync(abs)}`;
      else if (e.isDirectory()) {
        out[r] = 'dir';
        walk(r);
      } else out[r] = fs.readFileSync(abs).toString('base64');
    }
  };
  walk('');
  return out;
}

describe('kg diff with a build server: the kept folder', () => {
  let repo: string;
  let state: string;
  let servers: string;
  const env = () => ({ ...process.env, XDG_RUNTIME_DIR: state, KG_SERVER: 'on', KG_SERVER_DIR: servers, CI: '' });
  const kg = (args: string[], extraEnv: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [CLI, 'diff', ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...env(), ...extraEnv },
      maxBuffer: 1 << 26,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const home = () => path.join(state, 'knowledge-graph', 'diff-trees', createHash('sha256').update(repo).digest('hex').slice(0, 20));
  const waitForServer = async () => {
    const deadline = Date.now() + 120_000;
    while (!fs.readdirSync(servers).some((f) => f.endsWith('.sock'))) {
      assert.ok(Date.now() < deadline, 'the kept folder got no build server');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  before(() => {
    repo = tempDir('kg-kept-repo-');
    makeDiffRepo(repo);
    // A link only main holds and a folder only feature holds, so turning one tree into the other
    // has each kind of change.
    git(repo, 'checkout', '--quiet', 'main');
    fs.symlinkSync('math.ts', path.join(repo, 'src', 'math-link.ts'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'a link only main holds');
    git(repo, 'checkout', '--quiet', 'feature');
    fs.mkdirSync(path.join(repo, 'src', 'deep', 'er'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src', 'deep', 'er', 'only.ts'), 'export const only = 1;\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'a folder only feature holds');
    git(repo, 'checkout', '--quiet', 'main');
    state = tempDir('kg-kept-state-');
    servers = path.join(tempDir('kg-kept-servers-'), 'servers');
    fs.mkdirSync(servers, { mode: 0o700 });
  });
  after(() => {
    // Stop every server this test started (the kept folder's), then remove the folders.
    for (const f of fs.existsSync(servers) ? fs.readdirSync(servers) : []) {
      if (!f.endsWith('.lock')) continue;
      try {
        const pid = (JSON.parse(fs.readFileSync(path.join(servers, f), 'utf8')) as { pid?: number }).pid;
        if (pid) process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
    removeTempDirs();
  });

  it('turning a folder from one tree into another and back leaves what a fresh export of each leaves', () => {
    const main = resolveRef(repo, 'main').tree;
    const feature = resolveRef(repo, 'feature').tree;
    const kept = tempDir('kg-kept-turn-');
    const fresh = (tree: string) => {
      const d = tempDir('kg-kept-fresh-');
      exportTree(repo, tree, d);
      return listing(d);
    };
    exportTree(repo, main, kept);
    const before = listing(kept);
    assert.equal(updateTree(repo, main, feature, kept) > 0, true);
    const turned = listing(kept);
    assert.deepEqual(turned, fresh(feature));
    assert.equal(turned['src/deep/er/only.ts'] !== undefined && turned['src/math-link.ts'] === undefined, true, 'the fixture changes both');
    updateTree(repo, feature, main, kept);
    const back = listing(kept);
    assert.deepEqual(back, fresh(main));
    assert.deepEqual(back, before);
    assert.equal(back['src/deep'], undefined, 'the folders the removal emptied are gone');
    assert.equal(back['src/math-link.ts'], 'link:math.ts');
  });

  it("the second ref is built by the kept folder's warm server, and gives the bytes of the route without one", async () => {
    const first = kg(['main', 'main']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /main \([0-9a-f]{12}\): \d+ files exported into the kept folder/);
    await waitForServer();
    const warm = kg(['main', 'feature']);
    assert.equal(warm.code, 0, warm.stderr);
    assert.match(warm.stderr, /feature \([0-9a-f]{12}\): built by the build server/, warm.stderr);
    // BASE (main) is in the cache: it was read while the server built feature, and the log says how long that took.
    assert.match(
      warm.stderr,
      /feature \([0-9a-f]{12}\): \d+ paths changed in the kept folder since tree [0-9a-f]{12}, and built there in \d+ ms \(\d+ ms of it this process spent reading BASE meanwhile\)/,
    );
    assert.deepEqual(
      listing(path.join(home(), 'tree')),
      (() => {
        const d = tempDir('kg-kept-fresh-');
        exportTree(repo, resolveRef(repo, 'feature').tree, d);
        return listing(d);
      })(),
    );

    // The same command in another state folder, each ref exported and built in this process.
    const otherState = tempDir('kg-kept-state-');
    const cold = spawnSync(process.execPath, [CLI, 'diff', '--no-server', 'main', 'feature'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...env(), XDG_RUNTIME_DIR: otherState },
      maxBuffer: 1 << 26,
    });
    assert.equal(cold.status, 0, cold.stderr);
    assert.match(cold.stderr, /feature \([0-9a-f]{12}\): \d+ files exported and built/);
    assert.doesNotMatch(cold.stderr, /kept folder|build server/);
    assert.equal(warm.stdout, cold.stdout);
    const report = JSON.parse(warm.stdout);
    assert.ok(report.summary.symbols.renamed > 0 && report.summary.symbols.removed > 0, 'the report holds the fixture change');
    // Both caches hold the same graph bytes for each tree.
    const entries = (s: string) => {
      const dir = path.join(s, 'knowledge-graph', 'diff-cache');
      return Object.fromEntries(
        fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.graph.json'))
          .map((f) => [
            f,
            createHash('sha256')
              .update(fs.readFileSync(path.join(dir, f)))
              .digest('hex'),
          ]),
      );
    };
    assert.equal(Object.keys(entries(state)).length, 2);
    assert.deepEqual(entries(state), entries(otherState));
  });

  it('a kept folder another kg diff holds is left alone; one a killed run left half written is exported again', () => {
    fs.rmSync(path.join(state, 'knowledge-graph', 'diff-cache'), { recursive: true, force: true });
    const lock = tryLockFile(`${home()}.lock`);
    assert.ok(!('heldBy' in lock));
    let r;
    try {
      r = kg(['main', 'feature']);
    } finally {
      lock.release();
    }
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /another kg diff of this repository is using its kept folder; building in a private temporary folder/);
    assert.match(r.stderr, /feature \([0-9a-f]{12}\): \d+ files exported and built/);

    // A run killed while turning the folder leaves it without its tree.id, and perhaps a stray file.
    fs.rmSync(path.join(state, 'knowledge-graph', 'diff-cache'), { recursive: true, force: true });
    fs.rmSync(path.join(home(), 'tree.id'));
    fs.writeFileSync(path.join(home(), 'tree', 'src', 'stray.ts'), 'export function stray(): void {}\n');
    const again = kg(['main', 'feature']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /main \([0-9a-f]{12}\): \d+ files exported into the kept folder/);
    assert.equal(fs.existsSync(path.join(home(), 'tree', 'src', 'stray.ts')), false);
    assert.equal(JSON.parse(again.stdout).head.commit, git(repo, 'rev-parse', 'feature'));
  });
});
