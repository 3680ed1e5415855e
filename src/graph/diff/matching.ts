// What the diff calls a match (ADR 104): a file renamed when git found the same bytes under a new
// path, or when every declaration it holds kept its name, kind and signature and no other file
// pair shares that list; a symbol renamed when its file was, or when it kept its name, kind and
// signature and is the only one on both sides with them; a rename candidate when a symbol of the
// same kind and signature appeared in the same file (only a guess: both stay removed and added).

import { compareStrings } from '../model';
import type { DiffInput, FileRename, RenameCandidate, SymbolMatch } from './report-shape';
import { push, sorted, uniquePairs, type Sym } from './symbols';

export interface FileMatch {
  removedFiles: string[];
  addedFiles: string[];
  /** Sorted by `from`. */
  fileRenames: FileRename[];
  renamedFile: Map<string, FileRename>;
  /** Added files that are a renamed file's new path. */
  taken: Set<string>;
}

export function matchFiles(
  identicalMoves: DiffInput['identicalMoves'],
  base: { files: ReadonlySet<string>; syms: ReadonlyMap<string, Sym> },
  head: { files: ReadonlySet<string>; syms: ReadonlyMap<string, Sym> },
): FileMatch {
  const removedFiles = sorted([...base.files].filter((f) => !head.files.has(f)));
  const addedFiles = sorted([...head.files].filter((f) => !base.files.has(f)));
  const fileRenames: FileRename[] = [];
  const renamedFile = new Map<string, FileRename>();
  const claim = (r: FileRename) => {
    fileRenames.push(r);
    renamedFile.set(r.from, r);
  };
  const removedSet = new Set(removedFiles);
  const addedSet = new Set(addedFiles);
  const taken = new Set<string>();
  for (const m of [...(identicalMoves ?? [])].sort((a, b) => compareStrings(a.from, b.from) || compareStrings(a.to, b.to))) {
    if (!removedSet.has(m.from) || !addedSet.has(m.to) || renamedFile.has(m.from) || taken.has(m.to)) continue;
    taken.add(m.to);
    claim({ from: m.from, to: m.to, matchedBy: 'identical-content' });
  }
  const declarationsOf = (syms: ReadonlyMap<string, Sym>) => {
    const byFile = new Map<string, string[]>();
    for (const s of syms.values()) push(byFile, s.file, `${s.name}\t${s.node.kind}\t${s.node.signature ?? '-'}`);
    return byFile;
  };
  const declKey = (decl: Map<string, string[]>) => (f: string) => {
    const d = decl.get(f);
    return d === undefined ? undefined : d.sort(compareStrings).join('\n');
  };
  const fromKey = declKey(declarationsOf(base.syms));
  const toKey = declKey(declarationsOf(head.syms));
  const pairs = uniquePairs(
    removedFiles.filter((f) => !renamedFile.has(f)).map((f) => ({ f, k: fromKey(f) })),
    addedFiles.filter((f) => !taken.has(f)).map((f) => ({ f, k: toKey(f) })),
    (x) => x.k,
  );
  for (const [a, b] of pairs) {
    taken.add(b.f);
    claim({ from: a.f, to: b.f, matchedBy: 'same-declarations' });
  }
  fileRenames.sort((a, b) => compareStrings(a.from, b.from));
  return { removedFiles, addedFiles, fileRenames, renamedFile, taken };
}

export interface SymbolMatches {
  /** Base symbols the head does not hold, sorted. */
  removedIds: string[];
  /** Head symbols the base does not hold, sorted. */
  addedIds: string[];
  renamedTo: Map<string, { to: string; matchedBy: SymbolMatch }>;
  /** Added ids that are a renamed symbol's new id. */
  matchedHead: Set<string>;
  /** Sorted by `from`; their consumer counts are filled in later. */
  candidates: RenameCandidate[];
}

export function matchSymbols(
  baseSyms: ReadonlyMap<string, Sym>,
  headSyms: ReadonlyMap<string, Sym>,
  renamedFile: ReadonlyMap<string, FileRename>,
): SymbolMatches {
  const removedIds = sorted([...baseSyms.keys()].filter((id) => !headSyms.has(id)));
  const addedIds = sorted([...headSyms.keys()].filter((id) => !baseSyms.has(id)));
  const renamedTo = new Map<string, { to: string; matchedBy: SymbolMatch }>();
  const matchedHead = new Set<string>();
  const addedByFileName = new Map<string, string>();
  for (const id of addedIds) {
    const s = headSyms.get(id) as Sym;
    addedByFileName.set(`${s.file}\u0000${s.name}`, id);
  }
  for (const id of removedIds) {
    const s = baseSyms.get(id) as Sym;
    const fr = renamedFile.get(s.file);
    if (!fr) continue;
    const to = addedByFileName.get(`${fr.to}\u0000${s.name}`);
    if (to === undefined) continue;
    renamedTo.set(id, { to, matchedBy: fr.matchedBy });
    matchedHead.add(to);
  }
  const unmatched = () => ({
    removed: removedIds.filter((id) => !renamedTo.has(id)).map((id) => baseSyms.get(id) as Sym),
    added: addedIds.filter((id) => !matchedHead.has(id)).map((id) => headSyms.get(id) as Sym),
  });
  const signed = (s: Sym) => (s.node.signature === undefined ? undefined : `${s.name}\t${s.node.kind}\t${s.node.signature}`);
  const first = unmatched();
  for (const [a, b] of uniquePairs(first.removed, first.added, signed)) {
    if (a.file === b.file) continue; // same file, same name: same id — cannot happen; guard anyway
    renamedTo.set(a.node.id, { to: b.node.id, matchedBy: 'same-name-and-signature' });
    matchedHead.add(b.node.id);
  }
  // Candidates: same file (or its renamed path), same kind and signature, unique there.
  const candidates: RenameCandidate[] = [];
  const headFileOf = (file: string) => renamedFile.get(file)?.to ?? file;
  const parentKey = (p: string | undefined, side: 'base' | 'head') =>
    p === undefined ? '' : side === 'base' ? (renamedTo.get(p)?.to ?? p) : p;
  const rest = unmatched();
  for (const [a, b] of uniquePairs(
    rest.removed,
    rest.added,
    (s) =>
      s.node.signature === undefined
        ? undefined
        : `${headFileOf(s.file)}\t${s.node.kind}\t${s.node.signature}\t${parentKey(s.parent, 'base')}`,
    (s) => (s.node.signature === undefined ? undefined : `${s.file}\t${s.node.kind}\t${s.node.signature}\t${parentKey(s.parent, 'head')}`),
  ))
    candidates.push({ from: a.node.id, to: b.node.id, evidence: 'same-file-kind-and-signature', consumersFollowed: 0, consumers: 0 });
  candidates.sort((a, b) => compareStrings(a.from, b.from));
  return { removedIds, addedIds, renamedTo, matchedHead, candidates };
}
