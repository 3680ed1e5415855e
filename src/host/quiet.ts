// Readiness as a promise: `whenQuiet()` resolves once the owner's work is done — no timer waiting
// to fire, no request in flight — told by the owner's own `changed()` calls, never by polling.
// The graph service and the breaking-change guard each keep one (their `settled()`); the in-host
// tests, the language-model build tool and the benchmark await it. Plain code, no editor API, so a
// unit test drives it (test/unit/host-quiet.test.ts).

export class Quiet {
  private waiters: Array<() => void> = [];
  private scheduled = false;

  /** `busy`: whether any work is waiting or running now. */
  constructor(private readonly busy: () => boolean) {}

  /** Resolves once nothing is busy: at once when nothing is, else at the first `changed()` that finds it so. */
  whenQuiet(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Some work began or ended. Waiters are told on the next turn of the event loop, and only if
   * nothing is busy then: work chained on what ended (a request sent from its continuation, a timer
   * set in its callback) has had its chance to count first.
   */
  changed(): void {
    if (this.waiters.length === 0 || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.busy()) return;
      for (const w of this.waiters.splice(0)) w();
    });
  }
}
