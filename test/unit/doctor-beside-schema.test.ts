// The doctor's six-rule report is its contract (ADR 97): it runs on anything with node and edge
// arrays, and the schema's violations are reported beside the rules, not instead of them.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { GraphEdge } from '../../src/graph';
import { run } from '../../src/cli/run';
import { removeTempDirs, tempDir } from '../helpers/fixtures';
import { graphOf } from '../helpers/graphs';

/** A small healthy graph, then two EXACT edges that lie: one backed by a name match, one to a node nobody declares. */
function lyingGraph(): string {
  const g = graphOf([
    ['mod:src', 'file:src/a.ts', 'contains'],
    ['mod:src', 'file:src/b.ts', 'contains'],
    ['file:src/a.ts', 'sym:src/a.ts#run', 'contains'],
    ['file:src/b.ts', 'sym:src/b.ts#helper', 'contains'],
    ['sym:src/a.ts#run', 'sym:src/b.ts#helper'],
  ]);
  const call = g.edges.find((e) => e.relation === 'calls') as GraphEdge;
  g.edges.push({ ...call, target: 'sym:src/b.ts#other', provenance: 'NAME_MATCH' });
  g.edges.push({ ...call, target: 'sym:src/b.ts#ghost' });
  return JSON.stringify(g);
}

async function doctor(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(['doctor', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

describe('the doctor beside the schema', () => {
  after(removeTempDirs);

  it('names unknown_confidence and exact_edge_without_target on a graph that also breaks the schema', async () => {
    const file = path.join(tempDir(), 'graph.json');
    fs.writeFileSync(file, lyingGraph());
    const text = await doctor(['--graph', file]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^FAIL schema +[1-9]\d*$/m, 'the schema line, with its count');
    assert.match(text.stdout, /^FAIL unknown_confidence +1$/m);
    assert.match(text.stdout, /^FAIL exact_edge_without_target +2$/m);
    assert.match(
      text.stdout,
      /^ +edge sym:src\/a\.ts#run --calls--> sym:src\/b\.ts#ghost: target sym:src\/b\.ts#ghost: no node has this id$/m,
    );
    assert.match(text.stdout, /^PASS missing_evidence_file +0$/m);
    assert.match(text.stdout, /does not match its schema .*2 of 6 rules failed$/m);

    const json = await doctor(['--graph', file, '--json']);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout) as { ok: boolean; schema: { count: number }; rules: Array<{ rule: string; count: number }> };
    assert.equal(report.ok, false);
    assert.ok(report.schema.count >= 1);
    const count = (rule: string) => report.rules.find((r) => r.rule === rule)?.count;
    assert.equal(count('unknown_confidence'), 1);
    assert.equal(count('exact_edge_without_target'), 2);
    assert.equal(report.rules.length, 6);
  });

  it('still refuses what has no node and edge arrays, with a reason', async () => {
    const file = path.join(tempDir(), 'graph.json');
    fs.writeFileSync(file, '{"schemaVersion":1,"nodes":{}}');
    const r = await doctor(['--graph', file]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /"nodes" and "edges" must be arrays/);
  });
});

describe('what the loader enforces of the doctor (ADR 97)', () => {
  it('is said by kg --help, every query help and kg doctor --help', async () => {
    for (const args of [['--help'], ['callers', '--help'], ['god-nodes', '--help'], ['path', '--help'], ['doctor', '--help']]) {
      let out = '';
      await run(args, { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => {} }, cwd: process.cwd() });
      assert.match(out.replace(/\s+/g, ' '), /do not check ownership or evidence files \(rules 3 and 6\): kg doctor does/, args.join(' '));
    }
  });
});
