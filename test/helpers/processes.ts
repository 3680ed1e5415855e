// Which processes are running, read from /proc: a cancelled or failed build must leave none.

import * as fs from 'node:fs';

/** Build processes (a command line with cli.js) working on `root`. */
export function buildProcessesOf(root: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes('cli.js') && cmd.includes(root)) found.push(`${pid} ${cmd}`);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}
