// Small user surprises at the command line: a --root that is a file, an --out that is a folder or
// empty, kg --version, kg status without a graph. Each is bad usage or a plain answer, never a
// file-system error from half-way through a build.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { run } from '../../src/cli/run';
import { KG_VERSION } from '../../src/graph';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

async function kg(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr };
}

describe('command-line edges', () => {
  after(removeTempDirs);

  it('--root naming a file: exit 2, "root is not a directory"', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;\n' });
    const r = await kg(['build', '--root', 'a.ts'], root);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^kg: error: root is not a directory: a\.ts\n$/);
  });

  it('--out naming a folder, or empty: exit 2, nothing written', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;\n', 'out/keep': '' });
    for (const out of ['out', '']) {
      const r = await kg(['build', '--apply', '--out', out], root);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--out must name a file/);
    }
    assert.deepEqual(fs.readdirSync(path.join(root, 'out')), ['keep']);
    assert.ok(!fs.existsSync(path.join(root, '.knowledge-graph')));
  });

  it('kg build from a subdirectory builds the repository around it, and says so; queries find it too', async () => {
    const root = tempDir();
    writeTree(root, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'tsconfig.json': '{}',
      'src/deep/a.ts': 'export function a() {}\nexport function b() { a(); }\n',
    });
    const sub = path.join(root, 'src', 'deep');
    const r = await kg(['build', '--apply', '--no-server'], sub);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`repository root: ${root} \\(the nearest folder with \\.git`));
    assert.ok(fs.existsSync(path.join(root, '.knowledge-graph', 'graph.json')));
    assert.ok(!fs.existsSync(path.join(sub, '.knowledge-graph')), 'no second graph in the subdirectory');
    const q = JSON.parse((await kg(['callers', 'sym:src/deep/a.ts#a'], sub)).stdout) as { available?: boolean };
    assert.notEqual(q.available, false, JSON.stringify(q));
  });

  it('kg --version', async () => {
    const r = await kg(['--version'], tempDir());
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `kg ${KG_VERSION}\n`);
  });

  it('kg status without a graph carries the code a query carries', async () => {
    const root = tempDir();
    const status = JSON.parse((await kg(['status'], root)).stdout) as { code: string };
    const query = JSON.parse((await kg(['callers', 'sym:a.ts#a'], root)).stdout) as { code: string };
    assert.equal(status.code, 'NO_GRAPH');
    assert.equal(status.code, query.code);
  });
});

describe('an unknown id that differs from a real one only by escaping', () => {
  after(removeTempDirs);

  it('gets the real one as its suggestion', async () => {
    const root = tempDir();
    writeTree(root, { 'src/a#b.ts': 'export function f() {}\nexport function g() { f(); }\n' });
    assert.equal((await kg(['build', '--apply', '--no-server'], root)).code, 0);
    const r = JSON.parse((await kg(['callers', 'sym:src/a#b.ts#f'], root)).stdout) as { code: string; suggestions?: string[] };
    assert.equal(r.code, 'UNKNOWN_NODE');
    assert.deepEqual(r.suggestions, ['sym:src/a%23b.ts#f']);
  });
});
