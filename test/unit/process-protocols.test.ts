// The contracts between processes that are not the webview's (src/protocol): `kg build --progress
// json` events, the build server's wire and `kg diff`'s report. What enters is checked field by field: a line that is
// not a well-formed message is refused (or read as text), never half-read.

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildGraph, diffReport, type DiffSide } from '../../src/graph';
import { parseDiffReport } from '../../src/protocol/diff-report';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { buildEventLine, parseBuildEvent, skippedText, type BuildEvent } from '../../src/protocol/build-events';
import { BUILD_SERVER_PROTOCOL, parseBuildReply, parseBuildRequest } from '../../src/protocol/build-server';

describe('--progress json events', () => {
  it('reads each kind of event', () => {
    assert.deepEqual(parseBuildEvent('{"event":"progress","phase":"resolve","done":3,"total":9}'), {
      event: 'progress',
      phase: 'resolve',
      done: 3,
      total: 9,
    });
    assert.equal(
      parseBuildEvent('{"event":"done","out":null,"nodes":1,"edges":0,"layers":["structural"],"files":1,"skipped":0}')?.event,
      'done',
    );
    assert.deepEqual(
      parseBuildEvent(
        '{"event":"done","out":null,"nodes":1,"edges":0,"layers":[],"files":1,"skipped":3,"skippedBy":{"binary":1,"build output":2}}',
      ),
      { event: 'done', out: null, nodes: 1, edges: 0, layers: [], files: 1, skipped: 3, skippedBy: { binary: 1, 'build output': 2 } },
    );
    assert.equal(parseBuildEvent('{"event":"error","code":"NO_FILES","message":"m"}')?.event, 'error');
    assert.equal(parseBuildEvent('{"event":"note","path":"a.ts","reason":"r"}')?.event, 'note');
    assert.equal(parseBuildEvent('{"event":"log","level":"warn","message":"m"}')?.event, 'log');
  });

  it('what the sender writes, the receiver reads back as the same event, one line each', () => {
    for (const e of [
      { event: 'log', level: 'info', message: 'the build server is busy with another build; waiting for it to finish' },
      { event: 'progress', phase: 'resolve', done: 1, total: 2 },
      { event: 'done', out: 'graph.json', nodes: 3, edges: 2, layers: ['calls'], files: 1, skipped: 0 },
    ] satisfies BuildEvent[]) {
      const line = buildEventLine(e);
      assert.ok(line.endsWith('\n') && !line.slice(0, -1).includes('\n'), line);
      assert.deepEqual(parseBuildEvent(line.trimEnd()), e);
    }
  });

  it('refuses what is not an event, or an event with a wrong field', () => {
    for (const line of [
      'kg build: unknown option',
      '{"event":"progress","phase":"resolve","done":-1,"total":9}',
      '{"event":"progress","phase":"resolve","done":"3","total":9}',
      '{"event":"done","out":3,"nodes":1,"edges":0,"layers":[],"files":1,"skipped":0}',
      '{"event":"done","out":null,"nodes":1,"edges":0,"layers":[],"files":1,"skipped":1,"skippedBy":{"binary":"1"}}',
      '{"event":"log","level":"debug","message":"m"}',
      '{"event":"explode"}',
      '{"event":',
      'null',
    ])
      assert.equal(parseBuildEvent(line), undefined, line);
  });
});

describe('skippedText (the summary of skipped files, issue 55)', () => {
  it('names each reason with its count, the most first, and stays a bare count without them', () => {
    assert.equal(skippedText(0), '0 files skipped');
    assert.equal(skippedText(1, {}), '1 file skipped');
    assert.equal(skippedText(148, { 'generated, by .gitattributes': 148 }), '148 files skipped (148 generated, by .gitattributes)');
    assert.equal(
      skippedText(6, { binary: 1, 'build output': 1, 'generated, by .gitattributes': 4, unreadable: 0 }),
      '6 files skipped (4 generated, by .gitattributes; 1 binary; 1 build output)',
    );
  });
});

describe('the build server wire', () => {
  it('a request of this protocol is read; any other is refused with the reason', () => {
    assert.deepEqual(parseBuildRequest(JSON.stringify({ kg: BUILD_SERVER_PROTOCOL, argv: ['--apply'], cwd: '/r' })), {
      kg: BUILD_SERVER_PROTOCOL,
      argv: ['--apply'],
      cwd: '/r',
    });
    assert.deepEqual(parseBuildRequest('hello'), { refused: 'not a request' });
    assert.deepEqual(parseBuildRequest('[1]'), { refused: 'not a request' });
    for (const bad of [
      { kg: BUILD_SERVER_PROTOCOL - 1, argv: [], cwd: '/r' },
      { kg: BUILD_SERVER_PROTOCOL, argv: [1], cwd: '/r' },
      { kg: BUILD_SERVER_PROTOCOL, argv: [] },
    ])
      assert.deepEqual(parseBuildRequest(JSON.stringify(bad)), { refused: 'a request this server does not understand' });
  });

  it('replies are tagged; an untagged or malformed one is ignored', () => {
    assert.deepEqual(parseBuildReply('{"type":"stdout","text":"x"}'), { type: 'stdout', text: 'x' });
    assert.deepEqual(parseBuildReply('{"type":"exit","code":3}'), { type: 'exit', code: 3 });
    assert.deepEqual(parseBuildReply('{"type":"refused","reason":"busy"}'), { type: 'refused', reason: 'busy' });
    for (const line of ['{"o":"x"}', '{"type":"exit","code":1.5}', '{"type":"stderr"}', 'not json'])
      assert.equal(parseBuildReply(line), undefined, line);
  });
});

describe("kg diff's report, as the Compare view reads it", () => {
  const files = (b: string): Record<string, string> => ({
    'src/a.ts': `export function keep(): number {\n  return 1;\n}\n${b}`,
    'src/use.ts': "import { keep, gone } from './a';\nexport function use(): number {\n  return keep() + gone();\n}\n",
  });
  const built = (b: string) => {
    const root = tempDir('kg-protocol-diff-');
    writeTree(root, files(b));
    return buildGraph({ root }).graph;
  };
  const side = (spec: string): DiffSide => ({ spec, kind: 'graph', graphSignature: '000000000000' });
  const report = diffReport(
    {
      base: built('export function gone(): number {\n  return 2;\n}\n'),
      head: built('export function added(): number {\n  return 3;\n}\n'),
    },
    { base: side('base'), head: side('head') },
  );
  after(removeTempDirs);

  it("reads the report kg diff writes, unchanged, with a removed symbol's proven consumer", () => {
    const text = JSON.stringify(report);
    const parsed = parseDiffReport(text);
    assert.ok('report' in parsed, JSON.stringify(parsed));
    assert.deepEqual(parsed.report, JSON.parse(text));
    assert.deepEqual(
      parsed.report.symbols.removed.map((s) => [s.id, s.proven.map((c) => c.id)]),
      [['sym:src/a.ts#gone', ['sym:src/use.ts#use']]],
    );
  });

  it('names what keeps output from being a report this reader knows', () => {
    // A copy of the report with one field set (or removed, undefined) at a path.
    const edited = (at: Array<string | number>, value: unknown) => {
      const r = JSON.parse(JSON.stringify(report)) as Record<string, unknown>;
      let o = r as Record<string | number, unknown>;
      for (const k of at.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
      o[at[at.length - 1]] = value;
      return parseDiffReport(JSON.stringify(r));
    };
    assert.deepEqual(parseDiffReport('kg diff: unknown ref'), { problem: 'kg diff printed no JSON' });
    assert.deepEqual(parseDiffReport('[]'), { problem: 'kg diff printed no report' });
    assert.deepEqual(edited(['reportVersion'], 1), { problem: 'kg diff printed a report of version 1; this editor reads version 2' });
    const cannot = 'kg diff printed a report this editor cannot read: ';
    assert.deepEqual(edited(['symbols', 'removed', 0, 'proven', 0, 'line'], '3'), {
      problem: `${cannot}report.symbols.removed[0].proven[0].line is not a count`,
    });
    assert.deepEqual(edited(['summary', 'breaking'], undefined), { problem: `${cannot}report.summary.breaking is not an object` });
    assert.deepEqual(edited(['symbols', 'added', 0, 'exported'], 'yes'), {
      problem: `${cannot}report.symbols.added[0].exported is not a boolean`,
    });
  });
});
