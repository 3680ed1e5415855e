// The stdio transport of `kg mcp`: newline-delimited JSON-RPC on stdin and stdout, as the SDK's
// StdioServerTransport, with what that one does not do for a client that sends something wrong
// (issue 55, item 21): every message that can be answered is answered, and the server carries on.
//
// - A line longer than MAX_MESSAGE_BYTES is dropped as it arrives (never held whole) and answered
//   with an error; the SDK's buffer closed the whole server instead.
// - A line that is not JSON is answered with a parse error (id null); one that is JSON but not a
//   JSON-RPC message with an invalid-request error carrying its id when it has one. The SDK logged
//   its schema's whole report and answered nothing.
// - `"params": null` is read as no params (JSON-RPC 2.0 lets a request leave params out; null is
//   what some clients write for that), so `tools/list` with it is answered.
// - `tools/call` with a `name` that is not a string or `arguments` that are not an object is
//   answered with a one-line invalid-params error that names the field, where the SDK answered its
//   schema's report.

import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest message read: far above any request an agent sends (a megabyte id is refused later, by the tools). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

type Id = string | number | null;

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private held = 0;
  /** Bytes of an oversized line dropped so far (its end is still to come). */
  private dropping = 0;
  private started = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (;;) {
      const nl = buf.indexOf(0x0a);
      if (nl === -1) {
        this.hold(buf);
        return;
      }
      this.hold(buf.subarray(0, nl));
      buf = buf.subarray(nl + 1);
      if (this.dropping > 0) {
        const dropped = this.dropping;
        this.dropping = 0;
        this.answerError(null, ErrorCode.InvalidRequest, `message of ${dropped} bytes refused: the limit is ${this.maxBytes} bytes`);
      } else {
        const line = Buffer.concat(this.chunks, this.held).toString('utf8');
        this.chunks = [];
        this.held = 0;
        this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
    }
  };

  private readonly onError = (e: Error) => this.onerror?.(e);

  /** Keeps part of the current line, or counts it as dropped once the line is too long. */
  private hold(part: Buffer): void {
    if (this.dropping > 0) {
      this.dropping += part.length;
      return;
    }
    if (this.held + part.length > this.maxBytes) {
      this.dropping = this.held + part.length;
      this.chunks = [];
      this.held = 0;
      return;
    }
    if (part.length > 0) {
      // A copy: the stream may reuse the chunk's memory.
      this.chunks.push(Buffer.from(part));
      this.held += part.length;
    }
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.answerError(null, ErrorCode.ParseError, 'parse error: the message is not JSON');
      return;
    }
    const o = value as Record<string, unknown> | null;
    const id: Id = o && typeof o === 'object' && (typeof o.id === 'string' || typeof o.id === 'number') ? o.id : null;
    if (!o || typeof o !== 'object' || Array.isArray(o)) {
      this.answerError(null, ErrorCode.InvalidRequest, `invalid request: a message is a JSON object (got ${kindOf(value)})`);
      return;
    }
    if (o.params === null) delete o.params;
    if (o.method === 'tools/call' && id !== null) {
      const p = o.params as Record<string, unknown> | undefined;
      const problem =
        p === undefined || typeof p !== 'object' || Array.isArray(p)
          ? `"params" must be an object (got ${kindOf(p)})`
          : typeof p.name !== 'string'
            ? `"params.name" must be a tool's name, a string (got ${kindOf(p.name)})`
            : p.arguments !== undefined && p.arguments !== null && (typeof p.arguments !== 'object' || Array.isArray(p.arguments))
              ? `"params.arguments" must be an object (got ${kindOf(p.arguments)})`
              : undefined;
      if (problem !== undefined) {
        this.answerError(id, ErrorCode.InvalidParams, `tools/call: ${problem}`);
        return;
      }
      if (p?.arguments === null) delete p.arguments;
    }
    const parsed = JSONRPCMessageSchema.safeParse(o);
    if (!parsed.success) {
      const method = typeof o.method === 'string' ? ` (${o.method.slice(0, 100)})` : '';
      this.answerError(id, ErrorCode.InvalidRequest, `invalid request${method}: not a JSON-RPC 2.0 request, notification or response`);
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private answerError(id: Id, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.held = 0;
    this.onclose?.();
    return Promise.resolve();
  }
}
