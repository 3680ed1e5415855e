// Vue and Svelte components in the graph (issue 47, ADR 169), over a real build of
// test/fixtures/components with the real language tools and the real vue and svelte packages
// installed beside it: every expected position is found in the fixture's own text.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildGraph } from '../../src/graph';
import type { Graph, GraphEdge } from '../../src/graph/model';
import { copyFixture, removeTempDirs } from '../helpers/fixtures';
import { positionIn } from '../helpers/positions';

const FIXTURE = 'components';
const REPO = path.resolve(__dirname, '..', '..');

/** A copy of the fixture with the frameworks installed, as a real project has them. */
function componentProject(): string {
  const root = copyFixture(FIXTURE);
  fs.mkdirSync(path.join(root, 'node_modules'));
  for (const pkg of ['vue', 'svelte', '@vue']) fs.symlinkSync(path.join(REPO, 'node_modules', pkg), path.join(root, 'node_modules', pkg));
  return root;
}

function edge(g: Graph, source: string, target: string, relation: string): GraphEdge | undefined {
  return g.edges.find((e) => e.source === source && e.target === target && e.relation === relation);
}

function at(file: string, needle: string, occurrence = 0): string {
  const p = positionIn(FIXTURE, file, needle, occurrence);
  return `${file}:${p.line}:${p.column}`;
}

function where(e: GraphEdge | undefined): string | undefined {
  return e?.evidence ? `${e.evidence.file}:${e.evidence.line}:${e.evidence.column}` : undefined;
}

describe('components in the graph (ADR 169)', () => {
  let root: string;
  let g: Graph;
  before(() => {
    root = componentProject();
    g = buildGraph({ root }).graph;
  });
  after(removeTempDirs);

  it('a component is a file, its script declarations are symbols at their own lines, and the component one node at line 1', () => {
    const node = (id: string) => g.nodes.find((n) => n.id === id);
    for (const f of ['src/vue/App.vue', 'src/vue/components/CartItem.vue', 'src/svelte/Counter.svelte', 'src/svelte/Badge.svelte'])
      assert.ok(node(`file:${f}`), f);
    const app = node('sym:src/vue/App.vue#default');
    assert.deepEqual([app?.kind, app?.label, app?.line, app?.column], ['class', 'App', 1, 1]);
    const counter = node('sym:src/svelte/Counter.svelte#default');
    assert.deepEqual([counter?.kind, counter?.label, counter?.line, counter?.column], ['function', 'Counter', 1, 1]);
    const checkout = positionIn(FIXTURE, 'src/vue/App.vue', 'checkout');
    assert.deepEqual(
      [node('sym:src/vue/App.vue#checkout')?.line, node('sym:src/vue/App.vue#checkout')?.column],
      [checkout.line, checkout.column],
    );
    const increment = positionIn(FIXTURE, 'src/svelte/Counter.svelte', 'increment');
    assert.deepEqual(
      [node('sym:src/svelte/Counter.svelte#increment')?.line, node('sym:src/svelte/Counter.svelte#increment')?.column],
      [increment.line, increment.column],
    );
    // The generated glue is never a node.
    assert.deepEqual(
      g.nodes.filter((n) => /__VLS|\$\$|__sveltets|SvelteComponent/.test(n.id)).map((n) => n.id),
      [],
    );
  });

  it('a call in a template is the component’s, proven, at the template’s own line and column', () => {
    const cases: Array<[string, string, string]> = [
      ['sym:src/vue/App.vue#default', 'sym:src/format.ts#formatPrice', at('src/vue/App.vue', 'formatPrice(total)')],
      [
        'sym:src/vue/components/CartItem.vue#default',
        'sym:src/format.ts#formatPrice',
        at('src/vue/components/CartItem.vue', 'formatPrice(line'),
      ],
      [
        'sym:src/vue/components/CartList.vue#default',
        'sym:src/format.ts#pluralize',
        at('src/vue/components/CartList.vue', 'pluralize(lines'),
      ],
      ['sym:src/vue/App.vue#default', 'sym:src/vue/App.vue#checkout', at('src/vue/App.vue', 'checkout()"')],
      ['sym:src/svelte/Counter.svelte#default', 'sym:src/format.ts#formatPrice', at('src/svelte/Counter.svelte', 'formatPrice(price)')],
      ['sym:src/svelte/Badge.svelte#default', 'sym:src/format.ts#pluralize', at('src/svelte/Badge.svelte', 'pluralize(count')],
    ];
    for (const [source, target, expected] of cases) {
      const e = edge(g, source, target, 'calls');
      assert.equal(e?.confidence, 'EXACT', `${source} -> ${target}`);
      assert.equal(where(e), expected, `${source} -> ${target}`);
    }
  });

  it('a call in a script is its function’s; a handler named in a template is referenced by the component', () => {
    const cases: Array<[string, string, string, string, string]> = [
      ['sym:src/vue/App.vue#checkout', 'sym:src/vue/api.ts#submitOrder', 'calls', 'src/vue/App.vue', 'submitOrder(lines'],
      ['sym:src/svelte/Counter.svelte#increment', 'sym:src/svelte/counter.ts#step', 'calls', 'src/svelte/Counter.svelte', 'step(count'],
      ['sym:src/svelte/Counter.svelte#increment', 'sym:src/svelte/counter.ts#clamp', 'calls', 'src/svelte/Counter.svelte', 'clamp('],
      ['sym:src/vue/App.vue#default', 'sym:src/vue/App.vue#addSample', 'references', 'src/vue/App.vue', 'addSample"'],
      ['sym:src/svelte/Counter.svelte#default', 'sym:src/svelte/Counter.svelte#reset', 'references', 'src/svelte/Counter.svelte', 'reset}'],
      [
        'sym:src/vue/components/CartList.vue#default',
        'sym:src/vue/components/CartItem.vue#default',
        'references',
        'src/vue/components/CartList.vue',
        'CartItem v-for',
      ],
      [
        'sym:src/svelte/Counter.svelte#default',
        'sym:src/svelte/Badge.svelte#default',
        'references',
        'src/svelte/Counter.svelte',
        'Badge {count}',
      ],
    ];
    for (const [source, target, relation, file, needle] of cases) {
      const e = edge(g, source, target, relation);
      assert.equal(e?.confidence, 'EXACT', `${source} -> ${target}`);
      assert.equal(where(e), at(file, needle), `${source} -> ${target}`);
    }
  });

  it('imports of components resolve to their files; a child component used as a tag is referenced at the tag (above)', () => {
    assert.equal(edge(g, 'file:src/vue/main.ts', 'file:src/vue/App.vue', 'imports')?.confidence, 'EXACT');
    assert.equal(edge(g, 'file:src/svelte/main.ts', 'file:src/svelte/Counter.svelte', 'imports')?.confidence, 'EXACT');
    assert.equal(edge(g, 'file:src/vue/components/CartList.vue', 'file:src/vue/components/CartItem.vue', 'imports')?.confidence, 'EXACT');
    assert.equal(edge(g, 'sym:src/vue/main.ts#rootComponent', 'sym:src/vue/App.vue#default', 'references')?.confidence, 'EXACT');
  });

  it('graph.json names the language tools that wrote its components, at the versions installed', () => {
    const installed = (pkg: string) =>
      (JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    assert.deepEqual(g.grammarVersions, {
      typescript: installed('typescript'),
      '@vue/language-core': installed('@vue/language-core'),
      svelte: installed('svelte'),
      svelte2tsx: installed('svelte2tsx'),
    });
  });

  it('every edge placed in a component sits on the word it names', () => {
    const texts = new Map<string, string[]>();
    const lineOf = (file: string, line: number) => {
      if (!texts.has(file)) texts.set(file, fs.readFileSync(path.join(root, file), 'utf8').split('\n'));
      return (texts.get(file) as string[])[line - 1] ?? '';
    };
    let checked = 0;
    for (const e of g.edges) {
      if ((e.relation !== 'calls' && e.relation !== 'references') || !e.evidence || !/\.(vue|svelte)$/.test(e.evidence.file)) continue;
      const target = g.nodes.find((n) => n.id === e.target);
      const name =
        target?.kind === 'file'
          ? undefined
          : e.target.endsWith('#default')
            ? target?.label
            : e.target.slice(e.target.search(/[#.][^#.]*$/) + 1);
      if (name === undefined) continue;
      const text = lineOf(e.evidence.file, e.evidence.line).slice(e.evidence.column - 1);
      assert.ok(text.startsWith(name), `${e.source} -> ${e.target} at ${where(e)}: "${text.slice(0, 30)}"`);
      checked++;
    }
    assert.ok(checked >= 25, `${checked} edges checked`);
  });

  it('a function nothing uses has no caller; generated glue is never a caller or an import', () => {
    assert.deepEqual(
      g.edges.filter((e) => e.target === 'sym:src/format.ts#formatDate' && e.relation !== 'contains').map((e) => e.source),
      [],
    );
    // The tools' own imports (`import('vue')`, template helper types) are not the author's.
    const componentImports = g.edges.filter((e) => e.relation === 'imports' && /\.(vue|svelte)$/.test(e.source)).map((e) => e.target);
    assert.ok(
      componentImports.every((t) => t.startsWith('file:src/')),
      componentImports.join(', '),
    );
  });

  it('a component the tools cannot read is named as not analysed, with the reason, and the build goes on', () => {
    const broken = componentProject();
    fs.writeFileSync(
      path.join(broken, 'src', 'svelte', 'Broken.svelte'),
      '<script lang="ts">\n  let x = 1;\n</script>\n\n{#if x}\n  <p>never closed\n',
    );
    const r = buildGraph({ root: broken }).graph;
    const d = r.diagnostics?.find((x) => x.path === 'src/svelte/Broken.svelte');
    assert.match(d?.reason ?? '', /^component not analysed: /);
    assert.ok(r.unanalysed?.some((u) => u.path === 'src/svelte/Broken.svelte'));
    assert.ok(r.nodes.some((n) => n.id === 'sym:src/svelte/Counter.svelte#increment'));
  });

  it('a build without components never loads the language tools', () => {
    const script = [
      "const { buildGraph } = require('./src/graph');",
      "const fixtures = require('./test/helpers/fixtures');",
      "const loaded = () => Object.keys(require.cache).some((k) => k.includes('components' + require('path').sep + 'tools'));",
      "buildGraph({ root: fixtures.copyFixture('tsx') });",
      'const before = loaded();',
      "buildGraph({ root: fixtures.copyFixture('components') });",
      'fixtures.removeTempDirs();',
      'process.stdout.write(JSON.stringify([before, loaded()]));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), [false, true]);
  });
});
