// One connection to the store with the official `pg` client. Whatever goes wrong below SQL — no
// server, a refused or dropped connection, a server shutting down — becomes one GraphError,
// STORE_UNAVAILABLE, with a message that says what happened and that nothing was changed by a
// write that did not commit.

import { Client } from 'pg';
import { GraphError, isGraphError } from '../errors';
import { redactCredentials } from '../io/display';

/**
 * SQLSTATE classes that mean the store cannot be used, not that the SQL was wrong: the connection
 * or the server went away (08, 57P), the login was refused — a wrong password, no pg_hba.conf
 * entry (28) — or the database is not there (3D). A refused login was an internal error with a
 * stack trace and exit 1 (issue 55, item 21); docs/cli.md says exit 3, STORE_UNAVAILABLE.
 */
const LOST = /^(08|57P|28|3D)/;

/** Where the store is, for messages: the connection string without its passwords (redactCredentials, ADR 146). */
function describeStore(url: string): string {
  return redactCredentials(url);
}

/** The error a failure of the store is reported as; any other error passes through unchanged. */
export function storeError(e: unknown, doing: string): unknown {
  if (isGraphError(e)) return e;
  const err = e as { code?: unknown; message?: unknown; severity?: unknown };
  const code = typeof err.code === 'string' ? err.code : '';
  const message = typeof err.message === 'string' ? err.message : String(e);
  // The server's errors carry a severity and a SQLSTATE; a socket's (EPIPE, ECONNRESET) neither.
  const isSql = typeof err.severity === 'string' && /^[0-9A-Z]{5}$/.test(code);
  if (!isSql || LOST.test(code)) {
    return new GraphError(
      'STORE_UNAVAILABLE',
      redactCredentials(`the store could not be used while ${doing}: ${message}${code ? ` (${code})` : ''}`),
    );
  }
  return e;
}

export interface ConnectOptions {
  /** How long to wait for the connection (default 15 s). */
  connectTimeoutMs?: number;
  /** How long any one query may take before it fails (default: no limit). */
  queryTimeoutMs?: number;
  /** The application_name the server shows for the connection (default `kg`). */
  application?: string;
}

export async function connectStore(url: string, opts: ConnectOptions = {}): Promise<Client> {
  let client: Client;
  try {
    client = new Client({
      connectionString: url,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 15_000,
      ...(opts.queryTimeoutMs !== undefined ? { query_timeout: opts.queryTimeoutMs } : {}),
      application_name: opts.application ?? 'kg',
    });
  } catch (e) {
    // A connection string the client cannot parse threw a bare TypeError ("Invalid URL") that kg
    // reported as its own bug (issue 55, item 21).
    throw new GraphError(
      'STORE_UNAVAILABLE',
      `the store's connection string cannot be read (${(e as Error)?.message ?? String(e)}): ${describeStore(url)}; it is a PostgreSQL URL, e.g. postgresql://kg@db.internal/graphs`,
    );
  }
  // A server that goes away between queries emits 'error' on the idle client; the next query
  // reports it, so the event itself must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    throw storeError(e, `connecting to ${describeStore(url)}`);
  }
  return client;
}
