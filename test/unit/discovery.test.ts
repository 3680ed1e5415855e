// Discovery over real trees on disk: what is walked, what is skipped (with a reason), and that
// nothing hangs or crashes on loops, binary files, odd names or unreadable entries.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, examineGraph, memoryFileHost, nodeFileHost, type FileHost } from '../../src/graph';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

function files(graph: { nodes: { id: string; kind: string }[] }): string[] {
  return graph.nodes.filter((n) => n.kind === 'file').map((n) => n.id.slice('file:'.length));
}

describe('discovery', () => {
  after(removeTempDirs);

  it('honours .gitignore (nested, negated, anchored, directory-only) and never enters node_modules or .git', () => {
    const root = tempDir();
    writeTree(root, {
      '.gitignore': 'build/\n*.gen.ts\n!keep.gen.ts\n/top-only.ts\n',
      'src/a.ts': 'export const a = 1;',
      'src/x.gen.ts': 'export const gen = 1;',
      'src/keep.gen.ts': 'export const keep = 1;',
      'top-only.ts': 'export const t = 1;',
      'src/top-only.ts': 'export const nested = 1;',
      'build/out.js': 'var x = 1;',
      'src/build': 'a file named build is not a directory',
      'pkg/.gitignore': 'local.ts\n',
      'pkg/local.ts': 'export const l = 1;',
      'pkg/other.ts': 'export const o = 1;',
      'local.ts': 'export const rootLocal = 1;',
      'node_modules/dep/index.ts': 'export const dep = 1;',
      'src/node_modules/inner.ts': 'export const inner = 1;',
      '.git/hooks/x.js': 'var hook;',
    });
    const { graph } = buildGraph({ root });
    assertValidGraph(JSON.parse(JSON.stringify(graph)));
    assert.deepEqual(files(graph), ['local.ts', 'pkg/other.ts', 'src/a.ts', 'src/keep.gen.ts', 'src/top-only.ts']);
  });

  it('skips a symbolic link loop and other links with a reason, without hanging', () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': 'export function a() {}', 'outside/o.ts': 'export const o = 1;' });
    fs.symlinkSync('..', path.join(root, 'src', 'loop'));
    fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'src', 'alias.ts'));
    fs.symlinkSync(path.join(root, 'missing.ts'), path.join(root, 'dangling.ts'));
    fs.symlinkSync(path.join(root, 'self'), path.join(root, 'self'));
    const { graph, stats } = buildGraph({ root });
    assertValidGraph(JSON.parse(JSON.stringify(graph)));
    assert.deepEqual(files(graph), ['outside/o.ts', 'src/a.ts']);
    const reasons = Object.fromEntries((graph.diagnostics ?? []).map((d) => [d.path, d.reason]));
    assert.match(reasons['src/loop'], /loop/);
    assert.match(reasons['src/alias.ts'], /symbolic link/);
    assert.match(reasons['dangling.ts'], /dangling/);
    assert.match(reasons['self'], /loop/);
    assert.equal(stats.skipped, 4);
    assert.deepEqual(stats.skippedBy, { 'symbolic link': 4 });
  });

  it('skips binary .ts files with a reason', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;', 'blob.ts': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0xff]) });
    const { graph } = buildGraph({ root });
    assert.deepEqual(files(graph), ['a.ts']);
    assert.deepEqual(graph.diagnostics, [{ path: 'blob.ts', reason: 'binary file (contains NUL bytes)' }]);
  });

  it('skips a file whose name is not valid UTF-8 with a reason', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;' });
    const bad = Buffer.concat([Buffer.from(root + '/bad-'), Buffer.from([0xff, 0xfe]), Buffer.from('.ts')]);
    fs.writeFileSync(bad, 'export const bad = 1;');
    const { graph } = buildGraph({ root });
    assert.deepEqual(files(graph), ['a.ts']);
    assert.equal(graph.diagnostics?.length, 1);
    assert.match(graph.diagnostics![0].reason, /not valid UTF-8/);
    assert.ok(graph.diagnostics![0].path.startsWith('bad-'));
  });

  it('skips a file or folder whose name holds a backslash with a reason (issue 55), on real disk', () => {
    const root = tempDir();
    writeTree(root, {
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler" } }',
      'src/a/b.ts': 'export function fromFolder() {\n  return 1;\n}\n',
      'src/c.ts': "import { fromFolder } from './a/b';\nexport function c() {\n  return fromFolder();\n}\n",
    });
    // Linux takes a backslash in a name: the compiler would read `src/a\b.ts` as `src/a/b.ts`.
    fs.writeFileSync(path.join(root, 'src', 'a\\b.ts'), 'export function fromBackslash() {\n  return 2;\n}\n');
    fs.mkdirSync(path.join(root, 'lib\\x'));
    fs.writeFileSync(path.join(root, 'lib\\x', 'y.ts'), 'export const y = 1;\n');
    fs.writeFileSync(path.join(root, 'notes\\draft.txt'), 'not source: passed over without a word');
    const { graph, stats } = buildGraph({ root });
    assertValidGraph(JSON.parse(JSON.stringify(graph)));
    assert.deepEqual(files(graph), ['src/a/b.ts', 'src/c.ts']);
    const reason = 'skipped: the name holds a backslash, which the TypeScript compiler reads as a folder separator';
    assert.deepEqual(
      (graph.diagnostics ?? []).filter((d) => d.path !== 'tsconfig.json'),
      [
        { path: 'lib\\x', reason },
        { path: 'src/a\\b.ts', reason },
      ],
    );
    assert.equal(stats.skipped, 2);
    assert.deepEqual(stats.skippedBy, { 'backslash in name': 2 });
    // The doctor's verdict (the schema and the six rules) passes it, as it must any graph a build writes.
    assert.ok(examineGraph(JSON.parse(JSON.stringify(graph))).ok);
  });

  it('skips unreadable files and directories with a reason', () => {
    const root = '/repo';
    const inner = memoryFileHost(root, { 'a.ts': 'export const a = 1;', 'secret.ts': 'x', 'locked/b.ts': 'export const b = 1;' });
    const denied = Object.assign(new Error('EACCES'), { code: 'EACCES' });
    const host: FileHost = {
      ...inner,
      readFile: (p) => {
        if (p.endsWith('secret.ts')) throw denied;
        return inner.readFile(p);
      },
      readDir: (p) => {
        if (p.endsWith('/locked')) throw denied;
        return inner.readDir(p);
      },
    };
    const { graph } = buildGraph({ root, host });
    assert.deepEqual(files(graph), ['a.ts']);
    assert.deepEqual(graph.diagnostics, [
      { path: 'locked', reason: 'unreadable directory (EACCES)' },
      { path: 'secret.ts', reason: 'unreadable file (EACCES)' },
    ]);
  });

  it("treats files outside every tsconfig as loose files, but not a project's build output", () => {
    const root = tempDir();
    writeTree(root, {
      'tsconfig.json': '{ "compilerOptions": { "outDir": "lib" }, "include": ["src"] }',
      'src/a.ts': 'export const a = 1;',
      'scripts/tool.js': 'module.exports = 1;',
      'lib/a.js': 'exports.a = 1;',
      'lib/a.d.ts': 'export declare const a = 1;',
    });
    const { graph, stats } = buildGraph({ root });
    assert.deepEqual(files(graph), ['scripts/tool.js', 'src/a.ts']);
    // Both files of lib/ count, not one fewer (the count was one short per output folder).
    assert.deepEqual([stats.skipped, stats.skippedBy], [2, { 'build output': 2 }]);
    // (The config also gets TypeScript 5's defaults, ADR 81: that is the other diagnostic.)
    assert.deepEqual(
      graph.diagnostics?.filter((d) => !d.reason.startsWith('TypeScript 5 semantics')),
      [{ path: 'lib', reason: '2 files skipped: build output of tsconfig.json' }],
    );
  });

  it('reads solution-style configs and the configs their references name, even with unusual names', () => {
    const root = tempDir();
    writeTree(root, {
      'tsconfig.json': '{ "files": [], "references": [{ "path": "./tsconfig.lib.json" }] }',
      'tsconfig.lib.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "#lib/*": ["lib/*"] } }, "include": ["lib", "app"] }',
      'lib/util.ts': 'export const u = 1;',
      'app/main.ts': 'import { u } from "#lib/util"; export const m = u;',
    });
    const { graph } = buildGraph({ root });
    assert.ok(graph.edges.some((e) => e.source === 'file:app/main.ts' && e.target === 'file:lib/util.ts' && e.relation === 'imports'));
  });

  it('works the same over an injected in-memory tree', () => {
    const host = memoryFileHost('/mem', { 'src/a.ts': 'import { b } from "./b"; export const a = b;', 'src/b.ts': 'export const b = 1;' });
    const { graph } = buildGraph({ root: '/mem', host });
    assert.deepEqual(files(graph), ['src/a.ts', 'src/b.ts']);
    assert.ok(graph.edges.some((e) => e.source === 'file:src/a.ts' && e.target === 'file:src/b.ts'));
    assert.equal(nodeFileHost.stat('/definitely/not/here'), undefined);
  });
});
