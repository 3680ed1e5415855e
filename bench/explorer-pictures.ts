// The explorer's first picture on real code, to be looked at (docs/adr/0095): for each corpus
// (rxjs, and fabric, the larger one), the neighbourhood of its most connected symbol, drawn by the
// production bundle under the real CSP at the size of a panel opened beside an editor, in the
// light, dark and high-contrast themes. The host's own answer code (src/host/panel/graph-answers.ts)
// answers from the corpus's real graph.json, built by dist/cli.js. Prints what the picture holds
// (hubs inside or outside the rest, labels over the focus or over each other, labels drawn) and
// writes the screenshots to KG_PICTURES (default .e2e-artifacts/explorer-pictures).
// `npm run build && node --import tsx bench/explorer-pictures.ts [rxjs|fabric …]`

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { answerQuery, loadGraphFile, nodeOf, searchNodes, type IndexedGraph } from '../src/graph';
import type { GraphAccess } from '../src/host/graph-access';
import { neighborhoodMessage, suggestionsMessage } from '../src/host/panel/graph-answers';
import type { HostMessage } from '../src/protocol/messages';
import { READ_PICTURE, type PictureFacts } from '../test/helpers/explorer-picture';
import { WebviewPage } from '../test/helpers/webview-page';
import type { ThemeName } from '../test/helpers/webview-themes';
import { corpus, threeCorpus, type CorpusName } from './corpus';

const REPO = path.join(__dirname, '..');
const OUT = path.resolve(process.env.KG_PICTURES ?? path.join(REPO, '.e2e-artifacts', 'explorer-pictures'));
/** A panel opened beside an editor in a 1400 × 900 window with the side bar open. */
const PANEL = { width: 620, height: 760 };
const FOLDER = 'file:///corpus';

function graphOf(name: CorpusName | 'three'): { graph: IndexedGraph; root: string } {
  const { root } = name === 'three' ? threeCorpus() : corpus(name);
  const file = path.join(root, '.knowledge-graph', 'graph.json');
  if (!fs.existsSync(file)) {
    const r = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'build', '--apply', '--root', root], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, KG_SERVER: 'off' },
    });
    if (r.status !== 0) throw new Error(`kg build of ${name} failed`);
  }
  const load = loadGraphFile(file);
  if (!load.ok) throw new Error(`${name}: ${load.unavailable.reason}`);
  return { graph: load.graph, root };
}

/** The symbol with the most links (functions, classes, methods: what a user explores). */
function mostConnected(g: IndexedGraph): string {
  for (const r of g.byDegree) {
    const n = g.nodeAt[r];
    if (n && ['function', 'class', 'method'].includes(n.kind)) return n.id;
  }
  throw new Error('no symbol');
}

/** The few GraphAccess calls the explorer's answers make, over the loaded graph. */
function accessOver(g: IndexedGraph): GraphAccess {
  const degree = (id: string) => {
    const r = g.rankOf.get(id);
    return r === undefined ? 0 : g.degree[r];
  };
  return {
    ask: async (_f, request) => answerQuery({ ok: true, graph: g }, request),
    nodes: async (_f, ids) => ids.map((id) => nodeOf(g, id)),
    details: async (_f, id) => {
      const node = nodeOf(g, id);
      return node && { node, degree: degree(id), callers: [], candidates: [], callees: [], citedBy: [] };
    },
    search: async (_f, text, limit) => searchNodes(g, text, limit),
  } as Partial<GraphAccess> as GraphAccess;
}

async function picture(name: CorpusName | 'three', theme: ThemeName): Promise<void> {
  const { graph } = graphOf(name);
  const focus = mostConnected(graph);
  const access = accessOver(graph);
  const wp = await WebviewPage.open({
    kind: 'explorer',
    theme,
    size: PANEL,
    host: async (m): Promise<HostMessage[] | undefined> => {
      if (m.type === 'ready')
        return [
          {
            type: 'status',
            banner: null,
            summary: `${name} · ${graph.nodeCount} nodes · ${graph.graph.edges.length} edges`,
            nodeCap: 500,
            budget: 40,
            signature: graph.graph.graphSignature,
          },
          { type: 'show', request: { mode: 'neighbors', id: focus } },
        ];
      if (m.type === 'neighbors') return [await neighborhoodMessage(access, FOLDER, m.requestId, m.id, m.budget, m.expand)];
      if (m.type === 'suggest') return [await suggestionsMessage(access, FOLDER, m.requestId, m.text)];
      return undefined;
    },
  });
  try {
    await wp.waitForPosted((m) => m.type === 'drawn' && m.mode === 'neighbors', 0, 120_000);
    await new Promise((r) => setTimeout(r, 300));
    const facts = await wp.page.evaluate<PictureFacts>(READ_PICTURE);
    fs.mkdirSync(OUT, { recursive: true });
    const file = path.join(OUT, `${name}-${theme}.png`);
    await wp.page.screenshot({ path: file });
    console.log(`${name} ${theme}: ${nodeOf(graph, focus)?.label} (${focus}) ${JSON.stringify(facts)} → ${file}`);
    if (wp.errors.length || wp.violations.length) console.log(`  page errors: ${JSON.stringify([...wp.errors, ...wp.violations])}`);
  } finally {
    await wp.close();
  }
}

async function main(): Promise<void> {
  // `three` (bench/corpus.ts, fetched once with npm pack): the 800+-file repository.
  const names = (process.argv.slice(2).length ? process.argv.slice(2) : ['rxjs', 'fabric']) as Array<CorpusName | 'three'>;
  for (const name of names) for (const theme of ['light', 'dark', 'high-contrast'] as ThemeName[]) await picture(name, theme);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
