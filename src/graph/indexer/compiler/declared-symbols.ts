// One file's symbols and their declared signatures, from its text alone: the parser and the
// extraction the build uses, no program and no checker. The editor's guard calls this on the
// unsaved buffer (through the facade, src/graph/index.ts) and `kg check` on the working tree, so
// both compare with graph.json by the very code that wrote it.

import { createHash } from 'node:crypto';
import * as ts from 'typescript';
import { fileId } from '../../ids';
import { symbolsOf, type DeclaredSymbol } from './declared-signature';
import { extractFile, parseSource } from './extract';
import { registeredId } from '../syntax/declaration-positions';

// The compiler's functions read once: `ts.x` is a getter call on every use (ADR 140).
const {
  SyntaxKind,
  isArrayBindingPattern,
  isExportDeclaration,
  isImportDeclaration,
  isImportEqualsDeclaration,
  isJSDoc,
  isObjectBindingPattern,
  isVariableStatement,
} = ts;

const isBindingPattern = (n: ts.Node): n is ts.BindingPattern => isObjectBindingPattern(n) || isArrayBindingPattern(n);

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
 * and the keywords of a statement whose names are all symbols (`export const a = 1, b = 2`,
 * `const { x, y } = lib`: each name's, with a pattern's source) are left out of the file's part: a new import or a new declaration runs nothing new at load
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
  const stack: Array<{ node: ts.Node; owners: readonly string[] }> = [{ node: sf, owners: [fid] }];
  while (stack.length > 0) {
    const { node, owners: outer } = stack.pop() as { node: ts.Node; owners: readonly string[] };
    let owners = outer;
    if (node !== sf) {
      if (isJSDoc(node)) continue;
      if (outer[0] === fid && isBindingImport(node)) continue;
      const id = registeredId(node, sf, declarations);
      if (id !== undefined) owners = [id];
      else if (isVariableStatement(node)) owners = statementOwners(node, sf, declarations) ?? owners;
    }
    const children = node.getChildren(sf);
    if (children.length === 0) {
      // A pattern's own punctuation (`{ a, b }`) is nobody's: a new binding is only itself.
      if (node.kind === SyntaxKind.EndOfFileToken || (node.parent && isBindingPattern(node.parent))) continue;
      for (const owner of owners) {
        const list = own.get(owner);
        if (list) list.push(node.getText(sf));
        else own.set(owner, [node.getText(sf)]);
      }
      continue;
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], owners });
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

/**
 * The symbols a variable statement declares, when every name it binds has one (`export const a = 1,
 * b = 2`, `const { x, y } = ts`): its keywords and an unregistered declaration's initializer are
 * theirs, all of them. Undefined when some name has no symbol: then they stay the enclosing owner's.
 */
function statementOwners(node: ts.VariableStatement, sf: ts.SourceFile, declarations: ReadonlyMap<number, string>): string[] | undefined {
  const ids: string[] = [];
  const names: ts.Node[] = [...node.declarationList.declarations];
  while (names.length > 0) {
    const d = names.pop() as ts.VariableDeclaration | ts.BindingElement | ts.OmittedExpression;
    if (d.kind === SyntaxKind.OmittedExpression) continue;
    const id = registeredId(d, sf, declarations);
    if (id !== undefined) ids.push(id);
    else if (isBindingPattern((d as ts.VariableDeclaration | ts.BindingElement).name))
      names.push(...((d as ts.VariableDeclaration | ts.BindingElement).name as ts.BindingPattern).elements);
    else return undefined;
  }
  return ids.length > 0 ? [...new Set(ids)].sort() : undefined;
}

/** An import that binds names (`import { a } from`, `import x = require()`) or a re-export `export … from`. */
function isBindingImport(node: ts.Node): boolean {
  if (isImportDeclaration(node)) return node.importClause !== undefined;
  if (isImportEqualsDeclaration(node)) return true;
  return isExportDeclaration(node) && node.moduleSpecifier !== undefined;
}
