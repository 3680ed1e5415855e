// Process groups and condition waits, shared by the harness and its launcher.

/** Whether any process of the group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `check` until it returns true; throws with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string, everyMs = 100): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Stops every process of the group: SIGTERM, up to `graceMs` for them to exit, then SIGKILL.
 * Throws if something survives, so a leak fails the run instead of going unnoticed.
 */
export async function killGroup(pgid: number, graceMs = 8000): Promise<void> {
  if (!groupAlive(pgid)) return;
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return;
  }
  try {
    await waitFor(() => !groupAlive(pgid), graceMs, `process group ${pgid} to exit`);
    return;
  } catch {
    // some child ignored SIGTERM: escalate
  }
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    return;
  }
  await waitFor(() => !groupAlive(pgid), 5000, `process group ${pgid} to die after SIGKILL`);
}
