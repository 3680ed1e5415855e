// The graph configuration: the resolution table of docs/configuration.md row by row, every
// malformed value clamping to the safe side with a reported problem, a property that nothing
// throws or resolves above what was requested, the schema agreeing with the resolver, and
// `kg config` end to end (in process).

import Ajv from 'ajv';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { memoryFileHost, MODES, modeRank, readGraphConfig, resolveGraphConfig, type Mode } from '../../src/graph';
import { run } from '../../src/cli/run';
import { REPO, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { fc } from '../helpers/seed';

const cfg = (graph: Record<string, unknown>, level?: unknown) => (level === undefined ? { graph } : { graph, level });

describe('mode resolution table, row by row', () => {
  it('enabled is not exactly true → off', () => {
    for (const enabled of [false, 'true', 1, null, {}, []]) {
      const r = resolveGraphConfig(cfg({ enabled, mode: 'advisory' }, 8));
      assert.equal(r.resolved.mode, 'off', JSON.stringify(enabled));
      assert.equal(r.rule, 'disabled');
    }
    assert.equal(resolveGraphConfig(cfg({ enabled: false }, 8)).problems.length, 0, 'false is a valid way to disable');
    assert.equal(resolveGraphConfig(cfg({ enabled: 'true' }, 8)).problems.length, 1, 'a string is reported');
  });

  it('level below 4 → off', () => {
    for (const level of [0, 1, 2, 3]) {
      for (const mode of MODES) {
        const r = resolveGraphConfig(cfg({ enabled: true, mode, humanFlip: true }, level));
        assert.equal(r.resolved.mode, 'off');
        assert.equal(r.rule, 'level-below-4');
      }
    }
  });

  it('guarded or strict requested below level 7 → advisory', () => {
    for (const level of [4, 5, 6]) {
      for (const mode of ['guarded', 'strict']) {
        const r = resolveGraphConfig(cfg({ enabled: true, mode, humanFlip: true }, level));
        assert.deepEqual([r.resolved.mode, r.rule], ['advisory', 'guarded-below-level-7']);
      }
    }
  });

  it('guarded or strict requested without humanFlip → advisory', () => {
    for (const level of [7, 8, 10]) {
      for (const mode of ['guarded', 'strict']) {
        for (const humanFlip of [false, undefined]) {
          const r = resolveGraphConfig(cfg({ enabled: true, mode, ...(humanFlip === undefined ? {} : { humanFlip }) }, level));
          assert.deepEqual([r.resolved.mode, r.rule], ['advisory', 'guarded-without-human-flip']);
        }
      }
    }
  });

  it('shadow or advisory requested at level 4 or above → as requested (and off stays off)', () => {
    for (const level of [4, 7, 10]) {
      for (const mode of ['off', 'shadow', 'advisory']) {
        const r = resolveGraphConfig(cfg({ enabled: true, mode }, level));
        assert.deepEqual([r.resolved.mode, r.rule], [mode, 'as-requested']);
      }
    }
  });

  it('guarded and strict at level 7 or above with humanFlip → as requested', () => {
    for (const mode of ['guarded', 'strict']) {
      const r = resolveGraphConfig(cfg({ enabled: true, mode, humanFlip: true }, 7));
      assert.deepEqual([r.resolved.mode, r.rule, r.problems], [mode, 'as-requested', []]);
    }
  });

  it('the first matching row decides: disabled wins over a low level, a low level over a missing humanFlip', () => {
    assert.equal(resolveGraphConfig(cfg({ enabled: false, mode: 'strict' }, 2)).rule, 'disabled');
    assert.equal(resolveGraphConfig(cfg({ enabled: true, mode: 'strict' }, 5)).rule, 'guarded-below-level-7');
  });
});

describe('defaults and malformed values', () => {
  it('no file at all: the shipped defaults (enabled, advisory, level 4, autoIndex), no problem', () => {
    const r = resolveGraphConfig(undefined);
    assert.deepEqual(r.resolved, { enabled: true, mode: 'advisory', humanFlip: false, autoIndex: true, level: 4 });
    assert.deepEqual(r.problems, []);
  });

  it('a config file without "graph.enabled" is off, and says so (issue 22)', () => {
    for (const [input, says] of [
      [{ graph: { mode: 'advisory' } }, /"graph\.enabled" is missing: only an explicit true enables/],
      [{ graph: {} }, /"graph\.enabled" is missing/],
      [{}, /no "graph" section/],
      [{ rationale: { recordFolders: ['docs/adr'] } }, /no "graph" section/],
    ] as const) {
      const r = resolveGraphConfig(input);
      assert.equal(r.resolved.enabled, false, JSON.stringify(input));
      assert.deepEqual([r.resolved.mode, r.rule, r.resolved.autoIndex], ['off', 'disabled', false]);
      assert.ok(
        r.problems.some((p) => says.test(p)),
        JSON.stringify(r.problems),
      );
    }
    // Read from a file: the same; and no file gets the defaults.
    const withFile = readGraphConfig(memoryFileHost('/r', { '.knowledge-graph/config.json': '{"graph":{"mode":"advisory"}}' }), '/r');
    assert.deepEqual([withFile.found, withFile.resolved.mode], [true, 'off']);
    const noFile = readGraphConfig(memoryFileHost('/r', { 'src/a.ts': '' }), '/r');
    assert.deepEqual([noFile.found, noFile.resolved.mode, noFile.problems], [false, 'advisory', []]);
  });

  it('each malformed value is reported and clamps to the safe side', () => {
    const cases: Array<[unknown, Mode, RegExp]> = [
      ['not an object', 'off', /top level must be an object/],
      [[1, 2], 'off', /top level must be an object/],
      [{ graph: 'strict' }, 'off', /"graph" must be an object/],
      [{ graph: { enabled: true, mode: 'strickt' }, level: 9 }, 'advisory', /"graph.mode" must be one of/],
      [{ graph: { enabled: true, mode: 7 } }, 'advisory', /"graph.mode"/],
      [{ graph: { enabled: true, mode: 'strict', humanFlip: 'yes' }, level: 9 }, 'advisory', /"graph.humanFlip"/],
      [{ graph: { enabled: true, mode: 'advisory' }, level: 11 }, 'off', /"level" must be an integer from 0 to 10/],
      [{ graph: { enabled: true, mode: 'advisory' }, level: -1 }, 'off', /"level"/],
      [{ graph: { enabled: true, mode: 'advisory' }, level: 7.5 }, 'off', /"level"/],
      [{ graph: { enabled: true, mode: 'advisory' }, level: '7' }, 'off', /"level"/],
      [{ graph: { enabled: true, mode: 'advisory' }, level: null }, 'off', /"level"/],
    ];
    for (const [input, mode, problem] of cases) {
      const r = resolveGraphConfig(input);
      assert.equal(r.resolved.mode, mode, JSON.stringify(input));
      assert.ok(
        r.problems.some((p) => problem.test(p)),
        `${JSON.stringify(input)}: ${JSON.stringify(r.problems)}`,
      );
    }
  });

  it('autoIndex: a bad value is false; disabled means no auto-indexing either', () => {
    assert.equal(resolveGraphConfig({ graph: { enabled: true, autoIndex: 'on' } }).resolved.autoIndex, false);
    assert.equal(resolveGraphConfig({ graph: { enabled: true, autoIndex: false } }).resolved.autoIndex, false);
    assert.equal(resolveGraphConfig({ graph: { enabled: false, autoIndex: true } }).resolved.autoIndex, false);
    assert.equal(
      resolveGraphConfig({ graph: { enabled: true, autoIndex: true }, level: 0 }).resolved.autoIndex,
      true,
      'level off hides lenses, not the graph',
    );
  });

  it('unknown keys are reported (most often a typo) and ignored', () => {
    const r = resolveGraphConfig({ graph: { enabled: true, mode: 'advisory', humanflip: true }, levle: 8, rationale: {} });
    assert.deepEqual(r.problems, [
      'unknown key "levle" (known: entries, graph, level, rationale, repository); ignored',
      'unknown key "graph.humanflip" (known: enabled, mode, humanFlip, autoIndex); ignored',
    ]);
  });

  it('a file that is not JSON disables the capability and says why', () => {
    const host = memoryFileHost('/r', { '.knowledge-graph/config.json': '{ "graph": ' });
    const r = readGraphConfig(host, '/r');
    assert.equal(r.found, true);
    assert.equal(r.resolved.mode, 'off');
    assert.deepEqual(r.problems, ['not valid JSON; the capability is disabled']);
  });
});

const schema = JSON.parse(fs.readFileSync(path.join(REPO, 'schema', 'config.schema.json'), 'utf8'));
const validate = new Ajv({ strict: true, strictTypes: false, allowUnionTypes: true }).compile(schema);

const anyValue = fc.oneof(
  fc.boolean(),
  fc.integer({ min: -3, max: 14 }),
  fc.double(),
  fc.string(),
  fc.constantFrom(...MODES),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const graphSection = fc.record(
  {
    enabled: fc.oneof(fc.boolean(), anyValue),
    mode: fc.oneof(fc.constantFrom(...MODES), anyValue),
    humanFlip: fc.oneof(fc.boolean(), anyValue),
    autoIndex: fc.oneof(fc.boolean(), anyValue),
  },
  { requiredKeys: [] },
);
const configs = fc.oneof(
  fc.record({ graph: fc.oneof(graphSection, anyValue), level: fc.oneof(fc.integer({ min: -1, max: 11 }), anyValue) }, { requiredKeys: [] }),
  anyValue,
  fc.anything(),
);

describe('properties', () => {
  it('never throws, and never resolves above what was requested (nor above advisory without a valid guarded/strict request)', () => {
    fc.assert(
      fc.property(configs, (input) => {
        const r = resolveGraphConfig(input);
        assert.ok(MODES.includes(r.resolved.mode));
        assert.ok(modeRank(r.resolved.mode) <= modeRank(r.requested.mode));
        const raw = (input as { graph?: { mode?: unknown } } | null)?.graph?.mode;
        const asked = typeof raw === 'string' && (MODES as readonly string[]).includes(raw) ? (raw as Mode) : 'advisory';
        assert.ok(modeRank(r.resolved.mode) <= modeRank(asked));
        if (modeRank(r.resolved.mode) > modeRank('advisory')) {
          const i = input as { graph: { enabled: unknown; humanFlip: unknown }; level: unknown };
          // Only an explicit true in the file enables (docs/configuration.md).
          assert.equal(i.graph.enabled, true);
          assert.equal(i.graph.humanFlip, true);
          assert.ok(typeof i.level === 'number' && i.level >= 7);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('the shipped schema and the resolver agree: valid ⇔ no problems', () => {
    fc.assert(
      fc.property(
        configs.filter((c) => c !== undefined && !(typeof c === 'object' && c !== null && 'rationale' in c)),
        (input) => {
          const r = resolveGraphConfig(input);
          assert.equal(validate(input), r.problems.length === 0, `${JSON.stringify(input)} → ${JSON.stringify(r.problems)}`);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('kg config', () => {
  after(removeTempDirs);
  const kg = async (args: string[], cwd: string) => {
    let stdout = '';
    let stderr = '';
    const code = await run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd });
    return { code, stdout, stderr };
  };

  it('prints requested and resolved mode, the rule and the problems; notes go to stderr', async () => {
    const root = tempDir();
    writeTree(root, {
      '.knowledge-graph/config.json': JSON.stringify({
        graph: { enabled: true, mode: 'strict', humanFlip: 'yes', autoIndex: true },
        level: 8,
      }),
    });
    const r = await kg(['config', '--root', root], '/');
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout);
    assert.equal(out.found, true);
    assert.equal(out.requested.mode, 'strict');
    assert.equal(out.resolved.mode, 'advisory');
    assert.equal(out.rule, 'guarded-without-human-flip');
    assert.equal(out.problems.length, 1);
    assert.match(r.stderr, /kg: note: \.knowledge-graph\/config\.json: "graph\.humanFlip" must be true or false/);
  });

  it('no config file: the defaults, found false; a missing root or a bad flag is a usage error', async () => {
    const root = tempDir();
    const r = await kg(['config'], root);
    assert.equal(r.code, 0);
    assert.deepEqual(JSON.parse(r.stdout).resolved, { enabled: true, mode: 'advisory', humanFlip: false, autoIndex: true, level: 4 });
    assert.equal(JSON.parse(r.stdout).found, false);
    assert.equal((await kg(['config', '--root', path.join(root, 'nope')], root)).code, 2);
    assert.equal((await kg(['config', '--bogus'], root)).code, 2);
  });
});
