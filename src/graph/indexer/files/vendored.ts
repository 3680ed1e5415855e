// What people and GitHub treat as vendored or generated, left out of the graph by default (ADR 98):
// third-party code copied into the tree, minified and bundled files, and whatever the repository
// marks `linguist-vendored` or `linguist-generated` in its .gitattributes files. They are not the
// repository's own code: a minified jQuery would otherwise stand among the god nodes. The
// repository config brings them back (`files.includeVendored`, `files.includeGenerated`).
//
// .gitattributes semantics, written from git's documentation (gitattributes(5)): patterns as in
// .gitignore but without `!` patterns, and a pattern that names a directory does not reach the
// files inside it (`vendor/** linguist-vendored` does); later lines win, deeper files win over
// shallower ones, `.git/info/attributes` wins over all; `attr` and `attr=true` set, `-attr` and
// `attr=false` unset, `!attr` returns it to unspecified. No compiler, no I/O here: the walk reads
// the files and hands their text over.

import { patternRegex } from './gitignore';

/** A linguist attribute's state on a path: set, unset, or unspecified (undefined). */
export interface Linguist {
  vendored?: boolean;
  generated?: boolean;
}

export interface AttributeRule {
  /** Directory of the .gitattributes that holds the rule, repo-relative ('' for the root). */
  base: string;
  regex: RegExp;
  /** What the line says of each attribute: true, false, null (`!attr`: unspecified again), or absent. */
  vendored?: boolean | null;
  generated?: boolean | null;
}

function attributeState(token: string, name: string): boolean | null | undefined {
  if (token === name || token === `${name}=true`) return true;
  if (token === `-${name}` || token === `${name}=false`) return false;
  if (token === `!${name}`) return null;
  return undefined;
}

/** The linguist rules of one .gitattributes file's text, scoped to `base`. Lines about other attributes are dropped. */
export function parseGitattributes(text: string, base: string): AttributeRule[] {
  const out: AttributeRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [pattern, ...tokens] = line.split(/\s+/);
    // Negative patterns are forbidden in attribute files; quoted patterns are rare and not read.
    if (pattern.startsWith('!') || pattern.startsWith('"') || pattern.endsWith('/')) continue;
    const rule: AttributeRule = { base, regex: patternRegex(pattern) };
    for (const t of tokens) {
      const v = attributeState(t, 'linguist-vendored');
      if (v !== undefined) rule.vendored = v;
      const g = attributeState(t, 'linguist-generated');
      if (g !== undefined) rule.generated = g;
    }
    if (rule.vendored !== undefined || rule.generated !== undefined) out.push(rule);
  }
  return out;
}

/**
 * The linguist attributes of a repo-relative file: the rules of every .gitattributes from the
 * root down to its folder, in order, then `info` (.git/info/attributes); the last that speaks wins.
 */
export function linguistOf(rulesByDir: ReadonlyMap<string, AttributeRule[]>, rel: string, info: readonly AttributeRule[] = []): Linguist {
  const layers: AttributeRule[][] = [];
  const root = rulesByDir.get('');
  if (root) layers.push(root);
  const parts = rel.split('/');
  let dir = '';
  for (let i = 0; i < parts.length - 1; i++) {
    dir = dir === '' ? parts[i] : dir + '/' + parts[i];
    const r = rulesByDir.get(dir);
    if (r) layers.push(r);
  }
  layers.push([...info]);
  const state: { vendored?: boolean | null; generated?: boolean | null } = {};
  for (const layer of layers) {
    for (const rule of layer) {
      const sub = rule.base === '' ? rel : rel.startsWith(rule.base + '/') ? rel.slice(rule.base.length + 1) : undefined;
      if (sub === undefined || !rule.regex.test(sub)) continue;
      if (rule.vendored !== undefined) state.vendored = rule.vendored;
      if (rule.generated !== undefined) state.generated = rule.generated;
    }
  }
  return { vendored: state.vendored ?? undefined, generated: state.generated ?? undefined };
}

/** Folder names whose contents are third-party code copied into the tree. */
const VENDORED_FOLDERS = new Set(['vendor', 'vendors', 'third_party', 'third-party', 'bower_components']);
/** File names of minified or bundled JavaScript. */
const VENDORED_NAME = /(?:[.-]min|\.bundle)\.(?:js|mjs|cjs)$/;

/**
 * Why a file is left out: `why` for its diagnostic, `short` for the build's summary line
 * ("148 generated, by .gitattributes", skips.ts), and the folder (or file) the reason covers.
 */
interface LeftOut {
  why: string;
  short: string;
  at: string;
}

/** Why a path is vendored by name alone, and the folder (or file) the reason covers; undefined: it is not. */
export function vendoredByName(rel: string): LeftOut | undefined {
  const parts = rel.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    if (VENDORED_FOLDERS.has(parts[i]))
      return { why: `vendored (a ${parts[i]}/ folder)`, short: 'vendored, by folder name', at: parts.slice(0, i + 1).join('/') };
  }
  if (VENDORED_NAME.test(parts[parts.length - 1]))
    return { why: 'vendored (a minified or bundled file name)', short: 'vendored, minified or bundled', at: rel };
  return undefined;
}

/** What the repository config says to keep (`files` section of .knowledge-graph/config.json). */
export interface VendoredSettings {
  includeVendored: boolean;
  includeGenerated: boolean;
}

/** Why a file is left out (undefined: it is kept), and the path its diagnostic is grouped under. */
export function leftOut(rel: string, attributes: Linguist, settings: VendoredSettings): LeftOut | undefined {
  const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '.';
  if (attributes.generated === true && !settings.includeGenerated)
    return { why: 'generated (linguist-generated in .gitattributes)', short: 'generated, by .gitattributes', at: parent };
  if (settings.includeVendored || attributes.vendored === false) return undefined;
  if (attributes.vendored === true)
    return { why: 'vendored (linguist-vendored in .gitattributes)', short: 'vendored, by .gitattributes', at: parent };
  return vendoredByName(rel);
}
