// The manifest beside graph.json: what the graph was built from. For each source file: its
// SHA-256, its import references and where they led (so an incremental build resolves every import
// again without parsing unchanged files, and sees which files' imports now lead elsewhere), its
// comment citations of decision records, its stamped notes (ADR 88), what its call sites left besides proven edges (counted
// references, UNRESOLVED sites, sites waiting for a name match — replayed, since records and
// names elsewhere can change their answer), its shape (what other files can see of it) and, for a
// module, its surface (the same, name by name: ADR 118). Then
// the fingerprints of everything else that shapes a build (tsconfigs, package.json files,
// .gitignore files, lockfiles), of the markdown files (for staleness), the engine and options,
// and the SHA-256 of the graph.json it describes. It is renamed into place just before the graph (ADR 51), so a kill between the two leaves a manifest that no
// longer matches and the next build is a safe full one. Nothing in it depends on the clock or
// the host: it may be committed beside the graph.

import { createHash } from 'node:crypto';
import { RELATIONS, UNRESOLVED_REASONS, compareStrings, type UnresolvedReason } from '../../model';
import type {
  CommentCitation,
  FileSurface,
  ImportKind,
  ImportOutcome,
  ImportRef,
  ImportSyntax,
  Residue,
  ResidueSite,
  SourceNote,
} from '../facts';
import type { FileHost } from './file-host';
import { inputFile } from './git-info';
import type { WalkResult } from './walk';
import { buildConfigInput, CONFIG_FILE } from './repository-config';
import { asciiText } from '../../io/canonical';
import { previewJson } from '../../io/display';
import { parseVersionedJson } from '../../io/versioned-json';

export const MANIFEST_VERSION = 7;

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
  /** The graph file it led to, or… */
  to?: string;
  /** …why it led to none. */
  reason?: UnresolvedReason;
  /** An `external` import of a package that is not installed (nothing resolved). */
  absent?: true;
}

export interface ManifestCite {
  source: string;
  num: number;
  line: number;
  column: number;
}

interface ManifestFile {
  sha256: string;
  /** The owning project's config path ('' outside every config). */
  project: string;
  /** SHA-256 of what other files can see of it ('' when only the extraction tier was built). */
  shape: string;
  /** It declares into the global scope (a script, `declare global`, `declare module "…"`). */
  global?: true;
  /** What it exports and imports, name by name (ADR 118); absent where the file-level rule decides. */
  surface?: FileSurface;
  /** Its bodies a program may read as blanks, `[start, end)` in pairs (ADR 129); absent when none. */
  blank?: number[];
  imports: ManifestImport[];
  cites: ManifestCite[];
  /** Its stamped notes, as extracted (absent when it has none). */
  notes?: SourceNote[];
  residue: Residue;
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
  /**
   * Repo-relative path → SHA-256 of each markdown file (decision records, documentation) and of each
   * file the graph does not read but scans for what it imports (`.vue`, `.html`, …; ADR 153).
   */
  documents: Record<string, string>;
  /** Source files the walk found that the build passed over (binary, too large, unreadable), sorted. */
  skipped: string[];
  /** Output folders of the projects, whose files are build output, not sources; sorted. */
  outputDirs: string[];
  /** Repo-relative path → what the graph holds of each source file. */
  files: Record<string, ManifestFile>;
}

/** The fingerprint recorded for an input that could not be read (or changed while it was read). */
export const UNREADABLE = 'unreadable';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function toManifestImports(refs: readonly ImportRef[], outcomes: readonly ImportOutcome[]): ManifestImport[] {
  return refs.map((r, i) => {
    const m: ManifestImport = { specifier: r.specifier, kind: r.kind, syntax: r.syntax, line: r.evidence.line, column: r.evidence.column };
    if (r.context !== undefined) m.context = r.context;
    const o = outcomes[i];
    if (o?.kind === 'file') m.to = o.path;
    else if (o) {
      m.reason = o.reason;
      if (o.absent) m.absent = true;
    }
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

export function toManifestCites(cites: readonly CommentCitation[]): ManifestCite[] {
  return cites.map((c) => ({ source: c.source, num: c.num, line: c.evidence.line, column: c.evidence.column }));
}

export function fromManifestCites(file: string, cites: readonly ManifestCite[]): CommentCitation[] {
  return cites.map((c) => ({ source: c.source, num: c.num, evidence: { file, line: c.line, column: c.column } }));
}

/** Where an import led, as a comparable string: the file, or `!reason` (`!external:absent` for a package not installed). */
export function importTarget(m: ManifestImport): string {
  return m.to ?? unresolvedTarget(m.reason, m.absent);
}

/** `importTarget` of an import that led to no graph file. */
export function unresolvedTarget(reason: UnresolvedReason | undefined, absent: true | undefined): string {
  return '!' + String(reason) + (absent ? ':absent' : '');
}

const LOCKFILES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb']);

/**
 * The inputs the walk alone can name (see `buildInputPaths` in inputs.ts for the whole list):
 * config files, package.json files, .gitignore and .gitattributes files (ADR 98), lockfiles, and
 * .git/info/exclude and .git/info/attributes when they exist, and .knowledge-graph/config.json when it
 * holds anything a build reads (ADR 126). Repo-relative.
 */
export function walkInputPaths(host: FileHost, w: WalkResult): Set<string> {
  const out = new Set<string>([...w.configFiles, ...w.packageJsonFiles]);
  for (const [absDir, listing] of w.entries) {
    const dir = absDir === w.root ? '' : absDir.slice(w.root.length + 1);
    for (const f of listing.files) {
      if (f === '.gitignore' || f === '.gitattributes' || LOCKFILES.has(f)) out.add(dir === '' ? f : dir + '/' + f);
    }
  }
  // Outside the walk (which never enters .git or .knowledge-graph) but read by a build.
  for (const p of ['.git/info/exclude', '.git/info/attributes']) if (host.stat(inputFile(host, w.root, p))?.type === 'file') out.add(p);
  // The repository's config, when it holds anything a build reads (ADR 126).
  if (buildConfigInput(host, w.root) !== undefined) out.add(CONFIG_FILE);
  return out;
}

/** SHA-256 of each input, `unreadable` for one that cannot be read. */
export function hashInputs(host: FileHost, root: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    try {
      // Of the repository's config, only what a build reads (ADR 126).
      const config = p === CONFIG_FILE ? buildConfigInput(host, root) : undefined;
      out[p] = sha256Hex(config ?? host.readFile(inputFile(host, root, p)));
    } catch {
      out[p] = UNREADABLE;
    }
  }
  return out;
}

function sortedCounts(counted: Residue['counted']): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const rel of Object.keys(counted).sort(compareStrings)) {
    const inner = (counted as Record<string, Record<string, number>>)[rel];
    out[rel] = {};
    for (const reason of Object.keys(inner).sort(compareStrings)) out[rel][reason] = inner[reason];
  }
  return out;
}

/** A stamped note with its keys in a fixed order. */
function canonicalNote(n: SourceNote): Record<string, unknown> {
  return {
    area: n.area,
    stamp: n.stamp,
    index: n.index,
    anchor: n.anchor,
    line: n.line,
    column: n.column,
    label: n.label,
    text: n.text,
    refs: n.refs.map((r) => ({ kind: r.kind, target: r.target, line: r.line, column: r.column })),
    mentions: n.mentions.map((m) => ({ num: m.num, line: m.line, column: m.column })),
  };
}

/** One file's record with its keys in a fixed order. */
function canonicalFile(e: ManifestFile): Record<string, unknown> {
  const imports = e.imports.map((i) => {
    const o: Record<string, unknown> = { specifier: i.specifier, kind: i.kind, syntax: i.syntax, line: i.line, column: i.column };
    if (i.context !== undefined) o.context = i.context;
    if (i.to !== undefined) o.to = i.to;
    if (i.reason !== undefined) o.reason = i.reason;
    if (i.absent) o.absent = true;
    return o;
  });
  const cites = e.cites.map((c) => ({ source: c.source, num: c.num, line: c.line, column: c.column }));
  const sites = e.residue.sites.map((x) => {
    const o: Record<string, unknown> = {
      relation: x.relation,
      source: x.source,
      name: x.name,
      member: x.member,
      reason: x.reason,
      line: x.line,
      column: x.column,
    };
    if (x.context !== undefined) o.context = x.context;
    if (x.pending) o.pending = true;
    return o;
  });
  const out: Record<string, unknown> = { sha256: e.sha256, project: e.project, shape: e.shape };
  if (e.global) out.global = true;
  if (e.surface) out.surface = canonicalSurface(e.surface);
  if (e.blank) out.blank = e.blank;
  out.imports = imports;
  out.cites = cites;
  if (e.notes && e.notes.length > 0) out.notes = e.notes.map(canonicalNote);
  out.residue = { counted: sortedCounts(e.residue.counted), sites };
  return out;
}

function canonicalSurface(x: FileSurface): Record<string, unknown> {
  // Entries, not assignments: an export may be named `__proto__`.
  const exports = Object.fromEntries(
    Object.keys(x.exports)
      .sort(compareStrings)
      .map((k) => [k, x.exports[k]]),
  );
  const uses = x.uses.map((u) => {
    const o: Record<string, unknown> = { ref: u.ref, name: u.name, reaches: u.reaches };
    if (u.star) o.star = true;
    return o;
  });
  return { exports, uses };
}

/**
 * The canonical bytes of a manifest: fixed key order, one file per line, LF, a trailing newline.
 * `previous` is an earlier manifest with the bytes this function wrote for it: when `m` holds the
 * same values, those bytes are returned as they are (a warm build that changed nothing; ADR 127).
 * `entries` may hold the serialized value of file records from earlier calls (a warm session keeps
 * one: the records it carries from build to build are never changed), so only new records are
 * serialized.
 */
export function serializeManifest(m: Manifest, previous?: { manifest: Manifest; text: string }, entries?: WeakMap<object, string>): string {
  if (previous && sameManifest(m, previous.manifest)) return previous.text;
  // Written in ASCII, each piece a one-byte string, as graph.json is (ADR 133): one `…` cut from a
  // call's text would otherwise make the whole 6 MB text two bytes a character.
  const json = asciiText;
  const fileText = (v: unknown): string => {
    let t = entries?.get(v as object);
    if (t === undefined) {
      t = json(canonicalFile(v as ManifestFile));
      entries?.set(v as object, t);
    }
    return t;
  };
  // Every piece in one list, joined once: the text is copied once and comes out flat (ADR 132).
  const out: string[] = [
    '{\n',
    `  "manifestVersion": ${json(m.manifestVersion)},\n`,
    `  "engine": ${json({ kg: m.engine.kg, typescript: m.engine.typescript })},\n`,
    `  "options": ${json({ extractOnly: m.options.extractOnly, listExternal: m.options.listExternal })},\n`,
    `  "graphSha256": ${json(m.graphSha256)},\n`,
  ];
  const block = (name: string, record: Record<string, unknown>, text: (v: unknown) => string, after: string) => {
    const keys = Object.keys(record).sort(compareStrings);
    out.push(`  ${json(name)}: `);
    if (keys.length === 0) out.push('{}');
    else {
      keys.forEach((f, i) => out.push(i === 0 ? '{\n    ' : ',\n    ', json(f), ': ', text(record[f])));
      out.push('\n  }');
    }
    out.push(after);
  };
  block('inputs', m.inputs, json, ',\n');
  block('documents', m.documents, json, ',\n');
  out.push(`  "skipped": ${json(m.skipped)},\n`, `  "outputDirs": ${json(m.outputDirs)},\n`);
  block('files', m.files, fileText, '\n');
  out.push('}\n');
  return out.join('');
}

/** Equal values serialize to equal bytes (canonicalFile orders keys, so key order does not matter). */
function sameManifest(a: Manifest, b: Manifest): boolean {
  const { files: fa, ...restA } = a;
  const { files: fb, ...restB } = b;
  if (!sameJson(restA, restB)) return false;
  const keys = Object.keys(fa);
  if (keys.length !== Object.keys(fb).length) return false;
  return keys.every((f) => Object.hasOwn(fb, f) && sameJson(fa[f], fb[f]));
}

/**
 * Whether two values made of what JSON holds (strings, numbers, booleans, null, arrays, plain
 * objects) are equal: `isDeepStrictEqual` on such values, without its cost for what they cannot
 * hold (prototypes, symbols, typed arrays), which a rebuild paid for every file's record (ADR 139).
 * Equal objects have the same keys; a key whose value is undefined counts, as there.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return false;
    if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const HEX64 = /^[0-9a-f]{64}$/;

const isInt = (x: unknown) => Number.isInteger(x);
const optString = (x: unknown) => x === undefined || typeof x === 'string';
const isReason = (x: unknown) => (UNRESOLVED_REASONS as readonly unknown[]).includes(x);

function validImport(x: unknown): boolean {
  return (
    isObj(x) &&
    typeof x.specifier === 'string' &&
    (x.kind === 'import' || x.kind === 're-export') &&
    (x.syntax === 'static' || x.syntax === 'dynamic' || x.syntax === 'require') &&
    isInt(x.line) &&
    isInt(x.column) &&
    optString(x.context) &&
    (typeof x.to === 'string') !== (x.reason !== undefined) &&
    (x.reason === undefined || isReason(x.reason)) &&
    (x.absent === undefined || (x.absent === true && x.reason === 'external'))
  );
}

function validCite(x: unknown): boolean {
  return isObj(x) && typeof x.source === 'string' && isInt(x.num) && isInt(x.line) && isInt(x.column);
}

function validNote(x: unknown): boolean {
  return (
    isObj(x) &&
    typeof x.area === 'string' &&
    typeof x.stamp === 'string' &&
    isInt(x.index) &&
    typeof x.anchor === 'string' &&
    isInt(x.line) &&
    isInt(x.column) &&
    typeof x.label === 'string' &&
    typeof x.text === 'string' &&
    Array.isArray(x.refs) &&
    x.refs.every(
      (r) => isObj(r) && (r.kind === 'link' || r.kind === 'code') && typeof r.target === 'string' && isInt(r.line) && isInt(r.column),
    ) &&
    Array.isArray(x.mentions) &&
    x.mentions.every((m) => isObj(m) && isInt(m.num) && isInt(m.line) && isInt(m.column))
  );
}

function validSite(x: unknown): x is ResidueSite {
  return (
    isObj(x) &&
    (RELATIONS as readonly unknown[]).includes(x.relation) &&
    typeof x.source === 'string' &&
    typeof x.name === 'string' &&
    typeof x.member === 'boolean' &&
    isReason(x.reason) &&
    isInt(x.line) &&
    isInt(x.column) &&
    optString(x.context) &&
    (x.pending === undefined || x.pending === true)
  );
}

function validResidue(x: unknown): boolean {
  if (!isObj(x) || !isObj(x.counted) || !Array.isArray(x.sites) || !x.sites.every(validSite)) return false;
  return Object.entries(x.counted).every(
    ([rel, reasons]) =>
      (RELATIONS as readonly string[]).includes(rel) &&
      isObj(reasons) &&
      Object.entries(reasons).every(([r, n]) => isReason(r) && isInt(n) && (n as number) > 0),
  );
}

function validSurface(x: unknown): boolean {
  if (!isObj(x) || !isObj(x.exports) || !Array.isArray(x.uses)) return false;
  return (
    Object.values(x.exports).every((h) => typeof h === 'string') &&
    x.uses.every(
      (u) =>
        isObj(u) &&
        isInt(u.ref) &&
        (u.ref as number) >= 0 &&
        typeof u.name === 'string' &&
        (u.reaches === '*' || (Array.isArray(u.reaches) && u.reaches.every((r) => typeof r === 'string'))) &&
        (u.star === undefined || u.star === true),
    )
  );
}

/** Ascending, non-overlapping `[start, end)` pairs of offsets. */
function validBlank(x: unknown): boolean {
  if (!Array.isArray(x) || x.length === 0 || x.length % 2 !== 0) return false;
  let at = 0;
  for (const n of x) {
    if (!isInt(n) || (n as number) < at) return false;
    at = n as number;
  }
  return true;
}

function validFile(e: unknown): boolean {
  return (
    isObj(e) &&
    typeof e.sha256 === 'string' &&
    HEX64.test(e.sha256) &&
    typeof e.project === 'string' &&
    typeof e.shape === 'string' &&
    (e.global === undefined || e.global === true) &&
    (e.blank === undefined || validBlank(e.blank)) &&
    Array.isArray(e.imports) &&
    (e.surface === undefined ||
      (validSurface(e.surface) && (e.surface as FileSurface).uses.every((u) => u.ref < (e.imports as unknown[]).length))) &&
    e.imports.every(validImport) &&
    Array.isArray(e.cites) &&
    e.cites.every(validCite) &&
    (e.notes === undefined || (Array.isArray(e.notes) && e.notes.every(validNote))) &&
    validResidue(e.residue)
  );
}

/** Parses manifest text; a torn, malformed or foreign file gives the reason it cannot be used. */
export function parseManifest(text: string): { manifest: Manifest } | { problem: string } {
  const opened = parseVersionedJson(text, 'manifestVersion', MANIFEST_VERSION, {
    notJson: 'the manifest is not valid JSON (a torn or hand-edited file)',
    notObject: 'the manifest is not a JSON object',
    version: (found) => `the manifest has version ${previewJson(found)}; this kg writes ${MANIFEST_VERSION}`,
  });
  if ('problem' in opened) return opened;
  const raw = opened.value;
  const { engine, options, graphSha256, inputs, documents, skipped, outputDirs, files } = raw;
  if (!isObj(engine) || typeof engine.kg !== 'string' || typeof engine.typescript !== 'string')
    return { problem: 'the manifest has no engine record' };
  if (!isObj(options) || typeof options.extractOnly !== 'boolean' || typeof options.listExternal !== 'boolean')
    return { problem: 'the manifest has no options record' };
  if (typeof graphSha256 !== 'string' || !HEX64.test(graphSha256)) return { problem: 'the manifest has no graph fingerprint' };
  if (!isObj(inputs) || !Object.values(inputs).every((v) => typeof v === 'string'))
    return { problem: 'the manifest has a malformed inputs record' };
  if (!isObj(documents) || !Object.values(documents).every((v) => typeof v === 'string'))
    return { problem: 'the manifest has a malformed documents record' };
  const strings = (x: unknown) => Array.isArray(x) && x.every((v) => typeof v === 'string');
  if (!strings(skipped) || !strings(outputDirs)) return { problem: 'the manifest has a malformed skipped or outputDirs record' };
  if (!isObj(files)) return { problem: 'the manifest has no files record' };
  for (const [f, e] of Object.entries(files)) {
    if (!validFile(e)) return { problem: `the manifest's record of ${f} is malformed` };
  }
  return { manifest: raw as unknown as Manifest };
}

/**
 * Why a manifest cannot drive an incremental build of `graphText`, or undefined when it can:
 * it must describe exactly these graph bytes, and come from this engine with these options.
 */
export function manifestMismatch(
  m: Manifest,
  graph: string | { sha256: string } | undefined,
  options: ManifestOptions,
  engine: Manifest['engine'],
): string | undefined {
  // `graph` is undefined when the caller built the two together and knows they match; the hash of
  // its bytes when the caller read them (cheaper than encoding a large text again).
  const sha = graph === undefined ? undefined : typeof graph === 'string' ? sha256Hex(graph) : graph.sha256;
  if (sha !== undefined && m.graphSha256 !== sha)
    return 'the manifest does not describe the current graph.json (a build was interrupted between the two, or the graph was edited)';
  if (m.engine.kg !== engine.kg || m.engine.typescript !== engine.typescript) {
    return `the graph was built by kg ${m.engine.kg} with TypeScript ${m.engine.typescript}; this is kg ${engine.kg} with TypeScript ${engine.typescript}`;
  }
  if (m.options.extractOnly !== options.extractOnly)
    return `the graph was built ${m.options.extractOnly ? 'with' : 'without'} --extract-only`;
  if (m.options.listExternal !== options.listExternal)
    return `the graph was built ${m.options.listExternal ? 'with' : 'without'} --list-external`;
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
export function compareFingerprints(
  recorded: Readonly<Record<string, string>>,
  current: Readonly<Record<string, string>>,
): StalenessReport {
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
function manifestFingerprints(m: Manifest): Record<string, string> {
  const out: Record<string, string> = { ...m.inputs, ...m.documents };
  for (const [f, e] of Object.entries(m.files)) out[f] = e.sha256;
  return out;
}

/** The staleness of a graph against the working tree's fingerprints (see `fingerprintTree`). */
export function staleness(m: Manifest, current: Readonly<Record<string, string>>): StalenessReport {
  return compareFingerprints(manifestFingerprints(m), current);
}
