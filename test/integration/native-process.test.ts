// TypeScript 7's process when it does not behave (ADR 145, issue 55's items 12, 17 and 21): a
// process that stops answering, one that dies between projects, a binary that is not executable.
// Each time the build falls back to the JavaScript checker with a note that names what happened,
// and gives the graph the JavaScript checker gives — never a hang, never a crash.

import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, serializeGraph, type CheckerBackend, type CheckerProvider } from '../../src/graph';
import { NativeChecker } from '../../src/graph/indexer/compiler/native-checker';
import { nativeBinary } from '../../src/graph/indexer/compiler/native-api';
import { REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const onLinux = { skip: process.platform !== 'linux' && 'reads /proc' };

/**
 * A library with a tsconfig for src/ and, outside it, test files, CommonJS scripts and JSX
 * examples: the shape of issue 55's item 12 (the native checker failed on the files outside every
 * tsconfig with "EPIPE: broken pipe, write").
 */
function looseFilesRepo(): string {
  const root = tempDir('kg-native-proc-');
  const tree: Record<string, string> = {
    'package.json': '{ "name": "loose", "private": true, "devDependencies": { "typescript": "^7.0.0" } }\n',
    'tsconfig.json':
      '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler" }, "include": ["src"] }\n',
    'src/index.ts': 'export function f(): number { return 1; }\nexport class K { m(): number { return f(); } }\n',
  };
  for (let i = 0; i < 40; i++) {
    tree[`src/m${i}.ts`] = `import { f, K } from './index';\nexport function g${i}(): number { return f() + new K().m(); }\n`;
    tree[`test/t${i}.ts`] = `import { g${i} } from '../src/m${i}';\nexport function t${i}(): number { return g${i}(); }\n`;
    tree[`scripts/s${i}.js`] = `const { f } = require('../src/index');\nfunction s${i}() { return f(); }\nmodule.exports = { s${i} };\n`;
    tree[`examples/e${i}.jsx`] = `import { f } from '../src/index';\nexport function E${i}() { return <p>{f()}</p>; }\n`;
  }
  writeTree(root, tree);
  return root;
}

/** This process's TypeScript 7 processes (`tsc --api`), by pid. */
function nativeProcesses(): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
      if (/^State:\s+Z/m.test(status)) continue;
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--api')) out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The native checker behind a provider that calls `beforeOpen` before each project is opened and `onPrefetch` at each file's questions. */
function provided(inner: NativeChecker, hooks: { beforeOpen?: (configPath: string) => void; onPrefetch?: (n: number) => void }) {
  let told = 0;
  const backends = new Map<CheckerBackend, CheckerBackend>();
  const provider: CheckerProvider = {
    name: 'native',
    open(check) {
      hooks.beforeOpen?.(check.project.configPath);
      const b = inner.open(check);
      if ('declined' in b) return b;
      const outer: CheckerBackend = {
        prefetch(file, queries) {
          hooks.onPrefetch?.(++told);
          b.prefetch?.(file, queries);
        },
        declarationsAt: (file, queries) => b.declarationsAt(file, queries),
      };
      backends.set(outer, b);
      return outer;
    },
    release(b) {
      inner.release(backends.get(b) ?? b);
    },
  };
  return provider;
}

describe("TypeScript 7's process when it does not behave (ADR 145)", () => {
  after(removeTempDirs);

  it(
    'stopped (SIGSTOP) part-way through a project: the request deadline ends it, the JavaScript checker serves the project, same graph',
    onLinux,
    () => {
      const root = looseFilesRepo();
      const js = serializeGraph(buildGraph({ root }).graph);
      const inner = new NativeChecker({ deadlines: { requestMs: 1000, projectMs: 600_000 } });
      let stopped: number[] = [];
      // Without a deadline the build would wait for ever: this resumes the process after 30 s, so a
      // build that waited for it ends served natively and fails the assertions below instead.
      const resumers: ReturnType<typeof spawn>[] = [];
      const provider = provided(inner, {
        onPrefetch(n) {
          if (n !== 10) return;
          stopped = nativeProcesses();
          for (const pid of stopped) {
            process.kill(pid, 'SIGSTOP');
            resumers.push(spawn('sh', ['-c', `sleep 30; kill -CONT ${pid} 2>/dev/null`], { stdio: 'ignore', detached: true }));
          }
        },
      });
      try {
        const t0 = performance.now();
        const r = buildGraph({ root, checker: provider });
        const ms = performance.now() - t0;
        assert.equal(stopped.length, 1, 'one TypeScript 7 process was stopped');
        assert.deepEqual(r.checker.served, [], JSON.stringify(r.checker));
        assert.match(
          r.checker.fallbacks[0]?.reason ?? '',
          /^the native checker failed \(TypeScript 7 did not answer within 1000 ms \(KG_NATIVE_REQUEST_TIMEOUT_MS\)/,
        );
        assert.match(r.checker.fallbacks[1]?.reason ?? '', /failed earlier in this build \(TypeScript 7 did not answer within 1000 ms/);
        assert.ok(ms < 20_000, `${Math.round(ms)} ms: the deadline, not the resumption, ended the wait`);
        assert.equal(serializeGraph(r.graph), js);
        assert.deepEqual(nativeProcesses(), [], 'the stopped process was ended');
      } finally {
        inner.close();
        for (const r of resumers) r.kill();
        for (const pid of stopped)
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // ended by the watchdog
          }
      }
    },
  );

  it('a project past its own deadline falls back at its next request, with the deadline named', () => {
    const root = looseFilesRepo();
    const js = serializeGraph(buildGraph({ root }).graph);
    const inner = new NativeChecker({ deadlines: { requestMs: 600_000, projectMs: 1 } });
    try {
      const r = buildGraph({ root, checker: inner });
      assert.deepEqual(r.checker.served, []);
      assert.match(
        r.checker.fallbacks[0]?.reason ?? '',
        /TypeScript 7 did not finish the project within 1 ms \(KG_NATIVE_PROJECT_TIMEOUT_MS\), so its process was ended/,
      );
      assert.equal(serializeGraph(r.graph), js);
    } finally {
      inner.close();
    }
  });

  it(
    'killed between the tsconfig project and the files outside every tsconfig: the note names how it ended, not only the pipe (item 12)',
    onLinux,
    () => {
      const root = looseFilesRepo();
      const js = serializeGraph(buildGraph({ root }).graph);
      // A kept checker keeps its process from one project to the next, as a build server's does.
      const inner = new NativeChecker({ keep: true });
      let killed: number[] = [];
      const provider = provided(inner, {
        beforeOpen(configPath) {
          if (configPath !== '') return;
          killed = nativeProcesses();
          for (const pid of killed) process.kill(pid, 'SIGKILL');
          // Until the kernel has made it a zombie, /proc would still show it running.
          const until = Date.now() + 5000;
          while (Date.now() < until && killed.some((pid) => !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))));
        },
      });
      try {
        const r = buildGraph({ root, checker: provider });
        assert.equal(killed.length, 1);
        assert.deepEqual(r.checker.served, ['tsconfig.json'], 'the tsconfig project was served natively');
        assert.equal(r.checker.fallbacks.length, 1);
        assert.equal(r.checker.fallbacks[0].project, '');
        assert.match(
          r.checker.fallbacks[0].reason,
          /(EPIPE: broken pipe, write|Unexpected EOF while reading from child process \(unknown reason\)): TypeScript 7's process was killed by SIGKILL/,
        );
        assert.equal(serializeGraph(r.graph), js);
      } finally {
        inner.close();
      }
    },
  );

  describe('kg build --checker native with another binary in its place (a copy of dist/ with dist/native/, where the engine looks first)', () => {
    const binary = nativeBinary();
    /** dist/ copied (bundles copied, the rest linked), with `tsc` as TypeScript 7's binary. */
    function distWith(tsc: string | Buffer, mode: number): string {
      assert.ok('exe' in binary, 'TypeScript 7 is installed (a devDependency)');
      const dist = tempDir('kg-native-dist-');
      const from = path.join(REPO, 'dist');
      for (const f of fs.readdirSync(from)) {
        if (f === 'native') continue;
        if (f.endsWith('.js')) fs.copyFileSync(path.join(from, f), path.join(dist, f));
        else fs.symlinkSync(path.join(from, f), path.join(dist, f));
      }
      const pkg = path.join(dist, 'native', `typescript-${process.platform}-${process.arch}`);
      fs.mkdirSync(path.join(pkg, 'lib'), { recursive: true });
      fs.copyFileSync(path.join(path.dirname(path.dirname(binary.exe)), 'package.json'), path.join(pkg, 'package.json'));
      fs.writeFileSync(path.join(pkg, 'lib', 'tsc'), tsc, { mode });
      fs.chmodSync(path.join(pkg, 'lib', 'tsc'), mode);
      return dist;
    }
    const kgBuild = (dist: string, root: string, env: Record<string, string> = {}) =>
      spawnSync(process.execPath, [path.join(dist, 'cli.js'), 'build', '--apply', '--no-server', '--checker', 'native'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, KG_SERVER: 'off', ...env },
        timeout: 90_000,
      });

    it('a binary that is not executable: declined before spawning, exit 0, the graph written (no unhandled spawn EACCES)', onLinux, () => {
      const root = looseFilesRepo();
      const dist = distWith(fs.readFileSync((binary as { exe: string }).exe), 0o644);
      const r = kgBuild(dist, root);
      assert.equal(r.status, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /EACCES|Unhandled/);
      assert.match(
        r.stderr,
        /kg: note: tsconfig\.json: the JavaScript checker served this project: TypeScript 7's binary .* is not executable/,
      );
      assert.ok(fs.existsSync(path.join(root, '.knowledge-graph', 'graph.json')));
    });

    it('a process that stops itself before it answers anything: exit 0 after the deadline, each project noted', onLinux, () => {
      const root = looseFilesRepo();
      const real = (binary as { exe: string }).exe;
      const dist = distWith(`#!/bin/sh\nkill -STOP $$\nexec '${real}' "$@"\n`, 0o755);
      const t0 = Date.now();
      const r = kgBuild(dist, root, { KG_NATIVE_REQUEST_TIMEOUT_MS: '1500' });
      assert.notEqual(r.signal, 'SIGTERM', 'the build did not hang until the test gave up on it');
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /tsconfig\.json: the JavaScript checker served this project: .*TypeScript 7 did not answer within 1500 ms/);
      assert.match(
        r.stderr,
        /\(files outside every tsconfig\): the JavaScript checker served this project: the native checker failed earlier/,
      );
      assert.ok(Date.now() - t0 < 60_000);
    });
  });
});
