// A component file read for the build (ADR 169): its TypeScript from the language tools, loaded
// on first need, registered under the file's path for the parsers and the position code. The
// tools never see the repository's configuration code: they are handed the file's text only.

import * as ts from 'typescript';
import { lineStartsOf, registerComponent, type ComponentCode } from './component-code';
import { componentKind } from './kinds';

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

/** Last code by path and text: an unchanged component is not generated again by a warm build. */
const generated = new Map<string, ComponentCode>();

/**
 * The component's TypeScript, registered for `absPath`; a thrown error when the tools cannot
 * write it (the caller names the file as not analysed, with the reason).
 */
export function componentCode(absPath: string, text: string): ComponentCode {
  const kind = componentKind(absPath);
  if (kind === undefined) throw new Error(`not a component file: ${absPath}`);
  const last = generated.get(absPath);
  if (last && last.source === text) {
    registerComponent(absPath, last);
    return last;
  }
  const out = loadTools().generate(ts, kind, absPath, text);
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
