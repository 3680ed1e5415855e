// `kg check` on the guard-consumers fixture: each kind of edit, the exit code the mode gives it,
// and the degrades (no graph, no calls layer) and usage errors.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { run } from '../../src/cli/run';
import { copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

async function kg(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
  return { code, stdout, stderr, json: args[0] === 'check' && stdout ? JSON.parse(stdout) : undefined };
}

const STRICT = JSON.stringify({ graph: { enabled: true, mode: 'strict', humanFlip: true, autoIndex: true }, level: 8 });
const LIB = 'src/lib.ts';

describe('kg check', () => {
  let built: string;
  let original: string;
  before(async () => {
    built = copyFixture('guard-consumers');
    writeTree(built, { '.knowledge-graph/config.json': STRICT });
    const b = await kg(['build', '--apply'], built);
    assert.equal(b.code, 0, b.stderr);
    original = fs.readFileSync(path.join(built, LIB), 'utf8');
  });
  after(removeTempDirs);

  /** A fresh copy of the built tree with `lib.ts` edited. */
  function edited(edit: (text: string) => string, config = STRICT): string {
    const root = copyFixture('guard-consumers');
    fs.cpSync(path.join(built, '.knowledge-graph'), path.join(root, '.knowledge-graph'), { recursive: true });
    writeTree(root, { '.knowledge-graph/config.json': config, [LIB]: edit(original) });
    return root;
  }

  it('an unchanged tree, and an edit of a body only: nothing breaks, exit 0', async () => {
    for (const edit of [(t: string) => t, (t: string) => t.replace('return a + b;', 'return b + a; // commuted')]) {
      const r = await kg(['check'], edited(edit));
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual([r.json.available, r.json.breaks, r.json.failed, r.json.breakingChanges], [true, false, false, []]);
      assert.equal(r.json.mode, 'strict');
    }
  });

  it('a removed symbol: exit 1 in strict, with its consumer and the call site', async () => {
    const r = await kg(
      ['check'],
      edited((t) => t.replace(/export function total[\s\S]*?\n}\n/, '')),
    );
    assert.equal(r.code, 1);
    assert.deepEqual(r.json.breakingChanges, [
      {
        symbol: 'sym:src/lib.ts#total',
        label: 'total',
        kind: 'function',
        file: 'src/lib.ts',
        line: 5,
        column: 17,
        consumers: [{ id: 'sym:src/app.ts#run', relation: 'calls', file: 'src/app.ts', line: 4, column: 22 }],
        change: 'removed',
      },
    ]);
    assert.match(r.stderr, /Removing function total breaks 1 consumer in 1 file: run \(src\/app\.ts:4\)/);
  });

  it('a changed parameter and a changed return type: signature-changed, exit 1', async () => {
    for (const edit of [
      (t: string) => t.replace('add(a: number, b: number)', 'add(a: number, b: string)'),
      (t: string) => t.replace('add(a: number, b: number): number', 'add(a: number, b: number): string'),
    ]) {
      const r = await kg(['check'], edited(edit));
      assert.equal(r.code, 1, r.stdout);
      const [c] = r.json.breakingChanges;
      assert.equal(c.symbol, 'sym:src/lib.ts#add');
      assert.equal(c.change, 'signature-changed');
      assert.deepEqual(c.now, { line: 1, column: 17 });
      assert.deepEqual(
        c.consumers.map((x: { id: string; file: string; line: number }) => `${x.id}@${x.file}:${x.line}`),
        ['sym:src/app.ts#run@src/app.ts:4'],
        'the call inside lib.ts itself is not a consumer in another file',
      );
    }
  });

  it('a renamed export: renamed, with the new name', async () => {
    const r = await kg(
      ['check'],
      edited((t) => t.replace('export function add(', 'export function plus(').replace('add(sum, x)', 'plus(sum, x)')),
    );
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.json.breakingChanges.map((c: { symbol: string; change: string; renamedTo?: string }) => [c.symbol, c.change, c.renamedTo]),
      [['sym:src/lib.ts#add', 'renamed', 'sym:src/lib.ts#plus']],
    );
  });

  it("an export removed, and a removed class reported once with its members' consumers folded in", async () => {
    const r = await kg(
      ['check'],
      edited((t) => t.replace('export function add(', 'function add(').replace(/export class Shape[\s\S]*?\n}\n/, '')),
    );
    assert.equal(r.code, 1);
    const byId = new Map(r.json.breakingChanges.map((c: { symbol: string }) => [c.symbol, c]));
    assert.deepEqual([...byId.keys()], ['sym:src/lib.ts#Shape', 'sym:src/lib.ts#add']);
    assert.equal((byId.get('sym:src/lib.ts#add') as { change: string }).change, 'unexported');
    const shape = byId.get('sym:src/lib.ts#Shape') as { change: string; consumers: Array<{ id: string; relation: string }> };
    assert.equal(shape.change, 'removed');
    const ids = shape.consumers.map((c) => `${c.id} ${c.relation}`);
    assert.ok(ids.includes('sym:src/app.ts#Square extends'), ids.join('; '));
    assert.ok(ids.includes('sym:src/app.ts#measure calls'), ids.join('; '));
  });

  it('a change to a symbol nobody else uses breaks nothing', async () => {
    const r = await kg(
      ['check'],
      edited((t) => t.replace('unused(x: string): string', 'unused(x: number): number')),
    );
    assert.equal(r.code, 0);
    assert.deepEqual(r.json.breakingChanges, []);
  });

  it('names the files changed since the build, whose consumers it cannot see: a call added there is not checked (issue 48)', async () => {
    // unused() changes its parameter; app.ts and a new file call it since the build: the graph
    // knows neither call, so nothing proven breaks — and the answer says where it did not look.
    const root = edited((t) => t.replace('unused(x: string): string', 'unused(x: number): number'));
    const app = path.join(root, 'src', 'app.ts');
    fs.writeFileSync(
      app,
      fs
        .readFileSync(app, 'utf8')
        .replace("import { add, total, Shape } from './lib';", "import { add, total, Shape, unused } from './lib';\nunused('a');"),
    );
    writeTree(root, { 'src/later.ts': "import { unused } from './lib';\nexport const y = unused('b');\n" });
    const r = await kg(['check'], root);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([r.json.breaks, r.json.breakingChanges], [false, []]);
    assert.deepEqual(r.json.consumersUnseenIn, ['src/app.ts', 'src/later.ts', 'src/lib.ts']);
    assert.match(
      r.stderr,
      /3 files changed since the graph was built \(src\/app\.ts, src\/later\.ts, src\/lib\.ts\): what they use now is not in the graph/,
    );
    // An unchanged tree has none to name.
    assert.equal(
      (
        await kg(
          ['check'],
          edited((t) => t),
        )
      ).json.consumersUnseenIn,
      undefined,
    );
  });

  it('below strict the report is the same and the exit is 0; the mode and its rule are reported', async () => {
    const guarded = JSON.stringify({ graph: { enabled: true, mode: 'guarded', humanFlip: true }, level: 7 });
    const noFlip = JSON.stringify({ graph: { enabled: true, mode: 'strict' }, level: 9 });
    for (const [config, mode, rule] of [
      [guarded, 'guarded', 'as-requested'],
      [noFlip, 'advisory', 'guarded-without-human-flip'],
    ]) {
      const r = await kg(
        ['check'],
        edited((t) => t.replace('b: number)', 'b: bigint)'), config),
      );
      assert.equal(r.code, 0);
      assert.deepEqual([r.json.breaks, r.json.failed, r.json.mode, r.json.rule], [true, false, mode, rule]);
      assert.match(r.stderr, /not failing \(only strict fails\)/);
    }
  });

  it("--base compares with another graph (e.g. the target branch's)", async () => {
    const root = edited((t) => t.replace('b: number)', 'b: bigint)'));
    const base = path.join(root, 'main-graph.json');
    fs.renameSync(path.join(root, '.knowledge-graph', 'graph.json'), base);
    assert.equal((await kg(['check'], root)).code, 3, 'the default graph is gone');
    const r = await kg(['check', '--base', 'main-graph.json'], root);
    assert.equal(r.code, 1);
    assert.equal(r.json.base, 'main-graph.json');
  });

  it('an export removed from a module whose object is used whole (ADR 185): listed as moduleObject, never failing', async () => {
    // `Object.keys(handlers)` reads every export of handlers.ts, and no edge names any one of
    // them: removing `beta` changes `names` (ADR 188). Nothing proven breaks, so the exit is 0.
    const root = tempDir();
    const handlers = 'export function alpha(): number {\n  return 1;\n}\n\nexport function beta(): number {\n  return 2;\n}\n';
    writeTree(root, {
      'package.json': JSON.stringify({ name: 'whole', version: '1.0.0' }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022' }, include: ['src'] }),
      '.knowledge-graph/config.json': STRICT,
      'src/handlers.ts': handlers,
      'src/names.ts': "import * as handlers from './handlers';\n\nexport const names = Object.keys(handlers);\n",
    });
    const b = await kg(['build', '--apply'], root);
    assert.equal(b.code, 0, b.stderr);
    const unchanged = await kg(['check'], root);
    assert.equal(unchanged.code, 0, unchanged.stderr);
    assert.equal(unchanged.json.moduleObject, undefined);
    fs.writeFileSync(path.join(root, 'src/handlers.ts'), handlers.replace(/\nexport function beta[\s\S]*$/, ''));
    const r = await kg(['check'], root);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([r.json.breaks, r.json.breakingChanges], [false, []]);
    assert.deepEqual(r.json.moduleObject, [
      { symbol: 'sym:src/handlers.ts#beta', change: 'removed', file: 'src/handlers.ts', users: ['sym:src/names.ts#names'] },
    ]);
    assert.match(
      r.stderr,
      /src\/handlers\.ts: sym:src\/handlers\.ts#beta removed: src\/handlers\.ts's module object is used whole by 1 symbol or file \(sym:src\/names\.ts#names\)/,
    );
    // Unexporting it changes the object the same way.
    fs.writeFileSync(path.join(root, 'src/handlers.ts'), handlers.replace('export function beta', 'function beta'));
    const u = await kg(['check'], root);
    assert.deepEqual(
      u.json.moduleObject?.map((m: { symbol: string; change: string }) => [m.symbol, m.change]),
      [['sym:src/handlers.ts#beta', 'unexported']],
    );
  });

  it('no graph, or a graph without the calls layer: unavailable, exit 3; bad usage: exit 2', async () => {
    const root = copyFixture('guard-consumers');
    const none = await kg(['check'], root);
    assert.equal(none.code, 3);
    assert.equal(none.json.available, false);
    assert.equal((await kg(['build', '--apply', '--extract-only'], root)).code, 0);
    const extract = await kg(['check'], root);
    assert.equal(extract.code, 3);
    assert.equal(extract.json.reason, 'calls layer not built in this projection');
    assert.equal((await kg(['check', '--bogus'], root)).code, 2);
    assert.equal((await kg(['check', 'extra'], root)).code, 2);
    assert.equal((await kg(['check', '--root', path.join(root, 'missing')], root)).code, 2);
  });
});
