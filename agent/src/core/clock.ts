/**
 * The agent's clock is Printwire's one clock (`@printwire/shared/time/clock`); the agent's parts
 * run timers on it, so here `Clock` is the clock with timers.
 */
export {
  FakeClock,
  systemClock,
  type TimerClock as Clock,
  type TimerHandle,
} from '@printwire/shared/time/clock';
