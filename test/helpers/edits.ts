// Random edits to a repository on disk, for the equivalence property test: add, delete and rename
// files; add, remove and rename functions, calls and imports; add and remove stamped notes
// (`WHY(area@date): …` comments, ADR 88); move code down a line; break the syntax; touch a config;
// and, for the name-level invalidation (ADR 118), add, remove and rename exports of the files most
// imported, change an exported type without changing a call, add an overload, shadow an
// `export *` entry, edit a namespace-imported module. An edit is plain data (a kind and three numbers) interpreted against the
// files as they are when it runs, so any sequence applies to any tree and shrinks well; `apply`
// says in words what it did, so a failing sequence reads as a story.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export const EDIT_KINDS = [
  'addFile',
  'deleteFile',
  'renameFile',
  'addFunction',
  'removeFunction',
  'renameFunction',
  'addCall',
  'removeCall',
  'renameCall',
  'addImport',
  'removeImport',
  'renameImport',
  'addNote',
  'removeNote',
  'moveDown',
  'breakSyntax',
  'touchConfig',
  // What the name-level invalidation must get right (ADR 118): exports of much-imported files.
  'addExport',
  'removeExport',
  'renameExport',
  'changeType',
  'addOverload',
  'shadowStar',
  'editNamespaced',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

export interface Edit {
  kind: EditKind;
  a: number;
  b: number;
  c: number;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Repo-relative source files under `root` (not node_modules or .knowledge-graph), sorted. */
function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== '.knowledge-graph' && e.name !== '.git') stack.push(rel);
      } else if (e.isFile() && SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) {
        out.push(rel);
      }
    }
  }
  return out.sort();
}

function parse(file: string, text: string): ts.SourceFile {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true, kind);
}

function descendants(root: ts.Node): ts.Node[] {
  const out: ts.Node[] = [];
  const stack: ts.Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop() as ts.Node;
    out.push(n);
    const kids: ts.Node[] = [];
    ts.forEachChild(n, (k) => {
      kids.push(k);
    });
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);

function relSpecifier(from: string, to: string): string {
  let rel = path.posix
    .relative(path.posix.dirname(from), to)
    .replace(/\.(ts|tsx|mts|cts)$/, '')
    .replace(/\.(js|jsx|mjs|cjs)$/, '');
  if (!rel.startsWith('.')) rel = './' + rel;
  return rel;
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Names a file exports with `export function` (what another file can import and call). */
function exportedFunctions(sf: ts.SourceFile): string[] {
  return sf.statements
    .filter(
      (s): s is ts.FunctionDeclaration =>
        ts.isFunctionDeclaration(s) && !!s.name && !!s.body && !!ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
    )
    .map((s) => (s.name as ts.Identifier).text);
}

function functionsWithBodies(sf: ts.SourceFile): ts.FunctionLikeDeclaration[] {
  return descendants(sf).filter(
    (n): n is ts.FunctionLikeDeclaration =>
      (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) &&
      !!n.body &&
      ts.isBlock(n.body),
  );
}

const IMPORT_SPEC = /(?:from|import)\s+['"](\.[^'"]+)['"]/g;

/** The file a relative specifier written in `from` names, when it is one of `files`. */
function targetOf(from: string, spec: string, files: readonly string[]): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.(js|jsx|mjs|cjs)$/, '');
  const wanted = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '/index.ts', '/index.tsx', '/index.js', ''].map((e) => base + e);
  return wanted.find((w) => files.includes(w));
}

/** Files by how many files import them (relative specifiers), most imported first; ties by path. */
function byImporters(files: readonly string[], read: (f: string) => string): string[] {
  const count = new Map<string, number>();
  for (const f of files) {
    for (const m of read(f).matchAll(IMPORT_SPEC)) {
      const t = targetOf(f, m[1], files);
      if (t && t !== f) count.set(t, (count.get(t) ?? 0) + 1);
    }
  }
  return [...count.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([f]) => f);
}

const isExported = (s: ts.Statement) =>
  !!(ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));

/** Top-level exported declarations with a plain name. */
function exportedDeclarations(sf: ts.SourceFile): Array<ts.DeclarationStatement & { name: ts.Identifier }> {
  return sf.statements.filter(
    (s): s is ts.DeclarationStatement & { name: ts.Identifier } =>
      isExported(s) &&
      (ts.isFunctionDeclaration(s) ||
        ts.isClassDeclaration(s) ||
        ts.isInterfaceDeclaration(s) ||
        ts.isTypeAliasDeclaration(s) ||
        ts.isEnumDeclaration(s)) &&
      !!s.name &&
      ts.isIdentifier(s.name),
  );
}

/** Applies one edit under `root`; returns what it did, or undefined when it had nothing to act on. */
export function applyEdit(root: string, edit: Edit): string | undefined {
  const files = sourceFiles(root);
  const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');
  const write = (f: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  };
  const file = pick(files, edit.a);
  const name = `kg${edit.c % 97}`;
  switch (edit.kind) {
    case 'addFile': {
      const dir = pick([...new Set(files.map((f) => path.posix.dirname(f)))], edit.b) ?? '.';
      const target = path.posix.join(dir, `added${edit.c % 41}.ts`);
      if (files.includes(target)) return undefined;
      const other = pick(files, edit.a);
      const callee = other ? pick(exportedFunctions(parse(other, read(other))), edit.b) : undefined;
      const text =
        callee && other
          ? `import { ${callee} } from '${relSpecifier(target, other)}';\nexport function ${name}() {\n  return ${callee}();\n}\n`
          : `export function ${name}() {\n  return 1;\n}\n`;
      write(target, text);
      return `add ${target}${callee ? ` (calls ${callee} from ${other})` : ''}`;
    }
    case 'deleteFile': {
      if (!file || files.length <= 3) return undefined;
      fs.rmSync(path.join(root, file));
      return `delete ${file}`;
    }
    case 'renameFile': {
      if (!file) return undefined;
      const ext = path.posix.extname(file);
      const target = path.posix.join(path.posix.dirname(file), `renamed${edit.c % 41}${ext}`);
      if (files.includes(target)) return undefined;
      fs.renameSync(path.join(root, file), path.join(root, target));
      return `rename ${file} → ${target}`;
    }
    case 'addExport':
    case 'removeExport':
    case 'renameExport':
    case 'changeType':
    case 'addOverload': {
      // Half the time one of the most imported files: where a name-level slip would show.
      const hot = edit.c % 2 === 0 ? pick(byImporters(files, read).slice(0, 3), edit.a) : undefined;
      const target = hot ?? file;
      if (!target) return undefined;
      const text = read(target);
      const r = exportEdit(text, parse(target, text), edit, name);
      if (!r) return undefined;
      write(target, r.text);
      return `${r.what} in ${target}`;
    }
    case 'shadowStar': {
      // A file with `export * from './x'` declares one of x's names itself.
      for (let k = 0; k < files.length; k++) {
        const barrel = files[(edit.a + k) % files.length];
        const text = read(barrel);
        const star = [...text.matchAll(/export \*\s+from\s+['"](\.[^'"]+)['"]/g)];
        const spec = pick(star, edit.b)?.[1];
        const from = spec ? targetOf(barrel, spec, files) : undefined;
        if (!from) continue;
        const taken = exportedDeclarations(parse(from, read(from))).map((d) => d.name.text);
        const own = exportedDeclarations(parse(barrel, text)).map((d) => d.name.text);
        const shadow = pick(
          taken.filter((t) => !own.includes(t)),
          edit.c,
        );
        if (!shadow) continue;
        write(barrel, `${text}${text.endsWith('\n') ? '' : '\n'}export function ${shadow}() {\n  return 0;\n}\n`);
        return `shadow ${shadow} of ${from} in ${barrel}`;
      }
      return undefined;
    }
    case 'editNamespaced': {
      // A module some file imports whole (`import * as ns`): a new export, or an export's body.
      const targets: string[] = [];
      for (const f of files) {
        for (const m of read(f).matchAll(/import \*\s+as\s+\w+\s+from\s+['"](\.[^'"]+)['"]/g)) {
          const t = targetOf(f, m[1], files);
          if (t && !targets.includes(t)) targets.push(t);
        }
      }
      const target = pick(targets.sort(), edit.a);
      if (!target) return undefined;
      const text = read(target);
      const fn = pick(exportedFunctions(parse(target, text)), edit.b);
      const out =
        edit.c % 2 === 0 || !fn
          ? `${text}${text.endsWith('\n') ? '' : '\n'}export const ${name} = ${edit.b % 100};\n`
          : text.replace(
              new RegExp(`(function ${fn}\\([^)]*\\)[^{]*\\{)`),
              `$1\n  const ${name} = { n: ${edit.b % 100} };\n  void ${name};`,
            );
      if (out === text) return undefined;
      write(target, out);
      return `${edit.c % 2 === 0 || !fn ? `add export const ${name}` : `edit the body of ${fn}`} in namespace-imported ${target}`;
    }
    case 'touchConfig': {
      const configs = ['tsconfig.json', 'package.json'].filter((c) => fs.existsSync(path.join(root, c)));
      const config = pick(configs, edit.b);
      if (!config) return undefined;
      fs.appendFileSync(path.join(root, config), '\n');
      return `touch ${config}`;
    }
    default:
      break;
  }
  if (!file) return undefined;
  const text = read(file);
  const sf = parse(file, text);
  const result = editText(file, text, sf, edit, name, files, read);
  if (!result) return undefined;
  write(file, result.text);
  return `${result.what} in ${file}`;
}

function editText(
  file: string,
  text: string,
  sf: ts.SourceFile,
  edit: Edit,
  name: string,
  files: string[],
  read: (f: string) => string,
): { text: string; what: string } | undefined {
  const start = (n: ts.Node) => n.getStart(sf);
  switch (edit.kind) {
    case 'addFunction': {
      const own = pick(exportedFunctions(sf), edit.b);
      return {
        text: `${text}${text.endsWith('\n') ? '' : '\n'}export function ${name}() {\n  ${own ? `${own}();` : 'return 0;'}\n}\n`,
        what: `add function ${name}${own ? ` calling ${own}` : ''}`,
      };
    }
    case 'removeFunction': {
      const fns = sf.statements.filter((s) => ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isVariableStatement(s));
      const victim = pick(fns, edit.b);
      if (!victim) return undefined;
      return {
        text: splice(text, victim.getFullStart(), victim.getEnd(), ''),
        what: `remove "${victim.getText(sf).split('\n')[0].slice(0, 60)}"`,
      };
    }
    case 'renameFunction': {
      const decls = descendants(sf).filter(
        (n): n is ts.FunctionDeclaration | ts.MethodDeclaration =>
          (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && !!n.name && ts.isIdentifier(n.name),
      );
      const victim = pick(decls, edit.b);
      if (!victim?.name) return undefined;
      return { text: splice(text, start(victim.name), victim.name.getEnd(), name), what: `rename ${victim.name.getText(sf)} → ${name}` };
    }
    case 'addCall': {
      const fn = pick(functionsWithBodies(sf), edit.b);
      if (!fn?.body || !ts.isBlock(fn.body)) return undefined;
      const imported = sf.statements
        .filter(ts.isImportDeclaration)
        .flatMap((i) =>
          i.importClause?.namedBindings && ts.isNamedImports(i.importClause.namedBindings)
            ? i.importClause.namedBindings.elements.map((e) => e.name.text)
            : [],
        );
      const callee = pick([...exportedFunctions(sf), ...imported], edit.c) ?? name;
      const at = fn.body.getStart(sf) + 1;
      return { text: splice(text, at, at, `\n  ${callee}();`), what: `add call ${callee}() at offset ${at}` };
    }
    case 'removeCall': {
      const calls = descendants(sf).filter(
        (n): n is ts.ExpressionStatement => ts.isExpressionStatement(n) && ts.isCallExpression(n.expression),
      );
      const victim = pick(calls, edit.b);
      if (!victim) return undefined;
      return { text: splice(text, victim.getFullStart(), victim.getEnd(), ''), what: `remove call "${victim.getText(sf).slice(0, 60)}"` };
    }
    case 'renameCall': {
      const calls = descendants(sf).filter((n): n is ts.CallExpression => ts.isCallExpression(n) && ts.isIdentifier(n.expression));
      const victim = pick(calls, edit.b);
      if (!victim) return undefined;
      const names = exportedFunctions(sf);
      const to = pick(names, edit.c) ?? name;
      return {
        text: splice(text, start(victim.expression), victim.expression.getEnd(), to),
        what: `call ${victim.expression.getText(sf)} → ${to}`,
      };
    }
    case 'addImport': {
      const other = pick(
        files.filter((f) => f !== file),
        edit.b,
      );
      if (!other) return undefined;
      const fn = pick(exportedFunctions(parse(other, read(other))), edit.c);
      const spec = relSpecifier(file, other);
      const line = fn ? `import { ${fn} } from '${spec}';\n` : `import '${spec}';\n`;
      return { text: line + text, what: `add ${line.trim()}` };
    }
    case 'removeImport': {
      const imports = sf.statements.filter((s) => ts.isImportDeclaration(s) || (ts.isExportDeclaration(s) && !!s.moduleSpecifier));
      const victim = pick(imports, edit.b);
      if (!victim) return undefined;
      return { text: splice(text, victim.getFullStart(), victim.getEnd(), ''), what: `remove "${victim.getText(sf).slice(0, 70)}"` };
    }
    case 'renameImport': {
      const specs = sf.statements
        .map((s) => (ts.isImportDeclaration(s) || ts.isExportDeclaration(s) ? s.moduleSpecifier : undefined))
        .filter((s): s is ts.StringLiteral => !!s && ts.isStringLiteral(s));
      const victim = pick(specs, edit.b);
      const other = pick(
        files.filter((f) => f !== file),
        edit.c,
      );
      if (!victim || !other) return undefined;
      const spec = relSpecifier(file, other);
      return { text: splice(text, start(victim) + 1, victim.getEnd() - 1, spec), what: `import '${victim.text}' → '${spec}'` };
    }
    case 'addNote': {
      // Above a statement, inside a function body, or two headers in one block comment; the text
      // names a record or a file now and then, so the notes' citations change too.
      const areas = ['cache', 'ids', 'build/server'];
      const area = areas[edit.c % areas.length];
      const stamp = `2026-0${1 + (edit.c % 9)}-1${edit.b % 10}`;
      const named = ['', ' See ADR-1.', ' See `rationale-notes/src/store.ts`.', ' See `src/util.ts`.'][edit.b % 4];
      const fn = edit.c % 3 === 0 ? pick(functionsWithBodies(sf), edit.b) : undefined;
      if (fn?.body && ts.isBlock(fn.body)) {
        const at = fn.body.getStart(sf) + 1;
        return {
          text: splice(text, at, at, `\n  // WHY(${area}@${stamp}): inside a body.${named}`),
          what: `add a note ${area}@${stamp} in a body at offset ${at}`,
        };
      }
      const stmt = pick(sf.statements, edit.b);
      const at = stmt ? stmt.getStart(sf) : text.length;
      const note =
        edit.c % 3 === 1
          ? `/**\n * WHY(${area}@${stamp}): first of two.${named}\n * WHY(${area}@${stamp}): second of two.\n */\n`
          : `// WHY(${area}@${stamp}): above a statement.${named}\n// A second line of it.\n`;
      return { text: splice(text, at, at, note), what: `add a note ${area}@${stamp} at offset ${at}` };
    }
    case 'removeNote': {
      const lines = text.split('\n');
      const noted = lines.map((l, i) => (l.includes('WHY(') ? i : -1)).filter((i) => i >= 0);
      const victim = pick(noted, edit.b);
      if (victim === undefined) return undefined;
      lines.splice(victim, 1);
      return { text: lines.join('\n'), what: `remove the note line ${victim + 1}` };
    }
    case 'moveDown': {
      const stmt = pick(sf.statements, edit.b);
      const at = stmt ? stmt.getFullStart() : 0;
      return { text: splice(text, at, at, '\n// moved down\n'), what: `insert two lines at offset ${at}` };
    }
    case 'breakSyntax': {
      const at = text.length === 0 ? 0 : edit.b % text.length;
      return { text: splice(text, at, at, ' ((( '), what: `break the syntax at offset ${at}` };
    }
    default:
      return undefined;
  }
}

/** The export edits: add, remove or rename an export; change an exported type; add an overload. */
function exportEdit(text: string, sf: ts.SourceFile, edit: Edit, name: string): { text: string; what: string } | undefined {
  const decls = exportedDeclarations(sf);
  switch (edit.kind) {
    case 'addExport': {
      const kinds = [
        `export const ${name} = ${edit.b % 100};\n`,
        `export function ${name}(n: number) {\n  return n + ${edit.b % 10};\n}\n`,
        `export interface ${name[0].toUpperCase()}${name.slice(1)}Shape {\n  size: number;\n}\n`,
      ];
      const add = kinds[edit.b % kinds.length];
      return { text: `${text}${text.endsWith('\n') ? '' : '\n'}${add}`, what: `add "${add.split('\n')[0]}"` };
    }
    case 'removeExport': {
      const victim = pick(decls, edit.b);
      if (!victim) return undefined;
      const mod = ts.getModifiers(victim as unknown as ts.HasModifiers)?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword) as ts.Modifier;
      return { text: splice(text, mod.getStart(sf), mod.getEnd() + 1, ''), what: `unexport ${victim.name.text}` };
    }
    case 'renameExport': {
      const victim = pick(decls, edit.b);
      if (!victim) return undefined;
      return {
        text: splice(text, victim.name.getStart(sf), victim.name.getEnd(), name),
        what: `rename export ${victim.name.text} → ${name}`,
      };
    }
    case 'changeType': {
      // A member more on an exported interface or class: importers' calls are written the same.
      const shaped = decls.filter((d) => ts.isInterfaceDeclaration(d) || ts.isClassDeclaration(d)) as Array<
        ts.InterfaceDeclaration | ts.ClassDeclaration
      >;
      const victim = pick(shaped, edit.b);
      if (!victim) return undefined;
      const close = victim.getEnd() - 1;
      const member = ts.isInterfaceDeclaration(victim)
        ? `  ${name}?: string;\n`
        : `  ${name}(): number {\n    return ${edit.c % 10};\n  }\n`;
      return { text: splice(text, close, close, member), what: `add member ${name} to ${victim.name?.text}` };
    }
    case 'addOverload': {
      const fns = decls.filter((d): d is ts.FunctionDeclaration & { name: ts.Identifier } => ts.isFunctionDeclaration(d) && !!d.body);
      const victim = pick(fns, edit.b);
      if (!victim?.body) return undefined;
      const header = text.slice(victim.getStart(sf), victim.body.getStart(sf)).trim();
      const at = victim.getStart(sf);
      return { text: splice(text, at, at, `${header};\n`), what: `add an overload of ${victim.name.text}` };
    }
    default:
      return undefined;
  }
}
