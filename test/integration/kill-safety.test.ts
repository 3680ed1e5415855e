// Kill safety: SIGKILL `kg build --apply` at random moments, many times. After every kill,
// graph.json is the old graph or the new one — complete, never torn — its manifest is one of
// the two as well, and temp files never pile up; the next build cleans up and finishes.
// KG_KILL_ITERATIONS raises the count locally; KG_SEED replays a run (test/helpers/seed.ts).

import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, lockPathFor, runDoctor, serializeGraph } from '../../src/graph';
import { random } from '../helpers/equivalence';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { SEED } from '../helpers/seed';

const ITERATIONS = Number(process.env.KG_KILL_ITERATIONS ?? 30);

function tree(version: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 150; i++) {
    const next = (i + 1) % 150;
    files[`src/d${i % 7}/m${i}.ts`] =
      `import { f${next} } from '../d${next % 7}/m${next}';\nexport function f${i}() { return f${next}; }\n${version === 1 && i % 3 === 0 ? `export class C${i} { run() { return f${i}(); } }\n` : ''}`;
  }
  return files;
}

type KillPlan = { afterMs: number } | { whenFile: RegExp; inDir?: string; afterMs: number } | undefined;

/**
 * Runs `kg build --apply` and kills it: `afterMs` after the start, or `afterMs` after a file
 * matching `whenFile` appears in the graph's folder (seen through fs.watch) — which aims kills at
 * the short moments that matter: the candidate written and checked, the renames, the manifest.
 */
function runAndKill(root: string, plan: KillPlan): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'build', '--apply'], { cwd: root, stdio: 'ignore' });
  const timers: NodeJS.Timeout[] = [];
  const kill = (ms: number) => timers.push(setTimeout(() => child.kill('SIGKILL'), ms));
  let watcher: fs.FSWatcher | undefined;
  if (plan && 'whenFile' in plan) {
    const re = plan.whenFile;
    let armed = true;
    watcher = fs.watch(plan.inDir ?? path.join(root, '.knowledge-graph'), (_event, name) => {
      if (armed && name && re.test(String(name))) {
        armed = false;
        kill(plan.afterMs);
      }
    });
  } else if (plan) {
    kill(plan.afterMs);
  }
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      watcher?.close();
      resolve({ code, signal, ms: performance.now() - started });
    }),
  );
}

describe('kill safety', () => {
  after(removeTempDirs);

  it(`graph.json is always the old or the new complete graph across ${ITERATIONS} SIGKILLs during --apply (seed ${SEED})`, async () => {
    const root = tempDir();
    const dir = path.join(root, '.knowledge-graph');
    const graphFile = path.join(dir, 'graph.json');
    const manifestFile = path.join(dir, 'graph.manifest.json');
    const lock = lockPathFor(graphFile);
    // The two versions of the tree and their graphs, computed in-process by a full build.
    const texts: string[] = [];
    const manifests: string[] = [];
    for (const v of [0, 1]) {
      writeTree(root, tree(v));
      const r = await runAndKill(root, undefined);
      assert.equal(r.code, 0);
      texts.push(fs.readFileSync(graphFile, 'utf8'));
      manifests.push(fs.readFileSync(manifestFile, 'utf8'));
      assert.equal(texts[v], serializeGraph(buildGraph({ root }).graph));
    }
    assert.notEqual(texts[0], texts[1]);
    // How long an undisturbed build takes, for kills spread over the whole run.
    writeTree(root, tree(0));
    const timing = await runAndKill(root, undefined);
    assert.equal(timing.code, 0);
    const total = timing.ms;
    const rand = random(SEED);
    let version = 0;
    let killed = 0;
    let finished = 0;
    let inCandidate = 0;
    let betweenRenames = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const current = fs.readFileSync(graphFile, 'utf8');
      const old = texts.indexOf(current);
      assert.ok(old >= 0, 'the current graph is one of the two');
      version = 1 - old;
      writeTree(root, tree(version));
      // A third anywhere in the run; a third once the candidate appears (while it is written,
      // checked and renamed, and the manifest follows); a third once the lock is taken.
      const pick = rand();
      const plan: KillPlan =
        pick < 1 / 3
          ? { afterMs: rand() * total * 1.1 }
          : pick < 2 / 3
            ? { whenFile: /^graph\.json\.kg-tmp-/, afterMs: rand() * 20 }
            : { whenFile: new RegExp(`^${path.basename(lock)}$`), inDir: path.dirname(lock), afterMs: rand() * total * 0.5 };
      const r = await runAndKill(root, plan);
      const delay = plan.afterMs;
      if (r.signal === 'SIGKILL') killed++;
      else {
        assert.equal(r.code, 0, `iteration ${i}: the build failed`);
        finished++;
      }
      const after = fs.readFileSync(graphFile, 'utf8');
      assert.ok(
        after === texts[old] || after === texts[version],
        `iteration ${i} (seed ${SEED}, kill at ${delay.toFixed(0)} ms): graph.json is neither the old nor the new graph`,
      );
      assert.ok(manifests.includes(fs.readFileSync(manifestFile, 'utf8')), `iteration ${i}: the manifest is torn`);
      const temps = fs.readdirSync(dir).filter((f) => f.includes('.kg-tmp-'));
      if (r.signal === 'SIGKILL' && temps.some((f) => f.startsWith('graph.json.kg-tmp-'))) inCandidate++;
      if (after === texts[version] && fs.readFileSync(manifestFile, 'utf8') !== manifests[version]) betweenRenames++;
      assert.ok(temps.length <= 2, `iteration ${i}: temp files pile up: ${temps.join(', ')}`);
    }
    assert.ok(killed > 0, 'some builds were killed');
    assert.ok(inCandidate > 0, 'some kills landed while the candidate was written or checked');
    // One undisturbed build cleans up after all of them and gives the right graph.
    const last = await runAndKill(root, undefined);
    assert.equal(last.code, 0);
    assert.equal(fs.readFileSync(graphFile, 'utf8'), texts[version]);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['graph.json', 'graph.manifest.json']);
    assert.ok(!fs.existsSync(lock), 'the lock a killed build left was taken over, then released');
    assert.equal(runDoctor(JSON.parse(texts[version])).ok, true);
    process.stderr.write(
      `kill safety: ${killed} killed (${inCandidate} with a candidate on disk, ${betweenRenames} between the graph and the manifest), ${finished} finished, seed ${SEED}\n`,
    );
  });
});
