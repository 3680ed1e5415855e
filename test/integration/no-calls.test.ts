// A repository with no call at all (issue 55, item 21): the resolution tier ran and found none,
// so graph.json lists an empty `calls` layer, and `kg callers` and `kg check` answer "none"
// instead of degrading as if the graph had been built with --extract-only.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const kg = (args: string[], cwd: string) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, KG_SERVER: 'off' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('a repository with no calls', () => {
  after(removeTempDirs);

  it('has an empty calls layer: callers and check answer, and --extract-only still says it has none', () => {
    const root = tempDir('kg-no-calls-');
    writeTree(root, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "ESNext", "moduleResolution": "Bundler", "target": "ES2022" } }\n',
      'src/a.ts': 'export const limit = 3;\nexport function f(n: number): number { return n + limit; }\n',
    });
    const b = kg(['build', '--apply'], root);
    assert.equal(b.code, 0, b.stderr);
    const graph = JSON.parse(fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8')) as {
      layers: string[];
      edges: Array<{ relation: string }>;
    };
    assert.equal(graph.edges.filter((e) => e.relation === 'calls').length, 0, 'no call edge');
    assert.ok(graph.layers.includes('calls'), `layers ${graph.layers.join(', ')}`);
    const c = kg(['callers', 'sym:src/a.ts#f'], root);
    assert.equal(c.code, 0, c.stdout + c.stderr);
    assert.deepEqual((JSON.parse(c.stdout) as { callers: string[] }).callers, []);
    const check = kg(['check'], root);
    assert.equal((JSON.parse(check.stdout) as { available: boolean }).available, true, check.stdout);
    const again = kg(['build', '--apply'], root);
    assert.equal(again.code, 0);
    assert.equal(
      fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8').includes('"calls"'),
      true,
      'an incremental build keeps it',
    );
    const extract = kg(['build', '--extract-only'], root);
    assert.equal((JSON.parse(extract.stdout) as { layers: string[] }).layers.includes('calls'), false, '--extract-only has no calls layer');
  });
});
