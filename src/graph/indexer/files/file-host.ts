// The file system the builder sees, injected so unit tests can hand it a map of files while
// the CLI and the extension hand it the real disk. Paths are absolute and POSIX-style.

import * as fs from 'node:fs';
import * as path from 'node:path';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

interface DirEntry {
  name: string;
  type: EntryType;
  /** False when the name on disk is not valid UTF-8; `name` is then a lossy rendering. */
  validName: boolean;
}

export interface FileHost {
  /** Entries of a directory, without following symbolic links. Throws when unreadable. */
  readDir(dir: string): DirEntry[];
  /** Raw bytes of a file. Throws when unreadable. */
  readFile(file: string): Uint8Array;
  /**
   * Size and type of a path, following symbolic links; undefined when it does not exist. A host
   * that can also gives `stamp`, which changes whenever the file's bytes may have (its size,
   * modification and change times and inode), and `changedMs`, the later of those two times.
   */
  stat(p: string): { type: EntryType; size: number; stamp?: string; changedMs?: number } | undefined;
  /** The canonical path, following symbolic links; throws on a loop or a dangling link. */
  realpath(p: string): string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lossyUtf8 = new TextDecoder('utf-8', { fatal: false });

function decodeName(bytes: Uint8Array): { name: string; validName: boolean } {
  try {
    return { name: strictUtf8.decode(bytes), validName: true };
  } catch {
    return { name: lossyUtf8.decode(bytes), validName: false };
  }
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** The real disk. */
export const nodeFileHost: FileHost = {
  readDir(dir) {
    const entries = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
    return entries.map((d) => {
      const { name, validName } = decodeName(d.name);
      const type: EntryType = d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'directory' : d.isFile() ? 'file' : 'other';
      return { name, type, validName };
    });
  },
  readFile(file) {
    return fs.readFileSync(file);
  },
  stat(p) {
    try {
      const s = fs.statSync(p, { bigint: true });
      const changedNs = s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs;
      return {
        type: s.isDirectory() ? 'directory' : s.isFile() ? 'file' : 'other',
        size: Number(s.size),
        stamp: `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`,
        changedMs: Number(changedNs / 1_000_000n),
      };
    } catch {
      return undefined;
    }
  },
  realpath(p) {
    return toPosix(fs.realpathSync.native(p));
  },
};

/** An in-memory tree for unit tests: path → contents, or `{ symlink: target }`. */
export type MemoryTree = Record<string, string | Uint8Array | { symlink: string }>;

export function memoryFileHost(root: string, tree: MemoryTree): FileHost {
  const files = new Map<string, Uint8Array>();
  const links = new Map<string, string>();
  const dirs = new Set<string>([root]);
  const encoder = new TextEncoder();
  for (const [rel, content] of Object.entries(tree)) {
    const abs = path.posix.join(root, rel);
    if (typeof content === 'string') files.set(abs, encoder.encode(content));
    else if (content instanceof Uint8Array) files.set(abs, content);
    else links.set(abs, path.posix.resolve(path.posix.dirname(abs), content.symlink));
    for (let d = path.posix.dirname(abs); d.length >= root.length && !dirs.has(d); d = path.posix.dirname(d)) {
      dirs.add(d);
    }
  }
  const resolve = (p: string): string => {
    const seen = new Set<string>();
    let cur = p;
    for (;;) {
      // Resolve links on every prefix, so a link to a directory works like on disk.
      const parts = cur.split('/');
      let acc = '';
      let changed = false;
      for (let i = 1; i < parts.length; i++) {
        acc += '/' + parts[i];
        const target = links.get(acc);
        if (target !== undefined) {
          if (seen.has(acc)) throw Object.assign(new Error(`ELOOP: ${p}`), { code: 'ELOOP' });
          seen.add(acc);
          cur = path.posix.join(target, ...parts.slice(i + 1));
          changed = true;
          break;
        }
      }
      if (!changed) return cur;
    }
  };
  return {
    readDir(dir) {
      if (!dirs.has(dir)) throw Object.assign(new Error(`ENOENT: ${dir}`), { code: 'ENOENT' });
      const out = new Map<string, DirEntry>();
      const prefix = dir === '/' ? '/' : dir + '/';
      const add = (abs: string, type: EntryType) => {
        if (!abs.startsWith(prefix)) return;
        const rest = abs.slice(prefix.length);
        const slash = rest.indexOf('/');
        const name = slash < 0 ? rest : rest.slice(0, slash);
        if (name === '' || out.has(name)) return;
        out.set(name, { name, type: slash < 0 ? type : 'directory', validName: true });
      };
      for (const f of files.keys()) add(f, 'file');
      for (const l of links.keys()) add(l, 'symlink');
      for (const d of dirs) add(d, 'directory');
      return [...out.values()];
    },
    readFile(file) {
      const data = files.get(resolve(file));
      if (!data) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
      return data;
    },
    stat(p) {
      let r: string;
      try {
        r = resolve(p);
      } catch {
        return undefined;
      }
      const f = files.get(r);
      if (f) return { type: 'file', size: f.byteLength };
      if (dirs.has(r)) return { type: 'directory', size: 0 };
      return undefined;
    },
    realpath(p) {
      const r = resolve(p);
      if (!files.has(r) && !dirs.has(r)) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return r;
    },
  };
}
