// One connection to the store with the official `pg` client. Whatever goes wrong below SQL — no
// server, a refused or dropped connection, a server shutting down — becomes one GraphError,
// STORE_UNAVAILABLE, with a message that says what happened and that nothing was changed by a
// write that did not commit.

import { Client } from 'pg';
import { GraphError, isGraphError } from '../errors';

/** SQLSTATE classes that mean the connection or the server went away, not that the SQL was wrong. */
const LOST = /^(08|57P)/;

/** Where the store is, for messages: the URL without its password. */
function describeStore(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable connection string)';
  }
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
      `the store could not be used while ${doing}: ${message}${code && !isSql ? ` (${code})` : ''}`,
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
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 15_000,
    ...(opts.queryTimeoutMs !== undefined ? { query_timeout: opts.queryTimeoutMs } : {}),
    application_name: opts.application ?? 'kg',
  });
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
