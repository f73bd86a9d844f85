/**
 * Bounded handshake work. A connecting agent costs the gateway a token lookup, then its hello
 * (printers upserted, the device marked online, its configuration read, its backlog looked up):
 * several database round trips. When thousands of agents reconnect at once (a deploy, a balancer
 * restart), doing all of them at the same time makes each slower than the agents' handshake
 * timeout, they give up and come back, and the work done for them is lost. The gate lets
 * `concurrency` handshakes run at once and queues as many more as it can expect to serve within
 * `maxWaitMs` (before the agents' handshake timeout), first come, first served; it refuses the
 * rest at once, cheaply, with a hint of when to come back (503 + Retry-After). What it can serve
 * is the larger of how many it finished in the last `maxWaitMs` and half of what its recent pace
 * allows (`concurrency` turns at a time, each as long as the recent ones took on average): the
 * first gives the pace in a storm, the second lets the first seconds of a storm queue what the
 * gateway can do instead of only 2 × `concurrency` (an idle gateway finished none lately). At
 * least 2 × `concurrency`, at most `queue`.
 */
export interface HandshakeGateOptions {
  /** Handshakes (token lookup to welcome) running at once. */
  concurrency: number;
  /** Most handshakes waiting for a turn; beyond it, refused with a retry hint. */
  queue: number;
  /** The longest a queued handshake should wait (the queue follows the recent pace). */
  maxWaitMs?: number;
  /** Epoch ms; injected by tests. */
  now?: () => number;
}

export type Release = () => void;

export class HandshakeGate {
  private running = 0;
  private readonly waiting: Array<(release: Release) => void> = [];
  /** When recent handshakes finished, oldest first (those within maxWaitMs). */
  private readonly finished: number[] = [];
  /** How long a turn took, ms, on average over the recent ones (none yet: undefined). */
  private turnMs: number | undefined;
  private readonly now: () => number;

  constructor(private readonly options: HandshakeGateOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Handshakes allowed to wait now: as many as finished in the last maxWaitMs. */
  private queueLimit(): number {
    const since = this.now() - (this.options.maxWaitMs ?? 5000);
    while (this.finished.length > 0 && this.finished[0]! < since) this.finished.shift();
    const maxWaitMs = this.options.maxWaitMs ?? 5000;
    const byPace =
      this.turnMs === undefined
        ? 0
        : Math.floor((this.options.concurrency * maxWaitMs) / Math.max(1, this.turnMs) / 2);
    return Math.min(
      this.options.queue,
      Math.max(2 * this.options.concurrency, this.finished.length, byPace),
    );
  }

  /** Handshakes running and waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * A turn: resolves with the function that ends it (call it once; later calls do nothing), or
   * undefined at once when the queue is full. `cancelled` resolving while still queued gives the
   * place up (the agent hung up) and resolves undefined.
   */
  enter(cancelled?: Promise<unknown>): Promise<Release | undefined> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.queueLimit()) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const take = (release: Release) => resolve(release);
      this.waiting.push(take);
      void cancelled?.then(() => {
        const at = this.waiting.indexOf(take);
        if (at < 0) return;
        this.waiting.splice(at, 1);
        resolve(undefined);
      });
    });
  }

  private releaser(): Release {
    let done = false;
    const started = this.now();
    return () => {
      if (done) return;
      done = true;
      const now = this.now();
      this.finished.push(now);
      // An average that follows the last few dozen turns.
      const took = now - started;
      this.turnMs = this.turnMs === undefined ? took : this.turnMs + (took - this.turnMs) / 32;
      const next = this.waiting.shift();
      if (next) next(this.releaser());
      else this.running--;
    };
  }
}
