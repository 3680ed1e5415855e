// Which saves call for a build (issue 55, item 3): a save of the text a build already read, or is
// about to read, calls for none. With the web workbench's autosave, a Ctrl+S after it saved the
// same text again and queued a second build behind the first ("0 changed"), so every save paid for
// two builds back to back. Plain data, no `vscode`: unit-tested in Node (test/unit/host-save-coalescer.test.ts).

export class SaveCoalescer {
  /** Saves since the last build started: what the next build will read, by file. */
  private readonly pending = new Map<string, string>();
  /** What the builds that started read of each file saved since the graph `coveredGraph` was loaded. */
  private readonly covered = new Map<string, string>();
  private coveredGraph: number;

  constructor(
    /** The SHA-256 the loaded graph was built from for a file, if known (its manifest's). */
    private readonly built: (file: string) => string | undefined,
    /** Which graph is loaded (GraphService.graphOf): another one says itself what it was built from. */
    private readonly graphNo: () => number,
  ) {
    this.coveredGraph = graphNo();
  }

  /**
   * A file was saved with text of SHA-256 `hash`: whether a build is needed. Not when a build that
   * started since the save before, or the one already waiting, reads this text, nor when it is
   * the text the graph was built from and no build since read another.
   */
  saved(file: string, hash: string): boolean {
    const waiting = this.pending.get(file);
    if (waiting !== undefined) {
      this.pending.set(file, hash);
      return waiting !== hash;
    }
    if (this.graphNo() !== this.coveredGraph) this.covered.clear();
    const last = this.covered.get(file) ?? this.built(file);
    if (last === hash) return false;
    this.pending.set(file, hash);
    return true;
  }

  /** A build started: it reads what the saves so far wrote. */
  started(): void {
    const now = this.graphNo();
    if (now !== this.coveredGraph) this.covered.clear();
    this.coveredGraph = now;
    for (const [f, h] of this.pending) this.covered.set(f, h);
    this.pending.clear();
  }

  /** A build failed or was cancelled: what it read is not in any graph, so the next save of it builds again. */
  failed(): void {
    this.covered.clear();
  }
}
