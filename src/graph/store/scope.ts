// What every question to the store (queries.ts) starts with: the schema check, which repositories
// the question is about and how its answer names ids (Scope), and the asked id found in them — or
// the degrade the file queries give (an unknown id with suggestions, a missing layer).

import type { ClientBase } from 'pg';
import { REASONS, unavailable, type Unavailable } from '../query/shapes';
import { qualify, splitQualified } from './qualified';
import { foldEscapes } from './push';
import { requireSchema } from './schema';

const MAX_SUGGESTIONS = 10;

const schemaChecked = new WeakSet<ClientBase>();

/** The schema check, once per connection: a long-lived client (the benchmark, an editor) does not pay it per question. */
export async function schemaOnce(c: ClientBase): Promise<void> {
  if (schemaChecked.has(c)) return;
  await requireSchema(c);
  schemaChecked.add(c);
}

/** Which repositories a question is about, and how its answer names ids. */
export class Scope {
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

export interface Held {
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
export async function missingRepository(c: ClientBase, repos: string[] | null): Promise<Unavailable | undefined> {
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
export async function resolveId(
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

export function layerDegrade(scope: Scope, held: Held[], layer: 'calls' | 'references' = 'calls'): Unavailable | undefined {
  if (layer === 'references') {
    const noCalls = layerDegrade(scope, held);
    if (noCalls) return noCalls;
  }
  const without = held.filter((h) => !h.layers.includes(layer)).map((h) => h.repository);
  if (without.length === 0) return undefined;
  const reason = layer === 'calls' ? REASONS.callsLayerMissing : REASONS.referencesLayerMissing;
  return unavailable('LAYER_MISSING', scope.organisation ? `${reason} (${without.join(', ')})` : reason);
}
