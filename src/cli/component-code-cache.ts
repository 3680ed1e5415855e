// Components' generated code kept in the repository's graph cache (ADR 182, ADR 166): one
// gzip-compressed file per component under `<cache>/components/<xx>/<key>.gz`, shared by every
// worktree, written under a temporary name and renamed, counted in the cache's budget and evicted
// with it, least recently used first. The store keeps bytes only: the engine checks every record
// against its key and its hash before it uses it (src/graph/indexer/components/stored-code.ts), and
// writes the code again when a record fails.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ComponentCodeStore } from '../graph';
import { worktreeHead } from '../git/plumbing';
import { GraphCache, writeAtomic } from './graph-cache';

/** A record read is made young again at most this often: its last use orders eviction. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

const KEY = /^[0-9a-f]{64}$/;

/** A store that counts what it served: how many components' code came from it, how many were generated. */
export interface CountedStore extends ComponentCodeStore {
  counts(): { kept: number; generated: number };
}

/**
 * The component code store of the repository at `root`, or undefined with KG_CACHE=off. The folder
 * is found when the first component asks for it (one git process): a build without components
 * never asks git. Not a git repository with a commit: no store, and every cold build generates.
 */
export function componentCodeStore(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  commonDir?: string,
): CountedStore | undefined {
  if (env.KG_CACHE === 'off') return undefined;
  let dir: string | null | undefined = commonDir === undefined ? undefined : GraphCache.of(commonDir).componentsDir;
  const folder = (): string | null => {
    if (dir === undefined) {
      try {
        const head = worktreeHead(root);
        dir = head ? GraphCache.of(head.commonDir).componentsDir : null;
      } catch {
        dir = null;
      }
    }
    return dir;
  };
  const fileOf = (d: string, key: string) => path.join(d, key.slice(0, 2), `${key}.gz`);
  // Records served, and the code stored: a record the engine rejected is stored again.
  const served = new Set<string>();
  let stored = 0;
  let rejected = 0;
  return {
    counts: () => ({ kept: served.size - rejected, generated: stored }),
    get(key) {
      const d = folder();
      if (d === null || !KEY.test(key)) return undefined;
      const file = fileOf(d, key);
      let data: Buffer;
      try {
        const st = fs.statSync(file);
        data = fs.readFileSync(file);
        if (Date.now() - st.mtimeMs > TOUCH_AFTER_MS) {
          const now = new Date();
          fs.utimesSync(file, now, now);
        }
      } catch {
        return undefined;
      }
      try {
        const out = gunzipSync(data);
        served.add(key);
        return out;
      } catch {
        // Truncated or not gzip: the build writes it again.
        return undefined;
      }
    },
    put(key, data) {
      const d = folder();
      if (d === null || !KEY.test(key)) return;
      stored++;
      if (served.has(key)) rejected++;
      const file = fileOf(d, key);
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeAtomic(file, gzipSync(data, { level: 6 }));
    },
  };
}
