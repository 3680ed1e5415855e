// `kg build` as a user runs it: the bundled CLI in a child process, real files on disk.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function listDir(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

describe('kg build', () => {
  after(removeTempDirs);

  it('dry run prints a valid graph and touches nothing', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export function a() {}' });
    const r = kg(['build'], root);
    assert.equal(r.code, 0, r.stderr);
    assertValidGraph(JSON.parse(r.stdout));
    assert.deepEqual(listDir(root), ['a.ts']);
    assert.match(r.stderr, /discovered 1 source files/);
  });

  it('--apply writes atomically and prints one summary line', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export function a() {}', 'b.ts': new Uint8Array([0, 1, 2]) });
    const r = kg(['build', '--apply'], root);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(
      lines[0],
      /^kg: wrote \.knowledge-graph\/graph\.json: 3 nodes, 2 edges, layers calls\+references\+structural, 1 file skipped \(1 binary\), \d+\.\d\d s$/,
    );
    const graph = JSON.parse(fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8'));
    assertValidGraph(graph);
    assert.deepEqual(
      listDir(path.join(root, '.knowledge-graph')),
      ['graph.json', 'graph.manifest.json'],
      'the graph, its manifest, and no temp file',
    );
  });

  it("the summary line says why files were skipped, with counts (issue 55: '148 files skipped' did not)", () => {
    const root = tempDir();
    writeTree(root, {
      'tsconfig.json': JSON.stringify({ compilerOptions: { outDir: 'lib' }, include: ['src'] }),
      'src/a.ts': 'export function a() {}',
      'src/api/client.ts': 'export const client = 1;',
      'src/api/types.ts': 'export type T = 1;',
      'src/api/.gitattributes': '*.ts linguist-generated\n',
      'lib/a.js': 'exports.a = 1;',
      'blob.ts': new Uint8Array([0, 1, 2]),
    });
    const r = kg(['build', '--apply', '--no-server'], root);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /, 4 files skipped \(2 generated, by \.gitattributes; 1 binary; 1 build output\), \d+\.\d\d s\n$/);
  });

  it('a build with nothing changed writes nothing and says so; a change writes again', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export function a() {}\n' });
    assert.equal(kg(['build', '--apply', '--no-server'], root).code, 0);
    const dir = path.join(root, '.knowledge-graph');
    const files = ['graph.json', 'graph.manifest.json'].map((f) => path.join(dir, f));
    // A minute in the past, in whole seconds, so that a rewrite would show even on a coarse clock.
    // The times are compared as the file system gives them back after utimes: a float mtimeMs
    // can read 0.001 ms off the Date set (a CI run saw …575.999 for …576).
    const past = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    for (const f of files) fs.utimesSync(f, past, past);
    const set = files.map((f) => fs.statSync(f, { bigint: true }).mtimeNs);
    const bytes = files.map((f) => fs.readFileSync(f, 'utf8'));
    const again = kg(['build', '--apply', '--no-server'], root);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^kg: unchanged \(nothing to write\) \.knowledge-graph\/graph\.json: \d+ nodes, /);
    files.forEach((f, i) => {
      assert.equal(fs.statSync(f, { bigint: true }).mtimeNs, set[i], `${path.basename(f)} was not rewritten`);
      assert.equal(fs.readFileSync(f, 'utf8'), bytes[i]);
    });
    assert.deepEqual(listDir(dir), ['graph.json', 'graph.manifest.json'], 'no temp file either');
    writeTree(root, { 'b.ts': 'export function b() {}\n' });
    const changed = kg(['build', '--apply', '--no-server'], root);
    assert.match(changed.stdout, /^kg: wrote \.knowledge-graph\/graph\.json: /);
    assert.ok(fs.statSync(files[0], { bigint: true }).mtimeNs > set[0]);
  });

  it('--out and --root are honoured relative to the working directory', () => {
    const cwd = tempDir();
    writeTree(cwd, { 'repo/src/a.ts': 'export const a = 1;' });
    const r = kg(['build', '--apply', '--root', 'repo', '--out', 'graphs/g.json'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assertValidGraph(JSON.parse(fs.readFileSync(path.join(cwd, 'graphs', 'g.json'), 'utf8')));
    assert.ok(!fs.existsSync(path.join(cwd, 'repo', '.knowledge-graph')));
  });

  it('--extract-only builds no calls layer', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export function a() {}\nexport function b() { a(); }' });
    const r = kg(['build', '--extract-only'], root);
    assert.equal(r.code, 0, r.stderr);
    const g = JSON.parse(r.stdout);
    assert.ok(!g.layers.includes('calls'));
    assert.ok(!g.edges.some((e: { relation: string }) => e.relation === 'calls'));
  });

  for (const [what, setup, message] of [
    ['a missing root', (root: string) => fs.rmSync(root, { recursive: true }), /root is not a directory/],
    ['a root with no sources', (root: string) => writeTree(root, { 'README.md': '# hi' }), /no TypeScript or JavaScript sources/],
    [
      'an unparsable tsconfig',
      (root: string) => writeTree(root, { 'a.ts': 'export const a = 1;', 'tsconfig.json': '{ "compilerOptions": { "strict": true,, }' }),
      /tsconfig\.json:1:\d+: cannot parse/,
    ],
  ] as const) {
    it(`${what}: a clear message, exit 2, nothing written, the previous graph kept`, () => {
      const cwd = tempDir();
      const root = path.join(cwd, 'repo');
      fs.mkdirSync(root);
      const out = path.join(cwd, 'graph.json');
      fs.writeFileSync(out, 'previous graph');
      setup(root);
      const r = kg(['build', '--apply', '--root', root, '--out', out], cwd);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
      assert.equal(fs.readFileSync(out, 'utf8'), 'previous graph');
      assert.deepEqual(
        listDir(cwd).filter((f) => f !== 'repo'),
        ['graph.json'],
      );
    });
  }

  it('usage errors exit 2 with the help on stderr; --help documents every flag', () => {
    const cwd = tempDir();
    const bad = kg(['build', '--nope'], cwd);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Unknown option '--nope'/);
    const none = kg([], cwd);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Usage: kg/);
    const unknown = kg(['frobnicate'], cwd);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    const help = kg(['build', '--help'], cwd);
    assert.equal(help.code, 0);
    for (const flag of ['--apply', '--extract-only', '--root', '--out', '--list-external', '--help'])
      assert.ok(help.stdout.includes(flag), flag);
  });
});
