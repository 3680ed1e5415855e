// A removed target served natively (ADR 191): an ES5 project is handed to TypeScript 7 as ES2015
// with the library set, module kind and class-field semantics ES5 implied made explicit, and gives
// byte-identical graph.json with both checkers; where ES5 and ES2015 could type a file differently
// (iteration over a non-array with a library that declares Iterable), it falls back as before, and
// the build's stderr says which was done. Real compilers, real files.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, serializeGraph, type BuildResult } from '../../src/graph';
import { NativeChecker } from '../../src/graph/indexer/compiler/native-checker';
import { REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const native = new NativeChecker();

function both(root: string): { js: string; native: string; result: BuildResult } {
  const js = serializeGraph(buildGraph({ root }).graph);
  const result = buildGraph({ root, checker: native });
  return { js, native: serializeGraph(result.graph), result };
}

/** A repository of one ES5 project: its compilerOptions beyond target and module, and its files under src/. */
function es5Project(options: Record<string, unknown>, files: Record<string, string>): string {
  const root = tempDir('kg-native-es5-');
  const compilerOptions = { strict: true, target: 'ES5', module: 'CommonJS', moduleResolution: 'Bundler', ...options };
  writeTree(root, {
    'package.json': '{ "name": "es5", "private": true }\n',
    'tsconfig.json': JSON.stringify({ compilerOptions, include: ['src'] }) + '\n',
    ...Object.fromEntries(Object.entries(files).map(([rel, text]) => [`src/${rel}`, text])),
  });
  return root;
}

/** Calls through an item's methods, none through iteration. */
const ITEM = [
  'export class Item {',
  "  name = 'x';",
  '  run(): number {',
  '    return this.name.length;',
  '  }',
  '}',
  'export function first(items: Item[]): number {',
  '  const it = items[0];',
  '  return it.run() + items.map((i) => i.run()).length;',
  '}',
  '',
].join('\n');

/** Iteration over a Map, a Set and a generator: ES5 types the elements as nothing, ES2015 by their iterators. */
const ITERATES = [
  "import { Item } from './item';",
  'export function fromMap(m: Map<string, Item>, s: Set<Item>): void {',
  '  for (const [, v] of m) v.run();',
  '  for (const it of s) it.run();',
  '  const all = [...s];',
  '  all[0].run();',
  '}',
  'function* gen(): Generator<Item> {',
  '  yield new Item();',
  '}',
  'export function fromGen(): void {',
  '  for (const it of gen()) it.run();',
  '}',
  '',
].join('\n');

describe('an ES5 project and the native checker (ADR 191)', () => {
  after(() => {
    native.close();
    removeTempDirs();
  });

  it('no iteration: served as ES2015 with the default library named, the same graph', () => {
    const r = both(es5Project({}, { 'item.ts': ITEM }));
    assert.equal(r.native, r.js);
    assert.deepEqual(r.result.checker.served, ['tsconfig.json']);
    assert.deepEqual(r.result.checker.fallbacks, []);
    assert.deepEqual(r.result.checker.adjusted, [
      {
        project: 'tsconfig.json',
        note: 'target ES5 (removed in TypeScript 7) raised to ES2015 (module commonjs, lib es5, dom, webworker.importscripts, scripthost)',
      },
    ]);
    assert.match(r.js, /"source":"sym:src\/item\.ts#first","target":"sym:src\/item\.ts#Item\.run","relation":"calls","confidence":"EXACT"/);
  });

  it('iteration over a Map, a Set and a generator with downlevelIteration: served, the same graph', () => {
    const r = both(es5Project({ lib: ['es2015'], downlevelIteration: true }, { 'item.ts': ITEM, 'iterate.ts': ITERATES }));
    assert.equal(r.native, r.js);
    assert.deepEqual(r.result.checker.served, ['tsconfig.json']);
    assert.equal(
      r.result.checker.adjusted?.[0].note,
      'target ES5 (removed in TypeScript 7) raised to ES2015 (module commonjs, lib es2015)',
    );
    // ES5 with downlevelIteration types the elements by their iterators: these calls are proven.
    assert.match(
      r.js,
      /"source":"sym:src\/iterate\.ts#fromGen","target":"sym:src\/item\.ts#Item\.run","relation":"calls","confidence":"EXACT"/,
    );
  });

  it('the same iteration without downlevelIteration: the JavaScript checker, with the file and construct named', () => {
    const r = both(es5Project({ lib: ['es2015'] }, { 'item.ts': ITEM, 'iterate.ts': ITERATES }));
    assert.equal(r.native, r.js);
    assert.deepEqual(r.result.checker.served, []);
    assert.deepEqual(r.result.checker.fallbacks, [
      {
        project: 'tsconfig.json',
        reason: 'TypeScript 7 removed target: ES5, and src/iterate.ts has an array destructuring, which ES5 and ES2015 type differently',
      },
    ]);
    assert.equal(r.result.checker.adjusted, undefined);
  });

  it('iteration over arrays and strings only, asked of TypeScript 7: served, the same graph', () => {
    const arrays = [
      "import { Item } from './item';",
      'export class Bag {',
      '  items: Item[] = [];',
      '  total(extra: Item[], name: string): number {',
      '    let n = 0;',
      '    for (const it of this.items) n += it.run();',
      '    for (const it of extra) n += it.run();',
      '    for (const c of name) n += c.length;',
      '    const all = [...this.items, ...extra];',
      '    const [first, second] = all;',
      '    let a: Item, b: Item;',
      '    [a, b] = extra;',
      '    const runs = all.map((i) => i.run());',
      '    return n + first.run() + second.run() + a.run() + b.run() + Math.max(...runs);',
      '  }',
      '}',
      '',
    ].join('\n');
    const r = both(es5Project({}, { 'item.ts': ITEM, 'bag.ts': arrays }));
    assert.equal(r.native, r.js);
    assert.deepEqual(r.result.checker.fallbacks, []);
    assert.deepEqual(r.result.checker.served, ['tsconfig.json']);
    assert.match(
      r.js,
      /"source":"sym:src\/bag\.ts#Bag\.total","target":"sym:src\/item\.ts#Item\.run","relation":"calls","confidence":"EXACT"/,
    );
  });

  it('a for-of over a Set with the default library: TypeScript 7 finds it no array, the JavaScript checker serves it', () => {
    const set = "import { Item } from './item';\nexport function all(s: Set<Item>): void {\n  for (const it of s) it.run();\n}\n";
    const r = both(es5Project({}, { 'item.ts': ITEM, 'set.ts': set }));
    assert.equal(r.native, r.js);
    assert.deepEqual(r.result.checker.fallbacks, [
      {
        project: 'tsconfig.json',
        reason: 'TypeScript 7 removed target: ES5, and src/set.ts:3 (a for-of) iterates a value that is not an array',
      },
    ]);
  });

  it('an array pattern with nothing before its rest (any[] at ES5, Iterable<any> at ES2015): the JavaScript checker', () => {
    const r = both(es5Project({}, { 'item.ts': ITEM, 'rest.ts': 'export function all([...xs]) {\n  return xs;\n}\n' }));
    assert.equal(r.native, r.js);
    assert.match(r.result.checker.fallbacks[0]?.reason ?? '', /src\/rest\.ts has an array pattern with no element before its rest/);
  });

  it('an identifier ES5 does not scan as one: the JavaScript checker', () => {
    // U+037F (Ϳ) is not in ES5's identifier table: ES2015 scans `Ϳx` as one identifier, ES5 as an invalid character and `x`.
    const r = both(es5Project({}, { 'item.ts': ITEM, 'name.ts': 'export const \u037Fx = 1;\n' }));
    assert.equal(r.native, r.js);
    assert.match(r.result.checker.fallbacks[0]?.reason ?? '', /src\/name\.ts has an identifier ES5 and ES2015 scan differently/);
  });

  it("rxjs 7.8.2's sources as one ES5 project with downlevelIteration (as its tsconfig.cjs.json), bundler resolution: served, the same graph", () => {
    const root = tempDir('kg-native-es5-rxjs-');
    fs.cpSync(path.join(REPO, 'node_modules', 'rxjs', 'src'), path.join(root, 'src'), {
      recursive: true,
      filter: (f) => !/tsconfig[^/]*\.json$|Rx\.global\.js$/.test(f),
    });
    const compilerOptions = {
      strict: true,
      target: 'ES5',
      module: 'CommonJS',
      moduleResolution: 'Bundler',
      downlevelIteration: true,
      lib: ['es2018', 'dom'],
    };
    writeTree(root, {
      'package.json': '{ "name": "rxjs-es5", "private": true }\n',
      'tsconfig.json': JSON.stringify({ compilerOptions, include: ['src'] }) + '\n',
    });
    const r = both(root);
    assert.equal(r.native, r.js);
    assert.deepEqual(r.result.checker.served, ['tsconfig.json']);
    assert.ok((JSON.parse(r.js) as { nodes: unknown[] }).nodes.length > 1000);
  });

  it('moduleResolution: node10 still falls back: it changes what an import resolves to', () => {
    const r = both(es5Project({ moduleResolution: 'node' }, { 'item.ts': ITEM }));
    assert.equal(r.native, r.js);
    assert.deepEqual(r.result.checker.fallbacks, [
      { project: 'tsconfig.json', reason: 'TypeScript 7 removed target: ES5, moduleResolution: node10' },
    ]);
  });

  it("the build's stderr says the target was raised (dist/cli.js)", () => {
    const cli = path.join(REPO, 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), 'npm run build first');
    const root = es5Project({}, { 'item.ts': ITEM });
    const r = spawnSync(process.execPath, [cli, 'build', '--full', '--no-server', '--checker', 'native'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, KG_SERVER: 'off' },
      timeout: 120_000,
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /calls proven by the native checker \(TypeScript [^)]+\) in all 1 project/);
    assert.match(
      r.stderr,
      /kg: note: tsconfig\.json: the native checker served this project with target ES5 \(removed in TypeScript 7\) raised to ES2015 \(module commonjs, lib es5, dom, webworker\.importscripts, scripthost\)/,
    );
  });
});
