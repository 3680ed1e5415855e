// Autocomplete for people (the path finder's and the explorer's fields): every node whose name or
// place holds the typed text, ranked first and cut after, so that `init` offers the `init` of
// src/core/echarts.ts, not the first fifty ids in alphabetical order. `kg query` (search-ids.ts)
// stays what it is — a sorted, case-sensitive substring match over ids, capped at 50 — and this
// sits beside it (docs/adr/0093-autocomplete-ranks-then-cuts.md).
//
// The ranking, case-insensitive, best first:
//   tier 0  the name is the text: the label (`init`, `Ky.#fetch`) or its last member (`fetch` of `Ky.#fetch`)
//   tier 1  the name starts with the text
//   tier 2  the label holds the text
//   tier 3  the node's place holds it (its file's path, a module's directory: `core/echarts`)
// then, within a tier, an exact-case match, a shallower place (fewer `/`), more links (degree), a
// shorter place, a shorter label, and the id — so the order is total and the answer deterministic.

import type { GraphNode } from '../model';
import type { IndexedGraph } from './indexed';

/** The default cut of an autocomplete list: a screenful. */
export const SEARCH_LIMIT = 30;

/** The answer: the best matches, each node with its degree, and how many matched in all. */
export interface NodeSearch {
  matches: Array<{ node: GraphNode; degree: number }>;
  total: number;
}

interface RankedMatch {
  node: GraphNode;
  /** 0 exact name, 1 prefix, 2 in the label, 3 in the place. */
  tier: 0 | 1 | 2 | 3;
  degree: number;
}

/** Where a node lives as a person writes it: its file, or a module's directory. Never the escaped id. */
function placeOf(n: GraphNode): string {
  if (n.sourceFile) return n.sourceFile;
  if (n.kind === 'module') return n.id.replace(/^mod:/, '');
  return '';
}

/** The member name of a label (`fetch` of `Ky.#fetch`, `hello` of `Greeter.hello`), without a private `#`. */
function memberOf(label: string): string {
  const dot = label.lastIndexOf('.');
  const member = dot < 0 ? label : label.slice(dot + 1);
  return member.startsWith('#') ? member.slice(1) : member;
}

function tierOf(text: string, label: string, place: string): RankedMatch['tier'] | undefined {
  const member = memberOf(label);
  if (label === text || member === text) return 0;
  if (label.startsWith(text) || member.startsWith(text)) return 1;
  if (label.includes(text)) return 2;
  if (place.includes(text)) return 3;
  return undefined;
}

const depth = (place: string): number => (place.match(/\//g) ?? []).length;

/** Lower-cased labels and places per graph: computed once, on the first search. */
const folded = new WeakMap<IndexedGraph, { labels: string[]; places: string[] }>();

function foldedOf(g: IndexedGraph): { labels: string[]; places: string[] } {
  let f = folded.get(g);
  if (!f) {
    const labels: string[] = [];
    const places: string[] = [];
    for (let r = 0; r < g.nodeCount; r++) {
      const n = g.nodeAt[r];
      labels.push(n ? n.label.toLowerCase() : '');
      places.push(n ? placeOf(n).toLowerCase() : '');
    }
    f = { labels, places };
    folded.set(g, f);
  }
  return f;
}

/**
 * The nodes (never `unresolved:` names) matching `text`, best first, at most `limit`, and how many
 * matched in all. Blank text matches nothing.
 */
export function searchNodes(g: IndexedGraph, text: string, limit = SEARCH_LIMIT): NodeSearch {
  const wanted = text.trim().toLowerCase();
  if (wanted === '' || limit <= 0) return { matches: [], total: 0 };
  const { labels, places } = foldedOf(g);
  const found: Array<RankedMatch & { id: string; exactCase: number; place: string }> = [];
  for (let r = 0; r < g.nodeCount; r++) {
    const node = g.nodeAt[r];
    if (!node) continue;
    const tier = tierOf(wanted, labels[r], places[r]);
    if (tier === undefined) continue;
    const exactCase = tier <= 1 && (node.label.startsWith(text.trim()) || memberOf(node.label).startsWith(text.trim())) ? 0 : 1;
    found.push({ id: g.ids[r], node, tier, degree: g.degree[r], exactCase, place: places[r] });
  }
  found.sort(
    (a, b) =>
      a.tier - b.tier ||
      a.exactCase - b.exactCase ||
      depth(a.place) - depth(b.place) ||
      b.degree - a.degree ||
      a.place.length - b.place.length ||
      a.node.label.length - b.node.label.length ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return { matches: found.slice(0, limit).map(({ node, degree }) => ({ node, degree })), total: found.length };
}
