// Where a command finds the graph and the repository it describes, from its arguments: --graph FILE, else
// <root>/.knowledge-graph/graph.json with --root (default: the repository around the working
// directory, find-root.ts). A graph inside
// a `.knowledge-graph` folder describes that folder's parent, so `--graph` alone is enough there.

import * as path from 'node:path';
import { defaultGraphFile, repositoryOfGraph } from '../graph';
import type { CliIo } from './streams';
import { findRepositoryRoot } from './find-root';

export function resolveGraphArguments(
  io: CliIo,
  graph: string | undefined,
  root: string | undefined,
): { graph: string; root: string; shown: string } {
  let rootAbs: string;
  let graphAbs: string;
  if (graph !== undefined) {
    graphAbs = path.resolve(io.cwd, graph);
    rootAbs = root !== undefined ? path.resolve(io.cwd, root) : (repositoryOfGraph(graphAbs) ?? io.cwd);
  } else {
    rootAbs = root !== undefined ? path.resolve(io.cwd, root) : findRepositoryRoot(io.cwd).root;
    graphAbs = defaultGraphFile(rootAbs);
  }
  return { graph: graphAbs, root: rootAbs, shown: path.relative(io.cwd, graphAbs) || graphAbs };
}
