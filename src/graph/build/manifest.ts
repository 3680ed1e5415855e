// The manifest beside graph.json: what the graph was built from. Each file's SHA-256 and import
// references (so an incremental build re-resolves imports without parsing unchanged files), the
// fingerprints of everything else that shapes a build (tsconfigs, package.json files,
// .gitignore files, lockfiles), the engine and options, and the SHA-256 of the graph.json it
// describes. It is written after the graph, so a kill between the two leaves a manifest that no
// longer matches and the next build is a safe full one. Nothing in it depends on the clock or
// the host: it may be committed beside the graph.

import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as ts from 'typescript';
import { compareStrings } from '../model';
import type { Discovery } from './discover';
import type { ImportKind, ImportRef, ImportSyntax } from './extract';
import type { FileHost } from './host';

export const MANIFEST_VERSION = 1;

/**
 * The engine's version, recorded so that facts extracted by another version are never carried
 * into this one's graph. Kept equal to package.json's version by a test; a release that changes
 * what the builder emits bumps it.
 */
export const KG_VERSION = '0.1.0';

export interface ManifestImport {
  specifier: string;
  kind: ImportKind;
  syntax: ImportSyntax;
  line: number;
  column: number;
  context?: string;
}

export interface ManifestFile {
  sha256: string;
  /** The owning project's config path ('' outside every config). */
  project: string;
  imports: ManifestImport[];
}

export interface ManifestOptions {
  extractOnly: boolean;
  listExternal: boolean;
}

export interface Manifest {
  manifestVersion: number;
  engine: { kg: string; typescript: string };
  options: ManifestOptions;
  /** SHA-256 of the graph.json bytes this manifest describes. */
  graphSha256: string;
  /** Repo-relative path → SHA-256 of each non-source file that shapes the build. */
  inputs: Record<string, string>;
  /** Repo-relative path → what the graph holds of each source file. */
  files: Record<string, ManifestFile>;
}

/** The fingerprint recorded for an input that could not be read (or changed while it was read). */
export const UNREADABLE = 'unreadable';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function engineOf(): Manifest['engine'] {
  return { kg: KG_VERSION, typescript: ts.version };
}

export function toManifestImports(refs: readonly ImportRef[]): ManifestImport[] {
  return refs.map((r) => {
    const m: ManifestImport = { specifier: r.specifier, kind: r.kind, syntax: r.syntax, line: r.evidence.line, column: r.evidence.column };
    if (r.context !== undefined) m.context = r.context;
    return m;
  });
}

export function fromManifestImports(file: string, imports: readonly ManifestImport[]): ImportRef[] {
  return imports.map((m) => {
    const r: ImportRef = { specifier: m.specifier, kind: m.kind, syntax: m.syntax, evidence: { file, line: m.line, column: m.column } };
    if (m.context !== undefined) r.context = m.context;
    return r;
  });
}

const LOCKFILES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb']);

/**
 * Every non-source file whose content can change what a build produces: the configs (and the
 * configs they extend, when inside the repository), package.json files (module format, workspace
 * packages, `exports`), .gitignore files and .git/info/exclude (what is discovered), lockfiles
 * (an install changes what resolves into node_modules), the repository's
 * .knowledge-graph/config.json. Repo-relative, sorted.
 */
export function buildInputPaths(host: FileHost, d: Discovery): string[] {
  const out = new Set<string>([...d.configFiles, ...d.packageJsonFiles]);
  for (const p of d.projects) if (p.configPath !== '') out.add(p.configPath);
  for (const [absDir, listing] of d.entries) {
    const dir = absDir === d.root ? '' : absDir.slice(d.root.length + 1);
    for (const f of listing.files) {
      if (f === '.gitignore' || LOCKFILES.has(f)) out.add(dir === '' ? f : dir + '/' + f);
    }
  }
  // Outside the walk (which never enters .git or .knowledge-graph) but read by a build.
  for (const p of ['.git/info/exclude', '.knowledge-graph/config.json']) if (host.stat(d.root + '/' + p)?.type === 'file') out.add(p);
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
    const base = spec.startsWith('.') || spec.startsWith('/') ? path.posix.resolve(path.posix.dirname(root + '/' + rel), spec) : root + '/node_modules/' + spec;
    for (const candidate of [base, base + '.json', base + '/tsconfig.json']) {
      if (candidate.startsWith(root + '/') && host.stat(candidate)?.type === 'file') {
        out.push(candidate.slice(root.length + 1));
        break;
      }
    }
  }
  return out;
}

/** SHA-256 of each input, `unreadable` for one that cannot be read. */
export function hashInputs(host: FileHost, root: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    try {
      out[p] = sha256Hex(host.readFile(root + '/' + p));
    } catch {
      out[p] = UNREADABLE;
    }
  }
  return out;
}

/** The canonical bytes of a manifest: sorted keys, one file per line, LF, a trailing newline. */
export function serializeManifest(m: Manifest): string {
  const fileLines = Object.keys(m.files)
    .sort(compareStrings)
    .map((f) => {
      const e = m.files[f];
      const imports = e.imports.map((i) => {
        const o: Record<string, unknown> = { specifier: i.specifier, kind: i.kind, syntax: i.syntax, line: i.line, column: i.column };
        if (i.context !== undefined) o.context = i.context;
        return o;
      });
      return `    ${JSON.stringify(f)}: ${JSON.stringify({ sha256: e.sha256, project: e.project, imports })}`;
    });
  const inputLines = Object.keys(m.inputs)
    .sort(compareStrings)
    .map((f) => `    ${JSON.stringify(f)}: ${JSON.stringify(m.inputs[f])}`);
  const block = (lines: string[]) => (lines.length === 0 ? '{}' : '{\n' + lines.join(',\n') + '\n  }');
  return (
    '{\n' +
    `  "manifestVersion": ${JSON.stringify(m.manifestVersion)},\n` +
    `  "engine": ${JSON.stringify({ kg: m.engine.kg, typescript: m.engine.typescript })},\n` +
    `  "options": ${JSON.stringify({ extractOnly: m.options.extractOnly, listExternal: m.options.listExternal })},\n` +
    `  "graphSha256": ${JSON.stringify(m.graphSha256)},\n` +
    `  "inputs": ${block(inputLines)},\n` +
    `  "files": ${block(fileLines)}\n` +
    '}\n'
  );
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const HEX64 = /^[0-9a-f]{64}$/;

function validImport(x: unknown): boolean {
  return (
    isObj(x) &&
    typeof x.specifier === 'string' &&
    (x.kind === 'import' || x.kind === 're-export') &&
    (x.syntax === 'static' || x.syntax === 'dynamic' || x.syntax === 'require') &&
    Number.isInteger(x.line) &&
    Number.isInteger(x.column) &&
    (x.context === undefined || typeof x.context === 'string')
  );
}

/** Parses manifest text; a torn, malformed or foreign file gives the reason it cannot be used. */
export function parseManifest(text: string): { manifest: Manifest } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: 'the manifest is not valid JSON (a torn or hand-edited file)' };
  }
  if (!isObj(raw)) return { problem: 'the manifest is not a JSON object' };
  if (raw.manifestVersion !== MANIFEST_VERSION) return { problem: `the manifest has version ${JSON.stringify(raw.manifestVersion)}; this kg writes ${MANIFEST_VERSION}` };
  const { engine, options, graphSha256, inputs, files } = raw;
  if (!isObj(engine) || typeof engine.kg !== 'string' || typeof engine.typescript !== 'string') return { problem: 'the manifest has no engine record' };
  if (!isObj(options) || typeof options.extractOnly !== 'boolean' || typeof options.listExternal !== 'boolean') return { problem: 'the manifest has no options record' };
  if (typeof graphSha256 !== 'string' || !HEX64.test(graphSha256)) return { problem: 'the manifest has no graph fingerprint' };
  if (!isObj(inputs) || !Object.values(inputs).every((v) => typeof v === 'string')) return { problem: 'the manifest has a malformed inputs record' };
  if (!isObj(files)) return { problem: 'the manifest has no files record' };
  for (const [f, e] of Object.entries(files)) {
    if (!isObj(e) || typeof e.sha256 !== 'string' || !HEX64.test(e.sha256) || typeof e.project !== 'string' || !Array.isArray(e.imports) || !e.imports.every(validImport)) {
      return { problem: `the manifest's record of ${f} is malformed` };
    }
  }
  return { manifest: raw as unknown as Manifest };
}

/**
 * Why a manifest cannot drive an incremental build of `graphText`, or undefined when it can:
 * it must describe exactly these graph bytes, and come from this engine with these options.
 */
export function manifestMismatch(m: Manifest, graphText: string, options: ManifestOptions): string | undefined {
  if (m.graphSha256 !== sha256Hex(graphText)) return 'the manifest does not describe the current graph.json (a build was interrupted between the two, or the graph was edited)';
  const engine = engineOf();
  if (m.engine.kg !== engine.kg || m.engine.typescript !== engine.typescript) {
    return `the graph was built by kg ${m.engine.kg} with TypeScript ${m.engine.typescript}; this is kg ${engine.kg} with TypeScript ${engine.typescript}`;
  }
  if (m.options.extractOnly !== options.extractOnly) return `the graph was built ${m.options.extractOnly ? 'with' : 'without'} --extract-only`;
  if (m.options.listExternal !== options.listExternal) return `the graph was built ${m.options.listExternal ? 'with' : 'without'} --list-external`;
  return undefined;
}

/** What changed between the fingerprints a graph was built from and the working tree. */
export interface StalenessReport {
  stale: boolean;
  /** Every path that changed, was added or was deleted, sorted. */
  changedFiles: string[];
  changed: string[];
  added: string[];
  deleted: string[];
}

/** Pure comparison of two path → fingerprint maps (recorded, then current). */
export function compareFingerprints(recorded: Readonly<Record<string, string>>, current: Readonly<Record<string, string>>): StalenessReport {
  const changed: string[] = [];
  const added: string[] = [];
  const deleted: string[] = [];
  for (const [p, sha] of Object.entries(current)) {
    const before = recorded[p];
    if (before === undefined) added.push(p);
    else if (before !== sha || sha === UNREADABLE) changed.push(p);
  }
  for (const p of Object.keys(recorded)) if (current[p] === undefined) deleted.push(p);
  for (const list of [changed, added, deleted]) list.sort(compareStrings);
  const changedFiles = [...changed, ...added, ...deleted].sort(compareStrings);
  return { stale: changedFiles.length > 0, changedFiles, changed, added, deleted };
}

/** Every fingerprint a manifest records: its source files and its other inputs. */
export function manifestFingerprints(m: Manifest): Record<string, string> {
  const out: Record<string, string> = { ...m.inputs };
  for (const [f, e] of Object.entries(m.files)) out[f] = e.sha256;
  return out;
}

/** The staleness of a graph against the working tree's fingerprints (see `fingerprintTree`). */
export function staleness(m: Manifest, current: Readonly<Record<string, string>>): StalenessReport {
  return compareFingerprints(manifestFingerprints(m), current);
}
