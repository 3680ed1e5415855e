// Calls into packages, proven to their source (ADR 107): real packages, built by this test with the
// bundled compiler (TypeScript 6.0, in-process), packed with `npm pack` and installed offline with `npm install <tarball>` into
// a consumer repository — one publishing declaration maps, one only a project reference, one
// neither — and rxjs from npm, which ships its maps and sources. Plus a workspace whose calls
// reach a sibling package through its built `dist/*.d.ts`.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildGraph, parseId, runDoctor, serializeGraph, symbolId, type Graph, type GraphEdge } from '../../src/graph';
import { extractFile, parseSource } from '../../src/graph/indexer/compiler/extract';
import { NativeChecker } from '../../src/graph/indexer/compiler/native-checker';
import { CLI, REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { GREETER_SRC, mappedPackage, pack, run, tsc } from '../helpers/packages';
import { assertValidGraph } from '../helpers/schema';

function build(root: string): Graph {
  const { graph } = buildGraph({ root });
  assertValidGraph(graph);
  const report = runDoctor(graph);
  assert.ok(report.ok, JSON.stringify(report.rules.filter((r) => r.status === 'FAIL')));
  return graph;
}

const callsFrom = (g: Graph, source: string): GraphEdge[] => g.edges.filter((e) => e.relation === 'calls' && e.source === source);
const pick = (e: GraphEdge) => ({
  target: e.target,
  confidence: e.confidence,
  provenance: e.provenance,
  resolutionClass: e.resolutionClass,
});

/** The ids the package's own graph gives the declarations of one of its source files (the join key). */
function ownIds(pkgRoot: string, rel: string): Set<string> {
  const sf = parseSource(path.join(pkgRoot, rel), fs.readFileSync(path.join(pkgRoot, rel), 'utf8'), undefined);
  return new Set(extractFile(sf, rel).nodes.map((n) => n.id));
}

describe('calls into installed packages (ADR 107)', () => {
  let work: string;
  let consumer: string;
  let graph: Graph;

  before(() => {
    work = tempDir('kg-pkgs-');
    const tarballs = path.join(work, 'tarballs');
    fs.mkdirSync(tarballs);

    // 1. Declaration maps: the package ships dist/*.d.ts with their .d.ts.map, and its sources.
    const mapped = path.join(work, 'mapped');
    writeTree(mapped, mappedPackage('', '@acme/mapped', '1.2.0'));
    tsc(mapped);

    // 2. No maps, but a solution tsconfig whose project reference builds the declarations from src/.
    const configured = path.join(work, 'configured');
    writeTree(configured, {
      'package.json': JSON.stringify({
        name: 'configured-lib',
        version: '0.3.0',
        exports: { '.': { types: './lib/index.d.ts', default: './lib/index.js' } },
        files: ['lib', 'src', 'tsconfig.json', 'tsconfig.build.json'],
      }),
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './tsconfig.build.json' }] }),
      'tsconfig.build.json': JSON.stringify({
        compilerOptions: { composite: true, strict: true, emitDeclarationOnly: true, outDir: 'lib', rootDir: 'src' },
        include: ['src'],
      }),
      'src/index.ts': 'export function shout(s: string): string {\n  return s.toUpperCase();\n}\n',
    });
    tsc(configured, 'tsconfig.build.json');

    // 3. Neither: declarations only.
    const bare = path.join(work, 'bare');
    writeTree(bare, {
      'package.json': JSON.stringify({ name: 'bare-lib', version: '2.0.0', types: 'index.d.ts', files: ['index.d.ts'] }),
      'index.d.ts': 'export declare function whisper(s: string): string;\n',
    });

    const balls = [mapped, configured, bare].map((d) => pack(d, tarballs));
    consumer = path.join(work, 'consumer');
    writeTree(consumer, {
      'package.json': JSON.stringify({ name: 'consumer-app', version: '0.0.1', private: true }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022' }, include: ['src'] }),
      'src/main.ts': [
        "import { greet, Greeter } from '@acme/mapped';",
        "import { shout } from 'configured-lib';",
        "import { whisper } from 'bare-lib';",
        '',
        'export function main(): string {',
        "  const g = Greeter.create('a');",
        "  return greet('b') + g.hello() + new Greeter('c').hello();",
        '}',
        '',
        'export function loud(): string {',
        "  return shout('x') + whisper('y');",
        '}',
        '',
      ].join('\n'),
      // Carried, not resolved again, by the incremental build below.
      'src/other.ts': "import { Greeter } from '@acme/mapped';\nexport function other(): Greeter {\n  return Greeter.create('o');\n}\n",
    });
    run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', ...balls], consumer);
    graph = build(consumer);
  });
  after(removeTempDirs);

  it('maps a call through the declaration map: EXACT, TYPESCRIPT_CHECKER, EXACT_TYPECHECKED', () => {
    const q = (name: string) => `pkg:%40acme/mapped@1.2.0:src/greeter.ts#${name}`;
    const proven = { confidence: 'EXACT', provenance: 'TYPESCRIPT_CHECKER', resolutionClass: 'EXACT_TYPECHECKED' };
    assert.deepEqual(callsFrom(graph, 'sym:src/main.ts#main').map(pick), [
      { target: q('Greeter'), ...proven },
      { target: q('Greeter.create'), ...proven },
      { target: q('Greeter.hello'), ...proven },
      { target: q('greet'), ...proven },
    ]);
    // Each target is the id the publishing repository's own graph gives the symbol.
    const own = ownIds(path.join(work, 'mapped'), 'src/greeter.ts');
    for (const e of callsFrom(graph, 'sym:src/main.ts#main')) {
      const p = parseId(e.target);
      assert.ok(p?.prefix === 'pkg');
      assert.ok(own.has(symbolId(p.path, p.name)), `${e.target} names a declaration of the package's source`);
    }
  });

  it('maps a call through the build configuration: EXACT, TYPESCRIPT_PROJECT_REFERENCE, EXACT_PACKAGE_MAPPED; with neither, UNRESOLVED external', () => {
    assert.deepEqual(callsFrom(graph, 'sym:src/main.ts#loud').map(pick), [
      {
        target: 'pkg:configured-lib@0.3.0:src/index.ts#shout',
        confidence: 'EXACT',
        provenance: 'TYPESCRIPT_PROJECT_REFERENCE',
        resolutionClass: 'EXACT_PACKAGE_MAPPED',
      },
    ]);
    // whisper() is the one call nothing proves: counted, not listed (and the four imports of packages).
    assert.deepEqual(graph.unresolved, { calls: { external: 1 }, imports: { external: 4 } });
    assert.ok(!graph.edges.some((e) => e.target.includes('bare-lib')));
    assert.ok(ownIds(path.join(work, 'configured'), 'src/index.ts').has('sym:src/index.ts#shout'));
  });

  it('records the repository and the package and version of every target, and copies no node in', () => {
    assert.equal(graph.repository, 'consumer-app');
    assert.deepEqual(graph.packages, [
      { name: '@acme/mapped', version: '1.2.0' },
      { name: 'configured-lib', version: '0.3.0' },
    ]);
    assert.ok(!graph.nodes.some((n) => n.id.startsWith('pkg:')));
  });

  it('answers callers and impact on a package-qualified symbol from the graph’s own references', () => {
    const out = tempDir('kg-pkgs-out-');
    const file = path.join(out, 'graph.json');
    fs.writeFileSync(file, serializeGraph(graph));
    const ask = (...args: string[]) => JSON.parse(run(process.execPath, [CLI, ...args, '--graph', file], out)) as Record<string, unknown>;
    const hello = 'pkg:%40acme/mapped@1.2.0:src/greeter.ts#Greeter.hello';
    assert.deepEqual(ask('callers', hello).callers, ['sym:src/main.ts#main']);
    const impact = ask('impact', hello);
    assert.deepEqual([impact.callers, impact.blastRadius], [['sym:src/main.ts#main'], 1]);
    const unknown = spawnSync(process.execPath, [CLI, 'callers', 'pkg:%40acme/mapped@1.2.0:src/greeter.ts#nope', '--graph', file], {
      encoding: 'utf8',
    });
    assert.notEqual(unknown.status, 0, 'a pkg: id no edge targets is an unknown node');
  });

  it("under the native checker, the same graph: each call placed through the package's declarations the same way (ADR 107, ADR 114)", () => {
    const native = new NativeChecker();
    try {
      const r = buildGraph({ root: consumer, checker: native });
      assert.deepEqual(r.checker.fallbacks, [], 'served natively');
      assert.ok(r.checker.served.length > 0);
      assert.ok(r.graph.edges.some((e) => e.target.startsWith('pkg:%40acme/mapped@1.2.0:')));
      assert.equal(serializeGraph(r.graph), serializeGraph(graph));
    } finally {
      native.close();
    }
  });

  it('is deterministic from another directory, and an incremental build equals a full one', () => {
    const other = path.join(tempDir('kg-pkgs-other-'), 'elsewhere');
    fs.cpSync(consumer, other, { recursive: true });
    assert.equal(serializeGraph(build(other)), serializeGraph(graph));
    // Incremental: build, edit one file, build again; then the same tree fully.
    const cli = (...args: string[]) => run(process.execPath, [CLI, 'build', '--no-server', '--root', other, ...args], other);
    cli('--apply');
    fs.appendFileSync(path.join(other, 'src/main.ts'), "export function more(): string {\n  return greet('z');\n}\n");
    cli('--apply');
    const incremental = fs.readFileSync(path.join(other, '.knowledge-graph', 'graph.json'), 'utf8');
    assert.ok(incremental.includes('"source":"sym:src/main.ts#more","target":"pkg:%40acme/mapped@1.2.0:src/greeter.ts#greet"'));
    assert.ok(
      incremental.includes('"source":"sym:src/other.ts#other","target":"pkg:%40acme/mapped@1.2.0:src/greeter.ts#Greeter.create"'),
      'the carried file keeps its call into the package',
    );
    assert.equal(cli('--full'), incremental);
  });
});

describe('workspace packages through their built declarations (ADR 107)', () => {
  after(removeTempDirs);

  /** A two-package workspace; `lib` declares its types at `types`, built as `emit` says. */
  function workspace(types: string, emit: 'none' | 'map' | 'config'): Graph {
    const root = tempDir('kg-ws-');
    const libConfig: Record<string, unknown> = { strict: true, rootDir: 'src' };
    if (emit !== 'none')
      Object.assign(libConfig, { declaration: true, emitDeclarationOnly: true, outDir: 'dist', declarationMap: emit === 'map' });
    writeTree(root, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      '.gitignore': 'dist/\n',
      'packages/lib/package.json': JSON.stringify({ name: 'lib', version: '1.0.0', types }),
      'packages/lib/tsconfig.json': JSON.stringify({ compilerOptions: libConfig, include: ['src'] }),
      'packages/lib/src/index.ts': GREETER_SRC,
      'packages/app/package.json': JSON.stringify({ name: 'app', version: '1.0.0' }),
      'packages/app/tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext' }, include: ['src'] }),
      'packages/app/src/main.ts':
        "import { greet, Greeter } from 'lib';\nexport function main(): string {\n  return greet('a') + new Greeter('b').hello();\n}\n",
    });
    if (emit !== 'none') tsc(path.join(root, 'packages/lib'));
    return build(root);
  }

  it('keeps plain ids, and the same call through dist/*.d.ts with a map gives the same target', () => {
    const bySource = callsFrom(workspace('src/index.ts', 'none'), 'sym:packages/app/src/main.ts#main').map(pick);
    const lib = (n: string) => `sym:packages/lib/src/index.ts#${n}`;
    const checker = { confidence: 'EXACT', provenance: 'TYPESCRIPT_CHECKER', resolutionClass: undefined };
    assert.deepEqual(bySource, [
      { target: lib('Greeter'), ...checker },
      { target: lib('Greeter.hello'), ...checker },
      { target: lib('greet'), ...checker },
    ]);
    assert.deepEqual(callsFrom(workspace('dist/index.d.ts', 'map'), 'sym:packages/app/src/main.ts#main').map(pick), bySource);
    const mapped = { confidence: 'EXACT', provenance: 'TYPESCRIPT_PROJECT_REFERENCE', resolutionClass: 'EXACT_PACKAGE_MAPPED' };
    assert.deepEqual(
      callsFrom(workspace('dist/index.d.ts', 'config'), 'sym:packages/app/src/main.ts#main').map(pick),
      bySource.map((e) => ({ ...e, ...mapped })),
    );
  });
});

describe('rxjs from npm: its declaration maps name its shipped sources (ADR 107)', () => {
  after(removeTempDirs);

  it('places each call on the symbol of rxjs’s own source, EXACT_TYPECHECKED', () => {
    const rxjs = path.join(REPO, 'node_modules', 'rxjs');
    const version = (JSON.parse(fs.readFileSync(path.join(rxjs, 'package.json'), 'utf8')) as { version: string }).version;
    const root = tempDir('kg-rxjs-consumer-');
    writeTree(root, {
      'package.json': JSON.stringify({ name: 'uses-rxjs', private: true }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022' }, include: ['src'] }),
      'src/main.ts': [
        "import { BehaviorSubject, filter, firstValueFrom, map, of } from 'rxjs';",
        'export async function main(): Promise<number> {',
        '  const s = new BehaviorSubject(1);',
        '  s.next(s.getValue() + 1);',
        '  return firstValueFrom(of(1, 2).pipe(map((x) => x * 2), filter((x) => x > 2)));',
        '}',
        '',
      ].join('\n'),
    });
    fs.mkdirSync(path.join(root, 'node_modules'));
    fs.symlinkSync(rxjs, path.join(root, 'node_modules', 'rxjs'));
    const graph = build(root);
    const q = (file: string, name: string) => `pkg:rxjs@${version}:src/internal/${file}#${name}`;
    const targets = callsFrom(graph, 'sym:src/main.ts#main').map(pick);
    const proven = { confidence: 'EXACT', provenance: 'TYPESCRIPT_CHECKER', resolutionClass: 'EXACT_TYPECHECKED' };
    assert.deepEqual(
      targets,
      [
        q('BehaviorSubject.ts', 'BehaviorSubject'),
        q('BehaviorSubject.ts', 'BehaviorSubject.getValue'),
        q('BehaviorSubject.ts', 'BehaviorSubject.next'),
        q('Observable.ts', 'Observable.pipe'),
        q('firstValueFrom.ts', 'firstValueFrom'),
        q('observable/of.ts', 'of'),
        q('operators/filter.ts', 'filter'),
        q('operators/map.ts', 'map'),
      ].map((target) => ({ target, ...proven })),
    );
    // The join: each target is a symbol rxjs's own graph (built at the package root) has.
    for (const t of targets) {
      const p = parseId(t.target);
      assert.ok(p?.prefix === 'pkg');
      assert.ok(ownIds(rxjs, p.path).has(symbolId(p.path, p.name)), t.target);
    }
    assert.deepEqual(graph.packages, [{ name: 'rxjs', version }]);
  });
});
