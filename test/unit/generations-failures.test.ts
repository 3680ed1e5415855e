// A failed build leaves the previous graph byte for byte, whichever step fails (ADR 51): each of
// the four writes and renames of a generation is failed in turn through an injected file system,
// and once for real, with a directory where the manifest goes.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { commitGeneration, isGraphError, manifestPathFor, serializeGraph } from '../../src/graph';
import { NODE_FS, type AtomicFs } from '../../src/graph/commit/atomic';
import { removeTempDirs, tempDir } from '../helpers/fixtures';
import { graphOf } from '../helpers/graphs';

const NEW_GRAPH = serializeGraph(
  graphOf([
    ['mod:src', 'file:src/a.ts', 'contains'],
    ['mod:src', 'file:src/b.ts', 'contains'],
    ['file:src/a.ts', 'sym:src/a.ts#run', 'contains'],
    ['file:src/b.ts', 'sym:src/b.ts#helper', 'contains'],
    ['sym:src/a.ts#run', 'sym:src/b.ts#helper'],
  ]),
);
const NEW_MANIFEST = '{"manifestVersion":"new"}\n';
const OLD_GRAPH = '{"schemaVersion":1,"old":true}\n';
const OLD_MANIFEST = '{"manifestVersion":"old"}\n';

type Point = 'graph temp' | 'manifest temp' | 'first rename' | 'second rename';
const POINTS: Point[] = ['graph temp', 'manifest temp', 'first rename', 'second rename'];

/** The real file system, except that `point` fails with ENOSPC. */
function failingAt(point: Point): AtomicFs {
  let renames = 0;
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  return {
    ...NODE_FS,
    writeSynced(file, data) {
      const name = path.basename(file);
      if (point === 'graph temp' && name.startsWith('graph.json.kg-tmp-')) throw enospc();
      if (point === 'manifest temp' && name.startsWith('graph.manifest.json.kg-tmp-')) throw enospc();
      NODE_FS.writeSynced(file, data);
    },
    rename(from, to) {
      const promotes = ['graph.json', 'graph.manifest.json'].includes(path.basename(to)) && path.basename(from).includes('.kg-tmp-');
      if (promotes) renames++;
      if (promotes && ((point === 'first rename' && renames === 1) || (point === 'second rename' && renames === 2))) throw enospc();
      NODE_FS.rename(from, to);
    },
  };
}

function previousGeneration(withManifest = true): { dir: string; graph: string; manifest: string } {
  const dir = tempDir();
  const graph = path.join(dir, 'graph.json');
  fs.writeFileSync(graph, OLD_GRAPH);
  if (withManifest) fs.writeFileSync(manifestPathFor(graph), OLD_MANIFEST);
  return { dir, graph, manifest: manifestPathFor(graph) };
}

describe('a failed generation', () => {
  after(removeTempDirs);

  for (const point of POINTS) {
    it(`leaves graph.json and its manifest as they were when the ${point} fails`, () => {
      const { dir, graph, manifest } = previousGeneration();
      assert.throws(
        () => commitGeneration(graph, NEW_GRAPH, NEW_MANIFEST, failingAt(point)),
        (e: unknown) => isGraphError(e) && e.code === 'WRITE_FAILED' && /ENOSPC/.test(e.message),
      );
      assert.equal(fs.readFileSync(graph, 'utf8'), OLD_GRAPH, 'graph.json byte for byte');
      assert.equal(fs.readFileSync(manifest, 'utf8'), OLD_MANIFEST, 'the manifest byte for byte');
      assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json'], 'no temp file left');
    });
  }

  it('leaves no manifest beside a graph it never replaced when there was none before', () => {
    const { dir, graph } = previousGeneration(false);
    assert.throws(() => commitGeneration(graph, NEW_GRAPH, NEW_MANIFEST, failingAt('second rename')), isGraphError);
    assert.equal(fs.readFileSync(graph, 'utf8'), OLD_GRAPH);
    assert.deepEqual(fs.readdirSync(dir), ['graph.json']);
  });

  it('on the real file system: a manifest that cannot be replaced leaves the previous graph', () => {
    const { dir, graph, manifest } = previousGeneration(false);
    // A non-empty directory where the manifest goes: renaming a file over it fails.
    fs.mkdirSync(manifest);
    fs.writeFileSync(path.join(manifest, 'keep'), '');
    assert.throws(
      () => commitGeneration(graph, NEW_GRAPH, NEW_MANIFEST),
      (e: unknown) => isGraphError(e) && e.code === 'WRITE_FAILED',
    );
    assert.equal(fs.readFileSync(graph, 'utf8'), OLD_GRAPH, 'graph.json byte for byte');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json']);
  });

  it('replaces both when nothing fails, and leaves no temp file', () => {
    const { dir, graph, manifest } = previousGeneration();
    assert.equal(commitGeneration(graph, NEW_GRAPH, NEW_MANIFEST).status, 'current');
    assert.equal(fs.readFileSync(graph, 'utf8'), NEW_GRAPH);
    assert.equal(fs.readFileSync(manifest, 'utf8'), NEW_MANIFEST);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json']);
  });
});
