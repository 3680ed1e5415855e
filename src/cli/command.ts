// What an entry of the command table is (run.ts holds the table): kept apart so that the files
// that contribute entries (query.ts) need not import the table they are part of.

import type { BuildContext, ServerContext } from './server';
import type { CliIo } from './streams';

export interface RunContext {
  /** Set by main.ts (the kg command itself): builds may use a build server. */
  server?: ServerContext;
  /** Set by a build server running a client's `kg build`. */
  build?: BuildContext;
}

export interface Command {
  name: string;
  /** One line for `kg --help`. */
  summary: string;
  /** `kg <name> --help`: starts with its usage lines, then a blank line. */
  help: string;
  /** Queries are listed apart: they read a graph and print JSON. */
  group: 'command' | 'query';
  run(args: string[], io: CliIo, ctx: RunContext): number | Promise<number>;
}
