// What the explorer keeps across a reload (getState/setState) and how it brings a picture back,
// as plain data and pure functions, so that test/unit/explorer-state.test.ts runs them in Node.
//
// A picture is restored by asking the host again — the neighbourhood, each expansion in the order
// the user made it, then the path drawn over it — never by showing what was saved: the saved state
// holds ids, positions and the viewport, not answers. The graph's signature (graph.json's
// `graphSignature`, which changes with any node or relation) is saved with the picture; when the
// current graph's differs, the questions are asked of it with the old layout dropped, and the
// user is told why (docs/adr/0094-explorer-restore-is-a-tagged-union.md).

import type { ShowRequest } from '../../src/protocol/messages';
import type { Grouping } from './elements';

export type LayoutName = 'force' | 'layered';
type NeighborsRequest = Extract<ShowRequest, { mode: 'neighbors' }>;
type PathRequest = Extract<ShowRequest, { mode: 'path' }>;

/** A path end as the fields show it (webview/common/endpoint-field.ts): its label, with its id underneath. */
interface Endpoint {
  id: string;
  label: string;
}

export interface SavedState {
  v: 2;
  folder?: string;
  /** The signature of the graph the picture was drawn from (absent before the first answer). */
  signature?: string;
  request: ShowRequest | null;
  /** The neighbourhood a path is drawn over (path mode started from a drawn neighbourhood). */
  base?: NeighborsRequest;
  budget: number;
  grouping: Grouping;
  layout: LayoutName;
  expanded: string[];
  unfolded: string[];
  selected: string | null;
  search: string;
  /** What the From and To fields show, with the ids under them. */
  from?: Endpoint;
  to?: Endpoint;
  positions?: Record<string, [number, number]>;
  /** The viewport and the size of the canvas it was seen in. */
  viewport?: { zoom: number; x: number; y: number; w: number; h: number };
}

export function freshState(): SavedState {
  return { v: 2, request: null, budget: 40, grouping: 'none', layout: 'force', expanded: [], unfolded: [], selected: null, search: '' };
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

function showRequest(x: unknown): ShowRequest | null {
  if (typeof x !== 'object' || x === null) return null;
  const r = x as Record<string, unknown>;
  if (r.mode === 'neighbors' && typeof r.id === 'string') return { mode: 'neighbors', id: r.id };
  if (r.mode === 'path' && typeof r.from === 'string' && typeof r.to === 'string') return { mode: 'path', from: r.from, to: r.to };
  return null;
}

/**
 * The saved state, read defensively: whatever VS Code hands back (an older version's state, a
 * state of another shape) becomes a state this version can act on, and never throws. A state
 * from before signatures were saved (v1) keeps what was shown, but nothing drawn from it: it
 * cannot be told to belong to the current graph.
 */
export function readSaved(raw: unknown): { state: SavedState; saved: boolean } {
  const fresh = freshState();
  if (typeof raw !== 'object' || raw === null) return { state: fresh, saved: false };
  const s = raw as Record<string, unknown>;
  if (s.v !== 1 && s.v !== 2) return { state: fresh, saved: false };
  const state: SavedState = {
    ...fresh,
    request: showRequest(s.request),
    budget: typeof s.budget === 'number' && Number.isInteger(s.budget) && s.budget >= 1 && s.budget <= 5000 ? s.budget : fresh.budget,
    grouping: s.grouping === 'file' || s.grouping === 'module' ? s.grouping : 'none',
    layout: s.layout === 'layered' ? 'layered' : 'force',
    selected: typeof s.selected === 'string' ? s.selected : null,
    search: typeof s.search === 'string' ? s.search : '',
  };
  if (typeof s.folder === 'string') state.folder = s.folder;
  const base = showRequest(s.base);
  if (base?.mode === 'neighbors' && state.request?.mode === 'path') state.base = base;
  if (s.v === 2) {
    if (typeof s.signature === 'string') state.signature = s.signature;
    if (isStrings(s.expanded)) state.expanded = s.expanded;
    if (isStrings(s.unfolded)) state.unfolded = s.unfolded;
    for (const end of ['from', 'to'] as const) {
      const e = s[end] as Partial<Endpoint> | undefined;
      if (e && typeof e.id === 'string' && typeof e.label === 'string') state[end] = { id: e.id, label: e.label };
    }
    if (typeof s.positions === 'object' && s.positions !== null) state.positions = s.positions as SavedState['positions'];
    const v = s.viewport as SavedState['viewport'];
    if (v && [v.zoom, v.x, v.y, v.w, v.h].every((n) => typeof n === 'number' && Number.isFinite(n))) state.viewport = v;
  }
  return { state, saved: true };
}

/**
 * Where bringing a picture back stands. `waiting`: no status yet, or the graph cannot answer yet
 * (a restore waits for a graph that can). `replaying`: the base question was asked again; these
 * expansions, then this path, are still to ask. `idle`: nothing to bring back (drawn, or nothing
 * was saved).
 */
export type Restore =
  { phase: 'waiting' } | { phase: 'replaying'; expansions: string[]; path: PathRequest | null; positions: boolean } | { phase: 'idle' };

/** What the explorer does next, as the restore machine says. */
export type RestoreStep =
  /** Nothing shown: draw the empty canvas (with the banner's reason when the graph cannot answer). */
  | { do: 'empty' }
  /** Keep waiting for a status that says the graph can answer. */
  | { do: 'wait' }
  /** Ask this again; `fresh` says why the saved layout was dropped (another graph, or one that cannot be told). */
  | { do: 'ask'; request: ShowRequest; fresh: null | 'rebuilt' | 'unknown' }
  /** Ask for one more expansion. */
  | { do: 'expand'; id: string }
  /** Ask for the path drawn over the neighbourhood just drawn. */
  | { do: 'path'; request: PathRequest }
  /** Everything is asked: draw, from the saved positions when `positions`. */
  | { do: 'draw'; positions: boolean };

export interface StatusFacts {
  blocking: boolean;
  /** The signature of the graph that answers now, when the host knows it. */
  signature?: string;
}

/**
 * A status arrived while a restore waits (after a reload, or when the graph changed under the
 * picture). Every question is asked again whatever the signature says — the answers come from the
 * graph that answers now — but where the signature differs (or cannot be compared) the saved
 * positions and viewport are dropped (they belong to another graph's picture) and the step says
 * why, for the user.
 */
export function restoreOnStatus(r: Restore, state: SavedState, status: StatusFacts): { restore: Restore; step: RestoreStep } {
  if (r.phase !== 'waiting') return { restore: r, step: { do: 'wait' } };
  if (!state.request) return { restore: { phase: 'idle' }, step: { do: 'empty' } };
  if (status.blocking) return { restore: r, step: { do: 'empty' } };
  const same = state.signature !== undefined && status.signature !== undefined && state.signature === status.signature;
  const fresh = same ? null : state.signature === undefined || status.signature === undefined ? 'unknown' : 'rebuilt';
  if (!same) {
    state.positions = undefined;
    state.viewport = undefined;
  }
  // The base first (a path drawn over a neighbourhood), then the expansions, then the path.
  const overBase = state.base !== undefined && state.request.mode === 'path';
  const ask = overBase && state.base ? state.base : state.request;
  return {
    restore: {
      phase: 'replaying',
      expansions: ask.mode === 'neighbors' ? [...state.expanded] : [],
      path: overBase && state.request.mode === 'path' ? state.request : null,
      positions: same,
    },
    step: { do: 'ask', request: ask, fresh },
  };
}

/** An answer (a neighbourhood or a path) arrived while replaying: what to ask next, or draw. */
export function restoreOnAnswer(r: Restore): { restore: Restore; step: RestoreStep } {
  if (r.phase !== 'replaying') return { restore: r, step: { do: 'draw', positions: false } };
  const [next, ...rest] = r.expansions;
  if (next !== undefined) return { restore: { ...r, expansions: rest }, step: { do: 'expand', id: next } };
  if (r.path) return { restore: { ...r, path: null }, step: { do: 'path', request: r.path } };
  return { restore: { phase: 'idle' }, step: { do: 'draw', positions: r.positions } };
}

/** The host could not answer one of the replayed questions: the restore stops where it is. */
export function restoreAbandoned(): Restore {
  return { phase: 'idle' };
}

/** True while answers are replayed: what arrives merges into the picture being restored. */
export function isRestoring(r: Restore): boolean {
  return r.phase === 'replaying';
}
