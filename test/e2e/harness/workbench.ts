// The workbench as a test sees it: Debian's Chromium driven by playwright-core, with helpers for
// what a user does — run a palette command, read notifications, wait for and click a code lens,
// read the references peek, open a view, reach into a webview, take a screenshot. Every wait is
// on a condition in the page; nothing sleeps for a fixed time.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Frame, type FrameLocator, type Locator, type Page } from 'playwright-core';

/** The command palette's own placeholder (VS Code 1.100). */
const PALETTE_PLACEHOLDER = 'Type the name of a command to run.';

const CHROMIUM = process.env.KG_E2E_CHROMIUM ?? '/usr/bin/chromium';

const BROWSER_ARGS = [
  '--no-sandbox', // the tests run as root in CI, where Chromium's sandbox cannot start
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Only the local server is reachable: the workbench's gallery lookups fail fast and offline.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export interface OpenOptions {
  /** code-server's base URL. */
  url: string;
  /** Absolute path of the folder to open, or of a `.code-workspace` file (several folders). */
  folder: string;
  /** Where screenshots and the browser console log go. */
  artifacts: string;
  /** A name for this page's artifacts. */
  name: string;
  /** The workbench's `payload` (extensionDevelopmentPath, extensionTestsPath, …). */
  payload?: Array<[string, string]>;
  /** Called for each line the workbench logs through window.codeAutomationLog. */
  onLog?(type: string, line: string): void;
  /** Called when the workbench calls window.codeAutomationExit(code). */
  onExit?(code: number): void;
}

/** A `vscode-remote://` URI for a path on the server, as the payload expects. */
export function remoteUri(url: string, p: string): string {
  return `vscode-remote://${new URL(url).host}${p}`;
}

export class Workbench {
  private shots = 0;
  /** How many times hoverUntil has hovered again (the harness's own test reads it). */
  hoversRepeated = 0;
  private readonly consoleLines: string[] = [];

  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly profile: string,
    private readonly artifacts: string,
    private readonly name: string,
  ) {
    page.on('console', (m) => this.consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => this.consoleLines.push(`[pageerror] ${e.message}`));
  }

  static async open(o: OpenOptions): Promise<Workbench> {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-e2e-browser-'));
    fs.mkdirSync(o.artifacts, { recursive: true });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1400, height: 900 },
      args: BROWSER_ARGS,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const wb = new Workbench(page, context, profile, o.artifacts, o.name);
    if (o.onLog) {
      const onLog = o.onLog;
      await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) =>
        onLog(type, (args ?? []).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')),
      );
    }
    if (o.onExit) await page.exposeFunction('codeAutomationExit', o.onExit);
    let address = `${o.url}/?${o.folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(o.folder)}`;
    if (o.payload) address += `&payload=${encodeURIComponent(JSON.stringify(o.payload))}`;
    try {
      await page.goto(address);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    } catch (e) {
      await wb.close();
      throw e;
    }
    return wb;
  }

  /** Waits until the explorer shows the folder's files: the workbench is usable. */
  async ready(): Promise<void> {
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  }

  private quickInput(): Locator {
    return this.page.locator('.quick-input-widget .quick-input-box input');
  }

  /** Opens the command palette with `text` typed (a leading ">" lists commands). */
  async palette(text: string, timeout = 45_000): Promise<Locator> {
    const input = this.quickInput();
    const end = Date.now() + timeout;
    // Under load a key can land while the widget is still closing, or in a webview that keeps
    // it: the palette is opened (F1, then Ctrl+Shift+P) until its input shows, and filled while
    // it does. Each attempt is short; the whole is bounded by `timeout`.
    for (let attempt = 0; ; attempt++) {
      try {
        if (!(await input.isVisible())) {
          await this.page.keyboard.press(attempt % 2 === 0 ? 'F1' : 'Control+Shift+P');
          await input.waitFor({ state: 'visible', timeout: 7_500 });
        }
        await input.fill(text, { timeout: 7_500 });
        return this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
      } catch (e) {
        if (Date.now() > end) throw new Error(`the command palette never opened to take "${text}": ${(e as Error).message}`);
        await this.page.keyboard.press('Escape').catch(() => {});
        await this.page.waitForTimeout(500);
      }
    }
  }

  /** The command titles the palette lists for `text`, once at least one of them contains it. */
  async paletteEntries(text: string, timeout = 30_000): Promise<string[]> {
    const end = Date.now() + timeout;
    for (;;) {
      const rows = await this.palette(`>${text}`);
      const match = rows.locator('.label-name', { hasText: text }).first();
      try {
        await match.waitFor({ timeout: 2_000 });
        return (await rows.locator('.label-name').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
      } catch (e) {
        if (Date.now() > end) throw new Error(`the palette never listed a command with "${text}": ${(e as Error).message}`);
        await this.closePalette();
      }
    }
  }

  async closePalette(): Promise<void> {
    if (await this.quickInput().isVisible()) {
      await this.page.keyboard.press('Escape');
      await this.quickInput().waitFor({ state: 'hidden', timeout: 5_000 });
    }
  }

  /**
   * Runs a command by its palette title, e.g. "Knowledge Graph: Build Knowledge Graph". The
   * palette lists what the workbench knew when it opened — right after start-up an extension's
   * commands may not be there yet — so it is reopened until the command shows.
   */
  async runCommand(title: string, timeout = 30_000): Promise<void> {
    const end = Date.now() + timeout;
    for (;;) {
      const rows = await this.palette(`>${title}`);
      const row = rows.filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) }).first();
      try {
        await row.waitFor({ timeout: 2_000 });
        await row.click();
        // The palette is gone once its input is hidden, or once the widget shows a quick pick of
        // the command's own (Show Callers opens one in the same widget at once): another
        // placeholder. While the palette closes, its input is visible with the palette's placeholder.
        await this.page.waitForFunction(
          (placeholder) => {
            type Input = { offsetParent: unknown; placeholder: string; value: string };
            const doc = (globalThis as unknown as { document: { querySelector(s: string): Input | null } }).document;
            const i = doc.querySelector('.quick-input-widget .quick-input-box input');
            return !i || i.offsetParent === null || (i.placeholder !== placeholder && !i.value.startsWith('>'));
          },
          PALETTE_PLACEHOLDER,
          { timeout: 15_000 },
        );
        return;
      } catch (e) {
        if (Date.now() > end) {
          await this.screenshot(`palette-without-${title}`).catch(() => {});
          throw new Error(`the palette never listed "${title}": ${(e as Error).message}`);
        }
        await this.closePalette();
      }
    }
  }

  /** A notification toast whose message matches `text`, once it has finished animating in. */
  notification(text: string | RegExp): Locator {
    return this.page.locator('.notifications-toasts .notification-toast.notification-fade-in-done', {
      has: this.page.locator('.notification-list-item-message', { hasText: text }),
    });
  }

  /** Waits for a notification and returns its message text and severity. */
  async waitForNotification(text: string | RegExp, timeout = 60_000): Promise<{ message: string; severity: 'error' | 'warning' | 'info' }> {
    const toast = this.notification(text).first();
    await toast.waitFor({ timeout });
    const message = (await toast.locator('.notification-list-item-message').innerText()).trim();
    const cls = (await toast.locator('.notification-list-item-icon').getAttribute('class')) ?? '';
    const severity = /codicon-error/.test(cls) ? 'error' : /codicon-warning/.test(cls) ? 'warning' : 'info';
    return { message, severity };
  }

  /** Every notification shown as a toast right now, with its severity. */
  async allNotifications(): Promise<Array<{ message: string; severity: string }>> {
    const items = await this.page.locator('.notifications-toasts .notification-list-item').all();
    const out: Array<{ message: string; severity: string }> = [];
    for (const item of items) {
      const cls = (await item.locator('.notification-list-item-icon').getAttribute('class')) ?? '';
      const message = (await item.locator('.notification-list-item-message').innerText()).trim();
      out.push({ message, severity: /codicon-error/.test(cls) ? 'error' : /codicon-warning/.test(cls) ? 'warning' : 'info' });
    }
    return out;
  }

  /** Clicks a button (e.g. "Cancel", "Show Log") on the notification matching `text`. */
  async clickNotificationButton(text: string | RegExp, button: string): Promise<void> {
    const item = this.page.locator('.notifications-toasts .notification-list-item', { hasText: text }).first();
    await item.hover();
    await item
      .locator(`.monaco-button, .action-label`)
      .filter({ hasText: button })
      .or(item.locator(`.action-label[aria-label="${button}"]`))
      .first()
      .click();
  }

  /** Opens a file through Quick Open and waits for its editor to show text. */
  async openFile(relativePath: string, expectText: string | RegExp): Promise<void> {
    // A webview that has just taken the focus (a graph tab brought forward) may swallow the first
    // Ctrl+P, or close Quick Open as it loads or before its list fills (a CI run's screenshot showed
    // Quick Open gone while the explorer tab held the focus): ask again, three times at most.
    const row = this.page.locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(relativePath) }).first();
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+P');
      try {
        await this.quickInput().waitFor({ state: 'visible', timeout: 5_000 });
        await this.quickInput().fill(relativePath);
        await row.waitFor({ timeout: attempt === 3 ? 15_000 : 10_000 });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        await this.page.keyboard.press('Escape');
      }
    }
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tabs-container .tab', { hasText: path.basename(relativePath) }).waitFor({ timeout: 15_000 });
    await this.page.locator('.monaco-editor .view-lines', { hasText: expectText }).first().waitFor({ timeout: 15_000 });
  }

  /** The code lens whose text matches, once the editor shows it. */
  async waitForCodeLens(text: string | RegExp, timeout = 60_000): Promise<Locator> {
    const lens = this.page.locator('.codelens-decoration a', { hasText: text }).first();
    await lens.waitFor({ timeout });
    return lens;
  }

  async codeLensTexts(): Promise<string[]> {
    return this.page.locator('.codelens-decoration').allInnerTexts();
  }

  async clickCodeLens(text: string | RegExp): Promise<void> {
    await (await this.waitForCodeLens(text)).click();
  }

  /**
   * Hovers the mouse over `target` until `shows` is visible, and returns it. One hover can be lost on
   * a loaded machine (the widget opens before a provider answers, or the pointer lands while the
   * line re-renders), so each try first closes any hover and moves the pointer away, then hovers
   * again, for up to `timeout` in all.
   */
  async hoverUntil(target: Locator, shows: Locator, timeout = 60_000): Promise<Locator> {
    const end = Date.now() + timeout;
    for (; ; this.hoversRepeated++) {
      await this.page.keyboard.press('Escape');
      await this.page.mouse.move(0, 0);
      await target.hover();
      try {
        await shows.waitFor({ timeout: Math.max(1_000, Math.min(8_000, end - Date.now())) });
        return shows;
      } catch (e) {
        if (Date.now() >= end) throw e;
        console.log(`# hover: nothing matching yet over ${String(target)}; hovering again`);
      }
    }
  }

  /** The references peek once it shows: its title (file and location count) and its rows. */
  async readPeek(timeout = 30_000): Promise<{ title: string; rows: string[] }> {
    const widget = this.page.locator('.peekview-widget').first();
    const rows = widget.locator('.ref-tree .monaco-list-row');
    await rows.first().waitFor({ timeout });
    const title = (await widget.locator('.peekview-title').innerText()).replace(/\s+/g, ' ').trim();
    return { title, rows: (await rows.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()) };
  }

  /** Opens a view by its title through Quick Open's "view " picker and returns its pane. */
  async openView(title: string): Promise<Locator> {
    const rows = await this.palette(`view ${title}`);
    const row = rows.filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await this.quickInput().waitFor({ state: 'hidden', timeout: 15_000 });
    const pane = this.page
      .locator('.pane', { has: this.page.locator('.pane-header', { hasText: new RegExp(`^${escapeRegExp(title)}`, 'i') }) })
      .first();
    await pane.waitFor({ timeout: 15_000 });
    return pane;
  }

  /** The content frame of the active webview (VS Code nests the page in two iframes). */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  }

  /** Runs a test body; if it throws, saves a screenshot named after it first. */
  async step<T>(label: string, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (e) {
      const file = await this.screenshot(`FAILED-${label}`).catch(() => 'no screenshot');
      console.log(`# failure screenshot: ${file}`);
      throw e;
    }
  }

  /** Saves a screenshot in the artifacts folder and returns its path. */
  async screenshot(label: string): Promise<string> {
    const file = path.join(this.artifacts, `${this.name}-${String(++this.shots).padStart(2, '0')}-${label.replace(/\W+/g, '-')}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  async close(): Promise<void> {
    fs.writeFileSync(path.join(this.artifacts, `${this.name}-browser-console.log`), this.consoleLines.join('\n') + '\n');
    await this.context.close().catch(() => {});
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The frame (of the nested webview iframes) whose document holds `selector`. */
export async function frameWith(wb: Workbench, selector: string, timeout = 60_000): Promise<Frame> {
  const end = Date.now() + timeout;
  for (;;) {
    for (const f of wb.page.frames()) {
      const n = await f
        .locator(selector)
        .count()
        .catch(() => 0);
      if (n > 0) return f;
    }
    if (Date.now() > end) throw new Error(`no webview frame holds ${selector}`);
    await wb.page.waitForTimeout(250);
  }
}

/**
 * Shows the Explorer and waits for it: the workbench reopens the side bar view used last, which
 * after a test of the Knowledge Graph container is that container, not the Explorer.
 */
export async function showExplorer(wb: Workbench, timeout = 90_000): Promise<void> {
  await wb.page.locator('.part.statusbar').waitFor({ timeout: 60_000 });
  const rows = wb.page.locator('.explorer-folders-view .monaco-list-row').first();
  // What the Explorer says when the window opened with no folder at all.
  const noFolder = wb.page.getByText(/You have not yet (added|opened) a folder/).first();
  const end = Date.now() + timeout;
  let reloads = 0;
  // Under load the key can land before the workbench takes keys: the key is pressed again, then
  // the palette's command is tried, until the Explorer lists a row. Twice in CI a two-folder
  // workspace opened with no folder at all, and stayed so for 90 s: the window's title named the
  // .code-workspace file, its Explorer said no folder was added, and the browser's log stopped
  // before the extension host's webviews. Why is not known (written after the window opened, the
  // file is picked up within seconds here). A screenshot shows it, and the page is loaded again,
  // at most twice. A last screenshot says what the window showed.
  for (let attempt = 0; ; attempt++) {
    try {
      if (attempt % 3 === 2) await wb.runCommand('View: Show Explorer', 15_000);
      else await wb.page.keyboard.press('Control+Shift+E');
      await rows.waitFor({ timeout: 10_000 });
      return;
    } catch (e) {
      if (Date.now() > end) {
        await wb.screenshot('explorer-never-showed').catch(() => {});
        throw new Error(`the Explorer listed no row within ${timeout} ms: ${(e as Error).message}`);
      }
      await wb.page.keyboard.press('Escape').catch(() => {});
      if (reloads < 2 && (await noFolder.isVisible().catch(() => false))) {
        reloads++;
        await wb.screenshot('opened-with-no-folder-reloading').catch(() => {});
        await wb.page.reload();
        await wb.page.locator('.part.statusbar').waitFor({ timeout: 60_000 });
      }
    }
  }
}

/** Each lens's own text: the editor joins the lenses of one line (ours, TypeScript's "N references") with "|". */
async function lensTexts(wb: Workbench): Promise<string[]> {
  return (await wb.codeLensTexts())
    .flatMap((t) => t.split('|').map((p) => p.replace(/\s+/g, ' ').trim()))
    .filter((t) => !/references?$/.test(t));
}

/** Polls until `ok` holds for the lens texts (the editor re-renders lenses in steps). */
export async function lensTextsWhen(wb: Workbench, ok: (texts: string[]) => boolean, what: string, timeout = 20_000): Promise<string[]> {
  const end = Date.now() + timeout;
  let texts: string[] = [];
  while (Date.now() < end) {
    texts = await lensTexts(wb);
    if (ok(texts)) return texts;
    await wb.page.waitForTimeout(250);
  }
  throw new Error(`lenses never showed ${what}: ${JSON.stringify(texts)}`);
}
