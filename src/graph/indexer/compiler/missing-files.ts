// A tsconfig `files` entry that names no file: the compiler only says so when it builds a program
// for emit, so the build would pass over it in silence. Each one is a note on the config.

import * as path from 'node:path';
import * as ts from 'typescript';
import type { BuildDiagnostic } from '../../model';
import type { FileHost } from '../files/file-host';
import type { Discovery } from './discover';

export function missingConfigFiles(host: FileHost, d: Discovery): BuildDiagnostic[] {
  const out: BuildDiagnostic[] = [];
  for (const project of d.projects) {
    if (project.configPath === '') continue;
    const abs = d.root + '/' + project.configPath;
    const read = ts.readConfigFile(abs, (p) => {
      try {
        return new TextDecoder().decode(host.readFile(p));
      } catch {
        return undefined;
      }
    });
    const files = (read.config as { files?: unknown } | undefined)?.files;
    if (!Array.isArray(files)) continue;
    for (const entry of files) {
      if (typeof entry !== 'string') continue;
      const target = path.posix.resolve(path.posix.dirname(abs), entry);
      if (host.stat(target) !== undefined) continue;
      const shown = target.startsWith(d.root + '/') ? target.slice(d.root.length + 1) : entry;
      out.push({ path: project.configPath, reason: `config: "files" lists ${shown}, which does not exist` });
    }
  }
  return out;
}
