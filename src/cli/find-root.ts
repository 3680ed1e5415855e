// Which repository a command run without --root (or --graph) means: as git does, the nearest
// folder at or above the working directory that holds `.knowledge-graph/` or `.git`; failing
// both, the outermost one holding a tsconfig.json; failing that, the working directory itself.
// So `kg build` run from a subdirectory builds the repository's graph instead of writing a second
// graph there, and a query from a subdirectory reads it (ADR 79).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { GRAPH_DIR } from '../graph';

export interface FoundRoot {
  root: string;
  /** Why this folder: for the line a build prints when it is not the working directory. */
  why: string;
}

const exists = (p: string) => {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
};

export function findRepositoryRoot(cwd: string): FoundRoot {
  let outermostTsconfig: string | undefined;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (exists(path.join(dir, GRAPH_DIR))) return { root: dir, why: `the nearest folder with a ${GRAPH_DIR} folder` };
    if (exists(path.join(dir, '.git'))) return { root: dir, why: 'the nearest folder with .git' };
    if (exists(path.join(dir, 'tsconfig.json'))) outermostTsconfig = dir;
    if (path.dirname(dir) === dir) break;
  }
  if (outermostTsconfig !== undefined) return { root: outermostTsconfig, why: 'the outermost folder with a tsconfig.json' };
  return { root: path.resolve(cwd), why: 'the working directory' };
}
