// src/host/cli-build.ts: what the editor's build command runs, driven here with the real bundled
// CLI in a real child process over real files.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { runCliBuild, type CliEvent } from '../../src/host/cli-build';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';
import { buildProcessesOf } from '../helpers/processes';

describe('runCliBuild (the editor build in a child process)', () => {
  after(removeTempDirs);

  it('builds and returns the summary the done event reports', async () => {
    const root = tempDir();
    writeTree(root, { 'src/a.ts': 'export function a() {}\n', 'src/b.ts': 'export class B {}\n', 'bin.ts': new Uint8Array([0]) });
    const out = path.join(root, '.knowledge-graph', 'graph.json');
    const seen: CliEvent[] = [];
    const r = await runCliBuild({ cli: CLI, root, out, onEvent: (e) => seen.push(e) });
    assert.equal(r.kind, 'built', JSON.stringify(r));
    assert.ok(r.kind === 'built');
    const graph = JSON.parse(fs.readFileSync(out, 'utf8'));
    assertValidGraph(graph);
    // mod:src, file:src/a.ts, file:src/b.ts, sym a, sym B
    assert.equal(r.summary.nodes, 5);
    assert.equal(graph.nodes.length, 5);
    assert.equal(r.summary.edges, graph.edges.length);
    assert.deepEqual(r.summary.layers, graph.layers);
    assert.equal(r.summary.files, 2);
    assert.equal(r.summary.skipped, 1);
    assert.equal(r.summary.out, out);
    assert.ok(seen.some((e) => e.event === 'progress'));
  });

  it('a failed build returns the CLI error code and message; the previous graph stays', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;\n', 'tsconfig.json': '{ "compilerOptions": { "strict": true,, } }' });
    const out = path.join(root, 'graph.json');
    fs.writeFileSync(out, 'previous');
    const text: string[] = [];
    const r = await runCliBuild({ cli: CLI, root, out, onText: (l) => text.push(l) });
    assert.equal(r.kind, 'failed');
    assert.ok(r.kind === 'failed');
    assert.equal(r.code, 'TSCONFIG_UNPARSABLE');
    assert.deepEqual(text, [], 'the error is reported once, as the event, not again as text');
    assert.match(r.message, /tsconfig\.json:1:\d+: cannot parse/);
    assert.equal(fs.readFileSync(out, 'utf8'), 'previous');
  });

  it('cancel kills the child while it runs: no process is left and the previous graph stays', async () => {
    const root = tempDir();
    const tree: Record<string, string> = {};
    for (let i = 0; i < 1500; i++)
      tree[`src/m${i}.ts`] = Array.from({ length: 30 }, (_, j) => `export function f${i}_${j}() {}\n`).join('');
    writeTree(root, tree);
    const out = path.join(root, '.knowledge-graph', 'graph.json');
    writeTree(root, { '.knowledge-graph/graph.json': 'previous' });
    const abort = new AbortController();
    let progressSeen = 0;
    const r = await runCliBuild({
      cli: CLI,
      root,
      out,
      signal: abort.signal,
      onEvent: (e) => {
        // the child has started extracting: cancel it there
        if (e.event === 'progress' && ++progressSeen === 1) abort.abort();
      },
    });
    assert.equal(progressSeen >= 1, true);
    assert.deepEqual(r, { kind: 'cancelled' });
    assert.equal(fs.readFileSync(out, 'utf8'), 'previous');
    assert.deepEqual(fs.readdirSync(path.dirname(out)), ['graph.json'], 'no temp file either');
    assert.deepEqual(buildProcessesOf(root), []);
  });

  it('an already aborted signal starts nothing', async () => {
    const root = tempDir();
    writeTree(root, { 'a.ts': 'export const a = 1;\n' });
    const abort = new AbortController();
    abort.abort();
    const r = await runCliBuild({ cli: CLI, root, out: path.join(root, 'g.json'), signal: abort.signal });
    assert.deepEqual(r, { kind: 'cancelled' });
    assert.ok(!fs.existsSync(path.join(root, 'g.json')));
  });

  it('a runtime that cannot start is a failure that names it', async () => {
    const root = tempDir();
    const r = await runCliBuild({ cli: CLI, root, out: path.join(root, 'g.json'), execPath: path.join(root, 'no-such-node') });
    assert.equal(r.kind, 'failed');
    assert.ok(r.kind === 'failed');
    assert.equal(r.code, 'SPAWN_FAILED');
    assert.match(r.message, /no-such-node/);
  });

  it('a crash without an error event is reported with the last line it printed', async () => {
    const root = tempDir();
    const fake = path.join(root, 'crash.js');
    fs.writeFileSync(fake, "process.stderr.write('kg: internal error: out of cheese\\n'); process.exit(1);\n");
    const r = await runCliBuild({ cli: fake, root, out: path.join(root, 'g.json') });
    assert.equal(r.kind, 'failed');
    assert.ok(r.kind === 'failed');
    assert.equal(r.code, 'CLI_FAILED');
    assert.match(r.message, /exited with code 1: internal error: out of cheese/);
  });

  it('a cancel that arrives after the graph was written reports the build, not a cancel', async () => {
    const root = tempDir();
    const fake = path.join(root, 'late.js');
    // Writes its graph and says done, then exits 0 on SIGTERM: the kill came too late to matter.
    fs.writeFileSync(
      fake,
      `const out = ${JSON.stringify(path.join(root, 'g.json'))};
require('fs').writeFileSync(out, 'new');
process.on('SIGTERM', () => process.exit(0));
process.stderr.write(JSON.stringify({ event: 'done', out, nodes: 1, edges: 0, layers: [], files: 1, skipped: 0 }) + '\\n');
setTimeout(() => {}, 10000);
`,
    );
    const abort = new AbortController();
    const r = await runCliBuild({
      cli: fake,
      root,
      out: path.join(root, 'g.json'),
      signal: abort.signal,
      onEvent: (e) => e.event === 'done' && abort.abort(),
    });
    assert.equal(r.kind, 'built', JSON.stringify(r));
    assert.equal(fs.readFileSync(path.join(root, 'g.json'), 'utf8'), 'new');
  });
});
