import { FakeClock } from '@printwire/shared/time/clock';

/** Time as the app sees it: Printwire's one clock (`@printwire/shared/time/clock`). */
export { systemClock, type Clock } from '@printwire/shared/time/clock';

/** The test clock, starting by default at 2026-01-15T12:00:00Z (the cloud's tests count on it). */
export class ManualClock extends FakeClock {
  constructor(start: number = Date.parse('2026-01-15T12:00:00.000Z')) {
    super(start);
  }
}
