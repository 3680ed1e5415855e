// "Knowledge Graph: Build Knowledge Graph" as a user meets it: the packaged .vsix installed in a
// real VS Code (code-server), driven through the command palette in Chromium.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { assertValidGraph } from '../../helpers/schema';
import { buildProcessesOf } from '../../helpers/processes';
import { BASIC_NODE_IDS, BUILD_TITLE, EXTENSION_ID } from '../expected';
import { E2E, itInEditor, makeWorkspace, openWorkbench } from '../harness/context';
import type { Workbench } from '../harness/workbench';

const CLI = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function graphFile(ws: string): string {
  return path.join(ws, '.knowledge-graph', 'graph.json');
}

/** Every extension-host log file code-server wrote in this run. */
function extensionHostLogs(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/exthost.*\.log$/i.test(e.name)) out.push(p);
    }
  };
  walk(path.join(E2E.state, 'data', 'logs'));
  return out;
}

describe('the extension in the editor', () => {
  let wb: Workbench;
  let ws: string;

  before(async () => {
    ws = makeWorkspace('basic');
    wb = await openWorkbench(ws, 'build');
    await wb.ready();
  });
  after(async () => wb?.close());

  itInEditor(
    'activates without an error notification and logs its activation',
    () => wb,
    async () => {
      await wb.runCommand('Knowledge Graph: Show Log');
      await wb.page
        .locator('.part.panel .view-lines', {
          hasText: /Knowledge\sGraph\s\d+\.\d+\.\d+\sactivated/ /* \s: the editor renders spaces as U+00A0 */,
        })
        .waitFor({ timeout: 30_000 });
      await wb.screenshot('log-channel-after-activation');
      const errors = (await wb.allNotifications()).filter((n) => n.severity === 'error');
      assert.deepEqual(errors, []);
      const logs = extensionHostLogs();
      assert.ok(logs.length > 0, 'code-server wrote an extension host log');
      const failures = logs
        .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'))
        .filter((l) => l.toLowerCase().includes(EXTENSION_ID) && /\b(error|failed)\b/i.test(l));
      assert.deepEqual(failures, []);
    },
  );

  itInEditor(
    'lists its commands in the palette',
    () => wb,
    async () => {
      const entries = await wb.paletteEntries('Knowledge Graph');
      await wb.screenshot('palette');
      await wb.closePalette();
      assert.ok(entries.includes(BUILD_TITLE), JSON.stringify(entries));
      assert.ok(entries.includes('Knowledge Graph: Show Log'), JSON.stringify(entries));
    },
  );

  itInEditor(
    'builds the workspace: graph.json holds every declared node, the summary says so',
    () => wb,
    async () => {
      assert.ok(!fs.existsSync(graphFile(ws)));
      await wb.runCommand(BUILD_TITLE);
      const note = await wb.waitForNotification(/built ".*": \d+ nodes/);
      await wb.screenshot('build-summary');
      const graph = JSON.parse(fs.readFileSync(graphFile(ws), 'utf8'));
      assertValidGraph(graph);
      assert.deepEqual(graph.nodes.map((n: { id: string }) => n.id).sort(), BASIC_NODE_IDS);
      assert.equal(note.severity, 'info');
      const expected = `built "${path.basename(ws)}": ${BASIC_NODE_IDS.length} nodes, ${graph.edges.length} edges, layers ${graph.layers.join(', ')}, 0 files skipped`;
      assert.ok(note.message.includes(expected), `${JSON.stringify(note.message)} should include ${JSON.stringify(expected)}`);
    },
  );
});

describe('a failed build', () => {
  let wb: Workbench;
  let ws: string;

  before(async () => {
    ws = makeWorkspace('basic');
    // The previous graph, built by the CLI before the editor opens.
    const r = spawnSync(process.execPath, [CLI, 'build', '--apply', '--root', ws], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    fs.writeFileSync(path.join(ws, 'tsconfig.json'), '{ "compilerOptions": { "strict": true,, }\n');
    wb = await openWorkbench(ws, 'broken-tsconfig');
    await wb.ready();
  });
  after(async () => wb?.close());

  itInEditor(
    'on a broken tsconfig shows why and leaves the previous graph byte for byte',
    () => wb,
    async () => {
      const before = fs.readFileSync(graphFile(ws));
      await wb.runCommand(BUILD_TITLE);
      const note = await wb.waitForNotification(/failed/);
      await wb.screenshot('broken-tsconfig-error');
      assert.equal(note.severity, 'error');
      assert.match(note.message, /tsconfig\.json:1:\d+: cannot parse/);
      assert.match(note.message, /previous graph is unchanged/);
      assert.deepEqual(fs.readFileSync(graphFile(ws)), before);
    },
  );
});

describe('a cancelled build', () => {
  let wb: Workbench;
  let ws: string;

  before(async () => {
    // Big enough that the build is still running when Cancel is clicked: 5,000 generated files.
    ws = makeWorkspace('basic');
    const big = path.join(ws, 'src', 'generated');
    fs.mkdirSync(big);
    for (let i = 0; i < 5000; i++) {
      let text = '';
      for (let j = 0; j < 40; j++) text += `export function f${i}_${j}(a: number): number {\n  return a + ${j};\n}\n`;
      fs.writeFileSync(path.join(big, `m${i}.ts`), text);
    }
    fs.mkdirSync(path.join(ws, '.knowledge-graph'));
    fs.writeFileSync(graphFile(ws), 'the previous graph\n');
    wb = await openWorkbench(ws, 'cancel');
    await wb.ready();
  });
  after(async () => wb?.close());

  itInEditor(
    'Cancel stops the build process and leaves the previous graph',
    () => wb,
    async () => {
      await wb.runCommand(BUILD_TITLE);
      // The child process is running and reporting file counts: cancel now.
      await wb
        .notification(/building ".*": (extract|resolve): \d+ of 5003 files/)
        .first()
        .waitFor({ timeout: 60_000 });
      await wb.screenshot('build-progress');
      await wb.clickNotificationButton(/building/, 'Cancel');
      const note = await wb.waitForNotification(/cancelled/);
      await wb.screenshot('build-cancelled');
      assert.match(note.message, /previous graph is unchanged/);
      assert.equal(fs.readFileSync(graphFile(ws), 'utf8'), 'the previous graph\n');
      assert.deepEqual(buildProcessesOf(ws), [], 'no build process is left');
    },
  );
});
