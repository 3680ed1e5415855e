// code-server under the test's control: a throw-away profile, the packaged .vsix installed into it,
// started on 127.0.0.1 in its own process group (so its file watcher, extension host and tsserver
// children stop with it), and stopped by that group id — also when a test fails or the run is
// interrupted. The port is chosen by the server (port 0): several runs can share a machine.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { killGroup, groupAlive, waitFor } from './processes';

/** A quiet, deterministic workbench (no welcome page, update checks or telemetry), plus the
 *  built-in TypeScript references lens, which the harness's own checks use. */
export const E2E_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'git.enabled': false,
  'typescript.tsserver.experimental.enableProjectDiagnostics': false,
  'typescript.referencesCodeLens.enabled': true,
};

export interface ServerPaths {
  /** The code-server install (scripts/e2e/setup.sh prints it). */
  csDir: string;
  /** A fresh directory for this run: profile, extensions, temp files, logs. */
  stateDir: string;
}

/** The Node binary code-server (and so the extension host, and the builds it starts) runs on. */
export function nodeFor(csDir: string): string {
  const f = path.join(csDir, '.kg-node');
  return fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim() : process.execPath;
}

function serverEnv(stateDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const tmp = path.join(stateDir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  // code-server writes its config and logs under XDG dirs, VS Code its IPC sockets under TMPDIR:
  // keep all of it inside the run's state directory.
  return {
    ...process.env,
    ...extra,
    XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    TMPDIR: tmp,
  };
}

function csArgs(p: ServerPaths): string[] {
  return [
    path.join(p.csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    '--user-data-dir',
    path.join(p.stateDir, 'data'),
    '--extensions-dir',
    path.join(p.stateDir, 'extensions'),
  ];
}

/** Installs a .vsix the way a user does; returns the installed extension's folder. */
export function installVsix(p: ServerPaths, vsix: string, extensionId: string): string {
  const r = spawnSync(nodeFor(p.csDir), [...csArgs(p), '--install-extension', vsix], {
    env: serverEnv(p.stateDir),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  fs.writeFileSync(path.join(p.stateDir, 'install-extension.log'), out);
  if (r.status !== 0) throw new Error(`code-server --install-extension ${vsix} failed (${r.status ?? r.signal}):\n${out}`);
  const dir = fs.readdirSync(path.join(p.stateDir, 'extensions')).find((d) => d.toLowerCase().startsWith(extensionId.toLowerCase() + '-'));
  if (!dir) throw new Error(`after installing ${vsix}, no ${extensionId}-* folder is in the extensions directory:\n${out}`);
  return path.join(p.stateDir, 'extensions', dir);
}

/** What `code-server --list-extensions --show-versions` says is installed: `publisher.name@version` lines. */
export function listExtensions(p: ServerPaths): string[] {
  const r = spawnSync(nodeFor(p.csDir), [...csArgs(p), '--list-extensions', '--show-versions'], {
    env: serverEnv(p.stateDir),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0)
    throw new Error(`code-server --list-extensions failed (${r.status ?? r.signal}):\n${r.stdout ?? ''}${r.stderr ?? ''}`);
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[\w-]+\.[\w-]+@/.test(l));
}

function writeUserSettings(stateDir: string, extra: Record<string, unknown> = {}): void {
  const dir = path.join(stateDir, 'data', 'User');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ ...E2E_SETTINGS, ...extra }, null, 2));
}

export interface RunningServer {
  url: string;
  pid: number;
  logFile: string;
  /** Stops the whole process group; resolves once no process of it is left. */
  stop(): Promise<void>;
}

/** `env`: variables the editor (and so the extension host and the builds it starts) sees besides the test's own. */
export async function startServer(p: ServerPaths, folder: string, port = 0, env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  writeUserSettings(p.stateDir);
  const logFile = path.join(p.stateDir, 'server.log');
  const fd = fs.openSync(logFile, 'w');
  const args = [
    ...csArgs(p),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    folder,
  ];
  // detached: the child calls setsid(), so its pid is the id of a new process group that every
  // process it starts inherits.
  const child = spawn(nodeFor(p.csDir), args, { env: serverEnv(p.stateDir, env), stdio: ['ignore', fd, fd], detached: true });
  fs.closeSync(fd);
  const pid = child.pid;
  if (pid === undefined) throw new Error('code-server did not start');
  child.unref();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await killGroup(pid);
    process.removeListener('exit', onExit);
  };
  // Last resort if the test process dies without reaching stop(): take the group down with it.
  const onExit = () => {
    if (!stopped && groupAlive(pid)) process.kill(-pid, 'SIGKILL');
  };
  process.on('exit', onExit);
  try {
    let url = '';
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}:\n${fs.readFileSync(logFile, 'utf8')}`);
        const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(fs.readFileSync(logFile, 'utf8'));
        if (m) url = m[1];
        return !!m;
      },
      60_000,
      'code-server to listen',
    );
    await waitFor(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.ok === true, 30_000, 'code-server /healthz');
    return { url, pid, logFile, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
