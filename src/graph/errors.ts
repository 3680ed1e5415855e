// Typed errors: callers map `code` to an exit code or a banner, never the message text.

export type GraphErrorCode =
  | 'ROOT_NOT_FOUND'
  | 'NO_SOURCES'
  | 'TSCONFIG_UNPARSABLE'
  | 'SUSPECTED_PARSE_FAILURE'
  | 'WRITE_FAILED'
  | 'BUILD_LOCKED'
  | 'GRAPH_INVALID'
  | 'CANCELLED'
  | 'INVALID_ARGUMENT'
  /** The organisation store (docs/organisation.md): unreachable or lost, at the wrong schema version, or a push refused. */
  | 'STORE_UNAVAILABLE'
  | 'STORE_SCHEMA'
  | 'PUSH_REFUSED';

export class GraphError extends Error {
  readonly code: GraphErrorCode;
  constructor(code: GraphErrorCode, message: string) {
    super(message);
    this.name = 'GraphError';
    this.code = code;
  }
}

/**
 * By name and code, not `instanceof`: the builder runs from its own bundle (dist/engine-build.js)
 * with its own copy of this class.
 */
export function isGraphError(e: unknown): e is GraphError {
  return e instanceof Error && e.name === 'GraphError' && typeof (e as { code?: unknown }).code === 'string';
}
