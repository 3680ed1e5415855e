// Files the graph does not read, as a user meets them through the real CLI (ADR 153): the fixture
// test/fixtures/unanalysed-referrers copied to a temporary repository, built with the bundled kg,
// asked who calls a function only an .astro and an .mdx file use, and checked after an edit.
// Expected counts come from the fixture's files, never from kg's own output.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, FIXTURES, copyFixture, removeTempDirs, tempDir } from '../helpers/fixtures';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, KG_SERVER: 'off' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const FIXTURE = path.join(FIXTURES, 'unanalysed-referrers');

/** The fixture's .astro and .mdx files whose text imports src/cart.ts or the file re-exporting it. */
function importersOfCart(): string[] {
  return fs
    .readdirSync(path.join(FIXTURE, 'src'))
    .filter((f) => /\.(astro|mdx)$/.test(f))
    .filter((f) => /from '\.\/(cart|index)'/.test(fs.readFileSync(path.join(FIXTURE, 'src', f), 'utf8')))
    .map((f) => `src/${f}`)
    .sort();
}

function built(): string {
  const root = copyFixture('unanalysed-referrers');
  const r = kg(['build', '--apply'], root);
  assert.equal(r.code, 0, r.stderr);
  return root;
}

describe('files the graph does not read, through the CLI', () => {
  after(removeTempDirs);

  it('kg callers and kg affected name the count and the reason, never a bare zero', () => {
    const root = built();
    const expected = importersOfCart();
    assert.equal(expected.length, 2);
    const callers = kg(['callers', 'sym:src/cart.ts#addToCart'], root);
    assert.equal(callers.code, 0, callers.stderr);
    const answer = JSON.parse(callers.stdout) as { callers: string[]; unanalysed: { importers: string[]; reason: string } };
    assert.deepEqual(answer.callers, []);
    assert.deepEqual(answer.unanalysed.importers, expected);
    assert.match(answer.unanalysed.reason, /text scan is a guess/);
    assert.match(callers.stderr, /kg callers: 0 proven · 1 \.astro file and 1 \.mdx file import src\/cart\.ts, not analysed/);

    const affected = kg(['affected', 'sym:src/cart.ts#addToCart'], root);
    assert.equal(affected.code, 0, affected.stderr);
    const a = JSON.parse(affected.stdout) as { breaks: boolean; unanalysed?: { importers: string[] } };
    assert.equal(a.breaks, false);
    assert.deepEqual(a.unanalysed?.importers, expected, 'breaks: false comes with what the graph cannot see');
  });

  it('kg check: a re-signed function only unread files use is listed as unanalysed, and stderr does not call it safe', () => {
    const root = built();
    const cart = path.join(root, 'src', 'cart.ts');
    const text = fs.readFileSync(cart, 'utf8');
    const from = 'addToCart(item: string)';
    assert.ok(text.includes(from));
    fs.writeFileSync(cart, text.replace(from, 'addToCart(item: string, count: number)'));
    const r = kg(['check'], root);
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as {
      breaks: boolean;
      breakingChanges: unknown[];
      unanalysed?: Array<{ symbol: string; change: string; file: string; importers: string[] }>;
    };
    assert.equal(answer.breaks, false);
    assert.deepEqual(answer.breakingChanges, []);
    assert.deepEqual(answer.unanalysed, [
      { symbol: 'sym:src/cart.ts#addToCart', change: 'signature-changed', file: 'src/cart.ts', importers: importersOfCart() },
    ]);
    assert.match(r.stderr, /nothing proven breaks, but 1 change may break files the graph does not read/);
    assert.doesNotMatch(r.stderr, /nothing breaks/);
  });

  it('editing an unread file makes the graph stale', () => {
    const root = built();
    fs.appendFileSync(path.join(root, 'src', 'Empty.astro'), "<script>import { total } from './cart';</script>\n");
    const r = kg(['status'], root);
    assert.match(r.stdout + r.stderr, /src\/Empty\.astro/);
  });

  it('gives identical bytes from two directories and creation orders', () => {
    const a = copyFixture('unanalysed-referrers', { into: path.join(tempDir('kg-ua-a-'), 'repo') });
    const b = copyFixture('unanalysed-referrers', { into: path.join(tempDir('kg-ua-b-other-'), 'x'), reverse: true });
    for (const root of [a, b]) assert.equal(kg(['build', '--apply'], root).code, 0);
    const ga = fs.readFileSync(path.join(a, '.knowledge-graph', 'graph.json'), 'utf8');
    const gb = fs.readFileSync(path.join(b, '.knowledge-graph', 'graph.json'), 'utf8');
    assert.equal(ga, gb);
    assert.ok(ga.includes('"unanalysed": [\n'));
  });
});
