// Determinism is a contract: same tree → same bytes, from another directory, in another time
// zone and locale, with files created in another order. And the signature tracks shape only.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, serializeGraph } from '../../src/graph';
import { CLI, FIXTURES, copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

function cliBuild(root: string, env: Record<string, string>): { stdout: string; out: string } {
  const out = path.join(tempDir('kg-out-'), 'graph.json');
  const apply = spawnSync(process.execPath, [CLI, 'build', '--apply', '--root', root, '--out', out], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  assert.equal(apply.status, 0, apply.stderr);
  const dry = spawnSync(process.execPath, [CLI, 'build'], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(dry.status, 0, dry.stderr);
  return { stdout: dry.stdout, out: fs.readFileSync(out, 'utf8') };
}

describe('determinism', () => {
  after(removeTempDirs);

  it('gives identical bytes from two directories, time zones, locales and creation orders', () => {
    // All fixtures together, as one repository.
    const a = tempDir('kg-det-a-');
    const b = tempDir('kg-det-b-other-name-');
    for (const name of fs.readdirSync(FIXTURES)) {
      copyFixture(name, { into: path.join(a, name) });
      copyFixture(name, { into: path.join(b, name), reverse: true });
    }
    const first = cliBuild(a, { TZ: 'UTC', LANG: 'C', LC_ALL: 'C' });
    const second = cliBuild(b, { TZ: 'Pacific/Chatham', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' });
    assert.ok(first.stdout.length > 1000);
    assert.equal(first.stdout, second.stdout, 'dry-run output differs');
    assert.equal(first.out, second.out, 'written graph differs');
    assert.equal(first.out, first.stdout, 'the dry run prints exactly what --apply writes');
    assert.ok(first.out.endsWith('}\n') && !first.out.includes('\r'), 'LF and a trailing newline');
    assert.ok(!first.out.includes(a) && !first.out.includes(b), 'no absolute path in the graph');
    const graph = JSON.parse(first.out);
    assertValidGraph(graph);
    const ids = graph.nodes.map((n: { id: string }) => n.id);
    assert.deepEqual(
      ids,
      [...ids].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)),
    );
  });

  it('keeps the signature when a function moves down a line, and changes it when the shape changes', () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export function f() {}\nexport function g() { f(); }\n' });
    const before = buildGraph({ root }).graph;
    writeTree(root, { 'a.ts': '\n// a comment\nexport function f() {}\nexport function g() { f(); }\n' });
    const moved = buildGraph({ root }).graph;
    assert.notEqual(serializeGraph(before), serializeGraph(moved), 'positions changed');
    assert.equal(moved.graphSignature, before.graphSignature);
    writeTree(root, { 'a.ts': 'export function f() {}\nexport function h() { f(); }\n' });
    const renamed = buildGraph({ root }).graph;
    assert.notEqual(renamed.graphSignature, before.graphSignature);
    assert.match(before.graphSignature, /^[0-9a-f]{12}$/);
  });

  it('survives a 100,000-term expression without overflowing the stack', () => {
    const root = tempDir();
    const terms = Array.from({ length: 100_000 }, (_, i) => (i % 2 ? 'f()' : '1')).join(' + ');
    writeTree(root, {
      'deep.ts': `export function f() { return 1; }\nexport const big = ${terms};\nexport function after() { return import('./deep'); }\n`,
    });
    const { graph } = buildGraph({ root });
    assertValidGraph(JSON.parse(JSON.stringify(graph)));
    assert.ok(graph.nodes.some((n) => n.id === 'sym:deep.ts#after'));
    assert.ok(graph.edges.some((e) => e.source === 'file:deep.ts' && e.target === 'file:deep.ts' && e.context === 'dynamic'));
  });
});
