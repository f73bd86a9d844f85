/**
 * Batched: calls that arrive while the previous batch runs are answered together by one call of
 * `run`. An idle cloud answers a call alone, on the next turn of the event loop (no timer, no
 * added wait); a reconnect storm's hundreds of token lookups and hellos become a few dozen
 * queries, because each batch gathers the calls that arrived while the one before it ran.
 */
export class Batched<K, V> {
  private waiting: Array<{ key: K; resolve: (v: V) => void; reject: (e: unknown) => void }> = [];
  private running = false;
  private scheduled = false;

  /**
   * @param run answers `keys` in their order (one value per key); a rejection rejects every call
   *   of its batch.
   * @param maxBatch most calls one run answers.
   */
  constructor(
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly maxBatch = 256,
  ) {}

  call(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    // After the I/O callbacks of this turn: the calls they made join the batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.next();
    });
  }

  private async next(): Promise<void> {
    const batch = this.waiting.splice(0, this.maxBatch);
    this.running = true;
    try {
      const values = await this.run(batch.map((w) => w.key));
      if (values.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} was answered with ${values.length} values`);
      }
      batch.forEach((w, i) => w.resolve(values[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}
