// Messages from a webview are untrusted input (a compromised or buggy webview can post anything):
// each is checked against the protocol's JSON Schema (src/protocol/messages-schema.ts) before the
// host acts on it. Ajv compiles the schema once; no field is checked by hand (docs/adr/0066).

import Ajv, { type ErrorObject } from 'ajv';
import type { WebviewMessage } from '../../protocol/messages';
import { HOST_MESSAGE_SCHEMA, WEBVIEW_MESSAGE_SCHEMA } from '../../protocol/messages-schema';
import { previewJson } from '../../graph';

let compiled: ReturnType<Ajv['compile']> | undefined;
let compiledHost: ReturnType<Ajv['compile']> | undefined;

const ajv = () => new Ajv({ discriminator: true, strict: true, strictRequired: false, allErrors: false });

function validator(): ReturnType<Ajv['compile']> {
  compiled ??= ajv().compile(WEBVIEW_MESSAGE_SCHEMA);
  return compiled;
}

/** What is wrong with a message the host is about to post, or undefined when it is in the protocol. */
export function hostMessageProblem(x: unknown): string | undefined {
  compiledHost ??= ajv().compile(HOST_MESSAGE_SCHEMA);
  return compiledHost(x) ? undefined : describe(compiledHost.errors ?? []);
}

export type Checked = { ok: true; message: WebviewMessage } | { ok: false; problem: string };

/** The message, typed, when it matches the schema; otherwise what is wrong with it (for the log). */
export function checkWebviewMessage(x: unknown): Checked {
  const validate = validator();
  if (validate(x)) return { ok: true, message: x as WebviewMessage };
  return { ok: false, problem: describe(validate.errors ?? []) };
}

function describe(errors: ErrorObject[]): string {
  const e = errors[0];
  if (!e) return 'does not match the protocol';
  const where = e.instancePath || '(message)';
  return `${where} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`;
}

/** A short, bounded preview of a rejected message for the log: never the whole payload. */
export function preview(x: unknown): string {
  return previewJson(x, 200);
}
