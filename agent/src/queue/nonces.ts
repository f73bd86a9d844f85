import type { QueueDb } from './queue-db.js';

/**
 * The nonces of signed local requests, kept in the queue's database so that a request replayed
 * after a restart is still refused.
 */
export class NonceStore {
  readonly #db: QueueDb;

  constructor(db: QueueDb) {
    this.#db = db;
  }

  /**
   * Remembers the nonce; false when it was seen within the last `windowSeconds` (older ones are
   * forgotten: their timestamp can no longer pass).
   */
  remember(nonce: string, nowSeconds: number, windowSeconds: number): boolean {
    return this.#db.transaction(() => {
      this.#db
        .sql('DELETE FROM local_nonces WHERE seen_at < ?')
        .run(nowSeconds - 2 * windowSeconds);
      return (
        this.#db
          .sql('INSERT OR IGNORE INTO local_nonces (nonce, seen_at) VALUES (?, ?)')
          .run(nonce, nowSeconds).changes === 1
      );
    });
  }
}
