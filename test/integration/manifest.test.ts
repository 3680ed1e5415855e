// The manifest beside graph.json: what it records (checked against hashes computed here), that it
// is deterministic, and that a missing, torn or mismatched one — or a changed config — leads to
// a safe full rebuild that says why on stderr.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  KG_VERSION,
  buildGraph,
  buildTracked,
  commitGeneration,
  compareFingerprints,
  parseManifest,
  readPrevious,
  serializeGraph,
  type TrackedBuildOptions,
} from '../../src/graph';
import { CLI, REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const TREE: Record<string, string> = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
  'package.json': '{ "name": "demo", "private": true }\n',
  '.gitignore': 'dist/\n',
  'src/a.ts': 'export function a() {}\n',
  'src/b.ts': "import { a } from './a';\nimport type { X } from './types';\nexport * from './a';\nexport function b() { a(); }\n",
  'src/types.ts': 'export interface X { n: number }\n',
  'src/c.ts': "// ADR-3 explains this\nimport { nope } from './missing';\nexport function c(x: any) {\n  x.run();\n  Math.max(1, 2);\n}\n",
  'docs/adr/0003-explain.md': '# Explain\n',
};

/** Builds and commits like `kg build --apply`, through the engine. */
function applyBuild(root: string, extra: Partial<TrackedBuildOptions> = {}) {
  const out = path.join(root, '.knowledge-graph', 'graph.json');
  const result = buildTracked({ root, previous: readPrevious(out), ...extra });
  const commit = commitGeneration(out, result.text, result.manifestText);
  assert.equal(commit.status, 'current');
  assertValidGraph(JSON.parse(result.text));
  return { result, out, manifestFile: path.join(root, '.knowledge-graph', 'graph.manifest.json') };
}

function kg(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the manifest', () => {
  after(removeTempDirs);

  it("records each file's SHA-256, owning project and import references, and the graph's own hash", () => {
    const root = tempDir();
    writeTree(root, TREE);
    const { out, manifestFile } = applyBuild(root);
    const parsed = parseManifest(fs.readFileSync(manifestFile, 'utf8'));
    assert.ok('manifest' in parsed, JSON.stringify(parsed));
    const m = parsed.manifest;
    assert.equal(m.graphSha256, sha(fs.readFileSync(out)));
    assert.deepEqual(Object.keys(m.files), ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/types.ts']);
    for (const f of Object.keys(m.files)) {
      assert.equal(m.files[f].sha256, sha(TREE[f]), f);
      assert.equal(m.files[f].project, 'tsconfig.json');
      assert.match(m.files[f].shape, /^[0-9a-f]{64}$/);
      assert.equal(m.files[f].global, undefined, 'modules declare nothing global');
    }
    assert.deepEqual(m.files['src/b.ts'].imports, [
      { specifier: './a', kind: 'import', syntax: 'static', line: 1, column: 1, to: 'src/a.ts' },
      { specifier: './types', kind: 'import', syntax: 'static', line: 2, column: 1, context: 'type-only', to: 'src/types.ts' },
      { specifier: './a', kind: 're-export', syntax: 'static', line: 3, column: 1, context: '*', to: 'src/a.ts' },
    ]);
    // c.ts: an import that leads nowhere, a comment citing a record, a call on an \`any\` receiver
    // waiting for a name match, and a call into the standard library that is only counted.
    const c = m.files['src/c.ts'];
    assert.deepEqual(c.imports, [{ specifier: './missing', kind: 'import', syntax: 'static', line: 2, column: 1, reason: 'not-found' }]);
    assert.deepEqual(c.cites, [{ source: 'file:src/c.ts', num: 3, line: 1, column: 4 }]);
    assert.deepEqual(c.residue, {
      counted: { calls: { external: 1 } },
      sites: [
        // `nope`, imported from a module that does not exist, waits for a name match (ADR 151).
        {
          relation: 'references',
          source: 'file:src/c.ts',
          name: 'nope',
          member: false,
          reason: 'no-declaration',
          line: 2,
          column: 10,
          pending: true,
        },
        {
          relation: 'calls',
          source: 'sym:src/c.ts#c',
          name: 'run',
          member: true,
          reason: 'any-receiver',
          line: 4,
          column: 5,
          pending: true,
        },
      ],
    });
    assert.deepEqual(m.documents, { 'docs/adr/0003-explain.md': sha(TREE['docs/adr/0003-explain.md']) });
    assert.deepEqual(m.inputs, {
      '.gitignore': sha(TREE['.gitignore']),
      'package.json': sha(TREE['package.json']),
      'tsconfig.json': sha(TREE['tsconfig.json']),
    });
    assert.deepEqual(m.options, { extractOnly: false, listExternal: false });
    assert.equal(m.engine.kg, KG_VERSION);
  });

  it('follows `extends` to configs inside the repository, and records lockfiles', () => {
    const root = tempDir();
    writeTree(root, {
      ...TREE,
      'tsconfig.json': '{ "extends": "./configs/base.json", "include": ["src"] }',
      'configs/base.json': '{ "compilerOptions": { "strict": true } }',
      'package-lock.json': '{}',
    });
    const { manifestFile } = applyBuild(root);
    const m = (parseManifest(fs.readFileSync(manifestFile, 'utf8')) as { manifest: { inputs: Record<string, string> } }).manifest;
    assert.deepEqual(Object.keys(m.inputs), ['.gitignore', 'configs/base.json', 'package-lock.json', 'package.json', 'tsconfig.json']);
  });

  it('keeps the engine version equal to package.json', () => {
    assert.equal(KG_VERSION, JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version);
  });

  it('is the same bytes from another directory, time zone and locale, and holds no absolute path', () => {
    const a = tempDir('kg-man-a-');
    const b = tempDir('kg-man-b-elsewhere-');
    writeTree(a, TREE);
    writeTree(b, Object.fromEntries(Object.entries(TREE).reverse()));
    assert.equal(kg(['build', '--apply'], a, { TZ: 'UTC', LC_ALL: 'C' }).code, 0);
    assert.equal(kg(['build', '--apply'], b, { TZ: 'Asia/Kathmandu', LC_ALL: 'tr_TR.UTF-8' }).code, 0);
    const ma = fs.readFileSync(path.join(a, '.knowledge-graph', 'graph.manifest.json'), 'utf8');
    const mb = fs.readFileSync(path.join(b, '.knowledge-graph', 'graph.manifest.json'), 'utf8');
    assert.equal(ma, mb);
    assert.ok(!ma.includes(a) && !ma.includes(b) && !ma.includes(process.env.HOME ?? '/nonexistent'));
    assert.ok(ma.endsWith('}\n') && !ma.includes('\r'));
  });

  describe('a manifest that cannot be trusted means a full rebuild, said on stderr', () => {
    const cases: Array<[string, (dir: string) => void, RegExp]> = [
      ['missing', (dir) => fs.rmSync(path.join(dir, 'graph.manifest.json')), /full build: no manifest beside graph\.json/],
      [
        'torn',
        (dir) => {
          const p = path.join(dir, 'graph.manifest.json');
          fs.writeFileSync(p, fs.readFileSync(p, 'utf8').slice(0, 200));
        },
        /full build: the manifest is not valid JSON/,
      ],
      [
        'describing another graph (the graph was replaced after it)',
        (dir) => {
          const p = path.join(dir, 'graph.json');
          fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace('"schemaVersion": 1', '"schemaVersion":1'));
        },
        /full build: the manifest does not describe the current graph\.json/,
      ],
      [
        'from another engine version',
        (dir) => {
          const p = path.join(dir, 'graph.manifest.json');
          fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(`"kg":"${KG_VERSION}"`, '"kg":"0.0.1"'));
        },
        /full build: the graph was built by kg 0\.0\.1/,
      ],
    ];
    for (const [what, spoil, message] of cases) {
      it(what, () => {
        const root = tempDir();
        writeTree(root, TREE);
        assert.equal(kg(['build', '--apply'], root).code, 0);
        const dir = path.join(root, '.knowledge-graph');
        const good = fs.readFileSync(path.join(dir, 'graph.json'), 'utf8');
        spoil(dir);
        fs.appendFileSync(path.join(root, 'src', 'a.ts'), 'export function more() {}\n');
        const r = kg(['build', '--apply'], root);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, message);
        const rebuilt = fs.readFileSync(path.join(dir, 'graph.json'), 'utf8');
        assert.notEqual(rebuilt, good);
        assert.equal(rebuilt, serializeGraph(buildGraph({ root }).graph));
        const next = kg(['build', '--apply'], root);
        assert.match(
          next.stderr,
          /incremental build: 0 changed, 0 added, 0 deleted; 0 files parsed, 4 carried forward/,
          'the rebuilt manifest is trusted again',
        );
      });
    }

    it('a changed tsconfig, package.json or .gitignore, or other build options', () => {
      const root = tempDir();
      writeTree(root, TREE);
      applyBuild(root);
      const out = path.join(root, '.knowledge-graph', 'graph.json');
      const again = (opts: Partial<TrackedBuildOptions> = {}) => buildTracked({ root, previous: readPrevious(out), ...opts });
      assert.equal(again().mode, 'incremental');
      const extract = again({ extractOnly: true });
      assert.equal(extract.mode, 'full');
      assert.match(extract.fullReason ?? '', /built without --extract-only/);
      assert.match(again({ full: true }).fullReason ?? '', /--full/);
      for (const f of ['tsconfig.json', 'package.json', '.gitignore']) {
        const before = fs.readFileSync(path.join(root, f), 'utf8');
        fs.writeFileSync(path.join(root, f), before.replace(/\n$/, ' \n'));
        const r = again();
        assert.equal(r.mode, 'full', f);
        assert.equal(r.fullReason, `${f} changed`);
        fs.writeFileSync(path.join(root, f), before);
      }
      writeTree(root, { 'src/.gitignore': 'types.ts\n' });
      const ignored = again();
      assert.equal(ignored.fullReason, 'src/.gitignore changed');
      assert.equal(ignored.text, serializeGraph(buildGraph({ root }).graph));
      assert.ok(!ignored.text.includes('file:src/types.ts"'));
    });

    it("of .knowledge-graph/config.json, only what a build reads: the editor's keys leave the graph fresh (ADR 126)", () => {
      const root = tempDir();
      writeTree(root, TREE);
      applyBuild(root);
      const out = path.join(root, '.knowledge-graph', 'graph.json');
      const config = path.join(root, '.knowledge-graph', 'config.json');
      const again = () => buildTracked({ root, previous: readPrevious(out) });
      const status = () => JSON.parse(kg(['status'], root).stdout) as { stale: boolean; changedFiles: string[] };
      // The editor's and the governance keys: no input of the build, added or changed.
      for (const text of [
        '{ "graph": { "enabled": true, "autoIndex": false } }',
        '{ "graph": { "enabled": true, "mode": "guarded", "humanFlip": true }, "level": 8 }',
      ]) {
        fs.writeFileSync(config, text);
        assert.deepEqual(status(), { ...status(), stale: false, changedFiles: [] }, text);
        const r = again();
        assert.equal(r.mode, 'incremental', text);
        assert.equal(r.delta.extracted, 0, text);
      }
      // A key the build reads (the rationale layer's folders): stale, and the build is full, saying why.
      fs.writeFileSync(config, '{ "graph": { "enabled": true }, "rationale": { "recordFolders": ["docs/adr"] } }');
      assert.deepEqual(status().changedFiles, ['.knowledge-graph/config.json']);
      const changed = again();
      assert.equal(changed.mode, 'full');
      assert.equal(changed.fullReason, '.knowledge-graph/config.json changed');
      applyBuild(root);
      // Reordering the editor's keys around it, or changing them, is still nothing to the build.
      fs.writeFileSync(config, '{ "rationale": { "recordFolders": ["docs/adr"] }, "graph": { "enabled": false } }');
      assert.equal(status().stale, false);
      assert.equal(again().mode, 'incremental');
      // The build's own key changed: full again.
      fs.writeFileSync(config, '{ "rationale": { "recordFolders": ["adr"] }, "graph": { "enabled": false } }');
      assert.equal(again().fullReason, '.knowledge-graph/config.json changed');
      // Text the build cannot use is an input (its diagnostic is in the graph); other unusable text
      // gives the same diagnostic and the same graph, so it is no change.
      fs.writeFileSync(config, '{ not json');
      applyBuild(root);
      fs.writeFileSync(config, '[still not');
      assert.equal(status().stale, false);
      assert.equal(again().mode, 'incremental');
    });
  });

  it('compares fingerprints as a pure function', () => {
    const s = compareFingerprints({ a: '1', b: '2', c: '3' }, { a: '1', b: '9', d: '4' });
    assert.deepEqual(s, { stale: true, changedFiles: ['b', 'c', 'd'], changed: ['b'], added: ['d'], deleted: ['c'] });
    assert.deepEqual(compareFingerprints({ a: '1' }, { a: '1' }), { stale: false, changedFiles: [], changed: [], added: [], deleted: [] });
  });
});
