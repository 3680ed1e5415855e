// `kg export --format mermaid|dot|svg` as a user runs it (ADR 156): real kg processes build a small
// repository — one file with a hostile name — and draw a node's neighbourhood and a path in each
// format. The SVG is read by a real XML parser, the Mermaid and DOT by their shapes; the same
// question gives the same bytes twice; bad input exits as docs/cli.md says.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';
import { all, parseXml } from '../helpers/xml';

function kg(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A file name that tries to end a Mermaid label, a DOT string and an XML element, and reverses its line. */
const HOSTILE_FILE = 'src/we"ird]<b>`\u202Egnp.ts';
const MAIN = 'sym:src/main.ts#main';
const TARGET = `sym:${HOSTILE_FILE}#target`;

describe('kg export: pictures', () => {
  let repo = '';
  before(() => {
    repo = tempDir('kg-pictures-');
    writeTree(repo, {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' }, include: ['src'] }),
      [HOSTILE_FILE]: 'export function target(): number {\n  return 1;\n}\n',
      'src/main.ts': [
        `import { target } from './we"ird]<b>\`\u202Egnp';`,
        'declare const anything: any;',
        'export function main(): number {',
        '  anything.later();',
        '  return target() + helper();',
        '}',
        'export function helper(): number {',
        '  return 2;',
        '}',
        '',
      ].join('\n'),
    });
    const built = kg(['build', '--apply', '--root', repo, '--no-server'], repo);
    assert.equal(built.code, 0, built.stderr);
  });
  after(removeTempDirs);

  it('mermaid: a flowchart whose lines are all kg’s own, no raw backtick or bidi control, the same bytes twice', () => {
    const r = kg(['export', '--format', 'mermaid', '--node', MAIN, '--depth', '2'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(kg(['export', '--format', 'mermaid', '--node', MAIN, '--depth', '2'], repo).stdout, r.stdout);
    assert.ok(r.stdout.startsWith('flowchart LR\n'));
    assert.ok(!r.stdout.includes('`') && !r.stdout.includes('\u202E'));
    for (const line of r.stdout.trimEnd().split('\n'))
      assert.match(
        line,
        /^(flowchart LR| {2}n\d+\["[^"`]*"\]| {2}n\d+ -\.?->\|"[^"`|]*"\| n\d+| {4}l\da\[" "\] -\.?->\|"[^"]*"\| l\db\[" "\]| {4}note\d+\["[^"`]*"\]| {2}subgraph legend\["Legend"\]| {4}direction LR| {2}end| {2}(linkStyle|classDef|class) .*)$/,
      );
    // The file's name, shown: its bidi control as text, its quote, bracket and angle brackets as entities.
    assert.ok(r.stdout.includes('we#34;ird#93;#60;b#62;#96;#92;u202egnp.ts'), r.stdout);
    assert.ok(r.stdout.includes('calls · UNRESOLVED'), 'the unplaced call is drawn, and said to be unresolved');
    assert.match(r.stdout, /solid: EXACT/);
  });

  it('dot: quoted names and strings, one statement a line', () => {
    const r = kg(['export', '--format', 'dot', '--node', MAIN, '--depth', '2'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(kg(['export', '--format', 'dot', '--node', MAIN, '--depth', '2'], repo).stdout, r.stdout);
    const STRING = '"(?:[^"\\\\\\n]|\\\\.)*"';
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines[0], 'digraph "knowledge-graph" {');
    assert.equal(lines.at(-1), '}');
    for (const line of lines.filter((l) => /^ {2}"n\d+" \[/.test(l)))
      assert.match(
        line,
        new RegExp(`^ {2}"n\\d+" \\[label=${STRING}, tooltip=${STRING}(, penwidth=2\\.5|, style="rounded,dotted", color="#b35c00")?\\];$`),
      );
    assert.ok(r.stdout.includes('style=dotted'), 'the unresolved call is dotted');
    assert.ok(r.stdout.includes('we\\"ird]<b>`\\\\u202egnp.ts'), r.stdout);
  });

  it('svg: parsed by a real XML parser, every node’s name read back, the same bytes twice', () => {
    const r = kg(['export', '--format', 'svg', '--node', MAIN, '--depth', '2'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(kg(['export', '--format', 'svg', '--node', MAIN, '--depth', '2'], repo).stdout, r.stdout);
    const svg = parseXml(r.stdout);
    assert.equal(svg.name, 'svg');
    const titles = all(svg, 'g')
      .filter((g) => g.attributes.class === 'node')
      .map((g) => g.children[0].text);
    assert.ok(titles.includes(MAIN));
    assert.ok(titles.includes(TARGET.replace('\u202E', '\\u202e')), titles.join('\n'));
    assert.ok(all(svg, 'path').some((p) => p.attributes.class === 'edge unresolved' && p.attributes['stroke-dasharray'] === '2 3'));
  });

  it('a path in each format; --out writes the file, never through a link', () => {
    for (const format of ['mermaid', 'dot', 'svg']) {
      const r = kg(['export', '--format', format, '--from', MAIN, '--to', TARGET], repo);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /a shortest path from/);
    }
    const out = tempDir('kg-pictures-out-');
    const victim = path.join(out, 'victim.txt');
    fs.writeFileSync(victim, 'keep me\n');
    fs.symlinkSync(victim, path.join(out, 'picture.svg'));
    const r = kg(['export', '--format', 'svg', '--node', MAIN, '--out', path.join(out, 'picture.svg')], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me\n');
    assert.ok(fs.lstatSync(path.join(out, 'picture.svg')).isFile());
    parseXml(fs.readFileSync(path.join(out, 'picture.svg'), 'utf8'));
  });

  it('the limit is never a silent cut: the legend says how many nodes it left out', () => {
    const r = kg(['export', '--format', 'mermaid', '--node', MAIN, '--depth', '2', '--limit', '2'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /note1\["\d+ more nodes? within 2 steps left out by the limit of 2 \(--limit\)"\]/);
  });

  it('bad input: 2 for usage (neither, both, half a path, a bad bound), 3 for a node not in the graph or no graph', () => {
    for (const args of [
      ['--format', 'svg'],
      ['--format', 'svg', '--node', MAIN, '--from', MAIN, '--to', TARGET],
      ['--format', 'dot', '--from', MAIN],
      ['--format', 'mermaid', '--node', MAIN, '--depth', '0'],
      ['--format', 'mermaid', '--node', MAIN, '--limit', 'many'],
      ['--format', 'mermaid', '--from', MAIN, '--to', TARGET, '--depth', '2'],
      ['--format', 'neo4j', '--node', MAIN, '--out', tempDir()],
      ['--format', 'png', '--node', MAIN],
    ]) {
      const r = kg(['export', ...args], repo);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^kg export: .+\nUsage: kg export/);
    }
    const unknown = kg(['export', '--format', 'mermaid', '--node', 'main'], repo);
    assert.equal(unknown.code, 3);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /unknown node: main\nkg export: did you mean: sym:src\/main\.ts#main/);
    const none = kg(['export', '--format', 'mermaid', '--node', MAIN], tempDir());
    assert.equal(none.code, 3);
  });
});
