// The GitHub Action's script (scripts/pr-diff-comment.mjs, ADR 162), its plain parts: which report
// is "structural" — judged on reports the diff engine makes from hand-built graphs — and which sides
// an event names; and the YAML reader the action's test reads action.yml with
// (test/helpers/yaml-subset.ts), on what it reads and what it refuses.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { diffReport, type DiffSide, type Graph } from '../../src/graph';
import { isStructural, MARKER, sides } from '../../scripts/pr-diff-comment.mjs';
import { graphOf } from '../helpers/graphs';
import { parseYamlSubset } from '../helpers/yaml-subset';

const side = (spec: string): DiffSide => ({ spec, kind: 'graph', graphSignature: '000000000000' });
const diff = (base: Graph, head: Graph) => diffReport({ base, head }, { base: side('base.json'), head: side('head.json') });

/** `sym:src/a.ts#f` calls `sym:src/b.ts#g`, each at `line`, with a fixed signature. */
function graph(line: number, extra: string[] = []): Graph {
  const g = graphOf([['sym:src/a.ts#f', 'sym:src/b.ts#g']], { nodes: extra });
  for (const n of g.nodes) {
    if (!n.id.startsWith('sym:')) continue;
    n.signature = 'aaaaaaaaaaaa';
    n.line = line;
    n.column = 1;
  }
  return g;
}

describe('the action: what counts as a structural change', () => {
  it('the same graph: nothing', () => {
    assert.equal(isStructural(diff(graph(1), graph(1))), false);
  });

  it('symbols that only moved within their file: nothing structural', () => {
    const r = diff(graph(1), graph(3));
    assert.ok(r.summary.symbols.moved > 0, 'the report sees the move');
    assert.equal(isStructural(r), false);
  });

  it('an added symbol, a removed one with its consumer: structural', () => {
    assert.equal(isStructural(diff(graph(1), graph(1, ['sym:src/b.ts#h']))), true);
    assert.equal(isStructural(diff(graph(1, ['sym:src/b.ts#h']), graph(1))), true);
    const g = graphOf([], { nodes: ['sym:src/a.ts#f'] });
    assert.equal(isStructural(diff(graph(1), g)), true, 'a call and its target gone');
  });

  it('a count the summary gains later is structural until the script says otherwise', () => {
    const r = diff(graph(1), graph(1));
    assert.equal(isStructural({ ...r, summary: { ...r.summary, somethingNew: 1 } }), true);
    assert.equal(isStructural({ ...r, summary: { ...r.summary, edges: { ...r.summary.edges, another: 2 } } }), true);
  });

  it('the marker is the first line of the comment kg diff writes', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'graph', 'diff', 'pr-comment.ts'), 'utf8');
    assert.ok(text.includes(`const COMMENT_MARKER = '${MARKER}';`));
  });
});

describe('the action: the sides an event names', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-action-event-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const event = (payload: unknown) => {
    const file = path.join(dir, `event-${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(file, JSON.stringify(payload));
    return file;
  };
  const pr = event({ pull_request: { number: 12, base: { sha: 'b'.repeat(40) }, head: { sha: 'c'.repeat(40) } } });

  it('pull_request: the base branch commit against the merge commit, and the number', () => {
    assert.deepEqual(sides({ GITHUB_EVENT_PATH: pr, GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: 'a'.repeat(40) }), {
      base: 'b'.repeat(40),
      head: 'a'.repeat(40),
      pullRequest: 12,
    });
  });

  it('inputs override the event', () => {
    const env = { GITHUB_EVENT_PATH: pr, GITHUB_EVENT_NAME: 'pull_request', GITHUB_SHA: 'a'.repeat(40) };
    assert.deepEqual(sides({ ...env, INPUT_BASE: 'main', INPUT_HEAD: 'feature', INPUT_PULL_REQUEST: '3' }), {
      base: 'main',
      head: 'feature',
      pullRequest: 3,
    });
  });

  it('another event names no sides: an error, not a guess; explicit sides work there', () => {
    for (const name of ['pull_request_target', 'push', undefined])
      assert.throws(() => sides({ GITHUB_EVENT_PATH: pr, GITHUB_EVENT_NAME: name, GITHUB_SHA: 'a'.repeat(40) }), /name both sides/);
    assert.deepEqual(sides({ GITHUB_EVENT_NAME: 'push', INPUT_BASE: 'v1', INPUT_HEAD: 'HEAD' }), {
      base: 'v1',
      head: 'HEAD',
      pullRequest: undefined,
    });
  });

  it('a pull-request input that is not a number, an unreadable payload: errors', () => {
    assert.throws(() => sides({ INPUT_BASE: 'a', INPUT_HEAD: 'b', INPUT_PULL_REQUEST: '7; rm -rf /' }), /must be a number/);
    assert.throws(
      () => sides({ GITHUB_EVENT_PATH: path.join(dir, 'missing.json'), INPUT_BASE: 'a', INPUT_HEAD: 'b' }),
      /cannot read the event/,
    );
  });
});

describe('the YAML subset the action is read with', () => {
  it('reads mappings, sequences of mappings, quoted and plain scalars, literal blocks and comments', () => {
    const text = [
      '# a comment',
      'name: x # trailing',
      'on:',
      '  pull_request:',
      "quoted: 'it''s \"here\"'",
      "apostrophe: the branch's commit",
      'n: 0',
      'flag: false',
      'steps:',
      '  - id: a',
      '    run: |',
      '      echo "# not a comment"',
      '',
      '      done',
      '  - uses: b@v1',
      '    with:',
      '      k: v',
      '',
    ].join('\n');
    assert.deepEqual(parseYamlSubset(text), {
      name: 'x',
      on: { pull_request: null },
      quoted: 'it\'s "here"',
      apostrophe: "the branch's commit",
      n: 0,
      flag: false,
      steps: [
        { id: 'a', run: 'echo "# not a comment"\n\ndone\n' },
        { uses: 'b@v1', with: { k: 'v' } },
      ],
    });
  });

  it('refuses what it would have to guess at', () => {
    for (const text of [
      'a: [1, 2]',
      'a: {b: 1}',
      'a: &x 1',
      'a: *x',
      'a: >\n  folded',
      'a: 1\na: 2',
      'a: b: c',
      '\ta: 1',
      'a:\n  b: 1\n c: 2',
    ])
      assert.throws(() => parseYamlSubset(text), /outside the YAML subset/, JSON.stringify(text));
  });
});
