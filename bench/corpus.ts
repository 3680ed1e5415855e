// Real TypeScript code nobody here wrote, from npm: rxjs, zod and fabric ship their .ts sources.
// Each corpus is copied (sources + a tsconfig) into a folder of its own so it is a repository root.
// fabric is a TypeScript 5 era code base (its package.json names typescript ^5.5.4, its tsconfig
// uses `moduleResolution: node`) with classes merged with interfaces, static/instance twins,
// mixins, `new this()` in static factories and `typeof` object APIs.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface Corpus {
  name: string;
  version: string;
  root: string;
}

const REPO = path.join(__dirname, '..');

function copyDir(src: string, dest: string, keep: (name: string) => boolean = () => true): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    const d = path.join(dest, e.name);
    if (e.isDirectory()) copyDir(s, d, keep);
    else if (e.isFile() && keep(e.name)) fs.copyFileSync(s, d);
  }
}

export type CorpusName = 'rxjs' | 'zod' | 'fabric';
/** Corpora for the benchmark only (the correctness reference runs on the others). */
type BenchCorpusName = CorpusName | 'msal-browser';

function pkgDir(name: BenchCorpusName): string {
  // msal-browser (installed with @vscode/vsce) ships its sources and calls @azure/msal-common,
  // which ships declaration maps and sources: the corpus of calls into packages (ADR 107).
  return path.join(REPO, 'node_modules', name === 'msal-browser' ? '@azure/msal-browser' : name);
}

/** Makes (once per version) and returns the corpus folder. `into` forces a fresh copy there. */
export function corpus(name: BenchCorpusName, into?: string): Corpus {
  const src = pkgDir(name);
  const version = (JSON.parse(fs.readFileSync(path.join(src, 'package.json'), 'utf8')) as { version: string }).version;
  const root = into ?? path.join(os.tmpdir(), 'kg-corpus', `${name}-${version}`);
  const marker = path.join(root, '.corpus-complete');
  if (!into && fs.existsSync(marker)) return { name, version, root };
  fs.rmSync(root, { recursive: true, force: true });
  if (name === 'fabric') {
    // Its own config and package.json (which names the TypeScript it is written for), its sources
    // without the unit tests (jest specs: their globals come from packages not installed here).
    const source = (f: string) => !/\.(spec|test)\.ts$/.test(f);
    copyDir(path.join(src, 'src'), path.join(root, 'src'), source);
    copyDir(path.join(src, 'extensions'), path.join(root, 'extensions'), source);
    for (const f of ['fabric.ts', 'index.ts', 'index.node.ts', 'tsconfig.json', 'package.json'])
      fs.copyFileSync(path.join(src, f), path.join(root, f));
    if (!into) fs.writeFileSync(marker, '');
    return { name, version, root };
  }
  copyDir(path.join(src, 'src'), path.join(root, 'src'));
  if (name === 'msal-browser') {
    // Its packages are this repository's installed ones, as an install would give it.
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'msal-browser-corpus', private: true }) + '\n');
  }
  if (name === 'rxjs') {
    // rxjs's own root config: strict, paths for its public entry points.
    fs.copyFileSync(path.join(src, 'tsconfig.json'), path.join(root, 'tsconfig.json'));
  } else {
    fs.writeFileSync(
      path.join(root, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'Bundler',
            lib: ['ES2022', 'DOM'],
            skipLibCheck: true,
            noEmit: true,
          },
          include: ['src'],
        },
        null,
        2,
      ) + '\n',
    );
  }
  if (!into) fs.writeFileSync(marker, '');
  return { name, version, root };
}

/** A package fetched once with `npm pack` and unpacked (its `package/` folder), probed by one of its files. */
function npmPacked(name: string, version: string, ...probe: string[]): string {
  // npm names a scoped package's tarball without the `@` and with `-` for the `/`.
  const flat = name.replace(/^@/, '').replace('/', '-');
  const cache = path.join(os.tmpdir(), 'kg-corpus', `${flat}-pack-${version}`);
  const dir = path.join(cache, 'package');
  if (!fs.existsSync(path.join(dir, ...probe))) {
    fs.mkdirSync(cache, { recursive: true });
    execFileSync('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: cache, stdio: 'ignore' });
    execFileSync('tar', ['xzf', `${flat}-${version}.tgz`], { cwd: cache });
  }
  return dir;
}

/**
 * effect 3.19.0's src/ (361 TypeScript modules, which read each other mostly through namespace
 * imports: `import * as Option from "./Option.js"`), with a tsconfig of its own: the second
 * repository of the name-level invalidation's measurements (ADR 118). Not installed with this
 * repository; `npm pack` fetches it from the registry once.
 */
export function effectCorpus(into?: string): Corpus {
  const version = '3.19.0';
  const packed = npmPacked('effect', version, 'src', 'Function.ts');
  const root = into ?? path.join(os.tmpdir(), 'kg-corpus', `effect-${version}`);
  const marker = path.join(root, '.corpus-complete');
  if (!into && fs.existsSync(marker)) return { name: 'effect', version, root };
  fs.rmSync(root, { recursive: true, force: true });
  copyDir(path.join(packed, 'src'), path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'effect-corpus', private: true, type: 'module' }) + '\n');
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
        },
        include: ['src'],
      },
      null,
      2,
    ) + '\n',
  );
  if (!into) fs.writeFileSync(marker, '');
  return { name: 'effect', version, root };
}

/**
 * three.js 0.170.0's src/ and examples/jsm/ (1,039 JavaScript modules) with a jsconfig that maps
 * `three` to its own source: the repository of 800+ files for the editor's measurements. It is
 * not installed with this repository; `npm pack` fetches it from the registry once.
 */
export function threeCorpus(into?: string): Corpus {
  const version = '0.170.0';
  const packed = npmPacked('three', version, 'src', 'Three.js');
  const root = into ?? path.join(os.tmpdir(), 'kg-corpus', `three-${version}`);
  const marker = path.join(root, '.corpus-complete');
  if (!into && fs.existsSync(marker)) return { name: 'three', version, root };
  fs.rmSync(root, { recursive: true, force: true });
  copyDir(path.join(packed, 'src'), path.join(root, 'src'));
  copyDir(path.join(packed, 'examples', 'jsm'), path.join(root, 'examples', 'jsm'));
  fs.writeFileSync(
    path.join(root, 'jsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          allowJs: true,
          checkJs: false,
          module: 'ESNext',
          moduleResolution: 'Bundler',
          target: 'ES2022',
          baseUrl: '.',
          paths: { three: ['./src/Three.js'], 'three/addons/*': ['./examples/jsm/*'] },
        },
        include: ['src', 'examples/jsm'],
      },
      null,
      2,
    ) + '\n',
  );
  if (!into) fs.writeFileSync(marker, '');
  return { name: 'three', version, root };
}

/**
 * Babylon.js 9.35.0's core engine as written: 3,382 TypeScript modules (23 MB), the repository of
 * 3,000 files that `kg diff`'s ref build is measured on (ADR 129). The package ships compiled
 * ES modules whose source maps carry each module's TypeScript source (`sourcesContent`); those
 * sources are written back to `src/` at the path each map names, with the one declaration file
 * the package ships without a module beside it (`Engines/engine.d.ts`: the WebGPU and WebXR
 * declarations, in `declare global`), and a tsconfig for what the sources use: `core/*` paths,
 * legacy decorators, strict null checks. Not installed with this repository; `npm pack` fetches
 * it from the registry once.
 */
export function babylonCorpus(into?: string): Corpus {
  const version = '9.35.0';
  const packed = npmPacked('@babylonjs/core', version, 'scene.js.map');
  const root = into ?? path.join(os.tmpdir(), 'kg-corpus', `babylon-${version}`);
  const marker = path.join(root, '.corpus-complete');
  if (!into && fs.existsSync(marker)) return { name: 'babylon', version, root };
  fs.rmSync(root, { recursive: true, force: true });
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      if (!e.isFile() || !e.name.endsWith('.js.map')) continue;
      const map = JSON.parse(fs.readFileSync(abs, 'utf8')) as { sources: string[]; sourcesContent?: string[] };
      // Each map names its source up to the Babylon.js repository's root: `../…/dev/core/src/<path>.ts`.
      const inSrc = /(?:^|\/)dev\/core\/src\/(.+\.ts)$/.exec(map.sources[0] ?? '');
      if (map.sources.length !== 1 || map.sourcesContent?.length !== 1 || !inSrc || inSrc[1].split('/').includes('..'))
        throw new Error(`@babylonjs/core ${version}: ${abs} does not carry one source of dev/core/src`);
      const dest = path.join(root, 'src', ...inSrc[1].split('/'));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, map.sourcesContent[0]);
    }
  };
  walk(packed);
  fs.copyFileSync(path.join(packed, 'Engines', 'engine.d.ts'), path.join(root, 'src', 'Engines', 'engine.d.ts'));
  fs.writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'babylon-corpus', private: true, type: 'module', devDependencies: { typescript: '^5.8.0' } }, null, 2) + '\n',
  );
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2021',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2021', 'DOM'],
          experimentalDecorators: true,
          strictNullChecks: true,
          skipLibCheck: true,
          noEmit: true,
          paths: { 'core/*': ['./src/*'], '@babylonjs/core': ['./src/index'], '@babylonjs/core/*': ['./src/*'] },
        },
        include: ['src'],
      },
      null,
      2,
    ) + '\n',
  );
  if (!into) fs.writeFileSync(marker, '');
  return { name: 'babylon', version, root };
}

/**
 * A corpus as a project written for TypeScript 7 would have it, for the native checker (ADR 113,
 * 114), which declines options TypeScript 7 removed: a package.json naming TypeScript 7, so
 * TypeScript 5's defaults (ADR 81) are not applied, and for rxjs its config migrated the way
 * TypeScript 7 asks (`moduleResolution: node` → `bundler` with `module: esnext`; `baseUrl`
 * dropped, its `paths` already relative). Both checkers build the same copy.
 */
export function corpusForTs7(name: 'rxjs' | 'zod', into?: string): Corpus {
  const base = corpus(name);
  const root = into ?? base.root + '-ts7';
  const marker = path.join(root, '.corpus-complete');
  const named = { ...base, name: `${name}-ts7`, root };
  if (!into && fs.existsSync(marker)) return named;
  fs.rmSync(root, { recursive: true, force: true });
  copyDir(base.root, root, (f) => f !== '.corpus-complete');
  fs.writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: `${name}-ts7-corpus`, private: true, devDependencies: { typescript: '^7.0.0' } }, null, 2) + '\n',
  );
  if (name === 'rxjs') {
    const file = path.join(root, 'tsconfig.json');
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { compilerOptions: Record<string, unknown> };
    delete config.compilerOptions.baseUrl;
    config.compilerOptions.module = 'esnext';
    config.compilerOptions.moduleResolution = 'bundler';
    fs.writeFileSync(file, JSON.stringify(config, null, 2) + '\n');
  }
  if (!into) fs.writeFileSync(marker, '');
  return named;
}

/** The file the incremental benchmark items edit, in the rxjs corpus. */
export const EDIT_FILE = 'src/internal/operators/map.ts';

/**
 * The one-line edit: a line of code inside a function body changes and gains a call
 * (`let index = 0;` → `let index = Number(0);`), the kind of edit made while working.
 */
export function editOneLine(text: string): string {
  const before = 'let index = 0;';
  if (!text.includes(before)) throw new Error(`${EDIT_FILE} no longer holds "${before}"`);
  return text.replace(before, 'let index = Number(0);');
}
