// Staleness told from stamps (ADR 168) on a real tree on disk: every answer is the one a full walk
// and hash gives (staleness over fingerprintTree), and a check of an unchanged tree lists no
// folder and reads no file. The clock is injected so the tree looks still for a minute (its stamps
// trusted), except in the last test, where a file just changed must be looked at again.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildTracked, fingerprintTree, nodeFileHost, staleness, StampedStaleness, type FileHost, type Manifest } from '../../src/graph';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

function counting(): { host: FileHost; counts: { readDir: number; readFile: number } } {
  const counts = { readDir: 0, readFile: 0 };
  const host: FileHost = {
    readDir(dir) {
      counts.readDir++;
      return nodeFileHost.readDir(dir);
    },
    readFile(file) {
      counts.readFile++;
      return nodeFileHost.readFile(file);
    },
    stat: (p) => nodeFileHost.stat(p),
    realpath: (p) => nodeFileHost.realpath(p),
  };
  return { host, counts };
}

function repository(): { root: string; manifest: Manifest } {
  const root = tempDir('kg-stamps-');
  writeTree(root, {
    '.gitignore': 'ignored/\n',
    'README.md': '# A\n\nCalls `add`.\n',
    'src/lib.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
    'src/app.ts': "import { add } from './lib';\nexport function run(): number {\n  return add(1, 2);\n}\n",
    'ignored/keep.txt': 'x\n',
  });
  return { root, manifest: buildTracked({ root }).manifest };
}

/** What a walk and a hash of every file says now. */
const walked = (root: string, m: Manifest) => staleness(m, fingerprintTree(root, m));

describe('staleness from stamps (ADR 168)', () => {
  after(removeTempDirs);
  const still = () => Date.now() + 60_000;

  it('answers as a full walk does, and an unchanged tree costs no listing and no read', () => {
    const { root, manifest } = repository();
    const { host, counts } = counting();
    const s = new StampedStaleness(root, manifest, host, still);
    const first = s.check();
    assert.equal(first.stale, false);
    assert.deepEqual(first, walked(root, manifest));
    assert.ok(counts.readDir > 0 && counts.readFile > 0, 'the first check walks and reads');

    counts.readDir = counts.readFile = 0;
    for (let i = 0; i < 3; i++) assert.deepEqual(s.check(), first);
    assert.deepEqual(counts, { readDir: 0, readFile: 0 }, 'an unchanged tree: stats only');

    // An edit in place that keeps the size: only the stamp's times and the bytes change.
    const lib = path.join(root, 'src', 'lib.ts');
    const text = fs.readFileSync(lib, 'utf8');
    fs.writeFileSync(lib, text.replace('a + b', 'b + a'));
    assert.equal(fs.statSync(lib).size, Buffer.byteLength(text));
    const edited = s.check();
    assert.deepEqual(edited.changedFiles, ['src/lib.ts']);
    assert.deepEqual(edited, walked(root, manifest));
    counts.readFile = 0;
    assert.deepEqual(s.check(), edited);
    assert.equal(counts.readFile, 0, 'then stats only again');

    fs.writeFileSync(path.join(root, 'src', 'extra.ts'), 'export const x = 1;\n');
    const added = s.check();
    assert.deepEqual(added.added, ['src/extra.ts']);
    assert.deepEqual(added, walked(root, manifest));

    fs.rmSync(path.join(root, 'src', 'app.ts'));
    const deleted = s.check();
    assert.deepEqual(deleted.deleted, ['src/app.ts']);
    assert.deepEqual(deleted, walked(root, manifest));
  });

  it('a file in an ignored folder changes nothing and is not looked at; un-ignoring it is seen', () => {
    const { root, manifest } = repository();
    const { host, counts } = counting();
    const s = new StampedStaleness(root, manifest, host, still);
    const first = s.check();
    fs.writeFileSync(path.join(root, 'ignored', 'late.ts'), 'export const late = 1;\n');
    counts.readDir = counts.readFile = 0;
    assert.deepEqual(s.check(), first);
    assert.deepEqual(counts, { readDir: 0, readFile: 0 });
    assert.deepEqual(first, walked(root, manifest), 'a walk does not see it either');

    fs.writeFileSync(path.join(root, '.gitignore'), 'nothing/\n');
    const seen = s.check();
    assert.ok(seen.added.includes('ignored/late.ts'), JSON.stringify(seen));
    assert.deepEqual(seen, walked(root, manifest));
  });

  it('a check right after a change does not trust the stamps it took: the next one looks again', () => {
    const { root, manifest } = repository();
    const { host, counts } = counting();
    // The real clock: everything was written a moment ago.
    const s = new StampedStaleness(root, manifest, host);
    assert.deepEqual(s.check(), walked(root, manifest));
    counts.readDir = 0;
    assert.deepEqual(s.check(), walked(root, manifest));
    assert.ok(counts.readDir > 0, 'walked again: a write in the same clock tick would not have changed the stamp');
  });
});
