// The screen parses each file the way its project's program will, and the program takes that very
// tree (ADR 137). If the options the screen parses with drift from the program's (the target, the
// file's format, the module rule), the program parses the text again: a second parse nobody sees,
// since the graph is the same. This test sees it: the program's tree must be the screen's object.

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import * as ts from 'typescript';
import { discover } from '../../src/graph/indexer/compiler/discover';
import { ModuleResolver, workspacePackages } from '../../src/graph/indexer/compiler/imports';
import { createProjectProgram, programScreenParser, SourceFileCache, takeScreenedTrees } from '../../src/graph/indexer/compiler/program';
import { screenSources, type ScreenParser } from '../../src/graph/indexer/compiler/screen';
import { readSources } from '../../src/graph/indexer/compiler/sources';
import { nodeFileHost } from '../../src/graph/indexer/files/file-host';
import type { BuildDiagnostic } from '../../src/graph';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const SOURCES = {
  'src/a.ts': 'import { b } from "./b";\nexport const a = () => b();\nawait Promise.resolve(1);\n',
  'src/b.ts': 'export function b(): number { return 1; }\n',
  'src/view.tsx': 'export const View = () => <div>{"x"}</div>;\n',
  'src/old.cts': 'const fs = require("fs");\nexport = fs;\n',
  'src/new.mts': 'export const n = 1;\n',
  'src/script.ts': 'const loose = 1;\n',
};

const CONFIGS: Record<string, { compilerOptions: Record<string, unknown>; packageType?: string }> = {
  'bundler, ES2022': { compilerOptions: { target: 'ES2022', module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx' } },
  'nodenext, a module package': { compilerOptions: { module: 'nodenext', jsx: 'preserve' }, packageType: 'module' },
  'nodenext, a CommonJS package': { compilerOptions: { module: 'nodenext', jsx: 'react' } },
  'every file a module, ES2015': {
    compilerOptions: { target: 'ES2015', module: 'esnext', moduleResolution: 'bundler', moduleDetection: 'force', jsx: 'react-jsx' },
  },
};

/** A project of one file, src/a.ts, discovered and read. */
function oneFile(text: string) {
  const root = tempDir();
  writeTree(root, {
    'src/a.ts': text,
    'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'esnext', moduleResolution: 'bundler' } }),
  });
  const d = discover(nodeFileHost, root);
  return { root, d, read: readSources(nodeFileHost, d, 1 << 20, [], {}) };
}

describe('one parse of each file: the program takes the tree the screen parsed (ADR 137)', () => {
  after(removeTempDirs);

  for (const [name, config] of Object.entries(CONFIGS)) {
    it(name, () => {
      const root = tempDir();
      writeTree(root, {
        ...SOURCES,
        'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, ...config.compilerOptions }, include: ['src'] }),
        'package.json': JSON.stringify({ name: 'one-parse', ...(config.packageType ? { type: config.packageType } : {}) }),
      });
      const d = discover(nodeFileHost, root);
      assert.equal(d.projects.length, 1);
      const diagnostics: BuildDiagnostic[] = [];
      const read = readSources(nodeFileHost, d, 1 << 20, diagnostics, {});
      const graphFiles = new Set<string>();
      const resolver = new ModuleResolver(
        nodeFileHost,
        root,
        graphFiles,
        workspacePackages(nodeFileHost, root, d.packageJsonFiles),
        d.listed,
      );
      const parser = programScreenParser(root, resolver);
      const screened = screenSources(read, diagnostics, undefined, parser);
      assert.deepEqual(
        screened.accepted.map((i) => i.path),
        Object.keys(SOURCES).sort(),
      );
      for (const i of screened.accepted) graphFiles.add(i.path);
      assert.equal(screened.trees.size, screened.accepted.length, 'the screen hands over a tree for every file it passed');

      const trees = new Map(screened.trees);
      const cache = new SourceFileCache(new Map(screened.accepted.map((i) => [`${root}/${i.path}`, i.text])), nodeFileHost);
      takeScreenedTrees(cache, screened.trees, new Map(screened.accepted.map((i) => [i.path, i])), root, resolver);
      assert.equal(screened.trees.size, 0, 'the cache alone holds the trees');
      const project = d.projects[0];
      const program = createProjectProgram(
        root,
        project,
        screened.accepted.map((i) => `${root}/${i.path}`),
        cache,
        resolver,
      );
      for (const input of screened.accepted) {
        const sf = program.getSourceFile(`${root}/${input.path}`);
        assert.ok(sf, input.path);
        assert.ok(sf === trees.get(input.path), `${input.path}: the program parsed the file again rather than take the screen's tree`);
      }
      // The formats differ between the configurations, so the check above covered each rule:
      // under nodenext, .cts is CommonJS and .mts an ES module whatever the package says.
      if (name.startsWith('nodenext')) {
        const format = (p: string) => trees.get(p)?.impliedNodeFormat;
        assert.equal(format('src/old.cts'), ts.ModuleKind.CommonJS);
        assert.equal(format('src/new.mts'), ts.ModuleKind.ESNext);
        assert.equal(format('src/b.ts'), config.packageType === 'module' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS);
      }
    });
  }

  it('a tree of another text than the programs read (a body blanked, ADR 129) is not taken', () => {
    const { root, d, read } = oneFile('export function a(): number {\n  return 1 + 2;\n}\n');
    const resolver = new ModuleResolver(nodeFileHost, root, new Set(['src/a.ts']), new Map(), d.listed);
    const screened = screenSources(read, [], undefined, programScreenParser(root, resolver));
    const tree = screened.trees.get('src/a.ts');
    assert.ok(tree);
    const blank = 'export function a(): number {\n             \n}\n';
    const cache = new SourceFileCache(new Map([[`${root}/src/a.ts`, blank]]), nodeFileHost);
    takeScreenedTrees(cache, screened.trees, new Map(read.map((i) => [i.path, i])), root, resolver);
    const sf = createProjectProgram(root, d.projects[0], [`${root}/src/a.ts`], cache, resolver).getSourceFile(`${root}/src/a.ts`);
    assert.ok(sf && sf !== tree, 'the program parsed the text it reads');
    assert.equal(sf.text, blank);
  });

  it('a text screened again under other parse options is parsed again, and handed over again', () => {
    const { root, read } = oneFile('export const same = 1;\n');
    const parserWith =
      (tag: string): ScreenParser =>
      (input) => ({ tag, parse: () => ts.createSourceFile(`${root}/${input.path}`, input.text, ts.ScriptTarget.ES2022, false) });
    // A verdict is remembered per process by dialect, parse options and content: the first
    // screening under a tag parses, a second under the same tag does not, another tag does.
    const tag = `test-${process.pid}-${Date.now()}`;
    assert.equal(screenSources(read, [], undefined, parserWith(tag)).trees.size, 1);
    assert.equal(screenSources(read, [], undefined, parserWith(tag)).trees.size, 0);
    assert.equal(screenSources(read, [], undefined, parserWith(tag + '-other')).trees.size, 1);
  });
});
