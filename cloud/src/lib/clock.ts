/** Time as the app sees it; tests pass a clock they move by hand. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock for tests: starts at `start` and only moves when told. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.parse('2026-01-15T12:00:00.000Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}
