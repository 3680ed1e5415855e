// The README's first command: build the graph of a real codebase (rxjs's TypeScript sources,
// installed from npm) and print its summary and the most connected nodes.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const root = path.join(repo, '.demo', 'rxjs');
const src = path.join(repo, 'node_modules', 'rxjs');
if (!fs.existsSync(path.join(root, 'src'))) {
  fs.mkdirSync(root, { recursive: true });
  fs.cpSync(path.join(src, 'src'), path.join(root, 'src'), { recursive: true });
  fs.copyFileSync(path.join(src, 'tsconfig.json'), path.join(root, 'tsconfig.json'));
}
const cli = path.join(repo, 'dist', 'cli.js');
const build = spawnSync(process.execPath, [cli, 'build', '--apply', '--root', root], { stdio: ['ignore', 'inherit', 'inherit'] });
if (build.status !== 0) process.exit(build.status ?? 1);
const graph = JSON.parse(fs.readFileSync(path.join(root, '.knowledge-graph', 'graph.json'), 'utf8'));
const degree = new Map();
for (const e of graph.edges) {
  if (e.target.startsWith('unresolved:')) continue;
  degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
  degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
}
const top = [...degree].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
console.log(`\nGraph of rxjs sources: ${graph.nodes.length} nodes, ${graph.edges.length} edges, layers ${graph.layers.join(', ')}`);
console.log('Most connected nodes (in+out degree):');
for (const [id, d] of top) console.log(`  ${String(d).padStart(5)}  ${id}`);
console.log(`\nThe graph is at ${path.relative(process.cwd(), path.join(root, '.knowledge-graph', 'graph.json'))}`);
