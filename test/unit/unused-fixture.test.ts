// `kg unused` over a real build of test/fixtures/unused-buckets (ADR 157): each kind of symbol lands
// in its bucket, and removing what it calls unused leaves a program the TypeScript compiler
// accepts (issue 52, item 3, at fixture scale), while removing a reached symbol does not.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import * as ts from 'typescript';
import { buildGraph, indexGraph, queryUnused } from '../../src/graph';
import { copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const FIXTURE = 'unused-buckets';

function answer(root: string) {
  const load = indexGraph(buildGraph({ root }).graph);
  assert.ok(load.ok);
  const r = queryUnused(load.graph, '', 0, 1000);
  assert.ok(r.available);
  return r;
}

/** The diagnostics of the fixture's program with the declarations named by `ids` cut out of their files. */
function diagnosticsWithout(root: string, ids: readonly string[]): string[] {
  const cut = new Map<string, Array<[number, number]>>();
  for (const id of ids) {
    const [file, name] = id.slice('sym:'.length).split('#');
    const abs = path.join(root, file);
    const sf = ts.createSourceFile(abs, fs.readFileSync(abs, 'utf8'), ts.ScriptTarget.ES2022, true);
    const statement = sf.statements.find((s) => {
      if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name?.text === name) return true;
      return ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name);
    });
    assert.ok(statement, `no top-level declaration of ${id}`);
    cut.set(abs, [...(cut.get(abs) ?? []), [statement.getStart(sf), statement.end]]);
  }
  for (const [abs, ranges] of cut) {
    let text = fs.readFileSync(abs, 'utf8');
    for (const [start, end] of ranges.sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + text.slice(end);
    fs.writeFileSync(abs, text);
  }
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  assert.ok(config);
  const program = ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true, types: [] } });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

describe('kg unused on a built fixture', () => {
  after(removeTempDirs);

  it('puts each symbol in its bucket', () => {
    const r = answer(copyFixture(FIXTURE));
    // Nothing reaches them, nothing could: a function and a constant no code names.
    assert.deepEqual(
      r.unused.map((u) => u.id),
      ['sym:src/callbacks.ts#leftOver', 'sym:src/callbacks.ts#neverCalled'],
    );
    const reasons = Object.fromEntries(r.possiblyUsed.map((u) => [u.id, u.reasons.map((x) => x.reason)]));
    // App.astro's text imports cart.ts: a guess, so possibly used, with the file named.
    assert.deepEqual(reasons['sym:src/cart.ts#cartTotal'], ['unanalysed']);
    assert.deepEqual(r.possiblyUsed.find((u) => u.id === 'sym:src/cart.ts#cartTotal')?.reasons[0].via, ['src/App.astro']);
    // `x.start()` on an `any` receiver: a name-match candidate.
    assert.deepEqual(reasons['sym:src/loose.ts#Engine.start'], ['candidate', 'unanalysed']);
    const listed = new Set([...r.unused, ...r.possiblyUsed].map((u) => u.id));
    // A callback-only function (a reference), a method reached through its interface (dispatch),
    // and the package's main's export (an entry) are in neither list.
    for (const id of ['sym:src/callbacks.ts#double', 'sym:src/shapes.ts#Square.area', 'sym:src/index.ts#publicApi'])
      assert.ok(!listed.has(id), `${id} is listed`);
    assert.equal(r.totals.entry, 1);
  });

  it('removing all the unused symbols at once leaves a program the compiler accepts; removing a reached one does not', () => {
    const r = answer(copyFixture(FIXTURE));
    assert.deepEqual(
      diagnosticsWithout(
        copyFixture(FIXTURE),
        r.unused.map((u) => u.id),
      ),
      [],
    );
    // The check can fail: the callback-only function is used.
    assert.notDeepEqual(diagnosticsWithout(copyFixture(FIXTURE), ['sym:src/callbacks.ts#double']), []);
  });
});

describe('kg unused: names bound from a module whose exports have no nodes (avvio, ADR 172)', () => {
  after(removeTempDirs);

  it('`const { X } = require(m); new X()` and `const m = require(m); new m[key]()` are possibly used, never unused', () => {
    const root = tempDir('kg-unused-bound-');
    writeTree(root, {
      'package.json': '{ "name": "bound", "version": "1.0.0", "main": "index.js" }\n',
      // avvio's lib/errors.js: an object literal of values made by a package's function.
      'lib/errors.js':
        "'use strict'\nconst make = (code) => class extends Error { constructor () { super(code) } }\nmodule.exports = { E_ONE: make('E_ONE'), E_TWO: make('E_TWO') }\n",
      'lib/plugin.js':
        "'use strict'\nconst { E_ONE } = require('./errors')\nfunction fail () {\n  throw new E_ONE()\n}\nmodule.exports = fail\n",
      'index.js': "'use strict'\nconst fail = require('./lib/plugin')\nmodule.exports = { fail }\n",
      'test/errors.test.js':
        "'use strict'\nconst errors = require('../lib/errors')\nfor (const k of ['E_ONE', 'E_TWO']) if (!(new errors[k]() instanceof Error)) throw new Error(k)\n",
      'test/left.test.js': "'use strict'\nconst { E_TWO } = require('../lib/errors')\nfunction leftover () {\n  return 1\n}\n",
    });
    const r = answer(root);
    const reasons = Object.fromEntries(r.possiblyUsed.map((u) => [u.id, u.reasons.map((x) => x.reason)]));
    for (const id of ['sym:lib/plugin.js#E_ONE', 'sym:test/errors.test.js#errors'])
      assert.ok(reasons[id] !== undefined && !r.unused.some((u) => u.id === id), `${id}: ${JSON.stringify(r)}`);
    // `new E_ONE()` is an unplaced call carrying the name, in the variable's own file; `errors[k]()` a computed call there.
    assert.ok(reasons['sym:lib/plugin.js#E_ONE'].includes('unresolved-named'), JSON.stringify(reasons));
    assert.deepEqual(reasons['sym:test/errors.test.js#errors'], ['alias', 'dynamic-access']);
    // The check can fail: a function no code names is unused.
    assert.ok(
      r.unused.some((u) => u.id === 'sym:test/left.test.js#leftover'),
      JSON.stringify(r.unused),
    );
  });

  it('`const s = require(m)` whose module is an object literal, used only whole (`{ host: s }`), is possibly used, never unused (find-my-way, ADR 199)', () => {
    const root = tempDir('kg-unused-required-');
    writeTree(root, {
      'package.json': '{ "name": "router", "version": "1.0.0", "main": "index.js" }\n',
      'lib/strategies/host.js':
        "'use strict'\nfunction HostStorage () {\n  return new Map()\n}\nmodule.exports = { name: 'host', storage: HostStorage }\n",
      'lib/constrainer.js':
        "'use strict'\nconst hostStrategy = require('./strategies/host')\nfunction Constrainer () {\n  this.strategies = { host: hostStrategy }\n}\nfunction leftover () {\n  return 1\n}\nmodule.exports = Constrainer\n",
      'index.js':
        "'use strict'\nconst Constrainer = require('./lib/constrainer')\nmodule.exports = function router () {\n  return new Constrainer()\n}\n",
    });
    const r = answer(root);
    const id = 'sym:lib/constrainer.js#hostStrategy';
    assert.ok(!r.unused.some((u) => u.id === id), JSON.stringify(r.unused));
    const row = r.possiblyUsed.find((u) => u.id === id);
    assert.deepEqual(
      row?.reasons.map((x) => x.reason),
      ['alias'],
      JSON.stringify(r.possiblyUsed),
    );
    assert.match(row?.reasons[0].summary ?? '', /require\(\) of lib\/strategies\/host\.js/);
    // The check can fail: a function no code names is still unused.
    assert.ok(
      r.unused.some((u) => u.id === 'sym:lib/constrainer.js#leftover'),
      JSON.stringify(r.unused),
    );
  });

  it("an object literal's function no proven edge reaches is possibly used while its object is used, unused with it otherwise (ADR 200)", () => {
    const root = tempDir('kg-unused-literal-');
    writeTree(root, {
      'package.json': '{ "name": "plugins", "version": "1.0.0", "main": "index.ts" }\n',
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "ESNext", "moduleResolution": "Bundler", "target": "ES2022" } }\n',
      'host.ts': 'export function register(plugin: object): void {\n  console.log(plugin)\n}\n',
      'index.ts': [
        "import { register } from './host'",
        'const plugin = {',
        '  install(): void {},',
        '  helper(): number {',
        '    return 1',
        '  },',
        '}',
        'const spare = {',
        '  tick(): void {},',
        '}',
        'namespace Tools {',
        '  export const hooks = {',
        '    onLoad(): void {},',
        '  }',
        '}',
        'export function start(): number {',
        '  register(plugin)',
        '  register(Tools.hooks)',
        '  return plugin.helper()',
        '}',
        '',
      ].join('\n'),
    });
    const r = answer(root);
    const unused = r.unused.map((u) => u.id);
    // Passed to register(): whoever receives it may call install by its key.
    const install = r.possiblyUsed.find((u) => u.id === 'sym:index.ts#plugin.install');
    assert.deepEqual(
      install?.reasons.map((x) => x.reason),
      ['object-value'],
      JSON.stringify(r.possiblyUsed),
    );
    assert.deepEqual(install?.reasons[0].via, ['sym:index.ts#start']);
    // In a namespace the object is the variable that holds it, not the namespace.
    const onLoad = r.possiblyUsed.find((u) => u.id === 'sym:index.ts#Tools.hooks.onLoad');
    assert.deepEqual(
      onLoad?.reasons.map((x) => x.reason),
      ['object-value'],
      JSON.stringify(r),
    );
    // Called: reached. An object nothing uses, and its function: unused.
    assert.ok(!unused.includes('sym:index.ts#plugin.helper') && !r.possiblyUsed.some((u) => u.id === 'sym:index.ts#plugin.helper'));
    assert.ok(unused.includes('sym:index.ts#spare') && unused.includes('sym:index.ts#spare.tick'), JSON.stringify(unused));
  });

  it('a module object used whole (`Object.keys(m)`, re-exported through `export *`) keeps every export possibly used; `m.one()` alone does not', () => {
    const root = tempDir('kg-unused-whole-');
    writeTree(root, {
      'package.json': '{ "name": "whole", "version": "1.0.0" }\n',
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "nodenext" }, "include": ["src"] }\n',
      'src/deep.ts': 'export function deep(): number {\n  return 4;\n}\n',
      'src/mod.ts':
        'export function one(): number {\n  return 1;\n}\nexport function two(): number {\n  return 2;\n}\nexport * from "./deep.js";\n',
      'src/named.ts': 'export function three(): number {\n  return 3;\n}\nexport function four(): number {\n  return 4;\n}\n',
      'src/main.ts':
        'import * as m from "./mod.js";\nimport * as n from "./named.js";\nexport function list(): string[] {\n  return Object.keys(m);\n}\nexport function call(): number {\n  return n.three() + m.one();\n}\n',
    });
    const r = answer(root);
    const reasons = Object.fromEntries(r.possiblyUsed.map((u) => [u.id, u.reasons]));
    for (const id of ['sym:src/mod.ts#two', 'sym:src/deep.ts#deep']) {
      assert.deepEqual(
        reasons[id]?.map((x) => [x.reason, x.via]),
        [['module-object', ['sym:src/main.ts#list']]],
        `${id}: ${JSON.stringify(r)}`,
      );
    }
    // `n.three()` reads one export by name: `four` stays unused, as does every export nothing names.
    const unused = r.unused.map((u) => u.id);
    assert.ok(unused.includes('sym:src/named.ts#four'), JSON.stringify(r));
    assert.ok(!unused.includes('sym:src/mod.ts#two') && !unused.includes('sym:src/deep.ts#deep'), JSON.stringify(r));
  });
});
