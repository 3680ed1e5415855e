// The only file of the CLI that touches `process`.

import { run } from './run';

// A reader that stops early (`kg build | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), stdin: process.stdin }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`kg: internal error: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
