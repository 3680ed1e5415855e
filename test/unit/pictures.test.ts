// Pictures of the graph (ADR 156): the three renderers over hand-built pictures, their expected
// text worked out by hand; hostile names that must stay text in every syntax; the bounded walk
// a neighbourhood picture draws; and the picture in the pull-request comment.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  diffMarkdown,
  diffReport,
  dotPicture,
  mermaidPicture,
  neighborhoodPicture,
  pathPicture,
  queryNeighborhood,
  svgPicture,
  type DiffSide,
  type Graph,
  type Picture,
} from '../../src/graph';
import { DIFF_PICTURE_MAX_NODES, diffPicture } from '../../src/graph/diff/change-picture';
import { arrange, describeNode, displayText } from '../../src/graph/picture/picture';
import { graphOf, indexedOf, ok, type EdgeSpec } from '../helpers/graphs';
import { all, parseXml, type El } from '../helpers/xml';

/** f calls g (proven, and once more as a guess) and calls h, which nothing declares. */
const SMALL: Picture = {
  nodes: [
    { id: 'sym:b.ts#g', label: 'g', detail: 'function · b.ts:2' },
    { id: 'sym:a.ts#f', label: 'f', detail: 'function · a.ts:1', role: 'focus' },
    { id: 'unresolved:h', label: 'h', detail: 'unresolved name', role: 'outside' },
  ],
  edges: [
    { source: 'sym:a.ts#f', target: 'unresolved:h', relation: 'calls', confidence: 'UNRESOLVED' },
    { source: 'sym:a.ts#f', target: 'sym:b.ts#g', relation: 'calls', confidence: 'CANDIDATE' },
    { source: 'sym:a.ts#f', target: 'sym:b.ts#g', relation: 'calls', confidence: 'EXACT' },
    { source: 'sym:a.ts#f', target: 'sym:b.ts#g', relation: 'calls', confidence: 'EXACT' },
    { source: 'sym:a.ts#f', target: 'sym:gone.ts#x', relation: 'calls', confidence: 'EXACT' },
  ],
  notes: ['2 more nodes left out'],
};

describe('pictures: what is drawn, in which order', () => {
  it('nodes by id as n0, n1 …; edges by source, target, relation, confidence; duplicates and dangling edges dropped', () => {
    const a = arrange(SMALL);
    assert.deepEqual(
      a.nodes.map((n) => `${n.key} ${n.id}`),
      ['n0 sym:a.ts#f', 'n1 sym:b.ts#g', 'n2 unresolved:h'],
    );
    assert.deepEqual(
      a.edges.map((e) => `${e.from}->${e.to} ${e.confidence}`),
      ['n0->n1 EXACT', 'n0->n1 CANDIDATE', 'n0->n2 UNRESOLVED'],
    );
  });

  it('text is one line of shown characters, cut by code points', () => {
    assert.equal(displayText('a\u202Egnp.ts', 60), 'a\\u202egnp.ts');
    assert.equal(displayText('one\ntwo\r\tthree', 60), 'one\\u000atwo\\u000d three');
    assert.equal(displayText('\u0000\u0085\u2028\ud800x', 60), '\\u0000\\u0085\\u2028\\ud800x');
    assert.equal(displayText('😀😀😀😀', 3), '😀😀…', 'an astral character is never split');
    assert.equal(displayText('abc', 3), 'abc');
  });

  it('a node is its label and its kind and place; a name without a node is drawn as outside', () => {
    assert.deepEqual(describeNode('unresolved:fetchAll', undefined), {
      id: 'unresolved:fetchAll',
      label: 'fetchAll',
      detail: 'unresolved name',
      role: 'outside',
    });
    assert.deepEqual(describeNode('sym:src/a.ts#Box.size', undefined), {
      id: 'sym:src/a.ts#Box.size',
      label: 'Box.size',
      detail: 'symbol · src/a.ts',
    });
    assert.deepEqual(
      describeNode(
        'sym:src/a.ts#run',
        { id: 'sym:src/a.ts#run', kind: 'function', label: 'run', sourceFile: 'src/a.ts', line: 7 },
        'focus',
      ),
      { id: 'sym:src/a.ts#run', label: 'run', detail: 'function · src/a.ts:7', role: 'focus' },
    );
    assert.deepEqual(describeNode('file:src/a.ts', { id: 'file:src/a.ts', kind: 'file', label: 'a.ts', sourceFile: 'src/a.ts' }), {
      id: 'file:src/a.ts',
      label: 'a.ts',
      detail: 'file',
    });
  });
});

describe('pictures: Mermaid', () => {
  it('draws the small picture: solid, dashed and dotted by linkStyle, the legend with its note', () => {
    assert.equal(
      mermaidPicture(SMALL),
      [
        'flowchart LR',
        '  n0["f<br/>function · a.ts:1"]',
        '  n1["g<br/>function · b.ts:2"]',
        '  n2["h<br/>unresolved name"]',
        '  n0 -->|"calls"| n1',
        '  n0 -.->|"calls · CANDIDATE"| n1',
        '  n0 -.->|"calls · UNRESOLVED"| n2',
        '  subgraph legend["Legend"]',
        '    direction LR',
        '    l0a[" "] -->|"solid: EXACT (proven by the checker)"| l0b[" "]',
        '    l1a[" "] -.->|"dashed: CANDIDATE (a guess: a name match)"| l1b[" "]',
        '    l2a[" "] -.->|"dotted: UNRESOLVED (no declaration found)"| l2b[" "]',
        '    note0["2 more nodes left out"]',
        '  end',
        // Edges 0–2 are the picture's, 3–5 the legend's samples.
        '  linkStyle 1,4 stroke:#444444,stroke-dasharray:6 4',
        '  linkStyle 2,5 stroke:#b35c00,stroke-dasharray:2 3,color:#b35c00',
        '  classDef focus stroke-width:3px',
        '  classDef outside stroke:#b35c00,stroke-dasharray:2 3',
        '  class n0 focus',
        '  class n2 outside',
        '',
      ].join('\n'),
    );
  });

  it('writes quotes, brackets, #, ;, <, & and non-ASCII as entity codes', () => {
    const out = mermaidPicture({ nodes: [{ id: 'x', label: 'a"b[c]#d;e<f&g é' }], edges: [], notes: [] });
    assert.ok(out.includes('  n0["a#34;b#91;c#93;#35;d#59;e#60;f#38;g #233;"]'), out);
  });
});

describe('pictures: DOT', () => {
  it('draws the small picture: quoted names, the styles, the legend cluster', () => {
    const out = dotPicture(SMALL).split('\n');
    assert.equal(out[0], 'digraph "knowledge-graph" {');
    assert.deepEqual(out.slice(4, 10), [
      '  "n0" [label="f\\nfunction · a.ts:1", tooltip="sym:a.ts#f", penwidth=2.5];',
      '  "n1" [label="g\\nfunction · b.ts:2", tooltip="sym:b.ts#g"];',
      '  "n2" [label="h\\nunresolved name", tooltip="unresolved:h", style="rounded,dotted", color="#b35c00"];',
      '  "n0" -> "n1" [label="calls", style=solid, color="#444444", fontcolor="#444444"];',
      '  "n0" -> "n1" [label="calls · CANDIDATE", style=dashed, color="#444444", fontcolor="#444444"];',
      '  "n0" -> "n2" [label="calls · UNRESOLVED", style=dotted, color="#b35c00", fontcolor="#b35c00"];',
    ]);
    assert.ok(out.includes('    "note0" [shape=plaintext, width=0, label="2 more nodes left out"];'));
    assert.ok(
      out.includes(
        '    "l1a" -> "l1b" [label="dashed: CANDIDATE (a guess: a name match)", style=dashed, color="#444444", fontcolor="#444444"];',
      ),
    );
    assert.equal(out.at(-2), '}');
  });
});

describe('pictures: SVG', () => {
  it('is well-formed XML: one box per node, one path per edge in its style, the legend', () => {
    const svg = parseXml(svgPicture(SMALL));
    assert.equal(svg.name, 'svg');
    assert.equal(svg.attributes.xmlns, 'http://www.w3.org/2000/svg');
    const nodes = all(svg, 'g').filter((g) => g.attributes.class === 'node');
    assert.deepEqual(
      nodes.map((g) => g.children.find((c) => c.name === 'title')?.text),
      ['sym:a.ts#f', 'sym:b.ts#g', 'unresolved:h'],
    );
    assert.deepEqual(
      nodes.map((g) => all(g, 'text').map((t) => t.text)),
      [
        ['f', 'function · a.ts:1'],
        ['g', 'function · b.ts:2'],
        ['h', 'unresolved name'],
      ],
    );
    const edges = all(svg, 'path').filter((p) => p.attributes.class?.startsWith('edge '));
    assert.deepEqual(
      edges.map((p) => `${p.attributes.class} ${p.attributes['stroke-dasharray'] ?? 'solid'} ${p.attributes.stroke}`),
      ['edge exact solid #444444', 'edge candidate 6 4 #444444', 'edge unresolved 2 3 #b35c00'],
    );
    for (const p of edges) assert.match(p.attributes.d, /^M[\d.-]+,[\d.-]+( L[\d.-]+,[\d.-]+)+$/);
    const legend = all(svg, 'g').find((g) => g.attributes.class === 'legend') as El;
    assert.deepEqual(
      all(legend, 'text').map((t) => t.text),
      [
        'Legend',
        'solid: EXACT (proven by the checker)',
        'dashed: CANDIDATE (a guess: a name match)',
        'dotted: UNRESOLVED (no declaration found)',
        '2 more nodes left out',
      ],
    );
  });

  it('the same picture gives the same bytes, whatever was laid out before', () => {
    const first = svgPicture(SMALL);
    svgPicture({
      nodes: [
        { id: 'a', label: 'a' },
        { id: 'b', label: 'b' },
      ],
      edges: [{ source: 'a', target: 'b', relation: 'calls', confidence: 'EXACT' }],
      notes: [],
    });
    assert.equal(svgPicture(SMALL), first);
    assert.equal(mermaidPicture(SMALL), mermaidPicture(SMALL));
    assert.equal(dotPicture(SMALL), dotPicture(SMALL));
  });

  it('an empty picture is still a picture with its legend', () => {
    const svg = parseXml(svgPicture({ nodes: [], edges: [], notes: ['nothing here'] }));
    assert.equal(all(svg, 'g').filter((g) => g.attributes.class === 'node').length, 0);
    assert.ok(all(svg, 'text').some((t) => t.text === 'nothing here'));
  });
});

/** Names a repository could hold, each trying to end its string or its element. */
const HOSTILE = [
  'a"]) --> evil["x',
  '`` ```mermaid\nclick n0 "javascript:alert(1)"',
  '<script>alert(1)</script>&amp;',
  'a\u202Egnp.ts',
  '#quot; ;#35; %% comment',
  'back\\slash \\N \\G \\" end\\',
  'nul\u0000 del\u007f sep\u2028 lone\ud800 cr\r',
  '}; digraph x { a -> b',
  ']]> <!-- --> <?xml?>',
];

function hostilePicture(): Picture {
  return {
    nodes: HOSTILE.map((label, i) => ({ id: `sym:${label}#${i}`, label, detail: `${label} · detail` })),
    edges: HOSTILE.slice(1).map((_, i) => ({
      source: `sym:${HOSTILE[i]}#${i}`,
      target: `sym:${HOSTILE[i + 1]}#${i + 1}`,
      relation: 'calls',
      confidence: 'CANDIDATE',
    })),
    notes: HOSTILE,
  };
}

describe('pictures: hostile names stay text', () => {
  const p = hostilePicture();
  /** The nodes as given, in the order they are drawn (by id). */
  const order = arrange(p).nodes.map((n) => p.nodes.find((x) => x.id === n.id) as (typeof p.nodes)[number]);

  it('Mermaid: every label is one quoted line of safe characters and entity codes, and reads back as the name', () => {
    const out = mermaidPicture(p);
    for (const bad of ['`', '\u202E', '\u0000', '\r', '<script', '%%']) assert.ok(!out.includes(bad), `no raw ${JSON.stringify(bad)}`);
    const lines = out.split('\n');
    // Every line starts with one of the tokens kg writes: no name starts a line of its own (a `click`).
    for (const line of lines)
      assert.match(
        line,
        /^(flowchart LR| {2}n\d+[[ ].*| {4}(l\d+a|note\d+)\[.*| {2}subgraph legend\["Legend"\]| {4}direction LR| {2}end| {2}(linkStyle|classDef|class) .*|)$/,
      );
    const nodeLines = lines.filter((l) => /^ {2}n\d+\[/.test(l));
    assert.equal(nodeLines.length, HOSTILE.length);
    const decode = (s: string) => s.replace(/#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)));
    for (const [i, line] of nodeLines.entries()) {
      const m = /^ {2}(n\d+)\["([A-Za-z0-9 .,:/_@$+=?!'()*\-·…→#;]*)<br\/>([A-Za-z0-9 .,:/_@$+=?!'()*\-·…→#;]*)"\]$/.exec(line);
      assert.ok(m, `a node line keeps its shape: ${line}`);
      const node = order[i];
      assert.equal(decode(m[2]), displayText(node.label, 60));
      assert.equal(decode(m[3]), displayText(node.detail as string, 80));
    }
    for (const line of lines.filter((l) => / -\.?->\|/.test(l)))
      assert.match(line, /^ {2,4}[nl]\d+[ab]?(\[" "\])? -\.?->\|"[^"|`<>[\]]*"\| [nl]\d+[ab]?(\[" "\])?$/);
    for (const line of lines.filter((l) => /^ {4}note\d+\[/.test(l))) assert.match(line, /^ {4}note\d+\["[^"`<>[\]\n]*"\]$/);
  });

  it('DOT: every string is quoted with \\ and " escaped, and reads back as the name', () => {
    const out = dotPicture(p);
    assert.ok(!out.includes('\u202E') && !out.includes('\u0000') && !out.includes('\r'));
    const STRING = '"((?:[^"\\\\\\n]|\\\\.)*)"';
    const nodeLine = new RegExp(`^ {2}"(n\\d+)" \\[label=${STRING}, tooltip=${STRING}\\];$`);
    const nodeLines = out.split('\n').filter((l) => /^ {2}"n\d+" \[/.test(l));
    assert.equal(nodeLines.length, HOSTILE.length);
    const decode = (s: string) => s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    for (const [i, line] of nodeLines.entries()) {
      const m = nodeLine.exec(line);
      assert.ok(m, `a node line keeps its shape: ${line}`);
      const node = order[i];
      assert.equal(decode(m[2]), `${displayText(node.label, 60)}\n${displayText(node.detail as string, 80)}`);
      assert.equal(decode(m[3]), displayText(node.id, 1000));
    }
    for (const line of out.split('\n').filter((l) => /^ {2,4}"[nl]\d+[ab]?" -> /.test(l)))
      assert.match(
        line,
        new RegExp(
          `^ {2,4}"[nl]\\d+[ab]?" -> "[nl]\\d+[ab]?" \\[label=${STRING}, style=(solid|dashed|dotted), color="#[0-9a-f]{6}", fontcolor="#[0-9a-f]{6}"\\];$`,
        ),
      );
    // Balanced braces outside strings: the graph and the legend cluster, nothing more.
    const outside = out.replace(new RegExp(STRING, 'g'), '""');
    assert.equal((outside.match(/\{/g) ?? []).length, 2);
    assert.equal((outside.match(/\}/g) ?? []).length, 2);
  });

  it('SVG: parses, has only the elements kg writes, and every text reads back as the name', () => {
    const svg = parseXml(svgPicture(p));
    const names = new Set<string>();
    const walk = (e: El) => {
      names.add(e.name);
      e.children.forEach(walk);
    };
    walk(svg);
    assert.deepEqual([...names].sort(), ['defs', 'g', 'marker', 'path', 'rect', 'svg', 'text', 'title']);
    const nodes = all(svg, 'g').filter((g) => g.attributes.class === 'node');
    assert.deepEqual(
      nodes.map((g) => all(g, 'text').map((t) => t.text)),
      order.map((n) => [displayText(n.label, 60), displayText(n.detail as string, 80)]),
    );
    assert.deepEqual(
      nodes.map((g) => g.children[0].text),
      order.map((n) => displayText(n.id, 1000)),
    );
  });
});

describe('pictures: the neighbourhood walk and its notes', () => {
  const chain: EdgeSpec[] = [
    ['sym:a.ts#a', 'sym:a.ts#b'],
    ['sym:a.ts#b', 'sym:a.ts#c'],
    ['sym:a.ts#c', 'sym:a.ts#d'],
    ['sym:a.ts#a', 'unresolved:u'],
    ['sym:a.ts#e', 'unresolved:u'],
  ];
  const g = indexedOf(chain, { nodes: ['file:a.ts'] });

  it('depth bounds the steps; an unresolved name is reached, never walked through', () => {
    assert.deepEqual(ok(queryNeighborhood(g, 'sym:a.ts#a', 1, 40)).nodes, ['sym:a.ts#a', 'sym:a.ts#b', 'unresolved:u']);
    const two = ok(queryNeighborhood(g, 'sym:a.ts#a', 2, 40));
    assert.deepEqual(two.nodes, ['sym:a.ts#a', 'sym:a.ts#b', 'unresolved:u', 'sym:a.ts#c']);
    assert.deepEqual(
      two.edges.map((e) => `${e.source}->${e.target}`),
      ['sym:a.ts#a->sym:a.ts#b', 'sym:a.ts#a->unresolved:u', 'sym:a.ts#b->sym:a.ts#c'],
    );
    assert.equal(two.leftOut, 0);
  });

  it('the limit cuts, and says how many nodes within the depth it left out', () => {
    const cut = ok(queryNeighborhood(g, 'sym:a.ts#a', 3, 2));
    assert.deepEqual(cut.nodes, ['sym:a.ts#a', 'sym:a.ts#b']);
    assert.equal(cut.leftOut, 3, 'u, c and d are within 3 steps');
    const picture = neighborhoodPicture(cut, { depth: 3, limit: 2 }, () => undefined);
    assert.deepEqual(picture.notes, [
      'the neighbourhood of sym:a.ts#a: 3 steps away at most, 2 nodes drawn',
      '3 more nodes within 3 steps left out by the limit of 2 (--limit)',
    ]);
    assert.ok(mermaidPicture(picture).includes('3 more nodes within 3 steps left out by the limit of 2 (--limit)'));
  });

  it('a hub is drawn but not expanded, and the legend names it', () => {
    const edges: EdgeSpec[] = [['sym:a.ts#a', 'sym:h.ts#hub']];
    for (let i = 0; i < 60; i++) edges.push([`sym:l.ts#leaf${i}`, 'sym:h.ts#hub']);
    for (let i = 0; i < 200; i++) edges.push([`sym:x.ts#x${i}`, `sym:y.ts#y${i}`]);
    const hg = indexedOf(edges);
    assert.ok(hg.degree[hg.rankOf.get('sym:h.ts#hub') as number] > hg.hubThreshold);
    const n = ok(queryNeighborhood(hg, 'sym:a.ts#a', 3, 500));
    assert.deepEqual(n.nodes, ['sym:a.ts#a', 'sym:h.ts#hub']);
    assert.deepEqual(n.hubs, ['sym:h.ts#hub']);
    assert.deepEqual(ok(queryNeighborhood(hg, 'sym:a.ts#a', 1, 500)).hubs, [], 'at the last step nothing is expanded anyway');
    assert.match(
      neighborhoodPicture(n, { depth: 3, limit: 500 }, () => undefined).notes[1],
      /^1 hub \(degree over \d+\) drawn but not expanded: sym:h\.ts#hub$/,
    );
  });

  it('an id not in the graph is a degrade with suggestions, a bad bound an error', () => {
    const r = queryNeighborhood(g, 'b', 1, 40);
    assert.equal(r.available, false);
    assert.equal(!r.available && r.code, 'UNKNOWN_NODE');
    assert.throws(() => queryNeighborhood(g, 'sym:a.ts#a', 0, 40), /depth must be a whole number/);
  });

  it('a path is drawn hop by hop; no path is said, not drawn as an empty picture', () => {
    const p = pathPicture(
      {
        path: ['sym:a.ts#a', 'sym:a.ts#b'],
        edges: [{ source: 'sym:a.ts#a', target: 'sym:a.ts#b', relation: 'calls', confidence: 'EXACT' }],
      },
      'sym:a.ts#a',
      'sym:a.ts#b',
      () => undefined,
    );
    assert.deepEqual(p.notes, ['a shortest path from sym:a.ts#a to sym:a.ts#b: 1 hop, edges in either direction']);
    assert.deepEqual(
      p.nodes.map((n) => n.role),
      ['focus', 'focus'],
    );
    const none = pathPicture({ path: [], edges: [] }, 'sym:a.ts#a', 'sym:a.ts#e', () => undefined);
    assert.deepEqual(none.notes, ['no path between sym:a.ts#a and sym:a.ts#e: they are not connected']);
    assert.equal(none.nodes.length, 2);
  });
});

describe('pictures: the pull-request comment', () => {
  const side = (spec: string): DiffSide => ({ spec, kind: 'graph', graphSignature: '000000000000' });
  const withPositions = (g: Graph): Graph => {
    for (const n of g.nodes) {
      if (!n.id.startsWith('sym:')) continue;
      n.signature = 'aaaaaaaaaaaa';
      n.line = 1;
      n.column = 1;
    }
    return g;
  };

  it('a removed symbol and its proven and guessed consumers: solid and dashed arrows to a heavy box', () => {
    const base = withPositions(
      graphOf([
        ['sym:src/b.ts#use', 'sym:src/a.ts#f'],
        ['sym:src/c.ts#maybe', 'sym:src/a.ts#f', 'calls', 'CANDIDATE'],
      ]),
    );
    const head = withPositions(graphOf([], { nodes: ['sym:src/b.ts#use', 'sym:src/c.ts#maybe'] }));
    const r = diffReport({ base, head }, { base: side('base.json'), head: side('head.json') });
    const p = diffPicture(r);
    assert.equal(p.nodes, 3);
    assert.deepEqual(arrange(p.picture as Picture).nodes, [
      { key: 'n0', id: 'sym:src/a.ts#f', label: 'f', detail: 'function · removed · src/a.ts:1', role: 'focus', title: 'sym:src/a.ts#f' },
      { key: 'n1', id: 'sym:src/b.ts#use', label: 'use', detail: 'symbol · src/b.ts', title: 'sym:src/b.ts#use' },
      { key: 'n2', id: 'sym:src/c.ts#maybe', label: 'maybe', detail: 'symbol · src/c.ts', title: 'sym:src/c.ts#maybe' },
    ]);
    const md = diffMarkdown(r);
    assert.ok(md.includes('<details open><summary>Picture: the changed symbols and what uses them (3 nodes)</summary>'));
    assert.ok(md.includes('  n1 -->|"calls"| n0\n  n2 -.->|"calls · CANDIDATE"| n0\n'), md);
  });

  it(`more than ${DIFF_PICTURE_MAX_NODES} nodes: no picture, and the comment says why`, () => {
    const names = Array.from({ length: DIFF_PICTURE_MAX_NODES + 1 }, (_, i) => `sym:src/a.ts#f${i}`);
    const base = withPositions(graphOf([], { nodes: names }));
    const head = withPositions(graphOf([], { nodes: ['sym:src/a.ts#kept'] }));
    const r = diffReport({ base, head }, { base: side('base.json'), head: side('head.json') });
    assert.deepEqual(diffPicture(r), { nodes: DIFF_PICTURE_MAX_NODES + 1 });
    const md = diffMarkdown(r);
    assert.ok(!md.includes('```mermaid'));
    assert.ok(
      md.includes(
        `No picture: the changed symbols and their consumers are ${DIFF_PICTURE_MAX_NODES + 1} nodes, more than ${DIFF_PICTURE_MAX_NODES}`,
      ),
    );
  });

  it('nothing changed that has a symbol: no picture and no line about one', () => {
    const g = withPositions(graphOf([], { nodes: ['sym:src/a.ts#f'] }));
    const r = diffReport({ base: g, head: g }, { base: side('base.json'), head: side('head.json') });
    assert.deepEqual(diffPicture(r), { nodes: 0 });
    assert.ok(!diffMarkdown(r).includes('icture'));
  });

  it('a hostile name cannot close the mermaid fence', () => {
    const base = withPositions(graphOf([['sym:src/b.ts#use', 'sym:src/a.ts#x```\n</details>']]));
    const head = withPositions(graphOf([], { nodes: ['sym:src/b.ts#use'] }));
    const md = diffMarkdown(diffReport({ base, head }, { base: side('base.json'), head: side('head.json') }));
    const block = md.slice(md.indexOf('```mermaid\n') + 11, md.indexOf('\n```\n', md.indexOf('```mermaid\n')));
    assert.ok(!block.includes('`') && !block.includes('</details>'), block);
    assert.ok(block.includes('x#96;#96;#96;#92;u000a#60;/details#62;'), block);
  });
});
