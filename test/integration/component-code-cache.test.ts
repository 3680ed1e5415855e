// Components' generated code kept between cold builds in the repository's graph cache (ADR 182):
// a build with the code kept gives the bytes of a build that generated it, and a record that is
// truncated, altered or another component's is never used: the build generates the code again,
// writes the record again, and its graph is the same bytes.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { CLI, copyFixture, removeTempDirs, tempDir } from '../helpers/fixtures';
import { gitRun } from '../helpers/hostile-git';

const REPO = path.resolve(__dirname, '..', '..');
/** The fixture's components: 3 .vue and 2 .svelte files. */
const COMPONENTS = 5;

function kg(root: string, env: Record<string, string>, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("components' code kept in the graph cache", () => {
  let root: string;
  let outDir: string;
  let store: string;
  /** The graph of a build that keeps nothing (KG_CACHE=off): what every other build must equal. */
  let reference: Buffer;

  /** A cold build (`--full`, no server) writing graph.json under `name`; its bytes and what it said. */
  function build(name: string, env: Record<string, string> = {}): { bytes: Buffer; stderr: string } {
    const out = path.join(outDir, name, 'graph.json');
    const r = kg(root, env, 'build', '--apply', '--full', '--no-server', '--out', out);
    assert.equal(r.status, 0, r.stderr);
    return { bytes: fs.readFileSync(out), stderr: r.stderr };
  }

  function records(): string[] {
    if (!fs.existsSync(store)) return [];
    return fs
      .readdirSync(store)
      .flatMap((sub) => fs.readdirSync(path.join(store, sub)).map((n) => path.join(store, sub, n)))
      .sort();
  }

  before(() => {
    root = copyFixture('components');
    fs.mkdirSync(path.join(root, 'node_modules'));
    for (const pkg of ['vue', 'svelte', '@vue']) fs.symlinkSync(path.join(REPO, 'node_modules', pkg), path.join(root, 'node_modules', pkg));
    fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n.knowledge-graph/\n');
    gitRun(root, ['init', '--quiet', '--initial-branch=main']);
    gitRun(root, ['add', '-A']);
    gitRun(root, ['commit', '--quiet', '-m', 'components']);
    store = path.join(root, '.git', 'knowledge-graph', 'cache', 'components');
    outDir = tempDir('kg-component-cache-out-');
    const off = build('off', { KG_CACHE: 'off' });
    assert.doesNotMatch(off.stderr, /components' code/);
    assert.deepEqual(records(), [], 'KG_CACHE=off keeps nothing');
    reference = off.bytes;
  });
  after(removeTempDirs);

  it("a cold build keeps every component's code, and the next cold build uses it: the same bytes both times", () => {
    const cold = build('cold');
    assert.match(cold.stderr, new RegExp(`components' code: 0 kept from earlier builds \\(graph cache\\), ${COMPONENTS} generated`));
    assert.equal(records().length, COMPONENTS);
    assert.ok(cold.bytes.equals(reference), 'the graph with the cache cold is the graph without it');
    const warm = build('warm');
    assert.match(warm.stderr, new RegExp(`components' code: ${COMPONENTS} kept from earlier builds \\(graph cache\\), 0 generated`));
    assert.ok(warm.bytes.equals(reference), 'the graph from kept code is the graph without the cache');
    // Inside git's folder, never in the analysed repository's tracked tree.
    assert.equal(gitRun(root, ['status', '--porcelain']), '');
  });

  it('a truncated, an altered and a misplaced record are each ignored and written again; the graph is the same bytes', () => {
    if (records().length === 0) build('fill');
    const read = (f: string) => gunzipSync(fs.readFileSync(f)).toString('utf8');
    // App.vue's record: its template calls formatPrice.
    const altered = records().find((f) => read(f).includes('formatPrice('));
    assert.ok(altered);
    const [truncated, misplaced, other] = records().filter((f) => f !== altered);
    fs.writeFileSync(truncated, fs.readFileSync(truncated).subarray(0, 40));
    // Gzip intact, the header intact, the template's call renamed: trusted, the graph would lose the call.
    fs.writeFileSync(altered, gzipSync(read(altered).split('formatPrice(').join('formatPrica(')));
    // A whole, valid record of another component under this one's name.
    fs.copyFileSync(other, misplaced);
    const after = build('corrupt');
    assert.ok(after.bytes.equals(reference), 'the graph after bad records is the graph without the cache');
    assert.match(after.stderr, new RegExp(`components' code: ${COMPONENTS - 3} kept from earlier builds \\(graph cache\\), 3 generated`));
    // Each was written again: the next build uses all of them.
    const again = build('again');
    assert.match(again.stderr, new RegExp(`components' code: ${COMPONENTS} kept from earlier builds \\(graph cache\\), 0 generated`));
    assert.ok(again.bytes.equals(reference));
  });

  it("kg cache status counts the components' code, and prune evicts it with the graphs to fit the budget", () => {
    if (records().length === 0) build('fill');
    const status = () =>
      JSON.parse(kg(root, {}, 'cache', 'status').stdout) as { components: number; componentBytes: number; bytes: number };
    const s = status();
    assert.equal(s.components, COMPONENTS);
    assert.ok(s.componentBytes > 0 && s.componentBytes <= s.bytes, JSON.stringify(s));
    const pruned = kg(root, {}, 'cache', 'prune', '--budget', '0');
    assert.equal(pruned.status, 0, pruned.stderr);
    assert.equal(status().components, 0);
    assert.deepEqual(records(), []);
  });
});
