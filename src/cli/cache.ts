// `kg cache status|prune`: the repository's graph cache (ADR 166, docs/worktrees.md), which every
// worktree of the repository shares: what it holds, what it costs on disk, and making it smaller.

import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultGraphFile, GraphError } from '../graph';
import { worktreeHead } from '../git/plumbing';
import { budgetFrom, GraphCache, parseSize } from './graph-cache';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError } from './usage';

export const CACHE_HELP = `Usage: kg cache status [--root DIR]
       kg cache prune [--root DIR] [--budget SIZE | --all]

kg build --apply keeps the graph of every clean checkout it builds in the repository's graph
cache, <git common dir>/knowledge-graph/cache: one cache for all the worktrees of a repository,
inside .git, so nothing of it is ever committed. A build in a fresh worktree, or after a branch
switch, starts from the cached graph nearest to its checkout and does again only what differs;
the graph is the bytes a full build would write (docs/worktrees.md). Graphs are stored as
compressed chunks named by their SHA-256, so the records unchanged between two graphs are stored
once; a chunk or an entry that does not match its hash is never used. It also keeps the code
Vue's and Svelte's tools write for each component, so a cold build does not generate it again
(a record that does not match its hash is never used). When the cache grows past its budget
(KG_CACHE_BUDGET, default 2G) the least recently used graphs and components' code go.
KG_CACHE=off builds without it.

  status   Print {"dir", "budget", "bytes", "logicalBytes", "chunks", "components",
           "componentBytes", "entries", "graph"} as JSON: bytes on disk against what the
           graphs hold uncompressed and unshared, the components' code kept (files, bytes on
           disk), one entry per graph (the commit and tree it was built from), and the commit
           the worktree's own graph.json is for when the cache knows it (null otherwise).
  prune    Remove the least recently used graphs and components' code until the cache fits
           the budget, and the chunks no graph names; print {"entries", "chunks", "freed"}.

Options:
${optionLines([COMMON_OPTIONS.root], 16)}
  --budget SIZE   With prune: the size to fit, such as 500M or 2G (default: KG_CACHE_BUDGET, else 2G).
  --all           With prune: remove the whole cache.
  -h, --help      Show this help.

Exit codes: 0 done, 2 bad usage, 3 not inside a git repository with a commit.
`;

export function runCache(args: string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(
    args,
    { root: { type: 'string' }, budget: { type: 'string' }, all: { type: 'boolean', default: false } },
    true,
  );
  const [action, ...extra] = positionals;
  if (!['status', 'prune'].includes(action ?? '') || extra.length > 0)
    throw new UsageError(`expected "status" or "prune"${action ? `, not "${positionals.join(' ')}"` : ''}`);
  if (action === 'status' && (values.budget !== undefined || values.all)) throw new UsageError('--budget and --all go with prune');
  if (values.budget !== undefined && values.all) throw new UsageError('--budget and --all cannot go together');
  const env = io.env ?? {};
  let budget = budgetFrom(env);
  if (values.budget !== undefined) {
    const b = parseSize(values.budget);
    if (b === undefined) throw new UsageError(`--budget must be a size such as 500M or 2G, not "${values.budget}"`);
    budget = b;
  }
  const root = path.resolve(io.cwd, values.root ?? '.');
  if (!fs.existsSync(root)) throw new GraphError('ROOT_NOT_FOUND', `root not found: ${root}`);
  const head = worktreeHead(root);
  if (!head) {
    io.stderr.write(`kg: ${root} is not inside a git repository with a commit: it has no graph cache\n`);
    return EXIT.UNAVAILABLE;
  }
  const cache = GraphCache.of(head.commonDir, budget);
  if (action === 'prune') {
    if (values.all) {
      const before = cache.status();
      fs.rmSync(cache.dir, { recursive: true, force: true });
      io.stdout.write(JSON.stringify({ entries: before.entries.length, chunks: before.chunks, freed: before.bytes }) + '\n');
      return EXIT.OK;
    }
    io.stdout.write(JSON.stringify(cache.prune(budget)) + '\n');
    return EXIT.OK;
  }
  const s = cache.status();
  let graph: { file: string; commit: string | null } | null = null;
  const file = defaultGraphFile(head.top);
  try {
    const sha = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    graph = { file, commit: s.entries.find((e) => e.graph.sha256 === sha)?.commit ?? null };
  } catch {
    // no graph in this worktree
  }
  io.stdout.write(
    JSON.stringify({
      dir: s.dir,
      budget: s.budget,
      bytes: s.bytes,
      logicalBytes: s.logicalBytes,
      chunks: s.chunks,
      components: s.components,
      componentBytes: s.componentBytes,
      entries: s.entries.map((e) => ({
        commit: e.commit,
        tree: e.tree,
        graphBytes: e.graph.size,
        manifestBytes: e.manifest.size,
        used: new Date(e.used).toISOString(),
      })),
      graph,
    }) + '\n',
  );
  return EXIT.OK;
}
