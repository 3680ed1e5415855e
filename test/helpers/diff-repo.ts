// A real git repository for `kg diff`, built commit by commit: `main` holds the base; the branch
// `feature` renames a function, changes a signature that has a proven and a guessed caller, removes
// an exported class, moves code without changing it (a whole file, and one function to another
// file), adds a caller of an existing symbol and adds a decision record citing a symbol.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeTree } from './fixtures';

/** The environment tests run git in: a fixed author, committer and date, so commits are the same ids everywhere. */
export function gitTestEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_AUTHOR_NAME: 'kg-test',
    GIT_AUTHOR_EMAIL: 'kg-test@knowledge-graph.invalid',
    GIT_COMMITTER_NAME: 'kg-test',
    GIT_COMMITTER_EMAIL: 'kg-test@knowledge-graph.invalid',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', env: gitTestEnv() }).trim();
}

const BASE: Record<string, string> = {
  'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "ES2022" }, "include": ["src"] }\n',
  'src/math.ts': [
    'export function add(a: number, b: number): number {',
    '  return a + b;',
    '}',
    '',
    'export function oldName(s: string): string {',
    '  return s.trim();',
    '}',
    '',
  ].join('\n'),
  'src/shapes.ts': [
    'export class Circle {',
    '  constructor(private readonly r: number) {}',
    '  area(): number {',
    '    return 3 * this.r * this.r;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/util.ts': ['export function helper(n: number): number {', '  return n * 2;', '}', '', 'export function keep(): void {}', ''].join(
    '\n',
  ),
  'src/strings.ts': ['export function shout(s: string): string {', '  return s.toUpperCase();', '}', ''].join('\n'),
  'src/app.ts': [
    "import { add, oldName } from './math';",
    "import { Circle } from './shapes';",
    "import { helper } from './util';",
    "import { shout } from './strings';",
    "import { Calculator } from './calc';",
    '',
    'export function run(): number {',
    "  oldName(' x ');",
    "  shout('a');",
    '  return add(1, 2) + new Circle(1).area() + helper(3) + new Calculator().add(1, 2);',
    '}',
    '',
    '// eslint-disable-next-line @typescript-eslint/no-explicit-any',
    'export function dynamic(calc: any): number {',
    '  return calc.add(1, 2);',
    '}',
    '',
  ].join('\n'),
  'src/calc.ts': ['export class Calculator {', '  add(a: number, b: number): number {', '    return a + b;', '  }', '}', ''].join('\n'),
  'docs/adr/0001-numbers.md': '# ADR 1: Numbers\n\nAll arithmetic goes through `src/math.ts#add`.\n',
};

/** The feature branch's commits, each a set of writes (null deletes) and a message. */
const COMMITS: Array<{ message: string; files: Record<string, string | null>; mv?: [string, string] }> = [
  {
    message: 'rename oldName to newName',
    files: {
      'src/math.ts': BASE['src/math.ts'].replace('oldName', 'newName'),
      'src/app.ts': BASE['src/app.ts'].replace(/oldName/g, 'newName'),
    },
  },
  {
    message: 'add and Calculator.add take a third operand',
    files: {
      'src/calc.ts': BASE['src/calc.ts'].replace(
        'add(a: number, b: number): number {\n    return a + b;',
        'add(a: number, b: number, c = 0): number {\n    return a + b + c;',
      ),
      'src/math.ts': BASE['src/math.ts']
        .replace('oldName', 'newName')
        .replace('add(a: number, b: number): number {\n  return a + b;', 'add(a: number, b: number, c = 0): number {\n  return a + b + c;'),
    },
  },
  {
    message: 'remove Circle',
    files: {
      'src/shapes.ts': null,
      'src/app.ts': BASE['src/app.ts']
        .replace(/oldName/g, 'newName')
        .replace("import { Circle } from './shapes';\n", '')
        .replace(' + new Circle(1).area()', ''),
    },
  },
  {
    message: 'move strings.ts to text/, and helper to its own file, unchanged',
    mv: ['src/strings.ts', 'src/text/strings.ts'],
    files: {
      'src/util.ts': 'export function keep(): void {}\n',
      'src/helper.ts': 'export function helper(n: number): number {\n  return n * 2;\n}\n',
    },
  },
];

/** Files after the move commit, used by the last two commits. */
function appAfterMove(extra: string): string {
  return (
    BASE['src/app.ts']
      .replace(/oldName/g, 'newName')
      .replace("import { Circle } from './shapes';\n", '')
      .replace(' + new Circle(1).area()', '')
      .replace("import { helper } from './util';", "import { helper } from './helper';\nimport { keep } from './util';")
      .replace("from './strings'", "from './text/strings'") + extra
  );
}

COMMITS[3].files['src/app.ts'] = appAfterMove('');
COMMITS.push(
  {
    message: 'a caller of keep',
    files: { 'src/app.ts': appAfterMove('\nexport function later(): void {\n  keep();\n}\n') },
  },
  {
    message: 'ADR 2 cites newName',
    files: { 'docs/adr/0002-names.md': '# ADR 2: Names\n\nStrings are cleaned by `src/math.ts#newName`.\n' },
  },
);

/** The base tree and the feature branch's last tree as path → text (for in-memory builds). */
export function diffRepoTrees(): { base: Record<string, string>; head: Record<string, string> } {
  const head: Record<string, string> = { ...BASE };
  for (const c of COMMITS) {
    if (c.mv) {
      head[c.mv[1]] = head[c.mv[0]];
      delete head[c.mv[0]];
    }
    for (const [rel, text] of Object.entries(c.files)) {
      if (text === null) delete head[rel];
      else head[rel] = text;
    }
  }
  return { base: { ...BASE }, head };
}

/** Creates the repository in `root` (an empty folder): `main` at the base, `feature` checked out. */
export function makeDiffRepo(root: string): { base: string; head: string } {
  git(root, 'init', '--quiet', '--initial-branch=main');
  git(root, 'config', 'commit.gpgsign', 'false');
  writeTree(root, BASE);
  git(root, 'add', '-A');
  git(root, 'commit', '--quiet', '-m', 'base');
  const base = git(root, 'rev-parse', 'HEAD');
  git(root, 'checkout', '--quiet', '-b', 'feature');
  for (const c of COMMITS) {
    if (c.mv) {
      fs.mkdirSync(path.join(root, path.dirname(c.mv[1])), { recursive: true });
      git(root, 'mv', c.mv[0], c.mv[1]);
    }
    for (const [rel, text] of Object.entries(c.files)) {
      if (text === null) fs.rmSync(path.join(root, rel));
      else writeTree(root, { [rel]: text });
    }
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '-m', c.message);
  }
  return { base, head: git(root, 'rev-parse', 'HEAD') };
}
