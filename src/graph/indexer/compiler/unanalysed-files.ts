// Files the graph does not read but which may use its code (ADR 153): `.vue`, `.svelte`, `.astro`,
// `.html`, `.htm` and `.mdx` files. Each is named in graph.json with the graph's files its text
// imports — a scan of the text for module specifiers (`from '…'`, `import '…'`, `import('…')`,
// `require('…')`, `<script src="…">`), each placed by the module resolver of the project whose
// config sits deepest above the file. The scan is a guess: it never makes an edge, and the
// answers name what it found as "not analysed", never as callers.

import * as path from 'node:path';
import { compareStrings, type UnanalysedFile } from '../../model';
import type { FileHost } from '../files/file-host';
import type { ImportSyntax } from '../facts';
import { looseOptions, type Discovery, type Project } from './discover';
import type { ModuleResolver } from './imports';

/** Files larger than this are named but not scanned: a page that large is data, not code. */
const MAX_SCAN_BYTES = 1024 * 1024;

const SPEC = `(['"])([^'"\\r\\n]{1,400})\\1`;
const PATTERNS: ReadonlyArray<{ re: RegExp; syntax: ImportSyntax; script?: true }> = [
  { re: new RegExp(`\\bfrom\\s*${SPEC}`, 'g'), syntax: 'dynamic' },
  { re: new RegExp(`\\bimport\\s*${SPEC}`, 'g'), syntax: 'dynamic' },
  { re: new RegExp(`\\bimport\\s*\\(\\s*${SPEC}\\s*\\)`, 'g'), syntax: 'dynamic' },
  { re: new RegExp(`\\brequire\\s*\\(\\s*${SPEC}\\s*\\)`, 'g'), syntax: 'require' },
  { re: new RegExp(`<script\\b[^>]{0,500}?\\bsrc\\s*=\\s*${SPEC}`, 'gi'), syntax: 'dynamic', script: true },
];

/**
 * The module specifiers a text names, in order of first appearance, each once. A `<script src>`
 * starting with one `/` is taken from the file's folder (a page served from its folder, as a
 * bundler's `index.html` is); an address (`https:`, `//host`) is no module of the repository.
 */
export function scanSpecifiers(text: string): Array<{ specifier: string; syntax: ImportSyntax }> {
  const found = new Map<string, ImportSyntax>();
  for (const { re, syntax, script } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      let spec = m[2].trim();
      if (script) {
        if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(spec)) continue;
        if (spec.startsWith('/')) spec = '.' + spec;
        else if (!spec.startsWith('.')) spec = './' + spec;
      }
      if (spec !== '' && !found.has(spec)) found.set(spec, syntax);
    }
  }
  return [...found].map(([specifier, syntax]) => ({ specifier, syntax }));
}

/** The project a file outside every project's `include` belongs to: the deepest config above it. */
function projectAbove(d: Discovery, file: string): Project {
  let best: Project | undefined;
  let bestDepth = -1;
  for (const p of d.projects) {
    if (p.configPath === '') continue;
    const dir = path.posix.dirname(p.configPath);
    if (dir !== '.' && !file.startsWith(dir + '/')) continue;
    const depth = dir === '.' ? 0 : dir.split('/').length;
    if (depth > bestDepth) {
      best = p;
      bestDepth = depth;
    }
  }
  return (
    best ??
    d.projects.find((p) => p.configPath === '') ?? { configPath: '', options: looseOptions(), projectReferences: undefined, files: [] }
  );
}

/** Every unanalysed file of the discovery, with the graph's files its text imports (ADR 153). */
export function unanalysedFiles(host: FileHost, d: Discovery, resolver: ModuleResolver): UnanalysedFile[] {
  const out: UnanalysedFile[] = [];
  for (const file of d.unanalysedFiles) {
    const entry: UnanalysedFile = { path: file };
    out.push(entry);
    let text: string;
    try {
      const bytes = host.readFile(d.root + '/' + file);
      if (bytes.length > MAX_SCAN_BYTES) continue;
      text = new TextDecoder('utf-8').decode(bytes);
    } catch {
      continue;
    }
    const project = projectAbove(d, file);
    const imports = new Set<string>();
    for (const { specifier, syntax } of scanSpecifiers(text)) {
      const outcome = resolver.resolve(project, file, {
        specifier,
        kind: 'import',
        syntax,
        evidence: { file, line: 1, column: 1 },
      });
      if (outcome.kind === 'file') imports.add(outcome.path);
    }
    if (imports.size > 0) entry.imports = [...imports].sort(compareStrings);
  }
  return out;
}
