// The doctor by difference (ADR 132): a build server examines one candidate graph after another,
// each differing from the last in the rows of a few files. DoctorState holds what the six rules
// look up across rows (doctor.ts's RuleIndex) for a graph that passed them, and judges the next
// graph from its difference alone: the rows added, and the unchanged rows whose lookups the change
// can answer differently. It says "passes" only when the full doctor would; anything else (a
// finding, a duplicate, a row that is not an object) sends the caller to the full doctor, which
// writes the report.

import { canonicalKey, isRow, memoParseId, recordedPackages, RuleChecker, str, type Findings, type Row, type RuleIndex } from './rules';
import { escapeIdPart, type ParsedId } from '../ids';

/** The rows one graph has and the next has not, and the other way round. */
export interface RowDelta {
  removedNodes: readonly Row[];
  addedNodes: readonly unknown[];
  removedEdges: readonly Row[];
  addedEdges: readonly unknown[];
}

/** A finding anywhere ends the incremental verdict: the full doctor describes it. */
class AnyFinding implements Findings {
  found = false;
  add(): void {
    this.found = true;
  }
}

function addTo<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

function removeFrom<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}

const evidenceFileOf = (e: Row): string | undefined => (isRow(e.evidence) ? str(e.evidence.file) : undefined);

/**
 * The lookups of the six rules over a graph that passed them: every node and edge an object, node
 * ids distinct (and their canonical forms), every edge's source and target strings. Kept up to
 * date by `apply`, which also judges the change.
 */
export class DoctorState implements RuleIndex {
  private readonly byId = new Map<string, Row>();
  private readonly byCanonical = new Map<string, string>();
  private readonly nodesBySourceFile = new Map<string, Set<Row>>();
  private readonly containsByTarget = new Map<string, Set<Row>>();
  private readonly containsBySource = new Map<string, Set<Row>>();
  private readonly edgesBySource = new Map<string, Set<Row>>();
  private readonly edgesByTarget = new Map<string, Set<Row>>();
  private readonly edgesByEvidence = new Map<string, Set<Row>>();
  readonly parseId: (id: string) => ParsedId | undefined = memoParseId();

  private constructor(private readonly recordedSet: ReadonlySet<string>) {}

  /** The state of a graph the full doctor passed (examineGraph(graph).ok). */
  static of(graph: Row): DoctorState {
    const state = new DoctorState(recordedPackages(graph));
    for (const n of graph.nodes as Row[]) state.insertNode(n);
    for (const e of graph.edges as Row[]) state.insertEdge(e);
    return state;
  }

  node(id: string): Row | undefined {
    return this.byId.get(id);
  }

  containers(id: string): readonly string[] {
    const out: string[] = [];
    for (const e of this.containsByTarget.get(id) ?? []) if (this.byId.has(e.source as string)) out.push(e.source as string);
    return out;
  }

  fileNode(path: string): boolean {
    return this.byId.has('file:' + escapeIdPart(path));
  }

  recorded(pkg: string, version: string): boolean {
    return this.recordedSet.has(`${pkg}\u0000${version}`);
  }

  private insertNode(n: Row): void {
    const id = n.id as string;
    this.byId.set(id, n);
    const canon = canonicalKey(id, this.parseId);
    if (canon !== undefined) this.byCanonical.set(canon, id);
    const sf = str(n.sourceFile);
    if (sf !== undefined) addTo(this.nodesBySourceFile, sf, n);
  }

  private deleteNode(n: Row): void {
    const id = n.id as string;
    this.byId.delete(id);
    const canon = canonicalKey(id, this.parseId);
    if (canon !== undefined && this.byCanonical.get(canon) === id) this.byCanonical.delete(canon);
    const sf = str(n.sourceFile);
    if (sf !== undefined) removeFrom(this.nodesBySourceFile, sf, n);
  }

  private insertEdge(e: Row): void {
    const source = e.source as string;
    const target = e.target as string;
    addTo(this.edgesBySource, source, e);
    addTo(this.edgesByTarget, target, e);
    const f = evidenceFileOf(e);
    if (f !== undefined) addTo(this.edgesByEvidence, f, e);
    if (e.relation === 'contains') {
      addTo(this.containsByTarget, target, e);
      addTo(this.containsBySource, source, e);
    }
  }

  private deleteEdge(e: Row): void {
    const source = e.source as string;
    const target = e.target as string;
    removeFrom(this.edgesBySource, source, e);
    removeFrom(this.edgesByTarget, target, e);
    const f = evidenceFileOf(e);
    if (f !== undefined) removeFrom(this.edgesByEvidence, f, e);
    if (e.relation === 'contains') {
      removeFrom(this.containsByTarget, target, e);
      removeFrom(this.containsBySource, source, e);
    }
  }

  /**
   * Makes this the state of the graph `delta` leads to (whose `packages` records `recorded`) and
   * returns true when that graph passes the six rules. On false the state is spoiled: the caller
   * drops it.
   *
   * Why checking only these rows is enough: every row of the old graph passed, and a row's verdict
   * is a function of the row and of the answers RuleIndex gives about the ids and paths it names
   * (doctor.ts). `node(x)` changes only for the ids of removed and added nodes; `containers(x)`
   * only where a `contains` edge to x came or went, or one's source came or went; `fileNode(p)` only
   * where the file node of p came or went. Every unchanged row that asks one of those is judged
   * again, found through the indexes below — but an edge asking whether a node is declared by its
   * source file's file node, when that file node went: that node fails rule 6 itself, and is judged
   * again. The other rows would get the answers they got before.
   */
  apply(delta: RowDelta, recorded: ReadonlySet<string>): boolean {
    // Another `packages` list changes the verdict on every package-qualified edge: judged in full.
    if (recorded.size !== this.recordedSet.size || [...recorded].some((k) => !this.recordedSet.has(k))) return false;
    const dirtyIds = new Set<string>();
    const dirtyContainers = new Set<string>();
    for (const n of delta.removedNodes) {
      this.deleteNode(n);
      dirtyIds.add(n.id as string);
    }
    for (const e of delta.removedEdges) {
      this.deleteEdge(e);
      if (e.relation === 'contains') dirtyContainers.add(e.target as string);
    }
    const added: Row[] = [];
    for (const n of delta.addedNodes) {
      // Not an object, no id, or an id (or its canonical form) already taken: the full doctor reports it.
      const id = isRow(n) ? str(n.id) : undefined;
      if (!isRow(n) || id === undefined || this.byId.has(id)) return false;
      const canon = canonicalKey(id, this.parseId);
      if (canon !== undefined && this.byCanonical.has(canon)) return false;
      this.insertNode(n);
      dirtyIds.add(id);
      added.push(n);
    }
    const addedEdges: Row[] = [];
    for (const e of delta.addedEdges) {
      if (!isRow(e) || str(e.source) === undefined || str(e.target) === undefined) return false;
      this.insertEdge(e);
      if (e.relation === 'contains') dirtyContainers.add(e.target as string);
      addedEdges.push(e);
    }
    // A node that came or went changes the containers of what its `contains` edges reach, and, for
    // a file node, whether its path is a file node.
    const dirtyFiles = new Set<string>();
    for (const id of dirtyIds) {
      for (const e of this.containsBySource.get(id) ?? []) dirtyContainers.add(e.target as string);
      const p = this.parseId(id);
      if (p?.prefix === 'file') dirtyFiles.add(p.path);
    }
    const findings = new AnyFinding();
    const checker = new RuleChecker(this, findings);
    // Nodes: the added ones; those whose containers changed (which covers those contained by a
    // node that came or went: its owning file is asked); those whose source file's file node came
    // or went. A node whose file node went fails here, so no edge needs judging again for that: and
    // a file node that came changes no verdict, since no node of a graph that passed names a path
    // without one.
    const nodes = new Set<string>(added.map((n) => n.id as string));
    for (const x of dirtyContainers) nodes.add(x);
    for (const p of dirtyFiles) for (const n of this.nodesBySourceFile.get(p) ?? []) nodes.add(n.id as string);
    for (const id of nodes) {
      const n = this.byId.get(id);
      if (n) checker.node(id, n);
      if (findings.found) return false;
    }
    // Edges: the added ones; those naming an id whose node or containers changed (whether it is
    // declared, whose it is); those whose evidence file's file node came or went.
    const edges = new Set<Row>(addedEdges);
    for (const x of [...dirtyIds, ...dirtyContainers]) {
      for (const e of this.edgesBySource.get(x) ?? []) edges.add(e);
      for (const e of this.edgesByTarget.get(x) ?? []) edges.add(e);
    }
    for (const p of dirtyFiles) for (const e of this.edgesByEvidence.get(p) ?? []) edges.add(e);
    for (const e of edges) {
      checker.edge(e);
      if (findings.found) return false;
    }
    return true;
  }
}
