// Canonical serialization: fixed key order, sorted arrays, LF, a trailing newline, one node or
// edge per line so a committed graph diffs line by line (ADR-4), ASCII only (ADR 133). Same graph
// in, same bytes out.

import { Buffer } from 'node:buffer';
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

/** Any character outside ASCII, as a UTF-16 code unit (a pair's halves each). */
const NON_ASCII = /[\u0080-\uffff]/g;
const HAS_NON_ASCII = /[\u0080-\uffff]/;

/**
 * JSON text with every character outside ASCII written as a `\u` escape (lower-case hex, as
 * JSON.stringify writes a lone surrogate): the same JSON value, in bytes that are all ASCII. So
 * graph.json's text is a one-byte string in a JavaScript engine, half the memory a single `…` would
 * otherwise make of the whole text (ADR 133).
 */
export function asciiJson(json: string): string {
  if (!HAS_NON_ASCII.test(json)) return json;
  return json.replace(NON_ASCII, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** A character a one-byte string cannot hold. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

/**
 * `text` as a one-byte string when every character fits in one byte (Latin-1, of which ASCII is a
 * part); otherwise `text`. A JavaScript engine keeps a string two bytes per character when it was
 * cut from a two-byte string — a name or a call's text cut from a source file with one character
 * beyond Latin-1 — even when every character cut is ASCII, and JSON.stringify of an object holding
 * one such string is two-byte too. One two-byte line makes the joined graph.json text two-byte: 25 MB
 * instead of 12.6 MB, and every join, encoding, comparison and split of it twice the memory traffic
 * (ADR 133). A copy through Latin-1 bytes is one-byte: about 1.5 µs for a line of 300 characters.
 */
export function oneByte(text: string): string {
  return BEYOND_LATIN1.test(text) ? text : Buffer.from(text, 'latin1').toString('latin1');
}

/** `value` as JSON text in ASCII, one byte a character (ADR 133): graph.json's and the manifest's pieces. */
export function asciiText(value: unknown): string {
  return oneByte(asciiJson(JSON.stringify(value)));
}

function line(value: unknown, order: readonly string[], nested?: Record<string, readonly string[]>): string {
  return asciiText(ordered(value as Record<string, unknown>, order, nested));
}

/**
 * The bytes of graph.json for a graph whose nodes and edges are already sorted. `lines` may hold
 * the serialized line of node and edge objects from earlier calls (a warm session keeps one: the
 * objects it carries from build to build are never changed), so only new objects are serialized.
 * `previous` is an earlier graph with its bytes, as this function wrote them: when every part of
 * `graph` serializes as that graph's does, its text is returned as it is, without building the
 * string again (a warm build that changed nothing; ADR 127).
 */
export function serializeGraph(graph: Graph, lines?: WeakMap<object, string>, previous?: { graph: Graph; text: string }): string {
  const keysOf = (g: Graph): string[] => {
    const top = g as unknown as Record<string, unknown>;
    return [
      ...GRAPH_KEY_ORDER.filter((k) => top[k] !== undefined),
      ...Object.keys(top)
        .filter((k) => !(GRAPH_KEY_ORDER as readonly string[]).includes(k) && top[k] !== undefined)
        .sort(compareStrings),
    ];
  };
  const keys = keysOf(graph);
  const lineOf = (key: string, item: unknown): string => {
    const order =
      key === 'nodes'
        ? NODE_KEY_ORDER
        : key === 'edges'
          ? EDGE_KEY_ORDER
          : key === 'unanalysed'
            ? ['path', 'imports']
            : key === 'entries'
              ? ['path', 'from', 'field', 'unplaced']
              : ['path', 'reason'];
    const nested = key === 'edges' ? { evidence: EVIDENCE_KEY_ORDER } : undefined;
    if (!lines || key === 'diagnostics' || key === 'unanalysed' || key === 'entries') return line(item, order, nested);
    let l = lines.get(item as object);
    if (l === undefined) {
      l = line(item, order, nested);
      lines.set(item as object, l);
    }
    return l;
  };
  const isList = (key: string) => key === 'nodes' || key === 'edges' || key === 'diagnostics' || key === 'unanalysed' || key === 'entries';
  const valueText = (value: unknown) => asciiText(canonicalValue(value));
  if (previous && sameSerialization(graph, previous.graph, keys, keysOf(previous.graph), isList, lineOf, valueText)) return previous.text;
  const top = graph as unknown as Record<string, unknown>;
  const blocks = lines && blocksOf(lines);
  // Every piece in one list, joined once: the text is copied once and comes out flat, so neither
  // the nested joins nor a later comparison or encoding copies 12 MB again (ADR 132).
  const out: string[] = ['{\n'];
  keys.forEach((key, k) => {
    const value = top[key];
    out.push(k === 0 ? '  ' : ',\n  ', asciiJson(JSON.stringify(key)), ': ');
    if (!isList(key)) {
      out.push(valueText(value));
      return;
    }
    const items = value as unknown[];
    if (items.length === 0) {
      out.push('[]');
      return;
    }
    out.push('[\n');
    if (blocks && key !== 'diagnostics' && key !== 'unanalysed' && key !== 'entries')
      pushBlocks(out, items, blocks, (item) => lineOf(key, item));
    else items.forEach((item, i) => out.push(i === 0 ? '    ' : ',\n    ', lineOf(key, item)));
    out.push('\n  ]');
  });
  out.push('\n}\n');
  return out.join('');
}

/**
 * A run of consecutive list items with their text as written: each item's line after its
 * separator (`    ` for a list's first item, `,\n    ` for the others), joined.
 */
interface Block {
  items: readonly unknown[];
  first: boolean;
  text: string;
}

/** Items a block holds at most: small enough that an edit rewrites little, large enough to join few pieces. */
const BLOCK_ITEMS = 64;

/**
 * The blocks of a warm session, keyed by their first item, kept beside its `lines` (ADR 132). Joining
 * a graph's 200,000 lines one by one costs a warm build on a large repository more than everything
 * it extracted; the blocks an edit left as they were are joined as they were.
 */
const blockMemos = new WeakMap<WeakMap<object, string>, WeakMap<object, Block>>();

function blocksOf(lines: WeakMap<object, string>): WeakMap<object, Block> {
  let blocks = blockMemos.get(lines);
  if (!blocks) {
    blocks = new WeakMap();
    blockMemos.set(lines, blocks);
  }
  return blocks;
}

/**
 * Pushes `items`' text onto `out` by blocks: a block remembered at an item whose items follow it
 * here, the same objects in the same order, is pushed as it was; the items between are made into
 * new blocks, each ending where a remembered one starts. Any partition gives the same text, so
 * where blocks end decides only how much is reused. Items are never changed once serialized
 * (see serializeGraph), so the same objects are the same text.
 */
function pushBlocks(out: string[], items: readonly unknown[], blocks: WeakMap<object, Block>, lineOf: (item: unknown) => string): void {
  const at = (i: number): Block | undefined => {
    const item = items[i] as object;
    const b = blocks.get(item);
    if (!b) return undefined;
    const n = b.items.length;
    let fits = b.first === (i === 0) && i + n <= items.length;
    for (let k = 0; fits && k < n; k++) fits = items[i + k] === b.items[k];
    if (fits) return b;
    blocks.delete(item);
    return undefined;
  };
  let i = 0;
  while (i < items.length) {
    const kept = at(i);
    if (kept) {
      out.push(kept.text);
      i += kept.items.length;
      continue;
    }
    const start = i;
    const parts: string[] = [];
    do {
      parts.push(i === 0 ? '    ' : ',\n    ', lineOf(items[i]));
      i++;
    } while (i < items.length && i - start < BLOCK_ITEMS && !at(i));
    const block: Block = { items: items.slice(start, i), first: start === 0, text: parts.join('') };
    if (typeof items[start] === 'object' && items[start] !== null) blocks.set(items[start] as object, block);
    out.push(block.text);
  }
}

/** True when `a` and `b` serialize to the same bytes: the same keys, and each part's text the same. */
function sameSerialization(
  a: Graph,
  b: Graph,
  keysA: readonly string[],
  keysB: readonly string[],
  isList: (key: string) => boolean,
  lineOf: (key: string, item: unknown) => string,
  valueText: (value: unknown) => string,
): boolean {
  if (keysA.length !== keysB.length || keysA.some((k, i) => k !== keysB[i])) return false;
  const ta = a as unknown as Record<string, unknown>;
  const tb = b as unknown as Record<string, unknown>;
  for (const key of keysA) {
    if (!isList(key)) {
      if (ta[key] !== tb[key] && valueText(ta[key]) !== valueText(tb[key])) return false;
      continue;
    }
    const xs = ta[key] as unknown[];
    const ys = tb[key] as unknown[];
    if (xs.length !== ys.length) return false;
    for (let i = 0; i < xs.length; i++) if (xs[i] !== ys[i] && lineOf(key, xs[i]) !== lineOf(key, ys[i])) return false;
  }
  return true;
}
