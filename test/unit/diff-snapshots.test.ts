// The diff engine (src/graph/diff) on the real graphs of the diff fixture's two trees
// (test/helpers/diff-repo.ts), built in memory by the real builder: each expected entry is written
// here by hand from the fixture's text; the pull-request comment is a golden snapshot.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildGraph, diffMarkdown, diffReport, memoryFileHost, type DiffReport } from '../../src/graph';
import { diffRepoTrees } from '../helpers/diff-repo';
import { matchSnapshot } from '../helpers/snapshot';

const trees = diffRepoTrees();
const base = buildGraph({ root: '/r', host: memoryFileHost('/r', trees.base) }).graph;
const head = buildGraph({ root: '/r', host: memoryFileHost('/r', trees.head) }).graph;
const report: DiffReport = diffReport(
  // What git reports for the fixture's `git mv` (the CLI asks git; here it is given).
  { base, head, identicalMoves: [{ from: 'src/strings.ts', to: 'src/text/strings.ts' }] },
  {
    base: { spec: 'main', kind: 'ref', commit: 'b'.repeat(40), graphSignature: base.graphSignature },
    head: { spec: 'feature', kind: 'ref', commit: 'f'.repeat(40), graphSignature: head.graphSignature },
  },
);

const at = (file: string, line: number, column: number) => ({ file, line, column });
const consumer = (id: string, file: string, line: number, column: number, extra: object = {}) => ({
  id,
  relation: 'calls',
  confidence: 'EXACT',
  ...at(file, line, column),
  ...extra,
});

describe('kg diff: the report on the fixture', () => {
  it('files: one added source, one record, one removed, one moved with identical bytes', () => {
    assert.deepEqual(report.files, {
      added: ['docs/adr/0002-names.md', 'src/helper.ts'],
      removed: ['src/shapes.ts'],
      renamed: [{ from: 'src/strings.ts', to: 'src/text/strings.ts', matchedBy: 'identical-content' }],
    });
  });

  it('the rename of oldName is only a candidate: removed and added stay, its caller still listed', () => {
    const removed = report.symbols.removed.find((r) => r.id === 'sym:src/math.ts#oldName');
    assert.ok(removed);
    assert.deepEqual(removed.proven, [consumer('sym:src/app.ts#run', 'src/app.ts', 8, 3)]);
    assert.ok(report.symbols.added.some((a) => a.id === 'sym:src/math.ts#newName'));
    assert.deepEqual(report.symbols.renameCandidates, [
      {
        from: 'sym:src/math.ts#oldName',
        to: 'sym:src/math.ts#newName',
        evidence: 'same-file-kind-and-signature',
        consumersFollowed: 1,
        consumers: 1,
      },
    ]);
  });

  it('signature changes: add (a proven caller) and Calculator.add (a proven and a guessed caller)', () => {
    const byId = new Map(report.symbols.signatureChanged.map((s) => [s.id, s]));
    assert.deepEqual([...byId.keys()], ['sym:src/calc.ts#Calculator.add', 'sym:src/math.ts#add']);
    const method = byId.get('sym:src/calc.ts#Calculator.add')!;
    assert.deepEqual(method.proven, [consumer('sym:src/app.ts#run', 'src/app.ts', 10, 74)]);
    assert.deepEqual(method.guessed, [{ ...consumer('sym:src/app.ts#dynamic', 'src/app.ts', 15, 15), confidence: 'CANDIDATE' }]);
    assert.deepEqual(method.reach, { proven: 1, files: 1, guessed: 1 });
    const fn = byId.get('sym:src/math.ts#add')!;
    assert.deepEqual(fn.proven, [consumer('sym:src/app.ts#run', 'src/app.ts', 10, 10)]);
    assert.deepEqual(fn.guessed, []);
    assert.deepEqual({ line: fn.line, column: fn.column, now: fn.now }, { line: 1, column: 17, now: { line: 1, column: 17 } });
  });

  it('the removed exported class is one entry, its member folded in, both call sites listed', () => {
    const circle = report.symbols.removed.find((r) => r.id === 'sym:src/shapes.ts#Circle');
    assert.ok(circle);
    assert.equal(circle.exported, true);
    assert.deepEqual(circle.members, ['sym:src/shapes.ts#Circle.area', 'sym:src/shapes.ts#Circle.r']);
    assert.deepEqual(circle.proven, [
      consumer('sym:src/app.ts#run', 'src/app.ts', 10, 26),
      consumer('sym:src/app.ts#run', 'src/app.ts', 10, 36),
    ]);
    assert.equal(report.symbols.removed.length, 2, 'oldName and Circle; Circle.area and Circle.r are folded');
  });

  it('moves without change: a file by its bytes, a function by name and signature, a position shift', () => {
    const renamed = report.symbols.renamed.map((r) => [r.from.id, r.to.id, r.matchedBy, r.proven.map((c) => c.updated)]);
    assert.deepEqual(renamed, [
      ['sym:src/strings.ts#shout', 'sym:src/text/strings.ts#shout', 'identical-content', [true]],
      ['sym:src/util.ts#helper', 'sym:src/helper.ts#helper', 'same-name-and-signature', [true]],
    ]);
    assert.deepEqual(report.symbols.moved, [
      {
        id: 'sym:src/util.ts#keep',
        kind: 'function',
        label: 'keep',
        file: 'src/util.ts',
        from: { line: 5, column: 17 },
        to: { line: 1, column: 17 },
      },
    ]);
  });

  it('a new caller of an existing symbol, and the records citing what changed', () => {
    assert.deepEqual(report.newCallers, [
      {
        id: 'sym:src/util.ts#keep',
        kind: 'function',
        label: 'keep',
        ...at('src/util.ts', 1, 17),
        callers: [{ id: 'sym:src/app.ts#later', confidence: 'EXACT', ...at('src/app.ts', 19, 3) }],
      },
    ]);
    assert.deepEqual(report.newUnresolved, []);
    assert.deepEqual(
      report.records.added.map((r) => r.id),
      ['adr:2'],
    );
    assert.deepEqual(report.rationale, [
      {
        record: 'adr:1',
        recordLabel: 'ADR 1: Numbers',
        cites: 'sym:src/math.ts#add',
        change: 'signature-changed',
        link: 'kept',
        direction: 'record-cites',
        recordFile: 'docs/adr/0001-numbers.md',
      },
      {
        record: 'adr:2',
        recordLabel: 'ADR 2: Names',
        cites: 'sym:src/math.ts#newName',
        change: 'added',
        link: 'added',
        direction: 'record-cites',
        recordFile: 'docs/adr/0002-names.md',
      },
    ]);
  });

  it('edges by relation and confidence; the summary counts only live, unfollowed proven consumers', () => {
    const calls = (list: DiffReport['edges']['added']['entries']) =>
      list.filter((e) => e.relation === 'calls').map((e) => `${e.source} -> ${e.target} ${e.confidence}`);
    assert.deepEqual(calls(report.edges.removed.entries), [
      'sym:src/app.ts#run -> sym:src/math.ts#oldName EXACT',
      'sym:src/app.ts#run -> sym:src/shapes.ts#Circle EXACT',
      'sym:src/app.ts#run -> sym:src/shapes.ts#Circle.area EXACT',
      'sym:src/app.ts#run -> sym:src/strings.ts#shout EXACT',
      'sym:src/app.ts#run -> sym:src/util.ts#helper EXACT',
    ]);
    assert.deepEqual(calls(report.edges.added.entries), [
      'sym:src/app.ts#later -> sym:src/util.ts#keep EXACT',
      'sym:src/app.ts#run -> sym:src/helper.ts#helper EXACT',
      'sym:src/app.ts#run -> sym:src/math.ts#newName EXACT',
      'sym:src/app.ts#run -> sym:src/text/strings.ts#shout EXACT',
    ]);
    assert.deepEqual(report.edges.removed.counts.calls, { EXACT: 5 });
    assert.deepEqual(report.edges.added.counts.calls, { EXACT: 4 });
    // oldName, Circle, add, Calculator.add break `run`; shout and helper do not: run follows them.
    assert.deepEqual(report.summary.breaking, { symbols: 4, provenConsumers: 1, guessedConsumers: 1 });
  });

  it('the pull-request comment (golden), bounded and stable', () => {
    const md = diffMarkdown(report);
    assert.equal(md, diffMarkdown(report), 'the same report gives the same text');
    assert.ok(md.startsWith('<!-- knowledge-graph:diff -->\n'));
    assert.ok(md.includes('[src/app.ts:10:74](src/app.ts#L10)'), 'repository-relative links with line anchors');
    matchSnapshot('diff-comment', { 'comment.md': md });
  });
});
