// Fixture repositories on disk: copy a fixture (or write a tree) into a fresh temp directory,
// so tests run the real builder over real files.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const FIXTURES = path.join(__dirname, '..', 'fixtures');
export const SNAPSHOTS = path.join(__dirname, '..', 'snapshots');
export const REPO = path.join(__dirname, '..', '..');
export const CLI = path.join(REPO, 'dist', 'cli.js');

const made: string[] = [];

export function tempDir(prefix = 'kg-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** Writes a tree of files (path → text or bytes) under `dir`. */
export function writeTree(dir: string, tree: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(tree)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** Copies a fixture into a temp dir; `reverse` creates files in the opposite order. */
export function copyFixture(name: string, opts: { reverse?: boolean; into?: string } = {}): string {
  const src = path.join(FIXTURES, name);
  const dest = opts.into ?? tempDir(`kg-${name}-`);
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(path.relative(src, p));
    }
  };
  walk(src);
  files.sort();
  if (opts.reverse) files.reverse();
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dest, f)), { recursive: true });
    fs.copyFileSync(path.join(src, f), path.join(dest, f));
  }
  return dest;
}

export function fixtureNames(): string[] {
  return fs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
