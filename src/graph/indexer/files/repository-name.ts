// The repository a graph describes (ADR 108): `repository` in `.knowledge-graph/config.json`, else
// the root package.json's `name`, else none. Spelled like an npm package name, so it can never be a
// host path, and the same on every machine that builds the tree.

import type { BuildDiagnostic } from '../../model';
import type { FileHost } from './file-host';
import { CONFIG_FILE, readRepositoryConfig } from './repository-config';

/** An npm package name's spelling (lower case, an optional scope), at most 214 characters. */
const NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

function valid(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 214 && NAME.test(v);
}

/** The repository's key, or undefined when neither the config nor the root package.json names one. */
export function repositoryName(host: FileHost, root: string, diagnostics: BuildDiagnostic[]): string | undefined {
  const configured = readRepositoryConfig(host, root).value.repository;
  if (configured !== undefined) {
    if (valid(configured)) return configured;
    diagnostics.push({
      path: CONFIG_FILE,
      reason: `config: "repository" must be a package name such as "@acme/web" (found ${JSON.stringify(configured).slice(0, 60)}); using the package name`,
    });
  }
  try {
    const st = host.stat(root + '/package.json');
    if (st?.type !== 'file') return undefined;
    const pkg = JSON.parse(new TextDecoder('utf-8').decode(host.readFile(root + '/package.json'))) as { name?: unknown };
    return valid(pkg.name) ? pkg.name : undefined;
  } catch {
    return undefined; // a package.json that does not parse names nothing
  }
}
