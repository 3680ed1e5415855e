#!/usr/bin/env node
// The size of the house (issue 51 item 3, ADR 183): source files over 600 lines and functions over
// 120 lines under src/. Function-like nodes are found with the TypeScript compiler API; a
// function's span is from the line of its first token to the line of its last, both counted.
// `node scripts/house-size.mjs` prints the counts and every file and function over the limits;
// `--json` prints the same as JSON (test/unit/house-size.test.ts reads it).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const FILE_LIMIT = 600;
export const FUNCTION_LIMIT = 120;

/** The .ts/.tsx files under `dir`, declaration files left out, in a stable order. */
export function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

function functionName(node, sf) {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '<anonymous>';
}

/** Measures every .ts/.tsx file under `root`/src. */
export function measureHouse(root) {
  const files = [];
  const functions = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const file = relative(root, path).split('\\').join('/');
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    files.push({ file, lines });
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        functions.push({ file, name: functionName(node, sf), line: start + 1, lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return {
    files: files.length,
    functions: functions.length,
    longFiles: files.filter((f) => f.lines > FILE_LIMIT).sort((a, b) => b.lines - a.lines),
    longFunctions: functions.filter((f) => f.lines > FUNCTION_LIMIT).sort((a, b) => b.lines - a.lines),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const house = measureHouse(process.cwd());
  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify(house, null, 2) + '\n');
  } else {
    console.log(`${house.files} files, ${house.longFiles.length} over ${FILE_LIMIT} lines:`);
    for (const f of house.longFiles) console.log(`  ${f.lines}\t${f.file}`);
    console.log(`${house.functions} functions, ${house.longFunctions.length} over ${FUNCTION_LIMIT} lines:`);
    for (const f of house.longFunctions) console.log(`  ${f.lines}\t${f.file}:${f.line}\t${f.name}`);
  }
}
