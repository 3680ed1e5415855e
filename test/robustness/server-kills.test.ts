// Kill the build server during a hand-off: a client's `kg build --apply` is running on the server
// when the server is SIGKILLed at a seeded random moment. The client must finish anyway (the server
// answered, or the client builds itself), the graph must equal a full build of the tree, and no
// graph may be torn. KG_SEED replays a run.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, runDoctor, serializeGraph } from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const SEED = Number(process.env.KG_SEED ?? 16);
const ROUNDS = 4;

function tree(round: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++)
    files[`src/m${i}.ts`] =
      `import { f${(i + 1) % 40} } from './m${(i + 1) % 40}';\nexport function f${i}() { return f${(i + 1) % 40}; }\n${i === round ? `export function extra${round}() { f${i}(); }\n` : ''}`;
  return files;
}

describe(`killing the build server during a hand-off (seed ${SEED})`, () => {
  after(removeTempDirs);
  const sockets = tempDir('kg-kill-servers-');
  fs.chmodSync(sockets, 0o700);
  const env = { ...process.env, KG_SERVER: 'on', KG_SERVER_DIR: sockets };
  const kg = (args: string[], cwd: string) => spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  after(() => {
    for (const root of roots) kg(['server', 'stop'], root);
  });
  const roots: string[] = [];

  it('the client finishes, and the graph equals a full build every round', async () => {
    const root = tempDir('kg-kill-server-');
    roots.push(root);
    writeTree(root, tree(-1));
    let a = SEED >>> 0;
    const rand = () => (a = (a * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      assert.equal(kg(['build', '--apply'], root).status, 0);
      let pid: number | undefined;
      for (let waited = 0; waited < 60_000 && pid === undefined; waited += 200) {
        const status = JSON.parse(kg(['server', 'status'], root).stdout) as { running: boolean; pid?: number; socket: string };
        if (status.running && fs.existsSync(status.socket)) pid = status.pid;
        else await new Promise((r) => setTimeout(r, 200));
      }
      assert.ok(pid, 'a server started');
      writeTree(root, tree(round));
      const delay = 150 + Math.floor(rand() * 1200);
      const client = spawn(process.execPath, [CLI, 'build', '--apply'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      client.stderr.on('data', (d) => (stderr += d));
      setTimeout(() => {
        try {
          process.kill(pid as number, 'SIGKILL');
        } catch {
          // already gone
        }
      }, delay);
      const code = await new Promise<number | null>((resolve) => client.on('exit', resolve));
      assert.equal(code, 0, stderr);
      outcomes.push(
        `killed after ${delay} ms: ${/building here instead/.test(stderr) ? 'mid-build; the client built itself' : /built by the build server/.test(stderr) ? 'the server had finished' : 'before the server answered; the client built itself'}`,
      );
      const text = fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8');
      assert.ok(runDoctor(JSON.parse(text)).ok);
      assert.equal(text, serializeGraph(buildGraph({ root }).graph), 'the graph equals a full build');
    }
    console.log(`# server kills (seed ${SEED}): ${outcomes.join('; ')}`);
  });
});
