// `kg store push`: one repository's graph into the store, in one transaction (ADR 110). Every fact
// is owned by one file (the node's source file; the edge's evidence file, else its source's file;
// '' for what the build derives from the file set), and a file's facts are withdrawn and asserted
// again together: the push compares each file's facts hash with the stored one and rewrites only
// the files that changed or went away. Pushes of one repository queue on a transaction-scoped
// advisory lock; pushes of different repositories write disjoint rows and never wait for each other.

import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';
import { GraphError } from '../errors';
import { parseId, symbolId } from '../ids';
import type { Graph, GraphEdge, GraphNode } from '../model';
import type { IndexedGraph } from '../query/indexed';
import { requireSchema } from './schema';

/** Rows per INSERT: arrays of this many values per column travel as one parameter each. */
const CHUNK = 5000;

export interface PushResult {
  repository: string;
  graphSignature: string;
  nodes: number;
  edges: number;
  /** Owning files whose facts were withdrawn and asserted again (new and changed files). */
  filesWritten: number;
  /** Owning files whose facts were withdrawn for good (gone from the graph). */
  filesRemoved: number;
  filesUnchanged: number;
  /** Whether this repository was in the store before the push. */
  replaced: boolean;
  /** The packages this repository publishes, as the store now records them (ADR 122), by name. */
  packages: PublishedPackage[];
  /** Packages it names that another repository already publishes in the store: not claimed. */
  packagesHeldElsewhere: Array<{ name: string; repository: string }>;
}

/**
 * A package a repository publishes: its name, and its folder in the repository ('' for the root,
 * `packages/lib` in a workspace). A package-qualified target's source path is relative to that folder.
 */
export interface PublishedPackage {
  name: string;
  root: string;
}

/**
 * The join key of a package-qualified target (ADR 111): the package it names, and the symbol's id as
 * the package's own graph, built at the package's folder, writes it. Undefined for any other target.
 */
function packageTarget(target: string): { pkg: string; local: string } | undefined {
  if (!target.startsWith('pkg:')) return undefined;
  const p = parseId(target);
  return p?.prefix === 'pkg' ? { pkg: p.pkg, local: symbolId(p.path, p.name) } : undefined;
}

/**
 * The join keys under which other repositories' edges name `id`, a symbol of a repository that
 * publishes `packages` (ADR 122): one per package whose folder holds the symbol's file.
 */
export function publishedAs(id: string, packages: readonly PublishedPackage[]): Array<{ pkg: string; local: string }> {
  const p = parseId(id);
  if (p?.prefix !== 'sym') return [];
  const out: Array<{ pkg: string; local: string }> = [];
  for (const pkg of packages) {
    if (pkg.root === '') out.push({ pkg: pkg.name, local: id });
    else if (p.path.startsWith(pkg.root + '/')) out.push({ pkg: pkg.name, local: symbolId(p.path.slice(pkg.root.length + 1), p.name) });
  }
  return out;
}

/** A repository key: names a repository, never a host path (docs/organisation.md). */
const REPOSITORY_KEY = /^[A-Za-z0-9@_][A-Za-z0-9@._-]*(\/[A-Za-z0-9@_][A-Za-z0-9@._-]*)*$/;

export function checkRepositoryKey(key: string): void {
  if (key.length > 200 || !REPOSITORY_KEY.test(key)) {
    throw new GraphError(
      'INVALID_ARGUMENT',
      `"${key}" is not a repository key: letters, digits, "@", ".", "_", "-", in "/"-separated parts (no ":" and no empty part), at most 200 characters`,
    );
  }
}

/** An id with every %XX escape decoded: what someone typing the id unescaped would write. */
export function foldEscapes(id: string): string {
  return id.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

interface FileFacts {
  nodes: GraphNode[];
  edges: GraphEdge[];
  hash: string;
}

/** Each owning file's facts, and a hash of them (in graph order, so the same facts give the same hash). */
function factsByFile(graph: Graph): Map<string, FileFacts> {
  const byFile = new Map<string, FileFacts>();
  const of = (file: string): FileFacts => {
    let f = byFile.get(file);
    if (!f) byFile.set(file, (f = { nodes: [], edges: [], hash: '' }));
    return f;
  };
  const fileOfNode = new Map<string, string>();
  for (const n of graph.nodes) {
    const owner = n.sourceFile ?? '';
    fileOfNode.set(n.id, owner);
    of(owner).nodes.push(n);
  }
  for (const e of graph.edges) of(e.evidence?.file ?? fileOfNode.get(e.source) ?? '').edges.push(e);
  for (const f of byFile.values()) {
    const h = createHash('sha256');
    for (const n of f.nodes) h.update(JSON.stringify(n)).update('\n');
    h.update('\u0000');
    for (const e of f.edges) h.update(JSON.stringify(e)).update('\n');
    f.hash = h.digest('hex');
  }
  return byFile;
}

/** The advisory-lock key of a repository's pushes: 64 bits of a hash of its key. */
function pushLockKey(repository: string): string {
  return BigInt.asIntN(64, BigInt('0x' + createHash('sha256').update(`kg-push\u0000${repository}`).digest('hex').slice(0, 16))).toString();
}

async function insertNodes(client: ClientBase, repository: string, owner: string[], nodes: GraphNode[]): Promise<void> {
  for (let i = 0; i < nodes.length; i += CHUNK) {
    const part = nodes.slice(i, i + CHUNK);
    await client.query(
      `INSERT INTO kg_nodes (repository, id, owner_file, kind, label, source_file, line, col, folded_id, doc)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::text[], $10::json[])`,
      [
        repository,
        part.map((n) => n.id),
        owner.slice(i, i + CHUNK),
        part.map((n) => n.kind),
        part.map((n) => n.label),
        part.map((n) => n.sourceFile ?? null),
        part.map((n) => n.line ?? null),
        part.map((n) => n.column ?? null),
        part.map((n) => foldEscapes(n.id)),
        part.map((n) => JSON.stringify(n)),
      ],
    );
  }
}

async function insertEdges(client: ClientBase, repository: string, owner: string[], edges: GraphEdge[]): Promise<void> {
  for (let i = 0; i < edges.length; i += CHUNK) {
    const part = edges.slice(i, i + CHUNK);
    const joins = part.map((e) => packageTarget(e.target));
    await client.query(
      `INSERT INTO kg_edges (repository, source, target, relation, owner_file, confidence, provenance, target_package, target_local, doc)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::json[])`,
      [
        repository,
        part.map((e) => e.source),
        part.map((e) => e.target),
        part.map((e) => e.relation),
        owner.slice(i, i + CHUNK),
        part.map((e) => e.confidence),
        part.map((e) => e.provenance),
        joins.map((j) => j?.pkg ?? null),
        joins.map((j) => j?.local ?? null),
        part.map((e) => JSON.stringify(e)),
      ],
    );
  }
}

/**
 * Writes `indexed` (a graph that loaded and passed the doctor: the caller checks both before a
 * connection is opened) as repository `repository`, replacing what the store held for it.
 */
export async function pushGraph(
  client: ClientBase,
  repository: string,
  indexed: IndexedGraph,
  /** The packages the repository publishes (ADR 122); the store's record of them is replaced. */
  published: readonly PublishedPackage[] = [],
): Promise<PushResult> {
  checkRepositoryKey(repository);
  const graph = indexed.graph;
  const facts = factsByFile(graph);
  await client.query('BEGIN');
  try {
    await requireSchema(client);
    // One push of a repository at a time; it waits here for the one before it (ADR 110).
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [pushLockKey(repository)]);
    const stored = await client.query<{ file: string; facts_hash: string }>('SELECT file, facts_hash FROM kg_files WHERE repository = $1', [
      repository,
    ]);
    const before = new Map(stored.rows.map((r) => [r.file, r.facts_hash]));
    const withdraw = [...before.keys()].filter((f) => facts.get(f)?.hash !== before.get(f));
    const assert = [...facts.keys()].filter((f) => facts.get(f)?.hash !== before.get(f)).sort();
    if (withdraw.length > 0) {
      await client.query('DELETE FROM kg_edges WHERE repository = $1 AND owner_file = ANY($2::text[])', [repository, withdraw]);
      await client.query('DELETE FROM kg_nodes WHERE repository = $1 AND owner_file = ANY($2::text[])', [repository, withdraw]);
      await client.query('DELETE FROM kg_files WHERE repository = $1 AND file = ANY($2::text[])', [repository, withdraw]);
    }
    const nodes: GraphNode[] = [];
    const nodeOwners: string[] = [];
    const edges: GraphEdge[] = [];
    const edgeOwners: string[] = [];
    for (const file of assert) {
      const f = facts.get(file) as FileFacts;
      for (const n of f.nodes) {
        nodes.push(n);
        nodeOwners.push(file);
      }
      for (const e of f.edges) {
        edges.push(e);
        edgeOwners.push(file);
      }
    }
    await insertNodes(client, repository, nodeOwners, nodes);
    await insertEdges(client, repository, edgeOwners, edges);
    if (assert.length > 0) {
      await client.query('INSERT INTO kg_files (repository, file, facts_hash) SELECT $1, * FROM unnest($2::text[], $3::text[])', [
        repository,
        assert,
        assert.map((f) => (facts.get(f) as FileFacts).hash),
      ]);
    }
    // Degrees are the repository's, not a file's: recomputed whole, in the same transaction.
    await client.query('DELETE FROM kg_degrees WHERE repository = $1', [repository]);
    await client.query(
      `INSERT INTO kg_degrees (repository, id, degree, is_node)
       SELECT $1, d.id, sum(d.c)::integer, bool_or(d.is_node) FROM (
         SELECT id, 0 AS c, true AS is_node FROM kg_nodes WHERE repository = $1
         UNION ALL SELECT source, count(*), false FROM kg_edges WHERE repository = $1 GROUP BY source
         UNION ALL SELECT target, count(*), false FROM kg_edges WHERE repository = $1 GROUP BY target
       ) d GROUP BY d.id`,
      [repository],
    );
    const replaced = await client.query(
      `INSERT INTO kg_repositories (repository, graph_signature, layers, node_count, edge_count, hub_threshold, unanalysed)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (repository) DO UPDATE SET graph_signature = EXCLUDED.graph_signature, layers = EXCLUDED.layers,
         node_count = EXCLUDED.node_count, edge_count = EXCLUDED.edge_count, hub_threshold = EXCLUDED.hub_threshold,
         unanalysed = EXCLUDED.unanalysed, pushes = kg_repositories.pushes + 1, pushed_at = now()
       RETURNING pushes`,
      [
        repository,
        graph.graphSignature,
        graph.layers,
        graph.nodes.length,
        graph.edges.length,
        indexed.hubThreshold,
        JSON.stringify(graph.unanalysed ?? []),
      ],
    );
    const claims = await claimPackages(client, repository, published);
    await client.query('COMMIT');
    return {
      repository,
      graphSignature: graph.graphSignature,
      nodes: graph.nodes.length,
      edges: graph.edges.length,
      filesWritten: assert.length,
      filesRemoved: withdraw.filter((f) => !facts.has(f)).length,
      filesUnchanged: facts.size - assert.length,
      replaced: Number((replaced.rows[0] as { pushes: string }).pushes) > 1,
      ...claims,
    };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/**
 * Records which packages `repository` publishes (ADR 122): the ones it no longer names are released;
 * a package another repository already publishes stays that repository's (the first to push it
 * keeps it), and the answer says so rather than moving another repository's callers silently.
 */
async function claimPackages(
  client: ClientBase,
  repository: string,
  published: readonly PublishedPackage[],
): Promise<Pick<PushResult, 'packages' | 'packagesHeldElsewhere'>> {
  const byName = new Map<string, PublishedPackage>();
  for (const p of published) if (!byName.has(p.name)) byName.set(p.name, p);
  const names = [...byName.keys()];
  await client.query('DELETE FROM kg_packages WHERE repository = $1 AND NOT (package = ANY($2::text[]))', [repository, names]);
  if (names.length > 0) {
    await client.query(
      `INSERT INTO kg_packages (package, repository, root) SELECT p, $1, r FROM unnest($2::text[], $3::text[]) AS t(p, r)
       ON CONFLICT (package) DO UPDATE SET root = EXCLUDED.root WHERE kg_packages.repository = EXCLUDED.repository`,
      [repository, names, names.map((n) => (byName.get(n) as PublishedPackage).root)],
    );
  }
  const rows = await client.query<{ package: string; repository: string; root: string }>(
    'SELECT package, repository, root FROM kg_packages WHERE package = ANY($1::text[]) ORDER BY package',
    [names],
  );
  return {
    packages: rows.rows.filter((r) => r.repository === repository).map((r) => ({ name: r.package, root: r.root })),
    packagesHeldElsewhere: rows.rows.filter((r) => r.repository !== repository).map((r) => ({ name: r.package, repository: r.repository })),
  };
}
