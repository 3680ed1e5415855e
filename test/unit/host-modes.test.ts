// src/host/modes.ts: what each resolved mode turns on in the editor (docs/configuration.md, "What
// each mode does"), which saves rebuild the graph under autoIndex, and the log lines a folder's
// configuration gives, over configurations read by the engine's own reader.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MODES, memoryFileHost, readGraphConfig } from '../../src/graph';
import { configLogLines, editorSurfaces, rebuildsOnSave } from '../../src/host/modes';

const read = (config?: string) =>
  readGraphConfig(memoryFileHost('/r', config === undefined ? {} : { '.knowledge-graph/config.json': config }), '/r');

describe('the editor per mode', () => {
  it('off: nothing; shadow: the guard to the log only; advisory: lenses; guarded and strict: lenses and diagnostics', () => {
    assert.deepEqual(
      MODES.map((m) => [m, editorSurfaces(m)]),
      [
        ['off', { lenses: false, guard: false, diagnostics: false }],
        ['shadow', { lenses: false, guard: true, diagnostics: false }],
        ['advisory', { lenses: true, guard: false, diagnostics: false }],
        ['guarded', { lenses: true, guard: true, diagnostics: true }],
        ['strict', { lenses: true, guard: true, diagnostics: true }],
      ],
    );
  });

  it('diagnostics never show without the guard, and only above advisory', () => {
    for (const m of MODES) {
      const s = editorSurfaces(m);
      if (s.diagnostics) assert.ok(s.guard && s.lenses, m);
    }
  });
});

describe('which saves rebuild the graph (autoIndex)', () => {
  it('TypeScript and JavaScript sources, declaration files included', () => {
    for (const f of ['src/a.ts', 'a.tsx', 'src/x/b.mts', 'c.cts', 'lib/d.js', 'e.jsx', 'f.mjs', 'g.cjs', 'types/h.d.ts'])
      assert.equal(rebuildsOnSave(f), true, f);
  });

  it('not other files, not installed packages, not the graph`s own folder, not outside the folder', () => {
    for (const f of [
      undefined,
      '',
      'README.md',
      'package.json',
      'src/a.ts.orig',
      'node_modules/x/index.js',
      'packages/p/node_modules/y/a.ts',
      '.knowledge-graph/x.js',
      '../other/a.ts',
    ]) {
      assert.equal(rebuildsOnSave(f), false, String(f));
    }
  });
});

describe('what the log says about a folder`s configuration', () => {
  it('no file: the shipped defaults, advisory with autoIndex, no problem', () => {
    assert.deepEqual(configLogLines('app', read()), [
      { level: 'info', text: 'app: mode advisory; autoIndex on; level 4 (no .knowledge-graph/config.json, the shipped defaults)' },
    ]);
  });

  it('guarded without humanFlip: the mode it resolves to and why', () => {
    const lines = configLogLines('app', read('{"graph": {"enabled": true, "mode": "guarded"}, "level": 8}'));
    assert.deepEqual(lines, [
      {
        level: 'info',
        text: 'app: mode advisory (requested guarded: `guarded` or `strict` requested without `humanFlip` → advisory); autoIndex on; level 8 (.knowledge-graph/config.json)',
      },
    ]);
  });

  it('each problem is a warning line; a file that is not JSON turns everything off', () => {
    const typo = configLogLines('app', read('{"graph": {"enabled": true, "mode": "strict", "humanflip": true}, "level": 9}'));
    assert.equal(
      typo[0].text,
      'app: mode advisory (requested strict: `guarded` or `strict` requested without `humanFlip` → advisory); autoIndex on; level 9 (.knowledge-graph/config.json)',
    );
    assert.deepEqual(typo.slice(1), [
      {
        level: 'warn',
        text: 'app: .knowledge-graph/config.json: unknown key "graph.humanflip" (known: enabled, mode, humanFlip, autoIndex); ignored',
      },
    ]);
    const broken = configLogLines('app', read('{"graph": '));
    assert.equal(
      broken[0].text,
      'app: mode off (requested advisory: `enabled` is not exactly `true` → off); autoIndex off; level 4 (.knowledge-graph/config.json)',
    );
    assert.deepEqual(
      broken.slice(1).map((l) => l.level),
      ['warn'],
    );
    assert.match(broken[1].text, /not valid JSON/);
  });

  it('strict as requested, autoIndex turned off', () => {
    assert.equal(
      configLogLines('app', read('{"graph": {"enabled": true, "mode": "strict", "humanFlip": true, "autoIndex": false}, "level": 7}'))[0]
        .text,
      'app: mode strict; autoIndex off; level 7 (.knowledge-graph/config.json)',
    );
  });
});
