// A dependency's package.json nested far deeper than any real one (issue 55): the compiler walks
// `exports` a stack frame a level, so 5,000 levels crashed every build with a RangeError. The
// resolver reads such a file bounded (PACKAGE_JSON_DEPTH) and the build names it in its
// diagnostics, in a one-shot build and in a warm session's rebuild alike. Trees generated on disk.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { BuildSession, buildGraph, buildTracked, serializeGraph } from '../../src/graph';
import { PACKAGE_JSON_DEPTH } from '../../src/graph/indexer/compiler/imports';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

/** `exports` as nested conditions, `levels` objects deep (the package.json itself is one more). */
function nestedExports(levels: number): string {
  let e = '"./index.js"';
  for (let i = 0; i < levels; i++) e = `{"require":${e}}`;
  return e;
}

function repository(moduleResolution: string, exportsLevels: number): string {
  const root = tempDir('kg-deep-package-');
  writeTree(root, {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, target: 'ES2022', module: moduleResolution === 'node10' ? 'commonjs' : 'esnext', moduleResolution },
      include: ['src'],
    }),
    'src/use.ts': "import { deep } from 'deep';\nexport function use() {\n  return deep();\n}\n",
    'node_modules/deep/index.js': 'exports.deep = function deep() {\n  return 1;\n};\n',
    'node_modules/deep/index.d.ts': 'export declare function deep(): number;\n',
  });
  fs.writeFileSync(
    path.join(root, 'node_modules/deep/package.json'),
    `{"name":"deep","version":"1.0.0","main":"index.js","types":"index.d.ts","exports":${nestedExports(exportsLevels)}}`,
  );
  return root;
}

const notesOn = (graph: { diagnostics?: { path: string; reason: string }[] }) =>
  (graph.diagnostics ?? []).filter((d) => d.path === 'node_modules/deep/package.json').map((d) => d.reason);

describe('a package.json nested deeper than the compiler can walk', () => {
  after(removeTempDirs);

  for (const resolution of ['node10', 'bundler']) {
    it(`5,000 levels of exports under ${resolution}: the build finishes and names the package`, () => {
      const { graph } = buildGraph({ root: repository(resolution, 5000) });
      assertValidGraph(JSON.parse(JSON.stringify(graph)));
      assert.deepEqual(notesOn(graph), [
        `nests 5001 levels deep (the limit is ${PACKAGE_JSON_DEPTH}): read without its "exports" and "imports"; imports of it resolve as if it had none`,
      ]);
      // Read without them, the package resolves by its "types", as one without "exports" does: the
      // import and the call reach its declaration file, outside the graph (counted as external).
      assert.deepEqual(graph.unresolved, { calls: { external: 1 }, imports: { external: 1 } });
    });
  }

  it('a package.json at the limit is read as it is; one level more is read bounded', () => {
    assert.deepEqual(notesOn(buildGraph({ root: repository('bundler', PACKAGE_JSON_DEPTH - 1) }).graph), []);
    assert.equal(notesOn(buildGraph({ root: repository('bundler', PACKAGE_JSON_DEPTH) }).graph).length, 1);
  });

  it("a warm session's rebuild, which takes the last build's import outcomes (ADR 134), names it too", () => {
    const root = repository('node10', 5000);
    const session = new BuildSession({ root });
    try {
      session.warm();
      const first = session.rebuild();
      fs.appendFileSync(path.join(root, 'src/use.ts'), 'export const touched = 1;\n');
      const warm = session.rebuild();
      const full = serializeGraph(buildGraph({ root }).graph);
      assert.equal(warm.text, full);
      assert.equal(buildTracked({ root, previous: { graphText: first.text, manifestText: first.manifestText } }).text, full);
      assert.equal(notesOn(JSON.parse(full) as { diagnostics?: { path: string; reason: string }[] }).length, 1);
    } finally {
      session.close();
    }
  });
});
