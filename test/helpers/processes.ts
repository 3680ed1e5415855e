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

/**
 * The kg processes working on `root`, without the copies a fork shows for an instant: a process
 * that starts a child (kg build runs git) is, between fork and exec, two processes with one
 * command line, the child's parent being the other.
 */
export function kgProcessesOf(root: string): string[] {
  const found = buildProcessesOf(root);
  const byPid = new Map(found.map((p) => [p.slice(0, p.indexOf(' ')), p.slice(p.indexOf(' ') + 1)]));
  return found.filter((p) => {
    const pid = p.slice(0, p.indexOf(' '));
    let parent: string | undefined;
    try {
      // The parent pid is the fourth field of /proc/<pid>/stat, after the command in parentheses.
      parent = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
    } catch {
      return false; // it ended while we looked
    }
    return parent === undefined || byPid.get(parent) !== byPid.get(pid);
  });
}
