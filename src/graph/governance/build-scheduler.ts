// autoIndex's rebuild timing (ADR-74): saves are debounced; at most one build runs and at most
// one waits behind it, however many saves arrive meanwhile (they all fold into the waiting one).
// A failed build is reported and changes nothing else: the previous graph stays, and the next
// save tries again. No `vscode` and injectable timers, so it is unit-tested without an editor.

export interface SchedulerTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

type BuildOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface BuildSchedulerOptions<T> {
  /** Quiet time after the last save before a build starts. */
  delayMs: number;
  /** Each build's outcome, in order (e.g. refresh the lenses, or say why in the status bar). */
  onSettled?: (outcome: BuildOutcome<T>) => void;
  timers?: SchedulerTimers;
}

export type SchedulerState = 'idle' | 'waiting' | 'running' | 'running+queued';

/** Default debounce: long enough to fold "save all", short enough for the 2-second lens bar. */
export const AUTO_INDEX_DELAY_MS = 300;

export class BuildScheduler<T> {
  private timer: unknown;
  private running: Promise<void> | undefined;
  private queued = false;
  private disposed = false;
  private readonly timers: SchedulerTimers;

  constructor(
    private readonly build: () => Promise<T>,
    private readonly options: BuildSchedulerOptions<T>,
  ) {
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    };
  }

  get state(): SchedulerState {
    if (this.running) return this.queued ? 'running+queued' : 'running';
    return this.timer !== undefined ? 'waiting' : 'idle';
  }

  /** A save happened: (re)start the quiet period. */
  request(): void {
    if (this.disposed) return;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, this.options.delayMs);
  }

  /** Build now (a command, or a test), still one at a time. */
  flush(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.fire();
  }

  /** Resolves once nothing is waiting or running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops future builds; the one running (if any) finishes and is still reported. */
  dispose(): void {
    this.disposed = true;
    this.queued = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    if (this.disposed) return;
    if (this.running) {
      this.queued = true;
      return;
    }
    this.running = this.runOnce();
  }

  private async runOnce(): Promise<void> {
    let outcome: BuildOutcome<T>;
    try {
      outcome = { ok: true, value: await this.build() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    try {
      this.options.onSettled?.(outcome);
    } catch {
      // A listener's failure must not stop the next build.
    }
    if (this.queued && !this.disposed) {
      this.queued = false;
      this.running = this.runOnce();
    } else {
      this.running = undefined;
    }
  }
}
