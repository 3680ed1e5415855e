// Every call form and every outcome of the resolution tier, on fixtures whose expected edges are
// read off their source by hand (each expectation below names the line it comes from).

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildGraph, fileId, indexGraph, symbolId, unresolvedId, type Graph, type GraphEdge } from '../../src/graph';
import { callerCounts } from '../../src/graph/query/node-details';
import { compareWithCallHierarchy } from '../reference/call-hierarchy';
import { copyFixture, removeTempDirs } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

const built = new Map<string, { root: string; graph: Graph }>();
function build(name: string): Graph {
  let b = built.get(name);
  if (!b) {
    const root = copyFixture(name);
    b = { root, graph: buildGraph({ root }).graph };
    assertValidGraph(JSON.parse(JSON.stringify(b.graph)));
    built.set(name, b);
  }
  return b.graph;
}

type Expect = [source: string, target: string, confidence: GraphEdge['confidence'], line: number, extra?: Partial<GraphEdge>];

function calls(g: Graph, relation = 'calls'): Map<string, GraphEdge> {
  return new Map(g.edges.filter((e) => e.relation === relation).map((e) => [`${e.source} -> ${e.target}`, e]));
}

function expectEdges(g: Graph, expected: Expect[], relation = 'calls', exhaustive = true): void {
  const got = calls(g, relation);
  for (const [source, target, confidence, line, extra] of expected) {
    const e = got.get(`${source} -> ${target}`);
    assert.ok(e, `missing ${source} -${relation}-> ${target}; have:\n${[...got.keys()].join('\n')}`);
    assert.equal(e.confidence, confidence, `${source} -> ${target}`);
    assert.equal(e.evidence?.line, line, `${source} -> ${target} evidence line`);
    for (const [k, v] of Object.entries(extra ?? {}))
      assert.deepEqual((e as unknown as Record<string, unknown>)[k], v, `${source} -> ${target} ${k}`);
    if (confidence === 'EXACT') assert.equal(e.provenance, 'TYPESCRIPT_CHECKER');
  }
  if (exhaustive) assert.equal(got.size, expected.length, `unexpected ${relation} edges:\n${[...got.keys()].join('\n')}`);
}

describe('calls', () => {
  after(removeTempDirs);

  it('are EXACT through an alias, a re-export, export *, a namespace import and a default import', () => {
    const s = (n: string) => symbolId('main.ts', n);
    const t = (n: string) => symbolId('target.ts', n);
    expectEdges(build('calls-alias-reexport'), [
      [s('viaReexport'), t('target'), 'EXACT', 7], // renamed() via barrel → middle → target
      [s('viaNamespace'), t('target'), 'EXACT', 11], // ns.target()
      [s('viaDefaultAndAlias'), t('makeDefault'), 'EXACT', 15], // made()
      [s('viaDefaultAndAlias'), t('target'), 'EXACT', 15], // local()
    ]);
  });

  it('resolve methods through this, super, interfaces (no fan-out), unions and new', () => {
    const s = (n: string) => symbolId('shapes.ts', n);
    const g = build('calls-members');
    expectEdges(g, [
      [s('Base.describe'), s('Base.area'), 'EXACT', 8], // this.area() on the abstract member
      [s('Square'), s('Base'), 'EXACT', 14, { context: 'super' }], // super() from the constructor
      [s('Square.area'), s('Square.helper'), 'EXACT', 17], // this.helper()
      [s('Square.describe'), s('Base.describe'), 'EXACT', 23], // super.describe()
      [s('total'), s('Shape.area'), 'EXACT', 35], // s.area() on Shape: the interface member only
      [s('either'), s('Square.area'), 'EXACT', 40], // union receiver: each member
      [s('either'), s('Circle.area'), 'EXACT', 40],
      [s('build'), s('Square'), 'EXACT', 44, { context: 'new' }], // new Square(2) → the class
    ]);
    expectEdges(g, [[s('Square'), s('Base'), 'EXACT', 12]], 'extends');
    expectEdges(
      g,
      [
        [s('Base'), s('Shape'), 'EXACT', 5],
        [s('Base.area'), s('Shape.area'), 'EXACT', 6], // the member that implements the interface's (ADR 151)
        [s('Circle'), s('Shape'), 'EXACT', 27],
        [s('Circle.area'), s('Shape.area'), 'EXACT', 28],
      ],
      'implements',
    );
    // Square.area overrides Base.area, the nearest base that declares it; not Shape.area again.
    expectEdges(
      g,
      [
        [s('Square.area'), s('Base.area'), 'EXACT', 16],
        [s('Square.describe'), s('Base.describe'), 'EXACT', 22],
      ],
      'overrides',
    );
  });

  it('guess by name only where the checker cannot place a call, and say why otherwise', () => {
    const m = (n: string) => symbolId('main.ts', n);
    const w = (n: string) => symbolId('workers.ts', n);
    const g = build('calls-unplaced');
    expectEdges(g, [
      [m('viaAny'), w('Runner.run'), 'CANDIDATE', 2, { resolution: 'AMBIGUOUS', provenance: 'NAME_MATCH' }], // x.run(): two methods named run
      [m('viaAny'), w('Jogger.run'), 'CANDIDATE', 2, { resolution: 'AMBIGUOUS' }],
      [m('viaAny'), w('Loner.uniqueJob'), 'CANDIDATE', 3, { resolution: 'EXTRACTED' }], // the only name match is still a guess
      [m('viaAny'), unresolvedId('nothingHasThisName'), 'UNRESOLVED', 4, { reason: 'any-receiver' }],
      [m('viaKey'), unresolvedId('[key]'), 'UNRESOLVED', 8, { reason: 'dynamic-access' }],
      [m('viaKey'), unresolvedId('literal'), 'UNRESOLVED', 9, { reason: 'no-declaration' }], // index signature, no declaration
      [m('undeclared'), w('globalHelper'), 'CANDIDATE', 14], // not imported
      [m('undeclared'), unresolvedId('nowhere'), 'UNRESOLVED', 15, { reason: 'no-declaration' }],
    ]);
    assert.ok(!g.edges.some((e) => e.confidence === 'EXACT' && e.relation === 'calls'), 'nothing here is proven');
  });

  it('collapse overload calls onto the one overloaded node and resolve generics', () => {
    const s = (n: string) => symbolId('lib.ts', n);
    expectEdges(build('calls-overload-generic'), [
      [s('use'), s('parse'), 'EXACT', 19], // parse('abc') and parse(3): one edge, earliest site
      [s('use'), s('identity'), 'EXACT', 21],
      [s('use'), s('Box'), 'EXACT', 21, { context: 'new' }],
      [s('use'), s('Box.map'), 'EXACT', 21],
      [s('Box.map'), s('Box'), 'EXACT', 14, { context: 'new' }],
      [s('Box.map'), unresolvedId('fn'), 'UNRESOLVED', 14, { reason: 'indirect' }], // a parameter
    ]);
  });

  it('keep a callback invoked later as an indirect hole, never as a call to what was passed', () => {
    const s = (n: string) => symbolId('events.ts', n);
    const g = build('calls-callback');
    expectEdges(g, [
      [s('later'), unresolvedId('cb'), 'UNRESOLVED', 4, { reason: 'indirect' }],
      [s('schedule'), s('later'), 'EXACT', 8],
      [s('schedule'), unresolvedId('chosen'), 'UNRESOLVED', 11, { reason: 'indirect' }],
      [s('schedule'), s('makeCallback'), 'EXACT', 12],
      [s('schedule'), unresolvedId('makeCallback()'), 'UNRESOLVED', 12, { reason: 'indirect' }],
    ]);
    assert.ok(!g.edges.some((e) => e.relation === 'calls' && e.target === s('handler')), 'passing handler is not calling it');
    // forEach, Math.random and bind are counted, not listed; inner() is a local helper.
    assert.deepEqual(g.unresolved?.calls, { external: 3, indirect: 3, local: 1 });
  });

  it('record decorators, decorator factories and tagged templates', () => {
    const s = (n: string) => symbolId('service.ts', n);
    expectEdges(build('calls-decorators'), [
      [s('Service'), s('sealed'), 'EXACT', 17, { context: 'decorator' }],
      [s('Service.run'), s('logged'), 'EXACT', 19, { context: 'decorator' }],
      [s('Service.run'), s('tagged'), 'EXACT', 21, { context: 'tag' }],
      [s('Service.other'), s('factory'), 'EXACT', 24],
    ]);
  });

  it('attribute field initializers and constructors to the class, top level to the file', () => {
    const s = (n: string) => symbolId('app.ts', n);
    expectEdges(build('calls-callers'), [
      [s('Widget'), s('compute'), 'EXACT', 10], // size = compute() (and the constructor's call, line 17)
      [s('Widget.onClick'), s('compute'), 'EXACT', 11], // an arrow-function property is a method
      [s('Widget'), s('other'), 'EXACT', 12], // static field (and the static block, line 14)
      [fileId('app.ts'), s('compute'), 'EXACT', 21], // const value = compute() and compute() at top level
      [s('Tools.inside'), s('other'), 'EXACT', 26],
      [s('Tools'), s('other'), 'EXACT', 28], // namespace body
      [s('pick'), s('compute'), 'EXACT', 32, { context: 'conditional' }],
      [s('pick'), s('other'), 'EXACT', 32, { context: 'conditional' }],
    ]);
  });

  it("an object literal's functions bound to a name are methods with callers of their own (ADR 200)", () => {
    const s = (f: string, n: string) => symbolId(f, n);
    const a = (n: string) => s('api.ts', n);
    const g = build('calls-object-literal');
    const kinds = new Map(g.nodes.filter((n) => n.id.startsWith('sym:')).map((n) => [n.id, n.kind]));
    // Methods, an arrow, a function expression and an accessor; no data, nested or computed key.
    for (const m of ['api.get', 'api.format', 'api.remove', 'api.size', 'local.run']) assert.equal(kinds.get(a(m)), 'method', m);
    for (const absent of ['api.limit', 'api.nested', 'api.nested.inner', 'api.[computed]', 'api.computed'])
      assert.ok(!kinds.has(a(absent)), `${absent} is no node`);
    assert.equal(kinds.get(a('api')), 'variable');
    expectEdges(g, [
      [a('api.get'), a('log'), 'EXACT', 7], // its body is its own, not the file's
      [a('api.get'), a('api.format'), 'EXACT', 8], // this.format(): the literal's own member
      [a('api.remove'), a('log'), 'EXACT', 12],
      [a('api.remove'), a('api.get'), 'EXACT', 12],
      [a('api.size'), a('count'), 'EXACT', 15], // a getter's body
      [fileId('api.ts'), a('log'), 'EXACT', 20], // a nested literal's function stays the file's
      [a('local.run'), a('api.remove'), 'EXACT', 34], // through `satisfies`
      [a('main'), a('local.run'), 'EXACT', 39],
      [s('use.ts', 'caller'), a('api.get'), 'EXACT', 4], // across files, through the import
      [s('use.ts', 'caller'), a('api.format'), 'EXACT', 4],
      [s('provider.ts', 'stamp'), s('provider.ts', 'Clock.now'), 'EXACT', 12], // through the interface: its member's
    ]);
    assert.deepEqual(g.unresolved?.calls, { external: 2, local: 1 }); // console.log, Date.now; api.nested.inner()
    // A literal typed by an interface implements its members, as a class's methods would.
    expectEdges(g, [[s('provider.ts', 'systemClock.now'), s('provider.ts', 'Clock.now'), 'EXACT', 6]], 'implements');
    // Its lens: no direct caller, one through the interface member, never merged (issue 54's tier).
    const load = indexGraph(g);
    assert.ok(load.ok);
    assert.deepEqual(callerCounts(load.graph, [s('provider.ts', 'systemClock.now')])[0], {
      callers: 0,
      candidates: 0,
      through: { callers: 1, via: ['Clock.now'] },
    });
    const ok = compareWithCallHierarchy(built.get('calls-object-literal')!.root, g);
    assert.equal(ok.precision, 1, JSON.stringify(ok.falsePositives));
    assert.equal(ok.recall, 1, JSON.stringify(ok.misses));
    // The reference names the literal's functions too, as callees and as callers: the check is not
    // vacuous for them. (The call hierarchy prepares no `key: function` or arrow-valued key:
    // api.remove's and api.format's calls are confirmed by go-to-definition.)
    for (const m of ['api.get', 'local.run'])
      assert.ok(
        ok.pairKeys.some((k) => k.endsWith(`\u0000${a(m)}`)),
        `the call hierarchy lists calls of ${m}`,
      );
    for (const m of ['api.get', 'api.remove'])
      assert.ok(
        ok.pairKeys.some((k) => k.startsWith(`${a(m)}\u0000`)),
        `the call hierarchy names ${m} as a caller`,
      );
    assert.equal(ok.confirmedByDefinition, 3, 'api.format twice and api.remove, by go-to-definition');
  });

  it('JSX components are calls', () => {
    const g = build('tsx');
    expectEdges(g, [
      [symbolId('src/App.tsx', 'App'), symbolId('src/Button.tsx', 'Panel'), 'EXACT', 4, { context: 'jsx' }],
      [symbolId('src/Button.tsx', 'Panel'), symbolId('src/Button.tsx', 'Button'), 'EXACT', 11, { context: 'jsx' }],
    ]);
  });

  it('the reference check itself catches a wrong and a missing edge', () => {
    const g = build('calls-members');
    const root = built.get('calls-members')!.root;
    const ok = compareWithCallHierarchy(root, g);
    assert.equal(ok.precision, 1);
    assert.equal(ok.recall, 1);
    assert.ok(ok.referencePairs >= 6);
    const wrong = structuredClone(g);
    const e = wrong.edges.find((x) => x.relation === 'calls' && x.target === symbolId('shapes.ts', 'Shape.area'))!;
    e.target = symbolId('shapes.ts', 'Circle.area'); // fan out to an implementation: not proven
    wrong.edges = wrong.edges.filter((x) => !(x.relation === 'calls' && x.target === symbolId('shapes.ts', 'Square.helper')));
    const bad = compareWithCallHierarchy(root, wrong);
    assert.ok(bad.precision < 1, 'the fanned-out edge is not confirmed');
    assert.ok(bad.recall < 1, 'the dropped edge is missed');
  });
});
