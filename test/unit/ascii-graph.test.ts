// graph.json is written in ASCII (ADR 133): every character outside ASCII in a label, a text, an id
// or a key is a `\u` escape, so the bytes are all ASCII and the JSON value is the graph's own.
// Checked on real fixture builds with random Unicode (astral characters, lone surrogates, `…`) put
// into their nodes and edges, and on a build of sources whose names and call texts are not ASCII.
// The manifest beside it is written the same way, and both texts are one-byte strings in memory
// even when the source they were cut from is not (v8.serialize writes a string's representation:
// tag '"' for one byte a character).

import * as assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { serialize } from 'node:v8';
import { buildTracked, type Graph } from '../../src/graph';
import { asciiJson, oneByte, serializeGraph } from '../../src/graph/io/canonical';
import { copyFixture, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { fc } from '../helpers/seed';

/** Nothing above U+007F (a test by code: no control character in a pattern). */
const ASCII_ONLY = (s: string): boolean => [...s].every((c) => c.charCodeAt(0) < 0x80);

/** True when the engine holds `s` one byte a character (the serializer's tag for such a string is '"'). */
const ONE_BYTE = (s: string): boolean => serialize(s)[2] === 0x22;

describe('graph.json is ASCII (ADR 133)', () => {
  after(removeTempDirs);
  const built = ['rationale', 'astral', 'calls-members'].map((name) => buildTracked({ root: copyFixture(name) }));

  it('any text in any node or edge: ASCII bytes, the same value, with or without a warm memo', () => {
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
    for (const b of built) {
      const lines = new WeakMap<object, string>();
      fc.assert(
        fc.property(fc.nat(), fc.nat(), text, text, text, (n, e, label, reason, key) => {
          const g: Graph = JSON.parse(JSON.stringify(b.graph)) as Graph;
          const node = g.nodes[n % g.nodes.length];
          node.label = label + '…';
          const edge = g.edges[e % Math.max(1, g.edges.length)];
          if (edge) (edge as unknown as Record<string, unknown>)[key] = label;
          g.diagnostics = [{ path: 'src/x.ts', reason }];
          const out = serializeGraph(g, lines);
          assert.ok(ASCII_ONLY(out));
          assert.deepStrictEqual(JSON.parse(out), JSON.parse(JSON.stringify(g)));
          assert.equal(out, serializeGraph(g));
        }),
        { numRuns: 50 },
      );
    }
  });

  it("the escapes are JSON.stringify's own form: lower-case hex, each half of a pair", () => {
    assert.equal(asciiJson(JSON.stringify('a…😀\ud800b')), '"a\\u2026\\ud83d\\ude00\\ud800b"');
    assert.equal(asciiJson('"plain"'), '"plain"');
  });

  it('a real build whose names and call texts are not ASCII writes ASCII, and its values keep them', () => {
    const root = tempDir();
    writeTree(root, {
      'package.json': '{"name":"grüße","type":"module"}',
      'tsconfig.json': '{"compilerOptions":{"strict":true,"module":"nodenext"},"include":["src"]}',
      'src/grüße.ts':
        'export function grüße(名前: string): string {\n  return `hallo ${名前} 😀`;\n}\n' +
        'export function aufrufen(x: any): void {\n  grüße("welt");\n  x.irgendwas("ein sehr langer Text, der gekürzt wird 😀😀😀😀")();\n}\n',
    });
    const b = buildTracked({ root });
    assert.ok(ASCII_ONLY(b.text));
    const g = JSON.parse(b.text) as Graph;
    const greet = g.nodes.find((n) => n.label === 'grüße');
    assert.ok(greet, 'the symbol grüße, by its own name');
    assert.ok(
      g.edges.some((e) => e.relation === 'calls' && e.confidence === 'EXACT' && e.target === greet.id),
      'the proven call to grüße',
    );
    assert.ok(
      g.edges.some((e) => e.target.includes('gekürzt') || e.target.endsWith('…')),
      'a cut call text, with its ellipsis',
    );
    assert.match(b.text, /\\u00fc/);
    // The manifest: ASCII, and the same values (a file's name and a cut call text keep their characters).
    assert.ok(ASCII_ONLY(b.manifestText));
    assert.match(b.manifestText, /"src\/gr\\u00fc\\u00dfe\.ts"/);
    const m = JSON.parse(b.manifestText) as { files: Record<string, unknown> };
    assert.deepStrictEqual(Object.keys(m.files), ['src/grüße.ts']);
    assert.deepStrictEqual(m, JSON.parse(JSON.stringify(b.manifest)));
    // Names cut from a source with an emoji in it are two-byte strings, and so is the JSON of a row
    // that holds one, even with every character in Latin-1; the texts written are not.
    const caller = b.graph.nodes.find((n) => n.id.endsWith('#aufrufen'));
    assert.ok(caller);
    assert.equal(ONE_BYTE(JSON.stringify(caller)), false, 'the fixture gives two-byte rows');
    assert.ok(ONE_BYTE(b.text), "graph.json's text is one byte a character");
    assert.ok(ONE_BYTE(b.manifestText), "the manifest's text is one byte a character");
  });

  it('oneByte: the same characters, one byte each when they fit (Latin-1), the string itself when not', () => {
    const twoByte = 'abc…'.slice(0, 3);
    assert.equal(ONE_BYTE(twoByte), false);
    assert.equal(oneByte(twoByte), 'abc');
    assert.ok(ONE_BYTE(oneByte(twoByte)));
    assert.ok(ONE_BYTE(oneByte('grüße…'.slice(0, 5))));
    assert.equal(oneByte('grüße…'.slice(0, 5)), 'grüße');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const t = oneByte(s);
        assert.equal(t, s);
        assert.equal(
          ONE_BYTE(t),
          [...s].every((c) => c.charCodeAt(0) <= 0xff),
        );
      }),
      { numRuns: 300 },
    );
  });
});
