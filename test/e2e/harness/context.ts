// What a UI test file gets from the launcher (test/e2e/run.ts): the running server, the run's
// state and artifacts folders, and fresh copies of the e2e workspaces.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { it } from 'node:test';
import { startServer, type RunningServer } from './server';
import { showExplorer, Workbench } from './workbench';

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: UI tests run through "npm run test:e2e", which starts the editor`);
  return v;
}

export const E2E = {
  get url(): string {
    return need('KG_E2E_URL');
  },
  get state(): string {
    return need('KG_E2E_STATE');
  },
  get artifacts(): string {
    return need('KG_E2E_ARTIFACTS');
  },
  /** The packaged .vsix. */
  get vsix(): string {
    return need('KG_E2E_VSIX');
  },
  /** The code-server install (a test that needs an editor of its own starts one from it). */
  get csDir(): string {
    return need('KG_E2E_CS_DIR');
  },
  /** The folder the packaged .vsix was installed into. */
  get extensionDir(): string {
    return need('KG_E2E_EXTENSION_DIR');
  },
};

const WORKSPACES = path.join(__dirname, '..', 'workspaces');
let copies = 0;

/** A fresh copy of test/e2e/workspaces/<name>, in the run's state folder (the server reads it). */
export function makeWorkspace(name: string): string {
  const dest = path.join(E2E.state, 'workspaces', `${name}-${++copies}-${process.pid}`);
  fs.cpSync(path.join(WORKSPACES, name), dest, { recursive: true });
  return dest;
}

export function openWorkbench(folder: string, name: string): Promise<Workbench> {
  return Workbench.open({ url: E2E.url, folder, artifacts: path.join(E2E.artifacts, 'screenshots'), name });
}

/** A node:test `it` whose failure leaves a screenshot of the workbench in the artifacts folder. */
export function itInEditor(title: string, workbench: () => Workbench | undefined, body: () => Promise<void>): void {
  it(title, async () => {
    const wb = workbench();
    if (!wb) throw new Error('the workbench did not open (see the before hook)');
    await wb.step(title, body);
  });
}

/** An editor of the test's own: code-server on `state` (its profile and extensions folder) with `folder` open, the Explorer shown. */
export async function ownEditor(state: string, folder: string, name: string): Promise<{ server: RunningServer; wb: Workbench }> {
  const server = await startServer({ csDir: E2E.csDir, stateDir: state }, folder);
  try {
    const wb = await Workbench.open({ url: server.url, folder, artifacts: path.join(E2E.artifacts, 'screenshots'), name });
    await showExplorer(wb);
    return { server, wb };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** Stops an editor of the test's own and keeps its code-server logs beside the run's (logs/<name>-code-server). */
export async function closeOwnEditor(state: string, name: string, editor: { server?: RunningServer; wb?: Workbench }): Promise<void> {
  await editor.wb?.close();
  await editor.server?.stop();
  const logs = path.join(state, 'data', 'logs');
  if (fs.existsSync(logs)) fs.cpSync(logs, path.join(E2E.artifacts, 'logs', `${name}-code-server`), { recursive: true });
}
