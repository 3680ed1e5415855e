// The build server's doctor examines each candidate by its difference from the last one that
// passed (ADR 132). Its verdict must be the full doctor's on the whole text parsed at once
// (examineGraph(JSON.parse(text))): the same report, or the same error. Held to that here on the
// golden graphs of the fixtures, through chains of random edits — ones that keep the graph sound,
// ones that break each rule through a row the edit did not touch, and ones that break the text.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { compareEdges, compareStrings, examineGraph, type Graph, type GraphEdge, type GraphNode } from '../../src/graph';
import { serializeGraph } from '../../src/graph/io/canonical';
import { DoctorMemo } from '../../src/graph/doctor/memo';
import { SNAPSHOTS } from '../helpers/fixtures';
import { fc } from '../helpers/seed';

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** What examining a text gives: the report, or the error thrown, by kind and message. */
function outcome(examine: () => unknown): unknown {
  try {
    return { report: examine() };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}`, code: (e as { code?: unknown }).code };
  }
}

const graphs: Graph[] = ['rationale', 'calls-members', 'nested-modules', 'project-references', 'calls-static-twins', 'rationale-notes'].map(
  (name) => JSON.parse(fs.readFileSync(path.join(SNAPSHOTS, name, 'graph.json'), 'utf8')) as Graph,
);

const sortGraph = (g: Graph) => {
  g.nodes.sort((a, b) => compareStrings(a.id, b.id));
  g.edges.sort(compareEdges);
};

type Edit = { kind: string; at: number; text: string };

/** One edit of a graph value (the kinds below), at random places; `base` is the graph it started as. */
function applyEdit(g: Graph, base: Graph, edit: Edit): string | undefined {
  const node = (at: number) => g.nodes[at % g.nodes.length];
  const edge = (at: number) => g.edges[at % g.edges.length];
  const touching = (id: string) => (e: GraphEdge) => e.source === id || e.target === id;
  switch (edit.kind) {
    case 'relabel':
      if (g.nodes.length) node(edit.at).label = edit.text;
      return;
    case 'move-evidence': {
      const e = g.edges.filter((x) => x.evidence)[edit.at % Math.max(1, g.edges.length)];
      if (e?.evidence) e.evidence.line = (edit.at % 97) + 1;
      return;
    }
    case 'drop-node':
      // A node alone: what names it or contains it is left dangling.
      if (g.nodes.length) g.nodes.splice(edit.at % g.nodes.length, 1);
      return;
    case 'drop-node-and-edges': {
      if (!g.nodes.length) return;
      const id = node(edit.at).id;
      g.nodes = g.nodes.filter((n) => n.id !== id);
      g.edges = g.edges.filter((e) => !touching(id)(e));
      return;
    }
    case 'drop-file': {
      // A file node: its symbols' sourceFile and the evidence in it point at nothing.
      const files = g.nodes.filter((n) => n.kind === 'file');
      if (files.length) g.nodes = g.nodes.filter((n) => n !== files[edit.at % files.length]);
      return;
    }
    case 'drop-edge':
      if (g.edges.length) g.edges.splice(edit.at % g.edges.length, 1);
      return;
    case 'drop-contains': {
      const cs = g.edges.filter((e) => e.relation === 'contains');
      if (cs.length) g.edges = g.edges.filter((e) => e !== cs[edit.at % cs.length]);
      return;
    }
    case 'restore': {
      // Back to where it started: whatever the chain broke is sound again.
      g.nodes = clone(base.nodes);
      g.edges = clone(base.edges);
      delete g.packages;
      return;
    }
    case 'duplicate-node':
      if (g.nodes.length) g.nodes.push(clone(node(edit.at)));
      return;
    case 'twin-id': {
      // Another spelling of an existing id's key: `%41` for `A`, where the id has a letter.
      const n = g.nodes.find((x) => /^sym:[^#]*#[A-Za-z]/.test(x.id));
      if (n)
        g.nodes.push({
          ...clone(n),
          id: n.id.replace(/#([A-Za-z])/, (_m, c: string) => `#%${c.charCodeAt(0).toString(16).toUpperCase()}`),
        });
      return;
    }
    case 'bad-confidence':
      if (g.edges.length) (edge(edit.at) as unknown as Record<string, unknown>).confidence = edit.text;
      return;
    case 'guess-as-fact': {
      const e = g.edges.find((x) => x.relation === 'calls');
      if (e) e.provenance = 'NAME_MATCH';
      return;
    }
    case 'evidence-elsewhere':
      if (g.edges.length && edge(edit.at).evidence) (edge(edit.at).evidence as { file: string }).file = `${edit.text}.ts`;
      return;
    case 'move-source-file':
      if (g.nodes.length && node(edit.at).sourceFile !== undefined) node(edit.at).sourceFile = `${edit.text}.ts`;
      return;
    case 'new-symbol': {
      // A new symbol, declared by its file, called by it: sound.
      const f = g.nodes.filter((n) => n.kind === 'file')[edit.at % Math.max(1, g.nodes.length)];
      if (!f?.sourceFile) return;
      const id = `sym:${f.sourceFile}#kgNew${edit.at}`;
      if (g.nodes.some((n) => n.id === id)) return;
      g.nodes.push({ id, kind: 'function', label: `kgNew${edit.at}`, sourceFile: f.sourceFile, line: 1, column: 1 } as GraphNode);
      const proven = { confidence: 'EXACT', resolution: 'EXTRACTED', evidenceClass: 'DETERMINISTIC', confidenceScore: null, tier: 'ast' };
      g.edges.push({
        source: f.id,
        target: id,
        relation: 'contains',
        provenance: 'SYNTAX',
        ...proven,
        evidence: { file: f.sourceFile, line: 1, column: 1 },
      } as GraphEdge);
      if (edit.at % 2 === 0)
        g.edges.push({
          source: f.id,
          target: id,
          relation: 'calls',
          provenance: 'TYPESCRIPT_CHECKER',
          ...proven,
          evidence: { file: f.sourceFile, line: 2, column: 1 },
        } as GraphEdge);
      return;
    }
    case 'package-call': {
      // A proven call into a package, with or without the package recorded.
      const f = g.nodes.find((n) => n.kind === 'file');
      if (!f?.sourceFile) return;
      if (edit.at % 3 !== 0) g.packages = [{ name: 'lib', version: '1.0.0' }] as Graph['packages'];
      g.edges.push({
        source: f.id,
        target: 'pkg:lib@1.0.0:src%2Findex.ts#run',
        relation: 'calls',
        confidence: 'EXACT',
        provenance: 'TYPESCRIPT_CHECKER',
        resolution: 'EXTRACTED',
        evidenceClass: 'DETERMINISTIC',
        resolutionClass: 'EXACT_TYPECHECKED',
        confidenceScore: null,
        tier: 'ast',
        evidence: { file: f.sourceFile, line: 1, column: 1 },
      } as GraphEdge);
      return;
    }
    // The text itself, after serialization.
    case 'text-broken-line':
    case 'text-crlf':
    case 'text-unsorted':
    case 'text-extra-key':
    case 'text-whitespace':
    case 'text-not-an-object':
      return edit.kind;
  }
  return;
}

function textOf(g: Graph, textEdit: string | undefined, at: number): string {
  const h = clone(g);
  if (textEdit !== 'text-unsorted') sortGraph(h);
  else h.edges.reverse();
  let text = serializeGraph(h);
  const lines = text.split('\n');
  const item = lines.findIndex((l, i) => i > at % lines.length && l.startsWith('    {'));
  switch (textEdit) {
    case 'text-broken-line':
      if (item >= 0) lines[item] = lines[item].slice(0, -3);
      text = lines.join('\n');
      break;
    case 'text-crlf':
      text = text.replace(/\n/g, '\r\n');
      break;
    case 'text-extra-key':
      text = text.replace('{\n', '{\n  "layers": [],\n');
      break;
    case 'text-whitespace':
      if (item >= 0) lines[item] = ' ' + lines[item];
      text = lines.join('\n');
      break;
    case 'text-not-an-object':
      // A row that is a number, first in the nodes or the edges list.
      text = text.replace(at % 2 ? '"nodes": [\n' : '"edges": [\n', (m) => `${m}    ${at},\n`);
      break;
  }
  return text;
}

const SOUND = ['relabel', 'move-evidence', 'drop-node-and-edges', 'restore', 'new-symbol'];
const BREAKING = [
  'drop-node',
  'drop-file',
  'drop-edge',
  'drop-contains',
  'duplicate-node',
  'twin-id',
  'bad-confidence',
  'guess-as-fact',
  'evidence-elsewhere',
  'move-source-file',
  'package-call',
  'text-not-an-object',
];
/** Edits that may add or drop the `packages` entry, or change what it records. */
const KEYS_OR_PACKAGES = ['restore', 'package-call'];
const TEXT = ['text-broken-line', 'text-crlf', 'text-unsorted', 'text-extra-key', 'text-whitespace'];

const editArb = (kinds: string[]) =>
  fc.record({ kind: fc.constantFrom(...kinds), at: fc.nat({ max: 10_000 }), text: fc.string({ maxLength: 12 }) });

describe('the doctor by difference (ADR 132)', () => {
  it('gives the full doctor’s report, or its error, after every edit of a chain', () => {
    const ways = { difference: 0, full: 0, whole: 0 };
    let passedByDifference = 0;
    fc.assert(
      fc.property(
        fc.nat({ max: graphs.length - 1 }),
        fc.array(
          fc.oneof(
            { weight: 6, arbitrary: editArb(SOUND) },
            { weight: 3, arbitrary: editArb(BREAKING) },
            { weight: 1, arbitrary: editArb(TEXT) },
          ),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        (which, edits) => {
          const base = graphs[which];
          const g = clone(base);
          const memo = new DoctorMemo();
          const first = textOf(g, undefined, 0);
          assert.deepEqual(
            outcome(() => memo.examine(first)),
            outcome(() => examineGraph(JSON.parse(first))),
          );
          let passed = true;
          for (const edit of edits) {
            const textEdit = applyEdit(g, base, edit);
            const text = textOf(g, textEdit, edit.at);
            const got = outcome(() => memo.examine(text));
            const want = outcome(() => examineGraph(JSON.parse(text)));
            assert.deepEqual(got, want, `after ${edit.kind} (at ${edit.at})`);
            ways[memo.judgedBy ?? 'whole']++;
            const ok = (want as { report?: { ok: boolean } }).report?.ok === true;
            // A graph that passes, one edit of its values after one that passed, is judged by
            // difference (unless the edit changed the top-level keys or the packages: judged in full).
            if (passed && ok && textEdit === undefined && !KEYS_OR_PACKAGES.includes(edit.kind)) {
              assert.equal(memo.judgedBy, 'difference', `after ${edit.kind} (at ${edit.at})`);
              passedByDifference++;
            }
            passed = ok && textEdit === undefined; // a text of another layout leaves nothing to compare with
          }
        },
      ),
      { numRuns: 300 },
    );
    // The comparison means something only if many steps were judged by difference, and the
    // chains reached texts of another layout too.
    assert.ok(passedByDifference > 300, `passing steps judged by difference: ${passedByDifference} (${JSON.stringify(ways)})`);
    assert.ok(ways.whole > 0 && ways.full > 0, JSON.stringify(ways));
  });

  it('judges a sound change by difference, and a change that breaks a rule through an untouched row in full', () => {
    const base = graphs[2]; // nested-modules: modules contain files, files contain symbols, calls between them
    const memo = new DoctorMemo();
    const g = clone(base);
    assert.equal((memo.examine(textOf(g, undefined, 0)) as { ok: boolean }).ok, true);
    assert.equal(memo.judgedBy, 'full');
    applyEdit(g, base, { kind: 'relabel', at: 3, text: 'renamed' });
    assert.equal(memo.examine(textOf(g, undefined, 0)).ok, true);
    assert.equal(memo.judgedBy, 'difference');
    // The module node of a directory goes: nothing in the change names its file, but the file is
    // no longer contained by a module, and every EXACT edge from it has an undeclared source.
    const withoutModule = clone(g);
    withoutModule.nodes = withoutModule.nodes.filter((n) => n.id !== 'mod:src/util');
    const text = textOf(withoutModule, undefined, 0);
    const report = memo.examine(text);
    assert.equal(report.ok, false);
    assert.deepEqual(report, examineGraph(JSON.parse(text)));
    assert.equal(memo.judgedBy, 'full');
    // The file node of src/a.ts goes, its symbol stays: the symbol's owning file is not a node.
    const withoutFile = clone(g);
    withoutFile.nodes = withoutFile.nodes.filter((n) => n.id !== 'file:src/a.ts');
    withoutFile.edges = withoutFile.edges.filter((e) => e.source !== 'file:src/a.ts' && e.target !== 'file:src/a.ts');
    assert.equal(memo.examine(textOf(g, undefined, 0)).ok, true);
    const broken = memo.examine(textOf(withoutFile, undefined, 0));
    assert.equal(broken.ok, false);
    assert.ok(broken.rules.some((r) => r.rule === 'invalid_repository_ownership' && r.count > 0));
  });

  // Each way a change reaches a row it did not touch, alone: a graph that passes, a change after
  // which only that way finds the break. Without the way, the doctor by difference would pass it.
  describe('every way a change reaches an untouched row', () => {
    const proven = { confidence: 'EXACT', resolution: 'EXTRACTED', evidenceClass: 'DETERMINISTIC', confidenceScore: null, tier: 'ast' };
    const guessed = {
      confidence: 'CANDIDATE',
      provenance: 'NAME_MATCH',
      resolution: 'EXTRACTED',
      evidenceClass: 'HEURISTIC',
      confidenceScore: null,
      tier: 'ast',
    };
    const file = (p: string): GraphNode => ({ id: `file:${p}`, kind: 'file', label: p, sourceFile: p }) as GraphNode;
    const sym = (p: string, name: string, sourceFile = p): GraphNode =>
      ({ id: `sym:${p}#${name}`, kind: 'function', label: name, sourceFile, line: 1, column: 1 }) as GraphNode;
    const edge = (source: string, target: string, relation: string, how: object, evidence?: string): GraphEdge =>
      ({
        source,
        target,
        relation,
        ...how,
        ...(evidence ? { evidence: { file: evidence, line: 1, column: 1 } } : {}),
      }) as unknown as GraphEdge;
    const root = { id: 'mod:.', kind: 'module', label: '.' } as GraphNode;
    const inRoot = (p: string) => edge('mod:.', `file:${p}`, 'contains', { ...proven, provenance: 'SYNTAX' });
    // Every graph also holds a file that imports itself: both lists are never empty, so both are
    // written as lists, the layout the doctor by difference reads.
    const graph = (nodes: GraphNode[], edges: GraphEdge[]): Graph => {
      const g = {
        schemaVersion: 1,
        graphSignature: '000000000000',
        layers: [],
        grammarVersions: {},
        nodes: [...nodes, file('z.ts')],
        edges: [...edges, edge('file:z.ts', 'file:z.ts', 'imports', guessed, 'z.ts')],
      } as unknown as Graph;
      sortGraph(g);
      return g;
    };
    /** The first graph passes; the second does not; the doctor by difference must say so, as the full doctor does. */
    const breaks = (before: Graph, after: Graph) => {
      const memo = new DoctorMemo();
      assert.equal(memo.examine(serializeGraph(before)).ok, true, 'the first graph passes');
      assert.equal(memo.examine(serializeGraph(before)).ok, true);
      assert.equal(memo.judgedBy, 'difference', 'the first graph is one the doctor by difference reads');
      const text = serializeGraph(after);
      const want = examineGraph(JSON.parse(text));
      assert.equal(want.ok, false, 'the second graph fails the full doctor');
      assert.deepEqual(memo.examine(text), want);
    };

    it('an edge whose evidence file lost its file node (the edge names neither)', () => {
      const before = graph(
        [file('a.ts'), file('b.ts'), { id: 'mod:.', kind: 'module', label: '.' } as GraphNode],
        [edge('mod:.', 'file:b.ts', 'references', guessed, 'a.ts')],
      );
      breaks(before, { ...before, nodes: before.nodes.filter((n) => n.id !== 'file:a.ts') });
    });

    it('a proven call to a method whose class node went (the call names the method)', () => {
      const nodes = [root, file('a.ts'), sym('a.ts', 'C'), sym('a.ts', 'C.m'), sym('a.ts', 'f')];
      const before = graph(nodes, [
        inRoot('a.ts'),
        edge('sym:a.ts#C', 'sym:a.ts#C.m', 'contains', guessed, 'a.ts'),
        edge('file:a.ts', 'sym:a.ts#f', 'contains', { ...proven, provenance: 'SYNTAX' }, 'a.ts'),
        edge('sym:a.ts#f', 'sym:a.ts#C.m', 'calls', { ...proven, provenance: 'TYPESCRIPT_CHECKER' }, 'a.ts'),
      ]);
      breaks(before, { ...before, nodes: before.nodes.filter((n) => n.id !== 'sym:a.ts#C') });
    });

    it('a symbol whose file lost its file node (nothing contains either)', () => {
      const before = graph([file('a.ts'), sym('a.ts', 'f')], []);
      breaks(before, { ...before, nodes: before.nodes.filter((n) => n.id !== 'file:a.ts') });
    });

    it('a symbol contained by a record that moved to another file (the containment is untouched)', () => {
      const record = { id: 'adr:1', kind: 'rationale', label: 'one', sourceFile: 'a.ts' } as GraphNode;
      const before = graph([file('a.ts'), file('b.md'), sym('a.ts', 'f'), record], [edge('adr:1', 'sym:a.ts#f', 'contains', guessed)]);
      const moved = { ...record, sourceFile: 'b.md' };
      breaks(before, { ...before, nodes: before.nodes.map((n) => (n.id === 'adr:1' ? moved : n)) });
    });

    it('a file that a second, wrong module now contains (the file is untouched)', () => {
      const sub = { id: 'mod:sub', kind: 'module', label: 'sub' } as GraphNode;
      const before = graph(
        [root, sub, file('a.ts')],
        [inRoot('a.ts'), edge('mod:.', 'mod:sub', 'contains', { ...proven, provenance: 'SYNTAX' })],
      );
      breaks(before, {
        ...before,
        edges: [...before.edges, edge('mod:sub', 'file:a.ts', 'contains', { ...proven, provenance: 'SYNTAX' })],
      });
    });

    it('a proven call into a package no longer recorded (the call is untouched)', () => {
      const call = edge(
        'file:a.ts',
        'pkg:lib@1.0.0:index.ts#run',
        'calls',
        { ...proven, provenance: 'TYPESCRIPT_CHECKER', resolutionClass: 'EXACT_TYPECHECKED' },
        'a.ts',
      );
      const before = { ...graph([root, file('a.ts')], [inRoot('a.ts'), call]), packages: [{ name: 'lib', version: '1.0.0' }] } as Graph;
      breaks(before, { ...before, packages: [{ name: 'lib', version: '2.0.0' }] } as Graph);
    });

    it('a proven call to a symbol whose containment went (the call is untouched)', () => {
      const before = graph(
        [root, file('a.ts'), sym('a.ts', 'f'), sym('a.ts', 'g')],
        [
          inRoot('a.ts'),
          edge('file:a.ts', 'sym:a.ts#f', 'contains', { ...proven, provenance: 'SYNTAX' }, 'a.ts'),
          edge('file:a.ts', 'sym:a.ts#g', 'contains', { ...proven, provenance: 'SYNTAX' }, 'a.ts'),
          edge('sym:a.ts#f', 'sym:a.ts#g', 'calls', { ...proven, provenance: 'TYPESCRIPT_CHECKER' }, 'a.ts'),
        ],
      );
      breaks(before, { ...before, edges: before.edges.filter((e) => !(e.relation === 'contains' && e.target === 'sym:a.ts#g')) });
    });
  });
});
