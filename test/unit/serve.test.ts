// `kg serve`: the build kept alive for an editor, driven as one would — JSON lines in, JSON lines
// out — over real files. Every graph it writes equals a full build of the tree at that moment.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { buildGraph, serializeGraph } from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

/** A running `kg serve`: send a request, await its one-line answer. */
function serve(root: string) {
  const child = spawn(process.execPath, [CLI, 'serve'], { cwd: root });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => JSON.parse((await lines.next()).value as string);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    next,
    async ask(request: unknown): Promise<Record<string, unknown>> {
      child.stdin.write((typeof request === 'string' ? request : JSON.stringify(request)) + '\n');
      return next();
    },
    async end(): Promise<number | null> {
      child.stdin.end();
      return exited;
    },
    stderr: () => stderr,
  };
}

const TREE = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
  'src/a.ts': 'export function a(): number {\n  return 1;\n}\n',
  'src/b.ts': "import { a } from './a';\nexport function b(): number {\n  return a();\n}\n",
};

describe('kg serve', () => {
  after(removeTempDirs);

  it('answers build requests with warm incremental builds that equal full ones, and survives bad requests', async () => {
    const root = tempDir();
    writeTree(root, TREE);
    const graphFile = path.join(root, '.knowledge-graph', 'graph.json');
    const full = () => serializeGraph(buildGraph({ root }).graph);
    const s = serve(root);
    assert.deepEqual(await s.next(), { ready: true, graph: '.knowledge-graph/graph.json' });
    assert.ok(!fs.existsSync(graphFile), 'warming up writes nothing');

    const first = await s.ask({ id: 1, command: 'build' });
    assert.equal(first.ok, true, JSON.stringify(first));
    assert.equal(first.id, 1);
    assert.equal(first.mode, 'full');
    assert.equal(fs.readFileSync(graphFile, 'utf8'), full());

    writeTree(root, { 'src/a.ts': 'export function a(): number {\n  return 2;\n}\n' });
    const second = await s.ask({ id: 'after-save', command: 'build' });
    assert.deepEqual(
      { id: second.id, ok: second.ok, mode: second.mode, changed: second.changed, parsed: second.parsed, carried: second.carried },
      { id: 'after-save', ok: true, mode: 'incremental', changed: ['src/a.ts'], parsed: 1, carried: 1 },
    );
    assert.equal(fs.readFileSync(graphFile, 'utf8'), full());

    const bad = await s.ask('not json');
    assert.equal(bad.ok, false);
    assert.equal(bad.code, 'BAD_REQUEST');
    const unknown = await s.ask({ id: 9, command: 'explode' });
    assert.equal(unknown.code, 'BAD_REQUEST');

    // Another build writes the graph meanwhile: the server starts from what is on disk.
    writeTree(root, { 'src/c.ts': 'export function c(): number {\n  return 3;\n}\n' });
    const cli = spawnSync(process.execPath, [CLI, 'build', '--apply'], { cwd: root, encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    writeTree(root, { 'src/b.ts': TREE['src/b.ts'].replace('return a();', 'return a() + 1;') });
    const third = await s.ask({ id: 3, command: 'build' });
    assert.deepEqual([third.mode, third.changed, third.added], ['incremental', ['src/b.ts'], []]);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), full());

    // A suspected parse failure is an answer, not the end of the server.
    fs.writeFileSync(path.join(root, 'src', 'c.ts'), '');
    const refused = await s.ask({ id: 4, command: 'build' });
    assert.deepEqual([refused.ok, refused.code], [false, 'SUSPECTED_PARSE_FAILURE']);
    const forced = await s.ask({ id: 5, command: 'build', full: true });
    assert.deepEqual([forced.ok, forced.mode], [true, 'full']);
    assertValidGraph(JSON.parse(fs.readFileSync(graphFile, 'utf8')));

    assert.equal(await s.end(), 0);
    assert.match(s.stderr(), /incremental build: 1 changed/);
    assert.deepEqual(fs.readdirSync(path.dirname(graphFile)).sort(), ['graph.json', 'graph.manifest.json']);
  });

  it('says when it cannot start (no sources): not ready, exit 2', async () => {
    const root = tempDir();
    writeTree(root, { 'README.md': '# nothing to build\n' });
    const s = serve(root);
    const first = await s.next();
    assert.equal(first.ready, false);
    assert.equal(first.code, 'NO_SOURCES');
    assert.equal(await s.end(), 2);
  });
});
