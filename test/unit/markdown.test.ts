// The markdown scanner and the comment ranges, as pure functions: what counts as a heading, a
// link, a code span or a mention, and what never does (code blocks, comments, strings, JSX text).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import { commentAt, enclosingSymbol } from '../../src/graph/indexer/rationale/comments';
import { extractFile, parseSource } from '../../src/graph/indexer/compiler/extract';
import { findRecordMentions, parseMarkdown, slugify } from '../../src/graph/indexer/rationale/markdown';
import { codeSpanTarget, linkTarget, recordNumber } from '../../src/graph/indexer/rationale/rationale';
import { positionInText } from '../helpers/positions';

const refs = (md: string) => parseMarkdown(md).refs.map((r) => `${r.kind} ${r.target}`);
const mentions = (md: string) => parseMarkdown(md).mentions.map((m) => m.num);
const headings = (md: string) => parseMarkdown(md).headings.map((h) => `${h.level} ${h.text}`);

describe('markdown scanner', () => {
  it('reads links, reference definitions and code spans, with their positions', () => {
    const md = 'Intro [a](src/a.ts "title") and [b](<src/b c.ts>) and [c](src/(c).ts).\n`src/d.ts#Sym` and `` x `y` ``.\n\n[ref]: ./e.ts\n';
    const doc = parseMarkdown(md);
    assert.deepEqual(
      doc.refs.map((r) => `${r.kind} ${r.target} ${r.line}:${r.column}`).sort(),
      [
        ['code', 'src/d.ts#Sym', 'src/d.ts#Sym'],
        ['code', 'x `y`', 'x `y`'],
        ['link', 'src/a.ts', 'src/a.ts'],
        ['link', 'src/b c.ts', 'src/b c.ts'],
        ['link', 'src/(c).ts', 'src/(c).ts'],
        ['link', './e.ts', './e.ts'],
      ]
        .map(([kind, target, needle]) => {
          const p = positionInText(md, needle);
          return `${kind} ${target} ${p.line}:${p.column}`;
        })
        .sort(),
    );
  });

  it('ignores images, escaped brackets, autolinks, footnotes and inline HTML comments', () => {
    assert.deepEqual(refs('![img](a.png) \\[no](b.ts) <https://x.y/c.ts> <!-- [d](d.ts) -->\n\n[^1]: e.ts\n'), []);
    assert.deepEqual(mentions('Text <!-- ADR-1 --> <https://x.y/ADR-2> `ADR-3` [ADR-4](x.md)'), [4], 'link text is prose');
    assert.deepEqual(mentions('<!-- a block-level comment --> hides the rest of its line: ADR-5\n\nADR-6'), [6]);
  });

  it('never reads fenced, tilde-fenced, longer-fenced or indented code', () => {
    const md = [
      '```ts',
      '[a](a.ts) ADR-1 `b.ts`',
      '```',
      '~~~~',
      '~~~',
      '[c](c.ts) ADR-2',
      '~~~~',
      '````',
      '```',
      'still code [d](d.ts)',
      '````',
      '',
      '    [e](e.ts) ADR-3',
      '',
      'prose ADR-4',
    ].join('\n');
    assert.deepEqual(refs(md), []);
    assert.deepEqual(mentions(md), [4]);
  });

  it('keeps the content of HTML comments outside code, line by line, with positions (ADR 88)', () => {
    const md =
      '> <!-- a\n> b -->\n\n- item <!-- c --> x\n\n```\n<!-- no -->\n```\n    <!-- no -->\n\n<!-- d\n        e\n-->\n\nText `<!-- no -->` too.\n';
    assert.deepEqual(parseMarkdown(md).comments, [
      // In a block quote: the markers are not content; the comment ends at -->.
      [
        { text: ' a', line: 1, offset: 6 },
        { text: 'b ', line: 2, offset: 2 },
      ],
      // Inline, in a list item's paragraph.
      [{ text: ' c ', line: 4, offset: 11 }],
      // An open comment keeps an indented line (it is not indented code), and its closing line.
      [
        { text: ' d', line: 11, offset: 4 },
        { text: '        e', line: 12, offset: 0 },
        { text: '', line: 13, offset: 0 },
      ],
    ]);
  });

  it('hides an unclosed fence to the end of the document', () => {
    assert.deepEqual(refs('text\n```\n[a](a.ts)\n# not a heading\n'), []);
    assert.deepEqual(headings('text\n```\n# not a heading\n'), []);
  });

  it('knows an indented line after a paragraph is a continuation, not code', () => {
    assert.deepEqual(refs('para\n    [a](a.ts)\n'), ['link a.ts']);
    assert.deepEqual(refs('para\n\n    [a](a.ts)\n'), []);
  });

  it('measures indented code from the list item content', () => {
    const md = '- item\n\n  para in item [a](a.ts)\n\n      code in item [b](b.ts)\n\n1. other\n\n    [c](c.ts) is item text\n';
    assert.deepEqual(refs(md), ['link a.ts', 'link c.ts']);
    assert.deepEqual(refs('- outer\n  - inner\n\n    inner para [a](a.ts)\n\n        inner code [b](b.ts)\n'), ['link a.ts']);
    assert.deepEqual(refs('- item\n\n```\n[a](a.ts)\n```\n[b](b.ts)\n'), ['link b.ts'], 'a fence at column 1 ends the list');
  });

  it('closes a fence opened in a block quote when the quote ends', () => {
    assert.deepEqual(refs('> ```\n> [a](a.ts)\n\n[b](b.ts)\n'), ['link b.ts']);
  });

  it('reads ATX and setext headings, not thematic breaks, front matter or commented headings', () => {
    const md =
      '---\ntitle: x\n---\n# One #\n\n## Two ##   \nThree\n=====\nFour\n----\n\n---\n\n#hashtag\n<!--\n# hidden\n-->\n###### Six\n####### seven\n';
    assert.deepEqual(headings(md), ['1 One', '2 Two', '1 Three', '2 Four', '6 Six']);
  });

  it('renders heading text without markup, keeping snake_case', () => {
    assert.deepEqual(headings('# Use *emphasis*, `code_span` and [a link](x.md) in snake_case __here__\n'), [
      '1 Use emphasis, code_span and a link in snake_case here',
    ]);
  });

  it('slugs headings the way GitHub anchors them', () => {
    assert.equal(slugify('kg build & friends'), 'kg-build--friends');
    assert.equal(slugify('Node fields, in order'), 'node-fields-in-order');
    assert.equal(slugify('graph.json — the format'), 'graphjson--the-format');
    assert.equal(slugify('Übersicht_2'), 'übersicht_2');
  });

  it('finds record mentions in every spelling, and only whole numbers', () => {
    assert.deepEqual(
      findRecordMentions('ADR-7, ADR-0007, ADR 7, adr:7, Adr-7.').map((m) => m.num),
      [7, 7, 7, 7, 7],
    );
    assert.deepEqual(
      findRecordMentions('ADR-7b ADRs 7 xADR-7 ADR-1234567890 ADR7 ADR-N').map((m) => m.num),
      [],
    );
    assert.deepEqual(
      findRecordMentions('MADR-0 ADR-0000').map((m) => m.num),
      [0],
    );
  });

  it('stays linear on pathological input', () => {
    // Each of these is quadratic (minutes) for a naive scanner and a few milliseconds here.
    const n = 200_000;
    const patterns = ['<!--', ' ``', '[x](', '[a](b ', '<a:', '`'];
    const doc = parseMarkdown(patterns.map((p) => 'x ' + p.repeat(n) + ' ADR-1').join('\n\n'));
    assert.equal(doc.mentions.length, patterns.length, 'each paragraph was read to its end');
  });
});

describe('citation targets', () => {
  it('numbers records by the leading number of the file name', () => {
    assert.equal(recordNumber('0007-use-postgres.md'), 7);
    assert.equal(recordNumber('0000-template.md'), 0);
    assert.equal(recordNumber('12.md'), 12);
    assert.equal(recordNumber('adr-7.md'), undefined);
    assert.equal(recordNumber('README.md'), undefined);
  });

  it('resolves link destinations against the record folder, or the root after /', () => {
    assert.deepEqual(linkTarget('../../src/a.ts#f', 'docs/adr/1.md'), { p: 'src/a.ts', frag: 'f' });
    assert.deepEqual(linkTarget('/src/a%20b.ts?x=1', 'docs/adr/1.md'), { p: 'src/a b.ts', frag: undefined });
    assert.deepEqual(linkTarget('0002-x.md', 'docs/adr/1.md'), { p: 'docs/adr/0002-x.md', frag: undefined });
    for (const outside of ['https://x.y/a.ts', 'mailto:a@b', '//host/a', '#section', '../../../up.ts', '']) {
      assert.equal(linkTarget(outside, 'docs/adr/1.md'), undefined, outside);
    }
  });

  it('reads code spans as root-relative paths only when they are made of path characters', () => {
    assert.deepEqual(codeSpanTarget('src/a.ts#Shape.area'), { p: 'src/a.ts', frag: 'Shape.area' });
    assert.deepEqual(codeSpanTarget('./src/a.ts:12:3'), { p: 'src/a.ts', frag: undefined });
    assert.deepEqual(codeSpanTarget('src/vault.ts#Vault.#secret'), { p: 'src/vault.ts', frag: 'Vault.#secret' });
    for (const code of ['kg build', 'f(x)', 'a = b', '../outside.ts', '.', '']) assert.equal(codeSpanTarget(code), undefined, code);
  });
});

describe('comment ranges', () => {
  const tsx = [
    '#!/usr/bin/env node',
    '/* c1 */ const a = "/* s1 */" + `// s2 ${1 /* c2 */} /* s3 */`; // c3',
    'const r = /\\/\\/ s4/; /** c4 */',
    'const j = <div title="// s5">',
    '  // s6 is JSX text',
    '  {/* c5 */}',
    '  /* s7 */',
    '</div>;',
    'const k = <p>/* s8 */</p>; // c6',
    '// c7',
  ].join('\n');

  it('finds every comment and nothing inside strings, templates, regexes or JSX text', () => {
    const sf = parseSource('/x.tsx', tsx, ts.ModuleKind.ESNext);
    const at = (needle: string) => {
      const c = commentAt(sf, tsx.indexOf(needle));
      return c ? tsx.slice(c.pos, c.end) : undefined;
    };
    assert.deepEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'].map(at), [
      '/* c1 */',
      '/* c2 */',
      '// c3',
      '/** c4 */',
      '/* c5 */',
      '// c6',
      '// c7',
    ]);
    assert.deepEqual(['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 'usr/bin', 'const a', 'div'].map(at), Array(11).fill(undefined));
  });

  it('gives a comment to the declaration it sits directly above, inside or after on the same line', () => {
    const src = [
      '// header, then a blank line',
      '',
      '// above f',
      'export function f() {',
      '  // inside f',
      '}',
      'export const g = () => 1; // after g',
      '',
      '/** above C */',
      'class C {',
      '  // above m',
      '  m() {}',
      '  // in C, not a method',
      '  field = 1;',
      '} // after C',
      '',
      '// between, separated by a blank line',
      '',
      'export const h = 1;',
      'namespace N {',
      '  /* above k */ export function k() {}',
      '}',
      'let p = 1, q = 2; // after p and q: several declarations lend to none',
      'export default class { run() { /* in default.run */ } }',
    ].join('\n');
    const sf = parseSource('/y.ts', src, ts.ModuleKind.ESNext);
    const declarations = extractFile(sf, 'y.ts').declarations;
    const owner = (needle: string) => enclosingSymbol(sf, src.indexOf(needle), declarations) ?? 'file';
    assert.deepEqual(
      [
        'header',
        'above f',
        'inside f',
        'after g',
        'above C',
        'above m',
        'in C',
        'after C',
        'between',
        'above k',
        'after p and q',
        'in default.run',
      ].map((n) => `${n}: ${owner(n)}`),
      [
        'header: file',
        'above f: sym:y.ts#f',
        'inside f: sym:y.ts#f',
        'after g: sym:y.ts#g',
        'above C: sym:y.ts#C',
        'above m: sym:y.ts#C.m',
        'in C: sym:y.ts#C.field', // a field is a symbol of its own (ADR 151)
        'after C: sym:y.ts#C',
        'between: file',
        'above k: sym:y.ts#N.k',
        'after p and q: file',
        'in default.run: sym:y.ts#default.run',
      ],
    );
  });
});
