// "N callers" above every function, class and method the graph has a node for. The ranges come
// first from one per-file request; the titles are resolved lazily, and the lenses VS Code resolves
// together are counted in one request to the worker. A file changed since the build gets a stale
// marker instead of a number (a wrong count is worse than none) over each declaration the edits
// touched or named, and the graph's count over the others, which the edits cannot have changed
// (docs/adr/0147-an-edit-leaves-the-counts-it-cannot-change.md); a graph built without its
// calls layer gets one lens saying so (docs/adr/0061-what-a-callers-lens-says.md); a lens never shows
// a number from another graph than the one it was placed from, and a stale one stays on its declaration
// as the text moves (docs/adr/0090-a-lens-shows-the-graph-it-came-from.md). The folder's
// mode decides whether there are lenses at all: none in off and shadow (docs/configuration.md).

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EditorGraphAccess } from './editor-graph-access';
import type { CallerCounts, FileSymbol } from '../protocol/graph-worker';
import { callersTitle, packageCallersTitle, referrersTooltip, throughTooltip, UNRESOLVED_NAMED_TOOLTIP } from './graph-text';
import { EditedDeclarations, type TextChange, type TrackedDeclaration } from './line-tracking';
import { otherCallersTitle, otherCallersTooltip, type OtherCallers, type StoreCallers } from './store-callers';

/** Whether a folder's mode shows lenses, and when that may have changed (FolderConfigs). */
export interface LensGate {
  lensesOn(folder: string): boolean;
  readonly onDidChange: vscode.Event<string>;
}

export const SHOW_CALLERS_OF_COMMAND = 'knowledgeGraph.showCallersOf';
export const BUILD_COMMAND = 'knowledgeGraph.build';
export const REBUILD_COMMAND = 'knowledgeGraph.rebuild';
const STALE_TITLE = 'callers: graph is stale — Rebuild';
/** How long a lens waits for the store's count before it shows its own and refreshes when the count comes. */
const STORE_WAIT_MS = 1_500;
/** A lens resolved without counts asks for the lenses again after this long, at most REASK_LIMIT times per graph. */
const REASK_DELAY_MS = 500;
const REASK_LIMIT = 3;

class CallersLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly folder: string,
    readonly symbol: FileSymbol,
    readonly uri: vscode.Uri,
    /** The file, repo-relative, and the graph (GraphService.graphOf) the lens was placed from. */
    readonly file: string,
    readonly graphNo: number,
  ) {
    super(range);
  }
}

/** A lens over a declaration of an installed package's source (ADR 124): its id is package-qualified. */
class PackageLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly folder: string,
    readonly symbol: FileSymbol,
    /** `name@version`. */
    readonly pkg: string,
    readonly graphNo: number,
  ) {
    super(range);
  }
}

/**
 * The installed package a file of the folder belongs to: the nearest package.json above it with a
 * name and a version, in a folder under node_modules; the file's path relative to that folder.
 */
function installedPackageOf(file: string, root: string): { name: string; version: string; path: string } | undefined {
  for (let dir = path.dirname(file); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    let pkg: { name?: unknown; version?: unknown };
    try {
      pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    } catch {
      continue;
    }
    // A package.json without both (rxjs's per-entry-point ones) names no package: look further up.
    if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string') continue;
    if (!path.relative(root, dir).split(path.sep).includes('node_modules')) return undefined;
    return { name: pkg.name, version: pkg.version, path: path.relative(dir, file).split(path.sep).join('/') };
  }
  return undefined;
}

/** The name as it appears in source: a method's label may carry its class (`Greeter.hello`). */
function sourceName(s: FileSymbol): string {
  const dot = s.label.lastIndexOf('.');
  return dot >= 0 ? s.label.slice(dot + 1) : s.label;
}

/** A declaration of an edited document, with what its lens needs. */
interface TrackedSymbol extends TrackedDeclaration {
  symbol: FileSymbol;
}

/** How far from its recorded line a declaration is looked for when no edit was seen to move it. */
const SEARCH_LINES = 200;

/** The line nearest `from` holding `name` as a word, within SEARCH_LINES; undefined if none. */
function nearestLineWith(doc: vscode.TextDocument, name: string, from: number): number | undefined {
  const word = new RegExp(`(^|[^\\w$])${name.replace(/[$]/g, '\\$&')}($|[^\\w$])`);
  for (let d = 0; d <= SEARCH_LINES; d++) {
    for (const l of d === 0 ? [from] : [from - d, from + d]) if (l >= 0 && l < doc.lineCount && word.test(doc.lineAt(l).text)) return l;
  }
  return undefined;
}

export class CallersLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Lenses waiting for their counts; flushed as one request per folder and graph. */
  private readonly counts = new Batcher<CallerCounts | undefined>(
    (key, ids) => {
      const [folder, graphNo] = key.split('\u0000');
      return this.graph.counts(folder, ids, Number(graphNo));
    },
    () => undefined,
  );
  /**
   * Per open document, where each declaration stands now and which ones the edits may have given
   * other callers: from the graph's lines and the text when the document last matched the graph,
   * carried through every edit since (ADR 90, ADR 147).
   */
  private readonly tracked = new Map<string, EditedDeclarations<TrackedSymbol>>();
  /** How often the lenses were asked again, per folder and graph, after resolving without counts. */
  private readonly reasked = new Map<string, number>();
  private reaskTimer: NodeJS.Timeout | undefined;

  /** Lenses waiting for the store's counts (ADR 123); flushed as one question per store and repository. */
  private readonly storeCounts = new Batcher<OtherCallers>(
    (key, ids) => {
      const [url, repository] = key.split('\u0000');
      return (this.others as StoreCallers).counts(url, repository, ids);
    },
    (e) => ({ kind: 'unknown', reason: e instanceof Error ? e.message : String(e) }),
  );

  constructor(
    private readonly graph: EditorGraphAccess,
    private readonly gate?: LensGate,
    /** The organisation store's counts, for folders with `knowledgeGraph.store` set (ADR 123). */
    private readonly others?: StoreCallers,
  ) {
    this.subscriptions = [
      this.changed,
      graph.onDidChangeState(() => this.changed.fire()),
      ...(gate ? [gate.onDidChange(() => this.changed.fire())] : []),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('knowledgeGraph.codeLens') || e.affectsConfiguration('knowledgeGraph.store')) this.changed.fire();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => this.edited(e)),
      vscode.workspace.onDidCloseTextDocument((d) => this.tracked.delete(d.uri.toString())),
    ];
  }

  private edited(e: vscode.TextDocumentChangeEvent): void {
    const key = e.document.uri.toString();
    const edits = this.tracked.get(key);
    if (!edits || e.contentChanges.length === 0) return;
    const changes: TextChange[] = e.contentChanges.map((c) => ({
      startLine: c.range.start.line,
      startCharacter: c.range.start.character,
      endLine: c.range.end.line,
      text: c.text,
      offset: c.rangeOffset,
      length: c.rangeLength,
    }));
    edits.apply(changes);
  }

  async provideCodeLenses(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!vscode.workspace.getConfiguration('knowledgeGraph.codeLens', doc.uri).get<boolean>('enabled', true)) return [];
    const folder = this.graph.folderOf(doc.uri);
    if (!folder || (this.gate && !this.gate.lensesOn(folder))) return [];
    const rel = this.graph.relativePath(folder, doc.uri);
    if (rel !== undefined && /(^|\/)node_modules\//.test(rel)) return this.packageLenses(doc, folder);
    // A changed file whose declarations were seen moving: the lenses at once, without a round trip
    // to the worker. The editor keeps drawing the lenses it had (numbers, moved with the text) until
    // this answer comes, so it must come quickly (ADR 90).
    const ready = this.graph.state(folder);
    const edits = this.tracked.get(doc.uri.toString());
    if (rel && edits && ready?.kind === 'ready' && ready.callsLayer && (doc.isDirty || this.graph.isStale(folder, rel)))
      return this.editedLenses(doc, folder, rel, edits);
    // A graph replaced while the file's declarations were on their way: ask the new one.
    for (let attempt = 0; attempt < 3 && rel; attempt++) {
      const state = this.graph.state(folder);
      // Absent and unusable graphs are said once, by the status bar and the tree, not on every file.
      if (!state || state.kind !== 'ready') return [];
      const graphNo = this.graph.graphOf(folder);
      const symbols = await this.graph.fileSymbolsOf(folder, rel, graphNo);
      if (token.isCancellationRequested) return [];
      if (symbols === undefined) continue;
      if (symbols.length === 0) return [];
      if (!state.callsLayer) return [this.noCallsLayer(folder)];
      // Staleness as it is now, after the wait: a save during it makes the file stale at once.
      if (doc.isDirty || this.graph.isStale(folder, rel)) return this.staleLenses(doc, folder, rel, symbols);
      const placed = symbols.filter((s) => s.line - 1 < doc.lineCount);
      // The document is what the graph was built from: its declarations stand on the graph's lines.
      this.tracked.set(
        doc.uri.toString(),
        new EditedDeclarations(
          doc.getText(),
          placed.map((s) => ({ id: s.id, line: s.line - 1, name: sourceName(s), kind: s.kind, symbol: s })),
          graphNo,
        ),
      );
      return placed.map((s) => {
        const pos = new vscode.Position(s.line - 1, Math.max(0, s.column - 1));
        return new CallersLens(new vscode.Range(pos, pos), folder, s, doc.uri, rel, graphNo);
      });
    }
    return [];
  }

  /**
   * An installed package's source file (ADR 124): a lens over each declaration this repository's
   * calls reach, counted as `kg callers <pkg:…>` counts them. None for an edited copy, a package
   * version the graph was not built against, or a graph without its calls layer.
   */
  private async packageLenses(doc: vscode.TextDocument, folder: string): Promise<vscode.CodeLens[]> {
    const state = this.graph.state(folder);
    if (!state || state.kind !== 'ready' || !state.callsLayer || doc.isDirty) return [];
    const owner = installedPackageOf(doc.uri.fsPath, vscode.Uri.parse(folder).fsPath);
    if (!owner) return [];
    const graphNo = this.graph.graphOf(folder);
    const symbols = await this.graph.packageFileSymbolsOf(
      folder,
      { pkg: owner.name, version: owner.version, path: owner.path, text: doc.getText() },
      graphNo,
    );
    if (!symbols) return [];
    const pkg = `${owner.name}@${owner.version}`;
    return symbols
      .filter((s) => s.line - 1 < doc.lineCount)
      .map((s) => {
        const pos = new vscode.Position(s.line - 1, Math.max(0, s.column - 1));
        return new PackageLens(new vscode.Range(pos, pos), folder, s, pkg, graphNo);
      });
  }

  private noCallsLayer(folder: string): vscode.CodeLens {
    return new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
      title: 'callers: the graph was built without its calls layer — Rebuild',
      tooltip:
        'This graph holds files, symbols and imports only (built with --extract-only), so callers are unknown, not zero. Rebuild to add them.',
      command: REBUILD_COMMAND,
      arguments: [vscode.Uri.parse(folder)],
    });
  }

  private staleCommand(doc: vscode.TextDocument, folder: string, rel: string): vscode.Command {
    return {
      title: STALE_TITLE,
      tooltip: `${rel} changed since the graph was built${doc.isDirty ? ' (unsaved changes)' : ''}: the counts would be out of date. Save and rebuild to see them again.`,
      command: BUILD_COMMAND,
      arguments: [vscode.Uri.parse(folder)],
    };
  }

  /**
   * The lenses of a document edited since it matched the graph `edits` were taken from: a lens to
   * count over each declaration the edits neither touched nor named, where it stands now; the
   * stale marker over the others (ADR 147). Edits seen against another graph than the one loaded
   * now: the marker over every declaration (ADR 90).
   */
  private editedLenses(doc: vscode.TextDocument, folder: string, rel: string, edits: EditedDeclarations<TrackedSymbol>): vscode.CodeLens[] {
    const graphNo = this.graph.graphOf(folder);
    const placed = edits.current().filter((d) => d.line < doc.lineCount);
    if (edits.graphNo !== graphNo) return this.markers(doc, folder, rel, new Set(placed.map((d) => d.line)));
    const stale = new Set(placed.filter((d) => edits.changed(d.id)).map((d) => d.line));
    const kept = placed
      .filter((d) => !edits.changed(d.id))
      .map((d) => {
        const pos = new vscode.Position(d.line, Math.max(0, d.symbol.column - 1));
        return new CallersLens(new vscode.Range(pos, pos), folder, d.symbol, doc.uri, rel, graphNo);
      });
    return [...(stale.size > 0 ? this.markers(doc, folder, rel, stale) : []), ...kept];
  }

  /**
   * The stale marker on each declaration where it stands now: where the edits since the document
   * last matched the graph carried it, else the nearest line that names it; once at the top when
   * none can be placed (ADR 90).
   */
  private staleLenses(doc: vscode.TextDocument, folder: string, rel: string, symbols: FileSymbol[]): vscode.CodeLens[] {
    const lines = this.tracked.get(doc.uri.toString())?.positions;
    const at = new Set<number>();
    for (const s of symbols) {
      const moved = lines?.get(s.id);
      const line = moved !== undefined && moved < doc.lineCount ? moved : nearestLineWith(doc, sourceName(s), s.line - 1);
      if (line !== undefined) at.add(line);
    }
    return this.markers(doc, folder, rel, at);
  }

  private markers(doc: vscode.TextDocument, folder: string, rel: string, at: Set<number>): vscode.CodeLens[] {
    const command = this.staleCommand(doc, folder, rel);
    const ranges = at.size > 0 ? [...at].sort((a, b) => a - b) : [0];
    return ranges.map((l) => new vscode.CodeLens(new vscode.Range(l, 0, l, 0), command));
  }

  async resolveCodeLens(lens: vscode.CodeLens): Promise<vscode.CodeLens> {
    if (lens instanceof PackageLens) {
      const counts = await this.counts.ask(`${lens.folder}\u0000${lens.graphNo}`, lens.symbol.id);
      lens.command = counts
        ? {
            title: packageCallersTitle(counts, lens.pkg),
            tooltip: `Calls in this repository the type checker placed on ${lens.symbol.label} of ${lens.pkg}, proven to this source file by the package's declaration map or build configuration. kg callers '${lens.symbol.id}' lists them.`,
            command: '',
          }
        : { title: 'callers: unknown (the graph is reloading)', command: '' };
      if (!counts) this.askAgain(lens.folder);
      return lens;
    }
    if (!(lens instanceof CallersLens)) return lens;
    const counts = await this.counts.ask(`${lens.folder}\u0000${lens.graphNo}`, lens.symbol.id);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === lens.uri.toString());
    // The file changed since the lens was placed: a number only where the edits, seen against the
    // graph the lens came from, cannot have changed it (ADR 90, ADR 147).
    const edited = doc && (doc.isDirty || this.graph.isStale(lens.folder, lens.file));
    if (doc && edited) {
      const edits = this.tracked.get(doc.uri.toString());
      if (!edits || edits.graphNo !== lens.graphNo || edits.changed(lens.symbol.id)) {
        lens.command = this.staleCommand(doc, lens.folder, lens.file);
        return lens;
      }
    }
    if (!counts) {
      lens.command = { title: 'callers: unknown (the graph is reloading)', command: '' };
      this.askAgain(lens.folder);
      return lens;
    }
    const showCandidates = vscode.workspace.getConfiguration('knowledgeGraph.codeLens', lens.uri).get<boolean>('showCandidates', true);
    const elsewhere = await this.elsewhere(lens);
    const title = callersTitle(counts, showCandidates) + (elsewhere ? otherCallersTitle(elsewhere.other) : '');
    const clickable = counts.callers > 0 || (showCandidates && counts.candidates > 0) || counts.through !== undefined;
    const tooltip = [
      ...(edited
        ? [
            `${lens.file} changed since the graph was built, but not this declaration or its name: the edits cannot have changed who calls it, so this is the graph's count.`,
          ]
        : []),
      clickable
        ? counts.candidates > 0 && showCandidates
          ? 'Proven callers (the type checker) and guesses (matched by name), kept apart'
          : 'Callers proven by the type checker'
        : 'No caller in the graph (proven or guessed)',
      ...throughTooltip(counts),
      ...referrersTooltip(counts),
      // What the graph cannot see, and why (ADR 153): never counted above.
      ...(counts.unanalysedReason !== undefined ? [counts.unanalysedReason] : []),
      ...(counts.unresolvedNamed !== undefined ? [UNRESOLVED_NAMED_TOOLTIP] : []),
      ...(elsewhere ? [otherCallersTooltip(elsewhere.other, elsewhere.repository, lens.symbol.id)] : []),
    ].join('\n');
    lens.command = clickable
      ? { title, tooltip, command: SHOW_CALLERS_OF_COMMAND, arguments: [lens.folder, lens.symbol.id, lens.uri, lens.range.start] }
      : { title, tooltip, command: '' };
    return lens;
  }

  /**
   * The store's count of the lens's callers in other repositories, when the folder has a store
   * (ADR 123); undefined when it has none. A store slower than STORE_WAIT_MS gives its count with a
   * refresh of the lenses, never by holding back the graph's own count.
   */
  private async elsewhere(lens: CallersLens): Promise<{ other: OtherCallers; repository: string } | undefined> {
    const url = vscode.workspace.getConfiguration('knowledgeGraph', lens.uri).get<string>('store', '').trim();
    if (!this.others || url === '') return undefined;
    const repository = this.graph.state(lens.folder)?.repository;
    if (repository === undefined) {
      return {
        repository: '<repository>',
        other: {
          kind: 'unknown',
          reason:
            'the graph names no repository, so the store cannot be asked about it: set "repository" in .knowledge-graph/config.json or a "name" in package.json, and rebuild',
        },
      };
    }
    const asked = this.storeCounts.ask(`${url}\u0000${repository}`, lens.symbol.id);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), STORE_WAIT_MS)));
    const other = await Promise.race([asked, late]);
    clearTimeout(timer);
    if (other) return { other, repository };
    void asked.then(() => this.changed.fire());
    return { repository, other: { kind: 'unknown', reason: 'the store has not answered yet; the lens refreshes when it does' } };
  }

  /**
   * A lens resolved without counts: its graph was replaced while it waited, or the worker could not
   * answer. The editor is asked for the lenses again shortly, a few times per graph, so that
   * "reloading" never stays drawn once the new graph answers — whether or not the editor acted on
   * the change event the new graph fired while its lenses were in flight.
   */
  private askAgain(folder: string): void {
    const graphNo = this.graph.graphOf(folder);
    const key = `${folder}\u0000${graphNo}`;
    const asked = this.reasked.get(key) ?? 0;
    if (asked >= REASK_LIMIT || this.reaskTimer) return;
    for (const k of this.reasked.keys()) if (k.startsWith(`${folder}\u0000`)) this.reasked.delete(k);
    this.reasked.set(key, asked + 1);
    this.reaskTimer = setTimeout(() => {
      this.reaskTimer = undefined;
      this.changed.fire();
    }, REASK_DELAY_MS);
  }

  dispose(): void {
    if (this.reaskTimer) clearTimeout(this.reaskTimer);
    this.subscriptions.forEach((d) => d.dispose());
  }
}

/**
 * Questions asked one id at a time by the lenses VS Code resolves together, sent as one request per
 * key (a folder and its graph; a store and a repository) on the next turn of the event loop.
 */
class Batcher<T> {
  private pending = new Map<string, Array<{ id: string; resolve(v: T): void }>>();
  private scheduled = false;

  constructor(
    private readonly send: (key: string, ids: string[]) => Promise<T[]>,
    /** The answer each id gets when the request fails. */
    private readonly failed: (e: unknown) => T,
  ) {}

  ask(key: string, id: string): Promise<T> {
    return new Promise((resolve) => {
      let list = this.pending.get(key);
      if (!list) this.pending.set(key, (list = []));
      list.push({ id, resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    const pending = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    for (const [key, list] of pending) {
      this.send(
        key,
        list.map((x) => x.id),
      ).then(
        (answers) => list.forEach((x, i) => x.resolve(answers[i])),
        (e: unknown) => list.forEach((x) => x.resolve(this.failed(e))),
      );
    }
  }
}
