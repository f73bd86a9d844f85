/** Printwire's one clock and one backoff. */
export { FakeClock, systemClock, type Clock, type TimerClock, type TimerHandle } from './clock.js';
export { backoffMs, fullJitter } from './backoff.js';
