// `kg build --progress json`: the event lines the editor extension reads, checked against the
// files written and against the text mode's facts.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function events(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

describe('kg build --progress json', () => {
  after(removeTempDirs);

  it('reports log, progress, note and done events, one JSON object per stderr line', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export function a() {}\nexport class B { m() {} }\n', 'b.ts': new Uint8Array([0, 1]) });
    const r = kg(['build', '--apply', '--progress', 'json'], root);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.ok(
      lines.every((l) => l.startsWith('{')),
      `every stderr line is an event:\n${r.stderr}`,
    );
    const ev = events(r.stderr);
    const file = path.join(root, '.knowledge-graph', 'graph.json');
    const graph = JSON.parse(fs.readFileSync(file, 'utf8'));
    assertValidGraph(graph);
    assert.deepEqual(
      ev.find((e) => e.event === 'log'),
      { event: 'log', level: 'info', message: 'discovered 2 source files in 1 project' },
    );
    // A full build extracts and resolves each file in one pass: its phase is 'resolve'.
    assert.deepEqual(
      ev.find((e) => e.event === 'progress'),
      { event: 'progress', phase: 'resolve', done: 1, total: 1 },
    );
    assert.deepEqual(
      ev.find((e) => e.event === 'note'),
      { event: 'note', path: 'b.ts', reason: 'binary file (contains NUL bytes)' },
    );
    // a.ts: file, module, a, B, B.m — counted from the source above
    assert.deepEqual(ev[ev.length - 1], {
      event: 'done',
      out: file,
      nodes: 5,
      edges: graph.edges.length,
      layers: graph.layers,
      files: 1,
      skipped: 1,
      skippedBy: { binary: 1 },
    });
    assert.equal(graph.nodes.length, 5);
    // stdout keeps the text mode's one summary line
    assert.match(r.stdout, /^kg: wrote \.knowledge-graph\/graph\.json: 5 nodes, /);
  });

  it('a dry run ends with a done event whose out is null', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;' });
    const r = kg(['build', '--progress', 'json'], root);
    assert.equal(r.code, 0, r.stderr);
    assertValidGraph(JSON.parse(r.stdout));
    assert.equal(events(r.stderr).pop()?.out, null);
    assert.ok(!fs.existsSync(path.join(root, '.knowledge-graph')));
  });

  it('bad input ends with an error event carrying the GraphError code; exit 2, nothing written', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;', 'tsconfig.json': '{ "compilerOptions": {,} }' });
    const r = kg(['build', '--apply', '--progress', 'json'], root);
    assert.equal(r.code, 2);
    const last = events(r.stderr).pop();
    assert.equal(last?.event, 'error');
    assert.equal(last?.code, 'TSCONFIG_UNPARSABLE');
    assert.match(String(last?.message), /^tsconfig\.json:1:\d+: cannot parse/);
    assert.ok(!fs.existsSync(path.join(root, '.knowledge-graph')));
  });

  it('an unknown format is a usage error (exit 2) that names the accepted values', () => {
    const r = kg(['build', '--progress', 'xml'], tempDir());
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--progress must be "text" or "json", not "xml"/);
  });
});
