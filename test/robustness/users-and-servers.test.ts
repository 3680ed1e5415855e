// Two users on one machine, and a build-server folder that is not private (ADR 77). Per-user state
// (build locks, server sockets) lives in a folder only its user can enter; a folder someone else
// made or linked is refused with a message, never used; an unsafe KG_SERVER_DIR builds without a
// server and starts none anywhere. The second user is real where this machine allows it (root can
// create one); otherwise those tests are skipped and say why. Where the checkout itself is closed
// to the second user (a clone in a `mktemp -d` folder, mode 700, as CI makes), that user runs a
// copy of dist/ (the CLI's self-contained bundles and TypeScript's library files) from a folder
// anyone may read, the files a .vsix or an npm package would hold.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const OTHER = 'kg-robustness';
const TREE = { 'src/a.ts': 'export function a() {}\nexport function b() { a(); }\n' };

/** Why a second user cannot be used here, or undefined when one exists (created if need be). */
function otherUser(): string | undefined {
  if (process.platform === 'win32') return 'not on Windows';
  if (process.getuid?.() !== 0) return 'not running as root, so no second user can be created or switched to';
  if (spawnSync('id', ['-u', OTHER]).status !== 0) {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER], { encoding: 'utf8' });
    if (made.status !== 0) return `useradd failed: ${made.stderr.trim()}`;
  }
  const runs = (cli: string) => spawnSync('runuser', ['-u', OTHER, '--', process.execPath, cli, '--help'], { cwd: '/' }).status === 0;
  if (runs(CLI)) return undefined;
  const copy = tempDir('kg-users-dist-');
  fs.chmodSync(copy, 0o755);
  fs.cpSync(path.dirname(CLI), copy, { recursive: true });
  const cli = path.join(copy, path.basename(CLI));
  if (!runs(cli)) return `${OTHER} cannot run ${CLI}, nor a copy of its folder at ${cli}`;
  otherCli = cli;
  return undefined;
}

/** The CLI the second user runs: this checkout's, or a copy of dist/ it can read (above). */
let otherCli = CLI;

const otherUid = () => Number(spawnSync('id', ['-u', OTHER], { encoding: 'utf8' }).stdout.trim());
const whyNoUser = otherUser();
if (whyNoUser) console.log(`# two users: skipped, ${whyNoUser}`);

/** Runs the CLI as `user` (or as this process's user), with a temp folder of the test's choosing. */
function kgAs(user: string | undefined, args: string[], cwd: string, env: Record<string, string> = {}) {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', KG_SERVER: 'off', ...env };
  const cmd = user
    ? ['runuser', ['-u', user, '--', 'env', ...Object.entries(base).map(([k, v]) => `${k}=${v}`), process.execPath, otherCli, ...args]]
    : [process.execPath, [CLI, ...args]];
  const r = spawnSync(cmd[0] as string, cmd[1] as string[], {
    cwd,
    encoding: 'utf8',
    env: user ? { PATH: base.PATH } : base,
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('two users on one machine', { skip: whyNoUser }, () => {
  after(removeTempDirs);

  it('each builds with their own lock folder; neither sees EACCES', () => {
    const tmp = tempDir('kg-users-tmp-');
    fs.chmodSync(tmp, 0o1777); // a shared temp folder, like /tmp
    const mine = tempDir('kg-users-a-');
    writeTree(mine, TREE);
    const theirs = tempDir('kg-users-b-');
    writeTree(theirs, TREE);
    fs.chmodSync(theirs, 0o755);
    for (const f of ['', 'src', 'src/a.ts']) fs.chownSync(path.join(theirs, f), otherUid(), otherUid());
    const a = kgAs(undefined, ['build', '--apply'], mine, { TMPDIR: tmp });
    assert.equal(a.code, 0, a.stderr);
    const b = kgAs(OTHER, ['build', '--apply'], theirs, { TMPDIR: tmp });
    assert.equal(b.code, 0, b.stderr);
    assert.doesNotMatch(b.stderr, /EACCES|internal error/);
    for (const d of fs.readdirSync(tmp).filter((n) => n.startsWith('knowledge-graph-'))) {
      const st = fs.lstatSync(path.join(tmp, d));
      assert.ok(st.isDirectory() && (st.mode & 0o077) === 0, `${d} is private (mode ${(st.mode & 0o777).toString(8)})`);
    }
    assert.deepEqual(
      fs
        .readdirSync(tmp)
        .filter((n) => n.startsWith('knowledge-graph-'))
        .sort(),
      [`knowledge-graph-0`, `knowledge-graph-${otherUid()}`].sort(),
    );
  });

  it('refuses a state folder another user made first, or a link planted in its place', () => {
    const root = tempDir('kg-users-c-');
    writeTree(root, TREE);
    for (const plant of ['folder', 'link'] as const) {
      const tmp = tempDir('kg-users-tmp-');
      fs.chmodSync(tmp, 0o1777);
      const mine = path.join(tmp, 'knowledge-graph-0');
      if (plant === 'folder') {
        fs.mkdirSync(mine, { mode: 0o700 });
        fs.chownSync(mine, otherUid(), otherUid());
      } else {
        fs.symlinkSync(tempDir('kg-users-elsewhere-'), mine);
      }
      const before = fs.existsSync(path.join(root, '.knowledge-graph', 'graph.json'))
        ? fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'))
        : undefined;
      const r = kgAs(undefined, ['build', '--apply'], root, { TMPDIR: tmp });
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        plant === 'folder'
          ? /is not a folder only this user can enter \(it belongs to another user/
          : /is not a folder only this user can enter \(it is a symbolic link\)/,
      );
      assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
      const now = fs.existsSync(path.join(root, '.knowledge-graph', 'graph.json'))
        ? fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'))
        : undefined;
      assert.deepEqual(now, before, 'nothing written');
    }
  });

  it('another user building a repository with a file they cannot read: a note, not a crash', () => {
    const tmp = tempDir('kg-users-tmp-');
    fs.chmodSync(tmp, 0o1777);
    const theirs = tempDir('kg-users-d-');
    writeTree(theirs, { ...TREE, 'src/secret.ts': 'export const s = 1;\n' });
    fs.chmodSync(theirs, 0o755);
    for (const f of ['', 'src', 'src/a.ts']) fs.chownSync(path.join(theirs, f), otherUid(), otherUid());
    fs.chmodSync(path.join(theirs, 'src/secret.ts'), 0o600); // root's, unreadable to the other user
    const r = kgAs(OTHER, ['build', '--apply'], theirs, { TMPDIR: tmp });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /note: src\/secret\.ts: unreadable file \(EACCES\)/);
  });
});

describe('KG_SERVER_DIR naming a folder that is not private', () => {
  after(removeTempDirs);

  it('builds without a server, says so, and starts none anywhere; kg server status refuses too', () => {
    const root = tempDir('kg-serverdir-');
    writeTree(root, TREE);
    const unsafe = tempDir('kg-serverdir-unsafe-');
    fs.chmodSync(unsafe, 0o777);
    const tmp = tempDir('kg-serverdir-tmp-');
    const env = { KG_SERVER: 'on', KG_SERVER_DIR: unsafe, TMPDIR: tmp, XDG_RUNTIME_DIR: '' };
    const r = kgAs(undefined, ['build', '--apply'], root, env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`warning: KG_SERVER_DIR=${unsafe} is not a folder only this user can enter \\(others may enter it \\(mode 777`),
    );
    assert.match(r.stderr, /building without a build server/);
    // Nothing anywhere: no socket in the unsafe folder, no server folder in the default place.
    assert.deepEqual(fs.readdirSync(unsafe), []);
    assert.ok(
      !fs.existsSync(path.join(tmp, 'knowledge-graph-0', 'servers')) ||
        fs.readdirSync(path.join(tmp, 'knowledge-graph-0', 'servers')).length === 0,
    );
    const status = kgAs(undefined, ['server', 'status'], root, env);
    assert.equal(status.code, 1);
    assert.match(status.stderr, /KG_SERVER_DIR=.* is not a folder only this user can enter/);
  });
});
