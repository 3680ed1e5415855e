// Every message between the extension host and its webviews. Both sides import this file; the
// host treats whatever arrives as untrusted and checks it with the guards below.

export interface UnavailableBanner {
  reason: string;
  /** Commands the banner offers as fixes, by id. */
  actions: Array<'build' | 'rebuild' | 'showLog'>;
}

/** Host → webview. */
export type HostMessage =
  | { type: 'status'; banner: UnavailableBanner | null; summary: string };

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'runAction'; action: UnavailableBanner['actions'][number] };

export function assertNever(x: never): never {
  throw new Error(`unexpected message: ${JSON.stringify(x)}`);
}

const ACTIONS = new Set(['build', 'rebuild', 'showLog']);

/** Validates a message that claims to come from a webview. */
export function isWebviewMessage(x: unknown): x is WebviewMessage {
  if (typeof x !== 'object' || x === null) return false;
  const m = x as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return Object.keys(m).length === 1;
    case 'runAction':
      return typeof m.action === 'string' && ACTIONS.has(m.action) && Object.keys(m).length === 2;
    default:
      return false;
  }
}
