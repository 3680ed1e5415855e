// A tool call with `scope: "organisation"`: the question asked of the organisation's store
// (PostgreSQL, docs/organisation.md) about every repository in it — the answer `kg store <query>`
// prints, cut to a context window like every other answer (budget.ts). Ids in it are qualified by
// repository (acme/web/sym:src/a.ts#run); a node argument is an id, plain when one repository
// holds it, qualified otherwise. The store module (and `pg`) loads only when such a call comes.

import { isGraphError, type QueryName, type QueryRequest, type QueryResult } from '../graph';
import { ArgumentError, checkedArgs, fail, nextPageOf, type QueryCall, type ToolAnswer } from './answer';
import { DEFAULT_MAX_BYTES, fitAnswer, MAX_LIMIT } from './budget';

/** Whom a question is about: the repository's graph (the default), or every repository in the store. */
export type QuestionScope = 'repository' | 'organisation';

/** The `scope` argument out of `args` (removed from it). */
export function scopeArg(args: Record<string, unknown>, scoped: boolean, storeFace = false): QuestionScope {
  const v = args.scope;
  if (v === undefined) return 'repository';
  // A question the store could answer, asked of the organisation with no store configured: how to configure one.
  if (!scoped && storeFace && v === 'organisation') throw new ArgumentError(NO_STORE);
  if (!scoped) throw new ArgumentError('unknown argument "scope"');
  if (v !== 'repository' && v !== 'organisation') throw new ArgumentError('"scope" must be "repository" or "organisation"');
  delete args.scope;
  return v;
}

const NO_STORE =
  'scope "organisation" needs the organisation store: start kg mcp with --store URL or set KG_STORE to its PostgreSQL connection string (docs/organisation.md). Without one, ask with scope "repository".';

/** Where the store module comes from, and what to say without a store: the editor loads its own (ADR 123). */
export interface OrganisationOptions {
  store?: typeof import('../graph/store');
  noStore?: string;
}

export async function answerOrganisationTool(
  call: QueryCall,
  url: string | undefined,
  opts: OrganisationOptions = {},
): Promise<ToolAnswer> {
  if (url === undefined || url === '') return fail(opts.noStore ?? NO_STORE);
  const { tool, shared } = call;
  const args = checkedArgs(call);
  const store = opts.store ?? (await import('../graph/store'));
  let result: QueryResult;
  try {
    const client = await store.connectStore(url);
    try {
      result = await store.answerFromStore(client, { query: tool.query as QueryName, ...args } as QueryRequest);
    } finally {
      await client.end().catch(() => undefined);
    }
  } catch (e) {
    const err = store.storeError(e, `answering ${tool.query}`);
    if (!isGraphError(err)) throw err;
    // An id in several repositories, a walk without one: say how to name one.
    if (err.code === 'INVALID_ARGUMENT') throw new ArgumentError(err.message);
    if (err.code === 'STORE_UNAVAILABLE' || err.code === 'STORE_SCHEMA')
      return fail(`The organisation store cannot answer: ${err.message}. Ask with scope "repository" meanwhile.`);
    throw err;
  }
  if (result.available === false) {
    const more = result.suggestions && result.suggestions.length > 0 ? ` Did you mean one of: ${result.suggestions.join(', ')}?` : '';
    return fail(`${result.reason}.${more} Ids in the organisation are qualified by repository (acme/web/sym:src/a.ts#run).`);
  }
  const fitted = fitAnswer(
    result as unknown as Record<string, unknown>,
    { offset: shared.offset, limit: tool.paged ? shared.limit : MAX_LIMIT, maxBytes: call.maxBytes ?? DEFAULT_MAX_BYTES },
    // The store has no working tree to place nodes in: the answer's ids name their repositories.
    () => undefined,
    nextPageOf(tool, args as Record<string, string>, call.entry),
  );
  const value: Record<string, unknown> = { ...fitted.answer };
  // Nothing is placed (no working tree): an empty map would only say so at length.
  if (Object.keys((value.locations as object | undefined) ?? {}).length === 0) delete value.locations;
  return { ok: true, value };
}
