// The explorer webview's entry. It speaks only through postMessage, using the shared protocol.

import { assertNever, type HostMessage, type WebviewMessage } from '../../src/protocol/messages';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

function render(message: HostMessage): void {
  switch (message.type) {
    case 'status': {
      const banner = document.getElementById('banner');
      const summary = document.getElementById('summary');
      if (banner) {
        banner.hidden = message.banner === null;
        banner.textContent = message.banner ? `Unavailable: ${message.banner.reason}` : '';
      }
      if (summary) summary.textContent = message.summary;
      return;
    }
    default:
      assertNever(message.type as never);
  }
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => render(event.data));
vscode.postMessage({ type: 'ready' });
