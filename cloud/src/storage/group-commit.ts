/**
 * Group commit for SQLite: write units that arrive while a transaction is being committed wait and
 * then run together in the next transaction, each inside its own savepoint (a failing unit rolls
 * back alone). One synchronous=FULL commit then makes a whole batch durable, so the cost of the
 * sync is shared by every request in the batch instead of paid by each.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

type Unit = {
  run: (trx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

export interface GroupCommitOptions {
  /** Most units per transaction. Default 256. */
  maxBatch?: number;
}

export class GroupCommitter {
  private queue: Unit[] = [];
  private running = false;
  private readonly maxBatch: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
  }

  /** Runs `fn` in a transaction; resolves once that transaction is committed. */
  run<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.commitBatch(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async commitBatch(batch: Unit[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          await sql`savepoint unit`.execute(trx);
          try {
            const value = await unit.run(trx);
            await sql`release savepoint unit`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to savepoint unit`.execute(trx);
            await sql`release savepoint unit`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.error);
    });
  }
}
