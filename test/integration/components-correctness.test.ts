// The correctness reference for components (issue 47, item 5): the TypeScript language service
// over the code Vue's and Svelte's own tools write — as `vue-tsc` and `svelte-check` see it —
// its find-all-references mapped back into the components' text with the tools' own maps,
// compared with the graph's EXACT calls. (Its call hierarchy cannot be the reference here: Vue's
// tools write a template call `{{ f(x) }}` as `__VLS_unwrap(f, …)(x)`, which the call hierarchy
// does not list as a call of `f`; the author's text says what each use is.) Nothing here uses the builder's component code: the tools are
// called directly, the files are named as those checkers name them (`Cart.vue.ts`), and the
// maps are Volar's `SourceMap` and the Svelte source map read by trace-mapping.
//
// Precision: every EXACT calls edge whose target is a fixture function is a use the language
// service finds, at the same place. Recall: every use it finds in the author's text that is a
// call there (the name followed by `(`) is an EXACT calls edge, and every other use is a calls
// or references edge at that place (a handler named in a template is a reference).

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import * as ts from 'typescript';
import { originalPositionFor, TraceMap, generatedPositionFor } from '@jridgewell/trace-mapping';
import { createLanguage, createVueLanguagePlugin, FileMap, getDefaultCompilerOptions, SourceMap } from '@vue/language-core';
import { svelte2tsx } from 'svelte2tsx';
import { buildGraph } from '../../src/graph';
import type { Graph } from '../../src/graph/model';
import { copyFixture, removeTempDirs } from '../helpers/fixtures';

const REPO = path.resolve(__dirname, '..', '..');

interface Generated {
  code: string;
  /** Generated offset → the author's offset, or undefined for glue. */
  toSource(offset: number): number | undefined;
  /** The author's offset → generated offset. */
  toGenerated(offset: number): number | undefined;
}

function vueGenerated(file: string, text: string): Generated {
  const plugin = createVueLanguagePlugin<string>(ts, {}, getDefaultCompilerOptions(), (id) => id);
  const language = createLanguage<string>([plugin], new FileMap(false), () => undefined);
  const root = language.scripts.set(file, ts.ScriptSnapshot.fromString(text), 'vue')?.generated?.root;
  const service = (
    plugin as unknown as { typescript: { getServiceScript(r: unknown): { code: { snapshot: ts.IScriptSnapshot; mappings: [] } } } }
  ).typescript.getServiceScript(root);
  const map = new SourceMap<{ navigation?: unknown }>(service.code.mappings);
  const nav = (d: { navigation?: unknown }) => !!d.navigation;
  const first = (g: Generator<readonly [number, unknown]>) => {
    for (const [o] of g) return o;
    return undefined;
  };
  return {
    code: service.code.snapshot.getText(0, service.code.snapshot.getLength()),
    toSource: (o) => first(map.toSourceLocation(o, nav)),
    toGenerated: (o) => first(map.toGeneratedLocation(o, nav)),
  };
}

function svelteGenerated(file: string, text: string): Generated {
  const out = svelte2tsx(text, { filename: file, isTsFile: true, mode: 'ts' });
  const map = new TraceMap(out.map as unknown as ConstructorParameters<typeof TraceMap>[0]);
  const gen = lineStarts(out.code);
  const src = lineStarts(text);
  return {
    code: out.code,
    toSource: (o) => {
      const lc = lineOf(gen, o);
      const p = originalPositionFor(map, { line: lc.line + 1, column: lc.column });
      return p.line === null || p.column === null ? undefined : src[p.line - 1] + p.column;
    },
    toGenerated: (o) => {
      const lc = lineOf(src, o);
      const p = generatedPositionFor(map, { source: map.sources[0] as string, line: lc.line + 1, column: lc.column });
      return p.line === null || p.column === null ? undefined : gen[p.line - 1] + p.column;
    },
  };
}

function lineStarts(text: string): number[] {
  const s = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') s.push(i + 1);
  return s;
}

function lineOf(starts: number[], offset: number): { line: number; column: number } {
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
  return { line, column: offset - starts[line] };
}

const WORD = /[\w$]/;

/** The word at `offset` in `text`. */
function wordAt(text: string, offset: number): string {
  let end = offset;
  while (end < text.length && WORD.test(text[end])) end++;
  return text.slice(offset, end);
}

describe('components against the language service over their tools’ code', () => {
  after(removeTempDirs);

  it('every EXACT call into the fixture is a use the language service finds, and every call it finds in the author’s text is in the graph', () => {
    const root = copyFixture('components');
    fs.mkdirSync(path.join(root, 'node_modules'));
    for (const pkg of ['vue', 'svelte', '@vue']) fs.symlinkSync(path.join(REPO, 'node_modules', pkg), path.join(root, 'node_modules', pkg));
    const graph: Graph = buildGraph({ root }).graph;

    // The files as vue-tsc and svelte-check name them: a component's code is `<file>.ts`.
    const sources = new Map<string, string>();
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory() && e.name !== 'node_modules') walk(p);
        else if (/\.(ts|vue|svelte)$/.test(e.name))
          sources.set(path.relative(root, p).split(path.sep).join('/'), fs.readFileSync(p, 'utf8'));
      }
    };
    walk(root);
    const generated = new Map<string, Generated>();
    const files = new Map<string, string>();
    for (const [rel, text] of sources) {
      const abs = path.join(root, rel);
      if (rel.endsWith('.vue') || rel.endsWith('.svelte')) {
        const g = rel.endsWith('.vue') ? vueGenerated(abs, text) : svelteGenerated(abs, text);
        generated.set(rel, g);
        files.set(abs + '.ts', g.code);
      } else files.set(abs, text);
    }
    const options: ts.CompilerOptions = {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      noEmit: true,
    };
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [...files.keys()],
      getScriptVersion: () => '1',
      getScriptSnapshot: (f) =>
        files.has(f)
          ? ts.ScriptSnapshot.fromString(files.get(f) as string)
          : fs.existsSync(f)
            ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8'))
            : undefined,
      getCurrentDirectory: () => root,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (f) => files.has(f) || ts.sys.fileExists(f),
      readFile: (f) => files.get(f) ?? ts.sys.readFile(f),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    const ls = ts.createLanguageService(host);

    const relOf = (abs: string) =>
      path
        .relative(root, abs.endsWith('.vue.ts') || abs.endsWith('.svelte.ts') ? abs.slice(0, -3) : abs)
        .split(path.sep)
        .join('/');
    const place = (rel: string, offset: number) => {
      const lc = lineOf(lineStarts(sources.get(rel) as string), offset);
      return `${rel}:${lc.line + 1}:${lc.column + 1}`;
    };
    // Every function of the fixture with a node: asked where its name is declared.
    const functions = graph.nodes.filter((n) => n.kind === 'function' && !n.id.endsWith('#default') && n.line !== undefined);
    assert.ok(functions.length >= 15, `${functions.length} functions`);
    const listedCalls = new Set<string>();
    const listedUses = new Set<string>();
    for (const fn of functions) {
      const rel = fn.sourceFile as string;
      const text = sources.get(rel) as string;
      const at = lineStarts(text)[(fn.line as number) - 1] + (fn.column as number) - 1;
      const g = generated.get(rel);
      const file = g ? path.join(root, rel) + '.ts' : path.join(root, rel);
      const pos = g ? g.toGenerated(at) : at;
      assert.ok(pos !== undefined, `${fn.id} is placed in its code`);
      const refs = ls.findReferences(file, pos as number) ?? [];
      assert.ok(refs.length > 0, `${fn.id}: find-all-references finds it`);
      for (const ref of refs.flatMap((r) => r.references)) {
        if (ref.isDefinition) continue;
        const fromRel = relOf(ref.fileName);
        const fromG = generated.get(fromRel);
        const site = fromG ? fromG.toSource(ref.textSpan.start) : ref.textSpan.start;
        if (site === undefined) continue; // generated glue: no author's site
        const text = sources.get(fromRel) as string;
        if (wordAt(text, site) !== fn.label) continue; // a stretch the map places elsewhere
        // An import's name is the file's, not a use (ADR 151 subsumes it).
        const lineStart = text.lastIndexOf('\n', site) + 1;
        if (/^\s*(import|export)\b/.test(text.slice(lineStart, site))) continue;
        const key = `${fn.id} @ ${place(fromRel, site)}`;
        if (text[site + (fn.label as string).length] === '(') listedCalls.add(key);
        else listedUses.add(key);
      }
    }
    const targets = new Set(functions.map((f) => f.id));
    const where = (e: Graph['edges'][number]) => `${e.target} @ ${e.evidence?.file}:${e.evidence?.line}:${e.evidence?.column}`;
    const exactCalls = graph.edges.filter((e) => e.relation === 'calls' && e.confidence === 'EXACT' && targets.has(e.target));
    const graphUses = new Set(
      graph.edges.filter((e) => (e.relation === 'calls' || e.relation === 'references') && e.confidence === 'EXACT').map(where),
    );
    // Precision: each EXACT call is listed by the language service at its place.
    const unconfirmed = exactCalls.map(where).filter((k) => !listedCalls.has(k) && !listedUses.has(k));
    assert.deepEqual(unconfirmed, []);
    // Recall: each call it lists is an EXACT call; each other use it lists is a call or reference edge.
    const exactKeys = new Set(exactCalls.map(where));
    assert.deepEqual(
      [...listedCalls].filter((k) => !exactKeys.has(k)),
      [],
    );
    assert.deepEqual(
      [...listedUses].filter((k) => !graphUses.has(k)),
      [],
    );
    // And the components' own calls are among them: the measure is not empty where it matters.
    const inComponents = [...listedCalls].filter((k) => /\.(vue|svelte):/.test(k));
    assert.ok(inComponents.length >= 8, inComponents.join('\n'));
    process.stdout.write(
      `components: ${functions.length} functions asked; ${listedCalls.size} calls found (${inComponents.length} in components), ${exactCalls.length} EXACT calls; precision ${exactCalls.length - unconfirmed.length}/${exactCalls.length}\n`,
    );
  });
});
