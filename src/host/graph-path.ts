// Where a folder's graph lives: the `knowledgeGraph.graphPath` setting, relative to the folder.
// Building writes only inside the folder (the promise package.json makes for untrusted
// workspaces), so a setting that points outside it — by `..`, an absolute path or a symbolic
// link — is refused with a reason rather than followed. No `vscode` here: unit-tested in Node.

import * as fs from 'node:fs';
import * as path from 'node:path';

import { DEFAULT_GRAPH_PATH } from '../graph';

export { DEFAULT_GRAPH_PATH };

export type GraphPathResult = { ok: true; path: string } | { ok: false; reason: string };

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The nearest ancestor of `p` (itself included) that exists, resolved through links. */
function realAncestor(p: string): string {
  let cur = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync(cur), path.relative(cur, p));
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return p;
      cur = up;
    }
  }
}

export function resolveGraphPath(folder: string, setting: string | undefined): GraphPathResult {
  const value = (setting ?? '').trim() || DEFAULT_GRAPH_PATH;
  if (path.isAbsolute(value) || /^[a-zA-Z]:[\\/]/.test(value)) {
    return { ok: false, reason: `knowledgeGraph.graphPath must be relative to the workspace folder, not "${value}"` };
  }
  const target = path.resolve(folder, value);
  if (!inside(folder, target)) {
    return { ok: false, reason: `knowledgeGraph.graphPath "${value}" points outside the workspace folder` };
  }
  let realFolder = folder;
  try {
    realFolder = fs.realpathSync(folder);
  } catch {
    return { ok: false, reason: `the workspace folder ${folder} does not exist` };
  }
  if (!inside(realFolder, realAncestor(target))) {
    return { ok: false, reason: `knowledgeGraph.graphPath "${value}" leads outside the workspace folder through a symbolic link` };
  }
  return { ok: true, path: target };
}

/**
 * A repo-relative path from the graph as a file inside the workspace folder, resolved through
 * symbolic links: refused when it leaves the folder by `..`, an absolute path or a link (a
 * committed graph may name `src/passwd.ts` where that is a link to /etc/passwd). The indexer never
 * follows links (ADR 2); what the editor opens for a graph never does either.
 */
export function fileInsideFolder(folder: string, file: string): GraphPathResult {
  const norm = path.posix.normalize(file);
  if (norm === '..' || norm.startsWith('../') || path.posix.isAbsolute(norm) || /^[a-zA-Z]:[\\/]/.test(norm)) {
    return { ok: false, reason: `${file} is not a path inside the workspace folder` };
  }
  const target = path.join(folder, ...norm.split('/'));
  let realFolder: string;
  try {
    realFolder = fs.realpathSync(folder);
  } catch {
    return { ok: false, reason: `the workspace folder ${folder} does not exist` };
  }
  const real = realAncestor(target);
  if (real !== realFolder && !inside(realFolder, real)) {
    return { ok: false, reason: `${file} leads outside the workspace folder through a symbolic link` };
  }
  return { ok: true, path: target };
}
