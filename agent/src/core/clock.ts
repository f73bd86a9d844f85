/** A timer handle as the clock hands it out; opaque to callers. */
export type TimerHandle = { readonly id: unknown };

/**
 * Time as the agent sees it. Everything time-dependent (retry backoff, status polls, heartbeats,
 * reconnects) takes one, so tests drive time instead of sleeping.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const id = setTimeout(fn, ms);
    return { id };
  },
  clearTimeout: (handle) => clearTimeout(handle.id as ReturnType<typeof setTimeout>),
};

/** A clock for tests: time moves only when `advance` is called; due timers run in order. */
export class FakeClock implements Clock {
  #now: number;
  #timers: Array<{ handle: TimerHandle; at: number; fn: () => void; seq: number }> = [];
  #seq = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = { id: ++this.#seq };
    this.#timers.push({ handle, at: this.#now + Math.max(0, ms), fn, seq: this.#seq });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#timers = this.#timers.filter((t) => t.handle !== handle);
  }

  /** Timers pending, for assertions. */
  get pending(): number {
    return this.#timers.length;
  }

  /** When the next timer fires, or null. */
  nextAt(): number | null {
    return this.#timers.reduce<number | null>((m, t) => (m === null || t.at < m ? t.at : m), null);
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = this.#timers
        .filter((t) => t.at <= end)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.fn();
    }
    this.#now = end;
  }
}
