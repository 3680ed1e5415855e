#!/usr/bin/env node
// Names that explain themselves (issue 51 item 4, ADR 189): two source files under src/ share a base
// name only when their folders make the difference plain by one of the house's conventions, and no
// two files declare an exported type of the same name. The conventions, each checked on the files
// themselves rather than trusted from a list:
//
// - `index.ts`: a folder's facade;
// - `src/cli/<name>.ts` whose help begins `Usage: kg <name>`: the command beside the part it reports;
// - `src/protocol/<name>.ts`: the contract named after its peer (another file of that base name);
// - `src/graph/diff/<name>.ts` where `<name>` is a section of the diff report (a key of `DiffBody`
//   in src/graph/diff/report-shape.ts): the diff's section named after what it compares.
//
// A shared base name is explained when every file of it but one follows a convention.
// `node scripts/house-names.mjs` prints what is shared and why; `--json` prints the same as JSON
// (test/unit/house-names.test.ts reads it).
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';
import { sourceFiles } from './house-size.mjs';

/** The keys of `interface DiffBody` in the diff's report shape: the report's sections. */
function diffSections(root) {
  let text;
  try {
    text = readFileSync(join(root, 'src/graph/diff/report-shape.ts'), 'utf8');
  } catch {
    return new Set();
  }
  const sf = ts.createSourceFile('report-shape.ts', text, ts.ScriptTarget.Latest, true);
  const keys = new Set();
  sf.forEachChild((n) => {
    if (ts.isInterfaceDeclaration(n) && n.name.text === 'DiffBody')
      for (const m of n.members) if (m.name && ts.isIdentifier(m.name)) keys.add(m.name.text);
  });
  return keys;
}

/** Why a file may share its base name, or undefined when no convention explains it. */
function convention(file, text, name, sections, peers) {
  if (name === 'index') return 'facade';
  if (file === `src/cli/${name}.ts` && text.includes(`Usage: kg ${name}`)) return 'command';
  if (file === `src/protocol/${name}.ts` && peers.some((p) => p !== file)) return 'contract';
  if (file === `src/graph/diff/${name}.ts` && sections.has(name)) return 'diff section';
  return undefined;
}

function exportedTypes(sf) {
  const out = [];
  const exported = (n) => ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  sf.forEachChild((n) => {
    if (
      (ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isClassDeclaration(n) || ts.isEnumDeclaration(n)) &&
      n.name &&
      exported(n)
    )
      out.push(n.name.text);
  });
  return out;
}

/** Measures the names of every .ts/.tsx file under `root`/src. */
export function measureNames(root) {
  const byBase = new Map();
  const byType = new Map();
  const texts = new Map();
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path).split('\\').join('/');
    const text = readFileSync(path, 'utf8');
    texts.set(file, text);
    const base = basename(file).replace(/\.tsx?$/, '');
    byBase.set(base, [...(byBase.get(base) ?? []), file]);
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    for (const t of exportedTypes(sf)) byType.set(t, [...(byType.get(t) ?? []), file]);
  }
  const sections = diffSections(root);
  /** @type {Array<{ name: string, files: Array<{ file: string, convention: string | undefined }>, explained: boolean }>} */
  const sharedBaseNames = [];
  for (const [name, files] of [...byBase].sort(([a], [b]) => a.localeCompare(b))) {
    if (files.length < 2) continue;
    const why = files.map((f) => ({ file: f, convention: convention(f, texts.get(f), name, sections, files) }));
    const unexplained = why.filter((w) => !w.convention).length;
    sharedBaseNames.push({ name, files: why, explained: unexplained <= 1 });
  }
  const sharedTypeNames = [...byType]
    .filter(([, files]) => files.length > 1)
    .map(([name, files]) => ({ name, files }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { files: texts.size, sharedBaseNames, sharedTypeNames };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = measureNames(process.cwd());
  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify(names, null, 2) + '\n');
  } else {
    const unexplained = names.sharedBaseNames.filter((s) => !s.explained);
    console.log(
      `${names.files} files, ${names.sharedBaseNames.length} base names shared, ${unexplained.length} not explained by a convention:`,
    );
    for (const s of names.sharedBaseNames)
      console.log(
        `  ${s.explained ? ' ' : '!'} ${s.name}: ${s.files.map((f) => `${f.file}${f.convention ? ` (${f.convention})` : ''}`).join(', ')}`,
      );
    console.log(`${names.sharedTypeNames.length} exported type names declared by two files:`);
    for (const t of names.sharedTypeNames) console.log(`  ${t.name}: ${t.files.join(', ')}`);
  }
}
