// The walks answered in SQL (queries.ts): neighbors and path, in the one repository that holds
// the start (no edge joins two repositories yet, ADR 111), by the plpgsql walks of migration 2 and,
// for a path, a chain of proven calls first (ADR 161), as the file queries walk them.

import type { ClientBase } from 'pg';
import { GraphError } from '../errors';
import { DEFAULT_BUDGET } from '../query/neighbors';
import { pathVerdict } from '../query/shortest-path';
import { answered, type EdgeRef, type QueryResult, type Unavailable } from '../query/shapes';
import { qualify } from './qualified';
import { resolveId, type Held, type Scope } from './scope';

/** The one repository a walk runs in: named, or the only one that holds the id. */
async function walkStart(c: ClientBase, scope: Scope, asked: string): Promise<{ id: string; held: Held } | Unavailable> {
  const found = await resolveId(c, scope, asked, true);
  if ('available' in found) return found;
  if (found.held.length > 1) {
    throw new GraphError(
      'INVALID_ARGUMENT',
      `${found.id} is in ${found.held.length} repositories (${found.held.map((h) => h.repository).join(', ')}): name one with --repo, or qualify the id (${qualify(found.held[0].repository, found.id)})`,
    );
  }
  return { id: found.id, held: found.held[0] };
}

export async function neighbors(c: ClientBase, scope: Scope, asked: string, budget = DEFAULT_BUDGET): Promise<QueryResult> {
  if (!Number.isSafeInteger(budget) || budget < 1)
    throw new GraphError('INVALID_ARGUMENT', `budget must be a whole number of nodes, at least 1 (got ${budget})`);
  const start = await walkStart(c, scope, asked);
  if ('available' in start) return start;
  const repo = start.held.repository;
  const walked = await c.query<{ id: string }>('SELECT id FROM kg_neighbors($1, $2, $3, $4) ORDER BY ord', [
    repo,
    start.id,
    budget,
    start.held.hub,
  ]);
  const nodes = walked.rows.map((x) => x.id);
  const hubs = await c.query<{ id: string }>(
    'SELECT id FROM kg_degrees WHERE repository = $1 AND id = ANY($2) AND id <> $3 AND degree > $4 ORDER BY id',
    [repo, nodes, start.id, start.held.hub],
  );
  const edges = await c.query<EdgeRef>(
    `SELECT source, target, relation, confidence FROM kg_edges
     WHERE repository = $1 AND source = ANY($2) AND target = ANY($2) ORDER BY source, target, relation`,
    [repo, nodes],
  );
  return answered({
    nodes: nodes.map((id) => scope.name(repo, id)),
    excludedHubs: hubs.rows.map((x) => scope.name(repo, x.id)),
    hubThreshold: start.held.hub,
    edges: edges.rows.map((e) => namedEdge(scope, repo, e)),
  });
}

function namedEdge(scope: Scope, repo: string, e: EdgeRef): EdgeRef {
  return { source: scope.name(repo, e.source), target: scope.name(repo, e.target), relation: e.relation, confidence: e.confidence };
}

export async function path(c: ClientBase, scope: Scope, from: string, to: string, undirected = false): Promise<QueryResult> {
  const a = await walkStart(c, scope, from);
  if ('available' in a) return a;
  const b = await walkStart(c, scope, to);
  if ('available' in b) return b;
  const asked = undirected ? 'undirected' : 'directed';
  // No edge joins two repositories yet (ADR 111): ends in different repositories are not connected.
  if (a.held.repository !== b.held.repository)
    return answered({
      path: [],
      edges: [],
      ...pathVerdict(scope.name(a.held.repository, a.id), scope.name(b.held.repository, b.id), [], false, asked),
    });
  const repo = a.held.repository;
  // A chain of proven calls first (ADR 161), as the file query walks it.
  const chain = undirected ? [] : await callChain(c, repo, a.id, b.id);
  if (chain.length > 0) {
    const edges = chain.slice(1).map((v, i): EdgeRef => ({ source: chain[i], target: v, relation: 'calls', confidence: 'EXACT' }));
    return answered({
      path: chain.map((id) => scope.name(repo, id)),
      edges: edges.map((e) => namedEdge(scope, repo, e)),
      ...pathVerdict(scope.name(repo, a.id), scope.name(repo, b.id), chain, true, asked),
    });
  }
  // kg_path keeps its breadth-first labels in a temporary table: one transaction holds it.
  await c.query('BEGIN');
  let ids: string[];
  let hops: EdgeRef[];
  try {
    ids = (await c.query<{ id: string }>('SELECT id FROM kg_path($1, $2, $3) ORDER BY ord', [repo, a.id, b.id])).rows.map((x) => x.id);
    // The edge of each hop: the strongest confidence, then u→v before v→u, then the relation's name.
    hops = (
      await c.query<EdgeRef>(
        `SELECT DISTINCT ON (h.ord) e.source, e.target, e.relation, e.confidence
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS h(u, v, ord)
         JOIN LATERAL (
           SELECT x.source, x.target, x.relation, x.confidence FROM kg_edges x WHERE x.repository = $1 AND x.source = h.u AND x.target = h.v
           UNION ALL
           SELECT x.source, x.target, x.relation, x.confidence FROM kg_edges x WHERE x.repository = $1 AND x.source = h.v AND x.target = h.u
         ) e ON true
         ORDER BY h.ord, CASE e.confidence WHEN 'EXACT' THEN 0 WHEN 'CANDIDATE' THEN 1 ELSE 2 END, (e.source = h.u) DESC, e.relation`,
        [repo, ids.slice(0, -1), ids.slice(1)],
      )
    ).rows;
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
  const named = ids.map((id) => scope.name(repo, id));
  return answered({
    path: named,
    edges: hops.map((e) => namedEdge(scope, repo, e)),
    ...pathVerdict(scope.name(repo, a.id), scope.name(repo, b.id), ids, false, asked),
  });
}

/**
 * The chain of proven calls from `a` to `b` (ids), or [] — the file query's callChain
 * (src/graph/query/shortest-path.ts) one level per statement: distances to `b` labelled walking
 * EXACT calls backwards until `a` is reached, then from `a` the smallest-id callee one step nearer.
 */
async function callChain(c: ClientBase, repo: string, a: string, b: string): Promise<string[]> {
  if (a === b) return [a];
  const seen = new Set([b]);
  /** levels[d]: the ids whose shortest chain to `b` is d calls long. */
  const levels = [[b]];
  while (!seen.has(a) && levels[levels.length - 1].length > 0) {
    const callers = await c.query<{ source: string }>(
      `SELECT DISTINCT source FROM kg_edges
       WHERE repository = $1 AND target = ANY($2::text[]) AND relation = 'calls' AND confidence = 'EXACT'`,
      [repo, levels[levels.length - 1]],
    );
    const level = callers.rows.map((x) => x.source).filter((id) => !seen.has(id));
    for (const id of level) seen.add(id);
    levels.push(level);
  }
  if (!seen.has(a)) return [];
  const chain = [a];
  for (let u = a, d = levels.length - 2; d >= 0; d--) {
    const nearer = levels[d];
    const next = await c.query<{ target: string }>(
      `SELECT target FROM kg_edges
       WHERE repository = $1 AND source = $2 AND target = ANY($3::text[]) AND relation = 'calls' AND confidence = 'EXACT'
       ORDER BY target COLLATE "C" LIMIT 1`,
      [repo, u, nearer],
    );
    u = next.rows[0].target;
    chain.push(u);
  }
  return chain;
}
