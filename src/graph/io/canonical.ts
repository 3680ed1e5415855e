// Canonical serialization: fixed key order, sorted arrays, LF, a trailing newline, one node or
// edge per line so a committed graph diffs line by line (ADR-4). Same graph in, same bytes out.

import { EDGE_KEY_ORDER, EVIDENCE_KEY_ORDER, GRAPH_KEY_ORDER, NODE_KEY_ORDER, compareStrings, type Graph } from '../model';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Orders an object's keys: the listed ones first in that order, the rest alphabetically. */
function ordered(obj: Record<string, unknown>, order: readonly string[], nested?: Record<string, readonly string[]>): Record<string, Json> {
  const out: Record<string, Json> = {};
  const rest = Object.keys(obj)
    .filter((k) => !order.includes(k))
    .sort(compareStrings);
  for (const key of [...order.filter((k) => k in obj), ...rest]) {
    const value = obj[key];
    if (value === undefined) continue;
    out[key] = canonicalValue(value, nested?.[key]);
  }
  return out;
}

/** Any JSON value with every object's keys sorted (or ordered by `order` at the top). */
function canonicalValue(value: unknown, order?: readonly string[]): Json {
  if (value === null || typeof value !== 'object') return value as Json;
  if (Array.isArray(value)) return value.map((v) => canonicalValue(v));
  return ordered(value as Record<string, unknown>, order ?? []);
}

function line(value: unknown, order: readonly string[], nested?: Record<string, readonly string[]>): string {
  return JSON.stringify(ordered(value as Record<string, unknown>, order, nested));
}

/**
 * The bytes of graph.json for a graph whose nodes and edges are already sorted. `lines` may hold
 * the serialized line of node and edge objects from earlier calls (a warm session keeps one: the
 * objects it carries from build to build are never changed), so only new objects are serialized.
 */
export function serializeGraph(graph: Graph, lines?: WeakMap<object, string>): string {
  const parts: string[] = [];
  const top = graph as unknown as Record<string, unknown>;
  const keys = [
    ...GRAPH_KEY_ORDER.filter((k) => top[k] !== undefined),
    ...Object.keys(top)
      .filter((k) => !(GRAPH_KEY_ORDER as readonly string[]).includes(k) && top[k] !== undefined)
      .sort(compareStrings),
  ];
  for (const key of keys) {
    const value = top[key];
    let text: string;
    if (key === 'nodes' || key === 'edges' || key === 'diagnostics') {
      const items = value as unknown[];
      const order = key === 'nodes' ? NODE_KEY_ORDER : key === 'edges' ? EDGE_KEY_ORDER : ['path', 'reason'];
      const nested = key === 'edges' ? { evidence: EVIDENCE_KEY_ORDER } : undefined;
      const lineOf = (item: unknown): string => {
        if (!lines || key === 'diagnostics') return line(item, order, nested);
        let l = lines.get(item as object);
        if (l === undefined) {
          l = line(item, order, nested);
          lines.set(item as object, l);
        }
        return l;
      };
      text = items.length === 0 ? '[]' : '[\n' + items.map((item) => '    ' + lineOf(item)).join(',\n') + '\n  ]';
    } else {
      text = JSON.stringify(canonicalValue(value));
    }
    parts.push(`  ${JSON.stringify(key)}: ${text}`);
  }
  return '{\n' + parts.join(',\n') + '\n}\n';
}
