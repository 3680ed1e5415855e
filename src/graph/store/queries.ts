// The eight questions answered in SQL inside PostgreSQL (ADR 110, ADR 112): the same shapes,
// degrades and order as the file queries (src/graph/query), over one repository or the whole
// organisation. With a repository named, an answer is the one `kg <query>` gives on that
// repository's graph.json, id for id. Without one, the answer is the union over the repositories
// that hold the id, every id qualified by its repository (`acme/web/sym:src/a.ts#run`, see
// qualified.ts) and sorted in that form.
//
// The SQL does the work a file query does over its index: lookups, the split into proof and
// guesses, degrees, the breadth-first walks (plpgsql functions of migration 2). What is left here
// is assembling the JSON and the naming of ids. The inbound questions are in inbound-queries.ts,
// the walks in walk-queries.ts, what every question starts with in scope.ts.

import type { ClientBase } from 'pg';
import { GraphError } from '../errors';
import { fileId, fileOfId, parseId } from '../ids';
import type { QueryRequest } from '../query/catalogue';
import { DEFAULT_TOP } from '../query/god-nodes';
import { QUERY_LIMIT } from '../query/search-ids';
import { answered, type QueryResult, type WhyEntry, type WhyNote } from '../query/shapes';
import type { GraphNode } from '../model';
import { affected, callers, impact } from './inbound-queries';
import { missingRepository, resolveId, schemaOnce, Scope } from './scope';
import { neighbors, path } from './walk-queries';

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
