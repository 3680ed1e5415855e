// Parity of the two checkers behind the seam (ADR 113, 114): TypeScript 7's native checker and the
// JavaScript one give byte-identical graph.json on every snapshot fixture, on the equivalence
// generator's tree (incremental and warm native builds against a full JavaScript build after each
// random edit), and on zod as a TypeScript 7 project; a mismatch names the exact edges only one backend has. Projects with an
// option TypeScript 7 removed are served by the JavaScript checker, each with its reason, except a
// target alone (ES5 raised to ES2015, ADR 191: rationale-notes and tsx are served natively). Then the
// native process itself (ADR 130): where it reports its own default library, and its GOGC; and the
// questions sent to it before they are asked (ADR 136): the same graph, and a process that dies meanwhile.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { corpusForTs7 } from '../../bench/corpus';
import { buildGraph, serializeGraph, type BuildResult, type CheckerBackend, type CheckerProvider } from '../../src/graph';
import type { DeclarationRef } from '../../src/graph/indexer/compiler/checker';
import { DEFAULT_LIB_DIRECTORY } from '../../src/graph/indexer/compiler/program';
import { fixtureRepo, random, randomEdits, report, runSequence, shrink } from '../helpers/equivalence';
import { FIXTURES, fixtureNames, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { SEED } from '../helpers/seed';
import { NativeChecker } from '../../src/graph/indexer/compiler/native-checker';
import { nativeBinary } from '../../src/graph/indexer/compiler/native-api';

/** Lines (nodes, edges, summaries) only one of two graph texts has: what a mismatch reports. */
function mismatch(js: string, native: string): string {
  const a = new Set(js.split('\n'));
  const b = new Set(native.split('\n'));
  const onlyJs = [...a].filter((l) => !b.has(l));
  const onlyNative = [...b].filter((l) => !a.has(l));
  return [...onlyJs.map((l) => `- js     ${l.trim()}`), ...onlyNative.map((l) => `+ native ${l.trim()}`)].join('\n');
}

const native = new NativeChecker();

/** A package written for TypeScript 7 (no option it removed), its sources under src/. */
const ts7Project = (name: string): Record<string, string> => ({
  'package.json': `{ "name": "${name}", "private": true, "devDependencies": { "typescript": "^7.0.0" } }\n`,
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler" }, "include": ["src"] }\n',
});

type ParityEdge = { source: string; target: string; relation: string; confidence: string };

/** Builds `root` with both backends, asserts the same bytes and no fallback; the graph and its calls as `source target confidence`. */
function sameFromBoth(root: string): { graph: { edges: ParityEdge[] }; calls: string[] } {
  const r = both(root);
  assert.equal(r.native, r.js, `graph.json differs between the backends:\n${mismatch(r.js, r.native)}`);
  assert.deepEqual(r.result.checker.fallbacks, []);
  const graph = JSON.parse(r.js) as { edges: ParityEdge[] };
  return { graph, calls: graph.edges.filter((e) => e.relation === 'calls').map((e) => `${e.source} ${e.target} ${e.confidence}`) };
}

function both(root: string): { js: string; native: string; result: BuildResult } {
  const js = serializeGraph(buildGraph({ root }).graph);
  const result = buildGraph({ root, checker: native });
  return { js, native: serializeGraph(result.graph), result };
}

/** Fixtures whose project keeps an option TypeScript 7 removed (ADR 81 gives TypeScript 5's defaults): the reason each must name. */
const DECLINED: Record<string, RegExp> = {
  'guard-consumers': /removed target: ES5, moduleResolution: node10/,
  'path-aliases': /removed target: ES5, baseUrl/,
  'ts5-semantics': /removed moduleResolution: node10/,
  // TypeScript 7.0 has no seam for a component's generated code (ADR 169).
  components: /component files \(\.vue\/\.svelte\) need the JavaScript checker/,
};

describe('the native checker gives the same graph as the JavaScript checker', () => {
  after(() => {
    native.close();
    removeTempDirs();
  });

  for (const name of fixtureNames()) {
    it(`fixture ${name}`, () => {
      const r = both(path.join(FIXTURES, name));
      assert.equal(r.native, r.js, `graph.json differs between the backends on ${name}:\n${mismatch(r.js, r.native)}`);
      const declined = DECLINED[name];
      if (declined) {
        assert.deepEqual(r.result.checker.served, [], `${name} should fall back`);
        assert.ok(
          r.result.checker.fallbacks.every((f) => declined.test(f.reason)),
          JSON.stringify(r.result.checker.fallbacks),
        );
      } else {
        assert.deepEqual(r.result.checker.fallbacks, [], `${name} should be served natively`);
        if (name === 'rationale-notes' || name === 'tsx')
          assert.match(r.result.checker.adjusted?.[0]?.note ?? '', /^target ES5 .* raised to ES2015/);
        assert.ok(r.result.checker.served.length > 0);
      }
    });
  }

  it('JavaScript methods assigned to a prototype (ADR 188): nodes of their own, the same name-matched calls from both', () => {
    // The JavaScript checker binds `Boot.prototype.use = function` as a member of `Boot`;
    // TypeScript 7 binds nothing there. Both must give one graph: the calls are name matches.
    const root = tempDir('kg-native-prototype-');
    writeTree(root, {
      'package.json': '{ "name": "proto", "private": true, "main": "index.js" }\n',
      'tsconfig.json':
        '{ "compilerOptions": { "allowJs": true, "checkJs": true, "module": "NodeNext", "noEmit": true }, "include": ["*.js", "test"] }\n',
      'index.js': [
        "'use strict'",
        'function Boot () {',
        '  if (!(this instanceof Boot)) return new Boot()',
        '}',
        'Boot.prototype.use = function (plugin) {',
        '  this._add(plugin)',
        '  return this',
        '}',
        'Boot.prototype._add = function (plugin) {',
        '  check(plugin)',
        '}',
        'function check (p) {',
        "  if (typeof p !== 'function') throw new Error('no')",
        '}',
        'module.exports = Boot',
        '',
      ].join('\n'),
      'test/use.test.js': "'use strict'\nconst boot = require('..')\nboot().use(() => {})\n",
    });
    const { graph, calls } = sameFromBoth(root);
    assert.ok(calls.includes('sym:index.js#Boot.use sym:index.js#Boot._add CANDIDATE'), calls.join('\n'));
    assert.ok(calls.includes('sym:index.js#Boot._add sym:index.js#check EXACT'), calls.join('\n'));
    // `Boot.prototype.use =` declares the member: it is no use of `Boot` (else reaching the
    // constructor would reach every method).
    assert.deepEqual(
      graph.edges.filter((e) => e.relation === 'references' && e.target === 'sym:index.js#Boot').map((e) => e.source),
      ['file:index.js'],
    );
  });

  it("an object literal's functions bound to a name (ADR 200): the same method nodes and proven calls from both, in TypeScript and JavaScript", () => {
    const root = tempDir('kg-native-literal-');
    writeTree(root, {
      'package.json': '{ "name": "literal", "private": true, "main": "index.js" }\n',
      'tsconfig.json':
        '{ "compilerOptions": { "allowJs": true, "checkJs": true, "strict": true, "module": "NodeNext", "noEmit": true }, "include": ["*.js", "*.ts", "test"] }\n',
      'index.js': [
        "'use strict'",
        'function normalize (p) {',
        '  return p',
        '}',
        'var posix = {',
        '  join: function join (a, b) {',
        "    return posix.normalize(a + '/' + b)",
        '  },',
        '  normalize: function (p) {',
        '    return normalize(p)',
        '  },',
        '  sep: "/"',
        '}',
        'posix.posix = posix',
        'module.exports = posix',
        '',
      ].join('\n'),
      'api.ts': [
        'export const api = {',
        '  get(id: number): string {',
        '    return this.format(id)',
        '  },',
        '  format: (id: number): string => `#${id}`,',
        '  get size(): number {',
        '    return 1',
        '  },',
        '}',
        'export function use(): number {',
        '  return api.get(1).length + api.size',
        '}',
        '',
      ].join('\n'),
      'test/join.test.js': "'use strict'\nconst path = require('..')\npath.join('a', 'b')\npath.posix.normalize('a')\n",
    });
    const { calls } = sameFromBoth(root);
    for (const expected of [
      'file:test/join.test.js sym:index.js#posix.join EXACT',
      'sym:index.js#posix.join sym:index.js#posix.normalize EXACT',
      'sym:index.js#posix.normalize sym:index.js#normalize EXACT',
      'sym:api.ts#api.get sym:api.ts#api.format EXACT',
      'sym:api.ts#use sym:api.ts#api.get EXACT',
    ])
      assert.ok(calls.includes(expected), `${expected}\n${calls.join('\n')}`);
  });

  it(`the equivalence generator: incremental and warm native builds equal a full JavaScript build after each edit (seed ${SEED})`, () => {
    const base = fixtureRepo();
    const r = both(base);
    assert.equal(r.native, r.js, `graph.json differs on the generator's tree:\n${mismatch(r.js, r.native)}`);
    const edits = randomEdits(random(SEED), 8);
    const run = runSequence(base, edits, { backend: 'native' });
    if (run.failure) assert.fail(report(SEED, shrink(base, edits, { backend: 'native' }, 20)));
    assert.ok(run.applied > 0, 'no edit changed the tree');
  });

  // As written, zod's project keeps TypeScript 5's esModuleInterop: false with a default import of a
  // package (declined), and rxjs's keeps moduleResolution: node and baseUrl: as a TypeScript 7
  // project would have them (bench/corpus.ts), both are served natively.
  it('zod as a TypeScript 7 project (real code, all served natively)', () => {
    const sentBefore = native.sentEarly;
    const r = both(corpusForTs7('zod').root);
    assert.deepEqual(r.result.checker.fallbacks, []);
    assert.equal(r.native, r.js, `graph.json differs on zod:\n${mismatch(r.js, r.native)}`);
    // Its questions went to TypeScript 7 ahead of being asked (ADR 136): the route this compared.
    assert.ok(native.sentEarly - sentBefore > 100, `${native.sentEarly - sentBefore} files' questions sent early`);
  });
});

/** This process's TypeScript 7 processes (`tsc --api`) still running, by pid (Linux's /proc). */
function nativeProcesses(): number[] {
  return [...childEnvironments().keys()];
}

describe('questions sent before they are asked (ADR 136)', () => {
  const onLinux = process.platform === 'linux' ? {} : { skip: 'reads /proc' };

  it('give the same graph as questions asked one at a time, on real code', () => {
    const root = corpusForTs7('rxjs').root;
    const ahead = new NativeChecker();
    const plain = new NativeChecker({ early: false });
    try {
      const a = buildGraph({ root, checker: ahead });
      const b = buildGraph({ root, checker: plain });
      assert.deepEqual([a.checker.fallbacks, b.checker.fallbacks], [[], []]);
      assert.ok(ahead.sentEarly > 100, `${ahead.sentEarly} files' questions sent early`);
      assert.equal(plain.sentEarly, 0);
      const [ta, tb] = [serializeGraph(a.graph), serializeGraph(b.graph)];
      assert.equal(ta, tb, `graph.json differs on rxjs:\n${mismatch(tb, ta)}`);
    } finally {
      ahead.close();
      plain.close();
    }
  });

  it("a session's build that fell back part-way leaves answers no file took: the next build never takes them", () => {
    const root = tempDir('kg-native-early-');
    writeTree(root, {
      ...ts7Project('early'),
      'src/a.ts': "import { f } from './b';\nexport function run(): void {\n  f();\n}\n",
      'src/b.ts': 'export function f(): void {}\n',
      'src/c.ts': 'export function g(): void {}\n',
    });
    const inner = new NativeChecker({ keep: true });
    let failing = true;
    const provider: CheckerProvider = {
      name: 'native',
      open(check) {
        const b = inner.open(check);
        if ('declined' in b) return b;
        return {
          prefetch: (file, queries) => b.prefetch?.(file, queries),
          declarationsAt(file, queries) {
            // The first build fails before any file takes its answer (sent ahead, all of them).
            if (failing) throw new Error('a failure of this test');
            return b.declarationsAt(file, queries);
          },
        };
      },
      release: (b) => inner.release(b),
    };
    try {
      const first = buildGraph({ root, checker: provider });
      assert.match(first.checker.fallbacks[0]?.reason ?? '', /a failure of this test/);
      assert.ok(inner.sentEarly > 0, 'the questions went ahead');
      // a.ts is unchanged, its questions the same; what `f` names is not.
      fs.writeFileSync(path.join(root, 'src/b.ts'), "export { g as f } from './c';\n");
      failing = false;
      const second = buildGraph({ root, checker: provider });
      assert.deepEqual([second.checker.served.length, second.checker.fallbacks], [1, []]);
      const js = serializeGraph(buildGraph({ root }).graph);
      assert.equal(serializeGraph(second.graph), js, `graph.json differs:\n${mismatch(js, serializeGraph(second.graph))}`);
      assert.match(js, /src\/c\.ts#g/, 'the call now reaches c.ts');
    } finally {
      inner.close();
    }
  });

  it("a kept checker reads a changed file's new syntax tree, and keeps every other (ADR 138)", () => {
    const root = tempDir('kg-native-trees-');
    writeTree(root, {
      ...ts7Project('trees'),
      'src/a.ts': "import { f } from './b';\nimport { h } from './c';\nexport function run(): void {\n  f();\n  h();\n}\n",
      'src/b.ts': 'export function f(): void {}\n',
      'src/c.ts': 'export function h(): void {}\n',
    });
    const kept = new NativeChecker({ keep: true });
    try {
      const first = buildGraph({ root, checker: kept });
      assert.deepEqual(first.checker.fallbacks, []);
      // f moves: TypeScript 7's tree of b.ts from the first build no longer says where it is.
      fs.writeFileSync(path.join(root, 'src/b.ts'), '// moved\n\nexport const k = 1;\nexport function f(): void {}\n');
      const trees = (kept as unknown as { api: { sourceFileCache: { cache: Map<string, { file: unknown }[]> } } }).api.sourceFileCache
        .cache;
      const cPath = path.join(fs.realpathSync(root), 'src/c.ts');
      const cTree = trees.get(cPath)?.[0]?.file;
      assert.ok(cTree, "c.ts's tree was fetched (h is declared there)");
      const second = buildGraph({ root, checker: kept });
      assert.deepEqual([second.checker.served.length, second.checker.fallbacks], [1, []]);
      const js = serializeGraph(buildGraph({ root }).graph);
      assert.equal(serializeGraph(second.graph), js, `graph.json differs:\n${mismatch(js, serializeGraph(second.graph))}`);
      assert.match(js, /src\/a\.ts#run[^\n]*src\/b\.ts#f/, 'the call to f is an edge');
      assert.equal(trees.get(cPath)?.[0]?.file, cTree, "c.ts's tree, unchanged, was kept, not fetched again");
    } finally {
      kept.close();
    }
  });

  it('a checker process that dies while questions wait in its pipe: the JavaScript checker serves the project, same graph', onLinux, () => {
    const root = corpusForTs7('zod').root;
    const js = serializeGraph(buildGraph({ root }).graph);
    const inner = new NativeChecker();
    let told = 0;
    let killed: number[] = [];
    const provider: CheckerProvider = {
      name: 'native',
      open(check) {
        const b = inner.open(check);
        if ('declined' in b) return b;
        const outer: CheckerBackend = {
          prefetch(file, queries) {
            // Part-way through the builder's walk, with answers both read and still in the pipe.
            if (++told === 40) {
              killed = nativeProcesses();
              for (const pid of killed) process.kill(pid, 'SIGKILL');
            }
            b.prefetch?.(file, queries);
          },
          declarationsAt: (file, queries) => b.declarationsAt(file, queries),
        };
        return outer;
      },
      release() {},
    };
    try {
      const r = buildGraph({ root, checker: provider });
      assert.equal(killed.length, 1, 'one TypeScript 7 process was running');
      assert.deepEqual(r.checker.served, []);
      assert.equal(r.checker.fallbacks.length, 1);
      assert.match(r.checker.fallbacks[0].reason, /^the native checker failed \(/);
      assert.ok(inner.sentEarly >= 16, `${inner.sentEarly} sent early before the process died`);
      assert.equal(serializeGraph(r.graph), js);
    } finally {
      inner.close();
    }
  });
});

/** The environment of this process's TypeScript 7 processes still running (Linux's /proc; `tsc --api`), by pid. */
function childEnvironments(): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--api')) continue;
      out.set(Number(pid), fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The native checker behind a provider that records every declaration its backends answer, and the environments of its process. */
function recording(): { provider: CheckerProvider; declarations: DeclarationRef[]; environments: string[][]; close(): void } {
  const inner = new NativeChecker();
  const declarations: DeclarationRef[] = [];
  const environments: string[][] = [];
  const backends = new Map<CheckerBackend, CheckerBackend>();
  const provider: CheckerProvider = {
    name: 'native',
    open(check) {
      const b = inner.open(check);
      if ('declined' in b) return b;
      if (environments.length === 0) environments.push(...childEnvironments().values());
      const outer: CheckerBackend = {
        declarationsAt(file, queries) {
          const answers = b.declarationsAt(file, queries);
          for (const a of answers) if (a.kind === 'declarations') declarations.push(...a.declarations);
          return answers;
        },
      };
      backends.set(outer, b);
      return outer;
    },
    release(b) {
      inner.release(backends.get(b) ?? b);
    },
  };
  return { provider, declarations, environments, close: () => inner.close() };
}

describe('the native process (ADR 130)', () => {
  const onLinux = process.platform === 'linux' ? {} : { skip: 'reads /proc' };

  it('reports declarations in its own default library where the JavaScript checker reports its own', () => {
    const r = recording();
    try {
      const result = buildGraph({ root: path.join(FIXTURES, 'calls-callback'), checker: r.provider });
      assert.deepEqual(result.checker.fallbacks, []);
    } finally {
      r.close();
    }
    const library = r.declarations.filter((d) => d.file.startsWith(DEFAULT_LIB_DIRECTORY + '/'));
    // [].forEach, Math.random and Function.bind are declared in lib.es5.d.ts.
    assert.ok(
      library.some((d) => d.file === `${DEFAULT_LIB_DIRECTORY}/lib.es5.d.ts`),
      JSON.stringify(r.declarations),
    );
    const native = path
      .dirname((nativeBinary() as { exe: string }).exe)
      .split(path.sep)
      .join('/');
    assert.deepEqual(
      r.declarations.filter((d) => d.file.startsWith(native + '/')),
      [],
      'no declaration names a file of TypeScript 7 itself',
    );
  });

  it('starts the Go process with GOGC=50 and leaves this process environment as it was', onLinux, () => {
    assert.equal(process.env.GOGC, undefined, 'the test runner sets no GOGC');
    const r = recording();
    try {
      buildGraph({ root: path.join(FIXTURES, 'calls-callback'), checker: r.provider });
    } finally {
      r.close();
    }
    assert.equal(r.environments.length, 1, 'one TypeScript 7 process while the project is open');
    assert.ok(r.environments[0].includes('GOGC=50'), r.environments[0].filter((v) => v.startsWith('GO')).join(' '));
    assert.equal(process.env.GOGC, undefined);
  });

  it('keeps a GOGC the user set', onLinux, () => {
    process.env.GOGC = '80';
    const r = recording();
    try {
      buildGraph({ root: path.join(FIXTURES, 'calls-callback'), checker: r.provider });
    } finally {
      r.close();
      delete process.env.GOGC;
    }
    assert.ok(r.environments[0]?.includes('GOGC=80'), JSON.stringify(r.environments));
  });
});
