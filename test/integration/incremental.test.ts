// The incremental build: parses only what changed, carries the rest, re-resolves every import,
// equals a full build byte for byte — and refuses to shrink the graph on a suspected parse failure.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  BuildSession,
  buildGraph,
  buildTracked,
  commitGeneration,
  nodeFileHost,
  readPrevious,
  serializeGraph,
  type FileHost,
  type TrackedBuildResult,
} from '../../src/graph';
import { CLI, copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

function step(root: string, extractOnly = false): TrackedBuildResult {
  const out = path.join(root, '.knowledge-graph', 'graph.json');
  const result = buildTracked({ root, extractOnly, previous: readPrevious(out) });
  const full = serializeGraph(buildGraph({ root, extractOnly }).graph);
  assert.equal(result.text, full, 'the incremental graph equals a full build of the same tree');
  assertValidGraph(JSON.parse(result.text));
  assert.equal(commitGeneration(out, result.text, result.manifestText).status, 'current');
  return result;
}

describe('incremental build', () => {
  after(removeTempDirs);

  it('parses only changed and added files, prunes deleted ones, and equals the full build', () => {
    const root = tempDir();
    writeTree(root, {
      'src/a.ts': 'export function a() {}\n',
      'src/b.ts': "import { a } from './a';\nimport { c } from './c';\nexport function b() { a(); c(); }\n",
      'src/d.ts': 'export class D { m() {} }\n',
    });
    const first = step(root);
    assert.equal(first.mode, 'full');
    assert.match(first.text, /"target":"unresolved:\.\/c","relation":"imports".*"reason":"not-found"/);

    // An unchanged importer's reference is resolved again: adding c.ts places b's import.
    writeTree(root, { 'src/c.ts': 'export function c() {}\n' });
    const added = step(root);
    assert.equal(added.mode, 'incremental');
    // b.ts is parsed again too: its import of './c' leads somewhere new, so its calls may resolve anew.
    assert.deepEqual(added.delta, {
      changed: [],
      added: ['src/c.ts'],
      deleted: [],
      extracted: 2,
      carried: 2,
      invalidation: { byFile: [] },
    });
    assert.match(added.text, /"source":"file:src\/b\.ts","target":"file:src\/c\.ts","relation":"imports"/);

    writeTree(root, { 'src/d.ts': 'export class D { m() {} n() {} }\n' });
    const changed = step(root);
    assert.deepEqual(changed.delta, {
      changed: ['src/d.ts'],
      added: [],
      deleted: [],
      extracted: 1,
      carried: 3,
      invalidation: { byFile: [] },
    });
    assert.ok(changed.text.includes('"id":"sym:src/d.ts#D.n"'));

    fs.rmSync(path.join(root, 'src', 'c.ts'));
    const deleted = step(root);
    assert.deepEqual(deleted.delta, {
      changed: [],
      added: [],
      deleted: ['src/c.ts'],
      extracted: 1,
      carried: 2,
      invalidation: { byFile: [] },
    });
    assert.ok(!deleted.text.includes('sym:src/c.ts'));

    fs.renameSync(path.join(root, 'src', 'd.ts'), path.join(root, 'src', 'e.ts'));
    const renamed = step(root);
    assert.deepEqual(renamed.delta, {
      changed: [],
      added: ['src/e.ts'],
      deleted: ['src/d.ts'],
      extracted: 1,
      carried: 2,
      invalidation: { byFile: [] },
    });

    // A new directory brings a module; emptying one removes it.
    writeTree(root, { 'lib/x.ts': "export { a } from '../src/a';\n" });
    assert.ok(step(root).text.includes('"id":"mod:lib"'));
    fs.rmSync(path.join(root, 'lib'), { recursive: true });
    assert.ok(!step(root).text.includes('"id":"mod:lib"'));
  });

  it('works for the extraction tier and across every fixture, file by file', () => {
    for (const name of ['nested-modules', 'path-aliases', 'project-references', 'reexports', 'tsx', 'plain-js']) {
      const root = copyFixture(name);
      step(root, true);
      const files: string[] = [];
      const walk = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          if (e.name === '.knowledge-graph') continue;
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (/\.[cm]?[jt]sx?$/.test(e.name)) files.push(p);
        }
      };
      walk(root);
      for (const f of files.sort()) {
        fs.appendFileSync(f, '\nexport function addedByTest() {}\n');
        const r = step(root, true);
        assert.equal(r.mode, 'incremental', `${name}: ${r.fullReason}`);
        assert.equal(r.delta.extracted, 1);
      }
    }
  });

  describe('the resolution tier resolves again what a change can affect, and only that', () => {
    const TREE = {
      'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
      'src/core.ts':
        'export function core(n: number): number {\n  return n + 1;\n}\nexport function made() {\n  return { go: () => 1 };\n}\n',
      'src/mid.ts': "import { core, made } from './core';\nexport function mid(): number {\n  return core(1) + made().go();\n}\n",
      'src/top.ts': "import { mid } from './mid';\nexport function top(): number {\n  return mid();\n}\n",
      'src/alone.ts': 'export function alone(): number {\n  return 0;\n}\n',
      'src/globals.d.ts': 'declare function ambient(): void;\n',
    };
    const resolvedAgain = (r: TrackedBuildResult) => r.files.filter((f) => !f.carried).map((f) => f.path);

    it('a body behind a written return type: that file alone', () => {
      const root = tempDir();
      writeTree(root, TREE);
      step(root);
      writeTree(root, { 'src/core.ts': TREE['src/core.ts'].replace('n + 1', 'n + 2') });
      const r = step(root);
      assert.equal(r.mode, 'incremental');
      assert.deepEqual(resolvedAgain(r), ['src/core.ts']);
      assert.ok(r.text.includes('"source":"sym:src/mid.ts#mid","target":"sym:src/core.ts#core","relation":"calls","confidence":"EXACT"'));
    });

    it('what importers can see (an inferred return type): the files that take the name, and no further when their own exports keep their types', () => {
      const root = tempDir();
      writeTree(root, TREE);
      step(root);
      writeTree(root, { 'src/core.ts': TREE['src/core.ts'].replace('{ go: () => 1 }', '{ go: () => 1, stop: () => 2 }') });
      const r = step(root);
      assert.equal(r.mode, 'incremental');
      // mid takes `made`; mid's own export has a written return type, so top sees nothing new.
      assert.deepEqual(resolvedAgain(r), ['src/core.ts', 'src/mid.ts']);
      assert.equal(r.text, serializeGraph(buildGraph({ root }).graph));
    });

    it('a changed name goes on through an export whose type it reaches (ADR 118)', () => {
      const root = tempDir();
      const tree = {
        ...TREE,
        'src/mid.ts':
          "import { core, made } from './core';\nexport function mid() {\n  return made();\n}\nexport function other(): number {\n  return core(1);\n}\n",
        'src/top.ts': "import { mid } from './mid';\nexport function top(): number {\n  return mid().go();\n}\n",
        'src/side.ts': "import { other } from './mid';\nexport function side(): number {\n  return other();\n}\n",
      };
      writeTree(root, tree);
      step(root);
      writeTree(root, { 'src/core.ts': TREE['src/core.ts'].replace('{ go: () => 1 }', '{ go: () => 1, stop: () => 2 }') });
      const r = step(root);
      // made changed → mid (inferred from made) changed → top; `other` did not change → side stays.
      assert.deepEqual(resolvedAgain(r), ['src/core.ts', 'src/mid.ts', 'src/top.ts']);
      assert.equal(r.text, serializeGraph(buildGraph({ root }).graph));
    });

    it('a new export: only the changed file, however many files import it', () => {
      const root = tempDir();
      writeTree(root, TREE);
      step(root);
      writeTree(root, { 'src/core.ts': TREE['src/core.ts'] + 'export const added = 1;\n' });
      const r = step(root);
      assert.deepEqual(resolvedAgain(r), ['src/core.ts']);
      assert.deepEqual(r.delta.invalidation, { byFile: [] });
      assert.equal(r.text, serializeGraph(buildGraph({ root }).graph));
    });

    it('a namespace read as ns.member takes those members; one used whole takes every name', () => {
      const root = tempDir();
      writeTree(root, {
        ...TREE,
        'src/ns.ts': "import * as c from './core';\nexport function viaNs(): number {\n  return c.core(1);\n}\n",
        'src/whole.ts': "import * as c from './core';\nexport function viaWhole(): number {\n  const all = c;\n  return all.core(1);\n}\n",
      });
      step(root);
      writeTree(root, { 'src/core.ts': TREE['src/core.ts'] + 'export const added = 1;\n' });
      assert.deepEqual(resolvedAgain(step(root)), ['src/core.ts', 'src/whole.ts']);
      // `core` itself changes (an overload more): both read it.
      writeTree(root, {
        'src/core.ts':
          TREE['src/core.ts'].replace(
            'export function core(n: number): number {',
            'export function core(n: number): number;\nexport function core(n: number): number {',
          ) + 'export const added = 1;\n',
      });
      const r = step(root);
      assert.deepEqual(resolvedAgain(r), ['src/core.ts', 'src/mid.ts', 'src/ns.ts', 'src/whole.ts']);
      assert.equal(r.text, serializeGraph(buildGraph({ root }).graph));
    });

    it('an export * passes a new name on unless the file shadows it', () => {
      const root = tempDir();
      writeTree(root, {
        ...TREE,
        'src/barrel.ts': "export * from './core';\nexport const added = 'mine';\n",
        'src/user.ts': "import { added, core } from './barrel';\nexport function user(): number {\n  return core(added.length);\n}\n",
        'src/user2.ts': "import { made } from './barrel';\nexport function user2(): number {\n  return made().go();\n}\n",
      });
      step(root);
      // core gains `added`, which the barrel shadows with its own: user's `added` is still the barrel's.
      writeTree(root, { 'src/core.ts': TREE['src/core.ts'] + 'export const added = 1;\n' });
      assert.deepEqual(resolvedAgain(step(root)), ['src/core.ts']);
      // core's `made` changes: it passes through the barrel to user2, not to user.
      writeTree(root, {
        'src/core.ts': TREE['src/core.ts'].replace('{ go: () => 1 }', '{ go: () => 1, stop: () => 2 }') + 'export const added = 1;\n',
      });
      const r = step(root);
      assert.deepEqual(resolvedAgain(r), ['src/barrel.ts', 'src/core.ts', 'src/mid.ts', 'src/user2.ts']);
      assert.equal(r.text, serializeGraph(buildGraph({ root }).graph));
    });

    it('a JavaScript file has no surface: the file-level rule decides, and the build says so', () => {
      const root = tempDir();
      writeTree(root, {
        'tsconfig.json': '{ "compilerOptions": { "strict": true, "allowJs": true }, "include": ["src"] }\n',
        'src/lib.js': 'export function lib() {\n  return 1;\n}\n',
        'src/use.ts': "import { lib } from './lib';\nexport function use(): number {\n  return lib();\n}\n",
        'src/top.ts': "import { use } from './use';\nexport function top(): number {\n  return use();\n}\n",
      });
      step(root);
      writeTree(root, { 'src/lib.js': 'export function lib() {\n  return 2;\n}\nexport const more = 1;\n' });
      const r = step(root);
      assert.deepEqual(resolvedAgain(r), ['src/lib.js', 'src/use.ts']);
      assert.deepEqual(r.delta.invalidation, { byFile: ['src/lib.js'] });
      assert.equal(r.text, serializeGraph(buildGraph({ root }).graph));
    });

    it('a file that declares globals: everything', () => {
      const root = tempDir();
      writeTree(root, TREE);
      step(root);
      writeTree(root, { 'src/globals.d.ts': 'declare function ambient(): number;\n' });
      const r = step(root);
      assert.equal(r.mode, 'full');
      assert.equal(r.fullReason, 'src/globals.d.ts declares globals and changed');
    });

    it('a module with `declare global`: by name while the augmentation stays, everything when it changes', () => {
      const root = tempDir();
      const types =
        'export interface Shape {\n  size: number;\n}\ndeclare global {\n  interface SymbolConstructor {\n    readonly kgMark: symbol;\n  }\n}\n';
      writeTree(root, {
        ...TREE,
        'src/types.ts': types,
        'src/use.ts': "import type { Shape } from './types';\nexport function use(s: Shape): number {\n  return s.size;\n}\n",
      });
      step(root);
      writeTree(root, { 'src/types.ts': types + 'export const added = 1;\n' });
      const r = step(root);
      assert.equal(r.mode, 'incremental');
      assert.deepEqual(resolvedAgain(r), ['src/types.ts']);
      writeTree(root, { 'src/types.ts': types.replace('kgMark: symbol', 'kgMark: unique symbol') + 'export const added = 1;\n' });
      const g = step(root);
      assert.equal(g.mode, 'full');
      assert.equal(g.fullReason, 'src/types.ts declares globals and changed');
    });

    it('a warm session resolves the same files and gives the same bytes', () => {
      const root = tempDir();
      writeTree(root, TREE);
      const session = new BuildSession({ root });
      assert.equal(session.warm().mode, 'full');
      writeTree(root, { 'src/top.ts': TREE['src/top.ts'].replace('return mid();', 'return mid() + mid();') });
      const r = session.rebuild();
      assert.equal(r.mode, 'incremental');
      assert.deepEqual(resolvedAgain(r), ['src/top.ts']);
      assert.equal(r.text, serializeGraph(buildGraph({ root }).graph));
    });
  });

  describe('a warm session reads only the files whose stamp changed (ADR 120)', () => {
    const FILES = {
      'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
      'src/b.ts': "import { a } from './a';\nexport function b(): number {\n  return a();\n}\n",
    };
    /** src/a.ts with another one-digit constant: the same size, other bytes. */
    const variant = (n: number) => FILES['src/a.ts'].replace('return 1;', `return ${n};`);
    /** The real disk, counting the source files read. */
    const counting = () => {
      const reads: string[] = [];
      const host: FileHost = {
        ...nodeFileHost,
        readFile(f) {
          if (f.endsWith('.ts')) reads.push(path.basename(f));
          return nodeFileHost.readFile(f);
        },
      };
      return { host, reads };
    };
    /** Waits out the window in which a stamp is not trusted (a write in the read's clock tick). */
    const still = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_100);
    const full = (root: string) => serializeGraph(buildGraph({ root }).graph);

    it('nothing changed: no source file is read; a same-size edit is read, and so is a file just written', () => {
      const root = tempDir();
      writeTree(root, FILES);
      still();
      const { host, reads } = counting();
      const session = new BuildSession({ root, host });
      session.warm();
      assert.deepEqual(reads.sort(), ['a.ts', 'b.ts'], 'the first build reads every file');
      reads.length = 0;
      const same = session.rebuild();
      assert.deepEqual(reads, [], 'nothing changed: nothing read');
      assert.equal(same.mode, 'incremental');
      assert.deepEqual(same.delta.changed, []);
      // The graph's hash, taken over from the last manifest when the bytes are the same, is theirs.
      assert.equal(same.manifest.graphSha256, createHash('sha256').update(same.text).digest('hex'));

      // The same size, written now: its stamp moved, so it is read, and the graph follows.
      writeTree(root, { 'src/a.ts': variant(2) });
      const r = session.rebuild();
      assert.deepEqual(reads, ['a.ts']);
      assert.deepEqual(r.delta.changed, ['src/a.ts']);
      assert.equal(r.text, full(root));

      // Just written, so not trusted yet: read at every build until it has been still a while —
      // which is what catches a second write in the first one's clock tick.
      reads.length = 0;
      session.rebuild();
      assert.deepEqual(reads, ['a.ts'], 'a file changed in the last moments is read again');
      writeTree(root, { 'src/a.ts': variant(3) });
      reads.length = 0;
      const again = session.rebuild();
      assert.deepEqual(reads, ['a.ts']);
      assert.deepEqual(again.delta.changed, ['src/a.ts']);
      assert.equal(again.text, full(root));
      still();
      session.rebuild();
      reads.length = 0;
      session.rebuild();
      assert.deepEqual(reads, [], 'still for a while: trusted again');

      // A touch without a change is read (its stamp moved) and is no change: the content decides.
      const now = new Date();
      fs.utimesSync(path.join(root, 'src/a.ts'), now, now);
      const touched = session.rebuild();
      assert.deepEqual(reads, ['a.ts']);
      assert.deepEqual(touched.delta.changed, []);
      assert.equal(touched.text, full(root));
    });
  });

  describe('throws rather than shrink', () => {
    const cases: Array<[string, (file: string) => void, RegExp]> = [
      [
        'a file emptied',
        (f) => fs.writeFileSync(f, ''),
        /src\/a\.ts had 2 symbols and now yields none \(the file is empty\); suspected parse failure/,
      ],
      [
        'a file that no longer parses to any declaration',
        (f) => fs.writeFileSync(f, '}}} export function ((( {{{\n'),
        /src\/a\.ts had 2 symbols and now yields none \(it has \d+ syntax errors?/,
      ],
      [
        'a file that turned binary',
        (f) => fs.writeFileSync(f, Buffer.from([0x65, 0x78, 0, 0, 0x70])),
        /src\/a\.ts had 2 symbols and now yields none \(binary file/,
      ],
    ];
    for (const [what, spoil, message] of cases) {
      it(`${what}: exit 1, a clear message, the graph and manifest untouched`, () => {
        const root = tempDir();
        writeTree(root, { 'src/a.ts': 'export function a() {}\nexport const k = 1;\n', 'src/b.ts': 'export function b() {}\n' });
        const kg = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: 'utf8' });
        assert.equal(kg(['build', '--apply']).status, 0);
        const dir = path.join(root, '.knowledge-graph');
        const graph = fs.readFileSync(path.join(dir, 'graph.json'));
        const manifest = fs.readFileSync(path.join(dir, 'graph.manifest.json'));
        spoil(path.join(root, 'src', 'a.ts'));
        const r = kg(['build', '--apply']);
        assert.equal(r.status, 1, r.stderr);
        assert.match(r.stderr, message);
        assert.match(r.stderr, /--full/);
        assert.equal(r.stdout, '');
        assert.deepEqual(fs.readFileSync(path.join(dir, 'graph.json')), graph);
        assert.deepEqual(fs.readFileSync(path.join(dir, 'graph.manifest.json')), manifest);
        assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json']);
        // A full build accepts what is there.
        const full = kg(['build', '--apply', '--full']);
        assert.equal(full.status, 0, full.stderr);
        assert.ok(!fs.readFileSync(path.join(dir, 'graph.json'), 'utf8').includes('sym:src/a.ts#a'));
      });
    }

    it('but removing every declaration from valid code, or deleting the file, is a change like any other', () => {
      const root = tempDir();
      writeTree(root, { 'src/a.ts': 'export function a() {}\n', 'src/b.ts': 'export function b() {}\n' });
      step(root);
      writeTree(root, { 'src/a.ts': 'export {};\nconsole.log("no declarations here");\n' });
      assert.equal(step(root).mode, 'incremental');
      fs.rmSync(path.join(root, 'src', 'b.ts'));
      assert.deepEqual(step(root).delta.deleted, ['src/b.ts']);
    });
  });
});
