// The degrade banner both webviews show: the reason, in words, and the buttons that fix it.

import type { Banner, BannerAction, WebviewMessage } from '../../src/protocol/messages';
import { clear, h } from './dom';

const ACTION_LABELS: Record<BannerAction, string> = { build: 'Build', rebuild: 'Rebuild', showLog: 'Show Log' };

const TITLES: Record<Banner['kind'], string> = {
  absent: 'No graph',
  loading: 'Loading graph',
  unusable: 'Graph unusable',
  'calls-missing': 'Calls layer missing',
  stale: 'Graph is stale',
  building: 'Building',
  'no-folder': 'No workspace folder',
};

export function renderBanner(el: HTMLElement, banner: Banner | null, post: (m: WebviewMessage) => void): void {
  clear(el);
  el.hidden = banner === null;
  if (!banner) return;
  el.className = `banner banner-${banner.kind}${banner.blocking ? ' blocking' : ''}`;
  el.append(
    h('span', { class: 'banner-icon', 'aria-hidden': 'true' }, banner.blocking ? '⛔' : '⚠'),
    h('strong', {}, `${TITLES[banner.kind]}: `),
    h('span', { class: 'banner-reason' }, banner.reason),
  );
  for (const action of banner.actions) {
    const b = h('button', { type: 'button', class: 'banner-action', 'data-action': action }, ACTION_LABELS[action]);
    b.addEventListener('click', () => post({ type: 'runAction', action }));
    el.append(b);
  }
}
