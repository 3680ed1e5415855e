// Parser fuzz with a fixed seed: random token soup, truncations of real files and byte flips, each
// fed to an incremental build over the last graph. Never a crash (only a GraphError that leaves
// the graph as it was), never a torn graph (every graph written passes the schema and the
// doctor), and every accepted graph equals a full build of the same tree. The seed is printed;
// KG_SEED replays a run, KG_FUZZ_INPUTS sets how many inputs.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildGraph, buildTracked, commitGeneration, isGraphError, readPrevious, runDoctor, serializeGraph } from '../../src/graph';
import { REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';
import { SEED } from '../helpers/seed';
import { rng } from '../../bench/generate-graph';

const INPUTS = Number(process.env.KG_FUZZ_INPUTS ?? 90);

const TOKENS = [
  'export',
  'function',
  'class',
  'interface',
  'type',
  'const',
  'let',
  'import',
  'from',
  'default',
  'extends',
  'implements',
  'return',
  'new',
  'this',
  'async',
  'await',
  'yield',
  'declare',
  'namespace',
  'module',
  'enum',
  'as',
  'satisfies',
  'keyof',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  '<',
  '>',
  ';',
  ',',
  '.',
  '?.',
  '=>',
  '=',
  '...',
  ':',
  '?',
  '!',
  '|',
  '&',
  '@',
  '#',
  '`',
  '${',
  '"s"',
  "'t'",
  '/re/g',
  '//c\n',
  '/*',
  '*/',
  '\n',
  ' ',
  'a',
  'b',
  'f',
  'g',
  'x',
  '1',
  '0x',
  '1n',
  'é',
  '\u2028',
  '\\u0061',
  '<div>',
  '</div>',
];
const REAL = ['src/graph/doctor/rules.ts', 'src/graph/ids.ts', 'src/cli/server.ts', 'src/graph/io/load.ts'].map((f) =>
  fs.readFileSync(path.join(REPO, f), 'utf8'),
);

function fuzzText(rand: () => number, i: number): { kind: string; text: string | Uint8Array } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  switch (i % 3) {
    case 0: {
      const n = 1 + Math.floor(rand() * 400);
      return { kind: 'token soup', text: Array.from({ length: n }, () => pick(TOKENS)).join(rand() < 0.5 ? ' ' : '') };
    }
    case 1: {
      const src = pick(REAL);
      return { kind: 'truncation', text: src.slice(0, Math.floor(rand() * src.length)) };
    }
    default: {
      const bytes = Buffer.from(pick(REAL), 'utf8');
      for (let k = 0; k < 1 + Math.floor(rand() * 8); k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      return { kind: 'byte flips', text: bytes };
    }
  }
}

describe(`parser fuzz (seed ${SEED}, ${INPUTS} inputs; KG_SEED replays)`, () => {
  after(removeTempDirs);

  it('never crashes, never tears the graph, and every graph written equals a full build', () => {
    console.log(`# parser fuzz: seed ${SEED}, ${INPUTS} inputs`);
    const rand = rng(SEED);
    const root = tempDir('kg-fuzz-');
    writeTree(root, {
      'src/keep.ts': 'export function keep() {}\n',
      'src/use.ts': "import { keep } from './keep';\nexport function use() { keep(); }\n",
      'src/fuzz.ts': 'export function f() {}\n',
    });
    const out = path.join(root, '.knowledge-graph', 'graph.json');
    const first = buildTracked({ root, previous: readPrevious(out) });
    assert.equal(commitGeneration(out, first.text, first.manifestText).status, 'current');
    const tally: Record<string, number> = {};
    const rejected: number[] = [];
    for (let i = 0; i < INPUTS; i++) {
      const { kind, text } = fuzzText(rand, i);
      fs.writeFileSync(path.join(root, 'src/fuzz.ts'), text);
      const before = fs.readFileSync(out);
      let result;
      try {
        result = buildTracked({ root, previous: readPrevious(out) });
      } catch (e) {
        assert.ok(isGraphError(e), `input ${i} (${kind}, seed ${SEED}) crashed the build: ${(e as Error).stack}`);
        assert.ok(fs.readFileSync(out).equals(before));
        tally[`refused (${e.code})`] = (tally[`refused (${e.code})`] ?? 0) + 1;
        // As a user would: accept it with a full build, which must work.
        result = buildTracked({ root, previous: readPrevious(out), full: true });
      }
      assert.equal(result.text, serializeGraph(buildGraph({ root }).graph), `input ${i} (${kind}, seed ${SEED}): incremental equals full`);
      const graph = JSON.parse(result.text);
      if (process.env.KG_FUZZ_DUMP) fs.writeFileSync(process.env.KG_FUZZ_DUMP, text);
      assertValidGraph(graph);
      const report = runDoctor(graph);
      if (!report.ok) {
        // A builder defect the doctor catches: the generation is rejected and the graph stays whole.
        const failed = report.rules
          .filter((r) => r.status === 'FAIL')
          .map((r) => `${r.rule}: ${r.samples[0]?.key} ${r.samples[0]?.detail}`);
        console.log(`# parser fuzz: input ${i} (${kind}) built a graph the doctor rejects: ${failed.join('; ')}`);
        assert.equal(commitGeneration(out, result.text, result.manifestText).status, 'rejected');
        assert.ok(fs.readFileSync(out).equals(before), 'a rejected graph leaves the current one');
        rejected.push(i);
        fs.writeFileSync(path.join(root, 'src/fuzz.ts'), '');
        const reset = buildTracked({ root, previous: readPrevious(out), full: true });
        assert.equal(commitGeneration(out, reset.text, reset.manifestText).status, 'current');
        continue;
      }
      assert.equal(commitGeneration(out, result.text, result.manifestText).status, 'current');
      assert.ok(result.text.includes('"sym:src/keep.ts#keep"'));
      const noted = result.graph.diagnostics
        ?.find((d) => d.path === 'src/fuzz.ts')
        ?.reason.replace(/^(\d+ syntax errors?|not UTF-8 text|binary file|too deeply nested).*$/, '$1')
        .replace(/^\d+ /, 'N ');
      const key = `built${noted ? ` with a note (${noted})` : ''}`;
      tally[key] = (tally[key] ?? 0) + 1;
    }
    console.log(`# parser fuzz results: ${JSON.stringify(tally)}; doctor rejected inputs ${JSON.stringify(rejected)}`);
    // Every graph a build writes must pass the doctor: a rejection is a builder defect (the
    // generation keeps the previous graph whole, but the defect is still ours).
    assert.deepEqual(rejected, [], `the doctor rejected ${rejected.length} fuzz graphs (seed ${SEED})`);
  });
});
