// The declared-signature hash on sym: nodes: an edit a consumer can observe changes it, an edit
// of a body, a comment, a parameter's name, whitespace or separators does not; the editor's
// parser-only declaredSymbols agrees with the build byte for byte.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { run } from '../../src/cli/run';
import { buildGraph, declaredSymbols, memoryFileHost } from '../../src/graph';
import * as ts from 'typescript';
import { copyFixture, REPO, removeTempDirs } from '../helpers/fixtures';

const BASE = `
export function f<T extends string>(a: T, b?: number): Promise<T> { return null as never; }
export class C<X> extends Array<X> implements I {
  x: number = 1;
  private hidden = 2;
  constructor(public z: string) { super(); }
  m(a: string): void { console.log(a); }
  static s(): number { return 1; }
}
export interface I { a: string; m(): void }
export type U = { a: string; b: number };
export enum E { A, B = 2 }
export const g = (x: number) => x + 1;
export const v = 5;
function over(a: string): void;
function over(a: number): void;
function over(a: unknown) { return a; }
export { over };
`;

function sigs(text: string): Map<string, string> {
  return new Map(declaredSymbols('src/a.ts', text).map((s) => [s.id, s.signature]));
}

function changed(edit: (t: string) => string): string[] {
  const a = sigs(BASE);
  const b = sigs(edit(BASE));
  assert.notEqual(edit(BASE), BASE, 'the edit must apply');
  return [...a.keys()].filter((id) => a.get(id) !== b.get(id)).map((id) => id.slice(id.indexOf('#') + 1));
}

describe('declared signatures', () => {
  after(removeTempDirs);

  it('every symbol gets one', () => {
    const s = declaredSymbols('src/a.ts', BASE);
    assert.deepEqual(
      s.map((x) => x.label),
      ['C', 'C.hidden', 'C.m', 'C.s', 'C.x', 'C.z', 'E', 'I', 'I.a', 'I.m', 'U', 'f', 'g', 'over', 'v'],
    );
    for (const x of s) assert.match(x.signature, /^[0-9a-f]{12}$/);
    assert.equal(s.find((x) => x.label === 'C.m')?.parent, 'sym:src/a.ts#C');
  });

  it('does not change for bodies, comments, parameter names, whitespace, separators, quotes, type-parameter names, default values', () => {
    const edits: Array<(t: string) => string> = [
      (t) => t.replace('return null as never;', 'const y = 1; return y as never;'),
      (t) => t.replace('(a: T, b?: number)', '(first: T, /* why */ second?:   number)'),
      (t) => t.replace('{ a: string; b: number }', '{ a: string, b: number, }'),
      (t) => t.replace('console.log(a);', ''),
      (t) => t.replace('x + 1', 'x * 2'),
      (t) => t.replace('= 5', '= 6'),
      (t) => t.replace('function over(a: unknown) { return a; }', 'function over(q: unknown) { return 0; }'),
      (t) => t.replace('f<T extends string>(a: T, b?: number): Promise<T>', 'f<K extends string>(a: K, b?: number): Promise<K>'),
      (t) => t.replace('x: number = 1;', 'x: number = 42;'),
      (t) => '// a header comment\n' + t,
    ];
    for (const e of edits) assert.deepEqual(changed(e), [], e.toString());
  });

  it('changes for what a consumer depends on', () => {
    const cases: Array<[(t: string) => string, string[]]> = [
      [(t) => t.replace('b?: number', 'b: number'), ['f']],
      [(t) => t.replace('(a: T, b?: number)', '(a: T, b?: string)'), ['f']],
      [(t) => t.replace('): Promise<T>', '): Promise<string>'), ['f']],
      [(t) => t.replace('<T extends string>', '<T extends string | number>'), ['f']],
      [(t) => t.replace('export function f', 'function f'), ['f']],
      [(t) => t.replace('(a: T, b?: number)', '(a: T, b?: number, c?: 1)'), ['f']],
      [(t) => t.replace('m(a: string): void', 'm(a: number): void'), ['C.m']],
      [(t) => t.replace('static s()', 's()'), ['C.s']],
      [(t) => t.replace('x: number = 1;', 'x: string = "1";'), ['C.x']], // a field is a node of its own (ADR 151)
      [(t) => t.replace('constructor(public z: string)', 'constructor(public z: number)'), ['C']],
      [(t) => t.replace('implements I', ''), ['C']],
      [(t) => t.replace('constructor(public z: string)', 'private constructor(public z: string)'), ['C']],
      [(t) => t.replace('a: string; m(): void', 'a: number; m(): void'), ['I.a']],
      [(t) => t.replace('b: number }', 'b: string }'), ['U']],
      [(t) => t.replace('B = 2', 'B = 3'), ['E']],
      [(t) => t.replace('(x: number) => x + 1', '(x: string) => x + 1'), ['g']],
      [(t) => t.replace('function over(a: number): void;', 'function over(a: boolean): void;'), ['over']],
    ];
    for (const [e, ids] of cases) assert.deepEqual(changed(e), ids, e.toString());
  });

  it('a private member is not part of the class signature', () => {
    assert.deepEqual(
      changed((t) => t.replace('private hidden = 2;', 'private hidden: string = "";')),
      ['C.hidden'], // the field's own node changes; the class's does not
    );
  });

  it('the build records the same values the parser-only function computes', () => {
    const host = memoryFileHost('/r', {
      'tsconfig.json': '{"include": ["src"]}',
      'src/a.ts': BASE,
      'src/b.ts': 'import { f } from "./a";\nexport const r = f("x");\n',
    });
    const { graph } = buildGraph({ root: '/r', host });
    const built = new Map(
      graph.nodes.filter((n) => n.sourceFile === 'src/a.ts' && n.id.startsWith('sym:')).map((n) => [n.id, n.signature]),
    );
    assert.deepEqual(built, sigs(BASE));
  });

  it('an incremental build after a signature edit gives the bytes of a full build, the new signature included', async () => {
    const root = copyFixture('guard-consumers');
    const kg = async (args: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await run(args, {
        stdout: { write: (x: string) => (stdout += x) },
        stderr: { write: (x: string) => (stderr += x) },
        cwd: root,
      });
      assert.equal(code, 0, stderr);
      return { stdout, stderr };
    };
    await kg(['build', '--apply']);
    const graphFile = path.join(root, '.knowledge-graph', 'graph.json');
    const before = fs.readFileSync(graphFile, 'utf8');
    const lib = path.join(root, 'src', 'lib.ts');
    fs.writeFileSync(lib, fs.readFileSync(lib, 'utf8').replace('add(a: number, b: number)', 'add(a: number, b: bigint)'));
    const inc = await kg(['build', '--apply']);
    assert.match(inc.stderr, /incremental build/);
    const rebuilt = fs.readFileSync(graphFile, 'utf8');
    assert.notEqual(rebuilt, before, 'the signature changed');
    const full = await kg(['build', '--full']);
    assert.equal(rebuilt, full.stdout);
  });

  it('on real code (rxjs sources): editing every function body changes no signature; removing every export changes every exported one', () => {
    const dir = path.join(REPO, 'node_modules', 'rxjs', 'src', 'internal');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (e.name.endsWith('.ts')) files.push(path.join(d, e.name));
      }
    };
    walk(dir);
    assert.ok(files.length > 100);
    let bodies = 0;
    let exported = 0;
    for (const file of files) {
      const rel = path.relative(REPO, file).split(path.sep).join('/');
      const text = fs.readFileSync(file, 'utf8');
      const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true);
      const inserts: number[] = [];
      const visit = (n: ts.Node) => {
        if (
          ts.isFunctionLike(n) &&
          (n as ts.FunctionLikeDeclaration).body &&
          ts.isBlock((n as ts.FunctionLikeDeclaration).body as ts.Node)
        ) {
          inserts.push(((n as ts.FunctionLikeDeclaration).body as ts.Block).getStart(sf) + 1);
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
      let edited = text;
      for (const at of inserts.sort((a, b) => b - a)) edited = edited.slice(0, at) + ' void 0; /* edited */ ' + edited.slice(at);
      bodies += inserts.length;
      const before = declaredSymbols(rel, text);
      const after = declaredSymbols(rel, edited);
      assert.deepEqual(
        after.map((x) => [x.id, x.signature]),
        before.map((x) => [x.id, x.signature]),
        rel,
      );
      const unexported = new Map(declaredSymbols(rel, text.replace(/^export (?!\*|\{|default|=)/gm, '')).map((x) => [x.id, x.signature]));
      for (const x of before) {
        if (!x.exported || x.parent !== undefined) continue;
        exported++;
        assert.notEqual(unexported.get(x.id), x.signature, `${x.id} lost its export`);
      }
    }
    assert.ok(bodies > 500 && exported > 300, `${bodies} bodies, ${exported} exports`);
  });
});
