// Node ids: a prefix, a colon, and a path-derived remainder. Characters that separate the parts
// of an id (`#`, `~`, `@`, `%`, `:`) and control characters are percent-escaped inside each part,
// so every id can be split back into its parts without guessing.

import { PACKAGE_PREFIX, UNRESOLVED_PREFIX } from './model';

// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const RESERVED = /[%#~@:\u0000-\u001f\u007f]/g;

export function escapeIdPart(part: string): string {
  return part.replace(RESERVED, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

export function unescapeIdPart(part: string): string {
  return part.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The module id of a repo-relative directory; the repository root is `.`. */
export function moduleId(dir: string): string {
  return 'mod:' + escapeIdPart(dir === '' ? '.' : dir);
}

export function fileId(path: string): string {
  return 'file:' + escapeIdPart(path);
}

/** A symbol id; members use a dotted name (`Class.method`). */
export function symbolId(path: string, name: string): string {
  return 'sym:' + escapeIdPart(path) + '#' + escapeIdPart(name);
}

export function adrId(num: number): string {
  return 'adr:' + String(num);
}

export function docId(path: string, slug: string, index: number): string {
  return 'doc:' + escapeIdPart(path) + '#' + escapeIdPart(slug) + '~' + String(index);
}

/** A stamped note (ADR 88): its file, area and stamp, and how many notes of that file came before with both. */
export function rationaleId(path: string, area: string, stamp: string, index: number): string {
  return 'rationale:' + escapeIdPart(path) + '#' + escapeIdPart(area) + '@' + escapeIdPart(stamp) + '~' + String(index);
}

export function unresolvedId(name: string): string {
  // A name can be empty in a file with syntax errors (`@` with no decorator after it, `import ''`),
  // and `unresolved:` alone is not an id the format accepts (found by the parser fuzz, ADR 75).
  return UNRESOLVED_PREFIX + (name === '' ? EMPTY_NAME : escapeIdPart(name));
}

/**
 * A package-qualified symbol (ADR 107): the declaration `name` of source file `path` (relative to
 * the package's root) in package `pkg` at `version`. `pkg:%40acme/lib@1.2.0:src/index.ts#greet` —
 * each part escaped, so the `@` of a scope, a `:` or `#` in a path never splits it wrongly. The
 * remainder after `<pkg>@<version>:` is the `sym:` id the package's own graph gives the symbol.
 */
export function packageSymbolId(pkg: string, version: string, path: string, name: string): string {
  return PACKAGE_PREFIX + escapeIdPart(pkg) + '@' + escapeIdPart(version) + ':' + escapeIdPart(path) + '#' + escapeIdPart(name);
}

/** What an unresolved reference with an empty name is called. */
const EMPTY_NAME = '(empty)';

export type ParsedId =
  | { prefix: 'mod'; dir: string }
  | { prefix: 'file'; path: string }
  | { prefix: 'sym'; path: string; name: string }
  | { prefix: 'adr'; num: number }
  | { prefix: 'doc'; path: string; slug: string; index: number }
  | { prefix: 'rationale'; path: string; area: string; stamp: string; index: number }
  | { prefix: 'unresolved'; name: string }
  | { prefix: 'pkg'; pkg: string; version: string; path: string; name: string };

/** Splits an id into its parts, or returns undefined when it is not a well-formed id. */
export function parseId(id: string): ParsedId | undefined {
  const colon = id.indexOf(':');
  if (colon < 0) return undefined;
  const prefix = id.slice(0, colon);
  const rest = id.slice(colon + 1);
  switch (prefix) {
    case 'mod': {
      const dir = unescapeIdPart(rest);
      return { prefix, dir: dir === '.' ? '' : dir };
    }
    case 'file':
      return rest.includes('#') ? undefined : { prefix, path: unescapeIdPart(rest) };
    case 'sym': {
      const parts = rest.split('#');
      if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
      return { prefix, path: unescapeIdPart(parts[0]), name: unescapeIdPart(parts[1]) };
    }
    case 'adr': {
      if (!/^\d+$/.test(rest)) return undefined;
      return { prefix, num: Number(rest) };
    }
    case 'doc': {
      const m = /^([^#]+)#([^#~]*)~(\d+)$/.exec(rest);
      if (!m) return undefined;
      return { prefix, path: unescapeIdPart(m[1]), slug: unescapeIdPart(m[2]), index: Number(m[3]) };
    }
    case 'rationale': {
      const m = /^([^#]+)#([^#@~]+)@([^#@~]+)~(\d+)$/.exec(rest);
      if (!m) return undefined;
      return { prefix, path: unescapeIdPart(m[1]), area: unescapeIdPart(m[2]), stamp: unescapeIdPart(m[3]), index: Number(m[4]) };
    }
    case 'unresolved':
      return { prefix, name: unescapeIdPart(rest) };
    case 'pkg': {
      const m = /^([^#@:]+)@([^#@:]+):([^#@:]+)#([^#@:]+)$/.exec(rest);
      if (!m) return undefined;
      return { prefix, pkg: unescapeIdPart(m[1]), version: unescapeIdPart(m[2]), path: unescapeIdPart(m[3]), name: unescapeIdPart(m[4]) };
    }
    default:
      return undefined;
  }
}

/** The repo-relative file an id belongs to, when it has one (a package-qualified symbol has none here). */
export function fileOfId(id: string): string | undefined {
  const p = parseId(id);
  if (!p) return undefined;
  return p.prefix === 'file' || p.prefix === 'sym' || p.prefix === 'doc' || p.prefix === 'rationale' ? p.path : undefined;
}
