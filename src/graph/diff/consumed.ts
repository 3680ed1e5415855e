// Who consumes a changed symbol (ADR 104): the sources of the base graph's consumer edges into it
// (src/graph/consumers.ts; proof and guesses apart, each with its use site), marked `gone` when the
// head no longer holds them and `updated` when they followed a rename, with the symbol's reach
// (src/graph/reach.ts). Both sides are read from their indexed graphs (src/graph/graph-index.ts):
// the base's in-rows, the head's out-rows.

import { CONSUMER_RELATIONS } from '../consumers';
import { CONFIDENCE_CODE, nodeOf, type IndexedGraph } from '../graph-index';
import { fileOfId } from '../ids';
import { compareStrings, type Confidence, type Relation } from '../model';
import { ReachWalker } from '../reach';
import type { Consumer, Consumers } from './report-shape';

const CONFIDENCE: readonly Confidence[] = ['EXACT', 'CANDIDATE', 'UNRESOLVED'];

export class Consumed {
  private readonly files = new Map<string, string>();
  private walker?: ReachWalker;

  constructor(
    private readonly base: IndexedGraph,
    private readonly head: IndexedGraph,
  ) {}

  /** Is there a proven consumer edge from `source` to `target` of `relation` in the head? */
  headExact(source: string, target: string, relation: string): boolean {
    const { head } = this;
    const s = head.rankOf.get(source);
    const t = head.rankOf.get(target);
    if (s === undefined || t === undefined || !CONSUMER_RELATIONS.has(relation as Relation)) return false;
    for (let k = head.outStart[s]; k < head.outStart[s + 1]; k++) {
      const e = head.outEdges[k];
      if (head.edgeTarget[e] === t && head.edgeRelation[e] === relation) return head.edgeConfidence[e] === CONFIDENCE_CODE.EXACT;
    }
    return false;
  }

  /**
   * Consumers of `id` (and of its folded members) outside the symbol itself, with its reach.
   * `renamedTo` maps the symbol and its members to their new ids, to tell consumers that followed.
   */
  of(id: string, members: readonly string[] = [], renamedTo?: (old: string) => string | undefined): Consumers {
    const { base } = this;
    const inside = new Set([id, ...members]);
    const proven = new Map<string, Consumer>();
    const guessed = new Map<string, Consumer>();
    for (const t of [id, ...members]) {
      const r = base.rankOf.get(t);
      if (r === undefined) continue;
      for (let k = base.inStart[r]; k < base.inStart[r + 1]; k++) {
        const e = base.inEdges[k];
        const relation = base.edgeRelation[e];
        const confidence = CONFIDENCE[base.edgeConfidence[e]];
        if (!CONSUMER_RELATIONS.has(relation) || confidence === 'UNRESOLVED') continue;
        const source = base.ids[base.edgeSource[e]];
        if (inside.has(source) || source.startsWith(`${id}.`) || source.startsWith('mod:')) continue;
        const evidence = base.graph.edges[e].evidence;
        const c: Consumer = {
          id: source,
          relation,
          confidence,
          file: evidence?.file ?? this.fileOf(source),
          line: evidence?.line ?? 1,
          column: evidence?.column ?? 1,
        };
        if (nodeOf(this.head, source) === undefined) c.gone = true;
        const now = renamedTo?.(t);
        if (confidence === 'EXACT' && now !== undefined && this.headExact(source, now, relation)) c.updated = true;
        const key = `${c.id}\u0000${c.relation}\u0000${t}`;
        (confidence === 'EXACT' ? proven : guessed).set(key, c);
      }
    }
    const order = (m: Map<string, Consumer>) => [...m.values()].sort(compareConsumers);
    this.walker ??= new ReachWalker(base, (x) => this.fileOf(x));
    return { proven: order(proven), guessed: order(guessed), reach: this.walker.of(inside) };
  }

  private fileOf(id: string): string {
    let f = this.files.get(id);
    if (f === undefined) this.files.set(id, (f = fileOfId(id) ?? ''));
    return f;
  }
}

/** A proven consumer that breaks: it is still there and did not follow a rename. */
export const breaks = (c: Consumer): boolean => c.gone !== true && c.updated !== true;

/** Use sites in reading order: file, line, column, then the consumer and the relation. */
export function compareConsumers(a: Omit<Consumer, 'confidence'>, b: Omit<Consumer, 'confidence'>): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.id, b.id) ||
    compareStrings(a.relation, b.relation)
  );
}
