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
const build = spawnSync(process.execPath, [cli, 'build', '--apply', '--no-server', '--root', root], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);
const graphFile = path.join(root, '.knowledge-graph', 'graph.json');
const graph = JSON.parse(fs.readFileSync(graphFile, 'utf8'));
const count = (pred) => graph.edges.filter(pred).length;
const calls = (c) => count((e) => e.relation === 'calls' && e.confidence === c);
console.log(`\nGraph of rxjs sources: ${graph.nodes.length} nodes, ${graph.edges.length} edges, layers ${graph.layers.join(', ')}`);
console.log(
  `calls: ${calls('EXACT')} EXACT (proven by the checker), ${calls('CANDIDATE')} CANDIDATE (name guesses), ${calls('UNRESOLVED')} UNRESOLVED (listed holes)`,
);
const god = spawnSync(process.execPath, [cli, 'god-nodes', '--top', '10', '--graph', graphFile], { encoding: 'utf8' });
if (god.status !== 0) {
  process.stderr.write(god.stderr);
  process.exit(god.status ?? 1);
}
console.log('Most connected nodes (kg god-nodes: in+out degree):');
for (const { id, degree } of JSON.parse(god.stdout).godNodes) console.log(`  ${String(degree).padStart(5)}  ${id}`);
console.log(`\nThe graph is at ${path.relative(process.cwd(), graphFile)}; ask it more with node dist/cli.js --help`);
