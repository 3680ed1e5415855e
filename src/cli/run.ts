// The `kg` command: run(argv, io) → exit code. Only main.ts touches `process`.
// One table of commands: each names its summary, its help and how it runs; the top-level help,
// the dispatch and the usage errors all come from it (docs/cli.md).

import { KG_VERSION, LOADER_CHECKS, isGraphError, redactCredentials, visible, type GraphErrorCode } from '../graph';
import { BUILD_HELP, runBuild } from './build';
import { CACHE_HELP, runCache } from './cache';
import { CHECK_HELP, runCheck } from './check';
import { CONFIG_HELP, runConfig } from './config';
import { DIFF_HELP, runDiff } from './diff';
import { DOCTOR_HELP, runDoctorCommand } from './doctor';
import { EXPORT_HELP, runExport } from './export';
import { MCP_HELP, runMcp } from './mcp';
import { QUERY_COMMANDS } from './query';
import type { Command, RunContext } from './command';
import { SERVER_HELP, runServerCommand } from './server';
import { STATUS_HELP, runStatus } from './status';
import { STORE_HELP, runStore } from './store';
import { TESTS_HELP, runTests } from './tests';
import { EXIT, type CliIo } from './streams';

import { asksForHelp, UsageError, usageErrorText, wrap } from './usage';

const COMMANDS: readonly Command[] = [
  {
    name: 'build',
    group: 'command',
    summary: 'Build the knowledge graph (dry run unless --apply).',
    help: BUILD_HELP,
    run: (args, io, ctx) => runBuild(args, io, ctx.build, ctx.server),
  },
  {
    name: 'doctor',
    group: 'command',
    summary: 'Check a graph against the six invariants.',
    help: DOCTOR_HELP,
    run: (args, io) => runDoctorCommand(args, io),
  },
  {
    name: 'status',
    group: 'command',
    summary: 'List files changed since the graph was built.',
    help: STATUS_HELP,
    run: (args, io) => runStatus(args, io),
  },
  {
    name: 'server',
    group: 'command',
    summary: 'The background build server kg build uses: status, stop.',
    help: SERVER_HELP,
    run: (args, io, ctx) =>
      runServerCommand(args, io, ctx.server, (buildArgs, clientIo, build) => run(['build', ...buildArgs], clientIo, { build })),
  },
  {
    name: 'cache',
    group: 'command',
    summary: "The repository's graph cache, shared by its worktrees: status, prune.",
    help: CACHE_HELP,
    run: (args, io) => runCache(args, io),
  },
  {
    name: 'config',
    group: 'command',
    summary: 'The graph configuration as it resolves (mode, rules, problems).',
    help: CONFIG_HELP,
    run: (args, io) => runConfig(args, io),
  },
  {
    name: 'check',
    group: 'command',
    summary: 'Breaking changes against the graph, for CI (exit 1 in strict mode).',
    help: CHECK_HELP,
    run: (args, io) => runCheck(args, io),
  },
  {
    name: 'export',
    group: 'command',
    summary: 'Write the graph for another tool (neo4j), or draw part of it (mermaid, dot, svg).',
    help: EXPORT_HELP,
    run: (args, io) => runExport(args, io),
  },
  {
    name: 'store',
    group: 'command',
    summary: "The organisation's graph in PostgreSQL: migrate, push, the queries.",
    help: STORE_HELP,
    run: (args, io) => runStore(args, io),
  },
  {
    name: 'mcp',
    group: 'command',
    summary: 'Serve the graph to coding agents over MCP (stdio).',
    help: MCP_HELP,
    run: (args, io, ctx) => runMcp(args, io, ctx.stdio, ctx.server),
  },
  {
    name: 'diff',
    group: 'command',
    summary: 'What a change does to the graph, between two graphs or git refs (JSON or a PR comment).',
    help: DIFF_HELP,
    run: (args, io, ctx) => runDiff(args, io, ctx.server),
  },
  {
    name: 'tests',
    group: 'command',
    summary: 'The test files a change can reach, proven, guessed and through holes, with the path to each.',
    help: TESTS_HELP,
    run: (args, io, ctx) => runTests(args, io, ctx.server),
  },
  ...QUERY_COMMANDS,
];

function listing(group: Command['group']): string {
  return COMMANDS.filter((c) => c.group === group)
    .map((c) => `  ${c.name.padEnd(12)} ${c.summary}`)
    .join('\n');
}

const HELP = `Usage: kg <command> [options]

Commands:
${listing('command')}

Queries (JSON on stdout; read ./.knowledge-graph/graph.json unless --graph FILE):
${listing('query')}

${wrap(LOADER_CHECKS)}

Run "kg <command> --help" for a command's options.
`;

/** Bad input the user can fix (a missing root, no sources): exit 2 like a usage error. */
const BAD_INPUT: ReadonlySet<GraphErrorCode> = new Set(['ROOT_NOT_FOUND', 'NO_SOURCES', 'TSCONFIG_UNPARSABLE']);

export async function run(argv: string[], io: CliIo, ctx: RunContext = {}): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(HELP);
    return EXIT.USAGE;
  }
  if (name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(HELP);
    return EXIT.OK;
  }
  if (name === '--version' || name === '-V') {
    io.stdout.write(`kg ${KG_VERSION}\n`);
    return EXIT.OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`kg: unknown command "${name}"\n\n${HELP}`);
    return EXIT.USAGE;
  }
  if (asksForHelp(rest)) {
    io.stdout.write(command.help);
    return EXIT.OK;
  }
  try {
    return await command.run(rest, io, ctx);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(usageErrorText(command.name, e.message, command.help));
      return EXIT.USAGE;
    }
    if (isGraphError(e)) {
      io.stderr.write(`kg: error: ${visible(redactCredentials(e.message))}\n`);
      return BAD_INPUT.has(e.code) ? EXIT.USAGE : EXIT.FAILED;
    }
    // A store's password never reaches the terminal, even in a stack (issue 55, item 20).
    io.stderr.write(`kg: internal error: ${redactCredentials((e as Error)?.stack ?? String(e))}\n`);
    return EXIT.FAILED;
  }
}
