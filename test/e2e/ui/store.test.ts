// The organisation store in a real VS Code (ADR 123): a repository that publishes a package, and
// one that installs it and calls it, both built by the CLI and pushed into a real PostgreSQL (Debian's,
// started by this test: test/helpers/postgres.ts). With `knowledgeGraph.store` set, every lens of the
// publisher's source file adds what `kg store callers` lists beyond the repository's own callers;
// with a store that cannot be reached, each says the count is unknown rather than none.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';
import { expectedLensTitle } from '../expected';
import { kg } from '../harness/cli';
import { E2E, itInEditor, openWorkbench } from '../harness/context';
import { lensTextsWhen, showExplorer, type Workbench } from '../harness/workbench';
import { greeterRepositories } from '../../helpers/packages';
import { startPostgres, type TestServer } from '../../helpers/postgres';

const FILE = 'packages/greeter/src/greeter.ts';
const REPO = 'acme-monorepo';

/** `kg` against the test's store. */
function kgStore(store: string, ...args: string[]): string {
  const before = process.env.KG_STORE;
  process.env.KG_STORE = store;
  try {
    return kg(...args);
  } finally {
    if (before === undefined) delete process.env.KG_STORE;
    else process.env.KG_STORE = before;
  }
}

function settings(ws: string, store: string): void {
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(ws, '.vscode', 'settings.json'),
    JSON.stringify({ 'workbench.colorTheme': 'Default Light Modern', 'knowledgeGraph.store': store }),
  );
}

describe('callers in other repositories, from the organisation store', () => {
  let pg: TestServer;
  let wb: Workbench;
  let acme: string;
  let consumer: string;
  let ids: string[];

  before(async () => {
    pg = startPostgres();
    kgStore(pg.url, 'store', 'migrate');
    ({ acme, consumer } = greeterRepositories(path.join(E2E.state, 'workspaces', `store-${process.pid}`), {
      '.knowledge-graph/config.json': JSON.stringify({ graph: { enabled: true, autoIndex: false } }),
    }));
    for (const root of [acme, consumer]) {
      kg('build', '--apply', '--root', root);
      kgStore(pg.url, 'store', 'push', '--graph', path.join(root, '.knowledge-graph', 'graph.json'));
    }
    const graph = JSON.parse(fs.readFileSync(path.join(acme, '.knowledge-graph', 'graph.json'), 'utf8')) as {
      repository?: string;
      nodes: Array<{ id: string; kind: string; sourceFile?: string }>;
    };
    assert.equal(graph.repository, REPO);
    ids = graph.nodes.filter((n) => n.sourceFile === FILE && ['function', 'class', 'method'].includes(n.kind)).map((n) => n.id);
    settings(acme, pg.url);
    wb = await openWorkbench(acme, 'store-lenses');
    await showExplorer(wb);
  });
  after(async () => {
    await wb?.close();
    pg?.stop();
  });

  itInEditor(
    `every lens of ${FILE} adds the callers kg store lists in other repositories`,
    () => wb,
    async () => {
      const graphFile = path.join(acme, '.knowledge-graph', 'graph.json');
      const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as Parameters<typeof expectedLensTitle>[0];
      const expected = ids.map((id) => {
        const own = JSON.parse(kg('callers', id, '--graph', graphFile)) as { callers: string[]; candidates: string[] };
        const all = JSON.parse(kgStore(pg.url, 'store', 'callers', `${REPO}/${id}`)) as { callers: string[] };
        const elsewhere = all.callers.filter((c) => !c.startsWith(`${REPO}/`)).length;
        return (
          expectedLensTitle(graph, id, own.callers, own.candidates) +
          (elsewhere > 0 ? ` · ${elsewhere} in ${elsewhere === 1 ? 'another repository' : 'other repositories'}` : '')
        );
      });
      // By hand: greet is called by Greeter.hello here, re-exported by src/index.ts, and called by
      // main and twice in consumer-app.
      assert.equal(expected[ids.indexOf('sym:packages/greeter/src/greeter.ts#greet')], '1 caller · 1 referrer · 2 in other repositories');
      assert.equal(expected[ids.indexOf('sym:packages/greeter/src/greeter.ts#Greeter.create')], '0 callers · 1 in another repository');
      await wb.openFile(FILE, 'export function greet');
      const texts = await lensTextsWhen(
        wb,
        (t) => t.length >= expected.length && t.some((x) => x.includes('other repositories')),
        'the store counts',
        30_000,
      );
      assert.deepEqual([...texts].sort(), [...expected].sort());
      await wb.page.waitForTimeout(500);
      await wb.screenshot('store-lenses');
    },
  );

  itInEditor(
    'with a store that cannot be reached, each lens says the count elsewhere is unknown, and keeps its own',
    () => wb,
    async () => {
      settings(acme, `postgresql://postgres@/postgres?host=${encodeURIComponent(path.join(pg.dir, 'no-such-folder'))}`);
      const texts = await lensTextsWhen(
        wb,
        (t) => t.length >= ids.length && t.every((x) => x.endsWith(' · other repositories: unknown')),
        'an unknown count',
        30_000,
      );
      assert.ok(
        texts.includes('1 caller · 1 referrer · other repositories: unknown'), // greet's
        JSON.stringify(texts),
      );
      await wb.screenshot('store-unreachable');
    },
  );

  itInEditor(
    "in the consumer, the installed package's own source carries lenses: this repository's callers, with the package's name and version (ADR 124)",
    () => wb,
    async () => {
      await wb.close();
      fs.mkdirSync(path.join(consumer, '.knowledge-graph'), { recursive: true });
      fs.writeFileSync(
        path.join(consumer, '.knowledge-graph', 'config.json'),
        JSON.stringify({ graph: { enabled: true, autoIndex: false } }),
      );
      fs.mkdirSync(path.join(consumer, '.vscode'), { recursive: true });
      // Quick Open leaves node_modules out by default; a user opens such a file through Go to Definition.
      fs.writeFileSync(
        path.join(consumer, '.vscode', 'settings.json'),
        JSON.stringify({ 'workbench.colorTheme': 'Default Light Modern', 'search.exclude': { '**/node_modules': false } }),
      );
      const graphFile = path.join(consumer, '.knowledge-graph', 'graph.json');
      const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8')) as { edges: Array<{ target: string }> };
      const targets = [
        ...new Set(graph.edges.map((e) => e.target).filter((t) => t.startsWith('pkg:%40acme/greeter@1.2.0:src/greeter.ts#'))),
      ];
      const expected = targets.map((id) => {
        const n = (JSON.parse(kg('callers', id, '--graph', graphFile)) as { callers: string[] }).callers.length;
        return `${n} ${n === 1 ? 'caller' : 'callers'} in this repository · @acme/greeter@1.2.0`;
      });
      // By hand: main and twice call greet; main calls Greeter.create and Greeter.hello.
      assert.deepEqual(Object.fromEntries(targets.map((t, i) => [t.slice(t.indexOf('#') + 1), expected[i]])), {
        greet: '2 callers in this repository · @acme/greeter@1.2.0',
        'Greeter.create': '1 caller in this repository · @acme/greeter@1.2.0',
        'Greeter.hello': '1 caller in this repository · @acme/greeter@1.2.0',
      });
      wb = await openWorkbench(consumer, 'store-package-source');
      await showExplorer(wb);
      await wb.openFile('node_modules/@acme/greeter/src/greeter.ts', 'export function greet');
      const ours = (t: string[]) => t.filter((x) => x.includes('in this repository'));
      const texts = await lensTextsWhen(wb, (t) => ours(t).length >= expected.length, 'the package lenses', 30_000);
      assert.deepEqual(ours(texts).sort(), [...expected].sort());
      // The config this test wrote after the build holds only the editor's keys: no input of the
      // graph, which stays fresh — "N nodes · M edges", never "stale: 1 file" (ADR 126).
      const status = wb.page.locator('.statusbar-item', { hasText: /KG: stale|\d nodes · [\d,.k]+ edges/ }).first();
      await status.waitFor({ timeout: 15_000 });
      assert.doesNotMatch((await status.textContent()) ?? '', /stale/);
      await wb.page.waitForTimeout(500);
      await wb.screenshot('package-source-lenses');
    },
  );
});
