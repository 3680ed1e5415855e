// Dispatch made visible (ADR 151): a member of a class that overrides a member of a base class, or
// implements a member of an interface the class (or a base) implements, gets a member-level edge
// to it — `overrides` to a class's member, `implements` to an interface's. The heritage itself is
// the checker's (the EXACT `extends`/`implements` edges of the class); the member a base has under
// a name is what the checker's own lookup of a property on the declared base gives. Nothing here
// fans a call out: a call through the interface stays the interface member's (docs/graph-format.md).
//
// Pure over the nodes and edges the resolution tier produced, so a full and an incremental build
// derive the same edges from the same facts. Each edge is owned by the member's file.

import type { GraphEdge, GraphNode } from '../model';
import { exactEdge } from './edges';

const TYPES = new Set(['class', 'interface']);
const MEMBERS = new Set(['method', 'property']);

/** The member-level `overrides` and `implements` edges the heritage of the graph's classes implies. */
export function dispatchEdges(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): GraphEdge[] {
  const byId = new Map<string, GraphNode>();
  for (const n of nodes) byId.set(n.id, n);
  // Each class's or interface's own members by name and side (instance or static).
  const members = new Map<string, Map<string, GraphNode>>();
  const ownerOf = new Map<string, GraphNode>();
  // Each class's or interface's proven bases, in id order.
  const bases = new Map<string, string[]>();
  // The functions of object literals bound to a name (ADR 200).
  const literalMembers = new Set<string>();
  for (const e of edges) {
    if (e.relation === 'contains') {
      const owner = byId.get(e.source);
      const member = byId.get(e.target);
      if (owner?.kind === 'variable' && member?.kind === 'method') literalMembers.add(member.id);
      if (!owner || !member || !TYPES.has(owner.kind) || !MEMBERS.has(member.kind)) continue;
      const name = memberKey(owner, member);
      if (name === undefined) continue;
      let own = members.get(owner.id);
      if (!own) members.set(owner.id, (own = new Map()));
      own.set(name, member);
      ownerOf.set(member.id, owner);
    } else if ((e.relation === 'extends' || e.relation === 'implements') && e.confidence === 'EXACT') {
      const base = byId.get(e.target);
      if (!base || !TYPES.has(base.kind) || e.source === e.target) continue;
      let list = bases.get(e.source);
      if (!list) bases.set(e.source, (list = []));
      list.push(e.target);
    }
  }
  for (const list of bases.values()) list.sort();

  const out: GraphEdge[] = [];
  for (const [typeId, own] of [...members].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (!bases.has(typeId)) continue;
    for (const [name, member] of own) {
      // Breadth-first up the bases; a branch stops at the first base that declares the name.
      const seen = new Set<string>([typeId]);
      const queue = [...(bases.get(typeId) as string[])];
      const found = new Set<string>();
      while (queue.length > 0) {
        const baseId = queue.shift() as string;
        if (seen.has(baseId)) continue;
        seen.add(baseId);
        const hit = members.get(baseId)?.get(name);
        if (hit) {
          found.add(hit.id);
          continue;
        }
        for (const next of bases.get(baseId) ?? []) queue.push(next);
      }
      for (const target of [...found].sort()) {
        const relation = ownerOf.get(target)?.kind === 'interface' ? 'implements' : 'overrides';
        out.push(
          exactEdge(member.id, target, relation, 'TYPESCRIPT_CHECKER', {
            evidence:
              member.sourceFile !== undefined && member.line !== undefined && member.column !== undefined
                ? { file: member.sourceFile, line: member.line, column: member.column }
                : undefined,
          }),
        );
      }
    }
  }
  out.push(...literalImplements(edges, byId, literalMembers, ownerOf));
  return out;
}

/**
 * A function of an object literal whose key the checker places on a member of an interface, the
 * literal's contextual type (`const p: Provider = { now() {…} }`: the key's EXACT `references` edge
 * at the function's own name, ADR 155), implements that member as a class's method would: the
 * same `implements` edge, so calls through the interface reach it as dispatch (ADR 200).
 */
function literalImplements(
  edges: readonly GraphEdge[],
  byId: ReadonlyMap<string, GraphNode>,
  literalMembers: ReadonlySet<string>,
  ownerOf: ReadonlyMap<string, GraphNode>,
): GraphEdge[] {
  const out: GraphEdge[] = [];
  for (const e of edges) {
    if (e.relation !== 'references' || e.confidence !== 'EXACT' || !literalMembers.has(e.source)) continue;
    const member = byId.get(e.source) as GraphNode;
    const at = e.evidence;
    if (!at || at.file !== member.sourceFile || at.line !== member.line || at.column !== member.column) continue;
    if (ownerOf.get(e.target)?.kind !== 'interface') continue;
    out.push(exactEdge(member.id, e.target, 'implements', 'TYPESCRIPT_CHECKER', { evidence: { ...at } }));
  }
  return out;
}

/**
 * A member's name within its owner, with its side: `static x` and `x` are different members to
 * the checker. ES private names (`#x`) are never inherited, so they take part in nothing.
 */
function memberKey(owner: GraphNode, member: GraphNode): string | undefined {
  const prefix = owner.label + '.';
  if (!member.label.startsWith(prefix)) return undefined;
  let name = member.label.slice(prefix.length);
  if (member.static && name.startsWith('static.')) name = name.slice('static.'.length);
  if (name.startsWith('#')) return undefined;
  return (member.static ? 'static ' : '') + name;
}
