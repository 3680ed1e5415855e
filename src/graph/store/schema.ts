// The store's schema, as numbered migrations (docs/organisation.md, ADR 110). `kg store migrate`
// applies the ones a database lacks, in order, in one transaction under an advisory lock, so two
// CI jobs migrating at once apply each migration once. Every table carries the repository
// as the first column of its key: the key a distributed deployment shards by (Citus'
// `create_distributed_table(…, 'repository')`), and the one every question of one repository
// filters on. Ids are stored with the "C" collation, so `ORDER BY` is code-point order — the
// order the file queries sort in (ADR 110 names the one difference).

import type { ClientBase } from 'pg';
import { GraphError } from '../errors';

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The lock key `kg store migrate` holds (pg_advisory_xact_lock): any fixed 64-bit number, named here once. */
const MIGRATE_LOCK = 7_112_026_000_001;

// A migration is the SQL the databases ran, spelled as it ran: its walks test `u LIKE 'unresolved:%'`
// (UNRESOLVED_PREFIX as a LIKE pattern, src/graph/model.ts) rather than interpolate the constant.
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'repositories, files, nodes, edges, degrees',
    sql: `
CREATE TABLE kg_repositories (
  repository      text COLLATE "C" PRIMARY KEY,
  graph_signature text NOT NULL,
  layers          text[] NOT NULL,
  node_count      integer NOT NULL,
  edge_count      integer NOT NULL,
  hub_threshold   integer NOT NULL,
  package_name    text,
  pushes          bigint NOT NULL DEFAULT 1,
  pushed_at       timestamptz NOT NULL DEFAULT now()
);
-- One row per owning file (the unit a build withdraws and re-asserts, docs/graph-format.md): the hash of the facts it owns, so a
-- push withdraws and re-asserts only the files whose facts changed. '' owns what the build derives
-- from the file set (module nodes, their containment).
CREATE TABLE kg_files (
  repository text COLLATE "C" NOT NULL,
  file       text COLLATE "C" NOT NULL,
  facts_hash text NOT NULL,
  PRIMARY KEY (repository, file)
);
CREATE TABLE kg_nodes (
  repository text COLLATE "C" NOT NULL,
  id         text COLLATE "C" NOT NULL,
  owner_file text COLLATE "C" NOT NULL,
  kind       text NOT NULL,
  label      text NOT NULL,
  source_file text,
  line       integer,
  col        integer,
  -- The id with every %XX escape decoded: "did you mean" for an id typed unescaped.
  folded_id  text COLLATE "C" NOT NULL,
  -- The node as graph.json has it (fields the columns do not hold: text, declarationCount …).
  doc        json NOT NULL,
  PRIMARY KEY (repository, id)
);
CREATE INDEX kg_nodes_owner ON kg_nodes (repository, owner_file);
CREATE INDEX kg_nodes_label ON kg_nodes (repository, label);
CREATE INDEX kg_nodes_folded ON kg_nodes (repository, folded_id);
CREATE TABLE kg_edges (
  repository text COLLATE "C" NOT NULL,
  source     text COLLATE "C" NOT NULL,
  target     text COLLATE "C" NOT NULL,
  relation   text COLLATE "C" NOT NULL,
  owner_file text COLLATE "C" NOT NULL,
  confidence text NOT NULL,
  provenance text NOT NULL,
  -- A package-qualified target (ADR 111): the package it names and the symbol's id inside the
  -- publishing repository; NULL for a target in the same repository.
  target_package text,
  target_local   text COLLATE "C",
  doc        json NOT NULL,
  PRIMARY KEY (repository, source, target, relation)
);
CREATE INDEX kg_edges_in ON kg_edges (repository, target, source);
CREATE INDEX kg_edges_owner ON kg_edges (repository, owner_file);
CREATE INDEX kg_edges_package ON kg_edges (target_package, target_local) WHERE target_package IS NOT NULL;
-- Degrees of every endpoint (nodes, and unresolved: names), recomputed by each push in its
-- transaction: god-nodes and the hub rule read them.
CREATE TABLE kg_degrees (
  repository text COLLATE "C" NOT NULL,
  id         text COLLATE "C" NOT NULL,
  degree     integer NOT NULL,
  is_node    boolean NOT NULL,
  PRIMARY KEY (repository, id)
);
CREATE INDEX kg_degrees_rank ON kg_degrees (repository, degree DESC, id) WHERE is_node;
-- An id asked of the whole organisation: which repositories hold it.
CREATE INDEX kg_degrees_id ON kg_degrees (id);
-- Which repository publishes a package (ADR 111): a package-qualified target joins through it.
CREATE TABLE kg_packages (
  package    text COLLATE "C" PRIMARY KEY,
  repository text COLLATE "C" NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'neighbors and path as functions',
    sql: `
-- Undirected neighbours of one endpoint, distinct, never itself, in id order.
CREATE FUNCTION kg_adjacent(repo text, u text) RETURNS SETOF text
LANGUAGE sql STABLE AS $$
  SELECT v FROM (
    SELECT target AS v FROM kg_edges WHERE repository = repo AND source = u
    UNION
    SELECT source FROM kg_edges WHERE repository = repo AND target = u
  ) n WHERE v <> u ORDER BY v COLLATE "C"
$$;

-- neighbors (ADR 22's rules): breadth-first from start, neighbours in id order, at most budget
-- nodes; hubs and unresolved: names are reached but not expanded (the start always is).
CREATE FUNCTION kg_neighbors(repo text, start text, budget integer, hub integer)
RETURNS TABLE (ord integer, id text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  nodes text[] := ARRAY[start];
  head integer := 1;
  u text;
  v text;
BEGIN
  WHILE head <= cardinality(nodes) AND cardinality(nodes) < budget LOOP
    u := nodes[head];
    head := head + 1;
    IF u <> start AND (u LIKE 'unresolved:%' OR
        coalesce((SELECT d.degree FROM kg_degrees d WHERE d.repository = repo AND d.id = u), 0) > hub) THEN
      CONTINUE;
    END IF;
    FOR v IN SELECT a FROM kg_adjacent(repo, u) a LOOP
      EXIT WHEN cardinality(nodes) >= budget;
      IF NOT (v = ANY (nodes)) THEN
        nodes := nodes || v;
      END IF;
    END LOOP;
  END LOOP;
  RETURN QUERY SELECT o::integer, n FROM unnest(nodes) WITH ORDINALITY AS t(n, o);
END
$$;

-- path: a shortest path on the undirected view, never through an unresolved: name (it may be an
-- end), the smallest in id order among the shortest. Breadth-first from b, a level at a time, until
-- a is reached; then from a, each step to the smallest-id neighbour one level nearer b.
CREATE FUNCTION kg_path(repo text, a text, b text) RETURNS TABLE (ord integer, id text)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  level integer := 0;
  added integer;
  found_a boolean := false;
  cur text;
  nxt text;
  k integer;
BEGIN
  IF a = b THEN
    RETURN QUERY SELECT 1, a;
    RETURN;
  END IF;
  CREATE TEMP TABLE IF NOT EXISTS kg_bfs (id text COLLATE "C" PRIMARY KEY, d integer NOT NULL) ON COMMIT DROP;
  TRUNCATE kg_bfs;
  INSERT INTO kg_bfs VALUES (b, 0);
  LOOP
    INSERT INTO kg_bfs (id, d)
      SELECT DISTINCT n.v, level + 1
      FROM kg_bfs f
      CROSS JOIN LATERAL (
        SELECT e.target AS v FROM kg_edges e WHERE e.repository = repo AND e.source = f.id
        UNION
        SELECT e.source FROM kg_edges e WHERE e.repository = repo AND e.target = f.id
      ) n
      WHERE f.d = level AND (f.id = b OR f.id NOT LIKE 'unresolved:%')
        AND (n.v = a OR n.v NOT LIKE 'unresolved:%')
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS added = ROW_COUNT;
    level := level + 1;
    SELECT true INTO found_a FROM kg_bfs WHERE kg_bfs.id = a;
    EXIT WHEN found_a OR added = 0;
  END LOOP;
  IF NOT coalesce(found_a, false) THEN
    RETURN;
  END IF;
  cur := a;
  RETURN QUERY SELECT 1, a;
  FOR k IN REVERSE level - 1 .. 0 LOOP
    SELECT f.id INTO nxt FROM kg_adjacent(repo, cur) n(v) JOIN kg_bfs f ON f.id = n.v
      WHERE f.d = k AND (f.id = b OR f.id NOT LIKE 'unresolved:%')
      ORDER BY f.id COLLATE "C" LIMIT 1;
    cur := nxt;
    RETURN QUERY SELECT level - k + 1, cur;
  END LOOP;
END
$$;
`,
  },
  {
    version: 3,
    name: 'packages published from a folder of their repository',
    sql: `
-- A package's folder in the repository that publishes it ('' for the root; packages/lib in a
-- workspace): a package-qualified target's source path is relative to it (ADR 122).
ALTER TABLE kg_packages ADD COLUMN root text COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX kg_packages_repository ON kg_packages (repository);
`,
  },
  {
    version: 4,
    name: 'the files a graph does not read',
    sql: `
-- graph.json's \`unanalysed\` (ADR 153): the files of types the graph does not read, each with the
-- repository files its text imports, so that the store's answers name them as the file queries do.
ALTER TABLE kg_repositories ADD COLUMN unanalysed json NOT NULL DEFAULT '[]';
`,
  },
];

export const STORE_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** The schema version a database is at (0 when no migration ever ran). */
async function schemaVersion(client: ClientBase): Promise<number> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('kg_migrations')::text AS t`);
  if (exists.rows[0].t === null) return 0;
  const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM kg_migrations');
  return r.rows[0].v ?? 0;
}

/** Refuses a store this kg cannot read: never migrated, behind, or written by a newer kg. */
export async function requireSchema(client: ClientBase): Promise<void> {
  const v = await schemaVersion(client);
  if (v === STORE_SCHEMA_VERSION) return;
  throw new GraphError(
    'STORE_SCHEMA',
    v < STORE_SCHEMA_VERSION
      ? `the store's schema is at version ${v}, this kg needs ${STORE_SCHEMA_VERSION}: run "kg store migrate"`
      : `the store's schema is at version ${v}, newer than this kg knows (${STORE_SCHEMA_VERSION}): upgrade kg`,
  );
}

/** Applies the migrations the database lacks; returns the versions applied (none: already current). */
export async function migrate(client: ClientBase): Promise<{ from: number; applied: number[] }> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS kg_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const from = await schemaVersion(client);
    if (from > STORE_SCHEMA_VERSION) {
      throw new GraphError(
        'STORE_SCHEMA',
        `the store's schema is at version ${from}, newer than this kg knows (${STORE_SCHEMA_VERSION}): upgrade kg`,
      );
    }
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO kg_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return { from, applied };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
