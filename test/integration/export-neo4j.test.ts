// `kg export --format neo4j --out DIR` never writes through a link (issue 55, item 21): a link
// standing at DIR/nodes.csv is replaced by the file, and what it led to is left as it was.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, removeTempDirs, SNAPSHOTS, tempDir } from '../helpers/fixtures';

describe('kg export --format neo4j and links in its folder', () => {
  after(removeTempDirs);

  it('a link at DIR/nodes.csv (and at DIR/import.sh) is replaced, never written through', () => {
    const out = tempDir('kg-export-');
    const victim = path.join(tempDir('kg-export-victim-'), 'precious.txt');
    fs.writeFileSync(victim, 'keep me\n');
    fs.symlinkSync(victim, path.join(out, 'nodes.csv'));
    fs.symlinkSync(victim, path.join(out, 'import.sh'));
    const graph = path.join(
      SNAPSHOTS,
      fs.readdirSync(SNAPSHOTS).find((d) => fs.existsSync(path.join(SNAPSHOTS, d, 'graph.json'))) as string,
      'graph.json',
    );
    const r = spawnSync(process.execPath, [CLI, 'export', '--format', 'neo4j', '--out', out, '--graph', graph], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me\n', 'what the link led to is unchanged');
    assert.equal((fs.statSync(victim).mode & 0o111) !== 0, false, 'and not made executable');
    for (const name of ['nodes.csv', 'import.sh']) {
      assert.ok(fs.lstatSync(path.join(out, name)).isFile(), `${name} is a file of its own now`);
    }
    assert.match(fs.readFileSync(path.join(out, 'nodes.csv'), 'utf8'), /^id:ID,:LABEL,/);
    assert.deepEqual(
      fs.readdirSync(out).filter((f) => f.includes('kg-tmp')),
      [],
      'no temporary file left',
    );
  });
});
