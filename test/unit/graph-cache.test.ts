// The repository's graph cache (src/cli/graph-cache.ts, ADR 166) on real files in a temp folder:
// what goes in comes out byte for byte; two graphs that differ in a few records share the rest of
// their chunks on disk; a chunk or an entry that does not hold what its hash says is never served
// and is removed; a torn entry is not listed; the least recently used entries go past the budget
// and the chunks only they named go with them.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { GraphCache, parseSize } from '../../src/cli/graph-cache';
import { removeTempDirs, tempDir } from '../helpers/fixtures';

after(removeTempDirs);

/** A graph.json-like text: one record a line, `n` records, record `i` spelled by `spell(i)`. */
function graphText(n: number, spell = (i: number) => `{"id":"src/file${i}.ts#fn${i}","kind":"function","line":${i % 97}}`): string {
  const lines = ['{"nodes":['];
  for (let i = 0; i < n; i++) lines.push(spell(i) + (i < n - 1 ? ',' : ''));
  lines.push(']}');
  return lines.join('\n') + '\n';
}

const STATE = { commit: 'c'.repeat(40), tree: 't'.repeat(40), dirty: [] as string[] };

function chunkFiles(dir: string): string[] {
  const root = path.join(dir, 'chunks');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((d) => fs.readdirSync(path.join(root, d)).map((f) => path.join(root, d, f)));
}

describe('the graph cache', () => {
  it('gives back the bytes it was given, and shares what two graphs have in common', () => {
    const dir = tempDir('kg-cache-');
    const cache = new GraphCache(dir);
    const a = graphText(20_000);
    // Ten records changed and one inserted near the start: the rest of the text is the same.
    const b = graphText(20_000, (i) =>
      i % 2000 === 7
        ? `{"id":"src/file${i}.ts#renamed${i}","kind":"function"}`
        : `{"id":"src/file${i}.ts#fn${i}","kind":"function","line":${i % 97}}`,
    ).replace('{"nodes":[\n', '{"nodes":[\n{"id":"src/new.ts#added","kind":"function"},\n');
    cache.put('a'.repeat(40), STATE, 'engine', 'opts', a, 'manifest A\n');
    const onlyA = cache.status();
    cache.put('b'.repeat(40), { ...STATE, tree: 'u'.repeat(40) }, 'engine', 'opts', Buffer.from(b), 'manifest B\n');
    const both = cache.status();
    assert.equal(both.entries.length, 2);
    const [eb, ea] = both.entries; // the most recently used first
    assert.equal(cache.read(ea)?.graphText, a);
    assert.equal(cache.read(eb)?.graphText, b);
    assert.equal(cache.read(eb)?.manifestText, 'manifest B\n');
    // B added only the chunks around its eleven changes: far less than a second copy of A.
    const added = both.bytes - onlyA.bytes;
    assert.ok(added < onlyA.bytes / 3, `B cost ${added} bytes beside A's ${onlyA.bytes}`);
    const shared = ea.graph.chunks.filter((c) => eb.graph.chunks.includes(c)).length;
    assert.ok(shared > ea.graph.chunks.length / 2, `${shared} of ${ea.graph.chunks.length} chunks shared`);
    // Compressed and shared: the two graphs on disk hold less than one of them uncompressed.
    assert.ok(both.bytes < a.length, `${both.bytes} on disk for two graphs of ${a.length} bytes`);
  });

  it('never serves a chunk that does not hold what its name says, and drops the entry', () => {
    const dir = tempDir('kg-cache-');
    const cache = new GraphCache(dir);
    cache.put('a'.repeat(40), STATE, 'engine', 'opts', graphText(3000), 'm\n');
    const [entry] = cache.list();
    const victim = chunkFiles(dir).find((f) => f.includes(entry.graph.chunks[1]));
    assert.ok(victim);
    // Well-formed gzip of other bytes: only the hash can tell.
    fs.writeFileSync(victim, gzipSync(Buffer.from('{"id":"forged"}\n')));
    assert.equal(cache.read(entry), undefined);
    assert.deepEqual(cache.list(), []);
  });

  it('never serves an entry whose chunks are missing, nor lists a torn entry', () => {
    const dir = tempDir('kg-cache-');
    const cache = new GraphCache(dir);
    cache.put('a'.repeat(40), STATE, 'engine', 'opts', graphText(3000), 'm\n');
    cache.put('b'.repeat(40), STATE, 'engine', 'opts', graphText(10), 'm2\n');
    const entryB = cache.list().find((e) => e.key === 'b'.repeat(40));
    assert.ok(entryB);
    fs.rmSync(chunkFiles(dir).find((f) => f.includes(entryB.graph.chunks[0])) as string);
    assert.equal(cache.read(entryB), undefined);
    const file = path.join(dir, 'entries', `${'a'.repeat(40)}.json`);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 50));
    assert.deepEqual(cache.list(), []);
  });

  it('removes the least recently used graphs past the budget, with the chunks only they named', () => {
    const dir = tempDir('kg-cache-');
    const cache = new GraphCache(dir);
    const texts = [0, 1, 2].map((k) => graphText(3000, (i) => `{"id":"g${k}/file${i}.ts","kind":"module"}`));
    for (const [k, t] of texts.entries()) cache.put(String(k).repeat(40), STATE, 'engine', 'opts', t, `m${k}\n`);
    // Use the oldest, so the middle one is now the least recently used.
    const oldest = cache.list().find((e) => e.key === '0'.repeat(40));
    assert.ok(oldest && cache.read(oldest));
    const full = cache.status().bytes;
    // A budget a tenth short of it: one graph (a third) must go, the least recently used.
    const budget = Math.floor(full * 0.9);
    const result = cache.prune(budget, Date.now() + 3_600_000);
    assert.equal(result.entries, 1);
    assert.deepEqual(
      cache
        .list()
        .map((e) => e.key)
        .sort(),
      ['0'.repeat(40), '2'.repeat(40)],
    );
    assert.ok(cache.status().bytes <= budget);
    const named = new Set(cache.list().flatMap((e) => [...e.graph.chunks, ...e.manifest.chunks]));
    for (const f of chunkFiles(dir)) assert.ok(named.has(path.basename(f, '.gz')), `${f} is named by no entry`);
  });

  it('reads sizes as people write them', () => {
    assert.equal(parseSize('500M'), 500 * 1024 ** 2);
    assert.equal(parseSize('2G'), 2 * 1024 ** 3);
    assert.equal(parseSize('1.5k'), 1536);
    assert.equal(parseSize('4096'), 4096);
    assert.equal(parseSize('lots'), undefined);
  });
});
