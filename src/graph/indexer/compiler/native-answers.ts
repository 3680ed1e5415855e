// The native route's answers to the builder's questions (ADR 113): a file's positions go to
// TypeScript 7 in one request (sent ahead when they can be, ADR 136), the aliases among the
// answers in one batch on 7.1 (ADR 180), and each declaration is placed in the builder's own parse
// of its file, as the JavaScript backend places it (checker.ts). Its types and enums come from
// native-api.ts, the one module that imports TypeScript 7.

import * as ts from 'typescript';
import {
  DESTRUCTURING_HOPS,
  destructuredProperty,
  isPatternKey,
  distinctDeclarations,
  isCallableDeclaration,
  nodeAt,
  objectLiteralKey,
  unionProperty,
  type CheckerBackend,
  type DeclarationRef,
  type ProjectCheck,
  type SymbolAnswer,
  type SymbolQuery,
} from './checker';
import { declarationNameStart } from '../syntax/declaration-positions';
import type {
  API,
  Checker,
  NativeExpression,
  NativeLibrary,
  NativeNode,
  NativeProject,
  NativeSourceFile,
  NativeSymbol,
  NodeHandle,
} from './native-api';
import type { EarlyQuestions } from './native-early';
import { DEFAULT_LIB_DIRECTORY } from './program';

// The compiler's functions, read once: `ts.x` is a getter call on every use (ADR 140).
const { forEachChild, isElementAccessExpression, isPropertyAccessExpression } = ts;

type Kinds = NativeLibrary['SyntaxKind'];

/** TypeScript 6's kind of a TypeScript 7 node's kind (the releases number their kinds apart). */
const kindOf6 = (kinds: Kinds, kind: number): ts.SyntaxKind | undefined =>
  (ts.SyntaxKind as unknown as Record<string, ts.SyntaxKind>)[(kinds as unknown as Record<number, string>)[kind]];

/** The TypeScript 6 node of the builder's parse with this span and kind (the same text parses to the same spans). */
function sameNode(sf: ts.SourceFile, pos: number, end: number, kind: ts.SyntaxKind | undefined): ts.Node | undefined {
  let current: ts.Node = sf;
  for (;;) {
    if (current.pos === pos && current.end === end && current.kind === kind) return current;
    let next: ts.Node | undefined;
    forEachChild(current, (child) => {
      if (next === undefined && child.pos <= pos && end <= child.end) next = child;
    });
    if (!next) return undefined;
    current = next;
  }
}

/** The TypeScript 7 node with this span and kind. */
function sameNativeNode(sf: NativeSourceFile, pos: number, end: number, kind: number): NativeNode | undefined {
  let current: NativeNode = sf;
  for (;;) {
    if (current.pos === pos && current.end === end && current.kind === kind) return current;
    let next: NativeNode | undefined;
    current.forEachChild((child) => {
      if (next === undefined && child.pos <= pos && end <= child.end) next = child;
      return undefined;
    });
    if (!next) return undefined;
    current = next;
  }
}

const nativeKindOf = (kinds: Kinds, kind: ts.SyntaxKind): number => (kinds as unknown as Record<string, number>)[ts.SyntaxKind[kind]];

/** What the projects of one TypeScript 7 process share. */
export interface NativeRoute {
  lib: NativeLibrary;
  api: API;
  /** TypeScript 7's default library folder (beside its binary), ending in a slash. */
  libDir: string;
  /** The process's channel for questions sent before they are asked (ADR 136), when it has one. */
  early: EarlyQuestions | undefined;
}

/** One opened project: answers a file's questions in batches. */
export class NativeProjectBackend implements CheckerBackend {
  private readonly checker: Checker;
  private readonly aliased = new Map<number, NativeSymbol>();
  /** What native-options.ts changed in the project's options to serve it (ADR 191). */
  adjusted: string | undefined;

  constructor(
    private readonly project: NativeProject,
    private readonly check: ProjectCheck,
    readonly configFile: string,
    private readonly route: NativeRoute,
    /** Declarations placed so far, by declaring file: a session's checker keeps them between builds (ADR 138). */
    private readonly placed: Map<string, Placed>,
  ) {
    this.checker = project.checker;
  }

  /** The builder's nodes of the queries, and which of them name something (the rest are `this`). */
  private sorted(sf: ts.SourceFile, queries: readonly SymbolQuery[]) {
    const nodes = queries.map((q) => (q.hint as ts.Node | undefined) ?? nodeAt(sf, q.position));
    const named: number[] = [];
    const thisAt: number[] = [];
    nodes.forEach((n, i) => {
      if (!n) return;
      if (n.kind === ts.SyntaxKind.ThisKeyword) thisAt.push(i);
      else named.push(i);
    });
    return { nodes, named, thisAt };
  }

  /** Sends the file's symbol questions now; TypeScript 7 answers them while the builder goes on (ADR 136). */
  prefetch(file: string, queries: readonly SymbolQuery[]): void {
    const sf = this.check.sourceFile(file);
    if (!this.route.early || !sf || queries.length === 0) return;
    const { named } = this.sorted(sf, queries);
    if (named.length === 0) return;
    const positions = named.map((i) => queries[i].position);
    this.route.early.send(this.project, file, positions, () => this.checker.getSymbolAtPosition(file, positions));
  }

  declarationsAt(file: string, queries: readonly SymbolQuery[]): SymbolAnswer[] {
    const sf = this.check.sourceFile(file);
    const answers: SymbolAnswer[] = queries.map(() => ({ kind: 'none', reason: 'no-declaration' }));
    if (!sf || queries.length === 0) return answers;
    const { nodes, named, thisAt } = this.sorted(sf, queries);
    const symbols = new Map<number, NativeSymbol>();
    if (named.length > 0) {
      const positions = named.map((i) => queries[i].position);
      // The answer sent ahead, if this file's questions went early (ADR 136).
      const found =
        (this.route.early?.take(this.project, file, positions) as (NativeSymbol | undefined)[] | undefined) ??
        this.checker.getSymbolAtPosition(file, positions);
      this.followAliases(found);
      named.forEach((i, k) => {
        const s = found[k];
        if (s) symbols.set(i, s);
      });
    }
    if (thisAt.length > 0) this.classesOfThis(file, thisAt, queries, symbols);
    // No symbol: a property access on an `any` (or untyped) receiver says so.
    const receivers: { i: number; node: ts.Node }[] = [];
    for (const i of named) {
      if (symbols.has(i)) continue;
      const receiver = receiverOf(nodes[i] as ts.Node);
      if (receiver) receivers.push({ i, node: receiver });
    }
    const anyReceiver = this.anyReceivers(file, receivers);
    nodes.forEach((n, i) => {
      if (!n) return;
      const symbol = symbols.get(i);
      if (!symbol) {
        answers[i] = { kind: 'none', reason: anyReceiver.has(i) ? 'any-receiver' : 'no-declaration' };
        return;
      }
      answers[i] = this.answerOf(symbol, isPatternKey(n));
    });
    this.contextualKeys(file, nodes, answers);
    return answers;
  }

  /**
   * An object literal's keys: the property the literal's contextual type declares under the key,
   * each member of a union asked apart; a shorthand names its value as well (as
   * TsCheckerBackend.answer, ADR 155). One contextual type per literal, and every literal of the
   * file asked together (ADR 192).
   */
  private contextualKeys(file: string, nodes: readonly (ts.Node | undefined)[], answers: SymbolAnswer[]): void {
    const keys: { i: number; key: NonNullable<ReturnType<typeof objectLiteralKey>> }[] = [];
    nodes.forEach((n, i) => {
      const key = n && objectLiteralKey(n);
      if (key) keys.push({ i, key });
    });
    if (keys.length === 0) return;
    // A key written in full is the literal's own property: only its contextual type's is an answer.
    for (const { i, key } of keys) if (!key.shorthand) answers[i] = { kind: 'none', reason: 'no-declaration' };
    const nsf = this.project.program.getSourceFile(file);
    if (!nsf) return;
    // Each literal once, in the order its first key comes, with its keys' names each once.
    const literals = new Map<ts.Node, { native: NativeNode | undefined; names: string[] }>();
    for (const { key } of keys) {
      let l = literals.get(key.literal);
      if (!l) {
        const native = sameNativeNode(nsf, key.literal.pos, key.literal.end, this.route.lib.SyntaxKind.ObjectLiteralExpression);
        l = { native, names: [] };
        literals.set(key.literal, l);
      }
      if (!l.names.includes(key.name)) l.names.push(key.name);
    }
    const asked = [...literals.values()].filter((l) => l.native !== undefined);
    const found = this.route.lib.contextualProperties(
      this.route.api,
      this.checker,
      asked.map((l) => ({ node: l.native as NativeExpression, names: l.names })),
    );
    const byLiteral = new Map(asked.map((l, k) => [l, found[k]]));
    for (const { i, key } of keys) {
      const l = literals.get(key.literal) as { native: NativeNode | undefined; names: string[] };
      const properties = byLiteral.get(l)?.[l.names.indexOf(key.name)];
      if (!properties) continue;
      const refs = unionProperty(
        properties.map((p) => (p?.declarations ?? []).map((h) => this.refOf(h))),
        (a, b) => a.file === b.file && a.nameStart === b.nameStart,
      );
      if (refs.length === 0) continue;
      const was = answers[i];
      answers[i] = {
        kind: 'declarations',
        declarations: distinctDeclarations(key.shorthand && was.kind === 'declarations' ? [...was.declarations, ...refs] : refs),
      };
    }
  }

  /** The class `this` denotes where its type is the class's static side (as TsCheckerBackend.classOfThis). */
  private classesOfThis(file: string, at: number[], queries: readonly SymbolQuery[], into: Map<number, NativeSymbol>): void {
    const types = this.checker.getTypeAtPosition(
      file,
      at.map((i) => queries[i].position),
    );
    const candidates: { i: number; symbol: NativeSymbol; typeId: number }[] = [];
    at.forEach((i, k) => {
      const type = types[k];
      const symbol = type?.getSymbol();
      if (type && symbol && symbol.flags & this.route.lib.SymbolFlags.Class) candidates.push({ i, symbol, typeId: type.id });
    });
    if (candidates.length === 0) return;
    const statics = this.checker.getTypeOfSymbol(candidates.map((c) => c.symbol));
    candidates.forEach((c, k) => {
      if (statics[k]?.id === c.typeId) into.set(c.i, c.symbol);
    });
  }

  private anyReceivers(file: string, receivers: { i: number; node: ts.Node }[]): Set<number> {
    const out = new Set<number>();
    if (receivers.length === 0) return out;
    const nsf = this.project.program.getSourceFile(file);
    if (!nsf) return out;
    const located: { i: number; node: NativeNode }[] = [];
    for (const r of receivers) {
      const n = sameNativeNode(nsf, r.node.pos, r.node.end, nativeKindOf(this.route.lib.SyntaxKind, r.node.kind));
      if (n) located.push({ i: r.i, node: n });
    }
    if (located.length === 0) return out;
    const types = this.checker.getTypeAtLocation(located.map((l) => l.node));
    located.forEach((l, k) => {
      const t = types[k];
      if (t && (t.flags & (this.route.lib.TypeFlags.Any | this.route.lib.TypeFlags.Unknown)) !== 0) out.add(l.i);
    });
    return out;
  }

  /** The declarations a symbol denotes, followed as TsCheckerBackend.answer follows them. */
  private answerOf(symbol: NativeSymbol, readsKey = false): SymbolAnswer {
    let s = symbol;
    let handles: readonly NodeHandle[];
    for (let hops = 0; ; hops++) {
      // Follow import/export aliases and re-export chains to the real declaration.
      if (s.flags & this.route.lib.SymbolFlags.Alias) s = this.aliasOf(s);
      handles = s.declarations;
      // `{ add }` in an object literal names the value `add`: follow it, as references do.
      if (handles.length > 0 && handles.every((h) => h.kind === this.route.lib.SyntaxKind.ShorthandPropertyAssignment)) {
        const values: NodeHandle[] = [];
        for (const h of handles) {
          const node = h.resolve(this.project);
          const v = node && this.checker.getShorthandAssignmentValueSymbol(node);
          if (v) values.push(...(v.flags & this.route.lib.SymbolFlags.Alias ? this.aliasOf(v) : v).declarations);
        }
        handles = values;
      }
      // A destructured name holds a property of the value destructured: follow it (ADR 141).
      const taken =
        handles.length === 1 && handles[0].kind === this.route.lib.SyntaxKind.BindingElement
          ? this.destructured(handles[0], readsKey && hops === 0)
          : undefined;
      if (taken === undefined) break;
      if (taken === 'unprovable' || hops === DESTRUCTURING_HOPS) return { kind: 'none', reason: 'indirect' };
      const type = this.checker.getTypeAtLocation(taken.pattern);
      if (!type || type.flags & (this.route.lib.TypeFlags.Any | this.route.lib.TypeFlags.Unknown))
        return { kind: 'none', reason: 'any-receiver' };
      const property = this.checker.getPropertyOfType(type, taken.name);
      if (!property) return { kind: 'none', reason: 'no-declaration' };
      s = property;
    }
    if (handles.length === 0) return { kind: 'none', reason: 'no-declaration' };
    return { kind: 'declarations', declarations: handles.map((h) => this.refOf(h)) };
  }

  /**
   * The rule of `destructuredProperty` (checker.ts) read on the builder's parse of the binding
   * element, and the pattern as TypeScript 7's node; undefined where the file has no parse of the
   * builder's (outside the graph: the declaration is reported as it is, as the JavaScript backend's
   * lands outside the graph too).
   */
  private destructured(h: NodeHandle, readsKey: boolean): { pattern: NativeNode; name: string } | 'unprovable' | undefined {
    const sf = this.check.sourceFile(h.path as string);
    const node = sf && h.resolve(this.project);
    const decl = node && sameNode(sf, node.pos, node.end, ts.SyntaxKind.BindingElement);
    const taken = decl && destructuredProperty(decl, readsKey);
    if (taken === undefined || taken === 'unprovable') return taken;
    const pattern = (node as NativeNode).parent;
    if (
      pattern.kind !== this.route.lib.SyntaxKind.ObjectBindingPattern ||
      pattern.pos !== taken.pattern.pos ||
      pattern.end !== taken.pattern.end
    )
      return undefined;
    return { pattern, name: taken.name };
  }

  /** The aliases among a file's answers not yet followed, asked together: one batch on 7.1 (ADR 180). */
  private followAliases(symbols: readonly (NativeSymbol | undefined)[]): void {
    const todo = new Map<number, NativeSymbol>();
    for (const s of symbols) if (s && s.flags & this.route.lib.SymbolFlags.Alias && !this.aliased.has(s.id)) todo.set(s.id, s);
    if (todo.size === 0) return;
    const list = [...todo.values()];
    const got = this.route.lib.aliases(this.route.api, this.checker, list);
    list.forEach((s, k) => this.aliased.set(s.id, got[k]));
  }

  private aliasOf(s: NativeSymbol): NativeSymbol {
    let a = this.aliased.get(s.id);
    if (!a) {
      a = this.checker.getAliasedSymbol(s);
      this.aliased.set(s.id, a);
    }
    return a;
  }

  /** A declaration as the seam says it: the builder's parse of the file decides the name's start. */
  private refOf(h: NodeHandle): DeclarationRef {
    const file = h.path as string;
    // TypeScript 7's own default library: reported where the JavaScript backend reports its
    // declarations, in the bundled compiler's default library, which holds no graph node and
    // belongs to no package (ADR 107). Neither its syntax tree nor a TypeScript 6 parse of it is
    // needed, and lib.dom.d.ts alone is megabytes of both (ADR 130).
    const lib = file.startsWith(this.route.libDir);
    const sf = lib ? undefined : this.check.sourceFile(file);
    let placed = this.placed.get(file);
    // A file parsed again (its text changed) has other nodes on both sides: place them afresh.
    if (!placed || placed.sf !== sf) {
      placed = { sf, at: new Map() };
      this.placed.set(file, placed);
    }
    let ref = placed.at.get(h.index);
    if (ref) return ref;
    ref = lib
      ? { file: `${DEFAULT_LIB_DIRECTORY}/${file.slice(this.route.libDir.length)}`, nameStart: -1, callable: false }
      : { file, nameStart: -1, callable: false };
    if (sf) {
      const node = h.resolve(this.project);
      const decl = node && sameNode(sf, node.pos, node.end, kindOf6(this.route.lib.SyntaxKind, h.kind));
      if (decl) {
        ref = {
          file,
          nameStart: declarationNameStart(decl as ts.Declaration, sf),
          callable: isCallableDeclaration(decl as ts.Declaration),
        };
        // A module's file itself, as the JavaScript backend says it (ADR 185).
        if (decl.kind === ts.SyntaxKind.SourceFile) ref.module = true;
      }
    }
    placed.at.set(h.index, ref);
    return ref;
  }
}

/**
 * The declarations of one file placed in the builder's parse of it, by TypeScript 7's node index
 * (ADR 138). Valid while the builder's parse is the same tree: the same text, parsed the same way,
 * which TypeScript 7 parses to the same nodes. A file outside the graph (no parse) places every
 * declaration nowhere, whatever its text.
 */
export interface Placed {
  sf: ts.SourceFile | undefined;
  at: Map<number, DeclarationRef>;
}

function receiverOf(node: ts.Node): ts.Expression | undefined {
  const parent = node.parent;
  if (parent && isPropertyAccessExpression(parent) && parent.name === node) return parent.expression;
  if (parent && isElementAccessExpression(parent) && parent.argumentExpression === node) return parent.expression;
  return undefined;
}
