// Import outcomes kept between the builds of a session (ADR 134): taken when nothing they were
// decided on changed, given up when anything did — a file that appears beside the sources, one
// that appears in an ignored folder, a project's options — and the graph always equals a full
// build's, byte for byte. Real files on disk, the real compiler.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { BuildSession, buildGraph, buildTracked, serializeGraph, type TrackedBuildResult } from '../../src/graph';
import { ResolutionMemo } from '../../src/graph/indexer/compiler/imports';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const TREE = {
  '.gitignore': 'gen/\n',
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, baseUrl: '.', paths: { '#lib/*': ['src/lib/*'] } },
    include: ['src'],
  }),
  'src/lib/util.ts': 'export function util(): number {\n  return 1;\n}\n',
  'src/main.ts': [
    "import { util } from '#lib/util';",
    "import './styles.css';",
    "import '../gen/made';",
    "import 'left-pad';",
    'export function main(): number {',
    '  return util();',
    '}',
    '',
  ].join('\n'),
};

/** The graph a full build of the tree makes now. */
const fullText = (root: string): string => serializeGraph(buildGraph({ root }).graph);

/** A build with the memo, as a session builds: from the last result, in memory. */
function next(root: string, memo: ResolutionMemo, last?: TrackedBuildResult): TrackedBuildResult {
  return buildTracked({
    root,
    resolutions: memo,
    previous: last && { graphText: last.text, manifestText: last.manifestText, parsed: { graph: last.graph, manifest: last.manifest } },
  });
}

describe('import outcomes kept between builds (ADR 134)', () => {
  after(removeTempDirs);

  it('are taken while nothing changed them, and given up when a file appears beside the sources or in an ignored folder', () => {
    const root = tempDir();
    writeTree(root, TREE);
    const memo = new ResolutionMemo();
    let r = next(root, memo);
    assert.equal(memo.reused, false, 'nothing to take on the first build');
    assert.equal(r.text, fullText(root));
    const first = r.text;

    // A body edit: the outcomes are taken, and the graph is a full build's.
    writeTree(root, { 'src/lib/util.ts': TREE['src/lib/util.ts'].replace('return 1;', 'return 2;') });
    r = next(root, memo, r);
    assert.equal(memo.reused, true, 'a body edit changes nothing an import was decided on');
    assert.equal(r.text, fullText(root));

    // styles.css appears: './styles.css' was not found and is now a file that is not a source.
    writeTree(root, { 'src/styles.css': 'body {}\n' });
    r = next(root, memo, r);
    assert.equal(memo.reused, false, 'a new entry in a walked folder changes its listing');
    const withCss = fullText(root);
    assert.notEqual(withCss, first, 'the fixture: the outcome of ./styles.css shows in the graph');
    assert.equal(r.text, withCss);

    // gen/ is ignored, so never walked: '../gen/made' was asked of the disk, and is asked again.
    r = next(root, memo, r);
    assert.equal(memo.reused, true);
    writeTree(root, { 'gen/made.ts': 'export const made = 1;\n' });
    r = next(root, memo, r);
    assert.equal(memo.reused, false, 'a file that appears where the walk does not go is found by asking the disk again');
    const withGen = fullText(root);
    assert.notEqual(withGen, withCss, 'the fixture: the outcome of ../gen/made shows in the graph');
    assert.equal(r.text, withGen);
  });

  it("gives up a project's outcomes when its options change, and a session's graph equals a full build's after each step", () => {
    const root = tempDir();
    writeTree(root, TREE);
    const session = new BuildSession({ root });
    assert.equal(session.warm().text, fullText(root));
    const steps: Record<string, string>[] = [
      { 'src/main.ts': TREE['src/main.ts'].replace('return util();', 'return util() + 1;') },
      // '#lib/*' now leads nowhere: the import that found util.ts is not found.
      { 'tsconfig.json': TREE['tsconfig.json'].replace('src/lib/*', 'src/nowhere/*') },
      { 'src/styles.css': 'body {}\n' },
      { 'gen/made.ts': 'export const made = 1;\n' },
      { 'tsconfig.json': TREE['tsconfig.json'] },
    ];
    const texts = new Set<string>();
    for (const change of steps) {
      writeTree(root, change);
      const text = session.rebuild().text;
      assert.equal(text, fullText(root), `after ${Object.keys(change).join(', ')}`);
      texts.add(text);
    }
    assert.equal(texts.size, steps.length, 'the fixture: each step changes the graph');
    fs.rmSync(path.join(root, 'gen'), { recursive: true });
    assert.equal(session.rebuild().text, fullText(root), 'after gen/ is removed again');
  });

  it('a package removed and installed again: a session, and a build from the last graph on disk, equal a full build (issue 50)', () => {
    const root = tempDir();
    const pkg = {
      'node_modules/dep/package.json': '{ "name": "dep", "version": "1.0.0", "types": "index.d.ts" }\n',
      'node_modules/dep/index.d.ts': 'export declare function scale(n: number): number;\n',
    };
    writeTree(root, {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, moduleResolution: 'node' }, include: ['src'] }),
      'src/math.ts': "import { scale } from 'dep';\nexport function add(a: number, b: number): number {\n  return scale(a) + b;\n}\n",
      'src/shapes.ts': "import { add } from './math';\nexport function twice(s: number): number {\n  return add(s, s);\n}\n",
      ...pkg,
    });
    const session = new BuildSession({ root });
    let last = session.warm();
    assert.equal(last.text, fullText(root));
    const texts = new Set<string>([last.text]);
    for (const step of ['removed', 'installed', 'removed'] as const) {
      if (step === 'removed') fs.rmSync(path.join(root, 'node_modules'), { recursive: true });
      else writeTree(root, pkg);
      const full = fullText(root);
      texts.add(full);
      assert.equal(session.rebuild().text, full, `the session, package ${step}`);
      // Nothing but the package changed: a build from the last graph and manifest on disk carries
      // every file unless the manifest tells an installed package from an absent one.
      const fromDisk = buildTracked({
        root,
        previous: { graphText: last.text, manifestText: last.manifestText, parsed: { graph: last.graph, manifest: last.manifest } },
      });
      assert.equal(fromDisk.text, full, `a build from the last graph, package ${step}`);
      last = fromDisk;
    }
    assert.equal(texts.size, 2, 'the fixture: the package decides whether the call has a declaration');
  });
});
