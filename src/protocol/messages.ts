// Every message between the extension host and its two webviews (the graph explorer panel and the
// path finder view). Both sides import this file. The webview names nodes by id only; the host
// resolves ids against the graph and decides what may be opened. What arrives from a webview is
// untrusted: the host validates it against the JSON Schema in ./messages-schema.ts
// (docs/adr/0066), never with hand-written field checks.

/** What can stop or qualify an answer, one per graph state (docs/adr/0067). */
type BannerKind = 'absent' | 'loading' | 'unusable' | 'build-failed' | 'calls-missing' | 'stale' | 'building' | 'no-folder';

export const BANNER_ACTIONS = ['build', 'rebuild', 'showLog'] as const;
export type BannerAction = (typeof BANNER_ACTIONS)[number];

export interface Banner {
  kind: BannerKind;
  /** A sentence a user understands. */
  reason: string;
  /** The commands that fix it, offered as buttons. */
  actions: BannerAction[];
  /**
   * True when the graph cannot answer at all (absent, unusable, loading): nothing is drawn.
   * False when it answers with a caveat (stale, building, calls layer missing): an empty answer
   * is then "cannot tell", never "not connected".
   */
  blocking: boolean;
}

/** A node as the webviews draw and list it. `kind` is `unresolved` for an unresolved call target. */
export interface NodeView {
  id: string;
  label: string;
  kind: string;
  /** Repo-relative POSIX path of the owning file (absent on modules and unresolved targets). */
  file?: string;
  line?: number;
  /** In + out degree over all relations, when the host knows it. */
  degree?: number;
  /** On a package-qualified symbol (kind `package-symbol`, ADR 109): the package and version, `rxjs@7.8.2`. */
  package?: string;
}

export interface EdgeView {
  source: string;
  target: string;
  relation: string;
  confidence: 'EXACT' | 'CANDIDATE' | 'UNRESOLVED';
}

export interface CallView {
  node: NodeView;
  confidence: 'EXACT' | 'CANDIDATE' | 'UNRESOLVED';
  /** Where the call was seen, `path:line`. */
  at?: string;
  /** For UNRESOLVED: the resolver's reason (`any-receiver`, `external`, …). */
  reason?: string;
}

export interface DetailsView {
  node: NodeView;
  degree: number;
  callers: CallView[];
  candidates: CallView[];
  callees: CallView[];
  citedBy: NodeView[];
  /** For a stamped note (`rationale:`, ADR 88): what it says. */
  text?: string;
}

/** What the explorer shows; also what it keeps across a reload. */
export type ShowRequest = { mode: 'neighbors'; id: string } | { mode: 'path'; from: string; to: string };

/** Host → webview. */
export type HostMessage =
  | {
      type: 'status';
      banner: Banner | null;
      summary: string;
      nodeCap: number;
      budget: number;
      /** The workspace folder the view answers for (its URI): kept in the webview's state, checked on restore. */
      folder?: string;
      /** The signature of the graph that answers (graph.json's `graphSignature`), when there is one: a picture saved from another graph is not restored as it was. */
      signature?: string;
    }
  | { type: 'show'; request: ShowRequest }
  | {
      type: 'neighborhood';
      requestId: number;
      focus: NodeView;
      nodes: NodeView[];
      edges: EdgeView[];
      excludedHubs: string[];
      hubThreshold: number;
      /** True when this answers an "expand": merge into what is drawn. */
      expand: boolean;
    }
  | { type: 'path'; requestId: number; from: NodeView; to: NodeView; nodes: NodeView[]; edges: EdgeView[] }
  | { type: 'details'; requestId: number; details: DetailsView }
  | {
      type: 'unavailable';
      requestId: number;
      reason: string;
      suggestions: NodeView[];
      /** For a path: the end the graph does not hold, which the reason and the suggestions are about. */
      unknownEnd?: 'from' | 'to';
    }
  | { type: 'suggestions'; requestId: number; items: NodeView[] }
  | { type: 'defaultEndpoint'; node: NodeView | null }
  | { type: 'saved'; message: string };

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'runAction'; action: BannerAction }
  | { type: 'neighbors'; requestId: number; id: string; budget: number; expand: boolean }
  | { type: 'path'; requestId: number; from: string; to: string }
  | { type: 'details'; requestId: number; id: string }
  | { type: 'suggest'; requestId: number; text: string }
  | { type: 'open'; id: string }
  | { type: 'showInExplorer'; request: ShowRequest }
  | { type: 'savePng'; dataUrl: string }
  /** What the explorer drew (node ids drawn one by one, how many folded) and what its tab should say. */
  | { type: 'drawn'; mode: 'neighbors' | 'path' | 'empty'; nodes: string[]; aggregated: number; title: string };

export type WebviewMessageType = WebviewMessage['type'];

export function assertNever(x: never): never {
  throw new Error(`unexpected message: ${JSON.stringify(x)}`);
}
