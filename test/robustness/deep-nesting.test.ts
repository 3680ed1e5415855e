// Deep nesting in every JSON file kg reads (ADR 96): a value 5,000 arrays deep parses (JSON.parse
// does not recurse) but overflowed the stack of every JSON.stringify and recursive walk that put it
// in a message. Each case puts one such value in one place of graph.json, graph.manifest.json or
// config.json and runs the bundled CLI: a bad manifest means a full rebuild, a bad graph is a
// degrade (exit 3) with a reason, a bad config entry is a reported problem — never a stack trace.
// `npm run build` first: these run dist/cli.js.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const DEPTH = 5000;
const DEEP = '['.repeat(DEPTH) + ']'.repeat(DEPTH);

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, KG_SERVER: 'off' },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** No crash: nothing of a stack trace or an internal error reaches the user. */
function noCrash(r: { stdout: string; stderr: string }): void {
  assert.doesNotMatch(r.stderr + r.stdout, /RangeError|Maximum call stack|internal error|\n\s+at /);
}

/** `text` with the first match of `at` replaced by its group 1 (the key) and the deep value. */
function deepen(text: string, at: RegExp): string {
  assert.match(text, at);
  const out = text.replace(at, (_m, keep: string) => keep + DEEP);
  JSON.parse(out); // still JSON: only the value changed
  return out;
}

const TREE = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  'src/a.ts': 'export function a() { return 1; }\n',
  'src/b.ts': "import { a } from './a';\nexport function b() { return a(); }\n",
};

describe('values nested 5,000 deep', () => {
  let root = '';
  let graphText = '';
  let manifestText = '';
  const dir = () => path.join(root, '.knowledge-graph');
  const graphFile = () => path.join(dir(), 'graph.json');
  const manifestFile = () => path.join(dir(), 'graph.manifest.json');

  before(() => {
    root = tempDir();
    writeTree(root, TREE);
    assert.equal(kg(['build', '--apply'], root).code, 0);
    graphText = fs.readFileSync(graphFile(), 'utf8');
    manifestText = fs.readFileSync(manifestFile(), 'utf8');
  });
  after(removeTempDirs);

  const restore = () => {
    fs.writeFileSync(graphFile(), graphText);
    fs.writeFileSync(manifestFile(), manifestText);
    fs.rmSync(path.join(dir(), 'config.json'), { force: true });
  };

  for (const [where, at] of [
    ['manifestVersion', /("manifestVersion": )7/],
    ['a file record', /("src\/a\.ts": )\{[^\n]*\}/],
  ] as const) {
    it(`in the manifest's ${where}: kg status answers and kg build --apply makes a full build`, () => {
      restore();
      fs.writeFileSync(manifestFile(), deepen(manifestText, at));
      const status = kg(['status'], root);
      noCrash(status);
      assert.ok(status.code === 0 || status.code === 3, `kg status exits 0 or 3, not ${status.code}`);
      const build = kg(['build', '--apply'], root);
      noCrash(build);
      assert.equal(build.code, 0, build.stderr);
      assert.match(build.stderr, /full build: the manifest/);
      assert.equal(fs.readFileSync(graphFile(), 'utf8'), graphText, 'the rebuilt graph is the same graph');
      assert.ok(fs.readFileSync(manifestFile(), 'utf8').startsWith('{\n  "manifestVersion": 7,'), 'a fresh manifest');
    });
  }

  for (const [where, at] of [
    ['schemaVersion', /("schemaVersion": )1/],
    ['a node label', /("label":)"a"/],
    ['an edge confidence', /("confidence":)"EXACT"/],
  ] as const) {
    it(`in graph.json's ${where}: every query, kg check --base and kg doctor say why, with their exit codes`, () => {
      restore();
      fs.writeFileSync(graphFile(), deepen(graphText, at));
      for (const args of [
        ['callers', 'a'],
        ['check', '--base', graphFile()],
      ]) {
        const r = kg(args, root);
        noCrash(r);
        assert.equal(r.code, 3, `kg ${args[0]} exits 3 (the graph is unusable), got ${r.code}: ${r.stderr}`);
        assert.match(r.stdout, /"reason":\s*"[^"]*(schemaVersion|schema|must)/, `kg ${args[0]} says why`);
      }
      const doctor = kg(['doctor'], root);
      noCrash(doctor);
      assert.equal(doctor.code, 1);
    });
  }

  it("in config.json's rationale.recordFolders entry: the build succeeds and says what it ignored", () => {
    restore();
    fs.writeFileSync(path.join(dir(), 'config.json'), `{"graph":{"enabled":true},"rationale":{"recordFolders":["docs/adr",${DEEP}]}}`);
    const build = kg(['build', '--apply', '--full'], root);
    noCrash(build);
    assert.equal(build.code, 0, build.stderr);
    assert.match(build.stderr, /"rationale\.recordFolders" entry \[\[\[\[\[…\]\]\]\]\] is not a repository-relative path; ignored/);
  });

  for (const [where, config, says] of [
    ['graph.mode', `{"graph":{"enabled":true,"mode":${DEEP}}}`, /"graph\.mode" must be one of .* \(found \[\[\[\[\[…\]\]\]\]\]\)/],
    ['level', `{"graph":{"enabled":true},"level":${DEEP}}`, /"level" must be an integer .* \(found \[\[\[\[\[…/],
    ['graph', `{"graph":${DEEP}}`, /"graph" must be an object/],
  ] as const) {
    it(`in config.json's ${where}: kg config and kg check report the problem`, () => {
      restore();
      fs.writeFileSync(path.join(dir(), 'config.json'), config);
      for (const command of ['config', 'check']) {
        const r = kg([command], root);
        noCrash(r);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, says);
      }
    });
  }
});
