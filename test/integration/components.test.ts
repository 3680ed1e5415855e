// Components through the built CLI (issue 47, ADR 169): an edit to a `.vue` or `.svelte` file is
// an incremental build that gives the bytes of a full one, and the questions users ask — who
// calls this, what is unused — answer from the components' proven calls.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, copyFixture, removeTempDirs, tempDir } from '../helpers/fixtures';

const REPO = path.resolve(__dirname, '..', '..');

function kg(root: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function componentProject(): string {
  const root = copyFixture('components');
  fs.mkdirSync(path.join(root, 'node_modules'));
  for (const pkg of ['vue', 'svelte', '@vue']) fs.symlinkSync(path.join(REPO, 'node_modules', pkg), path.join(root, 'node_modules', pkg));
  return root;
}

function edit(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${from} in ${file}`);
  fs.writeFileSync(file, text.replace(from, to));
}

describe('components through kg', () => {
  after(removeTempDirs);

  it('an edit to a component is an incremental build with the bytes of a full build', () => {
    const root = componentProject();
    const first = kg(root, 'build', '--apply');
    assert.equal(first.status, 0, first.stderr);
    // A template that now calls formatDate, and a Svelte script that no longer calls clamp.
    edit(
      path.join(root, 'src/vue/App.vue'),
      '<p>Total: {{ formatPrice(total) }}</p>',
      '<p>Total: {{ formatPrice(total) }} on {{ formatDate(new Date()) }}</p>',
    );
    edit(
      path.join(root, 'src/vue/App.vue'),
      "import { formatPrice } from '../format';",
      "import { formatDate, formatPrice } from '../format';",
    );
    edit(path.join(root, 'src/svelte/Counter.svelte'), 'count = clamp(step(count, 1), MAX);', 'count = step(count, 1);');
    const again = kg(root, 'build', '--apply');
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /full build/i, 'incremental, not a full build');
    const incremental = fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8');
    const out = path.join(tempDir('kg-full-'), 'graph.json');
    const full = kg(root, 'build', '--apply', '--full', '--out', out);
    assert.equal(full.status, 0, full.stderr);
    assert.equal(incremental, fs.readFileSync(out, 'utf8'));
    // And the edit is in it: formatDate's caller is the App component, at the template.
    const graph = JSON.parse(incremental) as { edges: Array<{ source: string; target: string; relation: string }> };
    assert.ok(
      graph.edges.some(
        (e) => e.relation === 'calls' && e.source === 'sym:src/vue/App.vue#default' && e.target === 'sym:src/format.ts#formatDate',
      ),
    );
    assert.ok(!graph.edges.some((e) => e.target === 'sym:src/svelte/counter.ts#clamp' && e.relation === 'calls'));
  });

  it('kg callers names the components that call a function, and kg unused no longer calls it unused', () => {
    const root = componentProject();
    assert.equal(kg(root, 'build', '--apply').status, 0);
    const callers = kg(root, 'callers', 'sym:src/format.ts#formatPrice');
    assert.equal(callers.status, 0, callers.stderr);
    const ids = (JSON.parse(callers.stdout) as { callers: string[] }).callers.sort();
    assert.deepEqual(ids, [
      'sym:src/svelte/Counter.svelte#default',
      'sym:src/vue/App.vue#default',
      'sym:src/vue/components/CartItem.vue#default',
    ]);
    const unused = kg(root, 'unused');
    assert.equal(unused.status, 0, unused.stderr);
    const listed = (JSON.parse(unused.stdout) as { unused: Array<{ id: string }> }).unused.map((u) => u.id);
    assert.ok(listed.includes('sym:src/format.ts#formatDate'), listed.join(', '));
    for (const used of [
      'sym:src/format.ts#formatPrice',
      'sym:src/format.ts#pluralize',
      'sym:src/vue/api.ts#submitOrder',
      'sym:src/svelte/counter.ts#clamp',
    ])
      assert.ok(!listed.includes(used), used);
  });
});
