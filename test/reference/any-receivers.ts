// How many call sites a checker leaves with an `any` (or `unknown`) receiver — `x.m()` where the
// checker cannot tell what `x` is, so no declaration can be proven. Counted the same way for any
// TypeScript module handed in, so the bundled TypeScript 6 and TypeScript 5.9 (installed under the
// alias `ts59`, for this measurement only) are compared site for site on the same files.

import * as ts from 'typescript';

type TypeScript = typeof ts;

/** The `file:line:column` of each call site whose receiver the checker types as `any` or `unknown`. */
export function anyReceiverSites(tsm: TypeScript, files: readonly string[], options: ts.CompilerOptions): Set<string> {
  const program = tsm.createProgram({ rootNames: files, options: { ...options, noEmit: true } });
  const checker = program.getTypeChecker();
  const anyFlags = tsm.TypeFlags.Any | tsm.TypeFlags.Unknown;
  const sites = new Set<string>();
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const stack: ts.Node[] = [sf];
    while (stack.length > 0) {
      const node = stack.pop() as ts.Node;
      let callee: ts.Expression | undefined;
      if (tsm.isCallExpression(node) || tsm.isNewExpression(node)) callee = node.expression;
      else if (tsm.isTaggedTemplateExpression(node)) callee = node.tag;
      while (callee && (tsm.isParenthesizedExpression(callee) || tsm.isNonNullExpression(callee))) callee = callee.expression;
      if (callee && tsm.isPropertyAccessExpression(callee) && !checker.getSymbolAtLocation(callee.name)) {
        if ((checker.getTypeAtLocation(callee.expression).flags & anyFlags) !== 0) {
          const lc = sf.getLineAndCharacterOfPosition(callee.name.getStart(sf));
          sites.add(`${file}:${lc.line + 1}:${lc.character + 1}`);
        }
      }
      tsm.forEachChild(node, (c) => {
        stack.push(c);
      });
    }
  }
  return sites;
}
