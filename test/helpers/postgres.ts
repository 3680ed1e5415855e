// A real PostgreSQL for one test file (docs/organisation.md, "Tests"): Debian's postgresql-15, a
// cluster of its own in a temporary folder, a private Unix socket and no TCP listener. initdb
// refuses to run as root, so as root the server runs as the unprivileged `postgres` user.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

export interface TestServer {
  /** The connection string the `pg` client and `kg store --store` take. */
  url: string;
  dir: string;
  /** Stops the server at once, the way a crash would (the next start runs crash recovery). */
  crash(): void;
  start(): void;
  stop(): void;
}

function asServerUser(cmd: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const r = root
    ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' })
    : spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
}

/**
 * `password`: the server asks for it (SCRAM, over the socket too) instead of trusting every
 * connection, so a wrong one is refused as a real server refuses it.
 */
export function startPostgres(opts: { password?: string } = {}): TestServer {
  if (!fs.existsSync(path.join(BIN, 'initdb')))
    throw new Error(`PostgreSQL 15 is not installed (${BIN}): apt-get install postgresql-15 (.ci/run installs it)`);
  // As root the server runs as `postgres`, which must reach the folder: a temporary folder of a
  // root process (the editor's extension host has one of its own, mode 0700) may be closed to it.
  const dir = fs.mkdtempSync(path.join(process.getuid?.() === 0 ? '/tmp' : os.tmpdir(), 'kg-pg-'));
  fs.chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const auth = ['-A', 'trust'];
  if (opts.password !== undefined) {
    const pwfile = path.join(dir, 'pwfile');
    fs.writeFileSync(pwfile, opts.password + '\n', { mode: 0o644 });
    auth.splice(0, 2, '-A', 'scram-sha-256', `--pwfile=${pwfile}`);
  }
  asServerUser(path.join(BIN, 'initdb'), ['-D', data, ...auth, '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const start = () =>
    asServerUser(path.join(BIN, 'pg_ctl'), [
      '-D',
      data,
      '-o',
      `-k ${dir} -c listen_addresses='' -c fsync=on -c max_connections=40`,
      '-l',
      path.join(dir, 'log'),
      '-w',
      'start',
    ]);
  start();
  return {
    url: `postgresql://postgres@/postgres?host=${encodeURIComponent(dir)}`,
    dir,
    crash() {
      // SIGQUIT to the postmaster and every backend, no shutdown checkpoint: the next start runs
      // crash recovery, as after a power cut.
      asServerUser(path.join(BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
    },
    start,
    stop() {
      if (fs.existsSync(path.join(data, 'postmaster.pid'))) asServerUser(path.join(BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
