// `kg store migrate|push|<query>`: the organisation's graph in PostgreSQL (docs/organisation.md,
// ADRs 110–112). The connection string comes from --store, else the KG_STORE environment
// variable. The store module (and the `pg` client in it) loads only when a store command runs.
//
// Exit codes: the queries keep the file queries' (0 answered, 2 usage, 3 unavailable — a store
// that cannot be reached or is at another schema version is an unavailable answer with code
// STORE_UNAVAILABLE); migrate and push exit 0 done, 1 failed (nothing written), 2 usage.

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CATALOGUE,
  DEFAULT_GRAPH_PATH,
  formatDoctorReport,
  isGraphError,
  loadGraphFile,
  nodeFileHost,
  namesFor,
  repositoryOfGraph,
  runDoctor,
  type QueryName,
  type QueryResult,
} from '../graph';
import { resolveGraphArguments } from './graph-arguments';
import { argumentsOf, parseQueryArgs } from './query';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError } from './usage';

type Store = typeof import('../graph/store');

const STORE_OPTION: [string, string] = [
  '--store URL',
  'The store: a PostgreSQL connection string (default: $KG_STORE), e.g.\npostgresql://kg@db.internal/graphs or postgresql://kg@/graphs?host=/run/postgresql',
];
const REPO_OPTION: [string, string] = [
  '--repo KEY',
  'Ask about one repository: the answer is the one "kg <query>" gives on its graph.\nWithout it the question is about every repository in the store, and every id\nin the answer is qualified by its repository: acme/web/sym:src/a.ts#run.',
];

/** The questions the store answers: the catalogue's `store` face (src/graph/query/catalogue.ts). */
const STORE_QUERIES = namesFor('store') as QueryName[];

const QUERY_LIST = STORE_QUERIES.map((q) => `  ${(q + argumentsOf(q)).padEnd(34)} ${CATALOGUE[q].summary}`).join('\n');

export const STORE_HELP = `Usage: kg store migrate [--store URL]
       kg store push [--graph FILE] [--repo KEY] [--store URL]
       kg store <query> <args> [--repo KEY] [--store URL]

The organisation's graph in PostgreSQL: many repositories in one store, the same questions
(docs/organisation.md).

  migrate      Creates or upgrades the store's schema (versioned migrations, each applied once).
  push         Writes one repository's graph in one transaction: the repository's facts are
               withdrawn and asserted again file by file, so a reader sees the old repository or
               the new one, never half. A graph that fails the doctor is refused before anything
               is written. Pushes of one repository wait for each other; of different ones, never.
               Records the packages the repository publishes (its root package.json's and its
               workspaces'), so that calls other repositories make into them join its symbols.
               Prints a JSON summary.

Without --repo, callers, affected and impact of a symbol of a repository that publishes a
package also list its callers in the other repositories, proven through the package.

Queries (JSON on stdout, the shapes and exit codes of the file queries):
${QUERY_LIST}

Options:
${optionLines([
  STORE_OPTION,
  REPO_OPTION,
  ['--graph FILE', `push: the graph to write (default: <root>/${DEFAULT_GRAPH_PATH}).`],
  [
    '--repo KEY',
    'push: the repository key (default: the repository the graph names, ADR 108:\nits configured name, else the "name" in package.json at the repository root).\nLetters, digits, @ . _ - in /-separated parts.',
  ],
  COMMON_OPTIONS.help,
])}

Exit codes: queries 0 answered, 2 usage, 3 unavailable (also when the store cannot be reached:
code STORE_UNAVAILABLE); migrate and push 0 done, 1 failed, 2 usage.
`;

function storeUrl(io: CliIo, flag: string | undefined): string {
  const url = flag ?? io.env?.KG_STORE ?? '';
  if (url === '') throw new UsageError('no store: pass --store URL or set KG_STORE');
  return url;
}

async function withStore<T>(url: string, doing: string, work: (store: Store, client: import('pg').Client) => Promise<T>): Promise<T> {
  const store = await import('../graph/store');
  const client = await store.connectStore(url);
  try {
    return await work(store, client);
  } catch (e) {
    throw store.storeError(e, doing);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function runMigrate(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { store: { type: 'string' } });
  const url = storeUrl(io, values.store);
  const r = await withStore(url, 'migrating', (store, c) => store.migrate(c));
  const { STORE_SCHEMA_VERSION } = await import('../graph/store');
  io.stdout.write(JSON.stringify({ from: r.from, to: STORE_SCHEMA_VERSION, applied: r.applied }) + '\n');
  io.stderr.write(
    r.applied.length === 0
      ? `kg store: schema already at version ${STORE_SCHEMA_VERSION}\n`
      : `kg store: schema ${r.from} → ${STORE_SCHEMA_VERSION} (applied ${r.applied.join(', ')})\n`,
  );
  return EXIT.OK;
}

/** The repository key when --repo is not given: the package name at the repository root. */
function defaultRepositoryKey(root: string): string {
  try {
    const name = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: unknown }).name;
    if (typeof name === 'string' && name !== '') return name;
  } catch {
    // No package.json or none that parses: the key must be named.
  }
  throw new UsageError(`no repository key: ${root} has no package.json with a "name"; pass --repo KEY`);
}

async function runPush(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { store: { type: 'string' }, graph: { type: 'string' }, repo: { type: 'string' } });
  const url = storeUrl(io, values.store);
  const { graph: file, root: given, shown } = resolveGraphArguments(io, values.graph, undefined);
  const root = repositoryOfGraph(file) ?? given;
  // Everything is checked before a connection is opened: a graph that does not load or fails the
  // doctor never reaches the store.
  const load = loadGraphFile(file);
  if (!load.ok) {
    io.stderr.write(`kg store push: refused: ${shown}: ${load.unavailable.reason}\n`);
    return EXIT.FAILED;
  }
  // The name the graph gives its repository (ADR 108) is the key the editor asks the store with.
  const repository = values.repo ?? load.graph.graph.repository ?? defaultRepositoryKey(root);
  const { checkRepositoryKey } = await import('../graph/store');
  checkRepositoryKey(repository);
  const report = runDoctor(load.graph.graph);
  if (!report.ok) {
    io.stderr.write(`kg store push: refused: ${shown} fails the doctor; nothing was written\n${formatDoctorReport(report, shown)}`);
    return EXIT.FAILED;
  }
  const t0 = performance.now();
  const store = await import('../graph/store');
  // The packages the repository publishes, from its root package.json and the workspaces it declares (ADR 122).
  const published = store.publishedPackages(nodeFileHost, root);
  const r = await withStore(url, `pushing ${repository}`, (s, c) => s.pushGraph(c, repository, load.graph, published));
  io.stdout.write(JSON.stringify({ ...r, ms: Math.round(performance.now() - t0) }) + '\n');
  for (const held of r.packagesHeldElsewhere)
    io.stderr.write(
      `kg store push: package ${held.name} is published by repository ${held.repository} in the store; its callers in other repositories stay ${held.repository}'s\n`,
    );
  return EXIT.OK;
}

async function runStoreQuery(name: QueryName, args: string[], io: CliIo): Promise<number> {
  const { request, values } = parseQueryArgs(name, args, ['store', 'repo']);
  const url = storeUrl(io, values.store);
  let result: QueryResult;
  try {
    result = await withStore(url, `answering ${name}`, (store, c) => store.answerFromStore(c, request, values.repo));
  } catch (e) {
    // A question that cannot be asked as put (an id in several repositories, a walk without one): usage.
    if (isGraphError(e) && e.code === 'INVALID_ARGUMENT') throw new UsageError(e.message);
    if (!isGraphError(e) || (e.code !== 'STORE_UNAVAILABLE' && e.code !== 'STORE_SCHEMA')) throw e;
    result = { available: false, reason: e.message, code: 'STORE_UNAVAILABLE', evidenceClass: 'GRAPH_DERIVED' };
  }
  io.stdout.write(JSON.stringify(result, null, 2) + '\n');
  if (!result.available) {
    io.stderr.write(`kg store ${name}: unavailable: ${result.reason}\n`);
    if (result.suggestions && result.suggestions.length > 0)
      io.stderr.write(`kg store ${name}: did you mean: ${result.suggestions.join(', ')}\n`);
    return EXIT.UNAVAILABLE;
  }
  return EXIT.OK;
}

export async function runStore(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('missing <subcommand>: migrate, push or a query');
  if (sub === 'migrate') return runMigrate(rest, io);
  if (sub === 'push') return runPush(rest, io);
  const query = STORE_QUERIES.find((q) => q === sub);
  if (query === undefined) throw new UsageError(`unknown subcommand "${sub}": migrate, push, ${STORE_QUERIES.join(', ')}`);
  return runStoreQuery(query, rest, io);
}
