// The degrade banner both webviews show: the reason, in words, and the buttons that fix it.

import type { Banner, BannerAction, WebviewMessage } from '../../src/protocol/messages';
import { clear, h } from './dom';

const ACTION_LABELS: Record<BannerAction, string> = { build: 'Build', rebuild: 'Rebuild', showLog: 'Show Log' };

const TITLES: Record<Banner['kind'], string> = {
  absent: 'No graph',
  loading: 'Loading graph',
  unusable: 'Graph unusable',
  'build-failed': 'The last build failed',
  'calls-missing': 'Calls layer missing',
  stale: 'Graph is stale',
  building: 'Building',
  'no-folder': 'No workspace folder',
};

/**
 * Each kind's icon, a codicon (the editor's own icon font, shipped in dist/webview and loaded by
 * media/webview.css under the CSP's font-src): a glyph every platform draws, unlike an emoji.
 */
const ICONS: Record<Banner['kind'], string> = {
  absent: 'circle-slash',
  loading: 'loading',
  unusable: 'error',
  'build-failed': 'error',
  'calls-missing': 'warning',
  stale: 'warning',
  building: 'sync',
  'no-folder': 'folder',
};

export function renderBanner(el: HTMLElement, banner: Banner | null, post: (m: WebviewMessage) => void): void {
  clear(el);
  el.hidden = banner === null;
  if (!banner) return;
  el.className = `banner banner-${banner.kind}${banner.blocking ? ' blocking' : ''}`;
  el.append(
    h('span', { class: `banner-icon codicon codicon-${ICONS[banner.kind]}`, 'aria-hidden': 'true' }),
    h('strong', {}, `${TITLES[banner.kind]}: `),
    h('span', { class: 'banner-reason' }, banner.reason),
  );
  for (const action of banner.actions) {
    const b = h('button', { type: 'button', class: 'banner-action', 'data-action': action }, ACTION_LABELS[action]);
    b.addEventListener('click', () => post({ type: 'runAction', action }));
    el.append(b);
  }
}
