// Where kg is installed never shows in what it writes. Vue's generated code names the template
// helper types by a path from the component to kg's own folder (ADR 182), so its text differs with
// the install; graph.json maps every position back to the author's text, and the manifest must not
// record offsets of that generated text either (a component's bodies are never read as blanks,
// ADR 169). The same fixture built by two copies of kg at paths of different lengths: the same bytes.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, copyFixture, removeTempDirs, tempDir } from '../helpers/fixtures';

const REPO = path.resolve(__dirname, '..', '..');

describe('a build does not depend on where kg is installed', () => {
  after(removeTempDirs);

  it("gives the same graph.json and manifest from two installs at paths of different lengths, with Vue's components", () => {
    const root = copyFixture('components');
    fs.mkdirSync(path.join(root, 'node_modules'));
    for (const pkg of ['vue', 'svelte', '@vue']) fs.symlinkSync(path.join(REPO, 'node_modules', pkg), path.join(root, 'node_modules', pkg));
    // A second install: the same bundles, in a folder whose path is much longer than dist/'s.
    const other = path.join(tempDir('kg-install-'), 'an-install-folder-with-a-much-longer-name-than-dist', 'dist');
    fs.cpSync(path.dirname(CLI), other, { recursive: true });
    const out = tempDir('kg-install-out-');
    const built = (cli: string, name: string) => {
      const file = path.join(out, name, 'graph.json');
      const r = spawnSync(process.execPath, [cli, 'build', '--apply', '--full', '--no-server', '--out', file], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, KG_CACHE: 'off', KG_SERVER: 'off' },
      });
      assert.equal(r.status, 0, r.stderr);
      const graph = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Array<{ id: string }> };
      assert.ok(
        graph.nodes.some((n) => n.id.startsWith('sym:') && n.id.includes('.vue#')),
        'the build read the Vue components',
      );
      return {
        graph: fs.readFileSync(file),
        manifest: fs.readFileSync(path.join(out, name, 'graph.manifest.json')),
      };
    };
    const a = built(CLI, 'a');
    const b = built(path.join(other, 'cli.js'), 'b');
    assert.ok(a.graph.equals(b.graph), 'graph.json is the same bytes');
    assert.ok(a.manifest.equals(b.manifest), 'graph.manifest.json is the same bytes');
  });
});
