// Which files are tests, for `kg tests` (ADR 165): the runners' conventions and package.json's
// Jest patterns. src/graph/query/affected-tests.ts walks to them.

/**
 * The test runners' own conventions (ADR 165): Jest's and Vitest's `*.test.*`/`*.spec.*` and
 * `__tests__/`; Playwright's `*.spec.*`/`*.test.*`; node:test's `*.test.*`, `*-test.*`, `*_test.*`,
 * `test-*.*`, `test.*` and every file under a `test/` folder; Mocha's files under `test/` (and
 * `tests/`, which many projects name). Fixtures, mocks and snapshots under those folders are data,
 * not tests. Declaration files never are.
 */
const TEST_NAME = /(^|\/)([^/]+[.\-_](test|spec)|test-[^/]+|test)\.[cm]?[jt]sx?$/;
const TEST_FOLDER = /(^|\/)(__tests__|tests?)\//;
const NOT_TESTS = /(^|\/)(__fixtures__|fixtures?|__mocks__|__snapshots__|snapshots?)\//;
const SOURCE = /\.[cm]?[jt]sx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** Runner configuration read from the repository (package.json `jest.testMatch`/`testRegex`). */
export interface TestConfig {
  /** Globs, as Jest writes them (`**`, `*`, `?`, `{a,b}`, `[ab]`, `?(x)`, `+(a|b)`, `@(a|b)`, `*(x)`; `<rootDir>/`). */
  globs?: readonly string[];
  /** Regular expressions, matched against `/` + the repository-relative path. */
  regexes?: readonly string[];
}

/** Whether a repository-relative path is a test file: a convention, or the configuration's patterns. */
export function testFileRule(config: TestConfig = {}): (file: string) => boolean {
  const extra: RegExp[] = [];
  for (const g of config.globs ?? []) {
    const re = globRegex(g);
    if (re) extra.push(re);
  }
  for (const r of config.regexes ?? []) {
    try {
      extra.push(new RegExp(r));
    } catch {
      // a pattern this engine cannot read adds nothing; the conventions still apply
    }
  }
  return (file: string) => {
    if (!SOURCE.test(file) || DECLARATION.test(file)) return false;
    if (extra.some((re) => re.test('/' + file))) return true;
    if (NOT_TESTS.test(file)) return false;
    return TEST_NAME.test(file) || TEST_FOLDER.test(file);
  };
}

/** A Jest glob as a regular expression over `/` + the path, or undefined for one it cannot read. */
function globRegex(glob: string): RegExp | undefined {
  let g = glob.replace(/^<rootDir>\//, '').replace(/^\.\//, '');
  if (g.startsWith('!')) return undefined;
  if (!g.startsWith('/')) g = '/' + g;
  let out = '';
  let i = 0;
  const groups: string[] = [];
  while (i < g.length) {
    const c = g[i];
    const next = g[i + 1];
    if ('?+@*!'.includes(c) && next === '(') {
      groups.push(c);
      out += '(?:';
      i += 2;
    } else if (c === ')' && groups.length > 0) {
      const op = groups.pop() as string;
      out += op === '?' ? ')?' : op === '+' ? ')+' : op === '*' ? ')*' : ')';
      i++;
    } else if (c === '|' && groups.length > 0) {
      out += '|';
      i++;
    } else if (c === '/' && g.startsWith('/**/', i)) {
      out += '/(?:.*/)?';
      i += 4;
    } else if (c === '*' && next === '*') {
      out += '.*';
      i += 2;
    } else if (c === '*') {
      out += '[^/]*';
      i++;
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '{') {
      const end = g.indexOf('}', i);
      if (end < 0) return undefined;
      out +=
        '(?:' +
        g
          .slice(i + 1, end)
          .split(',')
          .map(escape)
          .join('|') +
        ')';
      i = end + 1;
    } else if (c === '[') {
      const end = g.indexOf(']', i);
      if (end < 0) return undefined;
      out += g.slice(i, end + 1).replace(/\\/g, '\\\\');
      i = end + 1;
    } else {
      out += escape(c);
      i++;
    }
  }
  if (groups.length > 0) return undefined;
  try {
    return new RegExp('^' + out + '$');
  } catch {
    return undefined;
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
