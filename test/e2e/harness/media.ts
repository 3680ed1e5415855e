// The pictures of the extension's page (docs/marketplace/README.md, ADR 163): taken by the e2e
// suite from a real repository, each clipped to what it shows, saved in the run's artifacts
// (media/), and copied over media/screenshots/<name>.png when KG_E2E_UPDATE_MEDIA=1 and the bytes
// differ. Without it the run only says which ones differ, so a run never edits the checkout.

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { REPO } from './bundle';
import { E2E } from './context';

const MEDIA = path.join(REPO, 'media', 'screenshots');

/** The most one picture may weigh: the page loads all four. */
export const PICTURE_BUDGET = 300 * 1024;

export interface Picture {
  file: string;
  bytes: number;
}

/** The page's rectangle that holds all of `locators` (each as laid out now), for a clip. */
export async function around(...locators: Locator[]): Promise<{ x: number; y: number; width: number; height: number }> {
  const boxes = [];
  for (const l of locators) {
    const b = await l.boundingBox();
    if (!b) throw new Error(`${String(l)} is not laid out`);
    boxes.push(b);
  }
  const x = Math.floor(Math.min(...boxes.map((b) => b.x)));
  const y = Math.floor(Math.min(...boxes.map((b) => b.y)));
  const right = Math.ceil(Math.max(...boxes.map((b) => b.x + b.width)));
  const bottom = Math.ceil(Math.max(...boxes.map((b) => b.y + b.height)));
  return { x, y, width: right - x, height: bottom - y };
}

/** Saves the clipped picture `name`.png in the artifacts' media folder, and into media/screenshots/ if asked. */
export async function savePicture(
  page: Page,
  name: string,
  clip: { x: number; y: number; width: number; height: number },
): Promise<Picture> {
  const file = path.join(E2E.artifacts, 'media', `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, clip, animations: 'disabled', caret: 'hide' });
  const bytes = fs.readFileSync(file);
  const checkedIn = path.join(MEDIA, `${name}.png`);
  const same = fs.existsSync(checkedIn) && fs.readFileSync(checkedIn).equals(bytes);
  const update = process.env.KG_E2E_UPDATE_MEDIA === '1';
  if (!same && update) {
    fs.mkdirSync(MEDIA, { recursive: true });
    fs.copyFileSync(file, checkedIn);
  }
  const said = same
    ? 'the same bytes as media/screenshots/'
    : update
      ? 'copied into media/screenshots/'
      : 'differs from media/screenshots/ (KG_E2E_UPDATE_MEDIA=1 copies it)';
  console.log(`# picture ${name}.png: ${clip.width}×${clip.height}, ${bytes.length} bytes, ${said}`);
  return { file, bytes: bytes.length };
}
