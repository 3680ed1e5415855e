// Terminal escapes from graph text (ADR 96): a crafted graph puts ESC sequences (erase the line,
// move the cursor) and newlines in a sourceFile and in ids. Every human-readable line kg prints —
// the doctor's report, the queries' stderr reasons and hints — shows them as `\u001b`, and no raw
// control character reaches the terminal. JSON stays JSON (it escapes them itself).
// `npm run build` first: these run dist/cli.js.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { serializeGraph } from '../../src/graph';
import { CLI, removeTempDirs, tempDir } from '../helpers/fixtures';
import { graphOf } from '../helpers/graphs';

const ERASE = '\u001b[2K\u001b[1A';
// eslint-disable-next-line no-control-regex -- finding raw control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, KG_SERVER: 'off' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function craftedGraph(): string {
  const g = graphOf([
    ['mod:src', 'file:src/a.ts', 'contains'],
    ['file:src/a.ts', `sym:src/a.ts#run${ERASE}`, 'contains'],
    ['file:src/a.ts', 'sym:src/a.ts#helper', 'contains'],
    [`sym:src/a.ts#run${ERASE}`, 'sym:src/a.ts#helper'],
  ]);
  // Rule 6 fails on this node, and its sample quotes the sourceFile.
  const node = g.nodes.find((n) => n.id === 'sym:src/a.ts#helper');
  assert.ok(node);
  node.sourceFile = `src/${ERASE}FAIL-hidden\n.ts`;
  return serializeGraph(g);
}

describe('control characters in graph text', () => {
  after(removeTempDirs);

  it('kg doctor shows them escaped in every line of its report', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'graph.json'), craftedGraph());
    const r = kg(['doctor', '--graph', 'graph.json'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^FAIL invalid_repository_ownership +\d+$/m);
    assert.ok(r.stdout.includes('src/\\u001b[2K\\u001b[1AFAIL-hidden\\u000a.ts'), r.stdout);
    assert.ok(!RAW_CONTROL.test(r.stdout + r.stderr), 'no raw control character is printed');
    // Every line of the report is one of the report's own lines: nothing was forged by a newline.
    for (const line of r.stdout.trimEnd().split('\n')) assert.match(line, /^(doctor: |PASS |FAIL | {4})/, line);
  });

  it('a query shows them escaped in its stderr reason and hint, and JSON keeps them escaped', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'graph.json'), craftedGraph());
    const r = kg(['callers', `sym:src/a.ts#run${ERASE}x`, '--graph', 'graph.json'], dir);
    assert.equal(r.code, 3);
    assert.ok(r.stderr.includes('\\u001b[2K'), r.stderr);
    assert.ok(!RAW_CONTROL.test(r.stdout + r.stderr), 'no raw control character is printed');
    const answer = JSON.parse(r.stdout) as { available: boolean; reason: string };
    assert.equal(answer.available, false);
    assert.ok(answer.reason.includes(ERASE), 'the JSON value is the text itself');
  });
});
