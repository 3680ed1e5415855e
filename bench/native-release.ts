// The native route on TypeScript 7.1 against 7.0.2 (issue 49, ADR 186): `kg build --checker native
// --full` of zod and rxjs as TypeScript 7 projects, with `KG_NATIVE_TS` selecting the release, each
// against its own release's `tsc --noEmit` on the same options and files (the floor).
//
//   npm run build && node --import tsx bench/native-release.ts [zod] [rxjs]
//
// CPU is both processes' user and system time: kg's by GNU time, TypeScript 7's read from
// `/proc/<pid>/stat` while it runs, sampled every 20 ms and kept at its last reading. GNU time
// counts TypeScript 7's process too when kg has reaped it, which it usually has: the build's CPU
// is the larger of GNU time's and kg's own (from `/proc`, sampled the same way) plus TypeScript 7's,
// so that it is counted once either way (ADR 192: before, it was counted twice when reaped). Rounds alternate the releases
// and the floors; medians of KG_RELEASE_REPS rounds (3). Linux only. The project's config for the
// floor is the one kg serves TypeScript 7 (optionsAsJson of the build's options and its root files),
// written by bench/native-questions.ts's recording (its corpus copies in $TMPDIR/kg-native-questions).

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nativeBinary, nativeRelease, type NativeRelease } from '../src/graph/indexer/compiler/native-api';

const WORK = path.join(process.env.TMPDIR ?? '/tmp', 'kg-native-questions');
const CONFIG = 'tsconfig.kg-questions.json';
const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const REPS = Number(process.env.KG_RELEASE_REPS ?? 3);
const RELEASES: NativeRelease[] = ['7.1', '7.0'];

interface Sample {
  cpuMs: number;
  wallMs: number;
  goCpuMs?: number;
  /** kg's own process (Node), without its children. */
  nodeCpuMs?: number;
}

function procCpuMs(pid: string): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

/** TypeScript 7's `--api` processes whose ancestry reaches `root`. */
function apiProcesses(root: number): string[] {
  const parent = new Map<string, string>();
  const api: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      parent.set(pid, /^PPid:\s+(\d+)/m.exec(status)?.[1] ?? '0');
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--api')) api.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return api.filter((pid) => {
    for (let p: string | undefined = pid; p && p !== '0'; p = parent.get(p)) if (p === String(root)) return true;
    return false;
  });
}

/** kg's process: the child of GNU time. */
function kgProcess(time: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${time}/task/${time}/children`, 'utf8').trim().split(/\s+/)[0] || undefined;
  } catch {
    return undefined;
  }
}

async function kgBuild(root: string, release: NativeRelease): Promise<Sample> {
  const env = { ...process.env, KG_NATIVE_TS: release };
  const args = ['-f', 'cpu=%U+%S wall=%e', process.execPath, CLI, 'build', '--checker', 'native', '--full', '--no-server'];
  const child = spawn('/usr/bin/time', args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const go = new Map<string, number>();
  let nodeCpuMs = 0;
  const poll = setInterval(() => {
    for (const pid of apiProcesses(child.pid as number)) {
      const ms = procCpuMs(pid);
      if (ms !== undefined) go.set(pid, ms);
    }
    const kg = kgProcess(child.pid as number);
    const ms = kg && procCpuMs(kg);
    if (ms) nodeCpuMs = ms;
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(poll);
  const m = /cpu=([\d.]+)\+([\d.]+) wall=([\d.]+)/.exec(stderr);
  if (code !== 0 || !m) throw new Error(`kg build failed (${code}): ${stderr}`);
  if (!stderr.includes('calls proven by the native checker (TypeScript ') || !/in all \d+ project/.test(stderr))
    throw new Error(`the native checker did not serve every project: ${stderr}`);
  const goCpuMs = [...go.values()].reduce((a, b) => a + b, 0);
  const timed = (Number(m[1]) + Number(m[2])) * 1000;
  return { cpuMs: Math.max(timed, nodeCpuMs + goCpuMs), wallMs: Number(m[3]) * 1000, goCpuMs, nodeCpuMs };
}

function floor(root: string, release: NativeRelease): Sample {
  const b = nativeBinary(release);
  if (!('exe' in b)) throw new Error(b.missing);
  const r = spawnSync('/usr/bin/time', ['-f', 'cpu=%U+%S wall=%e', b.exe, '-p', CONFIG, '--noEmit'], { cwd: root, encoding: 'utf8' });
  const m = /cpu=([\d.]+)\+([\d.]+) wall=([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`tsc failed: ${r.stderr}`);
  return { cpuMs: (Number(m[1]) + Number(m[2])) * 1000, wallMs: Number(m[3]) * 1000 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  if (typeof nativeRelease() !== 'string') throw new Error('KG_NATIVE_TS names no release');
  const names = process.argv.slice(2).filter((a) => a === 'zod' || a === 'rxjs');
  for (const name of names.length > 0 ? names : ['zod', 'rxjs']) {
    const root = path.join(WORK, name);
    if (!fs.existsSync(path.join(root, CONFIG)))
      throw new Error(`${root}/${CONFIG} is missing: run bench/native-questions.ts ${name} first`);
    const builds: Record<string, Sample[]> = {};
    const floors: Record<string, Sample[]> = {};
    for (let round = 0; round < REPS; round++)
      for (const r of round % 2 === 0 ? RELEASES : [...RELEASES].reverse()) {
        (builds[r] ??= []).push(await kgBuild(root, r));
        (floors[r] ??= []).push(floor(root, r));
      }
    for (const r of RELEASES) {
      const b = builds[r];
      const f = floors[r];
      const cpu = median(b.map((s) => s.cpuMs));
      const fl = median(f.map((s) => s.cpuMs));
      console.log(
        `${name} ${r} (${(nativeBinary(r) as { version: string }).version}): kg build cpu ${cpu.toFixed(0)} ms ` +
          `(${b.map((s) => s.cpuMs.toFixed(0)).join(', ')}; Go ${median(b.map((s) => s.goCpuMs ?? 0)).toFixed(0)}, ` +
          `Node ${median(b.map((s) => s.nodeCpuMs ?? 0)).toFixed(0)}) ` +
          `wall ${median(b.map((s) => s.wallMs)).toFixed(0)} ms; tsc --noEmit cpu ${fl.toFixed(0)} ms ` +
          `(${f.map((s) => s.cpuMs.toFixed(0)).join(', ')}) wall ${median(f.map((s) => s.wallMs)).toFixed(0)} ms; ` +
          `× floor ${(cpu / fl).toFixed(2)}`,
      );
    }
  }
}

void main();
