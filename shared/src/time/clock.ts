/**
 * Time as Printwire's programs see it: the one clock of the cloud, the agent and the tests.
 * Everything time-dependent (expiry, retry backoff, status polls, heartbeats, reconnects,
 * signature windows) takes one, so tests drive time instead of sleeping.
 */

/** A timer handle as a clock hands it out; opaque to callers. */
export type TimerHandle = { readonly id: unknown };

/** Reads the time. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Reads the time and runs timers (the agent's workers and links). */
export interface TimerClock extends Clock {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: TimerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const id = setTimeout(fn, ms);
    return { id };
  },
  clearTimeout: (handle) => clearTimeout(handle.id as ReturnType<typeof setTimeout>),
};

/** A clock for tests: time moves only when `advance` or `set` is called; due timers run in order. */
export class FakeClock implements TimerClock {
  #now: number;
  #timers: Array<{ handle: TimerHandle; at: number; fn: () => void; seq: number }> = [];
  #seq = 0;

  /** `start`: epoch milliseconds; default 2026-01-01T00:00:00Z. */
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

  /** Sets the time: forward runs the timers due on the way, as `advance` does; back runs none. */
  set(ms: number): void {
    if (ms >= this.#now) this.advance(ms - this.#now);
    else this.#now = ms;
  }
}
