// One file's symbols and their declared signatures, from its text alone: the parser and the
// extraction the build uses, no program and no checker. The editor's guard calls this on the
// unsaved buffer (through the facade, src/graph/index.ts) and `kg check` on the working tree, so
// both compare with graph.json by the very code that wrote it.

import { createHash } from 'node:crypto';
import * as ts from 'typescript';
import { fileId } from '../../ids';
import { symbolsOf, type DeclaredSymbol } from './declared-signature';
import { extractFile, parseSource, registeredId } from './extract';

// The compiler's functions read once: `ts.x` is a getter call on every use (ADR 140).
const { SyntaxKind, isExportDeclaration, isImportDeclaration, isImportEqualsDeclaration, isJSDoc, isVariableStatement } = ts;

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

/**
 * One file's code, split by the symbol it belongs to and hashed (12 hex characters of SHA-256):
 * for each symbol the extraction gives an id, the tokens of its own declarations, without those of
 * the symbols declared inside it (a class's methods are theirs, not the class's); for the file's
 * id, the tokens outside every symbol (its top-level statements). Comments and white space are not
 * tokens, so editing them changes nothing. Import declarations that bind names, `export … from`
 * and the keywords of a statement whose declarations are all symbols (`export const a = 1, b = 2`)
 * are left out of the file's part: a new import or a new declaration runs nothing new at load
 * time; a side-effect import (`import './setup'`) stays in. `kg tests` compares two sides' hashes to
 * tell which symbols a change touched (docs/adr/0165-the-tests-a-change-can-reach.md).
 */
export function codeHashes(relPath: string, text: string): Record<string, string> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sf = parseSource('/' + relPath, body, impliedFormat(relPath));
  const { declarations } = extractFile(sf, relPath);
  const own = new Map<string, string[]>();
  const fid = fileId(relPath);
  own.set(fid, []);
  const stack: Array<{ node: ts.Node; owner: string }> = [{ node: sf, owner: fid }];
  while (stack.length > 0) {
    const { node, owner: outer } = stack.pop() as { node: ts.Node; owner: string };
    let owner = outer;
    if (node !== sf) {
      if (isJSDoc(node)) continue;
      if (outer === fid && isBindingImport(node)) continue;
      const id = registeredId(node, sf, declarations);
      if (id !== undefined) owner = id;
      else if (isVariableStatement(node)) {
        const ids = node.declarationList.declarations.map((d) => registeredId(d, sf, declarations));
        if (ids.length > 0 && ids.every((x) => x !== undefined)) owner = ids[0] as string;
      }
    }
    const children = node.getChildren(sf);
    if (children.length === 0) {
      if (node.kind !== SyntaxKind.EndOfFileToken) {
        const list = own.get(owner);
        if (list) list.push(node.getText(sf));
        else own.set(owner, [node.getText(sf)]);
      }
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], owner });
  }
  const out: Record<string, string> = {};
  for (const id of [...own.keys()].sort()) {
    out[id] = createHash('sha256')
      .update((own.get(id) as string[]).join('\u0001'))
      .digest('hex')
      .slice(0, 12);
  }
  return out;
}

/** An import that binds names (`import { a } from`, `import x = require()`) or a re-export `export … from`. */
function isBindingImport(node: ts.Node): boolean {
  if (isImportDeclaration(node)) return node.importClause !== undefined;
  if (isImportEqualsDeclaration(node)) return true;
  return isExportDeclaration(node) && node.moduleSpecifier !== undefined;
}
