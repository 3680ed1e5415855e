// The repository's own configuration, `.knowledge-graph/config.json` (docs/configuration.md). This reader is
// generic: it returns the parsed object and never throws; each feature validates its own keys
// with the helpers below and turns every problem into a diagnostic plus its default, so a bad
// config can degrade a feature but never fail a build.

import * as path from 'node:path';
import type { BuildDiagnostic } from '../../model';
import type { FileHost } from './file-host';
import { GRAPH_DIR } from '../../io/graph-location';
import { previewJson } from '../../io/display';

export const CONFIG_FILE = `${GRAPH_DIR}/config.json`;

export interface RepositoryConfig {
  /** The parsed top-level object; `{}` when the file is absent or unusable. */
  value: Record<string, unknown>;
  /** Problems reading or parsing the file, as build diagnostics on CONFIG_FILE. */
  diagnostics: BuildDiagnostic[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads `<root>/.knowledge-graph/config.json`. Absent → `{}` without a diagnostic. */
export function readRepositoryConfig(host: FileHost, root: string): RepositoryConfig {
  const abs = root + '/' + CONFIG_FILE;
  const st = host.stat(abs);
  if (!st) return { value: {}, diagnostics: [] };
  const problem = (reason: string): RepositoryConfig => ({
    value: {},
    diagnostics: [{ path: CONFIG_FILE, reason: `config: ${reason}; using defaults` }],
  });
  if (st.type !== 'file') return problem('not a regular file');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(host.readFile(abs));
  } catch (e) {
    const code = (e as { code?: unknown })?.code;
    return problem(typeof code === 'string' ? `unreadable (${code})` : 'not valid UTF-8');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not the parser's message: it differs between Node versions, and the graph must not.
    return problem('not valid JSON');
  }
  if (!isObject(parsed)) return problem('the top level must be an object');
  return { value: parsed, diagnostics: [] };
}

/** The top-level keys of the config a build reads: the walk's, the rationale layer's, the repository name (ADR 126), the entry patterns (ADR 157). */
const BUILD_CONFIG_KEYS = ['entries', 'files', 'rationale', 'repository'] as const;

/**
 * What of the config a build reads, as text (ADR 126): the build keys' values in a fixed order, or
 * the build's diagnostics when the file cannot be used (any unusable text builds the same graph
 * with the same diagnostic). Undefined when the file is absent or holds only what the editor and
 * the other commands read (`graph`, `level`, …): then it is no input of the build, and changing it
 * leaves the graph fresh.
 */
export function buildConfigInput(host: FileHost, root: string): string | undefined {
  const c = readRepositoryConfig(host, root);
  if (c.diagnostics.length > 0) return JSON.stringify({ unusable: c.diagnostics.map((d) => d.reason) });
  const picked = BUILD_CONFIG_KEYS.filter((k) => c.value[k] !== undefined).map((k) => [k, c.value[k]]);
  if (picked.length === 0) return undefined;
  try {
    return 'keys:' + JSON.stringify(picked);
  } catch {
    // Nested too deep to write out again (the build ignores what it cannot walk): the file's text.
    return 'text:' + new TextDecoder().decode(host.readFile(root + '/' + CONFIG_FILE));
  }
}

/** A section (an object-valued key) of the config; a diagnostic and `{}` when it is not an object. */
export function configSection(config: Record<string, unknown>, key: string, diagnostics: BuildDiagnostic[]): Record<string, unknown> {
  const v = config[key];
  if (v === undefined) return {};
  if (isObject(v)) return v;
  diagnostics.push({ path: CONFIG_FILE, reason: `config: "${key}" must be an object; using defaults` });
  return {};
}

/** Reports keys of a section that nobody reads (most often a typo). */
export function reportUnknownKeys(
  section: Record<string, unknown>,
  sectionName: string,
  known: readonly string[],
  diagnostics: BuildDiagnostic[],
): void {
  for (const k of Object.keys(section).sort()) {
    if (!known.includes(k))
      diagnostics.push({ path: CONFIG_FILE, reason: `config: unknown key "${sectionName}.${k}" (known: ${known.join(', ')})` });
  }
}

/**
 * A repository-relative path as a config may write it (`./docs/adr/`, `docs/adr`, `.`), normalised
 * to the graph's form (`docs/adr`; '' for the root). Undefined when it is absolute, leaves the
 * repository or uses backslashes.
 */
function normaliseRepoPath(raw: string): string | undefined {
  const p = raw.trim();
  if (p === '' || p.includes('\\') || p.startsWith('/') || /^[A-Za-z]:/.test(p)) return undefined;
  const n = path.posix.normalize(p).replace(/\/+$/, '');
  if (n === '..' || n.startsWith('../')) return undefined;
  return n === '.' ? '' : n;
}

/** A list of repository-relative paths; each bad entry, or a value that is not a list, is reported. */
export function repoPathList(
  section: Record<string, unknown>,
  sectionName: string,
  key: string,
  fallback: readonly string[],
  diagnostics: BuildDiagnostic[],
): string[] {
  const v = section[key];
  if (v === undefined) return [...fallback];
  const where = `${sectionName}.${key}`;
  if (!Array.isArray(v)) {
    diagnostics.push({ path: CONFIG_FILE, reason: `config: "${where}" must be a list of repository-relative paths; using the default` });
    return [...fallback];
  }
  const out = new Set<string>();
  for (const entry of v) {
    const n = typeof entry === 'string' ? normaliseRepoPath(entry) : undefined;
    if (n === undefined) {
      diagnostics.push({
        path: CONFIG_FILE,
        reason: `config: "${where}" entry ${previewJson(entry)} is not a repository-relative path; ignored`,
      });
    } else {
      out.add(n);
    }
  }
  return [...out].sort();
}
