// The eight questions answered in SQL inside PostgreSQL (ADR 110, ADR 112): the same shapes,
// degrades and order as the file queries (src/graph/query), over one repository or the whole
// organisation. With a repository named, an answer is the one `kg <query>` gives on that
// repository's graph.json, id for id. Without one, the answer is the union over the repositories
// that hold the id, every id qualified by its repository (`acme/web/sym:src/a.ts#run`, see
// qualified.ts) and sorted in that form.
//
// The SQL does the work a file query does over its index: lookups, the split into proof and
// guesses, degrees, the breadth-first walks (plpgsql functions of migration 2). What is left here
// is assembling the JSON and the naming of ids.

import type { ClientBase } from 'pg';
import { CONSUMER_RELATIONS, DISPATCH_RELATIONS } from '../consumers';
import { GraphError } from '../errors';
import { fileId, fileOfId, parseId } from '../ids';
import type { QueryRequest } from '../query/catalogue';
import { DEFAULT_TOP } from '../query/god-nodes';
import { DEFAULT_BUDGET } from '../query/neighbors';
import { QUERY_LIMIT } from '../query/search-ids';
import { pathVerdict } from '../query/shortest-path';
import {
  answered,
  REASONS,
  unavailable,
  type EdgeRef,
  type DispatchedCallers,
  type QueryResult,
  type Unavailable,
  type WhyEntry,
  type WhyNote,
} from '../query/shapes';
import { compareStrings, type GraphNode, type UnanalysedFile } from '../model';
import { fileToImport, referrersOf, totalsOf, unresolvedNamedOf, unresolvedTargetOf, type holesOf } from '../query/unanalysed';
import { qualify, splitQualified } from './qualified';
import { foldEscapes, publishedAs } from './push';
import { requireSchema } from './schema';

const MAX_SUGGESTIONS = 10;
const schemaChecked = new WeakSet<ClientBase>();

/** The schema check, once per connection: a long-lived client (the benchmark, an editor) does not pay it per question. */
async function schemaOnce(c: ClientBase): Promise<void> {
  if (schemaChecked.has(c)) return;
  await requireSchema(c);
  schemaChecked.add(c);
}
/** The one definition of a consumer's relations (src/graph/consumers.ts), as the SQL array it binds. */
const CONSUMER_RELATION_LIST = [...CONSUMER_RELATIONS].sort(compareStrings);

const DISPATCH_RELATION_LIST = [...DISPATCH_RELATIONS].sort(compareStrings);

/**
 * The dispatch tier of `callers` and `impact` (ADR 151), as the file query's `dispatchedCallers`
 * gives it: the members `id` implements or overrides, up the chain by EXACT edges, each with its
 * proven callers. In order of the members' (named) ids; absent when there are none.
 */
async function dispatched(c: ClientBase, scope: Scope, repos: string[], id: string): Promise<{ dispatched?: DispatchedCallers[] }> {
  const up = await c.query<{ repository: string; member: string; relation: string }>(
    `WITH RECURSIVE up(repository, member, relation) AS (
       SELECT repository, target, relation FROM kg_edges
       WHERE repository = ANY($1) AND source = $2 AND relation = ANY($3) AND confidence = 'EXACT'
       UNION
       SELECT e.repository, e.target, e.relation FROM kg_edges e JOIN up ON e.repository = up.repository AND e.source = up.member
       WHERE e.relation = ANY($3) AND e.confidence = 'EXACT'
     )
     SELECT DISTINCT ON (repository, member) repository, member, relation FROM up WHERE member <> $2
     ORDER BY repository, member, relation`,
    [repos, id, DISPATCH_RELATION_LIST],
  );
  const out: DispatchedCallers[] = [];
  for (const m of up.rows) {
    const rows = await inbound(c, scope, [m.repository], m.member, ['calls'], true);
    out.push({
      via: scope.name(m.repository, m.member),
      relation: m.relation,
      callers: rows.filter((x) => x.proven).map((x) => scope.name(x.repository, x.source)),
    });
  }
  out.sort((a, b) => compareStrings(a.via, b.via));
  return out.length > 0 ? { dispatched: out } : {};
}

/**
 * What the answer cannot see (ADR 153), as the file queries' `holesOf` gives it: the unanalysed
 * files whose text imports the node's file (directly or through files re-exporting from it), and
 * the unplaced calls carrying its name. Over several repositories, their files (named
 * `<repository>/<path>`) and calls together.
 */
async function holes(c: ClientBase, scope: Scope, repos: string[], id: string): Promise<ReturnType<typeof holesOf>> {
  const rows = await c.query<{ repository: string; doc: GraphNode; unanalysed: UnanalysedFile[] }>(
    `SELECT n.repository, n.doc, r.unanalysed FROM kg_nodes n JOIN kg_repositories r USING (repository)
     WHERE n.repository = ANY($1) AND n.id = $2 ORDER BY n.repository`,
    [repos, id],
  );
  if (rows.rows.length === 0) return {};
  const node = rows.rows[0].doc;
  // Each repository's node says whether its files may import it (an id several repositories hold
  // may be exported in one and not in another): only those repositories' unread files count.
  let file: string | undefined;
  const importers: string[] = [];
  const files: UnanalysedFile[] = [];
  for (const row of rows.rows) {
    const own = fileToImport(row.doc);
    if (own === undefined || row.unanalysed.length === 0) continue;
    file ??= own;
    files.push(...row.unanalysed);
    const chain = await c.query<{ file: string }>(
      `WITH RECURSIVE chain(file) AS (
         SELECT $2::text
         UNION
         SELECT s.source_file FROM chain
         JOIN kg_nodes t ON t.repository = $1 AND t.kind = 'file' AND t.source_file = chain.file
         JOIN kg_edges e ON e.repository = $1 AND e.target = t.id AND e.relation = 're-exports'
         JOIN kg_nodes s ON s.repository = $1 AND s.id = e.source
         WHERE s.source_file IS NOT NULL
       ) SELECT file FROM chain`,
      [row.repository, own],
    );
    const reached = new Set(chain.rows.map((x) => x.file));
    for (const f of row.unanalysed) if ((f.imports ?? []).some((to) => reached.has(to))) importers.push(scope.name(row.repository, f.path));
  }
  const target = unresolvedTargetOf(node);
  const reasons =
    target === undefined
      ? []
      : (
          await c.query<{ reason: string | null }>(
            `SELECT doc->>'reason' AS reason FROM kg_edges
             WHERE repository = ANY($1) AND target = $2 AND relation = 'calls' AND confidence = 'UNRESOLVED'`,
            [repos, target],
          )
        ).rows.flatMap((x) => (x.reason === null ? [] : [x.reason]));
  const unanalysed =
    file !== undefined && files.length > 0 ? referrersOf(file, importers.sort(compareStrings), totalsOf(files)) : undefined;
  const named = unresolvedNamedOf(node, reasons);
  return { ...(unanalysed ? { unanalysed } : {}), ...(named ? { unresolvedNamed: named } : {}) };
}

/** Which repositories a question is about, and how its answer names ids. */
class Scope {
  /** `repository`: one repository, plain ids; undefined: the organisation, qualified ids. */
  constructor(readonly repository: string | undefined) {}
  get organisation(): boolean {
    return this.repository === undefined;
  }
  name(repository: string, id: string): string {
    return this.organisation ? qualify(repository, id) : id;
  }
  /** The repositories an asked id may be in, and the id inside them (a qualified id names its own). */
  target(asked: string): { repos: string[] | null; id: string } {
    const q = splitQualified(asked);
    if (!this.organisation) return { repos: [this.repository as string], id: q.repository === this.repository ? q.id : asked };
    return q.repository === undefined ? { repos: null, id: q.id } : { repos: [q.repository], id: q.id };
  }
}

interface Held {
  repository: string;
  isNode: boolean;
  layers: string[];
  hub: number;
}

/** The repositories (of `repos`, null: all) where `id` is an endpoint, in key order. */
async function holders(c: ClientBase, repos: string[] | null, id: string): Promise<Held[]> {
  const r = await c.query<{ repository: string; is_node: boolean; layers: string[]; hub_threshold: number }>(
    `SELECT d.repository, d.is_node, r.layers, r.hub_threshold FROM kg_degrees d JOIN kg_repositories r USING (repository)
     WHERE d.id = $2 AND ($1::text[] IS NULL OR d.repository = ANY($1)) ORDER BY d.repository`,
    [repos, id],
  );
  return r.rows.map((x) => ({ repository: x.repository, isNode: x.is_node, layers: x.layers, hub: x.hub_threshold }));
}

/** A degrade for a repository the store does not hold, when the question named one. */
async function missingRepository(c: ClientBase, repos: string[] | null): Promise<Unavailable | undefined> {
  if (repos === null) {
    const any = await c.query('SELECT 1 FROM kg_repositories LIMIT 1');
    return any.rowCount === 0 ? unavailable('NO_GRAPH', 'no repository in the store: push one with "kg store push"') : undefined;
  }
  const r = await c.query('SELECT 1 FROM kg_repositories WHERE repository = $1', [repos[0]]);
  return r.rowCount === 0 ? unavailable('NO_GRAPH', `no repository "${repos[0]}" in the store`) : undefined;
}

/** "Did you mean": the same id unescaped, else the same label, else ids containing the text (file queries' order). */
async function suggestions(c: ClientBase, scope: Scope, repos: string[] | null, asked: string): Promise<string[]> {
  const tiers: Array<[string, unknown]> = [
    ['folded_id = $2 AND id <> $3', foldEscapes(asked)],
    ['label = $2 AND $3::text IS NOT NULL', asked],
  ];
  if (asked !== '') tiers.push(['strpos(id, $2) > 0 AND $3::text IS NOT NULL', asked]);
  for (const [where, value] of tiers) {
    const r = await c.query<{ repository: string; id: string }>(
      `SELECT repository, id FROM kg_nodes WHERE ($1::text[] IS NULL OR repository = ANY($1)) AND ${where}
       ORDER BY (repository || '/' || id) COLLATE "C" LIMIT ${MAX_SUGGESTIONS}`,
      [repos, value, asked],
    );
    if (r.rows.length > 0) return r.rows.map((x) => scope.name(x.repository, x.id));
  }
  return [];
}

/**
 * The repositories where `asked` is a node (or an endpoint, for the walks), or the degrade the
 * file queries give: unknown (with suggestions), or an unresolved name where a node is needed.
 */
async function resolveId(
  c: ClientBase,
  scope: Scope,
  asked: string,
  acceptUnresolved: boolean,
): Promise<{ id: string; held: Held[] } | Unavailable> {
  const { repos, id } = scope.target(asked);
  const missing = await missingRepository(c, repos);
  if (missing) return missing;
  const all = await holders(c, repos, id);
  // A package-qualified target is asked like a node (ADR 109), as the file queries do.
  const held = all.filter((h) => h.isNode || acceptUnresolved || id.startsWith('pkg:'));
  if (held.length > 0) return { id, held };
  if (all.length > 0) return unavailable('UNKNOWN_NODE', REASONS.notANode(id));
  return unavailable('UNKNOWN_NODE', REASONS.unknownNode(id), undefined, await suggestions(c, scope, repos, id));
}

function layerDegrade(scope: Scope, held: Held[], layer: 'calls' | 'references' = 'calls'): Unavailable | undefined {
  if (layer === 'references') {
    const noCalls = layerDegrade(scope, held);
    if (noCalls) return noCalls;
  }
  const without = held.filter((h) => !h.layers.includes(layer)).map((h) => h.repository);
  if (without.length === 0) return undefined;
  const reason = layer === 'calls' ? REASONS.callsLayerMissing : REASONS.referencesLayerMissing;
  return unavailable('LAYER_MISSING', scope.organisation ? `${reason} (${without.join(', ')})` : reason);
}

interface Inbound {
  repository: string;
  source: string;
  /** An EXACT edge of any of the relations asked. */
  proven: boolean;
  /** An EXACT `calls` edge. */
  provenCall: boolean;
  /** A CANDIDATE edge of any of the relations asked. */
  guessed: boolean;
}

/**
 * The sources, in other repositories, of `relations` edges into symbols of the repositories
 * `publishers`, reached through the packages those repositories publish (ADR 111, ADR 122): one row
 * per asked id and source. An edge in a publisher itself is its own answer, never counted here.
 */
async function fromOtherRepositories(
  c: ClientBase,
  publishers: string[],
  ids: string[],
  relations: string[],
): Promise<Array<Inbound & { asked: string; publisher: string }>> {
  const pk = await c.query<{ repository: string; package: string; root: string }>(
    'SELECT repository, package, root FROM kg_packages WHERE repository = ANY($1) ORDER BY package',
    [publishers],
  );
  const keys: Array<{ asked: string; publisher: string; pkg: string; local: string }> = [];
  for (const row of pk.rows)
    for (const asked of ids)
      for (const k of publishedAs(asked, [{ name: row.package, root: row.root }])) keys.push({ asked, publisher: row.repository, ...k });
  if (keys.length === 0) return [];
  const r = await c.query<{
    asked: string;
    publisher: string;
    repository: string;
    source: string;
    proven: boolean;
    proven_call: boolean;
    guessed: boolean;
  }>(
    `SELECT k.asked, k.publisher, e.repository, e.source, bool_or(e.confidence = 'EXACT') AS proven,
            bool_or(e.confidence = 'EXACT' AND e.relation = 'calls') AS proven_call, bool_or(e.confidence = 'CANDIDATE') AS guessed
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS k(asked, publisher, pkg, local)
     JOIN kg_edges e ON e.target_package = k.pkg AND e.target_local = k.local
     WHERE e.relation = ANY($5) AND e.repository <> k.publisher
     GROUP BY k.asked, k.publisher, e.repository, e.source`,
    [keys.map((k) => k.asked), keys.map((k) => k.publisher), keys.map((k) => k.pkg), keys.map((k) => k.local), relations],
  );
  return r.rows.map((x) => ({
    asked: x.asked,
    publisher: x.publisher,
    repository: x.repository,
    source: x.source,
    proven: x.proven,
    provenCall: x.proven_call,
    guessed: x.guessed,
  }));
}

/** What the editor's lens adds from the store (ADR 122): a symbol's callers in other repositories. */
export interface OtherRepositoryCallers {
  /** Distinct proven callers (EXACT calls) in other repositories. */
  callers: number;
  /** Distinct guessed ones (CANDIDATE only), kept apart. */
  candidates: number;
  /** How many repositories the proven callers are in. */
  repositories: number;
}

/**
 * For each of `ids`, symbols of `repository`: its callers in the other repositories of the store —
 * the sources `kg store callers <repository>/<id>` lists beyond the repository's own. Undefined when
 * the store does not hold the repository (nothing can be said, and nothing is counted as zero).
 */
export async function otherRepositoryCallers(
  c: ClientBase,
  repository: string,
  ids: string[],
): Promise<Map<string, OtherRepositoryCallers> | undefined> {
  await schemaOnce(c);
  const held = await c.query('SELECT 1 FROM kg_repositories WHERE repository = $1', [repository]);
  if (held.rowCount === 0) return undefined;
  const out = new Map<string, OtherRepositoryCallers>(ids.map((id) => [id, { callers: 0, candidates: 0, repositories: 0 }]));
  const repos = new Map<string, Set<string>>();
  for (const x of await fromOtherRepositories(c, [repository], ids, ['calls'])) {
    const n = out.get(x.asked) as OtherRepositoryCallers;
    if (x.proven) {
      n.callers++;
      let r = repos.get(x.asked);
      if (!r) repos.set(x.asked, (r = new Set()));
      r.add(x.repository);
    } else if (x.guessed) n.candidates++;
  }
  for (const [id, r] of repos) (out.get(id) as OtherRepositoryCallers).repositories = r.size;
  return out;
}

/**
 * Sources of `relations` edges into `id` in each repository, one row per source, in qualified
 * order. For the organisation, the callers a repository's symbol has in other repositories through
 * the packages it publishes are sources of it too (ADR 122).
 */
async function inbound(
  c: ClientBase,
  scope: Scope,
  repos: string[],
  id: string,
  relations: string[],
  includeSelf: boolean,
): Promise<Inbound[]> {
  const own = await inboundIn(c, repos, id, relations, includeSelf);
  if (!scope.organisation || !id.startsWith('sym:')) return own;
  const other = await fromOtherRepositories(c, repos, [id], relations);
  if (other.length === 0) return own;
  const bySource = new Map<string, Inbound>();
  for (const x of [...own, ...other]) {
    const key = qualify(x.repository, x.source);
    const was = bySource.get(key);
    bySource.set(
      key,
      was
        ? { ...was, proven: was.proven || x.proven, provenCall: was.provenCall || x.provenCall, guessed: was.guessed || x.guessed }
        : { repository: x.repository, source: x.source, proven: x.proven, provenCall: x.provenCall, guessed: x.guessed },
    );
  }
  return [...bySource].sort((a, b) => compareStrings(a[0], b[0])).map(([, x]) => x);
}

async function inboundIn(c: ClientBase, repos: string[], id: string, relations: string[], includeSelf: boolean): Promise<Inbound[]> {
  const r = await c.query<{ repository: string; source: string; proven: boolean; proven_call: boolean; guessed: boolean }>(
    `SELECT repository, source, bool_or(confidence = 'EXACT') AS proven,
            bool_or(confidence = 'EXACT' AND relation = 'calls') AS proven_call, bool_or(confidence = 'CANDIDATE') AS guessed
     FROM kg_edges WHERE repository = ANY($1) AND target = $2 AND relation = ANY($3) AND ($4 OR source <> target)
     GROUP BY repository, source ORDER BY (repository || '/' || source) COLLATE "C"`,
    [repos, id, relations, includeSelf],
  );
  return r.rows.map((x) => ({
    repository: x.repository,
    source: x.source,
    proven: x.proven,
    provenCall: x.proven_call,
    guessed: x.guessed,
  }));
}

async function callers(c: ClientBase, scope: Scope, asked: string): Promise<QueryResult> {
  const found = await resolveId(c, scope, asked, false);
  if ('available' in found) return found;
  const noLayer = layerDegrade(scope, found.held);
  if (noLayer) return noLayer;
  const repos = found.held.map((h) => h.repository);
  const rows = await inbound(c, scope, repos, found.id, ['calls'], true);
  return answered({
    callers: rows.filter((x) => x.proven).map((x) => scope.name(x.repository, x.source)),
    candidates: rows.filter((x) => !x.proven && x.guessed).map((x) => scope.name(x.repository, x.source)),
    ...(await dispatched(c, scope, repos, found.id)),
    ...(await holes(c, scope, repos, found.id)),
  });
}

async function consumers(
  c: ClientBase,
  scope: Scope,
  asked: string,
): Promise<{ rows: Inbound[]; id: string; repos: string[] } | Unavailable> {
  const found = await resolveId(c, scope, asked, false);
  if ('available' in found) return found;
  // A symbol's consumers need the references layer (ADR 151), as the file query's do.
  if (found.id.startsWith('sym:') || found.id.startsWith('pkg:')) {
    const noLayer = layerDegrade(scope, found.held, 'references');
    if (noLayer) return noLayer;
  }
  const repos = found.held.map((h) => h.repository);
  return { rows: await inbound(c, scope, repos, found.id, CONSUMER_RELATION_LIST, false), id: found.id, repos };
}

async function affected(c: ClientBase, scope: Scope, asked: string): Promise<QueryResult> {
  const found = await consumers(c, scope, asked);
  if ('available' in found) return found;
  const { rows } = found;
  const proven = rows.filter((x) => x.proven).map((x) => scope.name(x.repository, x.source));
  return answered({
    consumers: proven,
    breaks: proven.length > 0,
    candidates: rows.filter((x) => !x.proven && x.guessed).map((x) => scope.name(x.repository, x.source)),
    ...(await holes(c, scope, found.repos, found.id)),
  });
}

async function impact(c: ClientBase, scope: Scope, asked: string): Promise<QueryResult> {
  const found = await consumers(c, scope, asked);
  if ('available' in found) return found;
  const { rows } = found;
  // Calls are consumer relations: the proven callers are among the proven consumers, and a guess
  // is a source with no EXACT edge of any of them.
  const proven = rows.filter((x) => x.proven);
  const guessed = rows.filter((x) => !x.proven && x.guessed);
  return answered({
    callers: rows.filter((x) => x.provenCall).map((x) => scope.name(x.repository, x.source)),
    consumers: proven.map((x) => scope.name(x.repository, x.source)),
    blastRadius: proven.length,
    candidates: guessed.map((x) => scope.name(x.repository, x.source)),
    candidateRadius: guessed.length,
    ...(await dispatched(c, scope, found.repos, found.id)),
    ...(await holes(c, scope, found.repos, found.id)),
  });
}

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

async function neighbors(c: ClientBase, scope: Scope, asked: string, budget = DEFAULT_BUDGET): Promise<QueryResult> {
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

async function path(c: ClientBase, scope: Scope, from: string, to: string, undirected = false): Promise<QueryResult> {
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

async function godNodes(c: ClientBase, scope: Scope, top = DEFAULT_TOP): Promise<QueryResult> {
  if (!Number.isSafeInteger(top) || top < 1)
    throw new GraphError('INVALID_ARGUMENT', `top must be a whole number, at least 1 (got ${top})`);
  const repos = scope.organisation ? null : [scope.repository as string];
  const missing = await missingRepository(c, repos);
  if (missing) return missing;
  // Each repository's first `top` by its index, then the best of those: never a sort of every node.
  const r = await c.query<{ repository: string; id: string; degree: number }>(
    `SELECT t.repository, t.id, t.degree FROM kg_repositories k
     CROSS JOIN LATERAL (
       SELECT d.repository, d.id, d.degree FROM kg_degrees d WHERE d.repository = k.repository AND d.is_node
       ORDER BY d.degree DESC, d.id LIMIT $2
     ) t
     WHERE ($1::text[] IS NULL OR k.repository = ANY($1))
     ORDER BY t.degree DESC, (t.repository || '/' || t.id) COLLATE "C" LIMIT $2`,
    [repos, top],
  );
  return answered({ godNodes: r.rows.map((x) => ({ id: scope.name(x.repository, x.id), degree: x.degree })) });
}

async function search(c: ClientBase, scope: Scope, text: string): Promise<QueryResult> {
  const repos = scope.organisation ? null : [scope.repository as string];
  const missing = await missingRepository(c, repos);
  if (missing) return missing;
  const r = await c.query<{ repository: string; id: string }>(
    `SELECT repository, id FROM kg_nodes WHERE ($1::text[] IS NULL OR repository = ANY($1)) AND strpos(id, $2) > 0
     ORDER BY (repository || '/' || id) COLLATE "C" LIMIT ${QUERY_LIMIT + 1}`,
    [repos, text],
  );
  const rows = r.rows.slice(0, QUERY_LIMIT);
  return answered({ matches: rows.map((x) => scope.name(x.repository, x.id)), truncated: r.rows.length > QUERY_LIMIT });
}

function entryOf(scope: Scope, repo: string, id: string, doc: GraphNode | null): WhyEntry {
  const out: WhyEntry = { id: scope.name(repo, id), label: doc?.label ?? id };
  if (doc?.sourceFile !== undefined) out.file = doc.sourceFile;
  if (doc?.line !== undefined && doc.column !== undefined) {
    out.line = doc.line;
    out.column = doc.column;
  }
  return out;
}

function noteOf(scope: Scope, repo: string, id: string, doc: GraphNode | null, sitsOn: boolean): WhyNote {
  const p = parseId(id);
  const base = entryOf(scope, repo, id, doc);
  return {
    ...base,
    area: p?.prefix === 'rationale' ? p.area : '',
    stamp: p?.prefix === 'rationale' ? p.stamp : '',
    text: doc?.text ?? base.label,
    sitsOn,
  };
}

async function why(c: ClientBase, scope: Scope, asked: string): Promise<QueryResult> {
  const found = await resolveId(c, scope, asked, false);
  if ('available' in found) return found;
  const id = found.id;
  const repos = found.held.map((h) => h.repository);
  const file = fileOfId(id);
  const fileNode = file !== undefined && !id.startsWith('file:') ? fileId(file) : null;
  const citing = await c.query<{ repository: string; target: string; source: string; sits_on: boolean; doc: GraphNode | null }>(
    `SELECT e.repository, e.target, e.source, bool_or(e.provenance = 'SYNTAX') AS sits_on, (array_agg(n.doc))[1] AS doc
     FROM kg_edges e LEFT JOIN kg_nodes n ON n.repository = e.repository AND n.id = e.source
     WHERE e.repository = ANY($1) AND (e.target = $2 OR e.target = $3) AND e.relation = 'cites' AND e.confidence = 'EXACT'
       AND (e.source LIKE 'rationale:%' OR e.source LIKE 'adr:%')
     GROUP BY e.repository, e.target, e.source ORDER BY (e.repository || '/' || e.source) COLLATE "C"`,
    [repos, id, fileNode],
  );
  const cited = await c.query<{ repository: string; target: string; doc: GraphNode | null }>(
    `SELECT e.repository, e.target, n.doc, (e.repository || '/' || e.target) COLLATE "C" AS k
     FROM kg_edges e LEFT JOIN kg_nodes n ON n.repository = e.repository AND n.id = e.target
     WHERE e.repository = ANY($1) AND e.source = $2 AND e.relation = 'cites' AND e.confidence = 'EXACT' AND e.target LIKE 'adr:%'
     ORDER BY k`,
    [repos, id],
  );
  const part = (target: string) => citing.rows.filter((x) => x.target === target);
  const notes = (target: string) =>
    part(target)
      .filter((x) => x.source.startsWith('rationale:'))
      .map((x) => noteOf(scope, x.repository, x.source, x.doc, x.sits_on));
  const records = (target: string) =>
    part(target)
      .filter((x) => x.source.startsWith('adr:'))
      .map((x) => entryOf(scope, x.repository, x.source, x.doc));
  return answered({
    id: asked,
    notes: notes(id),
    records: records(id),
    cited: cited.rows.map((x) => entryOf(scope, x.repository, x.target, x.doc)),
    fileNotes: fileNode ? notes(fileNode) : [],
    fileRecords: fileNode ? records(fileNode) : [],
  });
}

/**
 * One question to the store: `repository` given, about that repository (plain ids); undefined,
 * about the organisation (qualified ids). Throws STORE_SCHEMA / STORE_UNAVAILABLE (the caller
 * reports them) and INVALID_ARGUMENT for a question that cannot be asked.
 */
export async function answerFromStore(c: ClientBase, request: QueryRequest, repository?: string): Promise<QueryResult> {
  await schemaOnce(c);
  const scope = new Scope(repository);
  switch (request.query) {
    case 'callers':
      return callers(c, scope, request.id);
    case 'affected':
      return affected(c, scope, request.id);
    case 'impact':
      return impact(c, scope, request.id);
    case 'neighbors':
      return neighbors(c, scope, request.id, request.budget);
    case 'path':
      return path(c, scope, request.from, request.to, request.undirected);
    case 'god-nodes':
      return godNodes(c, scope, request.top);
    case 'query':
      return search(c, scope, request.text);
    case 'why':
      return why(c, scope, request.id);
    case 'symbol':
      // Not of the catalogue's store face yet: the CLI never asks it (docs/organisation.md).
      throw new GraphError('INVALID_ARGUMENT', 'the store does not answer "symbol" yet: ask it of the repository\'s graph.json');
    case 'unused':
      // Not of the catalogue's store face: which symbols no repository reaches is a later question (ADR 157).
      throw new GraphError('INVALID_ARGUMENT', 'the store does not answer "unused": ask it of the repository\'s graph.json');
  }
}
