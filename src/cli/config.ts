// `kg config`: the repository's graph configuration as it resolves — requested and resolved mode,
// the row of the resolution table that decided, and every problem found (docs/configuration.md).
// It reads one small file and never loads the compiler.

import * as path from 'node:path';
import { GraphError, nodeFileHost, readGraphConfig, visible } from '../graph';
import { findRepositoryRoot } from './find-root';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs } from './usage';

export const CONFIG_HELP = `Usage: kg config [--root DIR]

Reads <root>/.knowledge-graph/config.json and prints how it resolves, as JSON:

  {"configFile": ".knowledge-graph/config.json", "found": true,
   "requested": {"enabled", "mode", "humanFlip", "autoIndex", "level"},
   "resolved":  {"enabled", "mode", "humanFlip", "autoIndex", "level"},
   "rule": "guarded-without-human-flip", "ruleText": "...", "problems": ["..."]}

The mode resolves by the first matching row (never higher than requested; anything malformed
clamps toward off/advisory and is listed in "problems"):
  disabled                    "enabled" is not exactly true          → off
                              (missing from a file that exists counts: only a repository with
                              no config file at all gets the shipped defaults)
  level-below-4               level below 4                          → off
  guarded-below-level-7       guarded or strict below level 7        → advisory
  guarded-without-human-flip  guarded or strict without humanFlip    → advisory
  as-requested                anything else                          → as requested

Options:
${optionLines([COMMON_OPTIONS.root, COMMON_OPTIONS.help], 15)}

Exit codes: 0 printed (problems included: they are part of the answer), 2 bad usage or a
missing root.
`;

export function runConfig(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    root: { type: 'string' },
  });
  const root = values.root !== undefined ? path.resolve(io.cwd, values.root) : findRepositoryRoot(io.cwd).root;
  const host = nodeFileHost;
  const rootPosix = root.split(path.sep).join('/');
  if (host.stat(rootPosix)?.type !== 'directory') {
    throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${root}`);
  }
  const report = readGraphConfig(host, rootPosix);
  for (const p of report.problems) io.stderr.write(`kg: note: ${report.configFile}: ${visible(p)}\n`);
  io.stdout.write(JSON.stringify(report) + '\n');
  return EXIT.OK;
}
