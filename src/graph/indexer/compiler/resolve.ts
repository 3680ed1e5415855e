// The resolution tier's decisions: a checker answer becomes EXACT, UNRESOLVED (with a reason),
// or — only when the checker cannot place the call — a name-match CANDIDATE. Nothing becomes
// EXACT by name, text, path or by being the only candidate left (docs/graph-format.md, "Confidence"; ADR 6).

import { unresolvedId } from '../../ids';
import type { GraphEdge, GraphNode, ResolutionClass, UnresolvedReason, UnresolvedSummary } from '../../model';
import type { Site } from './calls';
import type { DeclarationRef, SymbolAnswer } from './checker';
import { candidateEdge, exactEdge, unresolvedEdge } from '../edges';
import { evidenceAt } from './extract';
import type * as ts from 'typescript';
import type { Residue, ResidueSite } from '../facts';
// Persisted per-file facts live below the compiler (../facts.ts); re-exported for this side's users.
export type { Residue } from '../facts';

/** More name matches than this make a guess useless: the site stays UNRESOLVED (ADR 6). */
const MAX_CANDIDATES = 10;

/** Reasons counted in the summary but not listed as edges (unless the build asks for externals). */
const COUNTED_ONLY: ReadonlySet<UnresolvedReason> = new Set(['external', 'local']);

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
      this.wait({ site, reason: answer.reason, file: relPath, evidence });
      return;
    }
    const targets = new Set<string>();
    const proven = new Map<string, ProvenTarget>();
    const misses: UnresolvedReason[] = [];
    for (const decl of answer.declarations) {
      const where = lookup.classify(decl.file);
      if (where.kind === 'outside') {
        const p = lookup.throughDeclarationFile?.(decl);
        if (p && !proven.has(p.target)) proven.set(p.target, p);
        else if (!p) misses.push(where.reason);
        continue;
      }
      const id = lookup.nodeAt(where.path, decl.nameStart);
      if (id !== undefined) targets.add(id);
      else misses.push(missReason(decl));
    }
    // The checker's own answer in source wins over the same target reached through a declaration file.
    for (const t of targets) proven.delete(t);
    if (targets.size + proven.size > 0) {
      const opts = { evidence, ast: true, context: site.context };
      for (const target of [...targets, ...proven.keys()].sort()) {
        const p = proven.get(target);
        const edge = exactEdge(site.source, target, site.relation, p?.provenance ?? 'TYPESCRIPT_CHECKER', opts);
        if (p?.resolutionClass) edge.resolutionClass = p.resolutionClass;
        this.edges.push(edge);
      }
      return;
    }
    // No declaration with a node: say why, preferring what a reader can act on.
    const order: UnresolvedReason[] = ['indirect', 'excluded', 'local', 'external'];
    const reason = order.find((r) => misses.includes(r)) ?? 'no-declaration';
    this.unresolved(site, reason, evidence, undefined, relPath);
  }

  /** Turns the pending sites into CANDIDATE edges by name, or UNRESOLVED ones. */
  matchNames(nodes: readonly GraphNode[]): void {
    const members = new Map<string, string[]>();
    const free = new Map<string, string[]>();
    for (const n of nodes) {
      if (n.kind === 'method') {
        const dot = n.label.lastIndexOf('.');
        push(members, n.label.slice(dot + 1), n.id);
      } else if ((n.kind === 'function' || n.kind === 'class') && !n.label.includes('.')) {
        push(free, n.label, n.id);
      }
    }
    for (const p of this.pending) {
      const candidates = ((p.site.member ? members : free).get(p.site.name) ?? []).slice().sort();
      if (candidates.length === 0) {
        this.unresolved(p.site, p.reason, p.evidence);
      } else if (candidates.length > MAX_CANDIDATES) {
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
