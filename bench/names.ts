// The name-level invalidation (ADR 118), measured: on rxjs and effect (bench/corpus.ts), how many
// files each kind of edit resolves again under the file-level rule of ADR 55 and under the names
// rule, and — through the warm build server, as fractions of a full build in the same run — what
// adding an export to the most-imported file, a body edit, and a build with nothing changed cost.
//
// A prepared copy keeps in <root>.saved the graph, the manifest and the files the edits touch, and
// `edits.json` naming them; every sample puts them back first, so it rebuilds after exactly one edit.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { buildTracked, parseManifest, type PreviousBuild } from '../src/graph';
import { EDIT_FILE, editOneLine, type Corpus } from './corpus';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');

export interface NameEdits {
  /** The file most files import (by the manifest's import targets), and how many do. */
  hot: string;
  importers: number;
  /** A file whose edit changes a body only, behind a written return type. */
  body: string;
  /** The most imported file with an exported function whose return type is inferred. */
  inferred: string;
}

export type EditKind = 'add-export' | 'inferred-body' | 'body-edit' | 'unchanged';
export const EDIT_KINDS: readonly EditKind[] = ['add-export', 'inferred-body', 'body-edit', 'unchanged'];

/** Files by how many files import them, from a manifest, most imported first. */
function byImporters(manifestText: string): Array<{ file: string; importers: number }> {
  const m = parseManifest(manifestText);
  if (!('manifest' in m)) throw new Error(m.problem);
  const count = new Map<string, Set<string>>();
  for (const [f, e] of Object.entries(m.manifest.files))
    for (const i of e.imports) if (i.to && i.to !== f) count.set(i.to, (count.get(i.to) ?? new Set()).add(f));
  return [...count.entries()]
    .sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1))
    .map(([file, set]) => ({ file, importers: set.size }));
}

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true, ts.ScriptKind.TS);

/** The first exported function with a block body and a written (or no) return type in `text`. */
function firstFunction(file: string, text: string, typed: boolean): ts.FunctionDeclaration | undefined {
  const sf = parse(file, text);
  return sf.statements.find(
    (s): s is ts.FunctionDeclaration =>
      ts.isFunctionDeclaration(s) &&
      !!s.body &&
      s.body.statements.length > 0 &&
      !!s.type === typed &&
      !!ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  );
}

/** A body edit: a statement more at the start of a function's body (`void 0;`: no call, no type). */
function intoBody(file: string, text: string, typed: boolean): string | undefined {
  const fn = firstFunction(file, text, typed);
  if (!fn?.body) return undefined;
  const at = fn.body.getStart() + 1;
  return `${text.slice(0, at)}\n  void 0;${text.slice(at)}`;
}

/** The edit of each kind, as the text of the file it changes (undefined for none). */
export function editOf(root: string, e: NameEdits, kind: EditKind): { file: string; text: string } | undefined {
  const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');
  switch (kind) {
    case 'add-export':
      return { file: e.hot, text: `${read(e.hot)}\nexport const kgBenchAdded = 1;\n` };
    case 'inferred-body': {
      // A body edit where the return type is inferred: the importers that take the name.
      const text = intoBody(e.inferred, read(e.inferred), false);
      if (text === undefined) throw new Error(`${e.inferred} has no exported function with an inferred return type`);
      return { file: e.inferred, text };
    }
    case 'body-edit': {
      const before = read(e.body);
      const text = e.body === EDIT_FILE ? editOneLine(before) : intoBody(e.body, before, true);
      if (text === undefined) throw new Error(`${e.body} has no exported function with a written return type`);
      return { file: e.body, text };
    }
    case 'unchanged':
      return undefined;
  }
}

/** Puts the saved graph, manifest and edited files back. */
export function restoreNames(root: string): NameEdits {
  const saved = root + '.saved';
  for (const f of ['graph.json', 'graph.manifest.json']) fs.copyFileSync(path.join(saved, f), path.join(root, '.knowledge-graph', f));
  const e = JSON.parse(fs.readFileSync(path.join(saved, 'edits.json'), 'utf8')) as NameEdits;
  for (const f of new Set([e.hot, e.body, e.inferred])) fs.copyFileSync(path.join(saved, 'files', f), path.join(root, f));
  return e;
}

/** A fresh copy of `base` built by the CLI, with what the samples restore saved beside it. */
export function prepareNames(base: Corpus, copy: (into: string) => void): Corpus {
  const root = base.root + '-names';
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(root + '.saved', { recursive: true, force: true });
  copy(root);
  const r = spawnSync(process.execPath, [CLI, 'build', '--apply', '--no-server', '--root', root], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`preparing ${root} failed:\n${r.stderr}`);
  const saved = root + '.saved';
  fs.mkdirSync(saved);
  for (const f of ['graph.json', 'graph.manifest.json']) fs.copyFileSync(path.join(root, '.knowledge-graph', f), path.join(saved, f));
  const ranked = byImporters(fs.readFileSync(path.join(saved, 'graph.manifest.json'), 'utf8'));
  const hot = ranked[0];
  const inferred = ranked.find(
    (r) => r.file.endsWith('.ts') && firstFunction(r.file, fs.readFileSync(path.join(root, r.file), 'utf8'), false),
  );
  if (!inferred) throw new Error(`no imported file of ${root} has an exported function with an inferred return type`);
  let body = EDIT_FILE;
  if (!fs.existsSync(path.join(root, body))) {
    // The first file (by path) with an exported function whose return type is written.
    const manifest = parseManifest(fs.readFileSync(path.join(saved, 'graph.manifest.json'), 'utf8'));
    if (!('manifest' in manifest)) throw new Error(manifest.problem);
    const files = Object.keys(manifest.manifest.files).sort();
    const found = files.find((f) => f.endsWith('.ts') && firstFunction(f, fs.readFileSync(path.join(root, f), 'utf8'), true));
    if (!found) throw new Error(`no file of ${root} has an exported function with a written return type`);
    body = found;
  }
  const edits: NameEdits = { hot: hot.file, importers: hot.importers, body, inferred: inferred.file };
  fs.writeFileSync(path.join(saved, 'edits.json'), JSON.stringify(edits) + '\n');
  for (const f of new Set([edits.hot, edits.body, edits.inferred])) {
    fs.mkdirSync(path.dirname(path.join(saved, 'files', f)), { recursive: true });
    fs.copyFileSync(path.join(root, f), path.join(saved, 'files', f));
  }
  return { ...base, root };
}

/** Files resolved again by each edit, under each rule: in-process, untimed. */
export function resolvedAgain(c: Corpus): Array<{ kind: EditKind; file: string; byFile: number; byName: number; total: number }> {
  const out: Array<{ kind: EditKind; file: string; byFile: number; byName: number; total: number }> = [];
  for (const kind of EDIT_KINDS) {
    const counts: number[] = [];
    let total = 0;
    let file = '';
    for (const rule of ['files', 'names'] as const) {
      const e = restoreNames(c.root);
      const previous: PreviousBuild = {
        graphText: fs.readFileSync(path.join(c.root, '.knowledge-graph', 'graph.json'), 'utf8'),
        manifestText: fs.readFileSync(path.join(c.root, '.knowledge-graph', 'graph.manifest.json'), 'utf8'),
      };
      const edit = editOf(c.root, e, kind);
      if (edit) fs.writeFileSync(path.join(c.root, edit.file), edit.text);
      file = edit?.file ?? '';
      const r = buildTracked({ root: c.root, previous, invalidation: rule });
      // The file-level rule makes a build full for a change to a file with `declare global`: all resolved.
      if (r.mode !== 'incremental' && rule === 'names') throw new Error(`${kind} was a full build: ${r.fullReason}`);
      counts.push(r.mode === 'incremental' ? r.delta.extracted : r.files.length);
      total = r.files.length;
    }
    restoreNames(c.root);
    out.push({ kind, file, byFile: counts[0], byName: counts[1], total });
  }
  return out;
}
