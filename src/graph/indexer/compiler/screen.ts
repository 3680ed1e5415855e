// The screen every source file passes before any program sees it (ADR 75): a file nested deeper
// than the compiler can follow is skipped with a reason, and a file with syntax errors is named in
// the build's diagnostics with the count and the first error's line.
//
// Why a limit of our own: the compiler's parser, binder and checker recurse once (or more) per
// level of syntax, so a generated file with a chain of a thousand calls or twenty thousand nested
// parentheses exhausts the stack, and a RangeError thrown inside a program stops the whole build
// without naming the file. Where exactly each one fails depends on the stack already in use (a
// build server's is deeper than a one-shot build's), so catching the error is not a verdict an
// incremental build could repeat. The verdict is instead a pure function of the file's text and
// the options it is parsed with (the program's, ADR 137, which then takes the tree): the
// depth of its syntax tree, measured with an explicit stack, against MAX_SYNTAX_DEPTH — far below
// the smallest depth at which any compiler call we make was measured to fail (the ADR lists them).
// The parse below can itself overflow first on a file that is far too deep; that, too, means
// "deeper than the limit", since the limit sits below every measured failure.

import * as ts from 'typescript';
import type { BuildDiagnostic } from '../../model';
import type { SourceInput } from './sources';
import { lineAndCharacter } from '../syntax/declaration-positions';

// The compiler's functions and enums, read once: `ts.x` is a getter call on every use (ADR 140).
const {
  JSDocParsingMode,
  ScriptKind,
  ScriptTarget,
  createSourceFile,
  flattenDiagnosticMessageText,
  isBinaryExpression,
  isConditionalExpression,
  isIfStatement,
} = ts;

/**
 * The deepest syntax tree a source file may have (ADR 75). The shallowest compiler failure
 * measured is the parser's, at a depth of about 560 (nested type arguments `A<A<…>>`); nested
 * calls and arrays fail at about 630 and 690, the checker at about 1,250 (a chain of 625 calls).
 * Real code stays below 120 (the compiler's own 9 MB bundle: 65). The margin (almost 2×) leaves
 * room for the stack a build server or the editor's host already uses.
 */
const MAX_SYNTAX_DEPTH = 300;

/** Whether a diagnostic's reason is the screen's report of syntax errors (the incremental build asks). */
export function isSyntaxErrorReason(reason: string): boolean {
  return /^\d+ syntax errors?\b/.test(reason);
}

export interface ScreenVerdict {
  /** Why the file is skipped (too deep to analyse), when it is. */
  skip?: string;
  /** The file's syntax errors, as a diagnostic reason, when it has any. */
  syntax?: string;
}

function scriptKindOf(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ScriptKind.JSX;
  if (/\.[mc]?js$/.test(file)) return ScriptKind.JS;
  return ScriptKind.TS;
}

/**
 * What one level of nesting costs, in eighths of a level. Most syntax costs a whole level: the
 * compiler recurses once per level. Three chains cost less, because the compiler walks them with
 * a loop or recurses lightly (measured, ADR 75): a binary operator's left operand is free (parser,
 * binder and checker all iterate over `a + b + c …`, so a 100,000-term sum is fine), its right
 * operand (`a = b = c …`) an eighth (the parser fails past about 6,000), and an `else if` or a
 * conditional's `: c ? …` a quarter (the binder and parser fail past about 2,500).
 */
function levelCost(parent: ts.Node, child: ts.Node): number {
  if (isBinaryExpression(parent) && isBinaryExpression(child)) return child === parent.left ? 0 : 1;
  if (isIfStatement(parent) && child === parent.elseStatement && isIfStatement(child)) return 2;
  if (isConditionalExpression(parent) && child === parent.whenFalse && isConditionalExpression(child)) return 2;
  return 8;
}

/**
 * The nesting depth of the deepest node below `root`, in levels (see levelCost), with an explicit
 * stack; it stops as soon as it passes `stopAbove`.
 */
function syntaxDepth(root: ts.Node, stopAbove = Infinity): number {
  let max = 0;
  const limit = stopAbove * 8;
  const nodes: ts.Node[] = [root];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop() as ts.Node;
    const depth = depths.pop() as number;
    if (depth > max) {
      max = depth;
      if (max > limit) break;
    }
    node.forEachChild((child) => {
      nodes.push(child);
      depths.push(depth + levelCost(node, child));
    });
  }
  return Math.ceil(max / 8);
}

/** Syntax errors the parser reported (an internal field of the pinned compiler). */
function parseDiagnostics(sf: ts.SourceFile): readonly ts.Diagnostic[] {
  const d = (sf as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics;
  return Array.isArray(d) ? d : [];
}

function describeSyntaxErrors(sf: ts.SourceFile, diags: readonly ts.Diagnostic[]): string {
  const first = diags[0];
  const { line, character } = lineAndCharacter(sf, first.start ?? 0);
  const message = flattenDiagnosticMessageText(first.messageText, ' ').replace(/\.$/, '');
  const n = diags.length;
  const where = `line ${line + 1}, column ${character + 1}: ${message}`;
  return `${n === 1 ? `1 syntax error at ${where}` : `${n} syntax errors, the first at ${where}`}; declarations after it may be missing`;
}

/**
 * How the build will parse a file (ADR 137): the screen parses it that way, so the tree it judged
 * is the one the build takes, not a second parse of the same text.
 */
export type ScreenParser = (input: SourceInput) => {
  /** What the tree depends on besides the text and the dialect (a verdict is remembered under it). */
  tag: string;
  parse(): ts.SourceFile;
};

/** The screen's own parse, when the build takes no tree from it: the newest syntax, the default module rule. */
function ownParse(input: SourceInput): ts.SourceFile {
  return createSourceFile(
    input.path,
    input.text,
    { languageVersion: ScriptTarget.ESNext, jsDocParsingMode: JSDocParsingMode.ParseForTypeErrors },
    false,
    scriptKindOf(input.path),
  );
}

/** The verdict on one file's text, and the tree it was reached on when there is one to hand over. */
function screenText(parse: () => ts.SourceFile): { verdict: ScreenVerdict; sf?: ts.SourceFile } {
  let sf: ts.SourceFile;
  try {
    sf = parse();
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return { verdict: { skip: TOO_DEEP } };
  }
  const depth = syntaxDepth(sf, MAX_SYNTAX_DEPTH);
  if (depth > MAX_SYNTAX_DEPTH) return { verdict: { skip: TOO_DEEP } };
  const diags = parseDiagnostics(sf);
  return { verdict: diags.length > 0 ? { syntax: describeSyntaxErrors(sf, diags) } : {}, sf };
}

const TOO_DEEP = `too deeply nested to analyse: its syntax nests more than ${MAX_SYNTAX_DEPTH} levels deep, beyond what the compiler follows safely (ADR 75); the file is skipped`;

/** Verdicts already reached in this process, by dialect and content hash (a build server screens each text once). */
const verdicts = new Map<string, ScreenVerdict>();
const MAX_REMEMBERED = 50_000;

/**
 * Screens the inputs: returns those the compiler may see, and adds a diagnostic for each file
 * skipped (too deep) and each file with syntax errors. `known` answers for files whose verdict is
 * already on record (an incremental build's unchanged files), so they are not parsed again. With
 * `parser`, each file is parsed the way the build will parse it, and the trees of the accepted
 * files it parsed are returned by path, for the build to take (ADR 137).
 */
export function screenSources(
  inputs: readonly SourceInput[],
  diagnostics: BuildDiagnostic[],
  known?: (input: SourceInput) => ScreenVerdict | undefined,
  parser?: ScreenParser,
): { accepted: SourceInput[]; skipped: number; trees: Map<string, ts.SourceFile> } {
  const accepted: SourceInput[] = [];
  const trees = new Map<string, ts.SourceFile>();
  let skipped = 0;
  for (const input of inputs) {
    const planned = parser?.(input);
    const key = `${scriptKindOf(input.path)}\u0000${planned?.tag ?? ''}\u0000${input.sha256}`;
    let verdict = known?.(input) ?? verdicts.get(key);
    if (!verdict) {
      const screened = screenText(planned ? planned.parse : () => ownParse(input));
      verdict = screened.verdict;
      if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
      verdicts.set(key, verdict);
      if (planned && screened.sf && !verdict.skip) trees.set(input.path, screened.sf);
    }
    if (verdict.skip) {
      diagnostics.push({ path: input.path, reason: verdict.skip });
      skipped++;
    } else {
      if (verdict.syntax) diagnostics.push({ path: input.path, reason: verdict.syntax });
      accepted.push(input);
    }
  }
  return { accepted, skipped, trees };
}
