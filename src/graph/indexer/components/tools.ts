// The language tools of Vue (`@vue/language-core`, the code `vue-tsc` checks) and Svelte
// (`svelte2tsx`, the code `svelte-check` checks), turning a component into TypeScript with the map
// back to its text (ADR 169). This module is a bundle of its own (dist/component-tools.js), loaded
// only by a build that meets a component: a plain TypeScript build never loads it. It is handed
// the engine's compiler, never one of its own.

import type * as ts from 'typescript';
import { decodedMappings, TraceMap } from '@jridgewell/trace-mapping';
import { createLanguage, createVueLanguagePlugin, FileMap, getDefaultCompilerOptions, type VueCompilerOptions } from '@vue/language-core';
import { svelte2tsx } from 'svelte2tsx';
import { VERSION as SVELTE_VERSION } from 'svelte/compiler';
import { lineStartsOf, type Segment } from './component-code';
import { VUE_CODEGEN, type ComponentKind } from './kinds';

export interface GeneratedCode {
  code: string;
  scriptKind: ts.ScriptKind;
  segments: Segment[];
}

let vueOptions: VueCompilerOptions | undefined;

interface ServiceScript {
  code: {
    snapshot: ts.IScriptSnapshot;
    mappings: ReadonlyArray<{
      sourceOffsets: number[];
      generatedOffsets: number[];
      lengths: number[];
      generatedLengths?: number[];
      data: { navigation?: unknown };
    }>;
  };
  scriptKind: ts.ScriptKind;
}

/**
 * The component's TypeScript and map. `vueTypesRoot` is where Vue's template helper types are: the
 * code references them by a path relative to the file.
 */
export function generate(tsModule: typeof ts, kind: ComponentKind, fileName: string, text: string, vueTypesRoot: string): GeneratedCode {
  return kind === 'vue' ? vueCode(tsModule, fileName, text, vueTypesRoot) : svelteCode(tsModule, fileName, text);
}

function vueCode(tsModule: typeof ts, fileName: string, text: string, typesRoot: string): GeneratedCode {
  // Vue's defaults and VUE_CODEGEN's overrides; a project's `vueCompilerOptions.plugins` are code, never loaded (ADR 169).
  if (vueOptions?.typesRoot !== typesRoot) {
    const c = VUE_CODEGEN;
    vueOptions = { ...getDefaultCompilerOptions(c.target, c.lib, c.strictTemplates, typesRoot), ...c.overrides };
  }
  const plugin = createVueLanguagePlugin<string>(tsModule, {}, vueOptions, (id) => id);
  const language = createLanguage<string>([plugin], new FileMap(false), () => undefined);
  const script = language.scripts.set(fileName, tsModule.ScriptSnapshot.fromString(text), 'vue');
  const root = script?.generated?.root;
  // The plugin's TypeScript half (typed by @volar/typescript, which this module does not need).
  const typescript = (plugin as unknown as { typescript?: { getServiceScript(root: unknown): ServiceScript | undefined } }).typescript;
  const service = root ? typescript?.getServiceScript(root) : undefined;
  if (!service) throw new Error('the Vue language tools wrote no script for it');
  const snapshot = service.code.snapshot;
  const code = snapshot.getText(0, snapshot.getLength());
  const segments: Segment[] = [];
  for (const m of service.code.mappings) {
    // Only what the tools map for navigation is the author's code (references, definitions).
    if (!m.data.navigation) continue;
    for (let i = 0; i < m.sourceOffsets.length; i++) {
      segments.push({ generated: m.generatedOffsets[i], source: m.sourceOffsets[i], length: m.generatedLengths?.[i] ?? m.lengths[i] });
    }
  }
  segments.sort((a, b) => a.generated - b.generated || a.source - b.source);
  const kind = service.scriptKind;
  const jsx = kind === tsModule.ScriptKind.TSX || kind === tsModule.ScriptKind.JSX;
  return { code, scriptKind: jsx ? tsModule.ScriptKind.TSX : tsModule.ScriptKind.TS, segments };
}

function svelteCode(tsModule: typeof ts, fileName: string, text: string): GeneratedCode {
  const isTsFile = /<script\b[^>]*\blang\s*=\s*["']?(ts|typescript)\b/i.test(text);
  const out = svelte2tsx(text, { filename: fileName, isTsFile, mode: 'ts', version: SVELTE_VERSION });
  const map = new TraceMap(out.map as unknown as ConstructorParameters<typeof TraceMap>[0]);
  const genStarts = lineStartsOf(out.code);
  const srcStarts = lineStartsOf(text);
  const segments: Segment[] = [];
  decodedMappings(map).forEach((line, genLine) => {
    const lineEnd = genLine + 1 < genStarts.length ? genStarts[genLine + 1] : out.code.length;
    for (let i = 0; i < line.length; i++) {
      const seg = line[i];
      if (seg.length < 4) continue;
      const generated = genStarts[genLine] + seg[0];
      const next = i + 1 < line.length ? genStarts[genLine] + line[i + 1][0] : lineEnd;
      const srcLine = seg[2] as number;
      if (srcLine >= srcStarts.length) continue;
      segments.push({ generated, source: srcStarts[srcLine] + (seg[3] as number), length: Math.max(0, next - generated) });
    }
  });
  segments.sort((a, b) => a.generated - b.generated || a.source - b.source);
  return { code: out.code, scriptKind: tsModule.ScriptKind.TS, segments };
}
