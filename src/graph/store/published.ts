// Which packages a repository publishes, for the store's join of package-qualified targets (ADR 122):
// the package at its root, and the workspace packages its root package.json declares (`workspaces`,
// as npm and yarn write it: an array of folder patterns, or `{ packages: [...] }`). Any other
// package.json in the tree (test fixtures, examples, vendored copies) publishes nothing: claiming
// its name would take another repository's callers.

import * as path from 'node:path';
import picomatch from 'picomatch';
import { compareStrings } from '../model';
import type { FileHost } from '../indexer/files/file-host';
import { walk } from '../indexer/files/walk';
import type { PublishedPackage } from './push';

function readPackageJson(host: FileHost, file: string): { name?: unknown; workspaces?: unknown } | undefined {
  try {
    const v = JSON.parse(new TextDecoder().decode(host.readFile(file)).replace(/^\uFEFF/, '')) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as { name?: unknown; workspaces?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** The folder patterns of a root package.json's `workspaces`, without a trailing `/`. */
function workspacePatterns(workspaces: unknown): string[] {
  const list = Array.isArray(workspaces)
    ? workspaces
    : workspaces !== null && typeof workspaces === 'object' && Array.isArray((workspaces as { packages?: unknown }).packages)
      ? ((workspaces as { packages: unknown[] }).packages as unknown[])
      : [];
  return list.filter((p): p is string => typeof p === 'string' && p !== '').map((p) => p.replace(/^\.\//, '').replace(/\/+$/, ''));
}

/** The packages the repository at `root` publishes, root first, then by folder; each name once. */
export function publishedPackages(host: FileHost, root: string): PublishedPackage[] {
  const top = readPackageJson(host, path.posix.join(root, 'package.json'));
  if (!top) return [];
  const out: PublishedPackage[] = [];
  const seen = new Set<string>();
  const add = (name: unknown, folder: string) => {
    if (typeof name !== 'string' || name === '' || seen.has(name)) return;
    seen.add(name);
    out.push({ name, root: folder });
  };
  add(top.name, '');
  const patterns = workspacePatterns(top.workspaces);
  if (patterns.length === 0) return out;
  const isMatch = picomatch(
    patterns.filter((p) => !p.startsWith('!')),
    { ignore: patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1)) },
  );
  const folders = walk(host, root)
    .packageJsonFiles.map((f) => path.posix.dirname(f))
    .filter((d) => d !== '.' && isMatch(d))
    .sort(compareStrings);
  for (const d of folders) add(readPackageJson(host, path.posix.join(root, d, 'package.json'))?.name, d);
  return out;
}
