/**
 * Group commit for SQLite: write units that arrive in the same turn of the event loop, or while a
 * batch is being committed, run together in one transaction. One commit (and one sync of the WAL) then makes a whole
 * batch durable, so the cost of the sync is shared by every request in the batch.
 *
 * Units run back to back without savepoints (the common case: none fails). When one throws, the
 * batch is rolled back and every unit is run again in its own transaction, so a failing unit
 * (an idempotency race, a quota) never takes the others down with it.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely, Transaction } from 'kysely';
import { registerNative } from './prepared.js';
import type { Database } from './schema.js';

type Unit = {
  run: (trx: Transaction<Database>) => Promise<unknown>;
  /** False: resolves after the commit without waiting for a sync (see `WriteOptions`). */
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

export interface GroupCommitOptions {
  /** Most units per transaction. Default 256. */
  maxBatch?: number;
  /**
   * Called after each commit and awaited before any unit's promise resolves: makes the commit
   * durable (the SQLite store syncs the WAL file here, off the event loop).
   */
  afterCommit?: () => Promise<void>;
  /** The connection under `db`: transactions are registered with it (see prepared.ts). */
  native?: BetterSqlite3.Database;
  /** Awaited, when it returns a promise, before a batch begins (the WAL checkpointer's turn). */
  beforeBatch?: () => Promise<void> | undefined;
}

export interface WriteOptions {
  /**
   * Default true: the write resolves once it survives a power cut. False: once it is committed
   * (it survives a crash of the process, and a power cut once the next sync ran). For records
   * whose loss in a power cut the system repairs by itself, so that they do not make a sync of
   * their own on the disk other writers wait for.
   */
  durable?: boolean;
}

class BatchFailed extends Error {}

/**
 * Coalesces syncs: a request resolves after a sync that started after it was made. While one sync
 * runs, every batch committed meanwhile waits for the single next one.
 */
class SyncCoalescer {
  private inFlight: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly sync: () => Promise<void>) {}

  request(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.sync().finally(() => {
        this.inFlight = undefined;
      });
      return this.inFlight;
    }
    this.next ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.request();
      });
    return this.next;
  }
}

export class GroupCommitter {
  private queue: Unit[] = [];
  private running = false;
  private readonly maxBatch: number;
  private readonly syncs: SyncCoalescer;
  private readonly native: BetterSqlite3.Database | undefined;
  private readonly beforeBatch: (() => Promise<void> | undefined) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    this.syncs = new SyncCoalescer(options.afterCommit ?? (async () => undefined));
    this.native = options.native;
    this.beforeBatch = options.beforeBatch;
  }

  /**
   * Runs `fn` in a transaction; resolves once that transaction is committed and durable, or with
   * `durable: false` once it is committed (it becomes durable with the next sync).
   */
  run<T>(fn: (trx: Transaction<Database>) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        run: fn,
        durable: options.durable ?? true,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      if (!this.running) {
        // The first batch starts after the requests read in this turn of the event loop have
        // queued their writes: they commit (and sync) together instead of one by one.
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const turn = this.beforeBatch?.();
        if (turn) await turn;
        const batch = this.queue.splice(0, this.maxBatch);
        await this.commitBatch(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async commitBatch(batch: Unit[]): Promise<void> {
    let values: unknown[];
    try {
      values = await this.db.transaction().execute(async (trx) => {
        if (this.native) registerNative(trx, this.native);
        const out: unknown[] = [];
        for (const unit of batch) {
          try {
            out.push(await unit.run(trx));
          } catch {
            throw new BatchFailed();
          }
        }
        return out;
      });
    } catch (error) {
      if (batch.length === 1 || !(error instanceof BatchFailed)) {
        if (batch.length === 1 && error instanceof BatchFailed) await this.runAlone(batch[0]!);
        else for (const unit of batch) unit.reject(error);
        return;
      }
      for (const unit of batch) await this.runAlone(unit);
      return;
    }
    // The next batch may start while this one's sync runs: its units resolve when it is done.
    const waiting: Array<[Unit, unknown]> = [];
    batch.forEach((unit, i) => {
      if (unit.durable) waiting.push([unit, values[i]]);
      else unit.resolve(values[i]);
    });
    if (waiting.length === 0) return;
    void this.durable(waiting.map(([unit]) => unit)).then((ok) => {
      if (ok) for (const [unit, value] of waiting) unit.resolve(value);
    });
  }

  private async runAlone(unit: Unit): Promise<void> {
    let value: unknown;
    try {
      value = await this.db.transaction().execute((trx) => {
        if (this.native) registerNative(trx, this.native);
        return unit.run(trx);
      });
    } catch (error) {
      unit.reject(error);
      return;
    }
    if (!unit.durable || (await this.durable([unit]))) unit.resolve(value);
  }

  /** Waits for a sync after the commit; on failure rejects every unit (maybe not durable). */
  private async durable(units: Unit[]): Promise<boolean> {
    try {
      await this.syncs.request();
      return true;
    } catch (error) {
      for (const unit of units) unit.reject(error);
      return false;
    }
  }
}
