// Questions sent to TypeScript 7 before they are asked (ADR 136), over the internals of its
// synchronous channel, which 7.0.2 and 7.1 share (ADR 180): the one place that writes requests
// itself. Its types come from native-api.ts, the one module that imports TypeScript 7.

import type { API, NativeProject } from './native-api';

/** The parts of TypeScript 7's synchronous channel (`SyncRpcChannel`, not exported) that sending ahead uses. */
interface RawChannel {
  getMethodBuf(method: string): Buffer;
  writeTuple(type: number, name: Buffer, payload: string): void;
  readTuple(): void;
  handleCall(name: string, payload: Buffer): void;
  _msgType: number;
  _msgName: Buffer;
  _msgPayload: Buffer;
}

/** The channel as the watchdog sees it (syncChannel.js, 7.0.2's and 7.1's): the process, and the two calls that block. */
export interface WatchedChannel {
  child?: { pid?: number; on(event: 'error', listener: (e: Error) => void): unknown };
  readTuple(): void;
  writeTuple(type: number, name: Buffer, payload: string): void;
}

/** TypeScript 7's client (7.0.2's and 7.1's `SyncRpcChannel`, not exported): the parts sending ahead uses. */
export interface RawClient {
  channel: RawChannel;
  apiRequest(method: string, params: unknown): unknown;
  apiRequestBinary(method: string, params: unknown): unknown;
}

/** The channel's message types (syncChannel.js, 7.0.2's and 7.1's). */
export const MSG = { request: 1, response: 4, error: 5, call: 6 } as const;
/**
 * How many files' questions may wait for their answer, and how many bytes of questions may wait
 * unread in TypeScript 7's input pipe. The bytes stay below the smallest pipe buffer a platform
 * gives (16 KB), so writing a question never blocks: the Go process may be blocked writing an
 * answer nobody reads yet, and a blocked write on each side would be a deadlock.
 */
const EARLY_FILES = 16;
const EARLY_BYTES = 16 * 1024;

/**
 * Questions sent to TypeScript 7 before they are asked (ADR 136). The 7.0 API is synchronous: each
 * request waits for its answer, so the Go process is idle while the builder parses and extracts,
 * and the builder idle while the Go process checks. Here a file's symbol questions are written to
 * the pipe as soon as the builder knows them, and their answer read later (when EARLY_FILES
 * files' or EARLY_BYTES of questions wait, or when asked): the Go process checks one file while the
 * builder works on the next. TypeScript 7 answers requests in the order they come, so every other request first
 * reads the answers still in the pipe. Only this module knows the channel's internals; the package
 * is pinned exactly, and without them nothing is sent early.
 */
export class EarlyQuestions {
  /** Sent and not yet read, oldest first. */
  private readonly pending: { key: string; bytes: number; decode: () => unknown }[] = [];
  private pendingBytes = 0;
  /** Answers read, decoded into the API's own objects as soon as they arrive (raw, they weigh more). */
  private readonly answered = new Map<string, { value: unknown } | { error: Error }>();
  /** Once the channel failed here, every later request fails the same way (the build falls back). */
  private broken: Error | undefined;
  /** The answer an API call about to be made should return instead of asking (see `take`). */
  private preset: { method: string; data: unknown } | undefined;
  /** Files whose questions went early, for the tests and the benchmark. */
  sent = 0;

  private constructor(
    private readonly channel: RawChannel,
    /** The project as a request names it (7.0.2: its id; 7.1: its handle). */
    private readonly handle: (project: NativeProject) => unknown,
  ) {}

  /** Wraps the API's client, or undefined when its channel is not the one this was written for. */
  static over(api: API, handle: (project: NativeProject) => unknown): EarlyQuestions | undefined {
    const client = (api as unknown as { client?: RawClient }).client;
    const ch = client?.channel;
    if (
      !client ||
      !ch ||
      typeof client.apiRequest !== 'function' ||
      typeof client.apiRequestBinary !== 'function' ||
      typeof ch.getMethodBuf !== 'function' ||
      typeof ch.writeTuple !== 'function' ||
      typeof ch.readTuple !== 'function' ||
      typeof ch.handleCall !== 'function'
    )
      return undefined;
    const early = new EarlyQuestions(ch, handle);
    const request = client.apiRequest.bind(client);
    const binary = client.apiRequestBinary.bind(client);
    client.apiRequest = (method, params) => {
      const preset = early.preset;
      if (preset) {
        early.preset = undefined;
        if (preset.method === method) return preset.data;
      }
      early.drain();
      return request(method, params);
    };
    client.apiRequestBinary = (method, params) => {
      early.drain();
      return binary(method, params);
    };
    return early;
  }

  /**
   * Writes the file's symbol questions to the pipe; never throws (a failure is met when asked).
   * `decode` is the API's own call for them, which gets the answer in place of asking.
   */
  send(project: NativeProject, file: string, positions: number[], decode: () => unknown): void {
    if (this.broken) return;
    const key = keyOf(project, file, positions);
    if (this.answered.has(key) || this.pending.some((p) => p.key === key)) return;
    try {
      const payload = JSON.stringify({ snapshot: snapshotOf(project), project: this.handle(project), file, positions });
      // The framing's few bytes besides the payload and the method's name.
      const bytes = Buffer.byteLength(payload) + SYMBOLS.length + 16;
      while (this.pending.length > 0 && (this.pending.length >= EARLY_FILES || this.pendingBytes + bytes > EARLY_BYTES)) this.readOne();
      if (this.broken) return;
      this.channel.writeTuple(MSG.request, this.channel.getMethodBuf(SYMBOLS), payload);
      this.pending.push({ key, bytes, decode });
      this.pendingBytes += bytes;
      this.sent++;
    } catch (e) {
      this.fail(e);
    }
  }

  /** The answer sent ahead for these questions, as `send`'s `decode` made it, or undefined when they were not sent. */
  take(project: NativeProject, file: string, positions: number[]): unknown {
    const key = keyOf(project, file, positions);
    if (!this.answered.has(key) && !this.pending.some((p) => p.key === key)) {
      if (this.broken) throw this.broken;
      return undefined;
    }
    while (!this.answered.has(key)) {
      if (this.broken) throw this.broken;
      this.readOne();
    }
    const answer = this.answered.get(key) as { value: unknown } | { error: Error };
    this.answered.delete(key);
    if ('error' in answer) throw answer.error;
    return answer.value;
  }

  /** Reads every answer still in the pipe (before any other request is written). */
  drain(): void {
    if (this.broken) throw this.broken;
    while (this.pending.length > 0) {
      this.readOne();
      if (this.broken) throw this.broken;
    }
  }

  /** Reads the oldest pending answer, running the file system callbacks TypeScript 7 makes meanwhile; `keep: false` drops it. */
  private readOne(keep = true): void {
    const next = this.pending[0];
    if (!next || this.broken) return;
    const ch = this.channel;
    const name = ch.getMethodBuf(SYMBOLS);
    try {
      for (;;) {
        ch.readTuple();
        if (ch._msgType === MSG.call) {
          ch.handleCall(ch._msgName.toString('utf-8'), ch._msgPayload);
          continue;
        }
        if (!name.equals(ch._msgName))
          throw new Error(`name mismatch for response: expected \`${SYMBOLS}\`, got \`${ch._msgName.toString('utf-8')}\``);
        this.pending.shift();
        this.pendingBytes -= next.bytes;
        if (!keep) return;
        const text = ch._msgPayload.toString('utf-8');
        if (ch._msgType === MSG.response) {
          this.preset = { method: SYMBOLS, data: text.length > 0 ? JSON.parse(text) : undefined };
          try {
            this.answered.set(next.key, { value: next.decode() });
          } finally {
            this.preset = undefined;
          }
        } else if (ch._msgType === MSG.error) this.answered.set(next.key, { error: new Error(text) });
        else throw new Error(`Invalid message type from child: ${ch._msgType}`);
        return;
      }
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * Forgets the answers no file took (a build that fell back part-way leaves some), before the
   * snapshot they belong to goes: those still in the pipe are read and dropped undecoded (decoding
   * needs their snapshot), and a session's next build never meets them.
   */
  forget(): void {
    while (this.pending.length > 0 && !this.broken) this.readOne(false);
    this.answered.clear();
  }

  private fail(e: unknown): void {
    this.broken ??= e instanceof Error ? e : new Error(String(e));
    this.pending.length = 0;
    this.pendingBytes = 0;
  }
}

const SYMBOLS = 'getSymbolsAtPositions';

/** The snapshot the project belongs to, the project, the file, the positions: an answer is never taken for another snapshot's. */
const keyOf = (project: NativeProject, file: string, positions: number[]): string =>
  `${snapshotOf(project)}\u0000${project.id}\u0000${file}\u0000${positions.join(',')}`;

const snapshotOf = (project: NativeProject): number => (project.checker as unknown as { snapshotId: number }).snapshotId;
