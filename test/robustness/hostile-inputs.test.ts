// Hostile inputs, as a user meets them: each case starts from a built repository, does one bad
// thing to it, and runs `kg build --apply` (the bundled CLI, a child process). Every case asserts
// the exit code and the message; a refused build must leave the previous graph's bytes as they
// were, and an accepted one must keep what the bad file does not touch and equal a full build of
// the same tree, byte for byte. `npm run build` first: these run dist/cli.js.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildGraph, serializeGraph } from '../../src/graph';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, KG_SERVER: 'off' },
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const BASE = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  'src/ok.ts': 'export function ok() { return 1; }\nexport function two() { return ok(); }\n',
  'src/use.ts': "import { ok } from './ok';\nexport function use() { return ok(); }\n",
};

const latin1 = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0) & 0xff));
const chain = (n: number) =>
  `declare const a: any;\nexport function f() { return a${Array.from({ length: n }, (_, i) => `.m${i}()`).join('')}; }\n`;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

interface Case {
  name: string;
  mutate(root: string): void;
  code: number;
  /** What stderr must say. */
  says: RegExp;
  /** A refused build leaves the graph's bytes; an accepted one writes a new graph. */
  graph: 'unchanged' | 'rebuilt';
  /** Further checks on an accepted graph's text. */
  check?(text: string): void;
  /** Why this case cannot run here, if it cannot. */
  skip?: string;
}

const hasSymbol = (id: string) => (text: string) => assert.ok(text.includes(JSON.stringify(id)), `${id} is in the graph`);
const lacks = (s: string) => (text: string) => assert.ok(!text.includes(s), `the graph holds no ${JSON.stringify(s)}`);

const CASES: Case[] = [
  // Defect 1: expressions deeper than the compiler can follow (ADR 75).
  {
    name: 'a chain of 1,000 calls',
    mutate: (r) => writeTree(r, { 'src/gen.ts': chain(1000) }),
    code: 0,
    says: /note: src\/gen\.ts: too deeply nested/,
    graph: 'rebuilt',
    check: lacks('src/gen.ts#'),
  },
  {
    name: '20,000 nested parentheses',
    mutate: (r) => writeTree(r, { 'src/parens.ts': `export const x = ${'('.repeat(20_000)}1${')'.repeat(20_000)};\n` }),
    code: 0,
    says: /note: src\/parens\.ts: too deeply nested/,
    graph: 'rebuilt',
  },
  {
    name: '2,000 nested arrays',
    mutate: (r) => writeTree(r, { 'src/arrays.ts': `export const x = ${'['.repeat(2000)}1${']'.repeat(2000)};\n` }),
    code: 0,
    says: /note: src\/arrays\.ts: too deeply nested/,
    graph: 'rebuilt',
  },
  {
    name: '1,000 nested object literals',
    mutate: (r) => writeTree(r, { 'src/objects.ts': `export const x = ${'{a:'.repeat(1000)}1${'}'.repeat(1000)};\n` }),
    code: 0,
    says: /note: src\/objects\.ts: too deeply nested/,
    graph: 'rebuilt',
  },
  {
    name: '1,000 nested type arguments',
    mutate: (r) => writeTree(r, { 'src/types.ts': `type A<T> = T;\nexport type X = ${'A<'.repeat(1000)}number${'>'.repeat(1000)};\n` }),
    code: 0,
    says: /note: src\/types\.ts: too deeply nested/,
    graph: 'rebuilt',
  },
  {
    name: '5,000 else-ifs',
    mutate: (r) =>
      writeTree(r, {
        'src/elseif.ts': `export function f(x: number) { if (x === 0) return 0;${Array.from({ length: 5000 }, (_, i) => ` else if (x === ${i + 1}) return ${i};`).join('')} return -1; }\n`,
      }),
    code: 0,
    says: /note: src\/elseif\.ts: too deeply nested/,
    graph: 'rebuilt',
  },
  {
    name: 'a 100,000-term sum (iterated, not nested: kept)',
    mutate: (r) =>
      writeTree(r, {
        'src/sum.ts': `export const s = ${Array.from({ length: 100_000 }, () => '1').join(' + ')};\nexport function after() {}\n`,
      }),
    code: 0,
    says: /incremental build/,
    graph: 'rebuilt',
    check: hasSymbol('sym:src/sum.ts#after'),
  },
  // Defect 2: a Latin-1 file.
  {
    name: 'a Latin-1 source file',
    mutate: (r) => writeTree(r, { 'src/cafe.ts': latin1('export const café = 1;\nexport function next() {}\n') }),
    code: 0,
    says: /note: src\/cafe\.ts: not UTF-8 text \(an invalid byte sequence on line 1\)/,
    graph: 'rebuilt',
    check: (t) => {
      lacks('\ufffd')(t);
      lacks('#caf')(t);
    },
  },
  {
    name: 'a Latin-1 markdown file',
    mutate: (r) => writeTree(r, { 'docs/notes.md': latin1('# Café\n\nSee src/ok.ts.\n') }),
    code: 0,
    says: /note: docs\/notes\.md: not UTF-8 text/,
    graph: 'rebuilt',
    check: lacks('\ufffd'),
  },
  // Defect 3: syntax errors.
  {
    name: 'a new file with a syntax error',
    mutate: (r) =>
      writeTree(r, { 'src/syn.ts': 'export function first() {}\nexport function other(: number {}}}}\nexport function more() {}\n' }),
    code: 0,
    says: /note: src\/syn\.ts: \d+ syntax errors, the first at line 2, column \d+/,
    graph: 'rebuilt',
    check: hasSymbol('sym:src/syn.ts#first'),
  },
  {
    name: 'a syntax error that drops an existing symbol',
    mutate: (r) =>
      writeTree(r, {
        'src/ok.ts': 'export function ok() { return 1; }\n/* a comment never closed\nexport function two() { return ok(); }\n',
      }),
    code: 1,
    says: /src\/ok\.ts had 2 symbols and now yields 1 \(it has 1 syntax error at line 4, column 1: '\*\/' expected; .*suspected parse failure/,
    graph: 'unchanged',
  },
  {
    name: 'a syntax error the parser recovers from',
    mutate: (r) => writeTree(r, { 'src/ok.ts': 'export function ok() { return 1; }\nexport function two(: number {}}}}\n' }),
    code: 0,
    says: /note: src\/ok\.ts: 6 syntax errors, the first at line 2, column 21: Parameter declaration expected;/,
    graph: 'rebuilt',
  },
  {
    name: 'a file emptied',
    mutate: (r) => writeTree(r, { 'src/ok.ts': '' }),
    code: 1,
    says: /src\/ok\.ts had 2 symbols and now yields none \(the file is empty\)/,
    graph: 'unchanged',
  },
  // The rest of the table: what any file system can hold.
  {
    name: 'a binary file',
    mutate: (r) => writeTree(r, { 'src/blob.ts': Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]) }),
    code: 0,
    says: /note: src\/blob\.ts: binary file/,
    graph: 'rebuilt',
  },
  {
    name: 'a byte-order mark and CRLF line ends',
    mutate: (r) => writeTree(r, { 'src/bom.ts': '\ufeffexport function bom() {}\r\nexport function crlf() { return bom(); }\r\n' }),
    code: 0,
    says: /incremental build/,
    graph: 'rebuilt',
    check: (t) => {
      hasSymbol('sym:src/bom.ts#crlf')(t);
      lacks('\ufeff')(t);
    },
  },
  {
    name: 'an empty new file',
    mutate: (r) => writeTree(r, { 'src/empty.ts': '' }),
    code: 0,
    says: /(incremental|full) build/,
    graph: 'rebuilt',
    check: hasSymbol('file:src/empty.ts'),
  },
  {
    name: 'a 9 MB file',
    mutate: (r) => writeTree(r, { 'src/huge.ts': `export const big = "${'x'.repeat(9 * 1024 * 1024)}";\n` }),
    code: 0,
    says: /note: src\/huge\.ts: file too large/,
    graph: 'rebuilt',
  },
  {
    name: 'an unreadable file',
    mutate: (r) => {
      writeTree(r, { 'src/secret.ts': 'export const s = 1;\n' });
      fs.chmodSync(path.join(r, 'src/secret.ts'), 0o000);
    },
    code: 0,
    says: /note: src\/secret\.ts: unreadable file \(EACCES\)/,
    graph: 'rebuilt',
    skip: isRoot ? 'running as root, who can read any file; users-and-servers.test.ts covers unreadable files as another user' : undefined,
  },
  {
    name: 'a symbolic link loop',
    mutate: (r) => fs.symlinkSync('.', path.join(r, 'src/loop')),
    code: 0,
    says: /note: src\/loop: /,
    graph: 'rebuilt',
  },
  {
    name: 'a link to a file outside the repository',
    mutate: (r) => fs.symlinkSync('/etc/passwd', path.join(r, 'src/passwd.ts')),
    code: 0,
    says: /note: src\/passwd\.ts: /,
    graph: 'rebuilt',
    check: lacks('root:'),
  },
  {
    name: 'odd file names',
    mutate: (r) =>
      writeTree(r, {
        'src/with space.ts': 'export function sp() {}\n',
        'src/hash#and%.ts': 'export function h() {}\n',
        'src/ünï/cödé.ts': 'export function u() {}\n',
      }),
    code: 0,
    says: /incremental build/,
    graph: 'rebuilt',
    check: (t) => assertValidGraph(JSON.parse(t)),
  },
  {
    name: 'a file name that is not UTF-8',
    mutate: (r) =>
      fs.writeFileSync(
        Buffer.concat([Buffer.from(path.join(r, 'src') + '/bad'), Buffer.from([0xff, 0xfe]), Buffer.from('.ts')]),
        'export const b = 1;\n',
      ),
    code: 0,
    says: /file name is not valid UTF-8/,
    graph: 'rebuilt',
  },
  {
    name: 'a folder named like a source file',
    mutate: (r) => fs.mkdirSync(path.join(r, 'src/dir.ts')),
    code: 0,
    says: /incremental build|full build/,
    graph: 'rebuilt',
  },
  {
    name: 'a tsconfig that is not JSON',
    mutate: (r) => writeTree(r, { 'tsconfig.json': '{ "compilerOptions": { "strict": tru' }),
    code: 2,
    says: /tsconfig/,
    graph: 'unchanged',
  },
  {
    name: 'a tsconfig whose extends is missing',
    mutate: (r) => writeTree(r, { 'tsconfig.json': '{ "extends": "./nowhere.json" }' }),
    code: 0,
    says: /note: tsconfig\.json: config: Cannot read file 'nowhere\.json'/,
    graph: 'rebuilt',
  },
  {
    name: 'a tsconfig whose files entry does not exist',
    mutate: (r) => writeTree(r, { 'tsconfig.json': '{ "files": ["src/ok.ts", "src/use.ts", "src/gone.ts"] }' }),
    code: 0,
    says: /note: tsconfig\.json: config: "files" lists src\/gone\.ts, which does not exist/,
    graph: 'rebuilt',
  },
  {
    name: 'a tsconfig that is a folder',
    mutate: (r) => {
      fs.rmSync(path.join(r, 'tsconfig.json'));
      fs.mkdirSync(path.join(r, 'tsconfig.json'));
    },
    code: 0,
    says: /full build/,
    graph: 'rebuilt',
  },
  {
    name: 'a .gitignore that hides everything',
    mutate: (r) => writeTree(r, { '.gitignore': '*\n' }),
    code: 2,
    says: /no TypeScript or JavaScript sources found .*\(\.gitignore rules hide \d+ source files? or folders?: check them\)/,
    graph: 'unchanged',
  },
  {
    name: 'a repository config that is not JSON',
    mutate: (r) => writeTree(r, { '.knowledge-graph/config.json': '{ nope' }),
    code: 0,
    says: /config\.json: config: /,
    graph: 'rebuilt',
  },
  {
    name: 'a corrupt manifest',
    mutate: (r) => writeTree(r, { '.knowledge-graph/graph.manifest.json': '{"manifestVersion": 1, "files": [' }),
    code: 0,
    says: /full build: /,
    graph: 'rebuilt',
  },
];

describe('hostile inputs: every build either keeps the previous graph or writes a sound one', () => {
  after(removeTempDirs);
  let tried = 0;
  after(() => console.log(`# hostile inputs: ${tried} tried of ${CASES.length}`));

  // One built repository, copied for each case: one build of the base, not one per case.
  let template = '';
  before(() => {
    template = tempDir('kg-hostile-base-');
    writeTree(template, BASE);
    const first = kg(['build', '--apply'], template);
    assert.equal(first.code, 0, first.stderr);
  });

  for (const c of CASES) {
    it(c.name, { skip: c.skip }, () => {
      tried++;
      const root = tempDir('kg-hostile-');
      fs.cpSync(template, root, { recursive: true });
      const graphPath = path.join(root, '.knowledge-graph', 'graph.json');
      const before = fs.readFileSync(graphPath);
      c.mutate(root);
      const r = kg(['build', '--apply'], root);
      assert.doesNotMatch(r.stderr, /internal error|RangeError|\n\s+at /, 'no crash and no stack trace');
      assert.equal(r.code, c.code, r.stderr);
      assert.match(r.stderr, c.says);
      const after = fs.readFileSync(graphPath);
      if (c.graph === 'unchanged') {
        assert.ok(after.equals(before), 'the previous graph is untouched, byte for byte');
        return;
      }
      const text = after.toString('utf8');
      assertValidGraph(JSON.parse(text));
      for (const id of ['sym:src/ok.ts#ok', 'sym:src/use.ts#use']) hasSymbol(id)(text);
      c.check?.(text);
      // Incremental equals full: a full build of the same tree (in this process) gives the same bytes.
      assert.ok(serializeGraph(buildGraph({ root }).graph) === text, 'the graph equals a full build of the same tree');
    });
  }
});
