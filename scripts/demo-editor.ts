// `npm run demo:editor`: the README's first command, in the editor. Builds the graph of rxjs's
// sources with the CLI (scripts/demo.mjs prints the summary and the top nodes), then opens that
// folder in a real VS Code (code-server, with the packaged .vsix installed) at a local address,
// runs "Knowledge Graph: Build Knowledge Graph" there once to show it working (a screenshot goes
// to .e2e-artifacts/demo-editor.png), opens the graph explorer around rxjs's `map` (demo-explorer.png),
// and serves the editor until Ctrl+C.
//
// env: KG_DEMO_PORT (default 8765; 0 picks a free one), KG_DEMO_ONCE=1 stops after the screenshot.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EXTENSION_ID, BUILD_TITLE } from '../test/e2e/expected';
import { REPO } from '../test/e2e/harness/bundle';
import { installVsix, startServer } from '../test/e2e/harness/server';
import { Workbench } from '../test/e2e/harness/workbench';

const DEMO_FILE = 'src/internal/operators/map.ts';
const DEMO_DECLARATION = 'export function map<T, R>(project: (value: T, index: number) => R): OperatorFunction<T, R>;';

function step(cmd: string, args: string[], what: string, capture = false): string {
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`demo:editor: ${what} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  return r.stdout ?? '';
}

async function main(): Promise<void> {
  step('node', ['scripts/demo.mjs'], 'building the rxjs graph with the CLI');
  const csDir = step('bash', ['scripts/e2e/setup.sh'], 'installing the editor (scripts/e2e/setup.sh)', true).trim().split('\n').pop() ?? '';
  step('npm', ['run', '--silent', 'package'], 'npm run package');
  const folder = path.join(REPO, '.demo', 'rxjs');
  const state = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kg-demo-')));
  installVsix({ csDir, stateDir: state }, path.join(REPO, 'knowledge-graph.vsix'), EXTENSION_ID);
  const server = await startServer({ csDir, stateDir: state }, folder, Number(process.env.KG_DEMO_PORT ?? 8765));
  const stop = async () => {
    await server.stop();
    fs.rmSync(state, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void stop().finally(() => process.exit(0)));
  process.on('SIGTERM', () => void stop().finally(() => process.exit(0)));
  const address = `${server.url}/?folder=${encodeURIComponent(folder)}`;
  try {
    const artifacts = path.join(REPO, '.e2e-artifacts');
    const wb = await Workbench.open({ url: server.url, folder, artifacts, name: 'demo' });
    try {
      await wb.ready();
      await wb.runCommand(BUILD_TITLE);
      const note = await wb.waitForNotification(/built|failed/, 300_000);
      await wb.page.screenshot({ path: path.join(artifacts, 'demo-editor.png') });
      console.log(`\nIn the editor: ${note.message}`);
      console.log(`Screenshot: ${path.relative(process.cwd(), path.join(artifacts, 'demo-editor.png'))}`);
      // The explorer on one operator: its callers lens, then Explore Neighbors at the declaration.
      try {
        await wb.openFile(DEMO_FILE, DEMO_DECLARATION);
        await wb.waitForCodeLens(/caller/);
        await wb.page.locator('.monaco-editor .view-line', { hasText: DEMO_DECLARATION }).first().click();
        await wb.runCommand('Knowledge Graph: Explore Neighbors');
        await wb.webview().locator('#cy canvas').first().waitFor({ timeout: 60_000 });
        await wb.page.waitForTimeout(1500); // the layout settles and is painted
        await wb.page.screenshot({ path: path.join(artifacts, 'demo-explorer.png') });
        console.log(`The graph explorer around map: ${path.relative(process.cwd(), path.join(artifacts, 'demo-explorer.png'))}`);
      } catch (e) {
        console.log(`demo:editor: the explorer did not open (${(e as Error).message.split('\n')[0]}); the editor is still served`);
      }
    } finally {
      await wb.close();
    }
  } catch (e) {
    await stop();
    throw e;
  }
  if (process.env.KG_DEMO_ONCE === '1') {
    await stop();
    return;
  }
  console.log(`\nOpen ${address} in a browser (this machine only: it listens on 127.0.0.1).`);
  console.log('Run "Knowledge Graph: Build Knowledge Graph" from the command palette (F1). Ctrl+C stops the editor.');
  await new Promise(() => {}); // serve until a signal arrives
}

main().catch((e: unknown) => {
  console.error(`demo:editor: ${(e as Error)?.message ?? String(e)}`);
  process.exit(1);
});
