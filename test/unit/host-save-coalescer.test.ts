// src/host/save-coalescer.ts: a save calls for a build only when no build that started, or waits,
// reads its text (issue 55, item 3). Each case runs the saves of a real sequence: an autosave, then
// Ctrl+S of the same text while its build runs.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SaveCoalescer } from '../../src/host/save-coalescer';

function coalescer(built: Record<string, string> = {}) {
  const graph = { no: 1 };
  const c = new SaveCoalescer(
    (f) => built[f],
    () => graph.no,
  );
  return { c, graph, built };
}

describe('which saves call for a build', () => {
  it('an autosave builds; Ctrl+S of the same text while that build runs does not queue another', () => {
    const { c } = coalescer({ 'src/a.ts': 'a0' });
    assert.equal(c.saved('src/a.ts', 'a1'), true);
    c.started();
    assert.equal(c.saved('src/a.ts', 'a1'), false, 'the running build reads this text');
    assert.equal(c.saved('src/a.ts', 'a2'), true, 'new text: a build after it');
  });

  it('two saves of the same text before the build starts are one build', () => {
    const { c } = coalescer();
    assert.equal(c.saved('src/a.ts', 'a1'), true);
    assert.equal(c.saved('src/a.ts', 'a1'), false);
    assert.equal(c.saved('src/b.ts', 'b1'), true, 'another file');
  });

  it('saving the text the graph was built from builds nothing; other text does', () => {
    const { c } = coalescer({ 'src/a.ts': 'a0' });
    assert.equal(c.saved('src/a.ts', 'a0'), false);
    assert.equal(c.saved('src/unknown.ts', 'x'), true, 'a file the graph does not know');
  });

  it('after a failed build, the same text builds again', () => {
    const { c } = coalescer({ 'src/a.ts': 'a0' });
    assert.equal(c.saved('src/a.ts', 'a1'), true);
    c.started();
    c.failed();
    assert.equal(c.saved('src/a.ts', 'a1'), true);
  });

  it('a graph loaded since says itself what it was built from', () => {
    const { c, graph, built } = coalescer({ 'src/a.ts': 'a0' });
    assert.equal(c.saved('src/a.ts', 'a1'), true);
    c.started();
    // Another build (a terminal's kg build) wrote a graph of other text.
    graph.no = 2;
    built['src/a.ts'] = 'a9';
    assert.equal(c.saved('src/a.ts', 'a1'), true, 'the loaded graph holds a9, not a1');
    c.started();
    assert.equal(c.saved('src/a.ts', 'a1'), false);
  });
});
