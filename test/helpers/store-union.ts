// What the organisation store must answer, computed from the file queries (ADR 112): for a
// question about every repository, the union of the answers each repository's graph.json gives,
// every id qualified `<repository>/<id>`, lists sorted in that form. The test compares the store's
// SQL answers with these; nothing here talks to the store.

import { answerQuery, compareStrings, type GraphLoad, type QueryRequest, type QueryResult } from '../../src/graph';
import { qualify, splitQualified } from '../../src/graph/store';
import type { GraphNode } from '../../src/graph/model';
import { pathVerdict } from '../../src/graph/query/shortest-path';
import { referrersOf, unresolvedNamedOf, type UnanalysedReferrers, type UnresolvedNamed } from '../../src/graph/query/unanalysed';

type Loads = ReadonlyMap<string, GraphLoad & { ok: true }>;

const ID_LISTS = ['callers', 'candidates', 'consumers', 'matches', 'nodes', 'excludedHubs', 'path'] as const;

/** A file answer with every id qualified by `repo` (its lists keep their order). */
function qualified(repo: string, result: QueryResult, asked?: QueryRequest): QueryResult {
  if (!result.available) return result;
  const out = { ...result } as Record<string, unknown>;
  const q = (id: string) => qualify(repo, id);
  for (const k of ID_LISTS) if (Array.isArray(out[k])) out[k] = (out[k] as string[]).map(q);
  if (Array.isArray(out.edges))
    out.edges = (out.edges as Array<Record<string, string>>).map((e) => ({ ...e, source: q(e.source), target: q(e.target) }));
  if (Array.isArray(out.godNodes))
    out.godNodes = (out.godNodes as Array<{ id: string; degree: number }>).map((g) => ({ ...g, id: q(g.id) }));
  if (Array.isArray(out.dispatched))
    out.dispatched = (out.dispatched as Array<{ via: string; relation: string; callers: string[] }>).map((d) => ({
      ...d,
      via: q(d.via),
      callers: d.callers.map(q),
    }));
  for (const k of ['notes', 'records', 'cited', 'fileNotes', 'fileRecords'])
    if (Array.isArray(out[k])) out[k] = (out[k] as Array<{ id: string }>).map((e) => ({ ...e, id: q(e.id) }));
  // The files the graph does not read (ADR 153) are named by repository too: `<repository>/<path>`.
  const u = out.unanalysed as UnanalysedReferrers | undefined;
  if (u) out.unanalysed = referrersOf(u.file, u.importers.map(q), u.total);
  // A path's note names its ends as the answer does (ADR 161).
  if (typeof out.note === 'string' && asked?.query === 'path') {
    const { note } = pathVerdict(q(asked.from), q(asked.to), out.path as string[], false, asked.undirected ? 'undirected' : 'directed');
    out.note = note;
  }
  return out as unknown as QueryResult;
}

const sorted = (xs: string[]) => [...xs].sort(compareStrings);
const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => compareStrings(a.id, b.id));
const byVia = <T extends { via: string }>(xs: T[]) => [...xs].sort((a, b) => compareStrings(a.via, b.via));

/** The union the store must give for `request` over every repository in `loads` (keys sorted). */
export function unionAnswer(loads: Loads, request: QueryRequest): QueryResult | { degrade: string } {
  const repos = [...loads.keys()].sort(compareStrings);
  const one = (repo: string, r: QueryRequest) => answerQuery(loads.get(repo) as GraphLoad, r);
  if (request.query === 'god-nodes') {
    const all = repos.flatMap((repo) => {
      const a = one(repo, request);
      return a.available && 'godNodes' in a ? a.godNodes.map((g) => ({ id: qualify(repo, g.id), degree: g.degree })) : [];
    });
    all.sort((a, b) => b.degree - a.degree || compareStrings(a.id, b.id));
    return { available: true, godNodes: all.slice(0, request.top ?? 10), evidenceClass: 'GRAPH_DERIVED' };
  }
  if (request.query === 'query') {
    const all = sorted(
      repos.flatMap((repo) => {
        const g = (loads.get(repo) as GraphLoad & { ok: true }).graph;
        return g.ids
          .slice(0, g.nodeCount)
          .filter((id) => id.includes(request.text))
          .map((id) => qualify(repo, id));
      }),
    );
    return { available: true, matches: all.slice(0, 50), truncated: all.length > 50, evidenceClass: 'GRAPH_DERIVED' };
  }
  if (request.query === 'neighbors' || request.query === 'path') {
    // Walks run in one repository: the ids are qualified, and the answer is that repository's.
    const from = splitQualified(request.query === 'path' ? request.from : request.id);
    const plain: QueryRequest =
      request.query === 'path' ? { ...request, from: from.id, to: splitQualified(request.to).id } : { ...request, id: from.id };
    return qualified(from.repository as string, one(from.repository as string, plain), plain);
  }
  if (request.query === 'unused') return { degrade: 'not of the store face' };
  const id = request.id;
  const holders = repos.filter((repo) => {
    const g = (loads.get(repo) as GraphLoad & { ok: true }).graph;
    const r = g.rankOf.get(id);
    return r !== undefined && r < g.nodeCount;
  });
  if (holders.length === 0) {
    const a = one(repos[0], request);
    return { degrade: a.available ? 'answered?' : a.code };
  }
  const answers = holders.map((repo) => qualified(repo, one(repo, request)) as unknown as Record<string, unknown>);
  const bad = answers.find((a) => a.available === false);
  if (bad) return { degrade: bad.code as string };
  const merged: Record<string, unknown> = { available: true };
  const first = answers[0];
  for (const k of Object.keys(first)) {
    if (k === 'available' || k === 'evidenceClass' || k === 'dispatched' || k === 'unanalysed' || k === 'unresolvedNamed') continue;
    const values = answers.map((a) => a[k]);
    if (k === 'id') merged[k] = id;
    else if (typeof first[k] === 'boolean') merged[k] = values.some(Boolean);
    else if (typeof first[k] === 'number') merged[k] = (values as number[]).reduce((s, v) => s + v, 0);
    else if (['notes', 'records', 'cited', 'fileNotes', 'fileRecords'].includes(k))
      merged[k] = byId((values as Array<Array<{ id: string }>>).flat());
    else merged[k] = sorted((values as string[][]).flat());
  }
  // The dispatch tier (ADR 151): each repository's members, side by side, in qualified id order.
  const dispatched = answers.flatMap((a) => (a.dispatched as Array<{ via: string }> | undefined) ?? []);
  if (dispatched.length > 0) merged.dispatched = byVia(dispatched);
  // What the repositories cannot see, together: their unanalysed files and their unplaced calls.
  const holes = answers.flatMap((a) => (a.unanalysed ? [a.unanalysed as UnanalysedReferrers] : []));
  if (holes.length > 0) {
    const total: Record<string, number> = {};
    for (const h of holes) for (const [ext, n] of Object.entries(h.total)) total[ext] = (total[ext] ?? 0) + n;
    const ordered: Record<string, number> = {};
    for (const ext of Object.keys(total).sort()) ordered[ext] = total[ext];
    merged.unanalysed = referrersOf(holes[0].file, sorted(holes.flatMap((h) => h.importers)), ordered);
  }
  const named = answers.flatMap((a) => (a.unresolvedNamed ? [a.unresolvedNamed as UnresolvedNamed] : []));
  if (named.length > 0) {
    const g = (loads.get(holders[0]) as GraphLoad & { ok: true }).graph;
    const node = g.nodeAt[g.rankOf.get(id) as number] as GraphNode;
    const reasons = named.flatMap((n) => Object.entries(n.reasons).flatMap(([reason, count]) => Array<string>(count).fill(reason)));
    merged.unresolvedNamed = unresolvedNamedOf(node, reasons);
  }
  merged.evidenceClass = 'GRAPH_DERIVED';
  return merged as unknown as QueryResult;
}
