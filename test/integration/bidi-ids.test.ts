// A file name holding U+202E (RIGHT-TO-LEFT OVERRIDE): `a\u202Egnp.ts` shows as `ast.png`. Ids keep
// the name as it is, so they round-trip; what people read — the CLI's JSON, kg diff's report and
// pull-request comment — writes it as `\u202e` (issue 55, ADR 144). Real kg processes on a real git
// repository.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { gitRun } from '../helpers/hostile-git';

const RLO = '\u202e';
const NAME = `a${RLO}gnp`;

describe('a bidirectional control in a file name: escaped where shown, raw in the id', () => {
  let repo: string;
  const kg = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, KG_SERVER: 'off', CI: 'true', XDG_RUNTIME_DIR: tempDir('kg-bidi-state-') },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  before(() => {
    repo = tempDir('kg-bidi-repo-');
    gitRun(repo, ['init', '--quiet', '--initial-branch=main']);
    writeTree(repo, {
      'tsconfig.json': '{ "include": ["src"] }\n',
      'src/main.ts': 'export function main(): number {\n  return 1;\n}\n',
      '.gitignore': '.knowledge-graph/\n',
    });
    gitRun(repo, ['add', '-A']);
    gitRun(repo, ['commit', '--quiet', '-m', 'base']);
    gitRun(repo, ['checkout', '--quiet', '-b', 'feature']);
    writeTree(repo, {
      [`src/${NAME}.ts`]: 'export function f(): number {\n  return 2;\n}\n',
      'src/main.ts': `import { f } from './${NAME}';\nexport function main(): number {\n  return f();\n}\n`,
    });
    gitRun(repo, ['add', '-A']);
    gitRun(repo, ['commit', '--quiet', '-m', 'a file with U+202E in its name']);
    const built = kg(['build', '--apply']);
    assert.equal(built.code, 0, built.stderr);
  });
  after(removeTempDirs);

  it('kg query shows it escaped; the id parsed from that output is answered by kg callers', () => {
    const q = kg(['query', 'gnp']);
    assert.equal(q.code, 0, q.stderr);
    assert.equal(q.stdout.includes(RLO), false, 'the raw control reached the terminal');
    assert.match(q.stdout, /a\\u202egnp\.ts/);
    const id = (JSON.parse(q.stdout) as { matches: string[] }).matches.find((m) => m.endsWith('#f'));
    assert.equal(id, `sym:src/${NAME}.ts#f`);
    const callers = kg(['callers', id as string]);
    assert.equal(callers.code, 0, callers.stderr);
    assert.equal((JSON.parse(callers.stdout) as { callers: string[] }).callers.includes('sym:src/main.ts#main'), true);
  });

  it('kg diff: the JSON report and the pull-request comment show it escaped', () => {
    for (const format of ['json', 'markdown']) {
      const d = kg(['diff', 'main', 'feature', '--format', format]);
      assert.equal(d.code, 0, d.stderr);
      assert.equal(d.stdout.includes(RLO), false, `${format}: the raw control is in the report`);
      assert.match(d.stdout, /a\\+u202egnp/, format);
    }
  });
});
