// "Knowledge Graph: Compare With…": the structural diff of the working tree against a branch, tag
// or commit, in a view (docs/cli.md lists the report's fields; ADR 117). The report is the bundled
// `kg diff <ref>` — the same bytes the CLI prints, nothing computed here — shown as removed,
// renamed, re-signed and added symbols, each removed or changed one with the consumers it breaks
// (proven first, guesses marked). A click opens the declaration: the working tree's for what is
// still there, the base commit's content (read-only, from git's object store) for what is gone.
// git runs as compare-git.ts runs it: without a shell, refs as arguments, starting no program a
// repository's configuration names.

import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiffReport } from '../graph';
import { parseDiffReport } from '../protocol/diff-report';
import { fileAtCommit, listRefs, recentCommits } from './compare-git';
import { typedRef } from './typed-ref';

const COMPARE_COMMAND = 'knowledgeGraph.compareWith';
const COMPARE_VIEW = 'knowledgeGraph.compare';
const OPEN_DIFF_ENTRY = 'knowledgeGraph.openDiffEntry';
const BASE_SCHEME = 'kg-base';

type Side = 'head' | 'base';

interface At {
  file: string;
  line: number;
  column: number;
  side: Side;
}

/** One row of the view. */
export type DiffElement =
  | { type: 'section'; label: string; children: DiffElement[] }
  | { type: 'symbol'; label: string; description: string; at: At; children: DiffElement[] }
  | { type: 'consumer'; label: string; description: string; at: At }
  | { type: 'info'; label: string };

function run(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: env ?? process.env, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code as number) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

interface Consumerish {
  id: string;
  confidence: string;
  file: string;
  line: number;
  column: number;
  gone?: true;
  updated?: true;
}

function consumerRows(proven: Consumerish[], guessed: Consumerish[]): DiffElement[] {
  const row = (c: Consumerish, guess: boolean): DiffElement => ({
    type: 'consumer',
    label: c.id.replace(/^[a-z]+:/, ''),
    description: [
      guess ? 'guess (CANDIDATE): may break' : c.updated ? 'follows the rename' : c.gone ? 'gone too' : 'breaks',
      `${c.file}:${c.line}`,
    ].join(' · '),
    at: { file: c.file, line: c.line, column: c.column, side: 'head' },
  });
  return [...proven.map((c) => row(c, false)), ...guessed.map((c) => row(c, true))];
}

function breaksText(c: { proven: Consumerish[]; guessed: Consumerish[] }): string {
  const breaking = c.proven.filter((p) => !p.gone && !p.updated).length;
  const parts = [breaking > 0 ? `breaks ${plural(breaking, 'proven consumer')}` : 'no proven consumer breaks'];
  if (c.guessed.length > 0) parts.push(`+${c.guessed.length} guessed`);
  return parts.join(' · ');
}

/** The view's rows for a report (the in-host test reads them through the API). */
function diffElements(r: DiffReport): DiffElement[] {
  const s = r.symbols;
  const sections: DiffElement[] = [];
  const section = (label: string, children: DiffElement[]) => {
    if (children.length > 0) sections.push({ type: 'section', label: `${label} (${children.length})`, children });
  };
  section(
    'Removed',
    s.removed.map((x) => ({
      type: 'symbol',
      label: x.label,
      description: `${x.file}:${x.line} · ${breaksText(x)}`,
      at: { file: x.file, line: x.line, column: x.column, side: 'base' },
      children: consumerRows(x.proven, x.guessed),
    })),
  );
  section(
    'Renamed',
    s.renamed.map((x) => ({
      type: 'symbol',
      label: `${x.from.label} → ${x.to.label}`,
      description: `${x.to.file}:${x.to.line} · matched by ${x.matchedBy} · ${breaksText(x)}`,
      at: { file: x.to.file, line: x.to.line, column: x.to.column, side: 'head' },
      children: consumerRows(x.proven, x.guessed),
    })),
  );
  section(
    'Signature changed',
    s.signatureChanged.map((x) => ({
      type: 'symbol',
      label: x.label,
      description: `${x.file}:${x.now.line} · ${breaksText(x)}`,
      at: { file: x.file, line: x.now.line, column: x.now.column, side: 'head' },
      children: consumerRows(x.proven, x.guessed),
    })),
  );
  section(
    'Added',
    s.added.map((x) => ({
      type: 'symbol',
      label: x.label,
      description: `${x.file}:${x.line}${x.exported ? ' · exported' : ''}`,
      at: { file: x.file, line: x.line, column: x.column, side: 'head' },
      children: [],
    })),
  );
  if (sections.length === 0) return [{ type: 'info', label: 'No symbol was added, removed, renamed or re-signed.' }];
  return sections;
}

export class CompareView implements vscode.TreeDataProvider<DiffElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<DiffElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<DiffElement>;
  private readonly subscriptions: vscode.Disposable[];
  private rows: DiffElement[] = [];
  private current: { folder: vscode.WorkspaceFolder; ref: string; commit?: string; report: DiffReport } | undefined;

  constructor(
    private readonly cli: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.view = vscode.window.createTreeView(COMPARE_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions = [
      this.changed,
      this.view,
      vscode.commands.registerCommand(COMPARE_COMMAND, () => this.pickAndCompare()),
      vscode.commands.registerCommand(OPEN_DIFF_ENTRY, (at: At) => this.open(at)),
      vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, { provideTextDocumentContent: (uri) => this.baseContent(uri) }),
    ];
  }

  /** The rows shown now (for the in-host tests). */
  get elements(): readonly DiffElement[] {
    return this.rows;
  }

  private async pickAndCompare(): Promise<void> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder =
      (active && vscode.workspace.getWorkspaceFolder(active)) ??
      (vscode.workspace.workspaceFolders?.length === 1
        ? vscode.workspace.workspaceFolders[0]
        : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Compare which folder?' }));
    if (!folder) return;
    const root = folder.uri.fsPath;
    const refs = await listRefs(root);
    if (refs.code !== 0) {
      void vscode.window.showErrorMessage(`Knowledge Graph: "${folder.name}" is not a git repository: nothing to compare with.`);
      return;
    }
    const commits = await recentCommits(root);
    const items: vscode.QuickPickItem[] = [
      ...refs.stdout
        .split('\n')
        .filter((r) => r !== '')
        .map((r) => ({ label: r, description: 'branch or tag' })),
      ...commits.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => ({ label: l.split('\t')[0], description: l.split('\t').slice(1).join('\t') })),
    ];
    const ref = await this.pickRef(root, items);
    if (ref) await this.compare(folder, ref);
  }

  /**
   * The listed branches, tags and commits, and whatever else is typed that git takes for a commit
   * (HEAD~1, a tag, a SHA), checked as `kg diff` checks it (src/host/typed-ref.ts).
   */
  private pickRef(root: string, listed: vscode.QuickPickItem[]): Promise<string | undefined> {
    const qp = vscode.window.createQuickPick();
    qp.placeholder = 'Compare the working tree with… (a branch, a tag, a commit, or any ref git accepts: HEAD~1, a SHA)';
    qp.matchOnDescription = true;
    qp.items = listed;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const typed = (text: string) => {
      const t = typedRef(root, text);
      if (qp.value !== text) return;
      if (!t || (t.ok && listed.some((i) => i.label === t.ref))) {
        qp.items = listed;
        return;
      }
      qp.items = t.ok
        ? [{ label: t.ref, description: `commit ${t.commit.slice(0, 12)}, as typed`, alwaysShow: true }, ...listed]
        : [{ label: `$(error) ${t.reason}`, description: '', alwaysShow: true }, ...listed];
    };
    return new Promise((resolve) => {
      qp.onDidChangeValue((text) => {
        clearTimeout(timer);
        // git runs once typing pauses, not on every key.
        timer = setTimeout(() => typed(text), 150);
      });
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0];
        // Enter before the pause: the text as typed, if git takes it.
        const text = qp.value;
        const chosen = item && !item.label.startsWith('$(error)') ? item.label : typedRef(root, text)?.ok ? text.trim() : undefined;
        if (!chosen) return;
        resolve(chosen);
        qp.hide();
      });
      qp.onDidHide(() => {
        clearTimeout(timer);
        resolve(undefined);
        qp.dispose();
      });
      qp.show();
    });
  }

  /** Runs `kg diff <ref>` on the folder and shows it; the report, or why there is none. */
  async compare(folder: vscode.WorkspaceFolder, ref: string): Promise<{ ok: true; report: DiffReport } | { ok: false; message: string }> {
    const root = folder.uri.fsPath;
    // git reads the repository's own config, which an untrusted repository could have written.
    if (!vscode.workspace.isTrusted) {
      const message = 'comparing runs git in the folder, so it needs a trusted workspace';
      void vscode.window.showWarningMessage(`Knowledge Graph: ${message}.`);
      return { ok: false, message };
    }
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Knowledge Graph: comparing "${folder.name}" with ${ref}` },
      () => run(process.execPath, [this.cli, 'diff', ref, '--root', root], root, { ...process.env, ELECTRON_RUN_AS_NODE: '1' }),
    );
    if (r.code !== 0) {
      const message = r.stderr.trim().split('\n').slice(-3).join(' ') || `kg diff exited with ${r.code}`;
      this.log.warn(`compare with ${ref}: ${message}`);
      void vscode.window.showErrorMessage(`Knowledge Graph: cannot compare with ${ref}: ${message}`);
      return { ok: false, message };
    }
    const parsed = parseDiffReport(r.stdout);
    if ('problem' in parsed) {
      this.log.warn(`compare with ${ref}: ${parsed.problem}`);
      void vscode.window.showErrorMessage(`Knowledge Graph: cannot compare with ${ref}: ${parsed.problem}`);
      return { ok: false, message: parsed.problem };
    }
    const report = parsed.report;
    this.current = { folder, ref, commit: report.base.commit, report };
    this.rows = diffElements(report);
    const b = report.summary.breaking;
    this.view.message = `${folder.name}: working tree against ${ref}${report.base.commit ? ` (${report.base.commit.slice(0, 12)})` : ''} — ${plural(b.symbols, 'symbol')} with proven consumers, ${plural(b.provenConsumers, 'proven consumer')} broken, ${plural(b.guessedConsumers, 'guessed consumer')}.${report.problems.length > 0 ? ' ' + report.problems.join('; ') + '.' : ''}`;
    await vscode.commands.executeCommand('setContext', 'knowledgeGraph.compareShown', true);
    this.changed.fire(undefined);
    return { ok: true, report };
  }

  /** Opens an entry: the working tree's file, or the base commit's content for what is gone. */
  async open(at: At): Promise<vscode.TextEditor | undefined> {
    const c = this.current;
    if (!c) return undefined;
    const uri =
      at.side === 'base' && c.commit
        ? vscode.Uri.from({
            scheme: BASE_SCHEME,
            path: '/' + at.file,
            query: new URLSearchParams({ root: c.folder.uri.fsPath, commit: c.commit }).toString(),
          })
        : vscode.Uri.file(path.join(c.folder.uri.fsPath, ...at.file.split('/')));
    const pos = new vscode.Position(Math.max(0, at.line - 1), Math.max(0, at.column - 1));
    return vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true });
  }

  private async baseContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const root = q.get('root') ?? '';
    const commit = q.get('commit') ?? '';
    // A commit id and a repository-relative path, as arguments: `git show <commit>:<path>`.
    if (!/^[0-9a-f]{7,64}$/.test(commit)) return `(not a commit: ${commit})`;
    const r = await fileAtCommit(root, commit, uri.path.slice(1));
    return r.code === 0 ? r.stdout : `(git could not read ${uri.path.slice(1)} at ${commit}: ${r.stderr.trim()})`;
  }

  getTreeItem(e: DiffElement): vscode.TreeItem {
    if (e.type === 'info') return new vscode.TreeItem(e.label);
    if (e.type === 'section') {
      const item = new vscode.TreeItem(e.label, vscode.TreeItemCollapsibleState.Expanded);
      item.contextValue = 'kgDiffSection';
      return item;
    }
    const item = new vscode.TreeItem(
      e.label,
      e.type === 'symbol' && e.children.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.description = e.description;
    item.iconPath = new vscode.ThemeIcon(
      e.type === 'consumer' ? (e.description.startsWith('guess') ? 'question' : 'error') : 'symbol-method',
    );
    item.command = { title: 'Open', command: OPEN_DIFF_ENTRY, arguments: [e.at] };
    return item;
  }

  getChildren(e?: DiffElement): DiffElement[] {
    if (!e) return this.rows;
    return e.type === 'section' || e.type === 'symbol' ? e.children : [];
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
  }
}
