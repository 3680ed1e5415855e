// The graph's answers as the webviews' messages: ids resolved to what a webview draws and lists
// (label, kind, file:line), degrades passed on as `unavailable` with their reason and suggestions.
// Written against GraphAccess only (src/host/graph-access.ts), and free of any vscode value, so a
// unit test drives it with an access over a real graph (test/unit/panel-answers.test.ts).

import {
  isUnresolvedId,
  parseId,
  UNRESOLVED_PREFIX,
  type GraphNode,
  type NeighborsAnswer,
  type PathAnswer,
  type QueryResult,
  type Unavailable,
} from '../../graph';
import type { CallView, EdgeView, HostMessage, NodeView } from '../../protocol/messages';
import type { CallSite, GraphAccess } from '../graph-access';

function nodeView(id: string, n: GraphNode | undefined): NodeView {
  if (n) return { id, label: n.label, kind: n.kind, ...(n.sourceFile ? { file: n.sourceFile } : {}), ...(n.line ? { line: n.line } : {}) };
  if (isUnresolvedId(id)) return { id, label: id.slice(UNRESOLVED_PREFIX.length), kind: 'unresolved' };
  // A symbol of an installed package (ADR 109): its name, and the package it is in, never a file here.
  const p = parseId(id);
  if (p?.prefix === 'pkg') return { id, label: p.name, kind: 'package-symbol', package: `${p.pkg}@${p.version}` };
  return { id, label: id, kind: 'unknown' };
}

export async function nodeViews(access: GraphAccess, folder: string, ids: string[]): Promise<NodeView[]> {
  const nodes = ids.length ? await access.nodes(folder, ids) : [];
  return ids.map((id, i) => nodeView(id, nodes[i]));
}

function confidence(c: string): EdgeView['confidence'] {
  return c === 'EXACT' || c === 'CANDIDATE' ? c : 'UNRESOLVED';
}

function isUnavailable(r: QueryResult): r is Unavailable {
  return r.available === false;
}

async function unavailableMessage(
  access: GraphAccess,
  folder: string,
  requestId: number,
  r: Unavailable,
  unknownEnd?: 'from' | 'to',
): Promise<HostMessage> {
  return {
    type: 'unavailable',
    requestId,
    reason: r.reason,
    suggestions: await nodeViews(access, folder, (r.suggestions ?? []).slice(0, 10)),
    ...(unknownEnd ? { unknownEnd } : {}),
  };
}

export async function neighborhoodMessage(
  access: GraphAccess,
  folder: string,
  requestId: number,
  id: string,
  budget: number,
  expand: boolean,
): Promise<HostMessage> {
  const r = await access.ask(folder, { query: 'neighbors', id, budget });
  if (isUnavailable(r)) return unavailableMessage(access, folder, requestId, r);
  const a = r as NeighborsAnswer;
  const views = await nodeViews(access, folder, a.nodes);
  // A hub's degree is what its label says ("312 links"): ask only for the few hubs.
  for (const hub of a.excludedHubs) {
    const d = await access.details(folder, hub);
    const v = views.find((n) => n.id === hub);
    if (d && v) v.degree = d.degree;
  }
  const [focus, ...rest] = views;
  return {
    type: 'neighborhood',
    requestId,
    focus: focus ?? nodeView(id, undefined),
    nodes: rest,
    edges: a.edges.map((e) => ({ source: e.source, target: e.target, relation: e.relation, confidence: confidence(e.confidence) })),
    excludedHubs: a.excludedHubs,
    hubThreshold: a.hubThreshold,
    expand,
  };
}

/**
 * What a path end names: an id as given; otherwise a name (`main`, `Greeter.hello`) that exactly one
 * node carries as its label — so a user may type a name instead of picking an id. Anything else is
 * passed on as typed, and the query answers "unknown node" with its suggestions.
 */
async function resolveEnd(access: GraphAccess, folder: string, text: string): Promise<string> {
  const [asId] = await access.nodes(folder, [text]);
  if (asId || /^(sym|file|mod|adr|doc|rationale|unresolved):/.test(text)) return text;
  // The ranked search puts names equal to the text first (ADR 93), wherever they sort as ids.
  const { matches } = await access.search(folder, text, RESOLVE_LIMIT);
  const named = matches.filter((m) => m.node.label === text);
  return named.length === 1 ? named[0].node.id : text;
}

/** How many ranked matches a typed path end is resolved among: more than any list shows. */
const RESOLVE_LIMIT = 200;

export async function pathMessage(
  access: GraphAccess,
  folder: string,
  requestId: number,
  fromText: string,
  toText: string,
): Promise<HostMessage> {
  const from = await resolveEnd(access, folder, fromText);
  const to = await resolveEnd(access, folder, toText);
  const r = await access.ask(folder, { query: 'path', from, to });
  if (isUnavailable(r)) {
    if (r.code !== 'UNKNOWN_NODE') return unavailableMessage(access, folder, requestId, r);
    // Which end the graph does not hold, asked of the graph (a path from an end to itself), never read off the reason's words.
    const fromKnown = !isUnavailable(await access.ask(folder, { query: 'path', from, to: from }));
    return unavailableMessage(access, folder, requestId, r, fromKnown ? 'to' : 'from');
  }
  const a = r as PathAnswer;
  const [fromView, toView] = await nodeViews(access, folder, [from, to]);
  return {
    type: 'path',
    requestId,
    from: fromView,
    to: toView,
    nodes: await nodeViews(access, folder, a.path),
    edges: a.edges.map((e) => ({ source: e.source, target: e.target, relation: e.relation, confidence: confidence(e.confidence) })),
  };
}

export async function detailsMessage(access: GraphAccess, folder: string, requestId: number, id: string): Promise<HostMessage> {
  const d = await access.details(folder, id);
  if (!d) {
    const reason = isUnresolvedId(id)
      ? `${id.slice(UNRESOLVED_PREFIX.length)} is an unresolved call target: a name the resolver could not place, with no declaration to show.`
      : `no details for ${id}: the graph cannot answer or holds no such node.`;
    return { type: 'unavailable', requestId, reason, suggestions: [] };
  }
  const ids = [...new Set([...d.callers, ...d.candidates, ...d.callees].map((c) => c.id).concat(d.citedBy))];
  const views = new Map((await nodeViews(access, folder, ids)).map((v) => [v.id, v]));
  const call = (c: CallSite): CallView => ({
    node:
      c.confidence === 'UNRESOLVED' && c.name
        ? { id: c.id, label: c.name, kind: 'unresolved' }
        : (views.get(c.id) ?? nodeView(c.id, undefined)),
    confidence: c.confidence,
    ...(c.evidence ? { at: `${c.evidence.file}:${c.evidence.line}` } : {}),
    ...(c.reason ? { reason: c.reason } : {}),
  });
  return {
    type: 'details',
    requestId,
    details: {
      node: nodeView(id, d.node),
      degree: d.degree,
      callers: d.callers.map(call),
      candidates: d.candidates.map(call),
      callees: d.callees.map(call),
      citedBy: d.citedBy.map((c) => views.get(c) ?? nodeView(c, undefined)),
      ...(d.node.text !== undefined ? { text: d.node.text } : {}),
    },
  };
}

/**
 * Autocomplete: the graph's ranked search (src/graph/query/search-ranked.ts, ADR 93) — exact names,
 * then prefixes, then the rest, shallow and well-connected first — cut after ranking. Each item
 * carries its label, kind, place and degree; the webview shows those, never the id.
 */
export async function suggestionsMessage(access: GraphAccess, folder: string, requestId: number, text: string): Promise<HostMessage> {
  const { matches } = await access.search(folder, text, SUGGESTIONS);
  return { type: 'suggestions', requestId, items: matches.map((m) => ({ ...nodeView(m.node.id, m.node), degree: m.degree })) };
}

/** How many suggestions a field lists. */
const SUGGESTIONS = 30;
