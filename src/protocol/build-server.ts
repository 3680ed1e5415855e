// The wire between `kg build` and the repository's build server (docs/build-server.md).
// UTF-8 JSON, one object per line ("\n"), over the server's private socket.
//   Sender of BuildRequest: the `kg build` client (src/cli/server.ts, buildOnServer), once, first.
//   Sender of BuildReply:   the server (`kg server run`), many `stdout`/`stderr` chunks, then
//                           exactly one `exit` (the build's code) or `refused` (the client builds
//                           itself).
// The client closing its end before `exit` cancels the build (checked before anything is
// written); a server that closes before `exit` leaves the client to build itself. Each side
// validates what it reads with the parser below. A change here changes BUILD_SERVER_PROTOCOL,
// which is part of the socket's name, so an old client never talks to a new server.

export const BUILD_SERVER_PROTOCOL = 2;

/** client → server: the arguments of `kg build` and the directory they are relative to. */
export interface BuildRequest {
  kg: typeof BUILD_SERVER_PROTOCOL;
  argv: string[];
  cwd: string;
}

/** server → client. */
export type BuildReply =
  | { type: 'stdout'; text: string }
  | { type: 'stderr'; text: string }
  | { type: 'exit'; code: number }
  | { type: 'refused'; reason: string };

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The request a line holds, or why it is not one this server understands. */
export function parseBuildRequest(line: string): BuildRequest | { refused: string } {
  const v = parseObject(line);
  if (!v) return { refused: 'not a request' };
  if (v.kg !== BUILD_SERVER_PROTOCOL || !Array.isArray(v.argv) || !v.argv.every((a) => typeof a === 'string') || typeof v.cwd !== 'string')
    return { refused: 'a request this server does not understand' };
  return { kg: BUILD_SERVER_PROTOCOL, argv: v.argv as string[], cwd: v.cwd };
}

/** The reply a line holds, or undefined for a line that is not one (ignored by the client). */
export function parseBuildReply(line: string): BuildReply | undefined {
  const v = parseObject(line);
  if (!v) return undefined;
  switch (v.type) {
    case 'stdout':
    case 'stderr':
      return typeof v.text === 'string' ? { type: v.type, text: v.text } : undefined;
    case 'exit':
      return typeof v.code === 'number' && Number.isInteger(v.code) ? { type: 'exit', code: v.code } : undefined;
    case 'refused':
      return typeof v.reason === 'string' ? { type: 'refused', reason: v.reason } : undefined;
    default:
      return undefined;
  }
}
