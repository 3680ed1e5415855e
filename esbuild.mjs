// One script, seven bundles: the extension host (vscode external), its graph worker, the CLI
// (self-contained), the builder with the TypeScript compiler (loaded lazily by all three), the
// organisation store for the editor (loaded lazily), the component tools (loaded by the builder
// only for `.vue`/`.svelte` files), and the webviews (browser). `--production` minifies and drops maps.

import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const production = process.argv.includes('--production');
/** `--watch` (npm run watch): rebuild each bundle when its sources change, until stopped. */
const watch = process.argv.includes('--watch');
const bundle = watch ? async (options) => (await esbuild.context(options)).watch() : (options) => esbuild.build(options);
const outdir = 'dist';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: watch ? 'info' : 'warning',
  legalComments: 'eof',
};

/**
 * The facade (src/graph/index.ts) loads the builder lazily; in the Node bundles that `require`
 * becomes a run-time load of dist/engine-build.js, so the TypeScript compiler stays out of
 * dist/cli.js and dist/extension.js.
 */
const splitBuilder = {
  name: 'split-builder',
  setup(build) {
    build.onResolve({ filter: /^\.\/indexer\/compiler\/engine$/ }, (args) =>
      args.kind === 'require-call' && args.importer.endsWith(path.join('src', 'graph', 'index.ts'))
        ? { path: './engine-build.js', external: true }
        : undefined,
    );
  },
};

/**
 * The editor loads the organisation store (and the `pg` client in it) only for a folder with
 * `knowledgeGraph.store` set (src/host/store-callers.ts): that `require` becomes a run-time load of
 * dist/store.js, so dist/extension.js does not carry `pg`. The agents' organisation answers
 * (src/agent/organisation.ts) are handed that module by the editor; their own `import` of it, which
 * the CLI bundles, is left out of the extension's bundle the same way.
 */
const STORE_IMPORTERS = [path.join('src', 'host', 'store-callers.ts'), path.join('src', 'agent', 'organisation.ts')];
const splitStore = {
  name: 'split-store',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/graph\/store$/ }, (args) =>
      STORE_IMPORTERS.some((f) => args.importer.endsWith(f)) ? { path: './store.js', external: true } : undefined,
    );
  },
};

/**
 * dagre (the SVG pictures' layout, ADR 156) is CommonJS, which esbuild keeps wherever it is
 * imported, used or not. It has no side effects when loaded: marked so, it is dropped from the
 * bundles that never draw an SVG (the extension and its worker), and only dist/cli.js carries it.
 */
const dagreHasNoSideEffects = {
  name: 'dagre-has-no-side-effects',
  setup(build) {
    build.onResolve({ filter: /^@dagrejs\// }, async (args) => {
      if (args.pluginData?.dagre) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { dagre: true },
      });
      return resolved.errors.length > 0 ? undefined : { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * The component tools (Vue's and Svelte's language tools, ADR 169) are a bundle of their own,
 * dist/component-tools.js, which the builder loads only when a build meets a `.vue` or `.svelte`
 * file: the builder's `require('./tools')` becomes a run-time load of it.
 */
const splitComponentTools = {
  name: 'split-component-tools',
  setup(build) {
    build.onResolve({ filter: /^\.\/tools$/ }, (args) =>
      args.kind === 'require-call' && args.importer.endsWith(path.join('components', 'transform.ts'))
        ? { path: './component-tools.js', external: true }
        : undefined,
    );
  },
};

/**
 * Inside dist/component-tools.js, `typescript` is the builder's own compiler, handed over at load
 * (src/graph/indexer/components/transform.ts): the tools never carry a second one.
 */
const sharedTypeScript = {
  name: 'shared-typescript',
  setup(build) {
    build.onResolve({ filter: /^typescript$/ }, () => ({ path: 'typescript', namespace: 'kg-shared-typescript' }));
    build.onLoad({ filter: /.*/, namespace: 'kg-shared-typescript' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_t, k) => globalThis[Symbol.for('knowledge-graph.typescript')][k] });",
      loader: 'js',
    }));
  },
};

fs.rmSync(outdir, { recursive: true, force: true });

await Promise.all([
  bundle({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: `${outdir}/extension.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    plugins: [splitBuilder, splitStore, dagreHasNoSideEffects],
  }),
  // The organisation store for the editor (src/graph/store), loaded only when a store is set.
  bundle({
    ...common,
    entryPoints: ['src/graph/store/index.ts'],
    outfile: `${outdir}/store.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['pg-native'],
  }),
  // The worker thread that holds a folder's graph for the extension host (src/host/graph-worker.ts).
  bundle({
    ...common,
    entryPoints: ['src/host/graph-worker.ts'],
    outfile: `${outdir}/graph-worker.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    plugins: [splitBuilder, splitStore, dagreHasNoSideEffects],
  }),
  bundle({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: `${outdir}/cli.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    // `pg` (the store's client, bundled) loads its optional native binding only when asked for
    // `pg.native`, which kg never does: left a run-time require, never bundled or installed.
    external: ['pg-native'],
    plugins: [splitBuilder],
  }),
  bundle({
    ...common,
    entryPoints: ['src/graph/indexer/compiler/engine.ts'],
    outfile: `${outdir}/engine-build.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    plugins: [splitComponentTools],
  }),
  bundle({
    ...common,
    entryPoints: ['src/graph/indexer/components/tools.ts'],
    outfile: `${outdir}/component-tools.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    plugins: [sharedTypeScript],
  }),
  bundle({
    ...common,
    entryPoints: { explorer: 'webview/explorer/main.ts', 'path-finder': 'webview/path-finder/main.ts' },
    outdir: `${outdir}/webview`,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
  }),
]);

// The bundled compiler finds its default libraries (lib.*.d.ts) next to the executing file.
const tsLib = path.dirname(require.resolve('typescript/lib/typescript.js'));
for (const f of fs.readdirSync(tsLib)) {
  if (/^lib(\..*)?\.d\.ts$/.test(f)) fs.copyFileSync(path.join(tsLib, f), path.join(outdir, f));
}
fs.copyFileSync(path.join(tsLib, '..', 'LICENSE.txt'), path.join(outdir, 'typescript-LICENSE.txt'));
// Vue's template helper types, which the code Vue's tools write references (ADR 169).
const vueTypes = path.join(path.dirname(require.resolve('@vue/language-core/package.json')), 'types');
fs.mkdirSync(path.join(outdir, 'component-types', 'vue'), { recursive: true });
for (const f of fs.readdirSync(vueTypes)) fs.copyFileSync(path.join(vueTypes, f), path.join(outdir, 'component-types', 'vue', f));
// The editor's own icon font for the webviews' banners (media/webview.css loads it under the CSP's
// font-src; docs/adr/0068-webview-security.md), with its licence (CC-BY-4.0) beside it.
const codicons = path.dirname(require.resolve('@vscode/codicons/dist/codicon.ttf'));
fs.mkdirSync(path.join(outdir, 'webview'), { recursive: true });
fs.copyFileSync(path.join(codicons, 'codicon.ttf'), path.join(outdir, 'webview', 'codicon.ttf'));
fs.copyFileSync(path.join(codicons, '..', 'LICENSE'), path.join(outdir, 'webview', 'codicon-LICENSE.txt'));
if (fs.existsSync(`${outdir}/cli.js`)) fs.chmodSync(`${outdir}/cli.js`, 0o755);

// `--native <vsce target>` (a platform-specific .vsix, ADR 115): TypeScript 7's binary for that
// platform goes to dist/native/typescript-<platform>-<arch>/, where the engine looks first. Without
// it (the universal .vsix) there is no binary and the native checker falls back to JavaScript.
const nativeAt = process.argv.indexOf('--native');
if (nativeAt !== -1) {
  const target = process.argv[nativeAt + 1] ?? '';
  // vsce's target names → the npm platform packages TypeScript 7 ships (alpine runs the static Go binary).
  const suffix = { 'linux-armhf': 'linux-arm', 'alpine-x64': 'linux-x64', 'alpine-arm64': 'linux-arm64' }[target] ?? target;
  const pkg = `@typescript/typescript-${suffix}`;
  let pkgDir;
  try {
    // The default release's binary, 7.1's (ADR 186): npm installs it inside its alias, typescript71.
    pkgDir = path.dirname(require.resolve(`${pkg}/package.json`, { paths: [path.dirname(require.resolve('typescript71/package.json'))] }));
  } catch {
    console.error(
      `esbuild.mjs: --native ${target}: ${pkg} is not installed (npm installs only this machine's); ` +
        `install it at the typescript71 version with: npm install --no-save --force ${pkg}@<version>`,
    );
    process.exit(1);
  }
  const dest = path.join(outdir, 'native', `typescript-${suffix}`);
  fs.mkdirSync(path.join(dest, 'lib'), { recursive: true });
  for (const f of ['package.json', 'LICENSE', 'NOTICE.txt']) fs.copyFileSync(path.join(pkgDir, f), path.join(dest, f));
  const exe = suffix.startsWith('win32') ? 'tsc.exe' : 'tsc';
  fs.copyFileSync(path.join(pkgDir, 'lib', exe), path.join(dest, 'lib', exe));
  fs.chmodSync(path.join(dest, 'lib', exe), 0o755);
  // The binary reads the default libraries from beside itself and stops at once without them
  // ("lib.d.ts does not exist"), so the package carries them too (ADR 186).
  for (const f of fs.readdirSync(path.join(pkgDir, 'lib')))
    if (/^lib\.[\w.-]*d\.ts$/.test(f)) fs.copyFileSync(path.join(pkgDir, 'lib', f), path.join(dest, 'lib', f));
}
if (watch) console.log('[watch] bundles rebuild on change; Ctrl+C stops');
