// src/host/graph-worker.ts through its client, as the graph service uses it: a real worker thread
// (dist/graph-worker.js) on a graph the real CLI built. The counts behind each lens must be the
// CLI's `callers` answer; staleness must be `kg status`'s verdict.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { answerQuery, loadGraphFile } from '../../src/graph';
import { GraphWorkerClient } from '../../src/host/graph-worker-client';
import { CLI, REPO, removeTempDirs, tempDir } from '../helpers/fixtures';

const WORKER = path.join(REPO, 'dist', 'graph-worker.js');

describe('the graph worker (the editor`s graph, off the host`s thread)', () => {
  let root: string;
  let file: string;
  let w: GraphWorkerClient;

  before(async () => {
    root = tempDir();
    fs.cpSync(path.join(REPO, 'test', 'e2e', 'workspaces', 'lenses'), root, { recursive: true });
    const r = spawnSync(process.execPath, [CLI, 'build', '--apply', '--root', root], {
      encoding: 'utf8',
      env: { ...process.env, KG_SERVER: 'off' },
    });
    assert.equal(r.status, 0, r.stderr);
    file = path.join(root, '.knowledge-graph', 'graph.json');
    w = new GraphWorkerClient(WORKER);
  });
  after(async () => {
    await w?.terminate();
    removeTempDirs();
  });

  it('loads the graph and reports its size and layers', async () => {
    const info = await w.request('load', { file });
    assert.ok(info.ok);
    const g = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(info.nodes, g.nodes.length);
    assert.equal(info.edges, g.edges.length);
    assert.deepEqual(info.layers, g.layers);
    assert.equal(info.callsLayer, true);
  });

  it('lists the declarations of a file by position, and counts their callers as the callers query does', async () => {
    const syms = await w.request('fileSymbols', { file: 'src/shapes.ts' });
    assert.deepEqual(
      syms.map((s) => `${s.line} ${s.kind} ${s.label}`),
      ['1 class Circle', '4 method Circle.area', '9 function helper', '13 function unused'],
    );
    const counts = await w.request('counts', { ids: [...syms.map((s) => s.id), 'sym:nowhere#x'] });
    const load = loadGraphFile(file);
    syms.forEach((s, i) => {
      const a = answerQuery(load, { query: 'callers', id: s.id });
      assert.ok(a.available && 'callers' in a);
      const { referrers, ...callerPart } = counts[i] ?? { callers: -1, candidates: -1 };
      assert.deepEqual(callerPart, { callers: a.callers.length, candidates: a.candidates.length }, s.id);
      // The uses that are not calls: the consumers "affected" lists, less the callers (ADR 151).
      const affected = answerQuery(load, { query: 'affected', id: s.id });
      assert.ok(affected.available && 'consumers' in affected);
      const others = affected.consumers.filter((c) => !a.callers.includes(c) && !c.startsWith('file:'));
      assert.equal(referrers ?? 0, others.length, s.id);
    });
    // By hand: Circle is a parameter's type in draw and twice (src/draw.ts), never called.
    assert.deepEqual(counts[0], { callers: 0, candidates: 0, referrers: 2 });
    assert.deepEqual(counts[1], { callers: 1, candidates: 1 });
    assert.equal(counts[4], undefined);
  });

  it('gives a node`s callers with their call sites, proof and guesses apart', async () => {
    const d = await w.request('details', { id: 'sym:src/shapes.ts#Circle.area' });
    assert.ok(d);
    assert.deepEqual(d.callers, [
      { id: 'sym:src/draw.ts#draw', confidence: 'EXACT', evidence: { file: 'src/draw.ts', line: 4, column: 19 } },
    ]);
    assert.deepEqual(
      d.candidates.map((c) => [c.id, c.confidence, c.evidence?.line]),
      [['sym:src/draw.ts#render', 'CANDIDATE', 9]],
    );
  });

  it('groups neighbours by relation and direction and cuts each group at the budget', async () => {
    const groups = await w.request('neighbourGroups', { id: 'sym:src/shapes.ts#helper', budget: 1 });
    const calledBy = groups.find((g) => g.relation === 'calls' && g.direction === 'in');
    assert.ok(calledBy);
    assert.equal(calledBy.total, 2);
    assert.equal(calledBy.items.length, 1);
  });

  it('lists proof first in each group and cuts after that: a guess never takes a proven neighbour`s place (ADR 91)', async () => {
    // The guess's caller sorts first by id (src/a.ts), the proven one last (src/z.ts).
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), '{ "compilerOptions": { "strict": true }, "include": ["src"] }');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'box.ts'), 'export class Box {\n  open(): number {\n    return 1;\n  }\n}\n');
    fs.writeFileSync(
      path.join(dir, 'src', 'a.ts'),
      '// eslint-disable-next-line\nexport function guess(x: any): number {\n  return x.open();\n}\n',
    );
    fs.writeFileSync(
      path.join(dir, 'src', 'z.ts'),
      "import { Box } from './box';\nexport function proof(b: Box): number {\n  return b.open();\n}\n",
    );
    const r = spawnSync(process.execPath, [CLI, 'build', '--apply', '--root', dir], {
      encoding: 'utf8',
      env: { ...process.env, KG_SERVER: 'off' },
    });
    assert.equal(r.status, 0, r.stderr);
    const other = new GraphWorkerClient(WORKER);
    try {
      assert.ok((await other.request('load', { file: path.join(dir, '.knowledge-graph', 'graph.json') })).ok);
      const groups = await other.request('neighbourGroups', { id: 'sym:src/box.ts#Box.open', budget: 5 });
      const calledBy = groups.find((g) => g.relation === 'calls' && g.direction === 'in');
      assert.ok(calledBy);
      assert.deepEqual(
        calledBy.items.map((i) => [i.id, i.confidence]),
        [
          ['sym:src/z.ts#proof', 'EXACT'],
          ['sym:src/a.ts#guess', 'CANDIDATE'],
        ],
      );
      assert.equal(calledBy.proven, 1);
      const cut = (await other.request('neighbourGroups', { id: 'sym:src/box.ts#Box.open', budget: 1 })).find(
        (g) => g.relation === 'calls' && g.direction === 'in',
      );
      assert.deepEqual(
        cut?.items.map((i) => i.id),
        ['sym:src/z.ts#proof'],
      );
      assert.equal(cut?.total, 2);
    } finally {
      await other.terminate();
    }
  });

  it('answers kg why for the declaration under a position, and nothing between declarations', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), '{}');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'a.ts'), 'export class Box {\n  // WHY(box@2026-08-10): opened lazily.\n  open() {}\n}\n');
    const r = spawnSync(process.execPath, [CLI, 'build', '--apply', '--root', dir], {
      encoding: 'utf8',
      env: { ...process.env, KG_SERVER: 'off' },
    });
    assert.equal(r.status, 0, r.stderr);
    const other = new GraphWorkerClient(WORKER);
    try {
      assert.ok((await other.request('load', { file: path.join(dir, '.knowledge-graph', 'graph.json') })).ok);
      const found = await other.request('whyAt', { file: 'src/a.ts', line: 3, column: 4 });
      assert.equal(found?.id, 'sym:src/a.ts#Box.open');
      assert.ok(found.answer.available);
      assert.deepEqual(
        found.answer.notes.map((n) => [n.id, n.text]),
        [['rationale:src/a.ts#box@2026-08-10~0', 'WHY(box@2026-08-10): opened lazily.']],
      );
      assert.equal(await other.request('whyAt', { file: 'src/a.ts', line: 2, column: 6 }), undefined, 'a comment is not a declaration');
    } finally {
      await other.terminate();
    }
  });

  it('answers staleness from the manifest: a changed file is listed, nothing else; and the hash each file was built from', async () => {
    const draw = path.join(root, 'src', 'draw.ts');
    const original = fs.readFileSync(draw);
    const first = await w.request('status', { root, file });
    assert.ok(first.known);
    assert.deepEqual(first.changedFiles, []);
    // The hash the editor compares a reverted buffer with (issue 55, item 5): the bytes on disk.
    assert.equal(first.built['src/draw.ts'], crypto.createHash('sha256').update(original).digest('hex'));
    fs.appendFileSync(draw, '\n// edited\n');
    const second = await w.request('status', { root, file });
    assert.ok(second.known);
    assert.deepEqual(second.changedFiles, ['src/draw.ts']);
    assert.equal(second.built['src/draw.ts'], first.built['src/draw.ts'], 'the graph was built from the first bytes');
  });

  it('a corrupt graph is refused with the loader`s code and reason', async () => {
    const bad = path.join(root, 'bad.json');
    fs.writeFileSync(bad, '{"nodes": [');
    const w2 = new GraphWorkerClient(WORKER);
    try {
      const info = await w2.request('load', { file: bad });
      assert.equal(info.ok, false);
      assert.ok(!info.ok && info.code === 'UNPARSABLE' && /^projection unparsable: /.test(info.reason), JSON.stringify(info));
      await assert.rejects(w2.request('fileSymbols', { file: 'src/shapes.ts' }), /projection unparsable/);
    } finally {
      await w2.terminate();
    }
  });

  it('guards an unsaved buffer per mode, and a break survives the rebuild its save triggers (held baselines, next worker)', async () => {
    const shapes = fs.readFileSync(path.join(root, 'src', 'shapes.ts'), 'utf8');
    const edited = shapes.replace('helper(n: number)', 'helper(n: string)');
    assert.notEqual(edited, shapes);
    const guarded = await w.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'guarded' });
    assert.deepEqual(
      guarded.diagnostics.map((d) => [d.severity, d.symbol, d.range.line, d.related.map((r) => `${r.file}:${r.line} ${r.message}`)]),
      [['warning', 'sym:src/shapes.ts#helper', 9, ['src/draw.ts:4 draw calls helper here', 'src/draw.ts:13 twice calls helper here']]],
    );
    assert.match(
      guarded.diagnostics[0].message,
      /^Changing the signature of function helper breaks 2 consumers in 1 file: draw \(src\/draw\.ts:4\), twice \(src\/draw\.ts:13\)$/,
    );
    assert.equal((await w.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'strict' })).diagnostics[0].severity, 'error');
    const shadow = await w.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'shadow' });
    assert.deepEqual([shadow.diagnostics.length, shadow.log.length], [0, 1]);
    assert.deepEqual(await w.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'advisory' }), { diagnostics: [], log: [] });
    assert.deepEqual(await w.request('guard', { file: 'src/shapes.ts', text: shapes.replace('n * 2', 'n * 3'), mode: 'guarded' }), {
      diagnostics: [],
      log: [],
    });
    assert.ok((await w.request('guardWarm', {})) >= 0);

    // Saved and rebuilt: the new graph records the new signature; the old worker's held
    // baseline, handed to the new worker, keeps the break visible until it is accepted.
    await w.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'guarded' });
    const held = await w.request('guardHeld', {});
    assert.deepEqual(
      held.map(([f, entries]) => [f, entries.map((e) => e.node.id)]),
      [['src/shapes.ts', ['sym:src/shapes.ts#helper']]],
    );
    const other = tempDir();
    fs.cpSync(root, other, { recursive: true });
    fs.writeFileSync(path.join(other, 'src', 'shapes.ts'), edited);
    const r = spawnSync(process.execPath, [CLI, 'build', '--apply', '--root', other], {
      encoding: 'utf8',
      env: { ...process.env, KG_SERVER: 'off' },
    });
    assert.equal(r.status, 0, r.stderr);
    const next = new GraphWorkerClient(WORKER);
    try {
      assert.ok((await next.request('load', { file: path.join(other, '.knowledge-graph', 'graph.json') })).ok);
      assert.deepEqual(
        (await next.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'guarded' })).diagnostics,
        [],
        'the rebuilt graph alone sees no change',
      );
      await next.request('guardRestore', { held });
      assert.deepEqual(
        (await next.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'guarded' })).diagnostics.map((d) => d.symbol),
        ['sym:src/shapes.ts#helper'],
      );
      await next.request('guardAccept', { file: 'src/shapes.ts' });
      assert.deepEqual((await next.request('guard', { file: 'src/shapes.ts', text: edited, mode: 'guarded' })).diagnostics, []);
    } finally {
      await next.terminate();
    }
  });

  it('a terminated worker fails every request with the reason', async () => {
    const w3 = new GraphWorkerClient(WORKER);
    await w3.terminate();
    await assert.rejects(w3.request('counts', { ids: [] }), /replaced or closed/);
  });
});
