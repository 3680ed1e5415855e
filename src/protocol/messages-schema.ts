// The JSON Schema of every message a webview may send (WebviewMessage in ./messages.ts), as data.
// The host compiles it once (src/host/panel/validate.ts) and drops whatever does not match:
// unknown types, missing or extra fields, ids that are not strings, absurd sizes (docs/adr/0066).
// Kept beside the types so a new message cannot be added to one without the other:
// test/unit/protocol.test.ts checks that both name the same message types.

import { BANNER_ACTIONS, type HostMessage, type WebviewMessageType } from './messages';

/** Ids are graph ids (`sym:src/a.ts#f`); nothing legitimate comes near this length. */
const ID = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const REQUEST_ID = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
/** A PNG export of a large graph at 2× is a few MB; 64 MB of base64 is more than any screen makes. */
const MAX_PNG_CHARS = 64 * 1024 * 1024;

const SHOW_REQUEST = {
  oneOf: [
    { type: 'object', properties: { mode: { const: 'neighbors' }, id: ID }, required: ['mode', 'id'], additionalProperties: false },
    {
      type: 'object',
      properties: { mode: { const: 'path' }, from: ID, to: ID },
      required: ['mode', 'from', 'to'],
      additionalProperties: false,
    },
  ],
} as const;

function message(type: WebviewMessageType, properties: Record<string, object> = {}): object {
  return {
    type: 'object',
    properties: { type: { const: type }, ...properties },
    required: ['type', ...Object.keys(properties)],
    additionalProperties: false,
  };
}

export const WEBVIEW_MESSAGE_SCHEMAS: Record<WebviewMessageType, object> = {
  ready: message('ready'),
  runAction: message('runAction', { action: { enum: [...BANNER_ACTIONS] } }),
  neighbors: message('neighbors', {
    requestId: REQUEST_ID,
    id: ID,
    budget: { type: 'integer', minimum: 1, maximum: 100_000 },
    expand: { type: 'boolean' },
  }),
  path: message('path', { requestId: REQUEST_ID, from: ID, to: ID }),
  details: message('details', { requestId: REQUEST_ID, id: ID }),
  suggest: message('suggest', { requestId: REQUEST_ID, text: { type: 'string', maxLength: 512 } }),
  open: message('open', { id: ID }),
  showInExplorer: message('showInExplorer', { request: SHOW_REQUEST }),
  savePng: message('savePng', {
    dataUrl: { type: 'string', maxLength: MAX_PNG_CHARS, pattern: '^data:image/png;base64,[A-Za-z0-9+/=]+$' },
  }),
  drawn: message('drawn', {
    mode: { enum: ['neighbors', 'path', 'empty'] },
    nodes: { type: 'array', maxItems: 100_000, items: ID },
    aggregated: { type: 'integer', minimum: 0 },
    title: { type: 'string', maxLength: 200 },
  }),
};

/** One schema for any webview message: the `type` picks the branch (Ajv's discriminator). */
export const WEBVIEW_MESSAGE_SCHEMA = {
  type: 'object',
  discriminator: { propertyName: 'type' },
  required: ['type'],
  oneOf: Object.values(WEBVIEW_MESSAGE_SCHEMAS),
} as const;

// ── Host → webview ──────────────────────────────────────────────────────────────────────────────
// What the host posts is built by tested host code (src/host/panel/graph-answers.ts), but it is a
// contract too: the host checks each message against this schema before posting it and logs one
// that is off it (a host bug, not user input), and the tests check every message they post.

const TEXT = { type: 'string', maxLength: 100_000 } as const;
const CONFIDENCE = { enum: ['EXACT', 'CANDIDATE', 'UNRESOLVED'] } as const;
const COUNT = { type: 'integer', minimum: 0 } as const;

function obj(required: Record<string, object>, optional: Record<string, object> = {}): object {
  return { type: 'object', properties: { ...required, ...optional }, required: Object.keys(required), additionalProperties: false };
}

const NODE_VIEW = obj({ id: ID, label: TEXT, kind: TEXT }, { file: TEXT, line: COUNT, degree: COUNT });
const EDGE_VIEW = obj({ source: ID, target: ID, relation: TEXT, confidence: CONFIDENCE });
const CALL_VIEW = obj({ node: NODE_VIEW, confidence: CONFIDENCE }, { at: TEXT, reason: TEXT });
const BANNER = {
  anyOf: [
    { type: 'null' },
    obj({
      kind: { enum: ['absent', 'loading', 'unusable', 'calls-missing', 'stale', 'building', 'no-folder'] },
      reason: TEXT,
      actions: { type: 'array', items: { enum: [...BANNER_ACTIONS] } },
      blocking: { type: 'boolean' },
    }),
  ],
} as const;
const nodes = { type: 'array', items: NODE_VIEW } as const;

function hostMessage(type: HostMessage['type'], required: Record<string, object>, optional: Record<string, object> = {}): object {
  return obj({ type: { const: type }, ...required }, optional);
}

export const HOST_MESSAGE_SCHEMAS: Record<HostMessage['type'], object> = {
  status: hostMessage(
    'status',
    { banner: BANNER, summary: TEXT, nodeCap: COUNT, budget: COUNT },
    { folder: TEXT, signature: { type: 'string', pattern: '^[0-9a-f]{12}$' } },
  ),
  show: hostMessage('show', { request: SHOW_REQUEST }),
  neighborhood: hostMessage('neighborhood', {
    requestId: REQUEST_ID,
    focus: NODE_VIEW,
    nodes,
    edges: { type: 'array', items: EDGE_VIEW },
    excludedHubs: { type: 'array', items: ID },
    hubThreshold: COUNT,
    expand: { type: 'boolean' },
  }),
  path: hostMessage('path', { requestId: REQUEST_ID, from: NODE_VIEW, to: NODE_VIEW, nodes, edges: { type: 'array', items: EDGE_VIEW } }),
  details: hostMessage('details', {
    requestId: REQUEST_ID,
    details: obj(
      {
        node: NODE_VIEW,
        degree: COUNT,
        callers: { type: 'array', items: CALL_VIEW },
        candidates: { type: 'array', items: CALL_VIEW },
        callees: { type: 'array', items: CALL_VIEW },
        citedBy: nodes,
      },
      { text: TEXT },
    ),
  }),
  unavailable: hostMessage(
    'unavailable',
    { requestId: REQUEST_ID, reason: TEXT, suggestions: nodes },
    { unknownEnd: { enum: ['from', 'to'] } },
  ),
  suggestions: hostMessage('suggestions', { requestId: REQUEST_ID, items: nodes }),
  defaultEndpoint: hostMessage('defaultEndpoint', { node: { anyOf: [{ type: 'null' }, NODE_VIEW] } }),
  saved: hostMessage('saved', { message: TEXT }),
};

export const HOST_MESSAGE_SCHEMA = {
  type: 'object',
  discriminator: { propertyName: 'type' },
  required: ['type'],
  oneOf: Object.values(HOST_MESSAGE_SCHEMAS),
} as const;
