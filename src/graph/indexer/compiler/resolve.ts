// The resolution tier's decisions: a checker answer becomes EXACT, UNRESOLVED (with a reason),
// or — only when the checker cannot place the call — a name-match CANDIDATE. Nothing becomes
// EXACT by name, text, path or by being the only candidate left (docs/graph-format.md, "Confidence"; ADR 6).

import { fileId, unresolvedId } from '../../ids';
import type { GraphEdge, GraphNode, ResolutionClass, UnresolvedReason, UnresolvedSummary } from '../../model';
import type { Site } from './calls';
import type { DeclarationRef, SymbolAnswer } from './checker';
import { candidateEdge, exactEdge, unresolvedEdge } from '../edges';
import { evidenceAt } from '../syntax/declaration-positions';
import type * as ts from 'typescript';
import type { Residue, ResidueSite } from '../facts';
// Persisted per-file facts live below the compiler (../facts.ts); re-exported for this side's users.
export type { Residue } from '../facts';

/** More name matches than this make a guess useless: the site stays UNRESOLVED (ADR 6). */
const MAX_CANDIDATES = 10;
/**
 * A reference's guess is kept only among this few: a property read on an `any` receiver matches
 * every member of its name (`name`, `error`), and more than three same-named members tell a reader
 * nothing; the site is counted as unplaced instead (ADR 151).
 */
const MAX_REFERENCE_CANDIDATES = 3;

/** Reasons counted in the summary but not listed as edges (unless the build asks for externals). */
const COUNTED_ONLY: ReadonlySet<UnresolvedReason> = new Set(['external', 'local']);

/** Top-level symbols a reference may name besides functions and classes. */
const DATA_KINDS: ReadonlySet<string> = new Set(['variable', 'interface', 'type', 'enum', 'namespace']);

export interface DeclarationLookup {
  /** The graph file a declaration's absolute path belongs to, or why it has none. */
  classify(file: string): { kind: 'graph'; path: string } | { kind: 'outside'; reason: 'external' | 'excluded' };
  /** The node id of the declaration whose name starts at `nameStart` in a graph file. */
  nodeAt(path: string, nameStart: number): string | undefined;
  /**
   * For a declaration outside the graph: the target its package's declaration map or build
   * configuration proves it to be (a package-qualified symbol, or a node of a workspace package
   * reached through its built declarations), or undefined when nothing proves it (ADR 107).
   */
  throughDeclarationFile?(decl: DeclarationRef): ProvenTarget | undefined;
}

/** A target proven through a package's declaration file, and how. */
export interface ProvenTarget {
  target: string;
  provenance: 'TYPESCRIPT_CHECKER' | 'TYPESCRIPT_PROJECT_REFERENCE';
  resolutionClass?: ResolutionClass;
}

/** A site the checker could not place, waiting for the name index of the whole graph. */
export interface PendingMatch {
  site: Pick<Site, 'relation' | 'source' | 'name' | 'member' | 'context'>;
  reason: 'any-receiver' | 'no-declaration';
  file: string;
  evidence: { file: string; line: number; column: number };
}

export class ResolutionSink {
  readonly edges: GraphEdge[] = [];
  readonly pending: PendingMatch[] = [];
  /** Per file (repo-relative), what its sites left besides EXACT edges. */
  readonly residues = new Map<string, Residue>();
  /** EXACT references made by an import's name, which `settle` may find subsumed. */
  private readonly imported = new WeakSet<GraphEdge>();

  constructor(
    private readonly summary: UnresolvedSummary,
    private readonly listExternal: boolean,
  ) {}

  count(relation: GraphEdge['relation'], reason: UnresolvedReason): void {
    const byReason = (this.summary[relation] ??= {});
    byReason[reason] = (byReason[reason] ?? 0) + 1;
  }

  private residueOf(file: string): Residue {
    let r = this.residues.get(file);
    if (!r) {
      r = { counted: {}, sites: [] };
      this.residues.set(file, r);
    }
    return r;
  }

  /** `record`: the file whose residue this is (absent for a name match that found nothing). */
  unresolved(
    site: Pick<Site, 'relation' | 'source' | 'name' | 'member' | 'context'>,
    reason: UnresolvedReason,
    evidence: PendingMatch['evidence'],
    context?: string,
    record?: string,
  ): void {
    // A reference nothing placed is neither listed nor counted: a name used is not a claim that it
    // reaches anything, and listing each would flood the edges (ADR 151).
    if (site.relation === 'references') return;
    this.count(site.relation, reason);
    if (COUNTED_ONLY.has(reason) && !(reason === 'external' && this.listExternal)) {
      if (record !== undefined) {
        const counted = (this.residueOf(record).counted[site.relation] ??= {});
        counted[reason] = (counted[reason] ?? 0) + 1;
      }
      return;
    }
    if (record !== undefined) {
      const r: ResidueSite = {
        relation: site.relation,
        source: site.source,
        name: site.name,
        member: site.member,
        reason,
        line: evidence.line,
        column: evidence.column,
      };
      if (site.context !== undefined) r.context = site.context;
      this.residueOf(record).sites.push(r);
    }
    this.edges.push(
      unresolvedEdge(site.source, unresolvedId(site.name), site.relation, reason, {
        evidence,
        ast: true,
        context: context ?? site.context,
      }),
    );
  }

  private wait(p: PendingMatch): void {
    this.pending.push(p);
    const r: ResidueSite = {
      relation: p.site.relation,
      source: p.site.source,
      name: p.site.name,
      member: p.site.member,
      reason: p.reason,
      line: p.evidence.line,
      column: p.evidence.column,
      pending: true,
    };
    if (p.site.context !== undefined) r.context = p.site.context;
    this.residueOf(p.file).sites.push(r);
  }

  /** Replays the residue of a file that is not resolved again (see `Residue`). */
  replay(file: string, residue: Residue): void {
    for (const [relation, reasons] of Object.entries(residue.counted) as Array<
      [GraphEdge['relation'], Partial<Record<UnresolvedReason, number>>]
    >) {
      for (const [reason, n] of Object.entries(reasons) as Array<[UnresolvedReason, number]>) {
        const total = (this.summary[relation] ??= {});
        total[reason] = (total[reason] ?? 0) + n;
        const mine = (this.residueOf(file).counted[relation] ??= {});
        mine[reason] = (mine[reason] ?? 0) + n;
      }
    }
    for (const s of residue.sites) {
      const site = { relation: s.relation, source: s.source, name: s.name, member: s.member, context: s.context as Site['context'] };
      const evidence = { file, line: s.line, column: s.column };
      if (s.pending) this.wait({ site, reason: s.reason as PendingMatch['reason'], file, evidence });
      else this.unresolved(site, s.reason, evidence, undefined, file);
    }
  }

  /** Records one site of `relPath` given the checker's answer. */
  accept(sf: ts.SourceFile, relPath: string, site: Site, answer: SymbolAnswer | undefined, lookup: DeclarationLookup): void {
    const evidence = evidenceAt(sf, relPath, site.at);
    if (site.syntacticReason || !answer) {
      this.unresolved(site, site.syntacticReason ?? 'no-declaration', evidence, undefined, relPath);
      return;
    }
    if (answer.kind === 'none') {
      // An object literal's key the checker cannot place is no guess's business either (ADR 155):
      // its name says nothing of which type's property it is.
      if (site.contextual) return;
      // A value the checker cannot see through is no guess's business: as a local holding a function.
      if (answer.reason === 'indirect') this.unresolved(site, 'indirect', evidence, undefined, relPath);
      else this.wait({ site, reason: answer.reason, file: relPath, evidence });
      return;
    }
    const targets = new Set<string>();
    const proven = new Map<string, ProvenTarget>();
    const misses: UnresolvedReason[] = [];
    const reference = site.relation === 'references';
    for (const decl of answer.declarations) {
      const where = lookup.classify(decl.file);
      if (where.kind === 'outside') {
        // A reference into a package or the standard library is not this graph's to count (ADR 151).
        if (reference) continue;
        const p = lookup.throughDeclarationFile?.(decl);
        if (p && !proven.has(p.target)) proven.set(p.target, p);
        else if (!p) misses.push(where.reason);
        continue;
      }
      const id = lookup.nodeAt(where.path, decl.nameStart);
      if (id !== undefined) targets.add(id);
      // A module object used whole (`Object.keys(m)` of `import * as m`): its file (ADR 185).
      else if (reference && site.whole && decl.module) targets.add(fileId(where.path));
      else if (!reference) misses.push(missReason(decl));
    }
    // The checker's own answer in source wins over the same target reached through a declaration file.
    for (const t of targets) proven.delete(t);
    if (targets.size + proven.size > 0) {
      const opts = { evidence, ast: true, context: site.context };
      for (const target of [...targets, ...proven.keys()].sort()) {
        // A name used inside its own declaration (`app.use(install)` in `install`) is no consumer.
        if (reference && target === site.source) continue;
        const p = proven.get(target);
        const edge = exactEdge(site.source, target, site.relation, p?.provenance ?? 'TYPESCRIPT_CHECKER', opts);
        if (p?.resolutionClass) edge.resolutionClass = p.resolutionClass;
        if (site.imported) this.imported.add(edge);
        this.edges.push(edge);
      }
      return;
    }
    // A reference to a local, a parameter or a package is no fact of this graph: nothing to record.
    if (reference) return;
    // No declaration with a node: say why, preferring what a reader can act on.
    const order: UnresolvedReason[] = ['indirect', 'excluded', 'local', 'external'];
    const reason = order.find((r) => misses.includes(r)) ?? 'no-declaration';
    this.unresolved(site, reason, evidence, undefined, relPath);
  }

  /**
   * A file's EXACT edges from `from` on are all there are (the checker has answered its sites):
   * drops the references that add nothing to what the file's other edges say (ADR 151). An
   * import's name is subsumed when something else in the file (a call, a use) reaches the same
   * declaration; a reference is subsumed by a call with the same source and target.
   */
  settle(from: number): void {
    const reached = new Set<string>();
    const called = new Set<string>();
    for (let i = from; i < this.edges.length; i++) {
      const e = this.edges[i];
      if (e.confidence !== 'EXACT' || this.imported.has(e)) continue;
      if (e.relation === 'calls' || e.relation === 'references') reached.add(e.target);
      if (e.relation === 'calls') called.add(e.source + '\u0000' + e.target);
    }
    let kept = from;
    for (let i = from; i < this.edges.length; i++) {
      const e = this.edges[i];
      const subsumed =
        e.relation === 'references' &&
        e.confidence === 'EXACT' &&
        (this.imported.has(e) ? reached.has(e.target) : called.has(e.source + '\u0000' + e.target));
      if (!subsumed) this.edges[kept++] = e;
    }
    this.edges.length = kept;
  }

  /** Turns the pending sites into CANDIDATE edges by name, or UNRESOLVED ones. */
  matchNames(nodes: readonly GraphNode[]): void {
    // Calls match what can be called; references match any member, and any top-level symbol.
    const members = new Map<string, string[]>();
    const free = new Map<string, string[]>();
    const memberData = new Map<string, string[]>();
    const freeData = new Map<string, string[]>();
    for (const n of nodes) {
      if (n.kind === 'method') {
        const dot = n.label.lastIndexOf('.');
        push(members, n.label.slice(dot + 1), n.id);
      } else if (n.kind === 'property') {
        const dot = n.label.lastIndexOf('.');
        push(memberData, n.label.slice(dot + 1), n.id);
      } else if ((n.kind === 'function' || n.kind === 'class') && !n.label.includes('.')) {
        push(free, n.label, n.id);
      } else if (DATA_KINDS.has(n.kind) && !n.label.includes('.')) {
        push(freeData, n.label, n.id);
      }
    }
    for (const p of this.pending) {
      const byName = (p.site.member ? members : free).get(p.site.name) ?? [];
      const data = p.site.relation === 'references' ? ((p.site.member ? memberData : freeData).get(p.site.name) ?? []) : [];
      const candidates = [...byName, ...data].sort();
      if (candidates.length === 0) {
        this.unresolved(p.site, p.reason, p.evidence);
      } else if (candidates.length > (p.site.relation === 'references' ? MAX_REFERENCE_CANDIDATES : MAX_CANDIDATES)) {
        this.unresolved(p.site, p.reason, p.evidence, `${candidates.length} name matches`);
      } else {
        for (const c of candidates) {
          this.edges.push(
            candidateEdge(p.site.source, c, p.site.relation, candidates.length > 1, {
              evidence: p.evidence,
              ast: true,
              context: p.site.context,
            }),
          );
        }
      }
    }
    this.pending.length = 0;
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A declaration in a graph file without a node of its own. */
function missReason(decl: DeclarationRef): UnresolvedReason {
  // A function declared inside a body is a local helper; a parameter, local or field holding a
  // function is a value the checker cannot see through.
  return decl.callable ? 'local' : 'indirect';
}
