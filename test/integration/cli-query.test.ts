// The eight query commands as a user runs them: the bundled CLI in a child process, graph files on
// disk. Every exit-code path: 0 for any answer (an empty one too), 2 for usage errors with the
// message on stderr, 3 whenever the result is unavailable.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { describeUnavailable, MAX_GRAPH_BYTES, serializeGraph } from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { graphOf } from '../helpers/graphs';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

const MAIN = 'sym:src/main.ts#main';
const HELPER = 'sym:src/util.ts#helper';
const GUESS = 'sym:src/any.ts#guess';

/** A repository folder with a graph at the default place: main → helper (EXACT), guess → helper (CANDIDATE). */
function repoWithGraph(opts: { withCalls?: boolean } = {}): string {
  const cwd = tempDir();
  const edges =
    opts.withCalls === false
      ? ([
          ['file:src/main.ts', 'file:src/util.ts', 'imports'],
          ['file:src/util.ts', HELPER, 'contains'],
        ] as const)
      : ([
          [MAIN, HELPER],
          [GUESS, HELPER, 'calls', 'CANDIDATE'],
          ['file:src/main.ts', 'file:src/util.ts', 'imports'],
          ['file:src/util.ts', HELPER, 'contains'],
          ['file:src/main.ts', MAIN, 'contains'],
        ] as const);
  writeTree(cwd, { '.knowledge-graph/graph.json': serializeGraph(graphOf(edges)) });
  return cwd;
}

describe('kg query commands', () => {
  after(removeTempDirs);

  it('each command answers with exit 0 and the contract shape, from ./.knowledge-graph/graph.json', () => {
    const cwd = repoWithGraph();
    const callers = kg(['callers', HELPER], cwd);
    assert.equal(callers.code, 0, callers.stderr);
    assert.deepEqual(callers.json(), { available: true, callers: [MAIN], candidates: [GUESS], evidenceClass: 'GRAPH_DERIVED' });
    assert.equal(callers.stderr, '');

    const affected = kg(['affected', 'file:src/util.ts'], cwd).json();
    assert.deepEqual(affected, {
      available: true,
      consumers: ['file:src/main.ts'],
      breaks: true,
      candidates: [],
      evidenceClass: 'GRAPH_DERIVED',
    });

    const impact = kg(['impact', HELPER], cwd).json();
    assert.deepEqual(
      [impact.callers, impact.consumers, impact.blastRadius, impact.candidates, impact.candidateRadius],
      [[MAIN], [MAIN], 1, [GUESS], 1],
    );

    const neighbors = kg(['neighbors', HELPER, '--budget', '2'], cwd).json();
    assert.deepEqual(neighbors.nodes, ['sym:src/util.ts#helper', 'file:src/util.ts']);

    const pathResult = kg(['path', 'file:src/main.ts', HELPER], cwd);
    assert.equal(pathResult.code, 0);
    // Two routes of two hops (through main.ts#main or through util.ts); the first in sorted order.
    assert.deepEqual(pathResult.json().path, ['file:src/main.ts', 'file:src/util.ts', HELPER]);
    assert.equal(pathResult.json().directed, false);

    const god = kg(['god-nodes', '--top', '1'], cwd).json();
    assert.deepEqual(god.godNodes, [{ id: HELPER, degree: 3 }]);

    const query = kg(['query', 'src/u'], cwd).json();
    assert.deepEqual(query.matches, ['file:src/util.ts', HELPER]);
  });

  it('kg why: the notes on a symbol and the records around it, from a graph kg built', () => {
    const cwd = tempDir();
    writeTree(cwd, {
      'tsconfig.json': '{}',
      'src/a.ts': '// WHY(speed@2026-08-10): memoised, see ADR-1.\nexport function f() {}\n',
      'docs/adr/0001-speed.md': '# ADR 1: Speed\n\n`src/a.ts#f` is memoised.\n',
    });
    const built = spawnSync(process.execPath, [CLI, 'build', '--apply'], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, KG_SERVER: 'off' },
    });
    assert.equal(built.status, 0, built.stderr);
    const why = kg(['why', 'sym:src/a.ts#f'], cwd);
    assert.equal(why.code, 0, why.stderr);
    const a = why.json();
    assert.deepEqual(
      a.notes.map((n: { id: string; sitsOn: boolean; line: number; column: number }) => [n.id, n.sitsOn, n.line, n.column]),
      [['rationale:src/a.ts#speed@2026-08-10~0', true, 1, 4]],
    );
    assert.deepEqual(
      a.records.map((r: { id: string }) => r.id),
      ['adr:1'],
      'the record names src/a.ts#f',
    );
    assert.deepEqual(
      a.cited.map((r: { id: string }) => r.id),
      ['adr:1'],
      'the comment directly above f names ADR-1',
    );
    assert.deepEqual([a.fileNotes, a.fileRecords], [[], []]);
    const unknown = kg(['why', 'sym:src/a.ts#g'], cwd);
    assert.equal(unknown.code, 3);
    assert.equal(unknown.json().code, 'UNKNOWN_NODE');
    assert.equal(kg(['why'], cwd).code, 2);
  });

  it('kg path: the chain of proven calls first, the connection in either direction only with --undirected or as a fallback (ADR 161)', () => {
    const cwd = repoWithGraph();
    const chain = kg(['path', MAIN, HELPER], cwd);
    assert.equal(chain.code, 0, chain.stderr);
    assert.deepEqual([chain.json().path, chain.json().directed, chain.json().note], [[MAIN, HELPER], true, undefined]);
    // main and guess both call helper: connected, but main does not reach guess.
    const back = kg(['path', MAIN, GUESS], cwd).json();
    assert.deepEqual([back.path, back.directed], [[MAIN, HELPER, GUESS], false]);
    assert.match(back.note, /^no chain of proven calls from sym:src\/main\.ts#main to sym:src\/any\.ts#guess; connected by 2 hop/);
    const any = kg(['path', MAIN, HELPER, '--undirected'], cwd).json();
    assert.deepEqual([any.path, any.directed], [[MAIN, HELPER], false]);
    assert.match(kg(['path', '--help'], cwd).stdout, /--undirected/);
  });

  it('an empty answer is still exit 0', () => {
    const cwd = repoWithGraph();
    const r = kg(['callers', MAIN], cwd);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json().callers, []);
    const p = kg(['path', MAIN, GUESS], cwd);
    assert.equal(p.code, 0);
    const q = kg(['query', 'no-such-text'], cwd);
    assert.equal(q.code, 0);
    assert.deepEqual(q.json().matches, []);
  });

  it('--graph names another file, relative to the working directory', () => {
    const cwd = tempDir();
    writeTree(cwd, { 'graphs/g.json': serializeGraph(graphOf([[MAIN, HELPER]])) });
    const r = kg(['callers', HELPER, '--graph', 'graphs/g.json'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json().callers, [MAIN]);
  });

  const unavailable: Array<[string, (cwd: string) => string[], string, RegExp]> = [
    [
      'no graph',
      () => ['callers', HELPER],
      'no committed graph projection',
      /no graph at \.knowledge-graph\/graph\.json: build one with "kg build --apply"/,
    ],
    [
      'an unparsable graph',
      (cwd) => (fs.writeFileSync(path.join(cwd, 'g.json'), '{"schemaVersion": 1, "nodes": ['), ['god-nodes', '--graph', 'g.json']),
      'projection unparsable: ',
      /g\.json cannot be used: rebuild it/,
    ],
    [
      'a graph without node/edge arrays',
      (cwd) => (fs.writeFileSync(path.join(cwd, 'g.json'), '{"schemaVersion": 1}'), ['query', 'x', '--graph', 'g.json']),
      'projection missing nodes/edges arrays',
      /rebuild it/,
    ],
    [
      'a future schemaVersion',
      (cwd) => (
        fs.writeFileSync(path.join(cwd, 'g.json'), '{"schemaVersion": 2, "nodes": [], "edges": []}'),
        ['query', 'x', '--graph', 'g.json']
      ),
      'unsupported schemaVersion: 2 (this kg reads schemaVersion 1)',
      /rebuild it/,
    ],
    [
      'a graph over the size cap',
      (cwd) => {
        const f = path.join(cwd, 'g.json');
        fs.writeFileSync(f, '{');
        fs.truncateSync(f, MAX_GRAPH_BYTES + 1);
        return ['god-nodes', '--graph', 'g.json'];
      },
      'projection unparsable: the file is 500.0 MB, over the ',
      // A rebuild would make the same size again: the remedy is more heap, which the reason names.
      /too large for this process to load; see the reason above/,
    ],
    [
      'callers on a graph without the calls layer',
      (cwd) => (
        fs.rmSync(cwd, { recursive: true }),
        fs.cpSync(repoWithGraph({ withCalls: false }), cwd, { recursive: true }),
        ['callers', HELPER]
      ),
      'calls layer not built in this projection',
      /built without call edges/,
    ],
    [
      'an id that is not in the graph',
      (cwd) => (fs.cpSync(repoWithGraph(), cwd, { recursive: true }), ['impact', 'helper']),
      'unknown node: helper',
      /did you mean: sym:src\/util\.ts#helper/,
    ],
  ];
  for (const [what, setup, reason, hint] of unavailable) {
    it(`${what}: the degrade on stdout, the reason and the fix on stderr, exit 3`, () => {
      const cwd = tempDir();
      const args = setup(cwd);
      const r = kg(args, cwd);
      assert.equal(r.code, 3, r.stderr);
      const json = r.json();
      assert.equal(json.available, false);
      assert.ok(json.reason.startsWith(reason), json.reason);
      assert.equal(json.evidenceClass, 'GRAPH_DERIVED');
      assert.ok(!('callers' in json) && !('matches' in json) && !('godNodes' in json), 'a degrade is never an empty answer');
      // stderr says it in words (ADR 91); the JSON keeps the machine reason.
      const graphArg = args.indexOf('--graph');
      const shownFile = graphArg >= 0 ? path.basename(args[graphArg + 1]) : 'graph.json';
      assert.ok(r.stderr.includes(`unavailable: ${describeUnavailable(json, shownFile)}`), r.stderr);
      assert.match(r.stderr, hint);
    });
  }

  const usage: Array<[string[], RegExp]> = [
    [['callers'], /kg callers: missing <id>/],
    [['path', MAIN], /kg path: missing <to>/],
    [['query', ''], /kg query: <substring> is empty: every id would match/],
    [['callers', MAIN, HELPER], /unexpected argument "sym:src\/util\.ts#helper"/],
    [['neighbors', MAIN, '--budget', '0'], /--budget must be a whole number, at least 1 \(got "0"\)/],
    [['god-nodes', '--top', '2.5'], /--top must be a whole number, at least 1 \(got "2\.5"\)/],
    [['callers', MAIN, '--budget', '3'], /Unknown option '--budget'/],
    [['callers', MAIN, '--graph'], /--graph/],
  ];
  for (const [args, message] of usage) {
    it(`usage error: kg ${args.join(' ')} → exit 2, the message and usage on stderr, nothing on stdout`, () => {
      const cwd = repoWithGraph();
      const r = kg(args, cwd);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, message);
      assert.match(r.stderr, new RegExp(`Usage: kg ${args[0]}`));
      assert.equal(r.stdout, '');
    });
  }

  it('no subcommand and an unknown one are usage errors; the top-level help lists the queries', () => {
    const cwd = tempDir();
    const none = kg([], cwd);
    assert.equal(none.code, 2);
    const unknown = kg(['caller', MAIN], cwd);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "caller"/);
    const help = kg(['--help'], cwd);
    assert.equal(help.code, 0);
    for (const name of ['callers', 'affected', 'impact', 'neighbors', 'path', 'god-nodes', 'query', 'why'])
      assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'));
  });

  it('each command has its own --help', () => {
    const cwd = tempDir();
    for (const [name, flags] of [
      ['neighbors', ['--budget', '--graph']],
      ['path', ['<from> <to>', '--graph']],
    ] as const) {
      const r = kg([name, '--help'], cwd);
      assert.equal(r.code, 0);
      assert.match(r.stdout, new RegExp(`^Usage: kg ${name}`));
      for (const f of flags) assert.ok(r.stdout.includes(f), `${name} --help mentions ${f}`);
    }
  });
});
