// The component files the graph reads (ADR 169), by extension, and the language tools that read
// each kind: no compiler here, so the walk that decides what is a source stays light.

export type ComponentKind = 'vue' | 'svelte';

const KINDS: ReadonlyArray<[string, ComponentKind]> = [
  ['.vue', 'vue'],
  ['.svelte', 'svelte'],
];

/** The component files' extensions, lower case. */
export const COMPONENT_EXTENSIONS: readonly string[] = KINDS.map(([ext]) => ext);

/** Which language tools a file's name asks for, or undefined for any other file. */
export function componentKind(fileName: string): ComponentKind | undefined {
  for (const [ext, kind] of KINDS) if (fileName.endsWith(ext)) return kind;
  return undefined;
}

/**
 * The language tools by kind, at the versions package.json pins exactly: graph.json names them
 * beside TypeScript's when the graph holds a component of that kind (a unit test checks them
 * against the installed packages).
 */
const TOOLS: Readonly<Record<ComponentKind, Readonly<Record<string, string>>>> = {
  vue: { '@vue/language-core': '3.3.14' },
  svelte: { svelte: '5.60.1', svelte2tsx: '0.7.64' },
};

/** The tools' versions for components of `kind`, name → version. */
export function toolsOf(kind: ComponentKind): Readonly<Record<string, string>> {
  return TOOLS[kind];
}

/**
 * What the tools are asked beyond a file's text and name: Vue's defaults for target 3.x with
 * `strictTemplates` off (ADR 169), with the overrides below. Part of the key of the code kept
 * between builds (ADR 182): a change here is a different key, never a stale hit.
 */
export const VUE_CODEGEN = { target: 99, lib: 'vue', strictTemplates: false, overrides: {} } as const;

/** The tools that wrote the code of the components among `paths`, name → version. */
export function componentTools(paths: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const kind = componentKind(p);
    if (kind !== undefined) Object.assign(out, TOOLS[kind]);
  }
  return out;
}
