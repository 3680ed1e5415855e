// One script, three bundles: the extension host (vscode external), the CLI (self-contained,
// TypeScript compiler bundled), and the webview (browser). `--production` minifies and drops maps.

import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const production = process.argv.includes('--production');
const outdir = 'dist';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
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
    build.onResolve({ filter: /^\.\/build\/engine$/ }, (args) =>
      args.kind === 'require-call' && args.importer.endsWith(path.join('src', 'graph', 'index.ts'))
        ? { path: './engine-build.js', external: true }
        : undefined,
    );
  },
};

fs.rmSync(outdir, { recursive: true, force: true });

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: `${outdir}/extension.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    plugins: [splitBuilder],
  }),
  esbuild.build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: `${outdir}/cli.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [splitBuilder],
  }),
  esbuild.build({
    ...common,
    entryPoints: ['src/graph/build/engine.ts'],
    outfile: `${outdir}/engine-build.js`,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  }),
  esbuild.build({
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
fs.chmodSync(`${outdir}/cli.js`, 0o755);
