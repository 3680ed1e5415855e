// The editor's reading of the organisation store (docs/adr/0123-the-lens-counts-callers-in-other-repositories.md):
// with `knowledgeGraph.store` set, each callers lens adds the symbol's callers in the other
// repositories of the store — the ones `kg store callers <repository>/<id>` lists beyond the
// repository's own (ADR 122). The store module, and the `pg` client in it, load only when a store
// is set (esbuild.mjs splits them into dist/store.js). One connection per store, kept while the
// editor runs; answers are kept a little while, so scrolling a file does not ask again.

import type * as StoreModule from '../graph/store';

type Store = typeof StoreModule;
type Client = Awaited<ReturnType<Store['connectStore']>>;

/** What the store says of one symbol's callers elsewhere; `unknown` says why nothing is counted. */
export type OtherCallers =
  { kind: 'counted'; callers: number; candidates: number; repositories: number } | { kind: 'unknown'; reason: string };

/** How long an answer stands before the store is asked again; an `unknown` one, less. */
const FRESH_MS = 30_000;
const RETRY_MS = 5_000;
/** A lens waits this long for the store; a slower store's count comes with a refresh. */
const CONNECT_MS = 5_000;
const QUERY_MS = 5_000;

let store: Store | undefined;
/** The store module, loaded on first use. */
export function loadStore(): Store {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the lazy load esbuild.mjs splits into dist/store.js
  store ??= require('../graph/store') as Store;
  return store;
}

function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class StoreCallers {
  private readonly clients = new Map<string, Promise<Client>>();
  private readonly answers = new Map<string, { at: number; value: OtherCallers }>();

  /** The answers for `ids`, symbols of `repository`, from the store at `url`: cached, else one query for all. */
  async counts(url: string, repository: string, ids: readonly string[]): Promise<OtherCallers[]> {
    const now = Date.now();
    const key = (id: string) => `${url}\u0000${repository}\u0000${id}`;
    const cached = (id: string) => {
      const a = this.answers.get(key(id));
      return a && now - a.at < (a.value.kind === 'counted' ? FRESH_MS : RETRY_MS) ? a.value : undefined;
    };
    const missing = [...new Set(ids.filter((id) => cached(id) === undefined))];
    if (missing.length > 0) {
      const got = await this.ask(url, repository, missing);
      const at = Date.now();
      missing.forEach((id, i) => this.answers.set(key(id), { at, value: got[i] }));
    }
    return ids.map((id) => (this.answers.get(key(id)) as { value: OtherCallers }).value);
  }

  private async ask(url: string, repository: string, ids: string[]): Promise<OtherCallers[]> {
    let client: Client;
    try {
      client = await this.client(url);
    } catch (e) {
      return ids.map(() => ({ kind: 'unknown', reason: reasonOf(e) }));
    }
    try {
      const s = loadStore();
      const r = await s.otherRepositoryCallers(client, repository, ids);
      if (!r) {
        const reason = `the store holds no repository "${repository}": push its graph with "kg store push"`;
        return ids.map(() => ({ kind: 'unknown', reason }));
      }
      return ids.map((id) => ({ kind: 'counted', ...(r.get(id) as { callers: number; candidates: number; repositories: number }) }));
    } catch (e) {
      // A connection that failed is dropped; the next question opens a new one.
      this.drop(url);
      const err = loadStore().storeError(e, 'counting callers in other repositories');
      return ids.map(() => ({ kind: 'unknown', reason: reasonOf(err) }));
    }
  }

  private client(url: string): Promise<Client> {
    let c = this.clients.get(url);
    if (!c) {
      c = loadStore().connectStore(url, { connectTimeoutMs: CONNECT_MS, queryTimeoutMs: QUERY_MS, application: 'kg-editor' });
      this.clients.set(url, c);
      c.catch(() => this.clients.delete(url));
    }
    return c;
  }

  private drop(url: string): void {
    const c = this.clients.get(url);
    this.clients.delete(url);
    void c?.then((x) => x.end()).catch(() => undefined);
  }

  dispose(): void {
    for (const url of [...this.clients.keys()]) this.drop(url);
    this.answers.clear();
  }
}

/** The lens's words for the callers elsewhere, appended to its own count; '' when there are none. */
export function otherCallersTitle(o: OtherCallers): string {
  if (o.kind === 'unknown') return ' · other repositories: unknown';
  if (o.callers === 0) return '';
  return ` · ${o.callers} in ${o.callers === 1 ? 'another repository' : 'other repositories'}`;
}

/** The lens's tooltip line for the callers elsewhere. */
export function otherCallersTooltip(o: OtherCallers, repository: string, id: string): string {
  const ask = `kg store callers '${repository}/${id}'`;
  if (o.kind === 'unknown') return `Callers in other repositories are unknown: ${o.reason}.`;
  const guessed = o.candidates > 0 ? `, and ${o.candidates} guessed` : '';
  if (o.callers === 0) return `No proven caller in the other repositories of the store${guessed} (${ask}).`;
  return `${o.callers} proven ${o.callers === 1 ? 'caller' : 'callers'} in ${o.repositories} other ${o.repositories === 1 ? 'repository' : 'repositories'} of the store${guessed}, through the packages this repository publishes (${ask}).`;
}
