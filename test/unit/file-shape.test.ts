// A file's shape: what the type checker lets other files see. Edits that cannot change any other
// file's view keep it; every edit that can, changes it.

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import * as ts from 'typescript';
import { blankBodies, fileShape, nodeTokens, type StatementTokens } from '../../src/graph/indexer/compiler/file-shape';

function shape(text: string, file = 'a.ts') {
  const kind = file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return fileShape(ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true, kind));
}

const BASE = `import { g } from './g';
export function annotated(n: number): number {
  return g(n) + 1;
}
export function inferred(n: number) {
  return { value: n };
}
export class Box {
  constructor(private n: number) {
    this.n = n * 2;
  }
  get size(): number { return this.n; }
  set size(v: number) { this.n = v; }
  open(): string { return 'x'; }
}
export const arrow = (s: string): string => s.trim();
export let counter = 1;
`;

describe('file shape', () => {
  const base = shape(BASE);

  const same: Array<[string, string]> = [
    ['a comment and blank lines', BASE.replace('export class Box', '// a comment\n\n/** doc */\nexport class Box')],
    ['re-indentation', BASE.replace(/\n {2}/g, '\n\t')],
    ['the body of a function with a written return type', BASE.replace('return g(n) + 1;', 'const k = g(n);\n  return k * 2;')],
    ['a constructor body', BASE.replace('this.n = n * 2;', 'this.n = n;')],
    [
      'a setter body and an annotated getter body',
      BASE.replace('this.n = v;', 'this.n = v + 1;').replace('get size(): number { return this.n; }', 'get size(): number { return 0; }'),
    ],
    ['an annotated arrow body', BASE.replace('s.trim()', 's.toUpperCase()')],
  ];
  for (const [what, text] of same) {
    it(`keeps its shape through ${what}`, () => assert.equal(shape(text).shape, base.shape));
  }

  const different: Array<[string, string]> = [
    ['a renamed export', BASE.replace('export function annotated', 'export function renamed')],
    ['the body of a function whose return type is inferred', BASE.replace('return { value: n };', 'return { value: n, more: true };')],
    ['a changed return type', BASE.replace('open(): string', 'open(): number')],
    ['a new method', BASE.replace("open(): string { return 'x'; }", "open(): string { return 'x'; }\n  close() {}")],
    ['let to const', BASE.replace('export let counter', 'export const counter')],
    ['an initializer', BASE.replace('counter = 1', "counter = 'one'")],
    ['an import', BASE.replace("from './g'", "from './h'")],
    ['a parameter property', BASE.replace('private n: number', 'public n: number')],
  ];
  for (const [what, text] of different) {
    it(`changes its shape with ${what}`, () => assert.notEqual(shape(text).shape, base.shape));
  }

  it('counts every byte of a JavaScript file, comments included (JSDoc types)', () => {
    const js = '/** @returns {number} */\nexport function f() { return 1; }\n';
    assert.notEqual(shape(js, 'a.js').shape, shape(js.replace('{number}', '{string}'), 'a.js').shape);
    assert.equal(shape(js, 'a.js').shape, shape(js, 'a.js').shape);
  });

  it('calls a file global when it declares into the global scope', () => {
    assert.equal(base.global, false);
    assert.equal(shape('function loose() {}\n').global, true, 'a script');
    assert.equal(shape('export {};\ndeclare global { interface Window { x: number } }\n').global, true);
    assert.equal(shape("export {};\ndeclare module 'lib' { export const y: number; }\n").global, true);
    assert.equal(shape('export namespace N { export const z = 1; }\n').global, false);
  });

  // ADR 129: the bodies a program may read as blanks when it holds the file only for its types.
  describe('bodies read as blanks', () => {
    const bodies = (text: string) => {
      const b = base.blank ?? [];
      const out: string[] = [];
      for (let i = 0; i < b.length; i += 2) out.push(text.slice(b[i], b[i + 1]).trim());
      return out;
    };

    it('records the inside of each block body whose return type is written out, and each setter', () => {
      assert.deepEqual(bodies(BASE), ['return g(n) + 1;', 'return this.n;', 'this.n = v;', "return 'x';"]);
    });

    it('keeps a body whose return type is inferred, a constructor, and an expression body', () => {
      const kept = bodies(BASE).join('\n');
      for (const body of ['return { value: n };', 'this.n = n * 2;', 's.trim()']) assert.ok(!kept.includes(body), body);
    });

    it('records nothing for JavaScript, declaration files, or a file without such a body', () => {
      assert.equal(shape('export function f(): number { return 1; }\n', 'a.js').blank, undefined);
      assert.equal(shape('export declare function f(): number;\n', 'a.d.ts').blank, undefined);
      assert.equal(shape('export const n = 1;\n').blank, undefined);
    });

    it('blanks keep every offset and line start, and the declarations outside the bodies', () => {
      const text = BASE.replace('return g(n) + 1;', 'const s = "é\u2028";\n  return g(n) + 1;');
      const blank = shape(text).blank ?? [];
      const blanked = blankBodies(text, blank);
      assert.equal(blanked.length, text.length);
      const a = ts.createSourceFile('a.ts', text, ts.ScriptTarget.ESNext, true);
      const b = ts.createSourceFile('a.ts', blanked, ts.ScriptTarget.ESNext, true);
      assert.deepEqual(b.getLineStarts(), a.getLineStarts());
      const names = (sf: ts.SourceFile) => sf.statements.map((st) => `${st.pos}:${st.end}:${st.kind}`);
      assert.deepEqual(names(b), names(a));
      assert.ok(!blanked.includes('g(n) + 1') && blanked.includes('s.trim()'));
      // A blanked file is its own fixed point: its bodies are empty blocks now.
      assert.equal(shape(blanked).shape, shape(text).shape);
    });

    it('refuses ranges out of order rather than blank the wrong text', () => {
      assert.throws(() => blankBodies('abcdef', [3, 4, 1, 2]));
      assert.throws(() => blankBodies('abc', [1, 9]));
    });
  });

  // A manifest keeps each file's shape (ADR 118): the hash must not change with how it is
  // computed. The reference below is the definition, written plainly (recursion, one array): the
  // root's child count, then each visible node in pre-order as kind:flags:children(:leaf text),
  // a hidden body as {}, joined by NUL in runs of 4,096 with nothing between runs.
  describe('the token layout, against a plain reference', () => {
    const FLAGS =
      ts.NodeFlags.Let |
      ts.NodeFlags.Const |
      ts.NodeFlags.Using |
      ts.NodeFlags.NestedNamespace |
      ts.NodeFlags.Namespace |
      ts.NodeFlags.GlobalAugmentation |
      ts.NodeFlags.OptionalChain;
    const kids = (n: ts.Node) => {
      const out: ts.Node[] = [];
      ts.forEachChild(n, (c) => {
        out.push(c);
      });
      return out;
    };
    const hidden = (n: ts.Node, parent: ts.Node) =>
      ts.isFunctionLike(parent) &&
      (parent as { body?: ts.Node }).body === n &&
      (!!(parent as ts.SignatureDeclarationBase).type || ts.isConstructorDeclaration(parent) || ts.isSetAccessorDeclaration(parent));
    const partsBelow = (root: ts.Node, sf: ts.SourceFile, names?: Set<string>): string[] => {
      const out: string[] = [];
      const visit = (n: ts.Node, parent: ts.Node) => {
        if (hidden(n, parent)) return void out.push('{}');
        if (names && ts.isIdentifier(n)) names.add(n.text);
        const c = kids(n);
        out.push(`${n.kind}:${n.flags & FLAGS}:${c.length}${c.length === 0 ? ':' + n.getText(sf) : ''}`);
        for (const k of c) visit(k, n);
      };
      for (const k of kids(root)) visit(k, root);
      return out;
    };
    const runs = (parts: string[]) => {
      const out: string[] = [];
      for (let i = 0; i < parts.length; i += 4096) out.push(parts.slice(i, i + 4096).join('\u0000'));
      if (parts.length % 4096 === 0) out.push('');
      return out;
    };
    // Below `export const big = {…}`: 5 parts, then 3 per member (m1: 1) and 2 per shorthand (x).
    const big = (members: number, shorthand = false) =>
      `export const big = { ${Array.from({ length: members }, (_, i) => `m${i}: ${i}`).join(', ')}${shorthand ? ', x' : ''} };\n`;
    const TEXTS: Array<[string, string, number?]> = [
      ['the base file', BASE],
      ['a statement longer than a run', BASE + big(3000), 5 + 3 * 3000],
      ['a statement of exactly one run', 'const x = 1;\n' + big(1363, true), 5 + 3 * 1363 + 2],
      ['a file of two runs', big(1360) + big(1364)],
      ['an empty module', 'export {};\n'],
    ];

    for (const [what, text, bigParts] of TEXTS) {
      it(`gives the reference's hash and statement tokens: ${what}`, () => {
        const sf = ts.createSourceFile('a.ts', text, ts.ScriptTarget.ESNext, true);
        const statements = new Map<ts.Node, StatementTokens>();
        const got = fileShape(sf, statements);
        // The file: the reference's parts, each statement's own part before its subtree.
        const fileParts = partsBelow(sf, sf);
        const want = createHash('sha256')
          .update(String(kids(sf).length))
          .update(runs(fileParts).join(''))
          .digest('hex');
        assert.equal(got.shape, want);
        assert.equal(fileShape(sf).shape, want, 'the same without statements asked for');
        if (what.includes('run')) assert.ok(fileParts.length > 4096, `${fileParts.length} parts`);
        const last = kids(sf).at(-2) as ts.Node;
        if (bigParts !== undefined) assert.equal(partsBelow(last, sf).length, bigParts, 'the statement the case is about');
        // Each top-level node: the statement's token string and mentions, as nodeTokens gives them.
        for (const node of kids(sf)) {
          const names = new Set<string>();
          const below = partsBelow(node, sf, names);
          const tokens = [`${node.kind}:${node.flags & FLAGS}`, String(kids(node).length), ...runs(below)].join('\u0001');
          const entry = statements.get(node);
          assert.equal(entry?.tokens, tokens);
          assert.deepEqual([...(entry?.mentioned ?? [])].sort(), [...names].sort());
          const mentioned = new Set<string>();
          assert.equal(nodeTokens(node, sf, mentioned), tokens);
          assert.deepEqual([...mentioned].sort(), [...names].sort());
        }
      });
    }
  });
});
