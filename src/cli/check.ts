// `kg check`: the breaking-change guard for CI (ADR-72). Compares the working tree with the graph
// it was built from (or a base graph, e.g. main's): each symbol with EXACT consumers in other
// files that was removed, renamed, unexported or whose declared signature changed is a breaking
// change, listed with its consumers. Fails (exit 1) only when the configured mode resolves to
// strict. Reads files with the parser alone: no program, no checker. The verdict is a policy over
// the diff report of `kg diff` (ADR 104): the base graph against itself with each checked file's
// declarations as the working tree has them.

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  breakingFromReport,
  buildGuardIndex,
  consumerCount,
  declaredSymbols,
  defaultGraphFile,
  diffReport,
  fingerprintTree,
  formatBreakingChange,
  graphStatus,
  guardedFiles,
  headFromDeclared,
  loadGraphFile,
  modulesUsedWhole,
  nodeFileHost,
  parseManifest,
  readGraphConfig,
  readPrevious,
  staleness,
  type BreakingChange,
  type DeclaredSymbol,
  GraphError,
  unanalysedImporters,
  visible,
} from '../graph';
import { findRepositoryRoot } from './find-root';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs } from './usage';

export const CHECK_HELP = `Usage: kg check [--root DIR] [--base FILE]

Compares the working tree with a graph and prints the breaking changes as JSON: every symbol with
EXACT consumers in other files (callers, subclasses, implementers) that the working tree removed,
renamed, unexported, or whose declared signature changed (parameters, their types, return type,
type parameters, export — never a body):

  {"available": true, "base": "...", "mode": "strict", "requestedMode": "strict", "rule": "...",
   "breaks": true, "failed": true, "checkedFiles": 3,
   "breakingChanges": [{"symbol": "sym:src/a.ts#f", "label": "f", "kind": "function",
     "change": "signature-changed", "file": "src/a.ts", "line": 3, "column": 17,
     "now": {"line": 3, "column": 17},
     "consumers": [{"id": "sym:src/b.ts#run", "relation": "calls", "file": "src/b.ts",
                    "line": 4, "column": 10}]}],
   "problems": [], "evidenceClass": "GRAPH_DERIVED"}

change is one of removed, renamed (with "renamedTo"), unexported, signature-changed. The mode
comes from <root>/.knowledge-graph/config.json (kg config).

Files the graph does not read (.vue, .svelte, .astro, .html, .htm, .mdx) are not consumers it can
prove. When a scan of their text finds an import of a changed file, the changes no proven consumer
makes breaking are listed as "unanalysed": [{"symbol", "change", "file", "importers"}]: a guess,
never failing the check, but "breaks": false then does not mean safe.

A module whose object another file uses whole (\`import * as m\` then \`Object.keys(m)\`, \`{ ...m }\`,
\`f(m)\`) may be read through any of its exports, and no edge names which. An export of it removed,
renamed or unexported changes that object: listed as "moduleObject": [{"symbol", "change", "file",
"users"}] (the symbols and files using the object), never failing the check (ADR 188).

The graph holds the calls and imports of the tree it was built from. Code files changed or added
since (the graph's manifest against the working tree) may hold consumers written since, which it
cannot see: they are listed as "consumersUnseenIn": ["src/app.ts", …], never failing the check.

Options:
${optionLines([COMMON_OPTIONS.root], 15)}
  --base FILE    The graph to compare with (default: <root>/.knowledge-graph/graph.json, the graph
                 the tree was built from). In CI, pass the graph built on the target branch.
${optionLines([COMMON_OPTIONS.help], 15)}

Exit codes: 0 nothing breaks, or the mode is below strict (the report is printed either way);
1 the mode is strict and something breaks; 2 bad usage or a missing root; 3 the base graph is
unavailable (absent, unreadable, invalid, or built without the calls layer):
{"available": false, "reason": "..."}.
`;

/** A change the graph cannot see a consumer of, in a file that unanalysed files import (ADR 153). */
interface UnanalysedChange {
  symbol: string;
  change: string;
  file: string;
  /** The unanalysed files whose text imports the file (or one re-exporting from it): a guess. */
  importers: string[];
}

/** An export of a module whose object is used whole, removed, renamed or unexported (ADR 185, ADR 188). */
interface ModuleObjectChange {
  symbol: string;
  change: string;
  file: string;
  /** The symbols and files outside it that use its module object whole (through \`export *\` too). */
  users: string[];
}

const MEMBER_KINDS = new Set(['method', 'property']);

/** Files that can call, import or reference a symbol: the sources the graph reads. */
const CODE_FILE = /\.(?:[cm]?[jt]sx?)$/;

/**
 * The code files changed or added since `base` was built (its manifest against the working tree):
 * what they use now is not in the graph, so a change is not checked against consumers written
 * there since (issue 48). A string when that cannot be told.
 */
function changedSinceBuild(root: string, base: string): string[] | string {
  try {
    const previous = readPrevious(base);
    const status = graphStatus(root, previous, nodeFileHost);
    if (!status.available) return status.reason;
    const parsed = parseManifest(previous.manifestText ?? '');
    if (!('manifest' in parsed)) return parsed.problem;
    const report = staleness(parsed.manifest, fingerprintTree(root, parsed.manifest, nodeFileHost));
    return [...report.changed, ...report.added].filter((f) => CODE_FILE.test(f)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * The removed, renamed, unexported and re-signed symbols that no proven consumer makes a breaking
 * change, whose file unanalysed files import and which another file could name (exported, or a member).
 */
function unanalysedChanges(
  report: ReturnType<typeof diffReport>,
  changes: readonly BreakingChange[],
  importers: ReadonlyMap<string, string[]>,
): UnanalysedChange[] {
  if (importers.size === 0) return [];
  const proven = new Set(changes.map((c) => c.symbol));
  const renamed = new Set(report.symbols.renameCandidates.map((c) => c.from));
  const out: UnanalysedChange[] = [];
  const add = (symbol: string, change: string, file: string, nameable: boolean) => {
    const list = importers.get(file);
    if (list && nameable && !proven.has(symbol)) out.push({ symbol, change, file, importers: list });
  };
  for (const r of report.symbols.removed)
    add(r.id, renamed.has(r.id) ? 'renamed' : 'removed', r.file, r.exported || MEMBER_KINDS.has(r.kind));
  for (const c of report.symbols.signatureChanged) {
    const change = c.exported.before && !c.exported.after ? 'unexported' : 'signature-changed';
    add(c.id, change, c.file, c.exported.before || MEMBER_KINDS.has(c.kind));
  }
  return out.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/**
 * The top-level exports removed, renamed or unexported from a module whose object is used whole:
 * the object loses a key, and whatever reads it (\`Object.keys(m)\`, a spread, the object passed)
 * may behave otherwise. The use is proven (an EXACT references edge to the file's node); that it
 * reads this export is not, so this is listed apart from the breaking changes (ADR 188).
 */
function moduleObjectChanges(report: ReturnType<typeof diffReport>, whole: ReadonlyMap<string, string[]>): ModuleObjectChange[] {
  if (whole.size === 0) return [];
  const renamed = new Set(report.symbols.renameCandidates.map((c) => c.from));
  const topLevel = (id: string, file: string) => !id.slice(`sym:${file}#`.length).includes('.');
  const out: ModuleObjectChange[] = [];
  const add = (symbol: string, change: string, file: string) => {
    const users = whole.get(file);
    if (users && topLevel(symbol, file)) out.push({ symbol, change, file, users });
  };
  for (const r of report.symbols.removed) if (r.exported) add(r.id, renamed.has(r.id) ? 'renamed' : 'removed', r.file);
  for (const c of report.symbols.signatureChanged) if (c.exported.before && !c.exported.after) add(c.id, 'unexported', c.file);
  return out.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

function writeModuleObjectNotes(io: CliIo, objects: readonly ModuleObjectChange[]): void {
  for (const o of objects) {
    const n = o.users.length;
    io.stderr.write(
      `kg: check: ${visible(`${o.file}: ${o.symbol} ${o.change}: ${o.file}'s module object is used whole by ${n} symbol${n === 1 ? '' : 's'} or file${n === 1 ? '' : 's'} (${o.users.join(', ')}): what reads the object may change, no edge says whether it reads this export (listed in "moduleObject", not failing)`)}\n`,
    );
  }
}

export function runCheck(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    root: { type: 'string' },
    base: { type: 'string' },
  });
  const root = values.root !== undefined ? path.resolve(io.cwd, values.root) : findRepositoryRoot(io.cwd).root;
  const rootPosix = root.split(path.sep).join('/');
  if (nodeFileHost.stat(rootPosix)?.type !== 'directory') {
    throw new GraphError('ROOT_NOT_FOUND', `root is not a directory: ${root}`);
  }
  const base = values.base !== undefined ? path.resolve(io.cwd, values.base) : defaultGraphFile(root);
  const shown = path.relative(io.cwd, base) || base;

  const config = readGraphConfig(nodeFileHost, rootPosix);
  for (const p of config.problems) io.stderr.write(`kg: note: ${config.configFile}: ${visible(p)}\n`);

  const unavailable = (reason: string, code: string): number => {
    io.stdout.write(JSON.stringify({ available: false, base: shown, reason, code, evidenceClass: 'GRAPH_DERIVED' }) + '\n');
    io.stderr.write(`kg: check: ${visible(reason)}${code === 'NO_GRAPH' ? ' (build one with: kg build --apply)' : ''}\n`);
    return EXIT.UNAVAILABLE;
  };
  const load = loadGraphFile(base);
  if (!load.ok) return unavailable(load.unavailable.reason, load.unavailable.code);
  const index = buildGuardIndex(load.graph);
  if (!index.calls) return unavailable('calls layer not built in this projection', 'LAYER_MISSING');

  const problems: string[] = [];
  if (!index.signatures)
    problems.push(
      'the base graph records no signatures (built by an older kg): only removed, renamed and unexported symbols are found; rebuild it to compare signatures',
    );
  const declared = new Map<string, DeclaredSymbol[] | null>();
  // Files that files the graph does not read import (a text scan, ADR 153) are compared too: a
  // change there may break what the graph cannot see, and the answer says so.
  const importers = unanalysedImporters(load.graph.graph);
  // So are the modules whose object is used whole: an export of theirs removed changes the object (ADR 188).
  const whole = modulesUsedWhole(load.graph);
  const files = [...new Set([...guardedFiles(index), ...[...importers.keys(), ...whole.keys()].filter((f) => index.declared.has(f))])].sort(
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  for (const file of files) {
    let text: string | undefined;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(path.join(root, ...file.split('/'))));
    } catch (e) {
      const code = (e as { code?: unknown })?.code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        problems.push(`${file}: unreadable (${typeof code === 'string' ? code : 'not valid UTF-8'}); not compared`);
        continue;
      }
    }
    declared.set(file, text === undefined ? null : declaredSymbols(file, text));
  }
  // The working tree as a head graph (the base with each checked file's declarations now), and
  // the check as a policy over the diff of the two (ADR 72, ADR 104).
  const baseGraph = load.graph.graph;
  const side = { spec: shown, kind: 'graph' as const, graphSignature: baseGraph.graphSignature };
  const report = diffReport(
    { base: baseGraph, head: headFromDeclared(baseGraph, declared), indexed: { base: load.graph } },
    { base: side, head: { ...side, spec: 'working tree', kind: 'worktree' } },
  );
  const changes: BreakingChange[] = breakingFromReport(report);

  const unseen = unanalysedChanges(report, changes, importers);
  const objects = moduleObjectChanges(report, whole);
  const totalUnanalysed = baseGraph.unanalysed?.length ?? 0;
  const since = changedSinceBuild(root, base);
  const unseenIn = Array.isArray(since) ? since : [];
  if (typeof since === 'string')
    problems.push(`which files changed since the graph was built is unknown (${since}): consumers written since are not checked`);

  for (const p of problems) io.stderr.write(`kg: note: ${visible(p)}\n`);

  const mode = config.resolved.mode;
  const breaks = changes.length > 0;
  const failed = breaks && mode === 'strict';
  io.stdout.write(
    JSON.stringify({
      available: true,
      base: shown,
      mode,
      requestedMode: config.requested.mode,
      rule: config.rule,
      breaks,
      failed,
      checkedFiles: files.length,
      breakingChanges: changes,
      ...(unseen.length > 0 ? { unanalysed: unseen } : {}),
      ...(objects.length > 0 ? { moduleObject: objects } : {}),
      ...(unseenIn.length > 0 ? { consumersUnseenIn: unseenIn } : {}),
      problems: [...config.problems, ...problems],
      evidenceClass: 'GRAPH_DERIVED',
    }) + '\n',
  );
  for (const c of changes) io.stderr.write(`kg: check: ${visible(`${c.file}:${c.now?.line ?? c.line}: ${formatBreakingChange(c)}`)}\n`);
  for (const u of unseen)
    io.stderr.write(
      `kg: check: ${visible(`${u.file}: ${u.symbol} ${u.change}: ${u.importers.length} file${u.importers.length === 1 ? '' : 's'} not analysed import${u.importers.length === 1 ? 's' : ''} ${u.file} (${u.importers.join(', ')}), a text scan: not checked`)}\n`,
    );
  writeModuleObjectNotes(io, objects);
  if (unseenIn.length > 0) {
    const n = unseenIn.length;
    const shownFiles = unseenIn.slice(0, 10).join(', ') + (n > 10 ? `, … ${n - 10} more` : '');
    io.stderr.write(
      `kg: check: ${visible(`${n} file${n === 1 ? '' : 's'} changed since the graph was built (${shownFiles}): what ${n === 1 ? 'it uses' : 'they use'} now is not in the graph, so a consumer written there since is not checked (listed in "consumersUnseenIn")`)}\n`,
    );
  }
  const consumers = changes.reduce((n, c) => n + consumerCount(c), 0);
  io.stderr.write(
    breaks
      ? `kg: check: ${changes.length} breaking change${changes.length === 1 ? '' : 's'} (${consumers} consumer${consumers === 1 ? '' : 's'}); mode ${mode}: ${failed ? 'failing' : 'not failing (only strict fails)'}\n`
      : unseen.length > 0
        ? `kg: check: nothing proven breaks, but ${unseen.length} change${unseen.length === 1 ? '' : 's'} may break files the graph does not read (listed in "unanalysed") (${files.length} file${files.length === 1 ? '' : 's'} compared)\n`
        : objects.length > 0
          ? `kg: check: nothing proven breaks, but ${objects.length} export${objects.length === 1 ? '' : 's'} removed, renamed or unexported from a module whose object is used whole (listed in "moduleObject") (${files.length} file${files.length === 1 ? '' : 's'} compared)\n`
          : `kg: check: nothing breaks (${files.length} file${files.length === 1 ? '' : 's'} with guarded symbols compared)${totalUnanalysed > 0 ? `; ${totalUnanalysed} file${totalUnanalysed === 1 ? '' : 's'} the graph does not read (.vue, .svelte, .html, …) not checked` : ''}\n`,
  );
  return failed ? EXIT.FAILED : EXIT.OK;
}
