// The whole list of a build's non-source inputs, which needs the compiler's config parser to follow
// `extends` chains (manifest.ts stays free of the compiler for the staleness check).

import * as path from 'node:path';
import * as ts from 'typescript';
import { compareStrings } from '../../model';
import type { Discovery } from './discover';
import type { FileHost } from '../files/file-host';
import { KG_VERSION, walkInputPaths, type Manifest } from '../files/manifest';

export function engineOf(): Manifest['engine'] {
  return { kg: KG_VERSION, typescript: ts.version };
}

/**
 * Every non-source file whose content can change what a build produces: the configs (and the
 * configs they extend, when inside the repository), package.json files (module format, workspace
 * packages, `exports`), .gitignore files and .git/info/exclude (what is discovered), lockfiles
 * (an install changes what resolves into node_modules), the repository's
 * .knowledge-graph/config.json when it holds anything a build reads (ADR 126). Repo-relative, sorted.
 */
export function buildInputPaths(host: FileHost, d: Discovery): string[] {
  const out = walkInputPaths(host, d);
  for (const p of d.projects) if (p.configPath !== '') out.add(p.configPath);
  // Follow `extends` chains of every config to files inside the repository.
  const queue = [...out].filter((p) => /(^|\/)[jt]sconfig[^/]*\.json$/.test(p));
  while (queue.length > 0) {
    const rel = queue.shift() as string;
    for (const ext of extendedConfigs(host, d.root, rel)) {
      if (!out.has(ext)) {
        out.add(ext);
        queue.push(ext);
      }
    }
  }
  return [...out].sort(compareStrings);
}

/** The repo-relative configs a config's `extends` names (relative paths, or packages under the root's node_modules). */
function extendedConfigs(host: FileHost, root: string, rel: string): string[] {
  let text: string;
  try {
    text = new TextDecoder().decode(host.readFile(root + '/' + rel));
  } catch {
    return [];
  }
  const parsed = ts.parseConfigFileTextToJson(rel, text).config as { extends?: unknown } | undefined;
  const ext = parsed?.extends;
  const specs = typeof ext === 'string' ? [ext] : Array.isArray(ext) ? ext.filter((x): x is string => typeof x === 'string') : [];
  const out: string[] = [];
  for (const spec of specs) {
    const base =
      spec.startsWith('.') || spec.startsWith('/')
        ? path.posix.resolve(path.posix.dirname(root + '/' + rel), spec)
        : root + '/node_modules/' + spec;
    for (const candidate of [base, base + '.json', base + '/tsconfig.json']) {
      if (candidate.startsWith(root + '/') && host.stat(candidate)?.type === 'file') {
        out.push(candidate.slice(root.length + 1));
        break;
      }
    }
  }
  return out;
}
