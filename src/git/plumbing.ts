// The little of git that `kg diff`, `kg tests`, the graph cache and the editor's compare need, by git's
// plumbing commands run directly (execFile, never a
// shell: a ref is an argument, so `main; rm -rf ~` is just a name git does not know). Nothing here
// checks anything out or runs a hook: a ref's tree is listed (ls-tree) and its blobs read
// (cat-file --batch) straight from the object store into a private folder (ADR 106), never
// through a link, and git starts no program the repository's configuration names (ADR 143).

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A ref git does not know, a shallow clone without the commit: the user can fix it (exit 2 or 3). */
export class RefError extends Error {
  constructor(
    message: string,
    readonly kind: 'usage' | 'unavailable',
  ) {
    super(message);
  }
}

/**
 * How kg runs git on a repository it does not trust (ADR 143): its own .git/config can name
 * programs for git to run, and a read must run none of them. The options turn off what a read
 * command could start — the file-system monitor (core.fsmonitor), hooks (core.hooksPath), the
 * pager — and the environment forbids every transport, so nothing is fetched: a partial clone
 * fetches a missing object by starting `remote.<name>.uploadpack` or `core.sshCommand`.
 * GIT_NO_LAZY_FETCH says the same to a git from 2.45 on; GIT_ALLOW_PROTOCOL (an allow-list naming
 * no transport, which overrides every protocol.* setting) to older ones. Filters and textconv
 * drivers never run: objects are read with `cat-file --batch`, trees compared by name only, and the
 * working tree compared with every filter driver emptied (filtersOff, ADR 176).
 */
export const SAFE_GIT_OPTIONS: readonly string[] = [
  '--no-pager',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'protocol.allow=never',
];

/** The environment for git beside SAFE_GIT_OPTIONS: `env` with what makes git start nothing. */
export function safeGitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_LAZY_FETCH: '1',
    GIT_ALLOW_PROTOCOL: 'kg-fetches-nothing',
    GIT_PAGER: 'cat',
    GIT_SSH_COMMAND: 'false',
    GIT_ASKPASS: 'false',
    SSH_ASKPASS: 'false',
    LC_ALL: 'C',
  };
}

function run(root: string, args: string[], input?: Buffer | string): SpawnSyncReturns<Buffer> {
  const r = spawnSync('git', [...SAFE_GIT_OPTIONS, '-C', root, ...args], {
    input,
    maxBuffer: 2 ** 31,
    env: safeGitEnv(process.env),
    windowsHide: true,
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    throw new RefError(
      code === 'ENOENT' ? 'git is not installed (kg diff needs it to read refs)' : `git failed: ${r.error.message}`,
      'unavailable',
    );
  }
  return r;
}

function out(root: string, args: string[]): string | undefined {
  const r = run(root, args);
  return r.status === 0 ? r.stdout.toString('utf8').trim() : undefined;
}

/** The top of the work tree `dir` is in, or undefined when it is not in one. */
export function gitTopLevel(dir: string): string | undefined {
  return out(dir, ['rev-parse', '--show-toplevel']);
}

function isShallow(root: string): boolean {
  return out(root, ['rev-parse', '--is-shallow-repository']) === 'true';
}

/**
 * What a ref names: its commit and tree. A name that is not a ref git knows (or that looks like an
 * option) is a usage error; in a shallow clone, the message says how to get the history.
 */
export function resolveRef(root: string, ref: string): { commit: string; tree: string } {
  // eslint-disable-next-line no-control-regex -- control characters are what a ref may not hold
  if (ref === '' || ref.startsWith('-') || /[\u0000-\u001f\u007f]/.test(ref))
    throw new RefError(`not a ref: ${JSON.stringify(ref)}`, 'usage');
  const commit = out(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) {
    const hint = isShallow(root) ? ' (this clone is shallow: fetch the history, e.g. actions/checkout with fetch-depth: 0)' : '';
    throw new RefError(`unknown ref: ${JSON.stringify(ref)}: git knows no commit by that name${hint}`, 'usage');
  }
  const tree = out(root, ['rev-parse', '--verify', '--quiet', `${commit}^{tree}`]);
  if (tree === undefined) throw new RefError(`the tree of ${ref} (${commit}) is not in this clone`, 'unavailable');
  return { commit, tree };
}

/**
 * The worktree around `root` as the graph cache needs it (ADR 166): its top folder, the repository's
 * common folder (shared by every worktree), and the commit checked out with its tree. Undefined when
 * git does not know `root` or nothing is committed yet.
 */
export function worktreeHead(root: string): { top: string; commonDir: string; commit: string; tree: string } | undefined {
  const r = run(root, ['rev-parse', '--show-toplevel', '--git-common-dir', 'HEAD', 'HEAD^{tree}']);
  if (r.status !== 0) return undefined;
  const [top, common, commit, tree] = r.stdout.toString('utf8').split('\n');
  if (!top || !common || !/^[0-9a-f]{40,64}$/.test(commit ?? '') || !/^[0-9a-f]{40,64}$/.test(tree ?? '')) return undefined;
  return { top, commonDir: path.resolve(root, common), commit, tree };
}

/** The trees of HEAD's first-parent ancestors, nearest first (HEAD's own first), at most `max`; [] when git cannot say. */
export function ancestorTrees(root: string, max: number): string[] {
  const r = run(root, ['log', '--first-parent', `--max-count=${max}`, '--no-show-signature', '--format=%T', 'HEAD', '--']);
  if (r.status !== 0) return [];
  return splitLines(r.stdout);
}

function splitLines(out: Buffer): string[] {
  return out
    .toString('utf8')
    .split('\n')
    .filter((s) => s !== '');
}

/** The branch pull requests merge into: origin's HEAD, else main, else master. */
export function defaultBranch(root: string): string | undefined {
  const remoteHead = out(root, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  if (remoteHead) return remoteHead.replace(/^refs\/remotes\//, '');
  for (const b of ['main', 'master', 'origin/main', 'origin/master'])
    if (
      out(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${b}`]) ||
      out(root, ['rev-parse', '--verify', '--quiet', `refs/remotes/${b}`])
    )
      return b;
  return undefined;
}

export function mergeBase(root: string, a: string, b: string): string {
  const base = out(root, ['merge-base', a, b]);
  if (base === undefined) {
    const why = isShallow(root)
      ? 'this clone is shallow and lacks the history to find it (fetch with fetch-depth: 0, or name BASE explicitly)'
      : 'they share no history';
    throw new RefError(`no merge base of ${a} and ${b}: ${why}`, 'unavailable');
  }
  return base;
}

/** Paths that differ between two trees (`git diff-tree -r`), or undefined when either is missing. */
export function changedPaths(root: string, a: string, b: string): number | undefined {
  const r = run(root, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--no-textconv', '--no-ext-diff', a, b]);
  if (r.status !== 0) return undefined;
  return r.stdout
    .toString('utf8')
    .split('\0')
    .filter((s) => s !== '').length;
}

/** Files that moved with identical bytes between two trees (same blob, one path gone, one new). */
export function identicalMoves(root: string, a: string, b: string): Array<{ from: string; to: string }> {
  const r = run(root, ['diff-tree', '-r', '-z', '--find-renames=100%', '--diff-filter=R', '--no-textconv', '--no-ext-diff', a, b]);
  if (r.status !== 0) return [];
  const parts = r.stdout.toString('utf8').split('\0');
  const moves: Array<{ from: string; to: string }> = [];
  // Each rename is ":<modes> <shas> R100\0<from>\0<to>\0".
  for (let i = 0; i + 2 < parts.length; i++) {
    if (!/^:.* R100$/.test(parts[i])) continue;
    moves.push({ from: parts[i + 1], to: parts[i + 2] });
    i += 2;
  }
  return moves;
}

/** The paths that differ between two trees (`git diff-tree -r`), sorted; throws when either is missing. */
export function pathsBetween(root: string, a: string, b: string): string[] {
  const r = run(root, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--no-textconv', '--no-ext-diff', a, b]);
  if (r.status !== 0) throw new RefError(`cannot compare the trees ${a} and ${b}: ${r.stderr.toString('utf8').trim()}`, 'unavailable');
  return splitPaths(r.stdout);
}

/**
 * The paths of the working tree that differ from `tree`: tracked files changed or removed (`git
 * diff-index`; a file only touched may be listed too, and its code then compares equal; the index is
 * not written) and files git does not track and does not ignore. Sorted.
 */
export function worktreePathsFrom(root: string, tree: string): string[] {
  const tracked = run(root, [
    ...filtersOff(root),
    'diff-index',
    '-z',
    '--name-only',
    '--no-renames',
    '--no-textconv',
    '--no-ext-diff',
    tree,
    '--',
  ]);
  if (tracked.status !== 0)
    throw new RefError(`cannot compare the working tree with ${tree}: ${tracked.stderr.toString('utf8').trim()}`, 'unavailable');
  const untracked = run(root, ['ls-files', '-z', '--others', '--exclude-standard']);
  if (untracked.status !== 0) throw new RefError(`cannot list untracked files: ${untracked.stderr.toString('utf8').trim()}`, 'unavailable');
  return [...new Set([...splitPaths(tracked.stdout), ...splitPaths(untracked.stdout)])].sort();
}

/**
 * `-c` options that empty every filter driver git's configuration names. Comparing the working tree
 * with a tree (`diff-index`) reads a file whose index entry is racily clean through its
 * `filter.<driver>.clean` or `.process` command — a program the repository's .git/config can name —
 * and no option turns filters off. An empty command is no filter (git runs none), and `required=false`
 * keeps git from failing for the lack of one; such a file then compares by its raw bytes, so it may
 * be listed as changed when only its filter would have made it equal: a path listed too many costs a
 * file compared, never a wrong answer (see worktreePathsFrom). Listing the configuration runs nothing.
 */
function filtersOff(root: string): string[] {
  const r = run(root, [...FILTER_CONFIG_ARGS]);
  // Status 1: no such key, nothing to empty.
  if (r.status !== 0) return [];
  return filtersOffFrom(r.stdout.toString('utf8'));
}

/** The git arguments that list the filter drivers' configuration (`-z`), for filtersOffFrom. */
export const FILTER_CONFIG_ARGS: readonly string[] = ['config', '-z', '--get-regexp', '^filter\\.'];

/** The `-c` options that empty every filter driver named in `config -z --get-regexp` output (see filtersOff). */
export function filtersOffFrom(configOutput: string): string[] {
  const drivers = new Set<string>();
  for (const item of configOutput.split('\0')) {
    const key = item.split('\n', 1)[0];
    const m = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (m) drivers.add(m[1]);
  }
  return [...drivers].sort().flatMap((d) => ['-c', `filter.${d}.clean=`, '-c', `filter.${d}.process=`, '-c', `filter.${d}.required=false`]);
}

function splitPaths(out: Buffer): string[] {
  return out
    .toString('utf8')
    .split('\0')
    .filter((s) => s !== '')
    .sort();
}

/** The text of `file` in `tree` (UTF-8), or undefined when the tree holds no such file. Read from the object store, no filter. */
export function textAt(root: string, tree: string, file: string): string | undefined {
  const r = run(root, ['cat-file', 'blob', `${tree}:${file}`]);
  return r.status === 0 ? r.stdout.toString('utf8') : undefined;
}

function safeRelative(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git');
}

/**
 * A tree kg refuses to write: a path that leaves the folder or enters a `.git`, one path twice, or a
 * path that is a file (or link) and a folder at once. git never makes such a tree, but a crafted
 * one can hold them (a duplicate entry, a name containing `/`): issue 55 wrote through a committed
 * link that way. Refusing it makes the ref's side unavailable (exit 3), not an internal error.
 */
export class UnwritableTreeError extends RefError {
  constructor(tree: string, why: string) {
    super(`the tree ${tree} holds ${why}: kg will not write it`, 'unavailable');
  }
}

interface TreeEntry {
  mode: string;
  sha: string;
  file: string;
}

/** The blobs (files and links) of `tree`, every path checked: throws UnwritableTreeError for a tree kg will not write. */
function listTree(root: string, tree: string): TreeEntry[] {
  const list = run(root, ['ls-tree', '-r', '-z', '--full-tree', tree]);
  if (list.status !== 0) throw new RefError(`cannot list the tree ${tree}: ${list.stderr.toString('utf8').trim()}`, 'unavailable');
  const entries: TreeEntry[] = [];
  const paths = new Set<string>();
  for (const rec of list.stdout.toString('utf8').split('\0')) {
    if (rec === '') continue;
    const m = /^(\d+) (blob|tree|commit) ([0-9a-f]+)\t(.*)$/s.exec(rec);
    if (!m || m[2] !== 'blob') continue;
    const file = m[4];
    if (!safeRelative(file)) throw new UnwritableTreeError(tree, `a path outside a plain folder (${JSON.stringify(file)})`);
    if (paths.has(file)) throw new UnwritableTreeError(tree, `the path ${JSON.stringify(file)} twice`);
    paths.add(file);
    entries.push({ mode: m[1], sha: m[3], file });
  }
  for (const file of paths)
    for (let d = path.posix.dirname(file); d !== '.'; d = path.posix.dirname(d))
      if (paths.has(d)) throw new UnwritableTreeError(tree, `${JSON.stringify(d)} as a file and as the folder of ${JSON.stringify(file)}`);
  return entries;
}

/**
 * Writes the files of `tree` under `dest` (an empty private folder) from git's object store:
 * blobs as files, symbolic links as links (the build never follows one, ADR 2), submodules
 * skipped. Returns how many files it wrote.
 */
export function exportTree(root: string, tree: string, dest: string): number {
  return writeBlobs(root, tree, listTree(root, tree), dest);
}

/**
 * Turns `dest`, which holds the files of tree `from` as exportTree wrote them, into the files of
 * tree `to` (ADR 135): the paths `git diff-tree` names are removed, then the new side of each is
 * written; folders left empty go. Returns how many paths differed. Unchanged files are not touched,
 * so a warm build server sees only the changed ones move (ADR 120). A tree kg will not write is
 * refused (UnwritableTreeError) before `dest` is touched.
 */
export function updateTree(root: string, from: string, to: string, dest: string): number {
  // The whole of `to` is checked, not only the paths that differ: a path added under a link the
  // folder already holds (a duplicate entry) differs alone.
  listTree(root, to);
  const r = run(root, ['diff-tree', '-r', '-z', '--no-renames', '--no-textconv', '--no-ext-diff', from, to]);
  if (r.status !== 0) throw new RefError(`cannot compare the trees ${from} and ${to}: ${r.stderr.toString('utf8').trim()}`, 'unavailable');
  const parts = r.stdout.toString('utf8').split('\0');
  const writes: TreeEntry[] = [];
  const removed: string[] = [];
  let changed = 0;
  // Each change is ":<old mode> <new mode> <old sha> <new sha> <status>\0<path>\0".
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d+) (\d+) [0-9a-f]+ ([0-9a-f]+) [A-Z]\d*$/.exec(parts[i]);
    if (!m) throw new RefError(`git compared ${from} and ${to} in a form kg does not read: ${JSON.stringify(parts[i])}`, 'unavailable');
    const [, oldMode, newMode, sha] = m;
    const file = parts[i + 1];
    if (!safeRelative(file)) throw new UnwritableTreeError(to, `a path outside a plain folder (${JSON.stringify(file)})`);
    changed++;
    // Submodules were never written; anything else on the old side goes before the new side is written.
    if (oldMode !== '000000' && oldMode !== '160000') removed.push(file);
    if (newMode !== '000000' && newMode !== '160000') writes.push({ mode: newMode, sha, file });
  }
  for (const file of removed) removeAt(dest, file);
  // Folders the removals emptied, deepest first (a fresh export would not hold them).
  const parents = new Set<string>();
  for (const file of removed) for (let d = path.posix.dirname(file); d !== '.'; d = path.posix.dirname(d)) parents.add(d);
  for (const d of [...parents].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))) {
    const abs = realFolderAt(dest, d);
    try {
      if (abs !== undefined && fs.readdirSync(abs).length === 0) fs.rmdirSync(abs);
    } catch {
      // not there, or not a folder any more
    }
  }
  writeBlobs(root, to, writes, dest);
  return changed;
}

function lstatOf(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** `dir` (a tree path) under `dest` when every part of it is a real folder there, never through a link; else undefined. */
function realFolderAt(dest: string, dir: string): string | undefined {
  let at = dest;
  for (const part of dir.split('/')) {
    at = path.join(at, part);
    if (!lstatOf(at)?.isDirectory()) return undefined;
  }
  return at;
}

/** Removes what stands at `file` under `dest`, unless a folder on its way is not a real folder (then it is not in `dest`). */
function removeAt(dest: string, file: string): void {
  const dir = path.posix.dirname(file);
  const parent = dir === '.' ? dest : realFolderAt(dest, dir);
  if (parent === undefined) return;
  const abs = path.join(parent, path.posix.basename(file));
  const st = lstatOf(abs);
  if (st) fs.rmSync(abs, { recursive: st.isDirectory(), force: true });
}

/**
 * Where `file` (a tree path) is written under `dest`, never through a link (issue 55): each folder
 * on the way is looked at without following it, and a link or a file standing where a folder goes
 * is removed and a real folder made; whatever stands at the name itself is removed too. `made`
 * holds the folders already made real in this write.
 */
function placeFor(dest: string, file: string, made: Set<string>): string {
  const parts = file.split('/');
  let dir = dest;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    if (made.has(dir)) continue;
    const st = lstatOf(dir);
    if (!st?.isDirectory()) {
      if (st) fs.unlinkSync(dir);
      fs.mkdirSync(dir, { mode: 0o700 });
    }
    made.add(dir);
  }
  const abs = path.join(dir, parts[parts.length - 1]);
  const st = lstatOf(abs);
  if (st) fs.rmSync(abs, { recursive: st.isDirectory(), force: true });
  return abs;
}

/**
 * Writes `entries` of `tree` under `dest`: files, then links, each placed without following a link
 * (placeFor) and created exclusively, so nothing is ever written through one. A blob this clone
 * does not hold (a partial clone) is not fetched: the side is unavailable, with the paths named.
 */
function writeBlobs(root: string, tree: string, entries: TreeEntry[], dest: string): number {
  if (entries.length === 0) return 0;
  const cat = run(root, ['cat-file', '--batch'], entries.map((e) => e.sha).join('\n') + '\n');
  if (cat.status !== 0) {
    // A git before 2.45 stops at the first missing object, failing to fetch it: name them all.
    const absent = missingObjects(root, tree);
    const missing = entries.filter((e) => absent.has(e.sha)).map((e) => e.file);
    if (missing.length > 0) throw notInClone(tree, missing);
    throw new RefError(`cannot read the objects of ${tree}: ${cat.stderr.toString('utf8').trim()}`, 'unavailable');
  }
  const buf = cat.stdout;
  let at = 0;
  const links: Array<{ file: string; target: string }> = [];
  const blobs: Array<{ file: string; content: Buffer }> = [];
  const missing: string[] = [];
  for (const e of entries) {
    const nl = buf.indexOf(0x0a, at);
    const header = buf.toString('utf8', at, nl);
    if (header === `${e.sha} missing`) {
      missing.push(e.file);
      at = nl + 1;
      continue;
    }
    const h = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!h || h[1] !== e.sha) throw new RefError(`git could not read object ${e.sha} (${e.file}): ${header}`, 'unavailable');
    const size = Number(h[3]);
    const content = buf.subarray(nl + 1, nl + 1 + size);
    at = nl + 1 + size + 1;
    if (e.mode === '120000') links.push({ file: e.file, target: content.toString('utf8') });
    else blobs.push({ file: e.file, content });
  }
  if (missing.length > 0) throw notInClone(tree, missing);
  const made = new Set<string>();
  for (const b of blobs) fs.writeFileSync(placeFor(dest, b.file, made), b.content, { mode: 0o600, flag: 'wx' });
  // Links last, so no folder is ever made through one.
  for (const l of links) {
    const abs = placeFor(dest, l.file, made);
    try {
      fs.symlinkSync(l.target, abs);
    } catch {
      // A system without symbolic links: the build would skip the link anyway.
    }
  }
  return blobs.length;
}

/** The objects of `tree` this clone does not hold, found without fetching any (`rev-list --missing=print`). */
function missingObjects(root: string, tree: string): Set<string> {
  const r = run(root, ['rev-list', '--objects', '--no-object-names', '--missing=print', tree]);
  const out = new Set<string>();
  if (r.status !== 0) return out;
  for (const line of r.stdout.toString('utf8').split('\n')) if (line.startsWith('?')) out.add(line.slice(1).trim());
  return out;
}

/** A ref's side whose files a partial clone does not hold: unavailable, never fetched (ADR 143). */
function notInClone(tree: string, missing: string[]): RefError {
  const shown = missing.slice(0, 5).map((f) => JSON.stringify(f));
  return new RefError(
    `${missing.length} file${missing.length === 1 ? '' : 's'} of the tree ${tree} ${missing.length === 1 ? 'is' : 'are'} not in this clone ` +
      `(${shown.join(', ')}${missing.length > 5 ? ', …' : ''}): it is a partial clone, and kg never has git fetch what is missing ` +
      `(a fetch runs programs the repository's configuration names); fetch them with git and run kg diff again`,
    'unavailable',
  );
}
