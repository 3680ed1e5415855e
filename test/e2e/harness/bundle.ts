// Bundles the in-host suite (test/e2e/inhost) into out/e2e/inhost/, where both launchers point
// the extension host: code-server (test/e2e/run.ts) and @vscode/test-electron (test/e2e/electron.ts).

import * as path from 'node:path';
import * as esbuild from 'esbuild';

export const REPO = path.resolve(__dirname, '..', '..', '..');

/** Returns the entry (extensionTestsPath) the extension host loads. */
export async function bundleInHostSuite(): Promise<string> {
  const src = path.join(REPO, 'test', 'e2e', 'inhost');
  const outdir = path.join(REPO, 'out', 'e2e', 'inhost');
  await esbuild.build({
    entryPoints: [path.join(src, 'index.ts'), path.join(src, 'suite.ts')],
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    // vscode is the host's; mocha is loaded from the repository's node_modules at run time
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return path.join(outdir, 'index.js');
}
