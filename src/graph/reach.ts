// The reach of a change (ADR 104, named by ADR 179): from a symbol (and its folded members),
// backwards through the consumer relations a transitive walk follows (src/graph/consumers.ts,
// RADIUS_RELATIONS: a file's imports would flood it), how many nodes depend on it through EXACT
// edges only, in how many files, and how many more only through at least one CANDIDATE edge. Walks
// the indexed graph's in-rows (src/graph/graph-index.ts); `kg diff` reports it for every removed,
// renamed and re-signed symbol. Not `impact`'s `blastRadius`, which counts the direct proven
// consumers (ADR 20): ADR 179 keeps the two names apart.

import { CONSUMER_RELATIONS, RADIUS_RELATIONS } from './consumers';
import { CONFIDENCE_CODE, type IndexedGraph } from './graph-index';

/** A walk past this many nodes, or this many edges looked at, stops and says so (`capped`). */
const REACH_CAP = 2_000;
const REACH_EDGES = 5_000;

export interface Reach {
  /** Nodes that depend on the symbol through EXACT edges only, transitively. */
  proven: number;
  /** Distinct files of those nodes. */
  files: number;
  /** Nodes reached only through at least one CANDIDATE edge (guesses, never in `proven`). */
  guessed: number;
  /** True when a walk stopped at REACH_CAP nodes or REACH_EDGES edges (the counts are lower bounds). */
  capped?: true;
}

/** Edge bits: a consumer edge that is not UNRESOLVED (looked at), one a walk follows, one that is EXACT. */
const LOOKED = 1;
const FOLLOWED = 2;
const EXACT = 4;

/**
 * The reach of many starts over one graph: each walk marks what it saw with its own stamp, so
 * thousands of walks allocate nothing but their queue.
 */
export class ReachWalker {
  private readonly bits: Uint8Array;
  private readonly marks: Uint32Array;
  private readonly starts: Uint32Array;
  /** Each rank's file number, -1 until it is needed; and a stamp per file number (no more files than ranks). */
  private readonly fileNo: Int32Array;
  private readonly fileMarks: Uint32Array;
  private readonly fileIndex = new Map<string, number>();
  private stamp = 0;

  /** `fileOf`: the file a node's id names (the diff's reading of ids). */
  constructor(
    private readonly g: IndexedGraph,
    private readonly fileOf: (id: string) => string,
  ) {
    const m = g.edgeRelation.length;
    this.bits = new Uint8Array(m);
    for (let e = 0; e < m; e++) {
      const relation = g.edgeRelation[e];
      const confidence = g.edgeConfidence[e];
      if (!CONSUMER_RELATIONS.has(relation) || confidence === CONFIDENCE_CODE.UNRESOLVED) continue;
      this.bits[e] = LOOKED | (RADIUS_RELATIONS.has(relation) ? FOLLOWED : 0) | (confidence === CONFIDENCE_CODE.EXACT ? EXACT : 0);
    }
    const n = g.ids.length;
    this.marks = new Uint32Array(n);
    this.starts = new Uint32Array(n);
    this.fileNo = new Int32Array(n).fill(-1);
    this.fileMarks = new Uint32Array(n);
  }

  /** The reach of the nodes `start` (ids; those the graph does not hold are skipped), never counting them. */
  of(start: Iterable<string>): Reach {
    const { g, marks, starts } = this;
    const startRanks: number[] = [];
    const startStamp = ++this.stamp;
    for (const id of start) {
      const r = g.rankOf.get(id);
      if (r === undefined) continue;
      starts[r] = startStamp;
      startRanks.push(r);
    }
    const proven: number[] = [];
    let capped = this.walk(startRanks, true, ++this.stamp, startStamp, proven);
    const any = [...proven];
    const anyMark = ++this.stamp;
    for (const r of proven) marks[r] = anyMark;
    capped = this.walk([...startRanks, ...proven], false, anyMark, startStamp, any) || capped;
    const reach: Reach = { proven: proven.length, files: this.files(proven), guessed: any.length - proven.length };
    if (capped) reach.capped = true;
    return reach;
  }

  /**
   * Breadth first from `from`, adding what it reaches to `seen`; true when it stopped early. Each
   * walk looks at no more than REACH_EDGES consumer edges: a diff lists thousands of symbols, and
   * an unbounded walk from each would make the report quadratic in the graph's size.
   */
  private walk(from: readonly number[], exactOnly: boolean, mark: number, startStamp: number, seen: number[]): boolean {
    const { g, bits, marks, starts } = this;
    const need = exactOnly ? FOLLOWED | EXACT : FOLLOWED;
    const queue = [...from];
    let looked = 0;
    for (let q = 0; q < queue.length; q++) {
      const t = queue[q];
      for (let k = g.inStart[t]; k < g.inStart[t + 1]; k++) {
        const e = g.inEdges[k];
        if ((bits[e] & LOOKED) === 0) continue;
        if (++looked > REACH_EDGES) return true;
        if ((bits[e] & need) !== need) continue;
        const src = g.edgeSource[e];
        if (marks[src] === mark || starts[src] === startStamp) continue;
        if (seen.length >= REACH_CAP) return true;
        marks[src] = mark;
        seen.push(src);
        queue.push(src);
      }
    }
    return false;
  }

  /** Distinct files of `ranks`, by each rank's file number, found once per rank. */
  private files(ranks: readonly number[]): number {
    const { fileNo, fileMarks } = this;
    const fileStamp = ++this.stamp;
    let count = 0;
    for (const r of ranks) {
      let f = fileNo[r];
      if (f < 0) {
        const name = this.fileOf(this.g.ids[r]);
        let n = this.fileIndex.get(name);
        if (n === undefined) this.fileIndex.set(name, (n = this.fileIndex.size));
        fileNo[r] = f = n;
      }
      if (fileMarks[f] !== fileStamp) {
        fileMarks[f] = fileStamp;
        count++;
      }
    }
    return count;
  }
}
