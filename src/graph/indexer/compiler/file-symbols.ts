// One file's symbols and their declared signatures, from its text alone: the parser and the
// extraction the build uses, no program and no checker. The editor's guard calls this on the
// unsaved buffer (through the facade, src/graph/index.ts) and `kg check` on the working tree, so
// both compare with graph.json by the very code that wrote it.

import * as ts from 'typescript';
import { symbolsOf, type DeclaredSymbol } from './declared-signature';
import { extractFile, parseSource } from './extract';

function impliedFormat(file: string): ts.ResolutionMode {
  if (/\.(mts|mjs)$/.test(file)) return ts.ModuleKind.ESNext;
  if (/\.(cts|cjs)$/.test(file)) return ts.ModuleKind.CommonJS;
  return undefined;
}

/** `relPath`: repository-relative, POSIX (it names the ids); `text`: the file's content. */
export function declaredSymbols(relPath: string, text: string): DeclaredSymbol[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sf = parseSource('/' + relPath, body, impliedFormat(relPath));
  const extraction = extractFile(sf, relPath);
  return symbolsOf(extraction.nodes, extraction.edges);
}
