// A component's generated code kept between cold builds (ADR 182). The language tools' code
// generation is most of what a component costs a build, and what they write depends on nothing but
// the component's text, its file's base name, where Vue's template helper types are from the file,
// the tools' and TypeScript's versions and the options they are asked with: that is the key. The
// store (the repository's graph cache, src/cli/component-code-cache.ts) only keeps bytes; every
// record is checked here before it is used: its header names its key, its body's length and
// SHA-256, and its body must be code and a map that fit the text. A record that fails any check is
// ignored, and the code is generated and stored again: the graph is the same bytes with or without.

import { createHash } from 'node:crypto';
import * as ts from 'typescript';
import type { Segment } from './component-code';
import { toolsOf, VUE_CODEGEN, type ComponentKind } from './kinds';

/** Bytes by key, kept between builds; `get` may return anything, which is checked before use. */
export interface ComponentCodeStore {
  get(key: string): Buffer | undefined;
  put(key: string, data: Buffer): void;
}

/** The code, its script kind and its map, as the tools wrote them. */
export interface StoredCode {
  code: string;
  scriptKind: ts.ScriptKind;
  segments: Segment[];
}

const FORMAT = 'kg-component-code 1';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/**
 * The key of a component's code: everything the tools' output depends on. Measured (ADR 182): the
 * same text gives the same code at any path with the same base name (Svelte names the component
 * after it) and, for Vue, the same relative path to the template helper types, which the code
 * references by that path.
 */
export function storedCodeKey(kind: ComponentKind, fileName: string, text: string, vueTypesRoot: string): string {
  const dir = fileName.slice(0, fileName.lastIndexOf('/'));
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const options = kind === 'vue' ? { ...VUE_CODEGEN, types: relativePath(dir, vueTypesRoot) } : { mode: 'ts' };
  return sha256(JSON.stringify([FORMAT, kind, toolsOf(kind), ts.version, options, base, text]));
}

/** A POSIX path from folder `from` to `to`, both absolute with forward slashes. */
function relativePath(from: string, to: string): string {
  const a = from.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

export function encodeStoredCode(key: string, c: StoredCode): Buffer {
  const flat: number[] = [];
  for (const s of c.segments) flat.push(s.generated, s.source, s.length);
  const body = Buffer.from(JSON.stringify({ scriptKind: c.scriptKind, code: c.code, segments: flat }), 'utf8');
  return Buffer.concat([Buffer.from(`${FORMAT}\t${key}\t${body.length}\t${sha256(body)}\n`, 'utf8'), body]);
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * The code stored under `key` for a component whose text is `text`, or undefined when the record
 * is not exactly what `encodeStoredCode` wrote for that key (truncated, altered, another key's) or
 * its map does not fit the code and the text.
 */
export function decodeStoredCode(key: string, data: Buffer, text: string): StoredCode | undefined {
  const nl = data.indexOf(0x0a);
  if (nl < 0) return undefined;
  const [format, k, length, hash, ...rest] = data.subarray(0, nl).toString('utf8').split('\t');
  const body = data.subarray(nl + 1);
  if (format !== FORMAT || k !== key || rest.length > 0 || String(body.length) !== length || sha256(body) !== hash) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const p = parsed as { scriptKind?: unknown; code?: unknown; segments?: unknown };
  if (p.scriptKind !== ts.ScriptKind.TS && p.scriptKind !== ts.ScriptKind.TSX) return undefined;
  if (typeof p.code !== 'string' || !Array.isArray(p.segments) || p.segments.length % 3 !== 0) return undefined;
  const code = p.code;
  const flat = p.segments as unknown[];
  const segments: Segment[] = [];
  for (let i = 0; i < flat.length; i += 3) {
    const [generated, source, len] = [flat[i], flat[i + 1], flat[i + 2]];
    if (!isCount(generated) || !isCount(source) || !isCount(len) || generated > code.length || source > text.length) return undefined;
    if (segments.length > 0 && generated < segments[segments.length - 1].generated) return undefined;
    segments.push({ generated, source, length: len });
  }
  return { code, scriptKind: p.scriptKind, segments };
}
