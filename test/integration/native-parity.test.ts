// Parity of the two checkers behind the seam (ADR 113, 114): TypeScript 7's native checker and the
// JavaScript one give byte-identical graph.json on every snapshot fixture, on the equivalence
// generator's tree (incremental and warm native builds against a full JavaScript build after each
// random edit), and on zod as a TypeScript 7 project; a mismatch names the exact edges only one backend has. Projects with an
// option TypeScript 7 removed are served by the JavaScript checker, each with its reason.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { corpusForTs7 } from '../../bench/corpus';
import { buildGraph, serializeGraph, type BuildResult } from '../../src/graph';
import { fixtureRepo, random, randomEdits, report, runSequence, shrink } from '../helpers/equivalence';
import { FIXTURES, fixtureNames, removeTempDirs } from '../helpers/fixtures';
import { SEED } from '../helpers/seed';
import { NativeChecker } from '../../src/graph/indexer/compiler/native-checker';

/** Lines (nodes, edges, summaries) only one of two graph texts has: what a mismatch reports. */
function mismatch(js: string, native: string): string {
  const a = new Set(js.split('\n'));
  const b = new Set(native.split('\n'));
  const onlyJs = [...a].filter((l) => !b.has(l));
  const onlyNative = [...b].filter((l) => !a.has(l));
  return [...onlyJs.map((l) => `- js     ${l.trim()}`), ...onlyNative.map((l) => `+ native ${l.trim()}`)].join('\n');
}

const native = new NativeChecker();

function both(root: string): { js: string; native: string; result: BuildResult } {
  const js = serializeGraph(buildGraph({ root }).graph);
  const result = buildGraph({ root, checker: native });
  return { js, native: serializeGraph(result.graph), result };
}

/** Fixtures whose project keeps an option TypeScript 7 removed (ADR 81 gives TypeScript 5's defaults): the reason each must name. */
const DECLINED: Record<string, RegExp> = {
  'guard-consumers': /removed target: ES5, moduleResolution: node10/,
  'path-aliases': /removed target: ES5, baseUrl/,
  'rationale-notes': /removed target: ES5/,
  'ts5-semantics': /removed moduleResolution: node10/,
  tsx: /removed target: ES5/,
};

describe('the native checker gives the same graph as the JavaScript checker', () => {
  after(() => {
    native.close();
    removeTempDirs();
  });

  for (const name of fixtureNames()) {
    it(`fixture ${name}`, () => {
      const r = both(path.join(FIXTURES, name));
      assert.equal(r.native, r.js, `graph.json differs between the backends on ${name}:\n${mismatch(r.js, r.native)}`);
      const declined = DECLINED[name];
      if (declined) {
        assert.deepEqual(r.result.checker.served, [], `${name} should fall back`);
        assert.ok(
          r.result.checker.fallbacks.every((f) => declined.test(f.reason)),
          JSON.stringify(r.result.checker.fallbacks),
        );
      } else {
        assert.deepEqual(r.result.checker.fallbacks, [], `${name} should be served natively`);
        assert.ok(r.result.checker.served.length > 0);
      }
    });
  }

  it(`the equivalence generator: incremental and warm native builds equal a full JavaScript build after each edit (seed ${SEED})`, () => {
    const base = fixtureRepo();
    const r = both(base);
    assert.equal(r.native, r.js, `graph.json differs on the generator's tree:\n${mismatch(r.js, r.native)}`);
    const edits = randomEdits(random(SEED), 8);
    const run = runSequence(base, edits, { backend: 'native' });
    if (run.failure) assert.fail(report(SEED, shrink(base, edits, { backend: 'native' }, 20)));
    assert.ok(run.applied > 0, 'no edit changed the tree');
  });

  // As written, zod's project keeps TypeScript 5's esModuleInterop: false with a default import of a
  // package (declined), and rxjs's keeps moduleResolution: node and baseUrl: as a TypeScript 7
  // project would have them (bench/corpus.ts), both are served natively.
  it('zod as a TypeScript 7 project (real code, all served natively)', () => {
    const r = both(corpusForTs7('zod').root);
    assert.deepEqual(r.result.checker.fallbacks, []);
    assert.equal(r.native, r.js, `graph.json differs on zod:\n${mismatch(r.js, r.native)}`);
  });
});
