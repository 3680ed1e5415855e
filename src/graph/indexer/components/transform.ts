// A component file read for the build (ADR 169): its TypeScript from the language tools, loaded
// on first need, registered under the file's path for the parsers and the position code. The
// tools never see the repository's configuration code: they are handed the file's text only.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { lineStartsOf, registerComponent, type ComponentCode } from './component-code';
import { componentKind, type ComponentKind } from './kinds';
import { decodeStoredCode, encodeStoredCode, storedCodeKey, type ComponentCodeStore, type StoredCode } from './stored-code';

type Tools = typeof import('./tools');

let tools: Tools | undefined;

/** The engine's compiler, for the tools' own `require('typescript')` in the bundle (esbuild.mjs). */
const SHARED_TYPESCRIPT = Symbol.for('knowledge-graph.typescript');

function loadTools(): Tools {
  if (!tools) {
    (globalThis as Record<symbol, unknown>)[SHARED_TYPESCRIPT] = ts;
    // In the Node bundles this is a run-time load of dist/component-tools.js (esbuild.mjs).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    tools = require('./tools') as Tools;
  }
  return tools;
}

let typesRoot: string | undefined;

/**
 * Where Vue's template helper types are: beside the bundles in dist/ (esbuild.mjs copies them), or
 * in the installed package when running from the sources.
 */
function vueTypesRoot(): string {
  if (typesRoot === undefined) {
    const shipped = path.join(__dirname, 'component-types', 'vue');
    typesRoot = fs.existsSync(shipped) ? shipped : path.join(path.dirname(require.resolve('@vue/language-core/package.json')), 'types');
    typesRoot = typesRoot.split(path.sep).join('/');
  }
  return typesRoot;
}

/** Last code by path and text: an unchanged component is not generated again by a warm build. */
const generated = new Map<string, ComponentCode>();

/**
 * The component's TypeScript, registered for `absPath`; a thrown error when the tools cannot
 * write it (the caller names the file as not analysed, with the reason). With a `store`, code kept
 * by an earlier build is used when its record passes every check (ADR 182), and code generated
 * here is kept there.
 */
export function componentCode(absPath: string, text: string, store?: ComponentCodeStore): ComponentCode {
  const kind = componentKind(absPath);
  if (kind === undefined) throw new Error(`not a component file: ${absPath}`);
  const last = generated.get(absPath);
  if (last && last.source === text) {
    registerComponent(absPath, last);
    return last;
  }
  const out = store ? storedOrGenerated(store, kind, absPath, text) : loadTools().generate(ts, kind, absPath, text, vueTypesRoot());
  const code: ComponentCode = {
    kind,
    source: text,
    code: out.code,
    scriptKind: out.scriptKind,
    segments: out.segments,
    lineStarts: lineStartsOf(text),
  };
  generated.set(absPath, code);
  registerComponent(absPath, code);
  return code;
}

function storedOrGenerated(store: ComponentCodeStore, kind: ComponentKind, absPath: string, text: string): StoredCode {
  const key = storedCodeKey(kind, absPath, text, vueTypesRoot());
  let data: Buffer | undefined;
  try {
    data = store.get(key);
  } catch {
    data = undefined;
  }
  const kept = data === undefined ? undefined : decodeStoredCode(key, data, text);
  if (kept) return kept;
  const out = loadTools().generate(ts, kind, absPath, text, vueTypesRoot());
  try {
    store.put(key, encodeStoredCode(key, out));
  } catch {
    // Keeping it is a saving, never a condition of the build.
  }
  return out;
}
