// The little of git that `kg diff` needs, by git's plumbing commands run directly (execFile, never a
// shell: a ref is an argument, so `main; rm -rf ~` is just a name git does not know). Nothing here
// checks anything out or runs a hook: a ref's tree is listed (ls-tree) and its blobs read
// (cat-file --batch) straight from the object store into a private folder (ADR 106).

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GraphError } from '../graph';

/** A ref git does not know, a shallow clone without the commit: the user can fix it (exit 2 or 3). */
export class RefError extends Error {
  constructor(
    message: string,
    readonly kind: 'usage' | 'unavailable',
  ) {
    super(message);
  }
}

// Settings a repository's own .git/config could use to run a program for a read-only command.
const SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat'];

function run(root: string, args: string[], input?: Buffer | string): SpawnSyncReturns<Buffer> {
  const r = spawnSync('git', ['-C', root, ...SAFE, ...args], {
    input,
    maxBuffer: 2 ** 31,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
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
  const r = run(root, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', a, b]);
  if (r.status !== 0) return undefined;
  return r.stdout
    .toString('utf8')
    .split('\0')
    .filter((s) => s !== '').length;
}

/** Files that moved with identical bytes between two trees (same blob, one path gone, one new). */
export function identicalMoves(root: string, a: string, b: string): Array<{ from: string; to: string }> {
  const r = run(root, ['diff-tree', '-r', '-z', '--find-renames=100%', '--diff-filter=R', a, b]);
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

function safeRelative(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && s.toLowerCase() !== '.git');
}

interface TreeEntry {
  mode: string;
  sha: string;
  file: string;
}

/**
 * Writes the files of `tree` under `dest` (an empty private folder) from git's object store:
 * blobs as files, symbolic links as links (the build never follows one, ADR 2), submodules
 * skipped. Returns how many files it wrote.
 */
export function exportTree(root: string, tree: string, dest: string): number {
  const list = run(root, ['ls-tree', '-r', '-z', '--full-tree', tree]);
  if (list.status !== 0) throw new RefError(`cannot list the tree ${tree}: ${list.stderr.toString('utf8').trim()}`, 'unavailable');
  const entries: TreeEntry[] = [];
  for (const rec of list.stdout.toString('utf8').split('\0')) {
    if (rec === '') continue;
    const m = /^(\d+) (blob|tree|commit) ([0-9a-f]+)\t(.*)$/s.exec(rec);
    if (!m || m[2] !== 'blob') continue;
    if (!safeRelative(m[4]))
      throw new GraphError('INVALID_ARGUMENT', `the tree ${tree} holds a path kg will not write: ${JSON.stringify(m[4])}`);
    entries.push({ mode: m[1], sha: m[3], file: m[4] });
  }
  return writeBlobs(root, tree, entries, dest);
}

/**
 * Turns `dest`, which holds the files of tree `from` as exportTree wrote them, into the files of
 * tree `to` (ADR 135): the paths `git diff-tree` names are removed, then the new side of each is
 * written; folders left empty go. Returns how many paths differed. Unchanged files are not touched,
 * so a warm build server sees only the changed ones move (ADR 120).
 */
export function updateTree(root: string, from: string, to: string, dest: string): number {
  const r = run(root, ['diff-tree', '-r', '-z', '--no-renames', from, to]);
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
    if (!safeRelative(file))
      throw new GraphError('INVALID_ARGUMENT', `the tree ${to} holds a path kg will not write: ${JSON.stringify(file)}`);
    changed++;
    // Submodules were never written; anything else on the old side goes before the new side is written.
    if (oldMode !== '000000' && oldMode !== '160000') removed.push(file);
    if (newMode !== '000000' && newMode !== '160000') writes.push({ mode: newMode, sha, file });
  }
  for (const file of removed) fs.rmSync(path.join(dest, ...file.split('/')), { force: true });
  // Folders the removals emptied, deepest first (a fresh export would not hold them).
  const parents = new Set<string>();
  for (const file of removed) for (let d = path.posix.dirname(file); d !== '.'; d = path.posix.dirname(d)) parents.add(d);
  for (const d of [...parents].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))) {
    const abs = path.join(dest, ...d.split('/'));
    try {
      if (fs.readdirSync(abs).length === 0) fs.rmdirSync(abs);
    } catch {
      // not there, or not a folder any more
    }
  }
  writeBlobs(root, to, writes, dest);
  return changed;
}

/** Writes `entries` of `tree` under `dest` (where none of their paths exists): files, then links. */
function writeBlobs(root: string, tree: string, entries: TreeEntry[], dest: string): number {
  if (entries.length === 0) return 0;
  const cat = run(root, ['cat-file', '--batch'], entries.map((e) => e.sha).join('\n') + '\n');
  if (cat.status !== 0) throw new RefError(`cannot read the objects of ${tree}: ${cat.stderr.toString('utf8').trim()}`, 'unavailable');
  const buf = cat.stdout;
  let at = 0;
  const links: Array<{ file: string; target: string }> = [];
  const dirs = new Set<string>();
  for (const e of entries) {
    const nl = buf.indexOf(0x0a, at);
    const header = buf.toString('utf8', at, nl);
    const h = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!h || h[1] !== e.sha) throw new RefError(`git could not read object ${e.sha} (${e.file}): ${header}`, 'unavailable');
    const size = Number(h[3]);
    const content = buf.subarray(nl + 1, nl + 1 + size);
    at = nl + 1 + size + 1;
    if (e.mode === '120000') {
      links.push({ file: e.file, target: content.toString('utf8') });
      continue;
    }
    const abs = path.join(dest, ...e.file.split('/'));
    const dir = path.dirname(abs);
    if (!dirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      dirs.add(dir);
    }
    fs.writeFileSync(abs, content, { mode: 0o600 });
  }
  // Links last, so no folder is ever created through one.
  for (const l of links) {
    const abs = path.join(dest, ...l.file.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true, mode: 0o700 });
    try {
      fs.symlinkSync(l.target, abs);
    } catch {
      // A system without symbolic links: the build would skip the link anyway.
    }
  }
  return entries.length - links.length;
}
