// What sharing the editor's TypeScript 7 server would save a native build (issue 49's third item,
// ADR 197): the Go side's cost of starting a process of its own and loading the project, against
// attaching to a language server that already holds it.
//
//   node --import tsx bench/native-attach.ts [zod] [rxjs]
//
// Own process: the native route's own start (native-api.ts: `tsc --api`, TypeScript 7.1) and its
// first snapshot opening the corpus's tsconfig with its programs made, as a build's first project
// does. Attached: the pinned binary as the editor runs it (`tsc --lsp --stdio`), one file of the
// corpus opened so that it loads the project and is asked for that file's diagnostics (what the
// editor has paid before any build); then an API session on its pipe (`custom/initializeAPISession`)
// and (a) the language server's current snapshot, the project it holds, and (b) a snapshot made on
// it with a second project from the same options, given in a file-system layer as a build would
// serve its own config (ADR 197's design). CPU is the Go process's user and system time from
// `/proc/<pid>/stat` (every thread), read before and after; medians of KG_ATTACH_REPS rounds (3).
// The corpora are bench/corpus.ts's TypeScript 7 copies. Linux only.

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { nativeBinary, nativeLibrary, type NativeFiles } from '../src/graph/indexer/compiler/native-api';
import { initializeLanguageServer, openInEditor, Rpc } from '../test/helpers/json-rpc';
import { corpusForTs7 } from './corpus';

const REPS = Number(process.env.KG_ATTACH_REPS ?? 3);
const FIRST_FILE: Record<string, string> = { zod: 'src/index.ts', rxjs: 'src/index.ts' };

function procCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** This process's child running `tsc --api`: the native route's Go process. */
function apiChild(): number {
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
    try {
      const ppid = /^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (ppid === String(process.pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--api')) return Number(pid);
    } catch {
      // gone meanwhile
    }
  throw new Error('no `tsc --api` child');
}

const osFiles: NativeFiles = {
  readFile: () => 'os',
  fileExists: () => 'os',
  directoryExists: () => 'os',
  realpath: () => 'os',
  entries: () => 'os',
};

interface Cost {
  cpuMs: number;
  wallMs: number;
}

/** A process of the build's own, as the native route starts it, and its first project. */
function ownProcess(exe: string, root: string): Cost {
  const lib = nativeLibrary('7.1');
  const t0 = performance.now();
  const api = lib.start(exe, root, osFiles);
  const config = `${root}/tsconfig.json`;
  const snapshot = lib.snapshot(api, undefined, { open: [config] });
  if (!lib.project(snapshot, config)) throw new Error(`TypeScript 7 did not open ${config}`);
  const wallMs = performance.now() - t0;
  const cpuMs = procCpuMs(apiChild());
  api.close();
  return { cpuMs, wallMs };
}

interface ServerCosts {
  /** The language server's loading of the project and one file's diagnostics: the editor's. */
  editor: Cost;
  /** Attaching and asking for the language server's snapshot, the project it holds. */
  current: Cost;
  /** A snapshot on it with the build's own config as a second project (ADR 197's design). */
  layered: Cost;
}

async function measured(pid: number, work: () => Promise<unknown>): Promise<Cost> {
  const c0 = procCpuMs(pid);
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  // The server's threads may finish a moment after the answer: read again after a beat.
  await new Promise((r) => setTimeout(r, 200));
  return { cpuMs: procCpuMs(pid) - c0, wallMs };
}

async function attached(exe: string, root: string, first: string): Promise<ServerCosts> {
  const server = spawn(exe, ['--lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
  const pid = server.pid as number;
  const lsp = new Rpc((b) => server.stdin.write(b), server.stdout);
  const editor = await measured(pid, async () => {
    await initializeLanguageServer(lsp, root, 'corpus');
    const file = path.join(root, first);
    const fileUri = openInEditor(lsp, file, fs.readFileSync(file, 'utf8'));
    // Asked as the editor asks them (pull diagnostics): the project loads and the file is checked.
    await lsp.request('textDocument/diagnostic', { textDocument: { uri: fileUri } });
  });
  const session = (await lsp.request('custom/initializeAPISession', {})) as { pipe: string };
  const socket = net.createConnection(session.pipe);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const api = new Rpc((b) => socket.write(b), socket);
  const config = `${root}/tsconfig.json`;
  let base = 0;
  const current = await measured(pid, async () => {
    await api.request('initialize', null);
    const s = (await api.request('getCurrentLanguageServerSnapshot', {})) as { snapshot: number; projects: { configFileName?: string }[] };
    if (!s.projects.some((p) => p.configFileName === config)) throw new Error(`the language server does not hold ${config}`);
    base = s.snapshot;
  });
  const served = `${root}/tsconfig.kg-native.json`;
  const layered = await measured(pid, async () => {
    const changes = {
      fileSystem: { kind: 'layer', files: { [served]: fs.readFileSync(config, 'utf8') } },
      openProjects: [served],
      ensurePrograms: true,
    };
    const s = (await api.request('updateSnapshot', { snapshot: base, changes })) as { projects: { configFileName?: string }[] };
    if (!s.projects.some((p) => p.configFileName === served)) throw new Error(`the layered snapshot does not hold ${served}`);
  });
  socket.destroy();
  await lsp.request('shutdown');
  lsp.notify('exit');
  if (server.exitCode === null) await new Promise((r) => server.once('exit', r));
  return { editor, current, layered };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const show = (xs: Cost[]): string =>
  `CPU ${median(xs.map((x) => x.cpuMs))} ms (${xs.map((x) => x.cpuMs).join(', ')}), wall ${Math.round(median(xs.map((x) => x.wallMs)))} ms`;

async function main(): Promise<void> {
  const binary = nativeBinary('7.1');
  if ('missing' in binary) throw new Error(binary.missing);
  const args = process.argv.slice(2);
  for (const name of (args.length > 0 ? args : ['zod', 'rxjs']) as ('zod' | 'rxjs')[]) {
    const root = corpusForTs7(name).root.split(path.sep).join('/');
    const own: Cost[] = [];
    const server: ServerCosts[] = [];
    for (let i = 0; i < REPS; i++) {
      own.push(ownProcess(binary.exe, root));
      server.push(await attached(binary.exe, root, FIRST_FILE[name]));
    }
    console.log(`${name} (TypeScript ${binary.version}), load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ', 3).join(' ')}`);
    console.log(`  own process, start and project: ${show(own)}`);
    console.log(`  the editor's server, project and one file's diagnostics: ${show(server.map((s) => s.editor))}`);
    console.log(`  attached, its current snapshot: ${show(server.map((s) => s.current))}`);
    console.log(`  attached, the build's config as a layered second project: ${show(server.map((s) => s.layered))}`);
  }
}

void main();
