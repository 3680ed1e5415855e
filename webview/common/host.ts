// The one connection to the extension host: postMessage out (typed by the shared protocol), and
// the webview's persisted state (getState/setState survive a reload; the host's serializer brings
// the panel back with it — no retainContextWhenHidden).

import type { HostMessage, WebviewMessage } from '../../src/protocol/messages';

interface VsCodeApi<S> {
  postMessage(message: WebviewMessage): void;
  getState(): S | undefined;
  setState(state: S): void;
}
declare function acquireVsCodeApi<S>(): VsCodeApi<S>;

export interface Host<S> {
  post(message: WebviewMessage): void;
  getState(): S | undefined;
  setState(state: S): void;
  onMessage(handler: (message: HostMessage) => void): void;
}

export function connect<S>(): Host<S> {
  const api = acquireVsCodeApi<S>();
  return {
    post: (m) => api.postMessage(m),
    getState: () => api.getState(),
    setState: (s) => api.setState(s),
    onMessage: (handler) =>
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        const m = event.data;
        // Only the host posts to this window; still, ignore anything that is not shaped like a message.
        if (typeof m === 'object' && m !== null && typeof (m as { type?: unknown }).type === 'string') handler(m as HostMessage);
      }),
  };
}
