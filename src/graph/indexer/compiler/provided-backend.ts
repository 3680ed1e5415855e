// A second checker behind the seam (ADR 8, 113), opened for one project: the files it reads come
// from the build (the graph's texts, the builder's own parse of each), and its imports lead where
// the build's module resolver leads. A provider that declines or cannot start leaves the project
// to the JavaScript backend, with the reason in the build's checker report.

import type * as ts from 'typescript';
import type { CheckerBackend, CheckerProvider } from './checker';
import type { Project } from './discover';
import type { TierContext } from './tiers';

/** The first line of an error's message, for a fallback's reason. */
export function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split('\n', 1)[0].slice(0, 300);
}

/** The provider's backend for a project, or undefined (the JavaScript backend serves it) with the reason recorded. */
export function openProvided(
  ctx: TierContext,
  project: Project,
  roots: readonly string[],
  parseOwn: (rel: string) => ts.SourceFile,
  parseDeclarationFile: (abs: string) => ts.SourceFile | undefined,
): CheckerBackend | undefined {
  const provider = ctx.checker as CheckerProvider;
  const { root, resolver } = ctx;
  const graph = new Map(ctx.inputs.map((i) => [i.path, i]));
  const rh = resolver.resolutionHost;
  const relOf = (abs: string): string | undefined => (abs.startsWith(root + '/') ? abs.slice(root.length + 1) : undefined);
  const cacheFs = {
    fileExists: (f: string) => rh.fileExists(f),
    directoryExists: (d: string) => rh.directoryExists?.(d) ?? false,
    readFile: (f: string) => {
      const rel = relOf(f);
      const input = rel !== undefined ? graph.get(rel) : undefined;
      return input ? input.text : rh.readFile(f);
    },
    realpath: (f: string) => rh.realpath?.(f) ?? f,
    entries: (d: string) => {
      try {
        const files: string[] = [];
        const directories: string[] = [];
        for (const e of ctx.host.readDir(d)) {
          const type = e.type === 'symlink' ? ctx.host.stat(`${d}/${e.name}`)?.type : e.type;
          if (type === 'directory') directories.push(e.name);
          else if (type === 'file') files.push(e.name);
        }
        return { files, directories };
      } catch {
        return undefined;
      }
    },
  };
  let opened: ReturnType<CheckerProvider['open']>;
  try {
    opened = provider.open({
      root,
      project,
      roots: roots.map((f) => root + '/' + f),
      sourceFile: (abs) => {
        const rel = relOf(abs);
        return rel !== undefined && graph.has(rel) ? parseOwn(rel) : parseDeclarationFile(abs);
      },
      host: cacheFs,
      resolveImport: (fromAbs, specifier) => {
        const rel = relOf(fromAbs);
        if (rel === undefined) return undefined;
        const outcome = resolver.resolve(project, rel, {
          specifier,
          kind: 'import',
          syntax: 'static',
          evidence: { file: rel, line: 1, column: 1 },
        });
        return outcome.kind === 'file' ? root + '/' + outcome.path : undefined;
      },
    });
  } catch (e) {
    opened = { declined: `the ${provider.name} checker could not start (${firstLine(e)})` };
  }
  if ('declined' in opened) {
    ctx.report.fallbacks.push({ project: project.configPath, reason: opened.declined });
    return undefined;
  }
  return opened;
}
