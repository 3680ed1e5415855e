// .gitignore semantics, written from git's documentation (gitignore(5)): later rules win, deeper
// files win over shallower ones, `!` re-includes, a trailing `/` matches directories only, a
// pattern with a slash is anchored to its file's directory, `**` spans directories.

interface Rule {
  /** Directory of the .gitignore that holds the rule, repo-relative ('' for the root). */
  base: string;
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

function escapeRegex(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? '\\' + c : c;
}

function globBody(glob: string): string {
  let re = '';
  let i = 0;
  while (i < glob.length) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length;
        if (atStart && atEnd) {
          re += '.*';
          i += 2;
          continue;
        }
        if (atStart && glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 3;
          continue;
        }
        re += '[^/]*';
        i += 2;
        continue;
      }
      re += '[^/]*';
      i++;
    } else if (c === '?') {
      re += '[^/]';
      i++;
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        i++;
        continue;
      }
      let body = glob.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      body = body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]');
      re += '[' + (negate ? '^' : '') + body + ']';
      i = close + 1;
    } else if (c === '\\' && i + 1 < glob.length) {
      re += escapeRegex(glob[i + 1]);
      i += 2;
    } else {
      re += escapeRegex(c);
      i++;
    }
  }
  return re;
}

/**
 * A pattern's regular expression, relative to its file's directory: anchored when it holds a slash,
 * else matching at any depth (shared with .gitattributes, whose patterns are written the same way).
 */
export function patternRegex(pattern: string): RegExp {
  const anchored = pattern.includes('/');
  const line = pattern.startsWith('/') ? pattern.slice(1) : pattern;
  const body = globBody(line);
  return new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
}

/** Parses one .gitignore file's text into rules scoped to `base`. */
export function parseGitignore(text: string, base: string): Rule[] {
  const rules: Rule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine;
    if (line === '' || line.startsWith('#')) continue;
    // Trailing spaces are ignored unless escaped with a backslash.
    line = line.replace(/(?<!\\)\s+$/, '');
    if (line === '') continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    if (line === '') continue;
    rules.push({ base, regex: patternRegex(line), negate, dirOnly });
  }
  return rules;
}

/** The rules in force while walking: a stack of per-directory rule sets. */
class IgnoreStack {
  private readonly layers: Rule[][] = [];

  push(rules: Rule[]): void {
    this.layers.push(rules);
  }

  pop(): void {
    this.layers.pop();
  }

  /** Whether a repo-relative path (a file, or a directory when `isDir`) is ignored. */
  ignores(relPath: string, isDir: boolean): boolean {
    let ignored = false;
    for (const layer of this.layers) {
      for (const rule of layer) {
        if (rule.dirOnly && !isDir) continue;
        let sub: string;
        if (rule.base === '') sub = relPath;
        else if (relPath.startsWith(rule.base + '/')) sub = relPath.slice(rule.base.length + 1);
        else continue;
        if (rule.regex.test(sub)) ignored = !rule.negate;
      }
    }
    return ignored;
  }
}

/** A stack that holds rules for the directory being walked and its ancestors only. */
export function matcherFor(rulesByDir: ReadonlyMap<string, Rule[]>, relPath: string, isDir: boolean): boolean {
  const stack = new IgnoreStack();
  const parts = relPath.split('/');
  let dir = '';
  const root = rulesByDir.get('');
  if (root) stack.push(root);
  for (let i = 0; i < parts.length - 1; i++) {
    dir = dir === '' ? parts[i] : dir + '/' + parts[i];
    const r = rulesByDir.get(dir);
    if (r) stack.push(r);
  }
  return stack.ignores(relPath, isDir);
}

export type { Rule as IgnoreRule };
