// What `kg build` checks of --root and --out before it reads or builds anything, so a mistyped
// path is bad usage (exit 2) with a plain sentence, never a file-system error from half-way.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { GraphError } from '../graph';
import { UsageError } from './usage';

/** Throws when --root is not a folder, or --out is empty or names a folder. */
export function checkBuildPaths(cwd: string, root: string | undefined, out: string | undefined): void {
  const r = path.resolve(cwd, root ?? '.');
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(r);
  } catch {
    throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${root ?? cwd} (it does not exist)`);
  }
  if (!st.isDirectory()) throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${root ?? cwd}`);
  if (out === undefined) return;
  if (out.trim() === '') throw new UsageError('--out must name a file (it is empty)');
  try {
    if (fs.statSync(path.resolve(cwd, out)).isDirectory())
      throw new UsageError(`--out must name a file, not a folder: ${out} (for example ${path.join(out, 'graph.json')})`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    // a graph that does not exist yet is what --out usually names
  }
}
