// The JSON Schema of every message a webview may send (WebviewMessage in ./messages.ts), as data.
// The host compiles it once (src/host/panel/validate.ts) and drops whatever does not match:
// unknown types, missing or extra fields, ids that are not strings, absurd sizes (docs/adr/0066).
// Kept beside the types so a new message cannot be added to one without the other:
// test/unit/protocol.test.ts checks that both name the same message types.

import { BANNER_ACTIONS, type WebviewMessageType } from './messages';

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
