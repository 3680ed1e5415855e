// Vendored and generated files (src/graph/indexer/files/vendored.ts, ADR 98): left out of the graph
// by default, each with a diagnostic that says why and how to keep it; .gitattributes decides over
// the names; the repository config brings them back. Real trees on disk, the real builder.

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildGraph } from '../../src/graph';
import { skippedText } from '../../src/protocol/build-events';
import { leftOut, linguistOf, parseGitattributes, vendoredByName } from '../../src/graph/indexer/files/vendored';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

const files = (graph: { nodes: { id: string; kind: string }[] }) =>
  graph.nodes.filter((n) => n.kind === 'file').map((n) => n.id.slice('file:'.length));

const TREE = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { allowJs: true, strict: true }, include: ['**/*'] }),
  'src/app.ts': "import { $ } from '../test/lib/jquery.min.js';\nexport function run(): unknown {\n  return $('x');\n}\n",
  'test/lib/jquery.min.js': 'export function $(s){return s}export function ajax(){return 1}',
  'src/vendor/left-pad.js': 'export function leftPad(s) { return s; }',
  'src/vendor/README.md': '# API\n\n## FAQ\n',
  'src/generated/api.ts': 'export function generatedCall(): number { return 1; }',
  'src/generated/keep.ts': 'export function handWritten(): number { return 2; }',
  'third_party/lib.bundle.js': 'export const bundled = 1;',
  'third_party/ours.ts': 'export const ours = 1;',
  '.gitattributes': 'src/generated/** linguist-generated\nthird_party/ours.ts -linguist-vendored\n',
  'src/generated/.gitattributes': 'keep.ts -linguist-generated\n',
};

describe('vendored and generated files', () => {
  after(removeTempDirs);

  it('are left out by default, each group with a diagnostic that says why and how to keep it', () => {
    const root = tempDir();
    writeTree(root, TREE);
    const { graph } = buildGraph({ root });
    assertValidGraph(JSON.parse(JSON.stringify(graph)));
    assert.deepEqual(files(graph), ['src/app.ts', 'src/generated/keep.ts', 'third_party/ours.ts']);
    const reasons = Object.fromEntries((graph.diagnostics ?? []).map((d) => [d.path, d.reason]));
    assert.match(
      reasons['test/lib/jquery.min.js'],
      /^skipped: vendored \(a minified or bundled file name\); set "files": \{"includeVendored": true\}/,
    );
    assert.match(reasons['src/vendor'], /^2 files skipped: vendored \(a vendor\/ folder\)/);
    assert.match(reasons['third_party/lib.bundle.js'], /vendored \(a third_party\/ folder\)/);
    assert.match(reasons['src/generated/api.ts'], /generated \(linguist-generated in \.gitattributes\)/);
    // The README of the vendored folder brought no headings.
    assert.ok(!graph.nodes.some((n) => n.kind === 'doc-concept' && n.id.includes('src/vendor')));
  });

  it("the build's counts say why, by reason, and add up to the skipped files (issue 55)", () => {
    const root = tempDir();
    writeTree(root, TREE);
    const { stats } = buildGraph({ root });
    // src/vendor/ (2, its README too) and third_party/lib.bundle.js by folder; jquery.min.js by name.
    assert.deepEqual(stats.skippedBy, {
      'generated, by .gitattributes': 1,
      'vendored, by folder name': 3,
      'vendored, minified or bundled': 1,
    });
    assert.equal(stats.skipped, 5);
    assert.equal(
      skippedText(stats.skipped, stats.skippedBy),
      '5 files skipped (3 vendored, by folder name; 1 generated, by .gitattributes; 1 vendored, minified or bundled)',
    );
  });

  it('the repository config keeps them, Markdown included', () => {
    const root = tempDir();
    writeTree(root, {
      ...TREE,
      '.knowledge-graph/config.json': JSON.stringify({ files: { includeVendored: true, includeGenerated: true } }),
    });
    const { graph } = buildGraph({ root });
    assert.deepEqual(files(graph), [
      'src/app.ts',
      'src/generated/api.ts',
      'src/generated/keep.ts',
      'src/vendor/README.md',
      'src/vendor/left-pad.js',
      'test/lib/jquery.min.js',
      'third_party/lib.bundle.js',
      'third_party/ours.ts',
    ]);
    assert.ok(!(graph.diagnostics ?? []).some((d) => /vendored|generated/.test(d.reason)));
  });

  it('a wrong config value is a diagnostic and the default holds', () => {
    const root = tempDir();
    writeTree(root, { ...TREE, '.knowledge-graph/config.json': JSON.stringify({ files: { includeVendored: 'yes', typo: 1 } }) });
    const { graph } = buildGraph({ root });
    assert.ok(!files(graph).includes('src/vendor/left-pad.js'));
    const reasons = (graph.diagnostics ?? []).map((d) => d.reason);
    assert.ok(
      reasons.some((r) => /"files\.includeVendored" must be true or false/.test(r)),
      reasons.join('\n'),
    );
    assert.ok(
      reasons.some((r) => /unknown key "files\.typo"/.test(r)),
      reasons.join('\n'),
    );
  });

  it('.gitattributes: later lines and deeper files win, -attr unsets, !attr returns to unspecified, directories do not reach inside', () => {
    const rules = new Map([
      [
        '',
        parseGitattributes(
          'lib/** linguist-vendored\nlib/own.js -linguist-vendored\ngen/ linguist-generated\n*.pb.ts linguist-generated=true\n',
          '',
        ),
      ],
      ['lib/deep', parseGitattributes('x.js !linguist-vendored\n', 'lib/deep')],
    ]);
    assert.equal(linguistOf(rules, 'lib/a.js').vendored, true);
    assert.equal(linguistOf(rules, 'lib/own.js').vendored, false);
    assert.equal(linguistOf(rules, 'lib/deep/x.js').vendored, undefined);
    assert.equal(linguistOf(rules, 'gen/a.ts').generated, undefined, 'a directory pattern does not reach the files inside');
    assert.equal(linguistOf(rules, 'src/api.pb.ts').generated, true);
    const info = parseGitattributes('lib/a.js linguist-vendored=false\n', '');
    assert.equal(linguistOf(rules, 'lib/a.js', info).vendored, false, '.git/info/attributes wins');
    // Names alone.
    assert.equal(vendoredByName('src/app.ts'), undefined);
    assert.equal(vendoredByName('vendor.ts'), undefined, 'a file named vendor is not a vendor folder');
    assert.deepEqual(vendoredByName('a/vendor/b/c.js'), {
      why: 'vendored (a vendor/ folder)',
      short: 'vendored, by folder name',
      at: 'a/vendor',
    });
    assert.equal(vendoredByName('x/app-min.js')?.at, 'x/app-min.js');
    assert.equal(leftOut('a/vendor/c.js', { vendored: false }, { includeVendored: false, includeGenerated: false }), undefined);
  });
});
