// `kg status`: which files changed, were added or were deleted since the graph was built,
// from the manifest's fingerprints against the working tree. It only reads.

import { graphStatus, readPrevious } from '../graph';
import { resolveGraphArguments } from './graph-arguments';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs } from './usage';

export const STATUS_HELP = `Usage: kg status [--graph FILE] [--root DIR]

Compares the fingerprints recorded when the graph was built (graph.manifest.json, beside it)
with the working tree, and prints JSON:

  {"available": true, "graph": "...", "stale": true, "changedFiles": [...],
   "changed": [...], "added": [...], "deleted": [...]}

changedFiles is every path in the other three lists. Paths are the repository's source files
and the other files that shape a build (tsconfig/jsconfig, package.json, .gitignore, lockfiles).

Options:
${optionLines([COMMON_OPTIONS.graph, COMMON_OPTIONS.root, COMMON_OPTIONS.help])}

Exit codes: 0 answered (stale or not), 2 bad usage or a missing root, 3 unavailable (no graph,
or no manifest that describes it): {"available": false, "reason": "..."}.
`;

export function runStatus(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    graph: { type: 'string' },
    root: { type: 'string' },
  });
  const { graph, root, shown } = resolveGraphArguments(io, values.graph, values.root);
  const status = graphStatus(root, readPrevious(graph));
  if (!status.available) {
    // The same `code` a query carries when it has no graph (NO_GRAPH), or cannot trust it (UNPARSABLE).
    const code = readPrevious(graph).graphText === undefined ? 'NO_GRAPH' : 'UNPARSABLE';
    io.stdout.write(JSON.stringify({ available: false, code, graph: shown, reason: status.reason }) + '\n');
    return EXIT.UNAVAILABLE;
  }
  const { stale, changedFiles, changed, added, deleted } = status;
  io.stdout.write(JSON.stringify({ available: true, graph: shown, stale, changedFiles, changed, added, deleted }) + '\n');
  return EXIT.OK;
}
