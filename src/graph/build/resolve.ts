// The resolution tier's decisions: a checker answer becomes EXACT, UNRESOLVED (with a reason),
// or — only when the checker cannot place the call — a name-match CANDIDATE. Nothing becomes
// EXACT by name, text, path or by being the only candidate left (seed 002).

import { unresolvedId } from '../ids';
import type { GraphEdge, GraphNode, UnresolvedReason, UnresolvedSummary } from '../model';
import type { Site } from './calls';
import type { DeclarationRef, SymbolAnswer } from './checker';
import { candidateEdge, exactEdge, unresolvedEdge } from './edges';
import { evidenceAt } from './extract';
import type * as ts from 'typescript';

/** More name matches than this make a guess useless: the site stays UNRESOLVED (ADR 6). */
export const MAX_CANDIDATES = 10;

/** Reasons counted in the summary but not listed as edges (unless the build asks for externals). */
const COUNTED_ONLY: ReadonlySet<UnresolvedReason> = new Set(['external', 'local']);

export interface DeclarationLookup {
  /** The graph file a declaration's absolute path belongs to, or why it has none. */
  classify(file: string): { kind: 'graph'; path: string } | { kind: 'outside'; reason: 'external' | 'excluded' };
  /** The node id of the declaration whose name starts at `nameStart` in a graph file. */
  nodeAt(path: string, nameStart: number): string | undefined;
}

/** A site the checker could not place, waiting for the name index of the whole graph. */
export interface PendingMatch {
  site: Site;
  reason: 'any-receiver' | 'no-declaration';
  file: string;
  evidence: { file: string; line: number; column: number };
}

export class ResolutionSink {
  readonly edges: GraphEdge[] = [];
  readonly pending: PendingMatch[] = [];

  constructor(
    private readonly summary: UnresolvedSummary,
    private readonly listExternal: boolean,
  ) {}

  count(relation: GraphEdge['relation'], reason: UnresolvedReason): void {
    const byReason = (this.summary[relation] ??= {});
    byReason[reason] = (byReason[reason] ?? 0) + 1;
  }

  unresolved(site: Site, reason: UnresolvedReason, evidence: PendingMatch['evidence'], context?: string): void {
    this.count(site.relation, reason);
    if (COUNTED_ONLY.has(reason) && !(reason === 'external' && this.listExternal)) return;
    this.edges.push(unresolvedEdge(site.source, unresolvedId(site.name), site.relation, reason, { evidence, ast: true, context: context ?? site.context }));
  }

  /** Records one site of `relPath` given the checker's answer. */
  accept(sf: ts.SourceFile, relPath: string, site: Site, answer: SymbolAnswer | undefined, lookup: DeclarationLookup): void {
    const evidence = evidenceAt(sf, relPath, site.at);
    if (site.syntacticReason || !answer) {
      this.unresolved(site, site.syntacticReason ?? 'no-declaration', evidence);
      return;
    }
    if (answer.kind === 'none') {
      this.pending.push({ site, reason: answer.reason, file: relPath, evidence });
      return;
    }
    const targets = new Set<string>();
    const misses: UnresolvedReason[] = [];
    for (const decl of answer.declarations) {
      const where = lookup.classify(decl.file);
      if (where.kind === 'outside') {
        misses.push(where.reason);
        continue;
      }
      const id = lookup.nodeAt(where.path, decl.nameStart);
      if (id !== undefined) targets.add(id);
      else misses.push(missReason(decl));
    }
    if (targets.size > 0) {
      for (const target of [...targets].sort()) {
        this.edges.push(exactEdge(site.source, target, site.relation, 'TYPESCRIPT_CHECKER', { evidence, ast: true, context: site.context }));
      }
      return;
    }
    // No declaration with a node: say why, preferring what a reader can act on.
    const order: UnresolvedReason[] = ['indirect', 'excluded', 'local', 'external'];
    const reason = order.find((r) => misses.includes(r)) ?? 'no-declaration';
    this.unresolved(site, reason, evidence);
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
          this.edges.push(candidateEdge(p.site.source, c, p.site.relation, candidates.length > 1, { evidence: p.evidence, ast: true, context: p.site.context }));
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
