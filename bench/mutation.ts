// `npm run bench:mutation`: issue 52's third item, `kg tests` and `kg unused` checked by breaking
// real code on purpose (ADR 167).
//
// For each package below, installed from npm with its own tests in its tarball: its files are
// copied into a fresh git repository (bench/mutation-core.ts), and
//
// 1. Test selection. Functions of the package's code (the files its entry loads) are found with the
//    parser and sampled with a fixed seed; each in turn has its body replaced by one that throws,
//    committed, `kg tests HEAD~1 HEAD` asked for the test files the change can reach, and the whole
//    suite run (each test file in its own `node FILE` process, a per-file timeout). Recall: every
//    test file that fails must be in the proven-or-guessed selection (bar 100%); a failing test
//    the selection misses is run again with the break under coverage and written down with its
//    tier (holes, or none), unless neither run executes the broken body: then it failed for a
//    reason of its own (a timing test under load) and is listed apart (ADR 190). Cost: the
//    selection's share of the suite's test files, averaged over the mutations (bar ≤ 40%), beside
//    the share of test files that execute the body in the unchanged suite (V8 coverage), which no
//    selection with full recall goes under.
// 2. `kg unused`. The graph of the package as published; each symbol `kg unused` calls unused is
//    deleted alone, the repository type-checked by the compiler (JavaScript checked too; an error
//    the unchanged package does not have is a break) and the suite run (a test file that passed
//    before and fails now is a break). Bar: no break.
//
// The packages' code runs only inside their own test runs, in the temporary repository: that is
// what the item measures. Prints a markdown table per part and writes bench/results/mutation.json.
// KG_MUTATION_SEED (default 52), KG_MUTATION_SAMPLES (per package, default each package's below),
// KG_MUTATION_PACKAGES (comma-separated names), KG_MUTATION_TIMEOUT_MS (per test file, default
// 20000), KG_MUTATION_ONLY (positions in the sample) and KG_MUTATION_CLI (another build's cli.js)
// change the run. KG_MUTATION_FAILING (an earlier run's mutation.json, same seed) takes each
// mutation's failing test files from that run instead of running the suite: which tests a
// mutation fails does not depend on kg, so another build's selection is checked against the same
// failures in minutes (ADR 190). KG_MUTATION_UNUSED=0 leaves out the second part.
// KG_MUTATION_MODULES (a scratch node_modules, `npm install` of a package that is not a
// devDependency here) is searched for the packages after this repository's, and is on the tests'
// NODE_PATH.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { rng } from './generate-graph';
import {
  benchTemp,
  breakFunction,
  deleteDeclaration,
  executedBy,
  rerunMissed,
  functionSites,
  git,
  kgBuild,
  kgTests,
  kgUnused,
  newErrors,
  prepareRepository,
  repositoryFiles,
  runSuite,
  sample,
  TypeCheck,
  type FunctionSite,
  type RunOptions,
} from './mutation-core';

const REPO = path.join(__dirname, '..');
const SEED = Number(process.env.KG_MUTATION_SEED ?? 52);
const TIMEOUT_MS = Number(process.env.KG_MUTATION_TIMEOUT_MS ?? 20_000);
const CONCURRENCY = 2;

interface Subject {
  /** The npm package (a devDependency of this repository or one of theirs). */
  name: string;
  samples: number;
  /** The suite: the test files the package's own `test` script runs. */
  suite: (file: string) => boolean;
  /** The package's code its entry loads: the files whose functions are broken. */
  mutable: (file: string) => boolean;
}

const SUBJECTS: Subject[] = [
  // "test:unit": "tape test/**/*.js" (test/fixtures holds JSON only).
  { name: 'fast-uri', samples: 36, suite: (f) => /^test\/[^/]+\.js$/.test(f), mutable: (f) => /^(index|lib\/[^/]+)\.js$/.test(f) },
  // "test": "node test": test/index.js requires each test-path-*.js, and each of those runs alone too.
  { name: 'path-browserify', samples: 15, suite: (f) => /^test\/[^/]+\.js$/.test(f), mutable: (f) => f === 'index.js' },
  // "test:unit": "borp" (node:test files, borp's default `test/**/*.test.js`; test/types is tsc's,
  // test/fixtures are plugins the tests load). Its tests `require('..')`, which the checker reads as
  // index.d.ts (the package's `types`): the declaration-file guess links them to index.js (ADR 172).
  {
    name: 'avvio',
    samples: 30,
    suite: (f) => /^test\/(?:[^/]+\/)*[^/]+\.test\.js$/.test(f) && !f.startsWith('test/types/'),
    mutable: (f) => /^(index|lib\/[^/]+)\.js$/.test(f),
  },
  // "test": "… borp …" (node:test files, borp's default `test/**/*.test.js`); an HTTP router whose
  // files each test a part (constraints, pretty-print, url sanitizing, methods, …). A
  // devDependency, pinned, with rfdc and proxyquire, which four of its tests require.
  {
    name: 'find-my-way',
    samples: 30,
    suite: (f) => /^test\/(?:[^/]+\/)*[^/]+\.test\.js$/.test(f) && !f.startsWith('test/types/'),
    mutable: (f) => /^(index|lib\/(?:[^/]+\/)*[^/]+)\.js$/.test(f),
  },
  // tape's own dependency (its version fixed by the lock file), a package whose suite follows its
  // modules: "tests-only": "nyc tape test/*.js", the async API's files (resolver.js, mock.js, …)
  // beside their `_sync` twins, and files for homedir, node-modules-paths and exports. Those
  // needing a devDependency not installed here (mkdirp, mv, tap) fail unchanged and are left out.
  { name: 'resolve', samples: 30, suite: (f) => /^test\/[^/]+\.js$/.test(f), mutable: (f) => /^(index|lib\/[^/]+)\.js$/.test(f) },
];

const SOURCE = /\.[cm]?[jt]sx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;

interface MutationResult {
  file: string;
  function: string;
  line: number;
  changed: string[];
  failing: string[];
  timedOut: string[];
  /** Test files whose run of the unchanged package executes the body (V8 coverage, ADR 190). */
  executed: string[];
  proven: string[];
  guessed: string[];
  holes: string[];
  /** Failing test files not in proven ∪ guessed. */
  missed: Array<{ file: string; tier: 'holes' | 'none' }>;
  /**
   * Failing test files not selected that execute the broken body neither in the unchanged suite
   * nor when run again with the break (ADR 190): failures of their own (timing tests under the
   * machine's load), listed apart with the rerun's result, not counted as misses nor as failing.
   */
  unrelated: Array<{ file: string; rerun: 'passes' | 'fails without executing the body' }>;
  /** |proven ∪ guessed| ∩ suite / |suite|. */
  share: number;
  ms: { kgTests: number; suite: number };
}

interface UnusedResult {
  id: string;
  kind: string;
  location: string;
  skipped?: string;
  newErrors: string[];
  newFailing: string[];
}

interface PackageResult {
  name: string;
  version: string;
  suite: string[];
  baselineFailing: string[];
  kgTestFiles: number;
  functions: number;
  mutations: MutationResult[];
  unused: UnusedResult[];
}

// KG_MUTATION_MODULES (header). A package found in neither is left out of the run, said on stderr.
const EXTRA_MODULES = process.env.KG_MUTATION_MODULES;

function packageDir(name: string): string {
  const paths = EXTRA_MODULES ? [REPO, path.dirname(EXTRA_MODULES)] : [REPO];
  return path.dirname(require.resolve(`${name}/package.json`, { paths }));
}

async function benchPackage(subject: Subject, samples: number): Promise<PackageResult> {
  const source = packageDir(subject.name);
  const version = (JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as { version: string }).version;
  const root = benchTemp(`${subject.name}@${version}`);
  prepareRepository(source, root);
  const files = repositoryFiles(root);
  const nodePath = [path.join(REPO, 'node_modules'), ...(EXTRA_MODULES ? [EXTRA_MODULES] : [])].join(path.delimiter);
  const runOpts: RunOptions = { nodePath, timeoutMs: TIMEOUT_MS, concurrency: CONCURRENCY };
  const allTests = files.filter(subject.suite);
  const baseline = await runSuite(root, allTests, runOpts);
  const suite = allTests.filter((f) => !baseline.failing.includes(f));
  log(
    `${subject.name}@${version}: ${suite.length} test files pass unchanged (${baseline.failing.length} fail: left out), ${baseline.ms} ms`,
  );

  // 1. Test selection.
  const sites: FunctionSite[] = [];
  for (const f of files.filter((x) => subject.mutable(x) && SOURCE.test(x) && !DECLARATION.test(x)))
    sites.push(...functionSites(f, fs.readFileSync(path.join(root, f), 'utf8')));
  // KG_MUTATION_ONLY (1-based positions in the sample, comma-separated) runs those mutations alone.
  const only = process.env.KG_MUTATION_ONLY?.split(',').map(Number);
  const chosen = sample(sites, samples, rng(SEED)).filter((_, i) => only === undefined || only.includes(i + 1));
  const mutations: MutationResult[] = [];
  const earlier = earlierFailing(subject.name);
  // The floor of any selection with full recall: the test files that execute each body (ADR 190).
  const executed = await executedBy(root, suite, chosen, runOpts);
  let kgTestFiles = 0;
  for (const [i, site] of chosen.entries()) {
    const abs = path.join(root, site.file);
    const text = fs.readFileSync(abs, 'utf8');
    fs.writeFileSync(abs, breakFunction(text, site));
    git(root, ['commit', '-q', '-am', `break ${site.name} (${site.file}:${site.line})`]);
    let t0 = Date.now();
    const sel = kgTests(root, 'HEAD~1', 'HEAD');
    const kgMs = Date.now() - t0;
    kgTestFiles = sel.testFiles;
    t0 = Date.now();
    const known = earlier?.get(`${site.file}:${site.line}:${site.name}`);
    const run = known ?? (await runSuite(root, suite, runOpts));
    const selected = new Set([...sel.proven, ...sel.guessed]);
    const missed: MutationResult['missed'] = [];
    const unrelated: MutationResult['unrelated'] = [];
    for (const f of run.failing.filter((x) => !selected.has(x))) {
      const again = await rerunMissed(root, f, site, runOpts);
      if (!again.executes && !executed[i].includes(f))
        unrelated.push({ file: f, rerun: again.fails ? 'fails without executing the body' : 'passes' });
      else missed.push({ file: f, tier: sel.holes.includes(f) ? 'holes' : 'none' });
    }
    git(root, ['reset', '-q', '--hard', 'HEAD~1']);
    const share = suite.filter((f) => selected.has(f)).length / suite.length;
    mutations.push({
      file: site.file,
      function: site.name,
      line: site.line,
      changed: sel.changed,
      failing: run.failing.filter((f) => !unrelated.some((u) => u.file === f)),
      timedOut: run.timedOut,
      executed: executed[i],
      proven: sel.proven,
      guessed: sel.guessed,
      holes: sel.holes,
      missed,
      unrelated,
      share,
      ms: { kgTests: kgMs, suite: run.ms },
    });
    log(
      `  ${i + 1}/${chosen.length} ${site.file}:${site.line} ${site.name}: ${run.failing.length} failing, ${executed[i].length} executing, selected ${selected.size} (${pct(share)})${missed.length ? `, MISSED ${missed.map((m) => `${m.file} [${m.tier}]`).join(', ')}` : ''}${unrelated.length ? `, failing without executing the body: ${unrelated.map((u) => `${u.file} (again: ${u.rerun})`).join(', ')}` : ''}`,
    );
  }

  // 2. kg unused.
  if (process.env.KG_MUTATION_UNUSED === '0')
    return {
      name: subject.name,
      version,
      suite,
      baselineFailing: baseline.failing,
      kgTestFiles,
      functions: sites.length,
      mutations,
      unused: [],
    };
  const graphPath = kgBuild(root);
  const unusedSymbols = kgUnused(root, graphPath);
  const checked = files.filter((f) => SOURCE.test(f));
  const check = new TypeCheck(root, checked);
  const baseErrors = check.errors();
  const unused: UnusedResult[] = [];
  for (const u of unusedSymbols) {
    const m = /^(.*):(\d+):(\d+)$/.exec(u.location);
    const file = m?.[1] ?? '';
    const abs = path.join(root, file);
    const text = fs.readFileSync(abs, 'utf8');
    const after = m ? deleteDeclaration(file, text, Number(m[2]), Number(m[3])) : { skipped: 'no location' };
    if (typeof after !== 'string') {
      unused.push({ id: u.id, kind: u.kind, location: u.location, skipped: after.skipped, newErrors: [], newFailing: [] });
      continue;
    }
    const errors = newErrors(baseErrors, check.errors({ file, text: after }));
    fs.writeFileSync(abs, after);
    const run = await runSuite(root, suite, runOpts);
    fs.writeFileSync(abs, text);
    unused.push({ id: u.id, kind: u.kind, location: u.location, newErrors: errors, newFailing: run.failing });
    if (errors.length > 0 || run.failing.length > 0)
      log(`  unused ${u.id}: BREAKS ${errors.length} type errors (${errors[0] ?? ''}), ${run.failing.length} failing tests`);
  }
  log(`  kg unused: ${unusedSymbols.length} symbols deleted one at a time`);
  fs.rmSync(path.join(root, '.knowledge-graph'), { recursive: true, force: true });
  return { name: subject.name, version, suite, baselineFailing: baseline.failing, kgTestFiles, functions: sites.length, mutations, unused };
}

/** The failing test files of each mutation of `name` in KG_MUTATION_FAILING's run, by site. */
function earlierFailing(name: string): Map<string, { failing: string[]; timedOut: string[]; ms: number }> | undefined {
  const file = process.env.KG_MUTATION_FAILING;
  if (file === undefined) return undefined;
  const run = JSON.parse(fs.readFileSync(file, 'utf8')) as { seed: number; results: PackageResult[] };
  if (run.seed !== SEED) throw new Error(`${file} is of seed ${run.seed}, not ${SEED}`);
  const r = run.results.find((x) => x.name === name);
  if (r === undefined) return undefined;
  return new Map(r.mutations.map((m) => [`${m.file}:${m.line}:${m.function}`, { failing: m.failing, timedOut: m.timedOut, ms: 0 }]));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function log(m: string): void {
  process.stderr.write(m + '\n');
}

async function main(): Promise<void> {
  const names = process.env.KG_MUTATION_PACKAGES?.split(',');
  const results: PackageResult[] = [];
  const started = Date.now();
  // KG_MUTATION_PACKAGES names the packages and their order.
  const subjects = names ? names.map((n) => SUBJECTS.find((x) => x.name === n)).filter((x): x is Subject => x !== undefined) : SUBJECTS;
  for (const s of subjects) {
    try {
      packageDir(s.name);
    } catch {
      log(`${s.name}: not installed here nor in KG_MUTATION_MODULES: left out of this run`);
      continue;
    }
    results.push(await benchPackage(s, Number(process.env.KG_MUTATION_SAMPLES ?? s.samples)));
  }

  const all = results.flatMap((r) => r.mutations);
  const failing = all.reduce((n, m) => n + m.failing.length, 0);
  const missed = all.reduce((n, m) => n + m.missed.length, 0);
  const recall = failing === 0 ? 1 : (failing - missed) / failing;
  const share = all.length === 0 ? 0 : all.reduce((n, m) => n + m.share, 0) / all.length;
  const deletions = results.flatMap((r) => r.unused);
  const breaks = deletions.filter((u) => u.newErrors.length > 0 || u.newFailing.length > 0);
  const bars = { recall: recall === 1, share: share <= 0.4, unused: breaks.length === 0 };

  const lines = [
    '| package | suite (test files) | functions (sampled) | mutations failing a test | failing test files | missed (holes / none) | failing without executing the body (left out) | recall | selection, mean share of the suite | proven only, mean share | failing, mean share | executing, mean share (no selection with full recall is smaller) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const f = r.mutations.reduce((n, m) => n + m.failing.length, 0);
    const holes = r.mutations.reduce((n, m) => n + m.missed.filter((x) => x.tier === 'holes').length, 0);
    const none = r.mutations.reduce((n, m) => n + m.missed.filter((x) => x.tier === 'none').length, 0);
    const unrelated = r.mutations.reduce((n, m) => n + m.unrelated.length, 0);
    const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    const provenShare = mean(r.mutations.map((m) => r.suite.filter((x) => m.proven.includes(x)).length / r.suite.length));
    const failingShare = mean(r.mutations.map((m) => m.failing.length / r.suite.length));
    const executedShare = mean(r.mutations.map((m) => m.executed.length / r.suite.length));
    lines.push(
      `| ${r.name}@${r.version} | ${r.suite.length} | ${r.functions} (${r.mutations.length}) | ${r.mutations.filter((m) => m.failing.length > 0).length} | ${f} | ${holes} / ${none} | ${unrelated} | ${pct(f === 0 ? 1 : (f - holes - none) / f)} | ${pct(mean(r.mutations.map((m) => m.share)))} | ${pct(provenShare)} | ${pct(failingShare)} | ${pct(executedShare)} |`,
    );
  }
  lines.push(
    '',
    '| package | `kg unused` symbols | deleted | skipped (no declaration to cut) | break the type-check | break a test |',
    '|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const d = r.unused.filter((u) => !u.skipped);
    lines.push(
      `| ${r.name}@${r.version} | ${r.unused.length} | ${d.length} | ${r.unused.length - d.length} | ${d.filter((u) => u.newErrors.length > 0).length} | ${d.filter((u) => u.newFailing.length > 0).length} |`,
    );
  }
  lines.push(
    '',
    `Recall ${pct(recall)} of ${failing} failing test files over ${all.length} mutations (bar 100%: ${bars.recall ? 'pass' : 'FAIL'}); selection ${pct(share)} of the suite on average (bar ≤ 40%: ${bars.share ? 'pass' : 'FAIL'}); ${breaks.length} of ${deletions.filter((u) => !u.skipped).length} deleted unused symbols break the type-check or a test (bar 0: ${bars.unused ? 'pass' : 'FAIL'}). ${((Date.now() - started) / 1000).toFixed(0)} s, seed ${SEED}.`,
  );
  console.log(lines.join('\n'));
  const out = path.join(REPO, 'bench', 'results', 'mutation.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ seed: SEED, recall, share, bars, results }, null, 2) + '\n');
  if (!bars.recall || !bars.share || !bars.unused) process.exitCode = 1;
}

void main();
