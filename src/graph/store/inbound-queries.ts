// The inbound questions answered in SQL (queries.ts): callers, affected and impact — the sources of
// edges into a symbol in each repository, and, for the organisation, in the repositories that take
// it through the packages its repository publishes (ADR 111, ADR 122) — with the dispatch tier
// (ADR 151) and the holes the file queries list beside them. Also the editor's count of a symbol's
// callers in other repositories (ADR 122).

import type { ClientBase } from 'pg';
import { CONSUMER_RELATIONS, DISPATCH_RELATIONS } from '../consumers';
import { answered, type DispatchedCallers, type QueryResult, type Unavailable } from '../query/shapes';
import { compareStrings, type GraphNode, type UnanalysedFile } from '../model';
import { fileToImport, referrersOf, totalsOf, unresolvedNamedOf, unresolvedTargetOf, type holesOf } from '../query/unanalysed';
import { qualify } from './qualified';
import { publishedAs } from './push';
import { layerDegrade, resolveId, schemaOnce, type Scope } from './scope';

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

export async function callers(c: ClientBase, scope: Scope, asked: string): Promise<QueryResult> {
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

export async function affected(c: ClientBase, scope: Scope, asked: string): Promise<QueryResult> {
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

export async function impact(c: ClientBase, scope: Scope, asked: string): Promise<QueryResult> {
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
