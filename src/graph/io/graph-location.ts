// Where a repository's graph lives, and which repository a graph describes: the one definition
// the CLI, the extension host and the builder share (docs/cli.md, "Where the graph lives").

import * as path from 'node:path';

/** The folder, at a repository's root, that holds its graph, manifest and configuration. */
export const GRAPH_DIR = '.knowledge-graph';

/** The default graph location, relative to the repository root (POSIX, as settings spell it). */
export const DEFAULT_GRAPH_PATH = `${GRAPH_DIR}/graph.json`;

/** The default graph file of a repository root. */
export function defaultGraphFile(root: string): string {
  return path.join(root, GRAPH_DIR, 'graph.json');
}

/**
 * The repository a graph file describes when nothing else says: a graph inside a
 * `.knowledge-graph` folder describes that folder's parent. Undefined for a graph elsewhere.
 */
export function repositoryOfGraph(graphFile: string): string | undefined {
  const dir = path.dirname(path.resolve(graphFile));
  return path.basename(dir) === GRAPH_DIR ? path.dirname(dir) : undefined;
}
