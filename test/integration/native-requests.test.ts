// What the native route asks TypeScript 7.1 for an object literal's keys (ADR 192): a file's
// literals go in one `api.batch` (their contextual types, the unions' members, the properties, in
// three rounds), so the requests a build makes do not grow with how many keys a file has. Counted
// by TypeScript 7.1's own client (`TS_API_TIMING_DIR`: the requests it made, written when it
// closes), on the built `kg` (dist/cli.js). Before ADR 192 each literal cost a `getContextualType`
// request and each key a `getPropertyOfType` per member of the type: 40 literals took 195 more.
// And what the Node side does not do under the native route: parse a default library (no
// TypeScript 6 program is made; TypeScript 7 reads its own, ADR 130).

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, serializeGraph } from '../../src/graph';
import { nativeBinary } from '../../src/graph/indexer/compiler/native-api';
import { NativeChecker } from '../../src/graph/indexer/compiler/native-checker';
import { defaultLibrariesParsed } from '../../src/graph/indexer/compiler/program';
import { CLI, FIXTURES, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

/** A project whose one file passes `literals` object literals to a function typed by a union (with `undefined`). */
function project(literals: number): string {
  const root = tempDir('kg-native-requests-');
  const calls = Array.from({ length: literals }, (_, i) => `take({ alpha: ${i}, beta() {} });`).join('\n');
  writeTree(root, {
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler" } }\n',
    'options.ts': 'export interface Options { alpha: number; beta(): void }\n',
    'main.ts': `import type { Options } from './options';\nfunction take(o: Options | undefined): void {}\n${calls}\n`,
  });
  return root;
}

/** The graph `kg build` prints with this checker, and with the native one the requests TypeScript 7.1's client made. */
function build(root: string, checker: 'js' | 'native'): { graph: string; requests?: number } {
  const timing = path.join(root, '.timing');
  const r = spawnSync(process.execPath, [CLI, 'build', '--checker', checker, '--full', '--no-server'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, KG_NATIVE_TS: '7.1', TS_API_TIMING_DIR: timing, CI: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  if (checker === 'js') return { graph: r.stdout };
  assert.match(r.stderr, /calls proven by the native checker \(TypeScript 7\.1[^)]*\) in all/);
  const dumps = fs.readdirSync(timing);
  assert.equal(dumps.length, 1, 'one TypeScript 7 process, one dump');
  const dump = JSON.parse(fs.readFileSync(path.join(timing, dumps[0]), 'utf8')) as { timing: { totals: { requestCount: number } } };
  return { graph: r.stdout, requests: dump.timing.totals.requestCount };
}

describe(
  "the native route's requests for object-literal keys (ADR 192)",
  { skip: !('exe' in nativeBinary('7.1')) && 'no TypeScript 7.1 binary' },
  () => {
    after(removeTempDirs);

    it('one literal or forty: the same requests, and the JavaScript checker’s graph', () => {
      const one = project(1);
      const forty = project(40);
      const a = build(one, 'native');
      const b = build(forty, 'native');
      assert.equal(b.graph, build(forty, 'js').graph);
      assert.equal(a.graph, build(one, 'js').graph);
      // The keys are answered: each literal's `alpha` and `beta` reach the interface's members.
      assert.match(b.graph, /options\.ts#Options\.alpha/);
      assert.equal(b.requests, a.requests, `forty literals took ${(b.requests ?? 0) - (a.requests ?? 0)} more requests than one`);
    });

    it('the Node side parses no default library under the native checker; the JavaScript checker does', () => {
      const root = path.join(FIXTURES, 'calls-members');
      const checker = new NativeChecker();
      try {
        const native = buildGraph({ root, checker });
        assert.deepEqual(native.checker.fallbacks, []);
        assert.equal(defaultLibrariesParsed(), 0, 'lib.*.d.ts parsed in this process under the native checker');
        const js = buildGraph({ root });
        assert.ok(defaultLibrariesParsed() > 0, 'the JavaScript checker parses its default library here');
        assert.equal(serializeGraph(native.graph), serializeGraph(js.graph));
      } finally {
        checker.close();
      }
    });
  },
);
