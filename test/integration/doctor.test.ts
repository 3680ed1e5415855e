// The doctor's six invariants: a healthy graph passes all of them, and each injected violation
// fails exactly its own rule — with a count and a sample that names the broken row.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DOCTOR_RULES,
  DOCTOR_SAMPLE_LIMIT,
  buildGraph,
  examineGraph,
  runDoctor,
  serializeGraph,
  type DoctorRule,
  type Graph,
  type GraphEdge,
} from '../../src/graph';
import { CLI, copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

const TREE = {
  'src/a.ts': 'export function a() {}\nexport class Shape {\n  area() { return 1; }\n}\n',
  'src/b.ts': "import { a } from './a';\nimport './empty';\nexport function b() { a(); }\n",
  'src/empty.ts': '// imported for its side effects\n',
  'lonely.ts': 'export const lonely = 1;\n',
};

let cached: string | undefined;
/** A real graph of a small tree, as JSON text (each test parses its own copy). */
function healthyText(): string {
  if (cached === undefined) {
    const root = tempDir();
    writeTree(root, TREE);
    const { graph } = buildGraph({ root });
    assertValidGraph(JSON.parse(JSON.stringify(graph)));
    cached = serializeGraph(graph);
  }
  return cached;
}

const healthy = (): Graph => JSON.parse(healthyText()) as Graph;

function failing(g: unknown): Map<DoctorRule, number> {
  const out = new Map<DoctorRule, number>();
  for (const r of runDoctor(g).rules) if (r.status === 'FAIL') out.set(r.rule, r.count);
  return out;
}

function findEdge(g: Graph, source: string, target: string, relation: string): GraphEdge {
  const e = g.edges.find((x) => x.source === source && x.target === target && x.relation === relation);
  assert.ok(e, `fixture lacks ${source} --${relation}--> ${target}`);
  return e;
}

function removeEdge(g: Graph, source: string, target: string, relation: string): void {
  const e = findEdge(g, source, target, relation);
  g.edges.splice(g.edges.indexOf(e), 1);
}

const exactCall = (source: string, target: string, file: string): GraphEdge => ({
  source,
  target,
  relation: 'calls',
  confidence: 'EXACT',
  provenance: 'TYPESCRIPT_CHECKER',
  resolution: 'EXTRACTED',
  evidenceClass: 'DETERMINISTIC',
  confidenceScore: null,
  evidence: { file, line: 3, column: 23 },
});

const PKG_TARGET = 'pkg:lib@1.0.0:src/index.ts#greet';

/** Adds an EXACT call from `b` into a package (recorded in `packages`), with `change` applied. */
function withPackageCall(g: Graph, change: Partial<GraphEdge>): void {
  const e: GraphEdge = {
    ...exactCall('sym:src/b.ts#b', PKG_TARGET, 'src/b.ts'),
    resolutionClass: 'EXACT_TYPECHECKED',
    ...change,
  };
  if (e.resolutionClass === undefined) delete e.resolutionClass;
  g.edges.push(e);
  g.edges.sort((x, y) => (x.source < y.source ? -1 : x.source > y.source ? 1 : x.target < y.target ? -1 : x.target > y.target ? 1 : 0));
  g.packages = [{ name: 'lib', version: '1.0.0' }];
}

describe('kg doctor: the six invariants', () => {
  after(removeTempDirs);

  it('passes every rule on graphs the builder writes (a tree and every fixture)', () => {
    const report = runDoctor(healthy());
    assert.equal(
      report.ok,
      true,
      JSON.stringify(
        report.rules.filter((r) => r.status === 'FAIL'),
        null,
        2,
      ),
    );
    assert.deepEqual(
      report.rules.map((r) => r.rule),
      [...DOCTOR_RULES],
    );
    assert.ok(report.rules.every((r) => r.count === 0 && r.samples.length === 0));
    for (const name of ['nested-modules', 'path-aliases', 'project-references', 'reexports', 'classes-methods', 'overloads-merging']) {
      const r = runDoctor(JSON.parse(serializeGraph(buildGraph({ root: copyFixture(name) }).graph)));
      assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.rules.filter((x) => x.status === 'FAIL'))}`);
    }
  });

  it('passes graphs of files the parser can only recover from (names it invents are not symbols)', () => {
    const broken = [
      'export function ((( {{{',
      'function () {}',
      'enum {}',
      'class { m() {} }',
      'const = 5;',
      'class A { (){} get () {} }',
      'namespace { }',
    ];
    const root = tempDir();
    writeTree(root, Object.fromEntries(broken.map((text, i) => [`broken${i}.ts`, text])));
    const { graph } = buildGraph({ root });
    const report = runDoctor(JSON.parse(serializeGraph(graph)));
    assert.equal(
      report.ok,
      true,
      JSON.stringify(
        report.rules.filter((r) => r.status === 'FAIL'),
        null,
        2,
      ),
    );
    assert.ok(!graph.nodes.some((n) => n.id.endsWith('#')), 'no symbol with an empty name');
    const syntax = runDoctor(JSON.parse(serializeGraph(buildGraph({ root: copyFixture('syntax-errors') }).graph)));
    assert.equal(syntax.ok, true);
  });

  const cases: Array<{ rule: DoctorRule; what: string; inject: (g: Graph) => void; count: number; sample: RegExp }> = [
    {
      rule: 'exact_edge_without_source',
      what: 'an EXACT call from a symbol no file declares',
      inject: (g) => g.edges.push(exactCall('sym:src/b.ts#ghost', 'sym:src/a.ts#a', 'src/b.ts')),
      count: 1,
      sample: /sym:src\/b\.ts#ghost --calls--> sym:src\/a\.ts#a: source sym:src\/b\.ts#ghost: no node has this id/,
    },
    {
      rule: 'exact_edge_without_source',
      what: 'a file whose module containment was removed, with EXACT edges out of it',
      inject: (g) => removeEdge(g, 'mod:.', 'file:lonely.ts', 'contains'),
      count: 1,
      sample: /file:lonely\.ts --contains--> sym:lonely\.ts#lonely: source file:lonely\.ts: no module contains this file/,
    },
    {
      rule: 'exact_edge_without_target',
      what: 'an EXACT call to a symbol that does not exist',
      inject: (g) => g.edges.push(exactCall('sym:src/b.ts#b', 'sym:src/a.ts#ghost', 'src/b.ts')),
      count: 1,
      sample: /target sym:src\/a\.ts#ghost: no node has this id/,
    },
    {
      rule: 'exact_edge_without_target',
      what: 'an imported file no module declares',
      inject: (g) => removeEdge(g, 'mod:src', 'file:src/empty.ts', 'contains'),
      count: 1,
      sample: /file:src\/b\.ts --imports--> file:src\/empty\.ts: target file:src\/empty\.ts: no module contains this file/,
    },
    {
      rule: 'missing_evidence_file',
      what: 'evidence in a file that is not a file node',
      inject: (g) => {
        (findEdge(g, 'file:src/b.ts', 'file:src/a.ts', 'imports').evidence as { file: string }).file = 'src/gone.ts';
      },
      count: 1,
      sample: /evidence file src\/gone\.ts is not a file node/,
    },
    {
      rule: 'duplicate_stable_key',
      what: 'one id on two nodes',
      inject: (g) => g.nodes.push({ ...(g.nodes.find((n) => n.id === 'sym:src/a.ts#a') as Graph['nodes'][number]), kind: 'variable' }),
      count: 1,
      sample: /sym:src\/a\.ts#a: the id is used by more than one node \(kinds function and variable\)/,
    },
    {
      rule: 'duplicate_stable_key',
      what: 'two spellings of one key (an escape that was not needed)',
      inject: (g) => g.nodes.push({ id: 'sym:src/a.ts#%61', kind: 'function', label: 'a', sourceFile: 'src/a.ts' }),
      count: 1,
      sample: /sym:src\/a\.ts#%61: names the same key as sym:src\/a\.ts#a/,
    },
    {
      rule: 'unknown_confidence',
      what: 'a confidence outside the vocabulary',
      inject: (g) => {
        (findEdge(g, 'file:src/b.ts', 'file:src/a.ts', 'imports') as { confidence: string }).confidence = 'PROBABLE';
      },
      count: 1,
      sample: /confidence "PROBABLE" is not in the vocabulary/,
    },
    {
      rule: 'unknown_confidence',
      what: 'EXACT backed by a name match',
      inject: (g) => {
        findEdge(g, 'file:src/b.ts', 'file:src/a.ts', 'imports').provenance = 'NAME_MATCH';
      },
      count: 1,
      sample: /EXACT backed by non-exact provenance NAME_MATCH/,
    },
    {
      rule: 'unknown_confidence',
      what: 'a provenance outside the vocabulary',
      inject: (g) => {
        (findEdge(g, 'file:src/b.ts', 'file:src/a.ts', 'imports') as { provenance: string }).provenance = 'GUT_FEELING';
      },
      count: 1,
      sample: /provenance "GUT_FEELING" is not in the vocabulary/,
    },
    {
      rule: 'invalid_repository_ownership',
      what: 'a symbol whose sourceFile is another file',
      inject: (g) => {
        (g.nodes.find((n) => n.id === 'sym:src/a.ts#a') as { sourceFile: string }).sourceFile = 'src/b.ts';
      },
      count: 1,
      sample: /node sym:src\/a\.ts#a: sourceFile src\/b\.ts does not match the file in its id \(src\/a\.ts\)/,
    },
    {
      rule: 'invalid_repository_ownership',
      what: 'a method contained by a symbol of another file',
      inject: (g) => {
        findEdge(g, 'sym:src/a.ts#Shape', 'sym:src/a.ts#Shape.area', 'contains').source = 'sym:src/b.ts#b';
      },
      count: 2,
      sample: /observed in src\/a\.ts but owned by src\/b\.ts/,
    },
    {
      rule: 'unknown_confidence',
      what: "a package-qualified target backed by the project-reference provenance with the declaration map's class",
      inject: (g) => withPackageCall(g, { provenance: 'TYPESCRIPT_PROJECT_REFERENCE', resolutionClass: 'EXACT_TYPECHECKED' }),
      count: 1,
      sample: /resolutionClass EXACT_TYPECHECKED goes with provenance TYPESCRIPT_CHECKER, not TYPESCRIPT_PROJECT_REFERENCE/,
    },
    {
      rule: 'unknown_confidence',
      what: 'a package-qualified target without a resolution class',
      inject: (g) => withPackageCall(g, { resolutionClass: undefined }),
      count: 1,
      sample: /a package-qualified target must be EXACT with resolutionClass/,
    },
    {
      rule: 'invalid_repository_ownership',
      what: 'a package-qualified target whose package and version are not recorded',
      inject: (g) => {
        withPackageCall(g, {});
        g.packages = [{ name: 'lib', version: '0.9.0' }];
      },
      count: 1,
      sample: /package lib@1\.0\.0 of the target is not recorded in "packages"/,
    },
    {
      rule: 'invalid_repository_ownership',
      what: 'a node of another repository copied in',
      inject: (g) => {
        g.nodes.push({ id: PKG_TARGET, kind: 'function', label: 'greet', sourceFile: 'src/a.ts' });
        g.nodes.sort((x, y) => (x.id < y.id ? -1 : 1));
      },
      count: 1,
      sample: /node pkg:lib@1\.0\.0:src\/index\.ts#greet: a symbol of package lib@1\.0\.0/,
    },
  ];

  it('passes an EXACT call into a package by either proof, with its package recorded (ADR 107)', () => {
    for (const proof of [
      { provenance: 'TYPESCRIPT_CHECKER', resolutionClass: 'EXACT_TYPECHECKED' },
      { provenance: 'TYPESCRIPT_PROJECT_REFERENCE', resolutionClass: 'EXACT_PACKAGE_MAPPED' },
    ] as const) {
      const g = healthy();
      withPackageCall(g, proof);
      assertValidGraph(g);
      assert.deepEqual([...failing(g)], [], proof.provenance);
    }
  });

  for (const c of cases) {
    it(`${c.rule}: ${c.what} fails exactly that rule`, () => {
      const g = healthy();
      c.inject(g);
      const report = runDoctor(g);
      assert.equal(report.ok, false);
      assert.deepEqual([...failing(g)], [[c.rule, c.count]]);
      const r = report.rules.find((x) => x.rule === c.rule)!;
      assert.ok(
        r.samples.some((s) => c.sample.test(`${s.table} ${s.key}: ${s.detail}`)),
        JSON.stringify(r.samples, null, 2),
      );
    });
  }

  it(`lists at most ${DOCTOR_SAMPLE_LIMIT} samples under a failure, and counts them all`, () => {
    const g = healthy();
    for (let i = 0; i < 25; i++) g.edges.push({ ...exactCall('sym:src/b.ts#b', `sym:src/a.ts#ghost${i}`, 'src/b.ts') });
    const r = runDoctor(g).rules.find((x) => x.rule === 'exact_edge_without_target')!;
    assert.equal(r.count, 25);
    assert.equal(r.samples.length, DOCTOR_SAMPLE_LIMIT);
  });

  it('refuses what is not a graph at all, with a reason', () => {
    assert.throws(() => runDoctor([]), /not a JSON object/);
    // Another schemaVersion is a schema violation, reported beside the rules (ADR 97).
    const other = examineGraph({ ...healthy(), schemaVersion: 2 });
    assert.equal(other.ok, false);
    assert.equal(other.schema?.count, 1);
    assert.ok(other.rules.every((r) => r.status === 'PASS'));
    assert.throws(() => runDoctor({ schemaVersion: 1, nodes: {} }), /must be arrays/);
  });

  describe('the command', () => {
    function kg(args: string[], cwd: string) {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    }

    it('prints one line per rule, exits 0 when all pass and 1 when one fails, and never writes', () => {
      const root = tempDir();
      writeTree(root, TREE);
      assert.equal(kg(['build', '--apply'], root).code, 0);
      const graphFile = path.join(root, '.knowledge-graph', 'graph.json');
      const ok = kg(['doctor'], root);
      assert.equal(ok.code, 0, ok.stderr);
      const lines = ok.stdout.trim().split('\n');
      assert.equal(lines.length, 9, 'the heading, the schema, six rules, the verdict');
      for (const rule of ['schema', ...DOCTOR_RULES])
        assert.ok(
          lines.some((l) => new RegExp(`^PASS ${rule} +0$`).test(l)),
          `${rule} in:\n${ok.stdout}`,
        );

      const g = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as Graph;
      g.edges.push(exactCall('sym:src/b.ts#b', 'sym:src/a.ts#ghost', 'src/b.ts'));
      const broken = path.join(root, 'broken.json');
      fs.writeFileSync(broken, JSON.stringify(g));
      const before = fs.statSync(broken).mtimeMs;
      const listing = fs.readdirSync(root).sort();
      const bad = kg(['doctor', '--graph', 'broken.json'], root);
      assert.equal(bad.code, 1);
      assert.match(bad.stdout, /^FAIL exact_edge_without_target +1$/m);
      assert.match(
        bad.stdout,
        /^ {4}edge sym:src\/b\.ts#b --calls--> sym:src\/a\.ts#ghost: target sym:src\/a\.ts#ghost: no node has this id$/m,
      );
      assert.match(bad.stdout, /1 of 6 rules failed/);
      assert.equal(fs.statSync(broken).mtimeMs, before);
      assert.deepEqual(fs.readdirSync(root).sort(), listing, 'the doctor creates no file');

      const json = kg(['doctor', '--graph', 'broken.json', '--json'], root);
      assert.equal(json.code, 1);
      const report = JSON.parse(json.stdout);
      assert.equal(report.ok, false);
      assert.equal(report.rules.find((r: { rule: string }) => r.rule === 'exact_edge_without_target').count, 1);
    });

    it('says when there is no graph (exit 3) and when the file is not a graph (exit 1)', () => {
      const root = tempDir();
      const none = kg(['doctor'], root);
      assert.equal(none.code, 3);
      assert.match(none.stderr, /there is no graph at \.knowledge-graph\/graph\.json/);
      fs.writeFileSync(path.join(root, 'torn.json'), '{"schemaVersion":1,"nodes":[');
      const torn = kg(['doctor', '--graph', 'torn.json'], root);
      assert.equal(torn.code, 1);
      assert.match(torn.stderr, /torn\.json is not valid JSON/);
      const usage = kg(['doctor', '--nope'], root);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /Usage: kg doctor/);
    });
  });
});
