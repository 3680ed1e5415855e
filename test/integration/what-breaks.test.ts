// "What breaks" answered from references and dispatch, not calls alone (ADR 151), as a user meets
// it: the fixture test/fixtures/references-breaks copied to a temporary repository, built with the
// bundled CLI, then edited on disk. Renaming a constant four files import by name, a function
// passed as a callback, and a question about a method that implements an interface's member.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, copyFixture, removeTempDirs } from '../helpers/fixtures';
import { indexGraph, type CallerCounts } from '../../src/graph';
import { callerCounts } from '../../src/graph/query/node-details';
import type { Graph } from '../../src/graph/model';
import { callersTitle } from '../../src/host/graph-text';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, KG_SERVER: 'off' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Consumer {
  id: string;
  relation: string;
  file: string;
  line: number;
}
interface CheckAnswer {
  breaks: boolean;
  breakingChanges: Array<{ symbol: string; change: string; consumers: Consumer[] }>;
}

/** A built copy of the fixture, with `edit` applied to one file afterwards; `kg check`'s answer. */
function checkAfter(file: string, from: string, to: string): CheckAnswer {
  const root = copyFixture('references-breaks');
  const built = kg(['build', '--apply'], root);
  assert.equal(built.code, 0, built.stderr);
  const p = path.join(root, file);
  const text = fs.readFileSync(p, 'utf8');
  assert.ok(text.includes(from), `${file} holds ${from}`);
  fs.writeFileSync(p, text.split(from).join(to));
  const r = kg(['check'], root);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as CheckAnswer;
}

const where = (cs: Consumer[]) => cs.map((c) => `${c.id} ${c.relation} ${c.file}:${c.line}`).sort();

describe('what breaks, proven', () => {
  after(removeTempDirs);

  it('renaming a constant imported by name in four files breaks each of them', () => {
    const a = checkAfter('src/config.ts', 'MAX_RETRIES = 3', 'RETRIES = 3');
    assert.equal(a.breaks, true);
    const change = a.breakingChanges.find((c) => c.symbol === 'sym:src/config.ts#MAX_RETRIES');
    assert.ok(change, JSON.stringify(a.breakingChanges));
    assert.deepEqual(where(change.consumers), [
      'file:src/d.ts references src/d.ts:1', // the re-export by name
      'sym:src/a.ts#limit references src/a.ts:7',
      'sym:src/b.ts#tries references src/b.ts:5',
      'sym:src/c.ts#handlers references src/c.ts:3', // renamed on import, stored in an object
    ]);
  });

  it('renaming an interface property breaks the object literals it types, written in full or as a shorthand (ADR 155)', () => {
    const a = checkAfter('src/options.ts', '  retries: number;', '  attempts: number;');
    assert.equal(a.breaks, true);
    const retries = a.breakingChanges.find((c) => c.symbol === 'sym:src/options.ts#Options.retries');
    assert.ok(retries, JSON.stringify(a.breakingChanges));
    assert.deepEqual(where(retries.consumers), [
      'sym:src/e.ts#defaults references src/e.ts:3', // { retries: 3 } typed by a declaration
      'sym:src/e.ts#withRetries references src/e.ts:6', // { retries } typed by a return type
      'sym:src/f.ts#fromHandlers references src/f.ts:7', // { retries: 0, onDone } typed by a return type
    ]);
  });

  it('a default in a pattern hides neither the property its key reads nor the one a shorthand of it names (ADR 155)', () => {
    const a = checkAfter('src/options.ts', '  onDone(): void;', '  onFinish(): void;');
    const onDone = a.breakingChanges.find((c) => c.symbol === 'sym:src/options.ts#Options.onDone');
    assert.ok(onDone, JSON.stringify(a.breakingChanges));
    assert.deepEqual(where(onDone.consumers), [
      // { onDone() {} } of a literal typed Options: its key names the member, and the function
      // implements it (ADR 200)
      'sym:src/e.ts#defaults.onDone implements src/e.ts:3',
      'sym:src/e.ts#defaults.onDone references src/e.ts:3',
      'sym:src/e.ts#withRetries references src/e.ts:6', // { onDone: () => undefined }
      'sym:src/f.ts#fromHandlers references src/f.ts:7', // { onDone }, whose value is a local with a default
    ]);
    const b = checkAfter('src/options.ts', '  onDone?: () => void;', '  onFinish?: () => void;');
    const handlers = b.breakingChanges.find((c) => c.symbol === 'sym:src/options.ts#Handlers.onDone');
    assert.ok(handlers, JSON.stringify(b.breakingChanges));
    assert.deepEqual(where(handlers.consumers), ['sym:src/f.ts#fromHandlers references src/f.ts:6']); // const { onDone = … } = h
  });

  it('renaming a function passed as a callback and stored as a handler breaks where it is passed', () => {
    const a = checkAfter('src/config.ts', 'function format(', 'function formatValue(');
    assert.equal(a.breaks, true);
    const format = a.breakingChanges.find((c) => c.symbol === 'sym:src/config.ts#format');
    assert.ok(format, JSON.stringify(a.breakingChanges));
    assert.deepEqual(where(format.consumers), ['sym:src/a.ts#labels references src/a.ts:4']);
    const b = checkAfter('src/config.ts', 'export function install(', 'export function setupApp(');
    const install = b.breakingChanges.find((c) => c.symbol === 'sym:src/config.ts#install');
    assert.ok(install, JSON.stringify(b.breakingChanges));
    assert.deepEqual(where(install.consumers), ['file:src/d.ts references src/d.ts:2', 'sym:src/c.ts#handlers references src/c.ts:3']);
    // Its lens is not a bare "0 callers": the file re-exporting it and the object storing it use it
    // (its own `app.use(install)` is no user of itself).
    const built = copyFixture('references-breaks');
    assert.equal(kg(['build', '--apply'], built).code, 0);
    const load = indexGraph(JSON.parse(fs.readFileSync(path.join(built, '.knowledge-graph', 'graph.json'), 'utf8')) as Graph);
    assert.ok(load.ok);
    const [counts] = callerCounts(load.graph, ['sym:src/config.ts#install']);
    assert.deepEqual(counts, { callers: 0, candidates: 0, referrers: 2 });
    assert.equal(callersTitle(counts as CallerCounts, true), '0 callers · 2 referrers');
  });

  it('a method that implements an interface member: its callers through the interface are a tier of their own', () => {
    const root = copyFixture('references-breaks');
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const r = kg(['impact', 'sym:src/shapes.ts#Square.area'], root);
    assert.equal(r.code, 0, r.stderr);
    const impact = JSON.parse(r.stdout) as {
      callers: string[];
      consumers: string[];
      blastRadius: number;
      dispatched?: Array<{ via: string; relation: string; callers: string[] }>;
    };
    // Cube.area calls it through super and overrides it; nothing calls Square.area directly else.
    assert.deepEqual(impact.callers, ['sym:src/shapes.ts#Cube.area']);
    assert.deepEqual(impact.consumers, ['sym:src/shapes.ts#Cube.area']);
    assert.equal(impact.blastRadius, 1, 'the callers through the interface are not in the proven radius');
    assert.deepEqual(impact.dispatched, [
      { via: 'sym:src/shapes.ts#Shape.area', relation: 'implements', callers: ['sym:src/b.ts#area', 'sym:src/shapes.ts#describe'] },
    ]);
    const callers = JSON.parse(kg(['callers', 'sym:src/shapes.ts#Cube.area'], root).stdout) as {
      callers: string[];
      dispatched?: Array<{ via: string; relation: string; callers: string[] }>;
    };
    assert.deepEqual(callers.callers, []);
    assert.deepEqual(
      callers.dispatched?.map((d) => [d.via, d.relation, d.callers.length]),
      [
        ['sym:src/shapes.ts#Shape.area', 'implements', 2],
        ['sym:src/shapes.ts#Square.area', 'overrides', 1], // Cube.area's own super.area()
      ],
    );
    // What the lenses say (their counts come from callerCounts): the proven callers, then the
    // callers through the interface apart, never added to them; Cube.area's own super call is no
    // caller of itself.
    const load = indexGraph(JSON.parse(fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8')) as Graph);
    assert.ok(load.ok);
    const [square, cube, shape] = callerCounts(load.graph, [
      'sym:src/shapes.ts#Square.area',
      'sym:src/shapes.ts#Cube.area',
      'sym:src/shapes.ts#Shape.area',
    ]);
    assert.deepEqual(square, { callers: 1, candidates: 0, through: { callers: 2, via: ['Shape.area'] } });
    assert.deepEqual(cube, { callers: 0, candidates: 0, through: { callers: 2, via: ['Shape.area'] } });
    assert.deepEqual(shape, { callers: 2, candidates: 0 });
    assert.equal(callersTitle(square as CallerCounts, true), '1 caller · 2 through Shape.area');
  });

  it('a field is a node, and its readers are its consumers', () => {
    const root = copyFixture('references-breaks');
    assert.equal(kg(['build', '--apply'], root).code, 0);
    const r = JSON.parse(kg(['affected', 'sym:src/shapes.ts#Square.side'], root).stdout) as { consumers: string[]; breaks: boolean };
    assert.deepEqual(r, { ...r, consumers: ['sym:src/shapes.ts#Square.area'], breaks: true });
  });
});
