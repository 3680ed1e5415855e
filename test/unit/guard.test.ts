// The editor side of the guard, without an editor: the comparison over a built graph and a
// buffer's text (guardEdit), the diagnostics each mode gives, and the autoIndex build scheduler
// (debounced; one build in flight, one queued; failures reported, nothing else changed).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BuildScheduler,
  buildGraph,
  createEditorGuard,
  EditorGuard,
  buildGuardIndex,
  formatBreakingChange,
  guardDiagnostics,
  guardEdit,
  memoryFileHost,
  type BreakingChange,
  type Mode,
  type SchedulerTimers,
} from '../../src/graph';

const LIB = `export function add(a: number, b: number): number {
  return a + b;
}
export function solo(): void {}
`;
const TREE = {
  'tsconfig.json': '{"include": ["src"]}',
  'src/lib.ts': LIB,
  'src/a.ts': 'import { add } from "./lib";\nexport function one() {\n  return add(1, 2);\n}\n',
  'src/b.ts':
    'import { add } from "./lib";\nexport function two() {\n  return add(3, 4);\n}\nexport function three() {\n  return add(5, 6);\n}\nexport function four() {\n  return add(7, 8);\n}\n',
};

const built = buildGraph({ root: '/r', host: memoryFileHost('/r', TREE) }).graph;
const index = buildGuardIndex(built);

describe('guardEdit', () => {
  it('an unchanged buffer or a body edit: nothing; a file without guarded symbols is not parsed', () => {
    assert.deepEqual(guardEdit(index, 'src/lib.ts', LIB), []);
    assert.deepEqual(guardEdit(index, 'src/lib.ts', LIB.replace('a + b', 'b + a')), []);
    assert.deepEqual(guardEdit(index, 'src/a.ts', 'syntax error ((('), []);
  });

  it('a signature change names every consumer in other files, in file and line order', () => {
    const [c] = guardEdit(index, 'src/lib.ts', LIB.replace('b: number)', 'b: string)'));
    assert.equal(c.change, 'signature-changed');
    assert.deepEqual(
      c.consumers.map((x) => `${x.id} ${x.file}:${x.line}:${x.column}`),
      [
        'sym:src/a.ts#one src/a.ts:3:10',
        'sym:src/b.ts#two src/b.ts:3:10',
        'sym:src/b.ts#three src/b.ts:6:10',
        'sym:src/b.ts#four src/b.ts:9:10',
      ],
    );
    assert.equal(
      formatBreakingChange(c),
      'Changing the signature of function add breaks 4 consumers in 2 files: one (src/a.ts:3), two (src/b.ts:3), three (src/b.ts:6), and 1 more',
    );
  });

  it('a half-typed buffer (a syntax error) still answers: what it can parse is compared', () => {
    const changes = guardEdit(index, 'src/lib.ts', LIB.replace('b: number)', 'b: number, c'));
    assert.ok(changes.every((c) => c.symbol === 'sym:src/lib.ts#add'));
  });
});

describe('guardDiagnostics', () => {
  const removed = guardEdit(index, 'src/lib.ts', 'export function solo(): void {}\n');
  const changed = guardEdit(index, 'src/lib.ts', LIB.replace('): number {', '): string {'));

  it('guarded → warnings, strict → errors, off/shadow/advisory → none', () => {
    const severities = (['off', 'shadow', 'advisory', 'guarded', 'strict'] as Mode[]).map((m) =>
      guardDiagnostics(changed, m).map((d) => d.severity),
    );
    assert.deepEqual(severities, [[], [], [], ['warning'], ['error']]);
  });

  it("at the declaration's name when it is still there, at the top of the file when removed; related info at each use", () => {
    const [d] = guardDiagnostics(changed, 'guarded');
    assert.deepEqual(d.range, { line: 1, column: 17, endLine: 1, endColumn: 20 });
    assert.equal(d.file, 'src/lib.ts');
    assert.equal(d.code, 'breaks-consumers');
    assert.equal(d.source, 'Knowledge Graph');
    assert.equal(d.related.length, 4);
    assert.deepEqual(d.related[0], { file: 'src/a.ts', line: 3, column: 10, message: 'one calls add here' });
    const [r] = guardDiagnostics(removed, 'strict');
    assert.deepEqual(r.range, { line: 1, column: 1, endLine: 1, endColumn: 1 });
    assert.match(r.message, /^Removing function add breaks 4 consumers in 2 files: /);
  });

  it('top-level code is named by its place', () => {
    const top: BreakingChange = {
      ...changed[0],
      consumers: [{ id: 'file:src/main.ts', relation: 'calls', file: 'src/main.ts', line: 7, column: 1 }],
    };
    assert.equal(
      formatBreakingChange(top),
      'Changing the signature of function add breaks 1 consumer in 1 file: src/main.ts:7 (top level)',
    );
    assert.equal(guardDiagnostics([top], 'guarded')[0].related[0].message, 'top-level code calls add here');
  });

  it('singular wording for one consumer', () => {
    const one: BreakingChange = { ...changed[0], consumers: [changed[0].consumers[0]] };
    assert.equal(formatBreakingChange(one), 'Changing the signature of function add breaks 1 consumer in 1 file: one (src/a.ts:3)');
  });
});

describe('EditorGuard (what the host keeps per folder)', () => {
  const edit = LIB.replace('b: number)', 'b: string)');

  it('per mode: nothing in off and advisory; log only in shadow; warnings in guarded; errors in strict', () => {
    const guard = createEditorGuard();
    guard.setGraph(built);
    const seen = (['off', 'advisory', 'shadow', 'guarded', 'strict'] as Mode[]).map((m) => {
      guard.setMode(m);
      const r = guard.check('src/lib.ts', edit);
      return [m, r.changes.length, r.log.length, r.diagnostics.map((d) => d.severity).join()];
    });
    assert.deepEqual(seen, [
      ['off', 0, 0, ''],
      ['advisory', 0, 0, ''],
      ['shadow', 1, 1, ''],
      ['guarded', 1, 1, 'warning'],
      ['strict', 1, 1, 'error'],
    ]);
  });

  it('no graph, or a file without guarded symbols: nothing, and no parse', () => {
    let parses = 0;
    const guard = new EditorGuard(() => {
      parses++;
      return [];
    });
    guard.setMode('strict');
    assert.equal(guard.active, false);
    assert.deepEqual(guard.check('src/lib.ts', edit).changes, []);
    guard.setGraph(built);
    assert.equal(guard.guards('src/a.ts'), false);
    guard.check('src/a.ts', 'anything');
    assert.equal(parses, 0);
    assert.equal(guard.check('src/lib.ts', edit).changes.length, 1, 'every symbol gone: reported as removed');
    assert.equal(parses, 1);
  });

  it('a breaking change survives the rebuild its own save triggers (autoIndex), until undone or accepted', () => {
    const rebuilt = (lib: string) => buildGraph({ root: '/r', host: memoryFileHost('/r', { ...TREE, 'src/lib.ts': lib }) }).graph;
    const guard = createEditorGuard();
    guard.setMode('guarded');
    guard.setGraph(built);
    assert.equal(guard.check('src/lib.ts', edit).changes.length, 1);
    // Saved: the graph is rebuilt from the edited file and records the new signature.
    guard.setGraph(rebuilt(edit));
    const held = guard.check('src/lib.ts', edit);
    assert.deepEqual(
      held.changes.map((c) => [c.symbol, c.change, c.consumers.length]),
      [['sym:src/lib.ts#add', 'signature-changed', 4]],
    );
    assert.deepEqual(guard.pendingFiles(), ['src/lib.ts']);
    // Undone: nothing, and nothing pending.
    assert.deepEqual(guard.check('src/lib.ts', LIB).changes, []);
    assert.deepEqual(guard.pendingFiles(), []);
    // Accepted: the rebuilt graph is the baseline again.
    guard.setGraph(built);
    guard.check('src/lib.ts', edit);
    guard.setGraph(rebuilt(edit));
    guard.accept('src/lib.ts');
    assert.deepEqual(guard.check('src/lib.ts', edit).changes, []);
  });

  it('held baselines move to another guard as plain data (the editor`s next graph worker) and keep the break visible there', () => {
    const rebuiltGraph = buildGraph({ root: '/r', host: memoryFileHost('/r', { ...TREE, 'src/lib.ts': edit }) }).graph;
    const first = createEditorGuard();
    first.setMode('guarded');
    first.setGraph(built);
    first.check('src/lib.ts', edit);
    const held = structuredClone(first.held());
    assert.deepEqual(
      held.map(([f, e]) => [f, e.map((g) => [g.node.id, g.consumers.length])]),
      [['src/lib.ts', [['sym:src/lib.ts#add', 4]]]],
    );
    const next = createEditorGuard();
    next.setMode('strict');
    next.setGraph(rebuiltGraph);
    assert.deepEqual(next.check('src/lib.ts', edit).changes, [], 'the rebuilt graph alone records the new signature');
    next.restoreHeld(held);
    assert.deepEqual(
      next.check('src/lib.ts', edit).diagnostics.map((d) => [d.symbol, d.severity, d.related.length]),
      [['sym:src/lib.ts#add', 'error', 4]],
    );
    assert.deepEqual(next.pendingFiles(), ['src/lib.ts']);
    // What the next guard already holds for a file wins over what is handed over.
    next.restoreHeld([['src/lib.ts', []]]);
    assert.equal(next.check('src/lib.ts', edit).changes.length, 1);
  });

  it('a removed symbol stays reported, with its consumers, after the rebuild that drops its node', () => {
    const removed = 'export function solo(): void {}\n';
    const guard = createEditorGuard();
    guard.setMode('strict');
    guard.setGraph(built);
    assert.equal(guard.check('src/lib.ts', removed).changes.length, 1);
    guard.setGraph(buildGraph({ root: '/r', host: memoryFileHost('/r', { ...TREE, 'src/lib.ts': removed }) }).graph);
    const [c] = guard.check('src/lib.ts', removed).changes;
    assert.deepEqual([c.symbol, c.change, c.consumers.length], ['sym:src/lib.ts#add', 'removed', 4]);
    assert.equal(guard.check('src/lib.ts', removed).diagnostics[0].severity, 'error');
  });

  it('a parser failure is a log line, not an exception', () => {
    const guard = new EditorGuard(() => {
      throw new Error('boom');
    });
    guard.setMode('guarded');
    guard.setGraph(built);
    assert.deepEqual(guard.check('src/lib.ts', edit), { changes: [], diagnostics: [], log: ['guard: src/lib.ts: not compared (boom)'] });
  });
});

/** Timers a test advances by hand. */
function fakeTimers() {
  let now = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  const timers: SchedulerTimers = {
    setTimeout: (fn, ms) => {
      pending.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (h) => void pending.delete(h as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [h, t] of [...pending].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= now) {
        pending.delete(h);
        t.fn();
      }
    }
  };
  return { timers, advance };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('BuildScheduler', () => {
  it('debounces saves into one build', async () => {
    const t = fakeTimers();
    let builds = 0;
    const s = new BuildScheduler(async () => void builds++, { delayMs: 300, timers: t.timers });
    s.request();
    t.advance(200);
    s.request();
    t.advance(200);
    assert.equal(builds, 0);
    assert.equal(s.state, 'waiting');
    t.advance(100);
    await s.idle();
    assert.equal(builds, 1);
    assert.equal(s.state, 'idle');
  });

  it('one in flight, one queued: saves during a build fold into a single next build', async () => {
    const t = fakeTimers();
    const gates = [deferred(), deferred(), deferred()];
    let started = 0;
    const settled: string[] = [];
    const s = new BuildScheduler(
      () => {
        const g = gates[started++];
        return g.promise.then(() => `build ${started}`);
      },
      { delayMs: 10, timers: t.timers, onSettled: (o) => settled.push(o.ok ? String(o.value) : 'failed') },
    );
    s.request();
    t.advance(10);
    assert.equal(started, 1);
    for (let i = 0; i < 5; i++) {
      s.request();
      t.advance(10);
    }
    assert.equal(s.state, 'running+queued');
    assert.equal(started, 1, 'never two at once');
    gates[0].resolve();
    await new Promise((r) => setImmediate(r));
    assert.equal(started, 2, 'the queued build starts when the first ends');
    assert.equal(s.state, 'running');
    gates[1].resolve();
    await s.idle();
    assert.equal(started, 2, 'five saves, one queued build');
    assert.deepEqual(settled, ['build 1', 'build 2']);
  });

  it('a failed build is reported and the next save builds again', async () => {
    const t = fakeTimers();
    const outcomes: boolean[] = [];
    let fail = true;
    const s = new BuildScheduler(
      async () => {
        if (fail) throw new Error('tsconfig unparsable');
        return 1;
      },
      { delayMs: 5, timers: t.timers, onSettled: (o) => outcomes.push(o.ok) },
    );
    s.request();
    t.advance(5);
    await s.idle();
    fail = false;
    s.request();
    t.advance(5);
    await s.idle();
    assert.deepEqual(outcomes, [false, true]);
  });

  it('dispose stops what has not started', async () => {
    const t = fakeTimers();
    let builds = 0;
    const s = new BuildScheduler(async () => void builds++, { delayMs: 5, timers: t.timers });
    s.request();
    s.dispose();
    t.advance(10);
    s.request();
    t.advance(10);
    await s.idle();
    assert.equal(builds, 0);
  });
});
