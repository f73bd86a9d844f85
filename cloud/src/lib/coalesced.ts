/**
 * A pass that is asked for more often than it runs: while one pass runs, every further request
 * is folded into one more pass after it (whatever arrived meanwhile is seen by that pass). The
 * outbox intake, the delivery worker and the mail sender each look at their table this way.
 */
export class CoalescedPass {
  private running: Promise<void> | undefined;
  private again = false;

  /**
   * @param pass  the work; it reads what is due itself, so one more run covers every request
   * @param onError  a failed pass is reported here and left to the next request
   */
  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Runs a pass, or folds into the one after the pass in progress; resolves when both ended. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } catch (err) {
        this.onError(err);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** True while a pass runs (or one more is folded in after it). */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when the pass in progress, if any, has ended. */
  async idle(): Promise<void> {
    await this.running;
  }
}
