// The host's end of one graph worker: typed requests, one promise each. If the worker dies (out of
// memory on a graph too large for it, a crash), every pending and later request fails with the
// reason, and `onExit` tells the service, which reports the folder's graph as unusable. No
// `vscode` here: the benchmark measures the host's event loop through this same class.

import { Worker } from 'node:worker_threads';
import type { WorkerOp, WorkerReplyMessage, WorkerRequestMessage, WorkerRequests } from '../protocol/graph-worker';

export class GraphWorkerClient {
  private readonly worker: Worker;
  private seq = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private dead: string | undefined;

  constructor(
    script: string,
    private readonly onExit?: (reason: string) => void,
  ) {
    this.worker = new Worker(script, {
      // The extension host's flags (an inspector port, a heap size) are its own.
      execArgv: [],
      // A limit, not an allocation: the 1,000,000-edge graph needs about 1 GB of heap to load
      // (docs/adr/0023), more than a worker's default on small machines. The loader refuses,
      // with the reason, a file this heap cannot hold.
      resourceLimits: { maxOldGenerationSizeMb: 4096 },
      stdout: false,
      stderr: false,
    });
    this.worker.on('message', (m: WorkerReplyMessage) => {
      const p = this.pending.get(m.seq);
      if (!p) return;
      this.pending.delete(m.seq);
      if (this.pending.size === 0) this.worker.unref();
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.error));
    });
    this.worker.on('error', (e) => this.die(`the graph worker failed: ${e.message}`));
    this.worker.on('exit', (code) => this.die(`the graph worker stopped (exit code ${code})`));
    // A worker waiting for requests must not keep a plain Node process (the benchmark, a test)
    // alive; one with a request in flight must.
    this.worker.unref();
  }

  private die(reason: string): void {
    if (this.dead) return;
    this.dead = reason;
    for (const p of this.pending.values()) p.reject(new Error(reason));
    this.pending.clear();
    this.onExit?.(reason);
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  request<K extends WorkerOp>(op: K, args: WorkerRequests[K]['args']): Promise<WorkerRequests[K]['result']> {
    if (this.dead) return Promise.reject(new Error(this.dead));
    const seq = ++this.seq;
    const msg: WorkerRequestMessage<K> = { seq, op, args };
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(seq, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage(msg);
    });
  }

  /** Stops the worker; its graph's memory goes with it. Pending requests fail. */
  async terminate(): Promise<void> {
    this.die('the graph was replaced or closed');
    await this.worker.terminate();
  }
}
