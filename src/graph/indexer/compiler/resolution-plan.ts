// Which files a change can affect (resolution tier of the incremental build, incremental.ts): a
// file's call sites resolve through what the files it imports let it see. A changed file is
// resolved again; when its shape — what other files can see of it (file-shape.ts) — changed, its
// surface (surface.ts) says which exported names did, and only the files that take one of those
// names (or the whole module: a namespace import, `export *`, a dynamic import) are resolved
// again, going on to their importers only with the names of their own that the changed ones reach
// (ADR 118). A file without a surface (JavaScript, `export =`) is judged by the file-level rule of
// ADR 55: every name it exports may have changed. A deleted file, or one whose imports now lead
// elsewhere, changes every name. A change to a file that declares globals makes every file
// resolve again.

import { compareStrings } from '../../model';
import type { SourceInput } from './builder';
import { parseSource, type ImportRef } from './extract';
import { collectImports } from './import-refs';
import type { ImportOutcome, ModuleResolver } from './imports';
import { fromManifestImports, importTarget, unresolvedTarget, type Manifest } from '../files/manifest';
import type { PreviousFacts } from './previous-facts';
import type { FileShape } from './file-shape';
import { GLOBAL_PART, shapeAndSurface } from './surface';
import type { FileSurface } from '../facts';

const outcomeKey = (o: ImportOutcome): string => (o.kind === 'file' ? o.path : unresolvedTarget(o.reason, o.absent));

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** What the resolution tier must do again: the files to resolve, or why everything must be. */
export interface ResolutionPlan {
  resolve: Set<string>;
  /** New shapes of changed files (the others keep the manifest's). */
  shapes: Map<string, FileShape>;
  everything?: string;
  /** Files whose change the file-level rule judged (no surface: JavaScript, `export =`, …), sorted. */
  byFile: string[];
  /** Where each file's imports lead now, by reference index (`!reason` for none). */
  targets: Map<string, string[]>;
}

/** Which exported names of a file changed: some, or every one. */
type Changed = Set<string> | 'all';

/** The exported names whose hash differs between two surfaces; `all` when the `export *` set changed. */
function changedNames(was: FileSurface, now: FileSurface): Changed {
  const a = was.exports;
  const b = now.exports;
  if (a['*'] !== b['*']) return 'all';
  const out = new Set<string>();
  for (const k of Object.keys(a)) if (!Object.hasOwn(b, k) || a[k] !== b[k]) out.add(k);
  for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) out.add(k);
  return out;
}

/** An import as the resolver sees it: the same key in two versions of a file is the same request. */
const requestKey = (r: { specifier: string; kind: string; context?: string; syntax: string }) =>
  `${r.kind}|${r.syntax}|${r.context ?? ''}|${r.specifier}`;

/** The global files a program of `files` holds: those files and what they reach through imports, if global. */
export function reachedGlobals(
  files: readonly string[],
  targetsOf: (f: string) => readonly string[],
  isGlobal: (f: string) => boolean,
): string[] {
  const reached = new Set(files);
  const queue = [...files];
  while (queue.length > 0) {
    for (const t of targetsOf(queue.pop() as string)) {
      if (t.startsWith('!') || reached.has(t)) continue;
      reached.add(t);
      queue.push(t);
    }
  }
  return [...reached].filter(isGlobal).sort(compareStrings);
}

type OldFiles = Manifest['files'];

/** The new shapes of the changed files, and the imports each makes as written. */
function parseChanged(
  inputs: readonly SourceInput[],
  resolver: ModuleResolver,
  root: string,
  dirty: ReadonlySet<string>,
): { shapes: Map<string, FileShape>; refs: Map<string, ImportRef[]> } {
  const shapes = new Map<string, FileShape>();
  const refs = new Map<string, ImportRef[]>();
  for (const input of inputs) {
    if (!dirty.has(input.path)) continue;
    const abs = root + '/' + input.path;
    const sf = parseSource(abs, input.text, resolver.impliedFormat(input.project, abs));
    const mine = collectImports(sf, input.path);
    refs.set(input.path, mine);
    shapes.set(input.path, shapeAndSurface(sf, mine));
  }
  return { shapes, refs };
}

/** Where every file's imports lead now (by reference index), against where they led. */
function whereImportsLead(
  old: OldFiles,
  inputs: readonly SourceInput[],
  resolver: ModuleResolver,
  refs: ReadonlyMap<string, ImportRef[]>,
  dirty: ReadonlySet<string>,
): { targets: Map<string, string[]>; importers: Map<string, Set<string>>; redirected: string[]; moved: Set<string> } {
  const targets = new Map<string, string[]>();
  const importers = new Map<string, Set<string>>();
  const link = (from: string, to: string) => {
    if (to.startsWith('!')) return;
    const set = importers.get(to) ?? new Set<string>();
    set.add(from);
    importers.set(to, set);
  };
  for (const [f, e] of Object.entries(old)) for (const m of e.imports) link(f, importTarget(m));
  const redirected: string[] = [];
  /** Files whose imports now lead elsewhere: every name they export may mean something else. */
  const moved = new Set<string>();
  for (const input of inputs) {
    const mine = refs.get(input.path) ?? fromManifestImports(input.path, old[input.path].imports);
    const now = mine.map((r) => outcomeKey(resolver.resolve(input.project, input.path, r)));
    targets.set(input.path, now);
    for (const t of now) link(input.path, t);
    const before = old[input.path];
    if (!before) continue;
    if (!dirty.has(input.path)) {
      if (!sameList(now, before.imports.map(importTarget))) {
        redirected.push(input.path);
        moved.add(input.path);
      }
      continue;
    }
    // A changed file: an import it still makes, as it made it, that leads elsewhere now.
    const was = new Map(before.imports.map((m) => [requestKey(m), importTarget(m)]));
    if (mine.some((r, i) => was.has(requestKey(r)) && was.get(requestKey(r)) !== now[i])) moved.add(input.path);
  }
  return { targets, importers, redirected, moved };
}

/**
 * The global files each project's program holds, before and now: one that comes or goes reaches
 * every file of the project, whether or not it changed. Why everything resolves again, if so.
 */
function globalsCameOrWent(
  old: OldFiles,
  inputs: readonly SourceInput[],
  present: ReadonlySet<string>,
  targets: ReadonlyMap<string, string[]>,
  shapes: ReadonlyMap<string, FileShape>,
): string | undefined {
  const projects = new Map<string, string[]>();
  for (const input of inputs) if (!projects.has(input.project.configPath)) projects.set(input.project.configPath, input.project.files);
  for (const [config, files] of [...projects].sort((a, b) => compareStrings(a[0], b[0]))) {
    const was = reachedGlobals(
      files.filter((f) => old[f] !== undefined),
      (f) => old[f]?.imports.map(importTarget) ?? [],
      (f) => !!old[f]?.global,
    );
    const now = reachedGlobals(
      files.filter((f) => present.has(f)),
      (f) => (targets.get(f) ?? []).filter((t) => present.has(t)),
      (f) => (shapes.get(f) ?? { global: !!old[f]?.global }).global,
    );
    const where = config || 'the files outside every tsconfig';
    const came = now.find((f) => !was.includes(f));
    if (came) return `${came} declares globals and is now in the program of ${where}`;
    const went = was.find((f) => !now.includes(f));
    if (went) return `${went} declares globals and is no longer in the program of ${where}`;
  }
  return undefined;
}

/** What the spread of changed names (spreadNames) reads. */
interface Spread {
  old: OldFiles;
  dirty: ReadonlySet<string>;
  shapes: ReadonlyMap<string, FileShape>;
  importers: ReadonlyMap<string, Set<string>>;
  targets: ReadonlyMap<string, string[]>;
  byName: boolean;
}

/**
 * Which exported names changed where, spread name by name to the files that take them (ADR 118),
 * from the files every name of which may have changed (`all`: deleted, or imports moved). Adds
 * each file that must resolve again to `resolve`.
 */
function spreadNames(s: Spread, all: readonly string[], resolve: Set<string>): { changed: Map<string, Changed>; byFile: Set<string> } {
  const { old, dirty, shapes, importers, targets, byName } = s;
  const changed = new Map<string, Changed>();
  const byFile = new Set<string>();
  const queue: string[] = [];
  const grow = (f: string, names: Iterable<string> | 'all') => {
    const cur = changed.get(f);
    if (cur === 'all') return;
    if (names === 'all') {
      changed.set(f, 'all');
      queue.push(f);
      return;
    }
    const set = cur ?? new Set<string>();
    let grew = false;
    for (const n of names) {
      if (set.has(n)) continue;
      set.add(n);
      grew = true;
    }
    if (!grew) return;
    changed.set(f, set);
    queue.push(f);
  };
  const surfaceOf = (f: string): FileSurface | undefined => (!byName ? undefined : dirty.has(f) ? shapes.get(f)?.surface : old[f]?.surface);
  for (const f of all) grow(f, 'all');
  for (const f of dirty) {
    const was = old[f];
    const now = shapes.get(f);
    // A new file: no file took a name from it before (one that does now has been redirected).
    if (!was || !now || was.shape === now.shape) continue;
    if (byName && was.surface && now.surface) grow(f, changedNames(was.surface, now.surface));
    else {
      byFile.add(f);
      grow(f, 'all');
    }
  }
  while (queue.length > 0) {
    const f = queue.pop() as string;
    const names = changed.get(f) as Changed;
    for (const g of importers.get(f) ?? []) {
      const to = targets.get(g);
      if (!to) continue;
      const surface = surfaceOf(g);
      if (!surface) {
        // The file-level rule: it resolves again, and every name it exports may have changed.
        if (!to.includes(f)) continue;
        resolve.add(g);
        byFile.add(g);
        grow(g, 'all');
        continue;
      }
      for (const u of surface.uses) {
        if (to[u.ref] !== f) continue;
        if (u.star) {
          // `export *` passes on what it does not shadow, never a default.
          const pass = names === 'all' ? 'all' : [...names].filter((n) => n !== 'default' && !Object.hasOwn(surface.exports, n));
          if (pass === 'all' || pass.length > 0) {
            resolve.add(g);
            grow(g, pass);
          }
        } else if (names === 'all' || u.name === '*' || names.has(u.name)) {
          resolve.add(g);
          grow(g, u.reaches);
        }
      }
    }
  }
  return { changed, byFile };
}

export function planResolution(
  prev: PreviousFacts,
  inputs: readonly SourceInput[],
  resolver: ModuleResolver,
  root: string,
  dirty: ReadonlySet<string>,
  byName: boolean,
): ResolutionPlan {
  const old = prev.manifest.files;
  const present = new Set(inputs.map((i) => i.path));
  const deleted = Object.keys(old).filter((f) => !present.has(f));
  const { shapes, refs } = parseChanged(inputs, resolver, root, dirty);
  const { targets, importers, redirected, moved } = whereImportsLead(old, inputs, resolver, refs, dirty);
  // What other files may now see differently.
  const seeds = new Set<string>([...deleted, ...redirected]);
  for (const f of dirty) if (old[f]?.shape !== shapes.get(f)?.shape) seeds.add(f);
  const resolve = new Set<string>([...dirty, ...redirected]);
  const everything = (f: string, why = 'declares globals and changed'): ResolutionPlan => ({
    resolve,
    shapes,
    everything: `${f} ${why}`,
    byFile: [],
    targets,
  });
  const cameOrWent = globalsCameOrWent(old, inputs, present, targets, shapes);
  if (cameOrWent !== undefined) return { resolve, shapes, everything: cameOrWent, byFile: [], targets };
  for (const f of [...seeds].sort(compareStrings)) {
    if (!old[f]?.global && !shapes.get(f)?.global) continue;
    // A module with global augmentations, both before and after: its surface says whether they changed.
    if (byName && dirty.has(f) && old[f]?.surface && shapes.get(f)?.surface) continue;
    return everything(f);
  }
  const { changed, byFile } = spreadNames({ old, dirty, shapes, importers, targets, byName }, [...deleted, ...moved], resolve);
  for (const [f, names] of [...changed].sort((a, b) => compareStrings(a[0], b[0]))) {
    const global = old[f]?.global || shapes.get(f)?.global;
    if (global && (names === 'all' || names.has(GLOBAL_PART))) return everything(f);
  }
  return { resolve, shapes, byFile: [...byFile].sort(compareStrings), targets };
}
