// The kg CLI as users install it without the editor (ADR 158): `npm pack` on a clean copy of the
// repository (what a fresh clone holds: its `prepack` builds the production bundles), then
// `npm install -g` of that tarball into an empty prefix with an empty npm cache and `--offline` —
// it installs nothing else, so it needs no network and no build step — and the installed `kg` run
// on a fixture: a build, a query, `kg mcp`'s discovery through the MCP SDK's own client, and
// `kg diff` between two commits of a real git repository. `npm exec` from the tarball, too.

import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as zlib from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { copyFixture, REPO, removeTempDirs, tempDir } from '../helpers/fixtures';
import { makeDiffRepo } from '../helpers/diff-repo';
import { npmEnv, packKg } from '../helpers/kg-tarball';

/** TypeScript 7's binary for this machine, and the version kg runs by default: 7.1's (ADR 186). */
const PLATFORM_PACKAGE = `@typescript/typescript-${process.platform}-${process.arch}`;
const PINNED_TS7 = (
  JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies.typescript71.replace(/^npm:typescript@/, '');

/** The packed tarball's budget (ADR 158). */
const BUDGET_BYTES = 15 * 1024 * 1024;

/**
 * Exactly what the tarball may hold: the CLI's two bundles, the component tools' bundle and the
 * types their code needs (ADR 169), the compiler's libraries, the schemas, the manifest, README,
 * licences.
 */
const ALLOWED = [
  /^package\/(package\.json|README\.md|LICENSE)$/,
  /^package\/dist\/(cli|engine-build|component-tools)\.js$/,
  /^package\/dist\/component-types\/vue\/[\w.-]+\.d\.ts$/,
  /^package\/dist\/lib(\.[\w.]+)?\.d\.ts$/,
  /^package\/dist\/typescript-LICENSE\.txt$/,
  /^package\/schema\/(graph|config)\.schema\.json$/,
];

/** The entries of a .tgz (ustar, as npm writes it): name, size, mode. */
function tarEntries(tgz: string): Array<{ name: string; size: number; mode: number }> {
  const buf = zlib.gunzipSync(fs.readFileSync(tgz));
  const out: Array<{ name: string; size: number; mode: number }> = [];
  const field = (at: number, len: number) => buf.toString('utf8', at, at + len).replace(/\0.*$/s, '');
  for (let p = 0; p + 512 <= buf.length;) {
    if (buf.subarray(p, p + 512).every((b) => b === 0)) break;
    const size = parseInt(field(p + 124, 12).trim() || '0', 8);
    const type = field(p + 156, 1);
    const prefix = field(p + 345, 155);
    const name = prefix ? `${prefix}/${field(p, 100)}` : field(p, 100);
    if (type === '0' || type === '') out.push({ name, size, mode: parseInt(field(p + 100, 8).trim(), 8) });
    p += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

describe('the kg tarball: npm pack, npm install -g into an empty prefix, every kind of command', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  let tgz: string;
  let prefix: string;
  let kgBin: string;
  const timings: string[] = [];
  const timed = <T>(what: string, f: () => T): T => {
    const started = Date.now();
    const r = f();
    timings.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return r;
  };

  before(() => {
    home = tempDir('kg-tarball-home-');
    env = npmEnv(home);
    tgz = timed('npm pack (with the production build)', () => packKg(env, path.join(home, 'cache')));
    prefix = tempDir('kg-tarball-prefix-');
    // An empty cache and --offline: the install can only succeed if the tarball needs nothing else.
    timed('npm install -g --offline', () =>
      execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--cache', path.join(home, 'empty-cache'), tgz], {
        cwd: home,
        env,
        stdio: 'pipe',
      }),
    );
    kgBin = path.join(prefix, 'bin', 'kg');
  });
  after(() => {
    console.log(`[tarball] ${timings.join('; ')}`);
    removeTempDirs();
  });

  const kg = (args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(kgBin, args, { cwd, env: { ...env, ...extra }, encoding: 'utf8', maxBuffer: 1 << 26 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it(`holds only what the CLI runs, within ${BUDGET_BYTES} bytes packed`, () => {
    const entries = tarEntries(tgz);
    const names = entries.map((e) => e.name);
    const bytes = fs.statSync(tgz).size;
    const unpacked = entries.reduce((s, e) => s + e.size, 0);
    console.log(`[tarball] ${path.basename(tgz)}: ${bytes} bytes, ${unpacked} unpacked, ${entries.length} files`);
    assert.ok(bytes <= BUDGET_BYTES, `${bytes} bytes`);
    assert.deepEqual(
      names.filter((n) => !ALLOWED.some((re) => re.test(n))),
      [],
      'no sources, tests, node_modules, source maps or editor-only bundles',
    );
    for (const n of [
      'package/dist/cli.js',
      'package/dist/engine-build.js',
      'package/dist/lib.es5.d.ts',
      'package/schema/graph.schema.json',
    ])
      assert.ok(names.includes(n), `${n} is packed`);
    // The production bundles: minified, without a link to a source map that is not there.
    const cli = execFileSync('tar', ['-xzOf', tgz, 'package/dist/cli.js'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.ok(cli.startsWith('#!/usr/bin/env node\n'), 'cli.js runs as a command');
    assert.doesNotMatch(cli, /\/\/# sourceMappingURL=\S*\s*$/);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tgz, 'package/package.json'], { encoding: 'utf8' })) as {
      bin: Record<string, string>;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    assert.deepEqual(manifest.bin, { kg: 'dist/cli.js' });
    assert.equal(manifest.dependencies, undefined, 'every run-time dependency is in the bundles');
    assert.equal(manifest.optionalDependencies, undefined);
    assert.equal(manifest.peerDependencies, undefined);
  });

  it('installs kg alone: one package, kg on the prefix bin, nothing else', () => {
    assert.deepEqual(fs.readdirSync(path.join(prefix, 'lib', 'node_modules')), ['knowledge-graph']);
    assert.equal(fs.existsSync(path.join(prefix, 'lib', 'node_modules', 'knowledge-graph', 'node_modules')), false);
    const r = kg(['--version'], home);
    assert.equal(r.code, 0, r.stderr);
    const version = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    assert.equal(r.stdout.trim(), `kg ${version}`);
  });

  it('builds a fixture with the bundled compiler, answers a query; --checker native falls back with a note', () => {
    const repo = copyFixture('calls-callers');
    const built = timed('kg build', () => kg(['build', '--apply', '--checker', 'native'], repo));
    assert.equal(built.code, 0, built.stderr);
    assert.ok(fs.existsSync(path.join(repo, '.knowledge-graph', 'graph.json')));
    // No TypeScript 7 binary is installed beside it: the JavaScript checker served, and said why.
    assert.match(built.stderr, /the JavaScript checker served this project: TypeScript 7's binary .* is not installed/);
    assert.ok(built.stderr.includes(`npm install -g ${PLATFORM_PACKAGE}@${PINNED_TS7}`), 'the note says how to install it');
    const callers = kg(['callers', 'sym:app.ts#compute'], repo);
    assert.equal(callers.code, 0, callers.stderr);
    const answer = JSON.parse(callers.stdout) as { callers: Array<{ id: string }> };
    assert.ok(answer.callers.length > 0, callers.stdout);
    const doctor = kg(['doctor'], repo);
    assert.equal(doctor.code, 0, doctor.stderr);
  });

  it("reads Vue and Svelte components with the tools it carries: a function's callers are the components that call it", () => {
    const repo = copyFixture('components');
    const built = kg(['build', '--apply'], repo);
    assert.equal(built.code, 0, built.stderr);
    // A component the tools could not read is a note, never a failed build: there must be none.
    assert.doesNotMatch(built.stderr, /component not analysed/);
    const callers = kg(['callers', 'sym:src/format.ts#formatPrice'], repo);
    assert.equal(callers.code, 0, callers.stderr);
    assert.deepEqual((JSON.parse(callers.stdout) as { callers: string[] }).callers.sort(), [
      'sym:src/svelte/Counter.svelte#default',
      'sym:src/vue/App.vue#default',
      'sym:src/vue/components/CartItem.vue#default',
    ]);
  });

  it('proves calls with TypeScript 7 once its platform package is installed beside kg, as the note says', (t) => {
    // npm installs 7.1's platform package inside its alias (7.0.2's holds the top): ADR 180.
    const local = path.join(REPO, 'node_modules', 'typescript71', 'node_modules', PLATFORM_PACKAGE);
    if (!fs.existsSync(path.join(local, 'package.json'))) return t.skip(`${PLATFORM_PACKAGE} is not in node_modules on this platform`);
    // The registry's package, packed from the copy npm installed here: the install stays offline.
    const out = tempDir('kg-tarball-ts7-');
    execFileSync('npm', ['pack', '--pack-destination', out, '--cache', path.join(home, 'cache'), local], { cwd: out, env, stdio: 'pipe' });
    const ts7 = path.join(out, fs.readdirSync(out).find((f) => f.endsWith('.tgz')) as string);
    const nativePrefix = tempDir('kg-tarball-prefix-native-');
    timed('npm install -g kg and TypeScript 7', () =>
      execFileSync(
        'npm',
        ['install', '--global', '--prefix', nativePrefix, '--offline', '--cache', path.join(home, 'native-cache'), tgz, ts7],
        { cwd: home, env, stdio: 'pipe' },
      ),
    );
    const repo = copyFixture('calls-callers');
    const r = spawnSync(path.join(nativePrefix, 'bin', 'kg'), ['build', '--apply', '--checker', 'native'], {
      cwd: repo,
      env,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stderr.includes(`calls proven by the native checker (TypeScript ${PINNED_TS7}) in all 1 project`), r.stderr);
  });

  it("serves MCP: the SDK's client initializes and lists the tools", async () => {
    const repo = copyFixture('calls-callers');
    assert.equal(kg(['build', '--apply'], repo).code, 0);
    const transport = new StdioClientTransport({
      command: kgBin,
      args: ['mcp', '--all-tools'],
      cwd: repo,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'kg-tarball-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, 'knowledge-graph');
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const t of ['callers', 'symbol', 'find']) assert.ok(names.includes(t), `${t} in ${names.join(', ')}`);
      const r = await client.callTool({ name: 'callers', arguments: { id: 'compute' } });
      assert.notEqual(r.isError, true, JSON.stringify(r.content).slice(0, 500));
    } finally {
      await client.close();
    }
  });

  it('diffs two commits of a git repository', () => {
    const repo = tempDir('kg-tarball-diff-');
    const commits = makeDiffRepo(repo);
    const state = tempDir('kg-tarball-state-');
    const d = timed('kg diff', () => kg(['diff', commits.base, commits.head], repo, { XDG_RUNTIME_DIR: state, CI: 'true' }));
    assert.equal(d.code, 0, d.stderr);
    const report = JSON.parse(d.stdout) as {
      base: { commit: string };
      head: { commit: string };
      summary: { symbols: { renamed: number } };
    };
    assert.equal(report.base.commit, commits.base);
    assert.equal(report.head.commit, commits.head);
    assert.ok(report.summary.symbols.renamed > 0, d.stdout.slice(0, 500));
  });

  it('runs from the tarball with npm exec, offline', () => {
    const repo = copyFixture('calls-callers');
    const r = timed('npm exec', () =>
      spawnSync(
        'npm',
        ['exec', '--offline', '--yes', '--cache', path.join(home, 'exec-cache'), `--package=${tgz}`, '--', 'kg', 'build', '--apply'],
        { cwd: repo, env, encoding: 'utf8' },
      ),
    );
    assert.equal(r.status, 0, r.stderr);
    assert.ok(fs.existsSync(path.join(repo, '.knowledge-graph', 'graph.json')));
  });
});
