// `npm run package:native [-- <vsce target>]`: the platform-specific .vsix, with TypeScript 7's
// binary for that platform (default: this machine's) beside the bundles, for the native checker
// (ADR 113, 115). `npm run package` stays the universal .vsix with the JavaScript checker only.

import { execFileSync } from 'node:child_process';

const targets = { 'linux-arm': 'linux-armhf' };
const here = `${process.platform}-${process.arch}`;
const target = process.argv[2] ?? targets[here] ?? here;
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' });
run(process.execPath, ['esbuild.mjs', '--production', '--native', target]);
run('npx', [
  'vsce',
  'package',
  '--target',
  target,
  '--no-dependencies',
  '--readme-path',
  'docs/marketplace/README.md',
  '--no-rewrite-relative-links',
  '--out',
  `knowledge-graph-${target}.vsix`,
]);
