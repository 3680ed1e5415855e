// `kg status`: the files changed, added and deleted since the graph was built, from the
// manifest's fingerprints against the working tree; and the pure staleness function behind it.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { fingerprintTree, parseManifest, staleness, type Manifest } from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: args[0] === 'status' && r.stdout ? JSON.parse(r.stdout) : undefined };
}

const TREE = {
  'tsconfig.json': '{ "include": ["src"] }\n',
  'src/a.ts': 'export function a() {}\n',
  'src/b.ts': 'export function b() {}\n',
  'src/c.ts': 'export function c() {}\n',
};

describe('kg status', () => {
  after(removeTempDirs);

  it('lists changed, added and deleted files, including configs, and nothing when fresh', () => {
    const root = tempDir();
    writeTree(root, TREE);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const fresh = kg(['status'], root);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.equal(
      fresh.stdout,
      '{"available":true,"graph":".knowledge-graph/graph.json","stale":false,"changedFiles":[],"changed":[],"added":[],"deleted":[]}\n',
    );

    writeTree(root, {
      'src/a.ts': 'export function a() { return 1; }\n',
      'src/new.ts': 'export const n = 1;\n',
      'tsconfig.json': '{ "include": ["src"], "compilerOptions": {} }\n',
    });
    fs.rmSync(path.join(root, 'src', 'c.ts'));
    // Touching a file without changing its bytes is not a change.
    fs.utimesSync(path.join(root, 'src', 'b.ts'), new Date(), new Date(2001, 1, 1));
    const r = kg(['status'], root);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      available: true,
      graph: '.knowledge-graph/graph.json',
      stale: true,
      changedFiles: ['src/a.ts', 'src/c.ts', 'src/new.ts', 'tsconfig.json'],
      changed: ['src/a.ts', 'tsconfig.json'],
      added: ['src/new.ts'],
      deleted: ['src/c.ts'],
    });
    // Status only reads.
    assert.deepEqual(fs.readdirSync(path.join(root, '.knowledge-graph')).sort(), ['graph.json', 'graph.manifest.json']);
  });

  it('does not count what the build passes over (binary files, build output) as added', () => {
    const root = tempDir();
    writeTree(root, {
      'tsconfig.json': '{ "compilerOptions": { "outDir": "lib" }, "include": ["src"] }\n',
      'src/a.ts': 'export function a() {}\n',
      'lib/a.js': 'export function a() {}\n',
      'src/blob.ts': new Uint8Array([1, 0, 2]),
    });
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.manifest.json'), 'utf8'));
    assert.deepEqual([manifest.skipped, manifest.outputDirs], [['src/blob.ts'], ['lib']]);
    assert.equal(kg(['status'], root).json.stale, false);
    writeTree(root, { 'lib/b.js': 'export const b = 1;\n', 'src/b.ts': 'export const b = 1;\n' });
    assert.deepEqual(kg(['status'], root).json.added, ['src/b.ts']);
  });

  it('finds the repository of a --graph inside a .knowledge-graph folder, or takes --root', () => {
    const cwd = tempDir();
    writeTree(cwd, Object.fromEntries(Object.entries(TREE).map(([k, v]) => [`repo/${k}`, v])));
    assert.equal(kg(['build', '--apply', '--root', 'repo'], cwd).code, 0);
    writeTree(cwd, { 'repo/src/b.ts': 'export function b2() {}\n' });
    assert.deepEqual(kg(['status', '--graph', 'repo/.knowledge-graph/graph.json'], cwd).json.changed, ['src/b.ts']);
    assert.deepEqual(kg(['status', '--root', 'repo'], cwd).json.changed, ['src/b.ts']);
    assert.equal(kg(['build', '--apply', '--root', 'repo', '--out', 'elsewhere/g.json'], cwd).code, 0);
    assert.equal(kg(['status', '--graph', 'elsewhere/g.json', '--root', 'repo'], cwd).json.stale, false);
  });

  it('is unavailable (exit 3, with a reason) without a graph, without a manifest, or with one that does not match', () => {
    const root = tempDir();
    writeTree(root, TREE);
    const none = kg(['status'], root);
    assert.equal(none.code, 3);
    assert.equal(none.json.available, false);
    assert.match(none.json.reason, /there is no graph\.json/);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const manifest = path.join(root, '.knowledge-graph', 'graph.manifest.json');
    const text = fs.readFileSync(manifest, 'utf8');
    fs.writeFileSync(manifest, text.replace(/"graphSha256": "[0-9a-f]+"/, `"graphSha256": "${'0'.repeat(64)}"`));
    const mismatch = kg(['status'], root);
    assert.equal(mismatch.code, 3);
    assert.match(mismatch.json.reason, /does not describe the current graph\.json/);
    fs.rmSync(manifest);
    const missing = kg(['status'], root);
    assert.equal(missing.code, 3);
    assert.match(missing.json.reason, /no manifest beside graph\.json/);
  });

  it('makes query results carry stale and changedFiles', () => {
    const root = tempDir();
    writeTree(root, TREE);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const query = (args: string[]) => JSON.parse(spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: 'utf8' }).stdout);
    const fresh = query(['query', 'src/a.ts']);
    assert.deepEqual([fresh.available, fresh.stale, fresh.changedFiles], [true, false, []]);
    writeTree(root, { 'src/a.ts': 'export function a2() {}\n' });
    const stale = query(['callers', 'sym:src/a.ts#a']);
    assert.deepEqual([stale.stale, stale.changedFiles], [true, ['src/a.ts']]);
    // A graph whose repository cannot be told from where it sits says nothing about staleness.
    fs.copyFileSync(path.join(root, '.knowledge-graph', 'graph.json'), path.join(root, 'copy.json'));
    const elsewhere = query(['query', 'src/a.ts', '--graph', 'copy.json']);
    assert.equal(elsewhere.available, true);
    assert.equal('stale' in elsewhere, false);
  });

  it('status, doctor and queries never load the builder or the compiler (dist/engine-build.js)', () => {
    const root = tempDir();
    writeTree(root, TREE);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    // Runs the bundled CLI with a loader that refuses the builder's bundle.
    const guarded = (args: string[]) =>
      spawnSync(
        process.execPath,
        [
          '-e',
          `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (String(request).includes('engine-build')) throw new Error('the builder bundle was loaded');
  return load.call(this, request, ...rest);
};
process.argv = [process.argv[0], ${JSON.stringify(CLI)}, ...${JSON.stringify(args)}];
require(${JSON.stringify(CLI)});`,
        ],
        { cwd: root, encoding: 'utf8' },
      );
    for (const args of [['status'], ['doctor'], ['query', 'src/a.ts'], ['god-nodes']]) {
      const r = guarded(args);
      assert.equal(r.status, 0, `kg ${args.join(' ')}: ${r.stderr}`);
      assert.ok(!r.stderr.includes('the builder bundle was loaded'), r.stderr);
    }
    const build = guarded(['build']);
    assert.notEqual(build.status, 0, 'the guard does catch a load of the builder');
    assert.match(build.stderr, /the builder bundle was loaded/);
  });

  it('exports a pure staleness function over a manifest and the working tree', () => {
    const root = tempDir();
    writeTree(root, TREE);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const m = (parseManifest(fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.manifest.json'), 'utf8')) as { manifest: Manifest })
      .manifest;
    const tree = fingerprintTree(root, m);
    assert.deepEqual(staleness(m, tree), { stale: false, changedFiles: [], changed: [], added: [], deleted: [] });
    const s = staleness(m, { ...tree, 'src/b.ts': 'f'.repeat(64) });
    assert.deepEqual([s.stale, s.changedFiles], [true, ['src/b.ts']]);
  });
});
