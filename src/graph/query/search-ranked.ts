// Autocomplete for people (the path finder's and the explorer's fields): every node whose name or
// place holds the typed text, ranked first and cut after, so that `init` offers the `init` of
// src/core/echarts.ts, not the first fifty ids in alphabetical order. `kg query` (search-ids.ts)
// stays what it is — a sorted, case-sensitive substring match over ids, capped at 50 — and this
// sits beside it (docs/adr/0093-autocomplete-ranks-then-cuts.md).
//
// The ranking, case-insensitive, best first (ADR 93, the order amended by
// docs/adr/0148-autocomplete-offers-code-before-documents.md):
//   code before documents (headings, decision records, stamped notes)
//   tier 0  the label is the text (`init`)
//   tier 1  the name is the text: the label's last member (`fetch` of `Ky.#fetch`, `init` of `SeriesModel.init`)
//   tier 2  the name starts with the text
//   tier 3  the label holds the text
//   tier 4  the node's place holds it (its file's path, a module's directory: `core/echarts`)
// then, within a tier, an exported top-level symbol before another top-level node before a member,
// an exact-case match, a shallower place (fewer `/`), more links (degree), a shorter place, a
// shorter label, and the id — so the order is total and the answer deterministic.

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
  /** 0 the label, 1 the member name, 2 prefix, 3 in the label, 4 in the place. */
  tier: 0 | 1 | 2 | 3 | 4;
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
  if (label === text) return 0;
  if (member === text) return 1;
  if (label.startsWith(text) || member.startsWith(text)) return 2;
  if (label.includes(text)) return 3;
  if (place.includes(text)) return 4;
  return undefined;
}

/** Documentation, decision records and stamped notes: offered after every match in the code. */
const isDocument = (id: string): boolean => id.startsWith('doc:') || id.startsWith('adr:') || id.startsWith('rationale:');

/** 0 an exported top-level symbol, 1 another top-level node (a file, a module, a local symbol), 2 a member. */
function standingOf(id: string, n: GraphNode): number {
  if (id.startsWith('sym:') && n.label.includes('.')) return 2;
  return id.startsWith('sym:') && n.exported === true ? 0 : 1;
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
  const found: Array<RankedMatch & { id: string; document: number; standing: number; exactCase: number; place: string }> = [];
  for (let r = 0; r < g.nodeCount; r++) {
    const node = g.nodeAt[r];
    if (!node) continue;
    const tier = tierOf(wanted, labels[r], places[r]);
    if (tier === undefined) continue;
    const exactCase = tier <= 2 && (node.label.startsWith(text.trim()) || memberOf(node.label).startsWith(text.trim())) ? 0 : 1;
    const id = g.ids[r];
    found.push({
      id,
      node,
      tier,
      document: isDocument(id) ? 1 : 0,
      standing: standingOf(id, node),
      degree: g.degree[r],
      exactCase,
      place: places[r],
    });
  }
  found.sort(
    (a, b) =>
      a.document - b.document ||
      a.tier - b.tier ||
      a.standing - b.standing ||
      a.exactCase - b.exactCase ||
      depth(a.place) - depth(b.place) ||
      b.degree - a.degree ||
      a.place.length - b.place.length ||
      a.node.label.length - b.node.label.length ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return { matches: found.slice(0, limit).map(({ node, degree }) => ({ node, degree })), total: found.length };
}
