#!/usr/bin/env node
// The house's arrows (ADR 175, ADR 183): which rooms of src/ import which, and the circles among
// them. A room is a folder; a file directly in src/ or src/graph/ is a room of its own (model.ts,
// ids.ts, status.ts… are each a room the others lean on). An arrow that closes a circle between
// rooms is an arrow back up: two rooms that each need the other are one room drawn as two.
// An arrow is a relative import that loads code: `import type` and `export type … from` are
// erased, and a room may name the interface its caller hands it where that caller declares it
// (src/host/panel is handed a GraphAccess by src/host; ADR 193).
//
//   node scripts/house-arrows.mjs [root]   prints the circles; exits 1 if there is one
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']*)'/gm;
/** A whole statement that only names types: erased when compiled. */
const TYPE_ONLY = /^\s*(?:import|export)\s+type\b/;

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The room a file lives in, relative to the repository root. */
export function roomOf(rel) {
  const dir = path.posix.dirname(rel);
  return dir === 'src' || dir === 'src/graph' ? rel.replace(/\.ts$/, '') : dir;
}

/** The start of the statement holding offset `at`: the text from the last `;` or blank line. */
function statementBefore(text, at) {
  const start = Math.max(text.lastIndexOf(';', at), text.lastIndexOf('\n\n', at), text.lastIndexOf('*/', at));
  return text.slice(start + 1, at).replace(/^[\s;/*]+/, '');
}

/** Every arrow between two different rooms, with one file-level import that draws it. */
export function roomArrows(root) {
  const arrows = new Map();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      if (TYPE_ONLY.test(statementBefore(text, match.index))) continue;
      const target = resolveImport(file, match[1]);
      if (!target) continue;
      const targetRel = path.relative(root, target).split(path.sep).join('/');
      const from = roomOf(rel);
      const to = roomOf(targetRel);
      if (from === to) continue;
      const key = `${from}\u0000${to}`;
      if (!arrows.has(key)) arrows.set(key, { from, to, example: `${rel} → ${targetRel}` });
    }
  }
  return [...arrows.values()];
}

/** The circles among rooms: strongly connected sets of two or more rooms (Tarjan), sorted. */
export function roomCircles(arrows) {
  const next = new Map();
  for (const { from, to } of arrows) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  let counter = 0;
  const visit = (room) => {
    index.set(room, counter);
    low.set(room, counter);
    counter += 1;
    stack.push(room);
    onStack.add(room);
    for (const to of next.get(room)) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room), low.get(to)));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room), index.get(to)));
    }
    if (low.get(room) !== index.get(room)) return;
    const members = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      members.push(member);
    } while (member !== room);
    if (members.length > 1) circles.push(members.sort());
  };
  for (const room of [...next.keys()].sort()) if (!index.has(room)) visit(room);
  return circles.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(process.argv[2] ?? '.');
  const arrows = roomArrows(root);
  const circles = roomCircles(arrows);
  for (const circle of circles) {
    const inside = arrows.filter((a) => circle.includes(a.from) && circle.includes(a.to));
    console.log(`circle: ${circle.join(' ⇄ ')}`);
    for (const a of inside) console.log(`  ${a.from} → ${a.to}   (${a.example})`);
  }
  console.log(`${arrows.length} arrows between rooms, ${circles.length} circles`);
  process.exitCode = circles.length ? 1 : 0;
}
