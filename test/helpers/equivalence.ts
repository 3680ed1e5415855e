// The equivalence property: after every edit of a random sequence, the incremental build equals a
// full build of the same tree, byte for byte. A failing sequence is shrunk (chunks, then single
// edits, are dropped while it still fails) and reported as data plus a readable story, ready to
// paste into a regression test.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { rng } from '../../bench/generate-graph';
import {
  BuildSession,
  buildGraph,
  buildTracked,
  isGraphError,
  serializeGraph,
  type CheckerChoice,
  type PreviousBuild,
  type TrackedBuildResult,
} from '../../src/graph';
import { EDIT_KINDS, applyEdit, type Edit, type EditKind } from './edits';
import { FIXTURES, copyFixture, tempDir, writeTree } from './fixtures';

/** A small seeded generator (the benchmark's), the same everywhere. */
export const random = rng;

const RARE: readonly EditKind[] = ['breakSyntax', 'touchConfig'];
const COMMON = EDIT_KINDS.filter((k) => !RARE.includes(k));

export function randomEdits(rand: () => number, count: number): Edit[] {
  const n = () => Math.floor(rand() * 10_000);
  return Array.from({ length: count }, () => {
    const kinds = rand() < 0.05 ? RARE : COMMON;
    return { kind: kinds[Math.floor(rand() * kinds.length)], a: n(), b: n(), c: n() };
  });
}

function copyTree(src: string, dest: string): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    if (e.name === '.knowledge-graph') continue;
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isDirectory()) copyTree(s, d);
    else if (e.isFile()) fs.copyFileSync(s, d);
  }
}

function firstDifferences(expected: string, actual: string, max = 12): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const sa = new Set(a);
  const sb = new Set(b);
  const out = [...a.filter((l) => !sb.has(l)).map((l) => `- ${l}`), ...b.filter((l) => !sa.has(l)).map((l) => `+ ${l}`)];
  return out.slice(0, max).join('\n') + (out.length > max ? `\n… ${out.length - max} more` : '');
}

export interface Failure {
  step: number;
  story: string[];
  message: string;
}

export interface RunOptions {
  extractOnly?: boolean;
  /** The checker of the incremental builds and the warm session; the full reference is always `js` (ADR 114). */
  backend?: CheckerChoice;
}

/**
 * Copies `base` to a fresh folder, builds it, then applies `edits` one by one, comparing the
 * incremental build with a full build after each. Returns the first failure, or the number of
 * edits that changed something.
 */
export function runSequence(
  base: string,
  edits: readonly Edit[],
  opts: RunOptions = {},
): { failure?: Failure; applied: number; blanked: number } {
  const root = tempDir('kg-equiv-');
  copyTree(base, root);
  const backend = opts.backend;
  const first = buildTracked({ root, extractOnly: opts.extractOnly, backend });
  let previous: PreviousBuild = { graphText: first.text, manifestText: first.manifestText };
  // The warm path too: a session that keeps its programs and parsed files between builds.
  const session = new BuildSession({ root, extractOnly: opts.extractOnly, backend });
  session.warm();
  const orFull = (build: (full: boolean) => TrackedBuildResult): TrackedBuildResult => {
    try {
      return build(false);
    } catch (e) {
      // A suspected parse failure is the incremental build refusing, as it must; the user's
      // answer is a full build, which is what the next step starts from.
      if (!isGraphError(e) || e.code !== 'SUSPECTED_PARSE_FAILURE') throw e;
      return build(true);
    }
  };
  const story: string[] = [];
  let applied = 0;
  // Steps whose one-shot build read carried files with their bodies blank (ADR 129): the partial
  // program is what those steps compare with the full build.
  let blanked = 0;
  try {
    for (let i = 0; i < edits.length; i++) {
      const what = applyEdit(root, edits[i]);
      story.push(`${i + 1}. ${what ?? '(nothing to do)'}`);
      if (what === undefined) continue;
      applied++;
      const full = serializeGraph(buildGraph({ root, extractOnly: opts.extractOnly }).graph);
      const result = orFull((f) => buildTracked({ root, extractOnly: opts.extractOnly, previous, full: f, backend }));
      if (result.blanked > 0) blanked++;
      if (result.text !== full) {
        return {
          applied,
          blanked,
          failure: {
            step: i + 1,
            story,
            message: `the ${result.mode} graph differs from the full build (- full, + ${result.mode}):\n${firstDifferences(full, result.text)}`,
          },
        };
      }
      const warm = orFull((f) => session.rebuild({ full: f }));
      if (warm.text !== full) {
        return {
          applied,
          blanked,
          failure: {
            step: i + 1,
            story,
            message: `the warm session's ${warm.mode} graph differs from the full build (- full, + session):\n${firstDifferences(full, warm.text)}`,
          },
        };
      }
      // The session's manifest is the one-shot build's; and a rebuild with nothing changed, whose
      // bytes the session takes from its last build (ADR 127), is those bytes again.
      const again = session.rebuild();
      const drift =
        warm.manifestText !== result.manifestText
          ? `the warm session's manifest differs from the one-shot build's:\n${firstDifferences(result.manifestText, warm.manifestText)}`
          : again.text !== full || again.manifestText !== warm.manifestText
            ? `the warm session's rebuild with nothing changed differs from its last build:\n${firstDifferences(full, again.text) || firstDifferences(warm.manifestText, again.manifestText)}`
            : undefined;
      if (drift) return { applied, blanked, failure: { step: i + 1, story, message: drift } };
      previous = { graphText: result.text, manifestText: result.manifestText };
    }
  } catch (e) {
    return { applied, blanked, failure: { step: story.length, story, message: `threw: ${(e as Error).stack ?? String(e)}` } };
  } finally {
    session.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
  return { applied, blanked };
}

/** Drops chunks, then single edits, while the sequence still fails (ddmin, roughly). */
export function shrink(base: string, edits: Edit[], opts: RunOptions = {}, budget = 200): { edits: Edit[]; failure: Failure } {
  let current = edits;
  let failure = runSequence(base, current, opts).failure as Failure;
  // Only the prefix up to the failing step matters.
  current = current.slice(0, failure.step);
  let runs = 0;
  for (let chunk = Math.ceil(current.length / 2); chunk >= 1 && runs < budget; chunk = chunk === 1 ? 0 : Math.ceil(chunk / 2)) {
    for (let i = 0; i < current.length && runs < budget;) {
      const candidate = [...current.slice(0, i), ...current.slice(i + chunk)];
      runs++;
      const r = candidate.length > 0 ? runSequence(base, candidate, opts).failure : undefined;
      if (r) {
        current = candidate.slice(0, r.step);
        failure = r;
      } else {
        i += chunk;
      }
    }
  }
  return { edits: current, failure };
}

export function report(seed: number, shrunk: { edits: Edit[]; failure: Failure }): string {
  return [
    `equivalence broken (seed ${seed}); shrunk to ${shrunk.edits.length} edit${shrunk.edits.length === 1 ? '' : 's'}:`,
    ...shrunk.failure.story.map((s) => `  ${s}`),
    '',
    shrunk.failure.message,
    '',
    'as a regression test:',
    `  ${JSON.stringify(shrunk.edits)}`,
  ].join('\n');
}

/**
 * What joined the base tree after the sequences in equivalence.test.ts's FOUND list were found: an
 * edit picks its file by number among the tree's files, so a replay leaves these out to pick what
 * it picked then.
 */
const JOINED_LATER = {
  fixtures: ['bare-directory-imports'],
  gen: ['gen/bare.ts', 'gen/p3/bare.ts', 'gen/req.cjs', 'gen/p2/req.cjs'],
};

/**
 * The equivalence generator's base tree: every test fixture, plus a generated package of files that
 * import and call each other. `asFound`: the tree the FOUND sequences were found on (JOINED_LATER).
 */
export function fixtureRepo(opts: { asFound?: boolean } = {}): string {
  const root = tempDir('kg-equiv-base-');
  for (const name of fs.readdirSync(FIXTURES)) {
    if (opts.asFound && JOINED_LATER.fixtures.includes(name)) continue;
    copyFixture(name, { into: path.join(root, name) });
  }
  const gen: Record<string, string> = {
    'tsconfig.json':
      JSON.stringify({
        compilerOptions: { strict: true, jsx: 'preserve', allowJs: true, module: 'ESNext', moduleResolution: 'Bundler' },
        include: ['gen'],
      }) + '\n',
    'package.json': '{ "name": "equivalence-fixture", "private": true, "type": "module" }\n',
  };
  for (let i = 0; i < 24; i++) {
    const dir = `gen/p${i % 4}`;
    const next = (i + 5) % 24;
    const spec = path.posix.relative(dir, `gen/p${next % 4}/f${next}`);
    gen[`${dir}/f${i}.ts`] =
      `import { run${next} } from '${spec.startsWith('.') ? spec : './' + spec}';\n` +
      // One utility most files import: the name-level invalidation's hardest case (ADR 118).
      (i % 4 !== 3 ? `import { twice, type Sized } from '../util';\nexport const size${i}: Sized = { size: twice(${i}) };\n` : '') +
      `export function run${i}(n: number): number {\n  return n > 0 ? run${next}(n - 1) : helper${i}();\n}\n` +
      `function helper${i}() {\n  return ${i};\n}\n` +
      (i % 3 === 0 ? `export class Box${i} {\n  open() {\n    return run${i}(1);\n  }\n}\n` : '');
  }
  gen['gen/util.ts'] =
    'export function twice(n: number) {\n  return n * 2;\n}\nexport interface Sized {\n  size: number;\n}\nexport class Meter {\n  read(): number {\n    return twice(1);\n  }\n}\n';
  gen['gen/ns.ts'] =
    "import * as util from './util';\nexport function viaNamespace() {\n  return util.twice(2) + new util.Meter().read();\n}\n";
  gen['gen/index.ts'] = Array.from({ length: 4 }, (_, p) => `export * from './p${p}/f${p}';\n`).join('');
  // The folder's index named by the folder alone, in each spelling the compiler takes (issue 55):
  // an edit of index.ts or of a file it re-exports reaches these through the bare specifier.
  gen['gen/bare.ts'] =
    "import { run1 } from '.';\nimport { run2 } from './';\nexport function bareHere() {\n  return run1(1) + run2(2);\n}\n";
  gen['gen/p3/bare.ts'] =
    "import { run0 } from '..';\nimport { run3 } from '../';\nexport function bareUp() {\n  return run0(1) + run3(2);\n}\n";
  gen['gen/req.cjs'] =
    "const here = require('.');\nfunction requireHere() {\n  return here.run1(1);\n}\nmodule.exports = { requireHere };\n";
  gen['gen/p2/req.cjs'] = "const up = require('..');\nfunction requireUp() {\n  return up.run0(1);\n}\nmodule.exports = { requireUp };\n";
  if (opts.asFound) for (const later of JOINED_LATER.gen) delete gen[later];
  writeTree(root, gen);
  return root;
}
