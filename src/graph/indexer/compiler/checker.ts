// The seam between the builder and a type checker: positions of callee names in, declarations
// out (file + name position), or "none" with a reason. The builder never touches checker
// objects, so a second backend (TypeScript 7's native checker, batched `getSymbolAtPosition`)
// can answer the same questions.

import * as ts from 'typescript';
import { declarationNameStart } from './extract';

/** A question: which declaration does the name at `position` (in the file asked about) denote? */
export interface SymbolQuery {
  /** Start offset of the callee name (identifier, property name, `super`, JSX tag). */
  position: number;
  /** A backend-specific shortcut to the node at `position`; a backend may ignore it. */
  hint?: unknown;
}

export interface DeclarationRef {
  /** Absolute path of the declaring file. */
  file: string;
  /** Start offset of the declaration's name, as `declarationNameStart` defines it. */
  nameStart: number;
  /** Whether the declaration is itself callable code (a function, method, class), not a value holding one. */
  callable: boolean;
}

export type SymbolAnswer =
  { kind: 'declarations'; declarations: DeclarationRef[] } | { kind: 'none'; reason: 'any-receiver' | 'no-declaration' };

interface CheckerBackend {
  /** Answers every query about one file, in order. */
  declarationsAt(file: string, queries: readonly SymbolQuery[]): SymbolAnswer[];
}

const CALLABLE_KINDS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.ClassExpression,
  ts.SyntaxKind.ExportAssignment,
]);

function isCallableDeclaration(decl: ts.Declaration): boolean {
  if (CALLABLE_KINDS.has(decl.kind)) return true;
  if (ts.isVariableDeclaration(decl) || ts.isPropertyDeclaration(decl) || ts.isPropertyAssignment(decl)) {
    let init = decl.initializer;
    while (init && (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init)))
      init = init.expression;
    return !!init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init));
  }
  return false;
}

/** The innermost node whose span starts at `position` (a name token), found without recursion. */
function nodeAt(sf: ts.SourceFile, position: number): ts.Node | undefined {
  let current: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    ts.forEachChild(current, (child) => {
      if (next === undefined && child.pos <= position && position < child.end) next = child;
    });
    if (!next) return current.getStart(sf) === position ? current : undefined;
    if (
      next.getStart(sf) === position &&
      (ts.isIdentifier(next) ||
        ts.isPrivateIdentifier(next) ||
        next.kind === ts.SyntaxKind.SuperKeyword ||
        next.kind === ts.SyntaxKind.ThisKeyword)
    ) {
      return next;
    }
    current = next;
  }
}

/** The JavaScript type checker of TypeScript 6, one program at a time. */
export class TsCheckerBackend implements CheckerBackend {
  private readonly checker: ts.TypeChecker;

  constructor(private readonly program: ts.Program) {
    this.checker = program.getTypeChecker();
  }

  declarationsAt(file: string, queries: readonly SymbolQuery[]): SymbolAnswer[] {
    const sf = this.program.getSourceFile(file);
    return queries.map((q) => {
      const node = (q.hint as ts.Node | undefined) ?? (sf ? nodeAt(sf, q.position) : undefined);
      if (!node) return { kind: 'none', reason: 'no-declaration' };
      return this.answer(node);
    });
  }

  private answer(node: ts.Node): SymbolAnswer {
    const checker = this.checker;
    let symbol = node.kind === ts.SyntaxKind.ThisKeyword ? this.classOfThis(node) : checker.getSymbolAtLocation(node);
    if (!symbol) return { kind: 'none', reason: this.isAnyReceiver(node) ? 'any-receiver' : 'no-declaration' };
    // Follow import/export aliases and re-export chains to the real declaration.
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    let declarations = symbol.declarations ?? [];
    // `{ add }` in an object literal names the value `add`: follow it, as references do.
    if (declarations.length > 0 && declarations.every(ts.isShorthandPropertyAssignment)) {
      const values = declarations.map((d) => checker.getShorthandAssignmentValueSymbol(d)).filter((s): s is ts.Symbol => !!s);
      const resolved = values.map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s));
      declarations = resolved.flatMap((s) => s.declarations ?? []);
    }
    if (declarations.length === 0) return { kind: 'none', reason: 'no-declaration' };
    return {
      kind: 'declarations',
      declarations: declarations.map((d) => {
        const dsf = d.getSourceFile();
        return { file: dsf.fileName, nameStart: declarationNameStart(d, dsf), callable: isCallableDeclaration(d) };
      }),
    };
  }

  /**
   * The class `this` denotes where its type is the class's static side (`typeof C`): in a static
   * method, static block or static initializer. Anywhere else (`this` an instance, or typed by a
   * `this:` parameter) there is no class to name.
   */
  private classOfThis(node: ts.Node): ts.Symbol | undefined {
    const type = this.checker.getTypeAtLocation(node);
    const symbol = type.getSymbol();
    if (!symbol || !(symbol.flags & ts.SymbolFlags.Class)) return undefined;
    return this.checker.getTypeOfSymbol(symbol) === type ? symbol : undefined;
  }

  /** A property access whose receiver the checker types as `any` (or could not type at all). */
  private isAnyReceiver(node: ts.Node): boolean {
    const parent = node.parent;
    let receiver: ts.Expression | undefined;
    if (parent && ts.isPropertyAccessExpression(parent) && parent.name === node) receiver = parent.expression;
    else if (parent && ts.isElementAccessExpression(parent) && parent.argumentExpression === node) receiver = parent.expression;
    if (!receiver) return false;
    const type = this.checker.getTypeAtLocation(receiver);
    return (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0;
  }
}
