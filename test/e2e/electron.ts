// `npm run test:electron`: the same in-host suite (test/e2e/inhost) under @vscode/test-electron,
// for contributors on a desktop with network access. It downloads VS Code 1.100.3 from
// Microsoft's update servers into .vscode-test/ — which machines without that access (like this
// project's CI) cannot do; there, `npm run test:e2e` runs the suite through code-server.
// Only the launcher differs: the workspace, the settings and the suite are the same.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { bundleInHostSuite, REPO } from './harness/bundle';
import { E2E_SETTINGS } from './harness/server';

async function main(): Promise<number> {
  const testsEntry = await bundleInHostSuite();
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-electron-'));
  try {
    const workspace = path.join(state, 'workspace');
    fs.cpSync(path.join(__dirname, 'workspaces', 'basic'), workspace, { recursive: true });
    const userData = path.join(state, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(E2E_SETTINGS, null, 2));
    // The extension under test is the working tree (built by `npm run build`), as a development folder.
    await runTests({
      version: '1.100.3',
      extensionDevelopmentPath: REPO,
      extensionTestsPath: testsEntry,
      launchArgs: [workspace, '--user-data-dir', userData, '--extensions-dir', path.join(state, 'extensions'), '--disable-workspace-trust'],
    });
    return 0;
  } catch (e) {
    console.error(`test:electron failed: ${(e as Error).message}`);
    console.error(
      'If VS Code could not be downloaded, this machine cannot reach its update servers; run "npm run test:e2e" (code-server) instead.',
    );
    return 1;
  } finally {
    fs.rmSync(state, { recursive: true, force: true });
  }
}

void main().then((code) => process.exit(code));
