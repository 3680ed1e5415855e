// The real webview bundles in headless Chromium, under the real HTML and Content Security Policy
// (src/host/panel/html.ts), with a stand-in for VS Code's `acquireVsCodeApi`: what the webview
// posts is recorded and handed to the test's host function, whose replies are posted back. Used by
// test/integration/webview-chromium.test.ts and bench/webview.ts.

import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildWebviewHtml, type WebviewKind } from '../../src/host/panel/html';
import { hostMessageProblem } from '../../src/host/panel/validate';
import type { HostMessage, WebviewMessage } from '../../src/protocol/messages';
import { THEMES, themeCss, type ThemeName } from './webview-themes';

export const CHROMIUM = process.env.KG_E2E_CHROMIUM ?? '/usr/bin/chromium';
const ROOT = path.join(__dirname, '..', '..');
const ORIGIN = 'https://kg-webview.test';

let bundled: string | undefined;

/** Builds the webview bundles as `npm run build:production` does (minified, browser, IIFE). */
export async function buildWebviewBundles(): Promise<string> {
  if (bundled) return bundled;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-webview-'));
  await esbuild.build({
    bundle: true,
    minify: true,
    legalComments: 'eof',
    logLevel: 'warning',
    entryPoints: { explorer: path.join(ROOT, 'webview/explorer/main.ts'), 'path-finder': path.join(ROOT, 'webview/path-finder/main.ts') },
    outdir: out,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  });
  // The page's stylesheet loads the editor's icon font from beside the bundles, as esbuild.mjs places it.
  fs.copyFileSync(require.resolve('@vscode/codicons/dist/codicon.ttf'), path.join(out, 'codicon.ttf'));
  bundled = out;
  return out;
}

export interface Posted {
  t: number;
  m: WebviewMessage;
}

export type StandInHost = (m: WebviewMessage, page: WebviewPage) => HostMessage[] | undefined | Promise<HostMessage[] | undefined>;

/** Answers the stand-in gives inside the page, without a round trip to Node (for timing). */
export interface InPageAnswers {
  /** Neighbourhood answers by node id, without `requestId` and `expand`. */
  neighborhoods?: Record<string, Omit<Extract<HostMessage, { type: 'neighborhood' }>, 'requestId' | 'expand'>>;
}

/**
 * The stand-in for VS Code's API, as page script (this project's Node tsconfig has no DOM types).
 * It runs before the page's scripts, injected over the DevTools protocol so the page's CSP does not
 * apply to it — as VS Code's own preload. State lives in sessionStorage, so it survives a reload
 * the way VS Code keeps a webview's state.
 */
const STAND_IN = `
window.__kg = { posted: [], violations: [], answers: __ANSWERS__ };
document.addEventListener('securitypolicyviolation', (e) => window.__kg.violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.acquireVsCodeApi = () => ({
  postMessage(m) {
    window.__kg.posted.push({ t: performance.now(), m });
    const a = m.type === 'neighbors' && window.__kg.answers.neighborhoods && window.__kg.answers.neighborhoods[m.id];
    if (a) {
      setTimeout(() => window.postMessage({ ...a, requestId: m.requestId, expand: m.expand }, '*'), 0);
      return;
    }
    window.__kgToNode(m);
  },
  getState() {
    const s = sessionStorage.getItem('kg-webview-state');
    return s ? JSON.parse(s) : undefined;
  },
  setState(s) {
    sessionStorage.setItem('kg-webview-state', JSON.stringify(s));
  },
});
`;

export class WebviewPage {
  readonly violations: string[] = [];
  readonly errors: string[] = [];
  private constructor(
    readonly page: Page,
    private readonly browser: Browser,
  ) {}

  static async open(opts: {
    kind: WebviewKind;
    theme: ThemeName;
    host: StandInHost;
    answers?: InPageAnswers;
    size?: { width: number; height: number };
  }): Promise<WebviewPage> {
    const dist = await buildWebviewBundles();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND'],
    });
    const page = await browser.newPage({ viewport: opts.size ?? { width: 1400, height: 900 } });
    const wp = new WebviewPage(page, browser);
    page.on('console', (m) => {
      if (/Content[- ]Security[- ]Policy|Refused to/i.test(m.text())) wp.violations.push(m.text());
      if (m.type() === 'error') wp.errors.push(m.text());
    });
    page.on('pageerror', (e) => wp.errors.push(e.message));
    const theme = THEMES[opts.theme];
    const html = buildWebviewHtml({
      kind: opts.kind,
      cspSource: ORIGIN,
      scriptUri: `${ORIGIN}/dist/${opts.kind}.js`,
      styleUri: `${ORIGIN}/media/webview.css`,
    })
      // VS Code puts the theme's variables on the page and its class on <body>; so does this.
      .replace('<link rel="stylesheet"', `<link rel="stylesheet" href="${ORIGIN}/theme.css">\n<link rel="stylesheet"`)
      .replace(`<body class="kg-${opts.kind}">`, `<body class="kg-${opts.kind} ${theme.bodyClass}">`);
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      const serve = (body: string | Buffer, contentType: string) => route.fulfill({ status: 200, contentType, body });
      if (url.pathname === '/index.html') return serve(html, 'text/html');
      if (url.pathname === '/theme.css') return serve(themeCss(opts.theme), 'text/css');
      if (url.pathname === '/media/webview.css') return serve(fs.readFileSync(path.join(ROOT, 'media/webview.css')), 'text/css');
      if (url.pathname.startsWith('/dist/')) {
        const name = path.basename(url.pathname);
        return serve(fs.readFileSync(path.join(dist, name)), name.endsWith('.ttf') ? 'font/ttf' : 'application/javascript');
      }
      return route.fulfill({ status: 404, body: '' });
    });
    await page.exposeFunction('__kgToNode', async (m: WebviewMessage) => {
      const replies = await opts.host(m, wp);
      for (const r of replies ?? []) await wp.post(r);
    });
    await page.addInitScript({ content: STAND_IN.replace('__ANSWERS__', JSON.stringify(opts.answers ?? {})) });
    await page.goto(`${ORIGIN}/index.html`);
    return wp;
  }

  /** Posts a host message to the page; one off the protocol is a bug of the test's stand-in host, and throws. */
  async post(m: HostMessage): Promise<void> {
    const problem = hostMessageProblem(m);
    if (problem) throw new Error(`the stand-in host posted a ${m.type} message off the protocol (${problem})`);
    await this.page.evaluate(`window.postMessage(${JSON.stringify(m)}, '*')`);
  }

  async posted(): Promise<Posted[]> {
    return this.page.evaluate<Posted[]>('window.__kg.posted');
  }

  async postedCount(): Promise<number> {
    return this.page.evaluate<number>('window.__kg.posted.length');
  }

  async pageViolations(): Promise<string[]> {
    return this.page.evaluate<string[]>('window.__kg.violations');
  }

  /** Waits until the webview has posted a message matching `pred` after `since` messages. */
  async waitForPosted(pred: (m: WebviewMessage) => boolean, since = 0, timeoutMs = 20_000): Promise<Posted> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Only what is new since `since`: fetching everything again each poll would cost the page
      // (and the bench's clock) a copy of every 1,000-id `drawn` message.
      const fresh = await this.page.evaluate<Posted[]>(`window.__kg.posted.slice(${since})`);
      const hit = fresh.find((p) => pred(p.m));
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`timed out waiting for a posted message; got: ${fresh.map((p) => p.m.type).join(', ')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}
