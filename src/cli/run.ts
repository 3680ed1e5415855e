// The `kg` command: run(argv, io) → exit code. Only main.ts touches `process`.

import { KG_VERSION, isGraphError, type GraphErrorCode } from '../graph';
import { BUILD_HELP, runBuild } from './build';
import { DOCTOR_HELP, runDoctorCommand } from './doctor';
import { STATUS_HELP, runStatus } from './status';
import { SERVE_HELP, runServe } from './serve';
import { SERVER_HELP, runServerCommand, type BuildContext, type ServerContext } from './server';
import { isQueryCommand, queryCommandsHelp, runQuery } from './query';
import { EXIT, type CliIo } from './streams';

export const HELP = `Usage: kg <command> [options]

Commands:
  build        Build the knowledge graph (dry run unless --apply).   kg build --help
  doctor       Check a graph against the six invariants.            kg doctor --help
  status       List files changed since the graph was built.        kg status --help
  serve        Keep a build alive for an editor (JSON lines on stdin).  kg serve --help
  server       The background build server kg build uses: status, stop.  kg server --help

Queries (JSON on stdout; read ./.knowledge-graph/graph.json unless --graph FILE):
${queryCommandsHelp()}

Run "kg <command> --help" for a command's options.
`;

const BAD_INPUT: ReadonlySet<GraphErrorCode> = new Set(['ROOT_NOT_FOUND', 'NO_SOURCES', 'TSCONFIG_UNPARSABLE']);

function isUsageError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/**
 * `server` is set by main.ts (the kg command itself: builds may use a build server); `build` by a
 * build server running a client's `kg build`.
 */
export async function run(argv: string[], io: CliIo, ctx: { server?: ServerContext; build?: BuildContext } = {}): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.stderr.write(HELP);
        return EXIT.USAGE;
      case '-h':
      case '--help':
      case 'help':
        io.stdout.write(HELP);
        return EXIT.OK;
      case '--version':
      case '-V':
        io.stdout.write(`kg ${KG_VERSION}\n`);
        return EXIT.OK;
      case 'build':
        return await runBuild(rest, io, ctx.build, ctx.server);
      case 'doctor':
        return runDoctorCommand(rest, io);
      case 'status':
        return runStatus(rest, io);
      case 'serve':
        return await runServe(rest, io);
      case 'server':
        return await runServerCommand(rest, io, ctx.server, (args, clientIo, build) => run(['build', ...args], clientIo, { build }));
      default:
        if (isQueryCommand(command)) return runQuery(command, rest, io);
        io.stderr.write(`kg: unknown command "${command}"\n\n${HELP}`);
        return EXIT.USAGE;
    }
  } catch (e) {
    if (isUsageError(e)) {
      const help = command === 'build' ? BUILD_HELP : command === 'doctor' ? DOCTOR_HELP : command === 'status' ? STATUS_HELP : command === 'serve' ? SERVE_HELP : command === 'server' ? SERVER_HELP : HELP;
      io.stderr.write(`kg: ${(e as Error).message}\n\n${help}`);
      return EXIT.USAGE;
    }
    if (isGraphError(e)) {
      io.stderr.write(`kg: error: ${e.message}\n`);
      return BAD_INPUT.has(e.code) ? EXIT.USAGE : EXIT.FAILED;
    }
    io.stderr.write(`kg: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    return EXIT.FAILED;
  }
}
