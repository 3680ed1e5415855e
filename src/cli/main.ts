// The kg command's entry. Only this file and the build server (server.ts, which manages
// processes) touch `process`.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactCredentials } from '../graph';
import { run } from './run';
import type { ServerContext } from './server';
import { serverOff } from '../build-server/client';

// A reader that stops early (`kg build | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

function script(): string {
  try {
    return fs.realpathSync(process.argv[1] ?? __filename);
  } catch {
    return __filename;
  }
}

const server: ServerContext = {
  execPath: process.execPath,
  script: script(),
  off: serverOff(process.env),
  // Absolute: a server runs in the repository's folder, and must find the folder its client meant.
  dir: process.env.KG_SERVER_DIR ? path.resolve(process.env.KG_SERVER_DIR) : undefined,
  pid: process.pid,
  onStop: (handler) => {
    process.on('SIGTERM', handler);
    process.on('SIGINT', handler);
    return () => {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
    };
  },
};

run(
  process.argv.slice(2),
  { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), stdin: process.stdin, env: process.env },
  {
    server,
    stdio: { stdin: process.stdin, stdout: process.stdout },
  },
).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`kg: internal error: ${redactCredentials(String(e))}\n`);
    process.exitCode = 1;
  },
);
